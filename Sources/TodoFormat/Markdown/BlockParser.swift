// A CommonMark block-structure parser that finds task items.
//
// It follows the block algorithm of the CommonMark spec (and cmark's blocks.c
// in its details: tab stops, list-item padding, lazy continuation lines), but
// builds no tree: it keeps only the stack of open blocks and reports task
// items, headings and top-level list blocks to a sink as it goes. Inline
// content is never parsed. It works on UTF-8 bytes; every byte it looks at to
// find structure is ASCII.

import Foundation

/// What the parser knows of a task item when its name paragraph ends.
struct ParsedItem {
    /// 1-based line of the list marker.
    var line: Int
    /// Byte offset of the line that holds the marker.
    var lineStart: Int
    /// Byte offset of the list marker (`-`, `*`, `+` or the first digit).
    var markerStart: Int
    /// Byte offset of `[`.
    var boxStart: Int
    /// Byte offset just past the status character.
    var statusEnd: Int
    var status: TodoStatus
    /// Number of task items around this one.
    var depth: Int
    var isOrdered: Bool
    /// The content of each line of the name paragraph, without leading and trailing white space.
    var firstNameLine: Range<Int>
    var moreNameLines: [Range<Int>]
    /// Byte offset just past the last name line's content (where a line ending or trailing white space starts).
    var nameEnd: Int
    /// 1-based line of the last name line.
    var lastLine: Int
    /// Inside a block quote (cmark-gfm does not see these).
    var inBlockQuote: Bool
    /// The marker is not the first thing on its line after white space: another marker
    /// (`- - [ ] x`), a `>` or the file's byte order mark precedes it (cmark-gfm does not see these).
    var startsAfterOtherText: Bool
}

/// Receives what the block parser finds, in document order.
protocol BlockSink {
    mutating func item(_ item: ParsedItem)
    /// A heading at the top level of the document (not inside a list or quote).
    mutating func heading(text: String, level: Int, line: Int)
    /// A run of top-level list items from `firstLine` to `lastLine`; `canonicalizable` when it
    /// holds nothing but task items and their names.
    mutating func listBlock(firstLine: Int, lastLine: Int, canonicalizable: Bool)
    /// A line that looks like a task item but is not one, for `check`.
    mutating func nearMiss(line: Int, column: Int, message: String)
    /// A line of text inside the item that starts on `itemLine` that reads like a task item.
    mutating func taskLikeText(line: Int, column: Int, itemLine: Int, hasCheckedBox: Bool)
}

extension BlockSink {
    mutating func heading(text: String, level: Int, line: Int) {}
    mutating func listBlock(firstLine: Int, lastLine: Int, canonicalizable: Bool) {}
    mutating func nearMiss(line: Int, column: Int, message: String) {}
    mutating func taskLikeText(line: Int, column: Int, itemLine: Int, hasCheckedBox: Bool) {}
}

private enum BlockKind: Equatable {
    case document
    case blockQuote
    case item
    case paragraph
    case fencedCode
    case indentedCode
    case html
}

private struct OpenBlock {
    var kind: BlockKind
    var hasChildren = false
    // List items.
    var markerOffset = 0
    var padding = 0
    var isTask = false
    var isOrdered = false
    var listChar: UInt8 = 0  // bullet character or ordered delimiter, to tell lists apart
    var startLine = 0
    // Fenced code.
    var fenceChar: UInt8 = 0
    var fenceLength = 0
    var fenceOffset = 0
    // HTML blocks: the start condition, 1...7.
    var htmlType = 0
    // Paragraphs: index into `pendingItems` when this is a task item's name paragraph.
    var nameOf = -1
}

private let htmlBlockTags: Set<String> = [
    "address", "article", "aside", "base", "basefont", "blockquote", "body", "caption", "center", "col",
    "colgroup", "dd", "details", "dialog", "dir", "div", "dl", "dt", "fieldset", "figcaption", "figure",
    "footer", "form", "frame", "frameset", "h1", "h2", "h3", "h4", "h5", "h6", "head", "header", "hr",
    "html", "iframe", "legend", "li", "link", "main", "menu", "menuitem", "nav", "noframes", "ol",
    "optgroup", "option", "p", "param", "section", "source", "summary", "table", "tbody", "td",
    "tfoot", "th", "thead", "title", "tr", "track", "ul",
]

private let tab: UInt8 = 9, lf: UInt8 = 10, cr: UInt8 = 13, space: UInt8 = 32

struct BlockParser<Sink: BlockSink> {
    private let text: UnsafeBufferPointer<UInt8>
    private var sink: Sink
    private var open: [OpenBlock] = [OpenBlock(kind: .document)]

    // Line state, as in cmark.
    private var lineNumber = 0
    private var lineStart = 0
    private var lineEnd = 0  // before the line ending
    private var offset = 0
    private var column = 0
    private var partiallyConsumedTab = false
    private var firstNonspace = 0
    private var firstNonspaceColumn = 0
    private var indent = 0
    private var blank = false

    // Task items whose name paragraph is still open, by nesting; and the paragraph's lines.
    private var pendingItems: [ParsedItem] = []
    private var paragraphLines: [Range<Int>] = []
    private var paragraphLastLine = 0

    // The current run of top-level list items.
    private var listBlockFirst = 0
    private var listBlockLast = 0
    private var listBlockCanonical = true
    private var listBlockChar: UInt8 = 0

    init(text: UnsafeBufferPointer<UInt8>, sink: Sink) {
        self.text = text
        self.sink = sink
    }

    /// Parses lines from `start` (a line start), numbering the first one `firstLine`.
    mutating func parse(from start: Int, firstLine: Int) -> Sink {
        lineNumber = firstLine - 1
        parseLines(from: start, to: text.count)
        finishDocument()
        return sink
    }

    /// Parses the lines that start in `start..<end`; more lines may follow with another call.
    mutating func parseLines(from start: Int, to end: Int) {
        var position = start
        let count = text.count
        while position < end {
            var lineEnd = count
            // The newline search is the hot loop of the whole parser.
            if let base = text.baseAddress, let found = memchr(base + position, Int32(lf), count - position) {
                lineEnd = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
            }
            lineNumber += 1
            var contentEnd = lineEnd
            if contentEnd > position && text[contentEnd - 1] == cr { contentEnd -= 1 }
            processLine(start: position, end: contentEnd)
            position = lineEnd + 1
        }
    }

    /// Ends the document and hands back the sink.
    mutating func finish() -> Sink {
        finishDocument()
        return sink
    }

    /// Whether the next line, if it is a heading at column 0 after a blank line, closes every
    /// open block: nothing open can take it in (a fenced code block or an HTML block that
    /// ends only at its end marker). Then the rest of the text parses the same from scratch.
    var canRestartAtTopLevel: Bool {
        !open.contains { $0.kind == .fencedCode || ($0.kind == .html && $0.htmlType <= 5) }
    }

    // MARK: Position helpers

    private func byte(_ i: Int) -> UInt8 { i < lineEnd ? text[i] : lf }

    private mutating func findFirstNonspace() {
        var i = offset
        var col = column
        var charsToTab = 4 - (column % 4)
        while i < lineEnd {
            let c = text[i]
            if c == space {
                i += 1
                col += 1
                charsToTab -= 1
                if charsToTab == 0 { charsToTab = 4 }
            } else if c == tab {
                i += 1
                col += charsToTab
                charsToTab = 4
            } else {
                break
            }
        }
        firstNonspace = i
        firstNonspaceColumn = col
        indent = col - column
        blank = i >= lineEnd
    }

    private mutating func advance(_ count: Int, columns: Bool) {
        var count = count
        while count > 0 && offset < lineEnd {
            if text[offset] == tab {
                let charsToTab = 4 - (column % 4)
                if columns {
                    partiallyConsumedTab = charsToTab > count
                    let step = min(count, charsToTab)
                    column += step
                    offset += partiallyConsumedTab ? 0 : 1
                    count -= step
                } else {
                    partiallyConsumedTab = false
                    column += charsToTab
                    offset += 1
                    count -= 1
                }
            } else {
                partiallyConsumedTab = false
                offset += 1
                column += 1
                count -= 1
            }
        }
    }

    private mutating func advanceToFirstNonspace() {
        advance(firstNonspace - offset, columns: false)
    }

    // MARK: Lines

    private mutating func processLine(start: Int, end: Int) {
        lineStart = start
        lineEnd = end
        offset = start
        column = 0
        partiallyConsumedTab = false
        // A byte order mark at the start of the file is not content.
        if start == 0 { offset = ByteOrderMark.length(in: UnsafeBufferPointer(rebasing: text[..<end])) }

        // 1. Which open blocks does this line continue?
        var matched = 0  // index of the deepest matched block
        var i = 1
        matching: while i < open.count {
            findFirstNonspace()
            switch open[i].kind {
            case .document:
                break
            case .blockQuote:
                guard indent <= 3 && byte(firstNonspace) == UInt8(ascii: ">") else { break matching }
                advance(indent + 1, columns: true)
                if byte(offset) == space || byte(offset) == tab { advance(1, columns: true) }
            case .item:
                if indent >= open[i].markerOffset + open[i].padding {
                    advance(open[i].markerOffset + open[i].padding, columns: true)
                } else if blank && open[i].hasChildren {
                    advanceToFirstNonspace()
                } else {
                    break matching
                }
            case .fencedCode:
                if indent <= 3 && byte(firstNonspace) == open[i].fenceChar
                    && isClosingFence(at: firstNonspace, char: open[i].fenceChar, length: open[i].fenceLength)
                {
                    // The closing fence ends the block and the line.
                    closeBlocks(downTo: i - 1)
                    noteLine()
                    return
                }
                var n = open[i].fenceOffset
                while n > 0 && (byte(offset) == space || byte(offset) == tab) {
                    advance(1, columns: true)
                    n -= 1
                }
            case .indentedCode:
                if indent >= 4 {
                    advance(4, columns: true)
                } else if blank {
                    advanceToFirstNonspace()
                } else {
                    break matching
                }
            case .html:
                if open[i].htmlType >= 6 && blank { break matching }
            case .paragraph:
                if blank { break matching }
            }
            matched = i
            i += 1
        }
        let allMatched = matched == open.count - 1
        let lastMatched = matched

        // 2. Which new blocks does it open?
        var containerKind = open[matched].kind
        var maybeLazy = open[open.count - 1].kind == .paragraph
        var sawOtherContainer = false
        var newBlocks: [OpenBlock] = []  // opened by this line, below `container`
        var taskInfo: (boxStart: Int, statusEnd: Int, status: TodoStatus)? = nil

        newBlockLoop: while containerKind != .fencedCode && containerKind != .indentedCode && containerKind != .html {
            findFirstNonspace()
            let indented = indent >= 4
            let c = byte(firstNonspace)
            if !indented && c == UInt8(ascii: ">") {
                advance(firstNonspace + 1 - offset, columns: false)
                if byte(offset) == space || byte(offset) == tab { advance(1, columns: true) }
                newBlocks.append(OpenBlock(kind: .blockQuote))
                containerKind = .blockQuote
                sawOtherContainer = true
            } else if !indented && c == UInt8(ascii: "#") && atxLevel(at: firstNonspace) > 0 {
                let level = atxLevel(at: firstNonspace)
                let textRange = atxText(at: firstNonspace, level: level)
                let container = commit(&newBlocks, lastMatched: lastMatched, addingBlock: true)
                addLeaf(to: container)
                if container == 0 {
                    sink.heading(text: string(textRange), level: level, line: lineNumber)
                }
                noteLine()
                return
            } else if !indented && (c == UInt8(ascii: "`") || c == UInt8(ascii: "~")),
                let length = openingFenceLength(at: firstNonspace)
            {
                var block = OpenBlock(kind: .fencedCode)
                block.fenceChar = c
                block.fenceLength = length
                block.fenceOffset = firstNonspace - offset
                newBlocks.append(block)
                containerKind = .fencedCode
                break newBlockLoop
            } else if !indented && c == UInt8(ascii: "<"),
                let type = htmlBlockStart(at: firstNonspace, canBeType7: containerKind != .paragraph)
            {
                var block = OpenBlock(kind: .html)
                block.htmlType = type
                newBlocks.append(block)
                containerKind = .html
                break newBlockLoop
            } else if !indented && containerKind == .paragraph && newBlocks.isEmpty && allMatched,
                let level = setextLevel(at: firstNonspace)
            {
                // The paragraph becomes a heading.
                let paragraph = open.count - 1
                let parentIsDocument = paragraph == 1
                let lines = paragraphLines
                closeBlocks(downTo: paragraph - 1)
                if !parentIsDocument && listBlockFirst > 0 {
                    listBlockCanonical = false
                }
                if parentIsDocument {
                    let headingText = lines.map { string($0) }.joined(separator: " ")
                    sink.heading(text: headingText, level: level, line: lineNumber - lines.count)
                }
                noteLine()
                return
            } else if !indented && !(containerKind == .paragraph && !allMatched) && isThematicBreak(at: firstNonspace) {
                addLeaf(to: commit(&newBlocks, lastMatched: lastMatched, addingBlock: true))
                noteLine()
                return
            } else if !indented,
                let marker = listMarker(
                    at: firstNonspace, interruptsParagraph: containerKind == .paragraph && newBlocks.isEmpty)
            {
                let markerIndent = indent
                let markerStart = firstNonspace
                let followsOther = sawOtherContainer || firstNonspace != firstNonspaceOfLine()
                advanceToFirstNonspace()
                advance(marker.length, columns: false)
                let saveOffset = offset, saveColumn = column, saveTab = partiallyConsumedTab
                while column - saveColumn <= 5 && (byte(offset) == space || byte(offset) == tab) {
                    advance(1, columns: true)
                }
                let spaces = column - saveColumn
                var padding: Int
                if spaces >= 5 || spaces < 1 || offset >= lineEnd {
                    padding = marker.length + 1
                    offset = saveOffset
                    column = saveColumn
                    partiallyConsumedTab = saveTab
                    if spaces > 0 { advance(1, columns: true) }
                } else {
                    padding = marker.length + spaces
                }
                var block = OpenBlock(kind: .item)
                block.markerOffset = markerIndent
                block.padding = padding
                block.isOrdered = marker.ordered
                block.listChar = marker.char
                block.startLine = lineNumber
                // A task item: the content starts with `[c]` and white space.
                findFirstNonspace()
                if indent < 4, let box = taskBox(at: firstNonspace) {
                    block.isTask = true
                    taskInfo = box
                    pendingMarker = (markerStart, followsOther)
                    advance(box.statusEnd + 1 - offset, columns: false)
                    newBlocks.append(block)
                    containerKind = .item
                    break newBlockLoop
                } else if indent < 4 {
                    noteNearMiss(at: firstNonspace)
                }
                newBlocks.append(block)
                containerKind = .item
                sawOtherContainer = true
            } else if indented && !maybeLazy && !blank {
                advance(4, columns: true)
                newBlocks.append(OpenBlock(kind: .indentedCode))
                containerKind = .indentedCode
                break newBlockLoop
            } else {
                if newBlocks.isEmpty && containerKind == .item && !blank {
                    noteTaskLikeText(inItemAt: matched)
                }
                break newBlockLoop
            }
            maybeLazy = false
        }

        // 3. Add the rest of the line.
        findFirstNonspace()
        if newBlocks.isEmpty && !allMatched && !blank && open[open.count - 1].kind == .paragraph {
            // A lazy continuation line of the open paragraph.
            paragraphLines.append(firstNonspace..<trimmedEnd())
            paragraphLastLine = lineNumber
            noteLine()
            return
        }
        let container = commit(&newBlocks, lastMatched: lastMatched, addingBlock: !newBlocks.isEmpty)
        if let box = taskInfo {
            startTask(itemAt: container, box: box)
        }
        switch open[container].kind {
        case .fencedCode, .indentedCode:
            open[container].hasChildren = true
        case .html:
            if htmlBlockEnds(type: open[container].htmlType, from: offset) {
                closeBlocks(downTo: container - 1)
            }
        case .paragraph:
            if !blank {
                paragraphLines.append(firstNonspace..<trimmedEnd())
                paragraphLastLine = lineNumber
            }
        default:
            // A custom status is paragraph text to CommonMark, so its item always has a
            // paragraph, even when nothing follows the box.
            var isCustom = false
            if let box = taskInfo, case .custom = box.status { isCustom = true }
            if !blank || isCustom {
                // A new paragraph; the first one of a task item opened on this line is its name.
                let isName = taskInfo != nil && !open[container].hasChildren
                addLeaf(to: container, isName: isName)
                var paragraph = OpenBlock(kind: .paragraph)
                if isName { paragraph.nameOf = pendingItems.count - 1 }
                open.append(paragraph)
                paragraphLines.removeAll(keepingCapacity: true)
                paragraphLines.append(firstNonspace..<trimmedEnd())
                paragraphLastLine = lineNumber
            } else if taskInfo != nil {
                // A task item with no name.
                emitPendingItem(nameLines: [], lastLine: lineNumber)
            }
        }
        noteLine()
    }

    private var pendingMarker: (start: Int, followsOther: Bool) = (0, false)

    private func firstNonspaceOfLine() -> Int {
        var i = lineStart
        while i < lineEnd && (text[i] == space || text[i] == tab) { i += 1 }
        return i
    }

    private func trimmedEnd() -> Int {
        var end = lineEnd
        while end > firstNonspace && (text[end - 1] == space || text[end - 1] == tab) { end -= 1 }
        return end
    }

    /// Closes what this line did not continue and opens the blocks it started; returns the
    /// innermost open block. A paragraph or other leaf cannot hold a new block, so adding one closes it.
    private mutating func commit(_ newBlocks: inout [OpenBlock], lastMatched: Int, addingBlock: Bool) -> Int {
        closeBlocks(downTo: lastMatched)
        if addingBlock {
            let tip = open[open.count - 1].kind
            if tip == .paragraph || tip == .fencedCode || tip == .indentedCode || tip == .html {
                closeBlocks(downTo: open.count - 2)
            }
        }
        for block in newBlocks {
            let parent = open.count - 1
            open[parent].hasChildren = true
            trackListBlock(opening: block, parent: parent)
            open.append(block)
        }
        newBlocks.removeAll()
        return open.count - 1
    }

    /// Records a leaf that stays closed (heading, thematic break) or is about to open.
    private mutating func addLeaf(to container: Int, isName: Bool = false) {
        open[container].hasChildren = true
        if container == 0 {
            endListBlock()
        } else if listBlockFirst > 0 && !isName {
            // Anything but a name paragraph inside a top-level list.
            listBlockCanonical = false
        }
    }

    private mutating func trackListBlock(opening block: OpenBlock, parent: Int) {
        if parent == 0 {
            if block.kind == .item {
                // Each list is its own block: another bullet or delimiter starts a new list.
                if listBlockFirst > 0 && block.listChar != listBlockChar { endListBlock() }
                listBlockChar = block.listChar
                if listBlockFirst == 0 {
                    listBlockFirst = lineNumber
                    listBlockCanonical = true
                }
                if !block.isTask { listBlockCanonical = false }
            } else {
                endListBlock()
            }
        } else if listBlockFirst > 0 && !(block.kind == .item && block.isTask) {
            listBlockCanonical = false
        }
    }

    private mutating func endListBlock() {
        if listBlockFirst > 0 {
            sink.listBlock(firstLine: listBlockFirst, lastLine: listBlockLast, canonicalizable: listBlockCanonical)
            listBlockFirst = 0
        }
    }

    /// Records the line as the list block's last so far, unless it is white space only.
    private mutating func noteLine() {
        if listBlockFirst > 0 && firstNonspaceOfLine() < lineEnd { listBlockLast = lineNumber }
    }

    private mutating func startTask(itemAt index: Int, box: (boxStart: Int, statusEnd: Int, status: TodoStatus)) {
        var depth = 0
        var inQuote = false
        for j in 1..<index {
            if open[j].kind == .item && open[j].isTask { depth += 1 }
            if open[j].kind == .blockQuote { inQuote = true }
        }
        let item = ParsedItem(
            line: lineNumber, lineStart: lineStart, markerStart: pendingMarker.start,
            boxStart: box.boxStart, statusEnd: box.statusEnd, status: box.status, depth: depth,
            isOrdered: open[index].isOrdered, firstNameLine: 0..<0, moreNameLines: [], nameEnd: box.statusEnd + 1,
            lastLine: lineNumber, inBlockQuote: inQuote, startsAfterOtherText: pendingMarker.followsOther)
        pendingItems.append(item)
    }

    private mutating func emitPendingItem(nameLines: [Range<Int>], lastLine: Int) {
        var item = pendingItems.removeLast()
        if let first = nameLines.first {
            item.firstNameLine = first
            item.moreNameLines = Array(nameLines.dropFirst())
            item.nameEnd = nameLines[nameLines.count - 1].upperBound
        } else {
            item.firstNameLine = item.statusEnd + 1..<item.statusEnd + 1
            item.nameEnd = item.statusEnd + 1
        }
        item.lastLine = lastLine
        sink.item(item)
    }

    private mutating func closeBlocks(downTo keep: Int) {
        while open.count - 1 > keep {
            let block = open.removeLast()
            if block.kind == .paragraph && block.nameOf >= 0 {
                emitPendingItem(nameLines: paragraphLines, lastLine: paragraphLastLine)
            }
        }
    }

    private mutating func finishDocument() {
        closeBlocks(downTo: 0)
        endListBlock()
    }

    private func string(_ range: Range<Int>) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: text[range]), as: UTF8.self)
    }

    // MARK: Block starts

    private func atxLevel(at i: Int) -> Int {
        var n = 0
        while byte(i + n) == UInt8(ascii: "#") && n < 7 { n += 1 }
        guard n >= 1 && n <= 6 else { return 0 }
        let next = byte(i + n)
        return next == space || next == tab || next == lf ? n : 0
    }

    private func atxText(at i: Int, level: Int) -> Range<Int> {
        var start = i + level
        while start < lineEnd && (text[start] == space || text[start] == tab) { start += 1 }
        var end = lineEnd
        while end > start && (text[end - 1] == space || text[end - 1] == tab) { end -= 1 }
        // A closing sequence of #s, preceded by white space (or standing alone).
        var hashes = end
        while hashes > start && text[hashes - 1] == UInt8(ascii: "#") { hashes -= 1 }
        if hashes < end && (hashes == start || text[hashes - 1] == space || text[hashes - 1] == tab) {
            end = hashes
            while end > start && (text[end - 1] == space || text[end - 1] == tab) { end -= 1 }
        }
        return start..<max(start, end)
    }

    private func openingFenceLength(at i: Int) -> Int? {
        let c = byte(i)
        var n = 0
        while byte(i + n) == c { n += 1 }
        guard n >= 3 else { return nil }
        if c == UInt8(ascii: "`") {
            var j = i + n
            while j < lineEnd {
                if text[j] == UInt8(ascii: "`") { return nil }
                j += 1
            }
        }
        return n
    }

    private func isClosingFence(at i: Int, char: UInt8, length: Int) -> Bool {
        var n = 0
        while byte(i + n) == char { n += 1 }
        guard n >= length else { return false }
        var j = i + n
        while j < lineEnd {
            if text[j] != space && text[j] != tab { return false }
            j += 1
        }
        return true
    }

    private func setextLevel(at i: Int) -> Int? {
        let c = byte(i)
        guard c == UInt8(ascii: "=") || c == UInt8(ascii: "-") else { return nil }
        var j = i
        while j < lineEnd && text[j] == c { j += 1 }
        while j < lineEnd && (text[j] == space || text[j] == tab) { j += 1 }
        guard j == lineEnd else { return nil }
        return c == UInt8(ascii: "=") ? 1 : 2
    }

    private func isThematicBreak(at i: Int) -> Bool {
        let c = byte(i)
        guard c == UInt8(ascii: "*") || c == UInt8(ascii: "-") || c == UInt8(ascii: "_") else { return false }
        var count = 0
        var j = i
        while j < lineEnd {
            let b = text[j]
            if b == c {
                count += 1
            } else if b != space && b != tab {
                return false
            }
            j += 1
        }
        return count >= 3
    }

    private func listMarker(at i: Int, interruptsParagraph: Bool) -> (length: Int, ordered: Bool, char: UInt8)? {
        let c = byte(i)
        if c == UInt8(ascii: "-") || c == UInt8(ascii: "+") || c == UInt8(ascii: "*") {
            let next = byte(i + 1)
            guard next == space || next == tab || next == lf else { return nil }
            if interruptsParagraph && isBlankAfter(i + 1) { return nil }
            return (1, false, c)
        }
        var n = 0
        var value = 0
        while n < 10 && byte(i + n) >= UInt8(ascii: "0") && byte(i + n) <= UInt8(ascii: "9") {
            value = value * 10 + Int(byte(i + n) - UInt8(ascii: "0"))
            n += 1
        }
        guard n >= 1 && n <= 9 else { return nil }
        let delimiter = byte(i + n)
        guard delimiter == UInt8(ascii: ".") || delimiter == UInt8(ascii: ")") else { return nil }
        let next = byte(i + n + 1)
        guard next == space || next == tab || next == lf else { return nil }
        if interruptsParagraph && (value != 1 || isBlankAfter(i + n + 1)) { return nil }
        return (n + 1, true, delimiter)
    }

    private func isBlankAfter(_ i: Int) -> Bool {
        var j = i
        while j < lineEnd {
            if text[j] != space && text[j] != tab { return false }
            j += 1
        }
        return true
    }

    /// `[c]` followed by white space, where `c` is a single Unicode scalar other than a bracket,
    /// a backslash or white space.
    private func taskBox(at i: Int) -> (boxStart: Int, statusEnd: Int, status: TodoStatus)? {
        guard byte(i) == UInt8(ascii: "[") else { return nil }
        let first = byte(i + 1)
        var scalarEnd = i + 2
        let scalar: Unicode.Scalar
        if first < 0x80 {
            guard first == space || (first > 0x20 && first < 0x7F && first != UInt8(ascii: "[")
                && first != UInt8(ascii: "]") && first != UInt8(ascii: "\\"))
            else { return nil }
            scalar = Unicode.Scalar(first)
        } else {
            let length = first >= 0xF0 ? 4 : first >= 0xE0 ? 3 : first >= 0xC0 ? 2 : 0
            guard length > 0, i + 1 + length <= lineEnd else { return nil }
            var decoder = UTF8()
            var iterator = UnsafeBufferPointer(rebasing: text[(i + 1)..<(i + 1 + length)]).makeIterator()
            guard case .scalarValue(let s) = decoder.decode(&iterator), !s.properties.isWhitespace,
                s.properties.generalCategory != .control, s.properties.generalCategory != .format
            else { return nil }
            scalar = s
            scalarEnd = i + 1 + length
        }
        guard byte(scalarEnd) == UInt8(ascii: "]") else { return nil }
        let after = byte(scalarEnd + 1)
        // Vertical tab and form feed count as white space here, as in cmark-gfm.
        guard after == space || after == tab || after == 0x0B || after == 0x0C else { return nil }
        return (i, scalarEnd, TodoStatus(marker: scalar))
    }

    /// A line inside a list item that reads like a task item (`-[x] a`, or one indented
    /// into lazy text) but opens none. cmark-gfm then marks the enclosing item as a task
    /// (checked if the line holds `[x]`); todofmt reports the line instead.
    private mutating func noteTaskLikeText(inItemAt index: Int) {
        // cmark-gfm's pattern, on the whole line: white space, `-`, `+`, `*` or digits and any
        // one character, white space, `[ ]`, `[x]` or `[X]`, white space.
        func isSpace(_ b: UInt8) -> Bool { b == space || b == tab || b == 0x0B || b == 0x0C }
        var i = lineStart
        while i < lineEnd && isSpace(text[i]) { i += 1 }
        let markerStart = i
        if byte(i) == UInt8(ascii: "-") || byte(i) == UInt8(ascii: "+") || byte(i) == UInt8(ascii: "*") {
            i += 1
        } else {
            while byte(i) >= 48 && byte(i) <= 57 { i += 1 }
            guard i > markerStart, i < lineEnd else { return }
            i += 1
        }
        let spaceStart = i
        while i < lineEnd && isSpace(text[i]) { i += 1 }
        let box = byte(i + 1)
        guard i > spaceStart, byte(i) == UInt8(ascii: "["),
            box == space || box == UInt8(ascii: "x") || box == UInt8(ascii: "X"), byte(i + 2) == UInt8(ascii: "]"),
            i + 3 < lineEnd, isSpace(text[i + 3])
        else { return }
        sink.taskLikeText(
            line: lineNumber, column: markerStart - lineStart + 1, itemLine: open[index].startLine,
            hasCheckedBox: containsCheckedBox(lineStart..<lineEnd))
    }

    private func containsCheckedBox(_ range: Range<Int>) -> Bool {
        var i = range.lowerBound
        while i + 2 < range.upperBound {
            if text[i] == UInt8(ascii: "[") && (text[i + 1] | 0x20) == UInt8(ascii: "x") && text[i + 2] == UInt8(ascii: "]") {
                return true
            }
            i += 1
        }
        return false
    }

    /// Reports `[]`, `[ ]x` and `[xx]` right after a list marker: probably meant as tasks.
    private mutating func noteNearMiss(at i: Int) {
        guard byte(i) == UInt8(ascii: "[") else { return }
        let column = i - lineStart + 1
        if byte(i + 1) == UInt8(ascii: "]") {
            sink.nearMiss(line: lineNumber, column: column, message: "'[]' is not a checkbox; write '[ ]'")
        } else if byte(i + 2) == UInt8(ascii: "]") {
            let after = byte(i + 3)
            if after != lf && after != space && after != tab && after != UInt8(ascii: ":")
                && after != UInt8(ascii: "(") && after != UInt8(ascii: "[")
            {
                sink.nearMiss(
                    line: lineNumber, column: i + 3 - lineStart + 1,
                    message: "a checkbox needs a space after ']' to make a task item")
            }
        }
    }

    // MARK: HTML blocks


    private func lowerASCII(_ b: UInt8) -> UInt8 { b >= 65 && b <= 90 ? b + 32 : b }

    private func hasPrefix(_ prefix: String, at i: Int, ignoringCase: Bool) -> Bool {
        var j = i
        for p in prefix.utf8 {
            guard j < lineEnd else { return false }
            let b = ignoringCase ? lowerASCII(text[j]) : text[j]
            if b != p { return false }
            j += 1
        }
        return true
    }

    private func isLetter(_ b: UInt8) -> Bool { (b | 0x20) >= 97 && (b | 0x20) <= 122 }
    private func isDigit(_ b: UInt8) -> Bool { b >= 48 && b <= 57 }

    private func htmlBlockStart(at i: Int, canBeType7: Bool) -> Int? {
        for tag in ["script", "pre", "style"] where hasPrefix("<" + tag, at: i, ignoringCase: true) {
            let next = byte(i + 1 + tag.utf8.count)
            if next == space || next == tab || next == lf || next == UInt8(ascii: ">") { return 1 }
        }
        if hasPrefix("<!--", at: i, ignoringCase: false) { return 2 }
        if hasPrefix("<?", at: i, ignoringCase: false) { return 3 }
        if byte(i + 1) == UInt8(ascii: "!") && isLetter(byte(i + 2)) { return 4 }
        if hasPrefix("<![CDATA[", at: i, ignoringCase: false) { return 5 }
        var j = i + 1
        if byte(j) == UInt8(ascii: "/") { j += 1 }
        var name: [UInt8] = []
        while j < lineEnd && (isLetter(text[j]) || isDigit(text[j])) && name.count < 12 {
            name.append(lowerASCII(text[j]))
            j += 1
        }
        if !name.isEmpty && isLetter(name[0]) && htmlBlockTags.contains(String(decoding: name, as: UTF8.self)) {
            let next = byte(j)
            if next == space || next == tab || next == lf || next == UInt8(ascii: ">")
                || (next == UInt8(ascii: "/") && byte(j + 1) == UInt8(ascii: ">"))
            {
                return 6
            }
        }
        if canBeType7, let end = completeTagEnd(at: i), isBlankAfter(end) { return 7 }
        return nil
    }

    /// The end of a complete open or closing tag at `i` (CommonMark's HTML block condition 7).
    private func completeTagEnd(at i: Int) -> Int? {
        var j = i + 1
        let closing = byte(j) == UInt8(ascii: "/")
        if closing { j += 1 }
        guard isLetter(byte(j)) else { return nil }
        while isLetter(byte(j)) || isDigit(byte(j)) || byte(j) == UInt8(ascii: "-") { j += 1 }
        func skipSpace() -> Bool {
            let start = j
            while byte(j) == space || byte(j) == tab { j += 1 }
            return j > start
        }
        if closing {
            _ = skipSpace()
            return byte(j) == UInt8(ascii: ">") ? j + 1 : nil
        }
        while true {
            let hadSpace = skipSpace()
            let c = byte(j)
            if c == UInt8(ascii: ">") { return j + 1 }
            if c == UInt8(ascii: "/") { return byte(j + 1) == UInt8(ascii: ">") ? j + 2 : nil }
            guard hadSpace, isLetter(c) || c == UInt8(ascii: "_") || c == UInt8(ascii: ":") else { return nil }
            while isLetter(byte(j)) || isDigit(byte(j)) || [UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: ":"), UInt8(ascii: "-")].contains(byte(j)) {
                j += 1
            }
            let save = j
            _ = skipSpace()
            if byte(j) == UInt8(ascii: "=") {
                j += 1
                _ = skipSpace()
                let q = byte(j)
                if q == UInt8(ascii: "\"") || q == UInt8(ascii: "'") {
                    j += 1
                    while j < lineEnd && text[j] != q { j += 1 }
                    guard j < lineEnd else { return nil }
                    j += 1
                } else {
                    let start = j
                    while j < lineEnd {
                        let b = text[j]
                        if b == space || b == tab || b == UInt8(ascii: "\"") || b == UInt8(ascii: "'")
                            || b == UInt8(ascii: "=") || b == UInt8(ascii: "<") || b == UInt8(ascii: ">")
                            || b == UInt8(ascii: "`")
                        {
                            break
                        }
                        j += 1
                    }
                    guard j > start else { return nil }
                }
            } else {
                j = save
            }
        }
    }

    private func htmlBlockEnds(type: Int, from i: Int) -> Bool {
        let needles: [String]
        switch type {
        case 1: needles = ["</script>", "</pre>", "</style>"]
        case 2: needles = ["-->"]
        case 3: needles = ["?>"]
        case 4: needles = [">"]
        case 5: needles = ["]]>"]
        default: return false
        }
        var j = i
        while j < lineEnd {
            for needle in needles where hasPrefix(needle, at: j, ignoringCase: true) { return true }
            j += 1
        }
        return false
    }
}
