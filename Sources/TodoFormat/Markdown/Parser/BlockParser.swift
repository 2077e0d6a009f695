// A CommonMark block-structure parser that finds task items.
//
// It follows the block algorithm of the CommonMark spec, and cmark's blocks.c in its shape
// and its details (tab stops, list-item padding, lazy continuation lines), but builds no
// tree: it keeps only the stack of open blocks and reports task items, headings and
// top-level list blocks to a sink as it goes. Inline content is never parsed. It works on
// UTF-8 bytes; every byte it looks at to find structure is ASCII.

import Foundation

/// Finds the task items of Markdown text line by line, in cmark's three phases per line:
/// 1. match the open blocks that the line continues (`matchOpenBlocks`);
/// 2. open the blocks that start on the rest of the line (`openNewBlocks`);
/// 3. add what remains of the line to the innermost open block (`addText`).
struct BlockParser<Sink: BlockSink> {
    private var sink: Sink
    /// The open blocks, the document first; only the last one can be a leaf.
    private var open: [OpenBlock] = [.document]
    private var line: LineCursor

    // What the phases found on the current line.
    /// Index in `open` of the deepest block that the line continues (phase 1).
    private var lastMatched = 0
    /// The line opened a block (phase 2), so it is no lazy continuation line, and the blocks
    /// that it did not continue are closed.
    private var openedBlock = false
    /// The task item that the line opened (phase 2), to start in phase 3.
    private var newTask: NewTask?

    /// The task item whose name paragraph is open.
    private var pendingTask: PendingTask?
    /// The lines of the open paragraph (most have one), and the number of its last line.
    private var paragraphFirstLine = 0..<0
    private var paragraphMoreLines: [Range<Int>] = []
    private var paragraphLastLine = 0

    /// Whether common task lines take `readTaskLine`; tests turn it off to compare.
    var readsTaskLinesDirectly = true

    private var listBlocks = ListBlockTracker()
    /// Where a block closed now ends at the latest: the start of the line being read.
    private var closingBefore = 0

    /// A task item's marker and checkbox, found in phase 2.
    private struct NewTask {
        var box: TaskBox
        var markerStart: Int
        var isOrdered: Bool
        var startsAfterOtherText: Bool
    }

    /// A task item waiting for its name paragraph to close. (Plain values only: a
    /// `ParsedItem`, which holds an array, would cost reference counting on every line.)
    private struct PendingTask {
        var task: NewTask
        var line: Int
        var lineStart: Int
        var depth: Int
        var inBlockQuote: Bool
    }

    /// A parser of `text`; `startsFile` when the text is a whole file (not a part of one after
    /// its start), whose byte order mark is no content.
    init(text: UnsafeBufferPointer<UInt8>, sink: Sink, startsFile: Bool = true) {
        self.line = LineCursor(text: text)
        line.startsFile = startsFile
        self.sink = sink
    }

    /// Parses lines from `start` (a line start), numbering the first one `firstLine`.
    mutating func parse(from start: Int, firstLine: Int) -> Sink {
        line.number = firstLine - 1
        parseLines(from: start, to: line.text.count)
        return finish()
    }

    /// `parse(from:firstLine:)` that stops early, at the end of a line, once `done` is true of
    /// the sink (asked after about every megabyte): then the document is not finished, and
    /// the sink has only what the lines so far gave it.
    mutating func parse(from start: Int, firstLine: Int, until done: (Sink) -> Bool) -> Sink {
        line.number = firstLine - 1
        let text = line.text
        guard let base = text.baseAddress else { return finish() }
        var position = start
        while position < text.count {
            var end = text.count
            if position + (1 << 20) < text.count,
                let newline = memchr(base + position + (1 << 20), 10, end - position - (1 << 20))
            {
                end = base.distance(to: newline.assumingMemoryBound(to: UInt8.self)) + 1
            }
            parseLines(from: position, to: end)
            if done(sink) { return sink }
            position = end
        }
        return finish()
    }

    /// Parses the lines that start in `start..<end`; more lines may follow with another call.
    mutating func parseLines(from start: Int, to end: Int) {
        let text = line.text
        guard let base = text.baseAddress else { return }
        var position = start
        let count = text.count
        while position < end {
            var lineEnd = count
            // The newline search is the hot loop of the whole parser.
            if let found = memchr(base + position, Int32(UInt8(ascii: "\n")), count - position) {
                lineEnd = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
            }
            var contentEnd = lineEnd
            if contentEnd > position && text[contentEnd - 1] == UInt8(ascii: "\r") { contentEnd -= 1 }
            if !(readsTaskLinesDirectly && readTaskLine(start: position, end: contentEnd)) {
                processLine(start: position, end: contentEnd)
            }
            position = lineEnd + 1
        }
    }

    /// The common line of a checklist, read without the three phases: `- [ ] name` (`-`, `*`
    /// or `+`, one space, a box of an ASCII character, one space, a name), indented by
    /// spaces, right after a task item's one-line name, under nothing but task items. Sets the
    /// state and tells the sink what `processLine` would (the name paragraph closes, the items
    /// the line is not indented into end, a task item and its name paragraph open) and
    /// returns true; returns false, having changed nothing, for any other line or state.
    /// The tests compare both ways of reading on every fixture and on generated lines.
    private mutating func readTaskLine(start: Int, end: Int) -> Bool {
        let count = open.count
        guard count >= 3, pendingTask != nil, paragraphMoreLines.isEmpty,
            case .paragraph(isItemName: true, _) = open[count - 1]
        else { return false }
        let text = line.text
        var i = start
        while i < end && text[i] == UInt8(ascii: " ") { i += 1 }
        guard i + 5 < end else { return false }
        let bullet = text[i]
        guard bullet == UInt8(ascii: "-") || bullet == UInt8(ascii: "*") || bullet == UInt8(ascii: "+"),
            text[i + 1] == UInt8(ascii: " "), text[i + 2] == UInt8(ascii: "["), text[i + 4] == UInt8(ascii: "]"),
            text[i + 5] == UInt8(ascii: " ")
        else { return false }
        guard let status = TaskBox.status(of: text[i + 3]) else { return false }
        var nameStart = i + 6
        while nameStart < end && LineCursor.isSpaceOrTab(text[nameStart]) { nameStart += 1 }
        guard nameStart < end else { return false }
        var nameEnd = end
        while LineCursor.isSpaceOrTab(text[nameEnd - 1]) { nameEnd -= 1 }
        // Phase 1: the list items the line is indented into (all columns are bytes: no tabs).
        let indent = i - start
        var column = 0
        var matched = 0
        for j in 1..<(count - 1) {
            guard case .listItem(let item) = open[j], item.isTask else { return false }
            if matched == j - 1 && indent >= column + item.contentIndent {
                column += item.contentIndent
                matched = j
            }
        }
        // Four columns more would make it an indented code block or continuation text.
        guard indent - column < 4 else { return false }
        // Phase 2: a list item opens, closing the name paragraph and the items not continued.
        line.number += 1
        closingBefore = start
        closeBlocks(downTo: matched)
        markHasChildren(matched)
        var item = ListItemBlock(
            markerOffset: indent - column, padding: 2, isTask: true, isOrdered: false, listChar: bullet,
            startLine: line.number)
        reportListBlock(listBlocks.opened(.listItem(item), atTopLevel: matched == 0, line: line.number))
        // Phase 3: its name paragraph, which makes the item hold a block.
        item.hasChildren = true
        open.append(.listItem(item))
        let task = NewTask(
            box: TaskBox(start: i + 2, statusEnd: i + 4, status: status), markerStart: i, isOrdered: false,
            startsAfterOtherText: false)
        pendingTask = PendingTask(
            task: task, line: line.number, lineStart: start, depth: matched, inBlockQuote: false)
        open.append(.paragraph(isItemName: true, isText: false))
        paragraphFirstLine = nameStart..<nameEnd
        paragraphLastLine = line.number
        if listBlocks.isOpen { listBlocks.noteContent(onLine: line.number) }
        return true
    }

    /// Runs `body` with the sink, which it may change (a reader empties a queue of items).
    mutating func withSink<T>(_ body: (inout Sink) throws -> T) rethrows -> T {
        try body(&sink)
    }

    /// Ends the document and hands back the sink.
    mutating func finish() -> Sink {
        closingBefore = line.text.count
        closeBlocks(downTo: 0)
        reportListBlock(listBlocks.end())
        return sink
    }

    /// Whether the next line, if it is a heading at column 0 after a blank line, closes every
    /// open block: nothing open can take it in (a fenced code block or an HTML block that
    /// ends only at its end marker). Then the rest of the text parses the same from scratch.
    var canRestartAtTopLevel: Bool {
        !open.contains { block in
            switch block {
            case .fencedCode: true
            case .html(let condition): !condition.endsAtBlankLine
            default: false
            }
        }
    }

    private mutating func processLine(start: Int, end: Int) {
        line.begin(start: start, end: end)
        closingBefore = start
        openedBlock = false
        newTask = nil
        if let matched = matchOpenBlocks() {
            lastMatched = matched
            let allMatched = matched == open.count - 1
            if openNewBlocks(allMatched: allMatched) {
                addText(allMatched: allMatched)
            }
        }
        // Every line that is not white space only is the list block's last so far.
        if listBlocks.isOpen && line.firstNonspaceOfLine < line.end { listBlocks.noteContent(onLine: line.number) }
    }

    // MARK: Phase 1: the open blocks that the line continues

    /// Walks down the open blocks, each consuming its prefix of the line (cmark's
    /// `check_open_blocks`). Returns the index of the deepest block that the line continues,
    /// or nil when the line was a closing code fence, which ends its block and the line.
    private mutating func matchOpenBlocks() -> Int? {
        var i = 1
        while i < open.count {
            line.findFirstNonspace()
            let continues: Bool
            switch open[i] {
            case .document: continues = true  // only ever at index 0
            case .blockQuote: continues = continueBlockQuote()
            case .listItem(let item): continues = continueListItem(item)
            case .fencedCode(let fence):
                if isClosingFence(of: fence) {
                    closeBlocks(downTo: i - 1)
                    return nil
                }
                continueFencedCode(fence)
                continues = true
            case .indentedCode: continues = continueIndentedCode()
            case .html(let condition): continues = continueHTMLBlock(condition)
            case .paragraph: continues = continueParagraph()
            }
            guard continues else { break }
            i += 1
        }
        return i - 1
    }

    /// A block quote continues on `>` indented up to three columns; it takes one space after it.
    private mutating func continueBlockQuote() -> Bool {
        guard line.indent <= 3 && line.byte(line.firstNonspace) == UInt8(ascii: ">") else { return false }
        line.advance(line.indent + 1, columns: true)
        line.skipOptionalSpace()
        return true
    }

    /// A list item continues on a line indented to its content, or on a blank line once it
    /// holds a block.
    private mutating func continueListItem(_ item: ListItemBlock) -> Bool {
        if line.indent >= item.contentIndent {
            line.advance(item.contentIndent, columns: true)
        } else if line.blank && item.hasChildren {
            line.advanceToFirstNonspace()
        } else {
            return false
        }
        return true
    }

    private func isClosingFence(of fence: CodeFence) -> Bool {
        line.indent <= 3 && line.byte(line.firstNonspace) == fence.char
            && line.isClosingFence(at: line.firstNonspace, char: fence.char, length: fence.length)
    }

    /// A fenced code block continues on every line until its closing fence; each line loses
    /// up to as much indentation as the opening fence had.
    private mutating func continueFencedCode(_ fence: CodeFence) {
        var n = fence.indentation
        while n > 0 && LineCursor.isSpaceOrTab(line.byte(line.offset)) {
            line.advance(1, columns: true)
            n -= 1
        }
    }

    /// An indented code block continues on a line indented four columns, or a blank one.
    private mutating func continueIndentedCode() -> Bool {
        if line.indent >= 4 {
            line.advance(4, columns: true)
        } else if line.blank {
            line.advanceToFirstNonspace()
        } else {
            return false
        }
        return true
    }

    /// An HTML block continues until its end marker, or for conditions 6 and 7 until a blank line.
    private func continueHTMLBlock(_ condition: HTMLBlockCondition) -> Bool {
        !(condition.endsAtBlankLine && line.blank)
    }

    /// A paragraph continues until a blank line (or a block start, found in phase 2).
    private func continueParagraph() -> Bool {
        !line.blank
    }

    // MARK: Phase 2: the blocks that start on the line

    /// What phase 2 found at the line's next non-space character.
    private enum BlockStart {
        /// A block quote or a list item: more blocks may start after it.
        case container
        /// A block whose content is the rest of the line: code, HTML, or a task item's name.
        case text
        /// A heading or a thematic break, which took the rest of the line.
        case lineConsumed
        /// No block: the rest of the line is text.
        case none
    }

    /// The block that new blocks and the line's text go into.
    private var container: Int { openedBlock ? open.count - 1 : lastMatched }

    /// Opens the blocks that start after the matched ones (cmark's `open_new_blocks`):
    /// containers, until a leaf block or plain text starts. Returns false when a heading or
    /// a thematic break took the rest of the line.
    private mutating func openNewBlocks(allMatched: Bool) -> Bool {
        var maybeLazy = open[open.count - 1].isParagraph
        // A block quote or list item opened on this line: a task marker after it is not
        // the first thing on its line.
        var sawOtherContainer = false
        while !open[container].isVerbatim {
            line.findFirstNonspace()
            let start: BlockStart
            if line.indent >= 4 {
                start = !maybeLazy && !line.blank ? startIndentedCode() : .none
            } else {
                start = startBlock(allMatched: allMatched, sawOtherContainer: &sawOtherContainer)
            }
            switch start {
            case .container:
                maybeLazy = false
            case .text:
                return true
            case .lineConsumed:
                return false
            case .none:
                if !openedBlock && !line.blank {
                    if case .listItem(let item) = open[lastMatched] {
                        noteTaskLikeText(inside: item)
                    } else if allMatched, case .paragraph(let isItemName, _) = open[open.count - 1] {
                        noteTaskLineInParagraph(isItemName: isItemName)
                    }
                }
                return true
            }
        }
        return true
    }

    /// The block that starts at the first non-space character, which is indented less than
    /// four columns. Tried in CommonMark's order: the characters that can start two kinds
    /// (`-` a setext underline, a thematic break or a list item) try them in turn.
    private mutating func startBlock(allMatched: Bool, sawOtherContainer: inout Bool) -> BlockStart {
        let first = line.firstNonspace
        let c = line.byte(first)
        switch c {
        case UInt8(ascii: ">"):
            line.advance(first + 1 - line.offset, columns: false)
            line.skipOptionalSpace()
            addBlock(.blockQuote)
            sawOtherContainer = true
            return .container
        case UInt8(ascii: "#"):
            if let level = line.atxHeadingLevel(at: first) {
                addATXHeading(level: level, at: first)
                return .lineConsumed
            }
        case UInt8(ascii: "`"), UInt8(ascii: "~"):
            if let length = line.openingFenceLength(at: first) {
                addBlock(.fencedCode(CodeFence(char: c, length: length, indentation: first - line.offset)))
                sink.textBlock(line: line.number)
                return .text
            }
        case UInt8(ascii: "<"):
            // Condition 7 cannot interrupt a paragraph.
            let canBeCompleteTag = !open[container].isParagraph
            if let condition = HTMLBlockCondition.start(at: first, in: line, canBeCompleteTag: canBeCompleteTag) {
                addBlock(.html(condition))
                sink.textBlock(line: line.number)
                return .text
            }
        default:
            break
        }
        let inParagraph = open[container].isParagraph
        if inParagraph && allMatched, let level = line.setextHeadingLevel(at: first) {
            turnParagraphIntoHeading(level: level)
            return .lineConsumed
        }
        if !(inParagraph && !allMatched) && line.isThematicBreak(at: first) {
            addLeaf(to: prepareForNewBlock(), isItemName: false)
            sink.textBlock(line: line.number)
            return .lineConsumed
        }
        if let marker = line.listMarker(at: first, interruptsParagraph: inParagraph) {
            return startListItem(marker, sawOtherContainer: &sawOtherContainer)
        }
        return .none
    }

    /// A list item, which is a task item when its content starts with a checkbox.
    private mutating func startListItem(_ marker: ListMarker, sawOtherContainer: inout Bool) -> BlockStart {
        let markerStart = line.firstNonspace
        var item = ListItemBlock(
            markerOffset: line.indent, padding: 0, isTask: false, isOrdered: marker.isOrdered,
            listChar: marker.char, startLine: line.number)
        line.advanceToFirstNonspace()
        line.advance(marker.length, columns: false)
        item.padding = line.consumeListItemPadding(markerLength: marker.length)
        line.findFirstNonspace()
        if line.indent < 4, let box = line.taskBox(at: line.firstNonspace) {
            item.isTask = true
            newTask = NewTask(
                box: box, markerStart: markerStart, isOrdered: marker.isOrdered,
                startsAfterOtherText: sawOtherContainer || markerStart != line.firstNonspaceOfLine)
            // The rest of the line, after `]`, is the item's name.
            line.advance(box.statusEnd + 1 - line.offset, columns: false)
            addBlock(.listItem(item))
            return .text
        }
        if line.indent < 4, let miss = TaskHeuristics.nearMiss(at: line.firstNonspace, in: line) {
            sink.nearMiss(line: line.number, column: miss.column, message: miss.message, relatedLine: nil)
        }
        addBlock(.listItem(item))
        sawOtherContainer = true
        return .container
    }

    private mutating func startIndentedCode() -> BlockStart {
        line.advance(4, columns: true)
        addBlock(.indentedCode)
        sink.textBlock(line: line.number)
        return .text
    }

    private mutating func addATXHeading(level: Int, at first: Int) {
        let text = line.atxHeadingText(at: first, level: level)
        let parent = prepareForNewBlock()
        addLeaf(to: parent, isItemName: false)
        if parent == 0 {
            sink.heading(text: line.string(text), level: level, line: line.number, start: line.start, end: line.end)
        } else {
            sink.textBlock(line: line.number)
        }
    }

    /// An underline after a paragraph that the line continues makes the paragraph a heading.
    private mutating func turnParagraphIntoHeading(level: Int) {
        let paragraph = open.count - 1
        // The paragraph is the heading's text: at the top a heading of its own, deeper text.
        if paragraph == 1 { open[paragraph] = .paragraph(isItemName: false, isText: false) }
        closeBlocks(downTo: paragraph - 1)
        if paragraph == 1 {
            let lines = [paragraphFirstLine] + paragraphMoreLines
            let text = lines.map { line.string($0) }.joined(separator: " ")
            var start = paragraphFirstLine.lowerBound
            while start > 0 && line.text[start - 1] != UInt8(ascii: "\n") { start -= 1 }
            sink.heading(text: text, level: level, line: line.number - lines.count, start: start, end: line.end)
        } else {
            listBlocks.paragraphBecameHeading()
        }
    }

    /// Before the line's first new block, closes the blocks that the line did not continue,
    /// and a matched leaf, which cannot hold a block (cmark's `add_child`). Returns the
    /// index of the new block's parent.
    private mutating func prepareForNewBlock() -> Int {
        if !openedBlock {
            openedBlock = true
            closeBlocks(downTo: lastMatched)
            if open[open.count - 1].isLeaf { closeBlocks(downTo: open.count - 2) }
        }
        return open.count - 1
    }

    private mutating func addBlock(_ block: OpenBlock) {
        let parent = prepareForNewBlock()
        markHasChildren(parent)
        reportListBlock(listBlocks.opened(block, atTopLevel: parent == 0, line: line.number))
        open.append(block)
    }

    /// Records a leaf block in `container`: one that stays closed (a heading or thematic
    /// break) or a paragraph about to open.
    private mutating func addLeaf(to container: Int, isItemName: Bool) {
        markHasChildren(container)
        reportListBlock(listBlocks.addedLeaf(atTopLevel: container == 0, isItemName: isItemName))
    }

    private mutating func markHasChildren(_ index: Int) {
        if case .listItem(var item) = open[index], !item.hasChildren {
            item.hasChildren = true
            open[index] = .listItem(item)
        }
    }

    // MARK: Phase 3: the line's text

    /// Adds the rest of the line to the innermost open block (cmark's
    /// `add_text_to_container`): to the open paragraph as a lazy continuation line, to a
    /// paragraph or code block, or as a new paragraph, which is the name of a task item
    /// opened on this line.
    private mutating func addText(allMatched: Bool) {
        line.findFirstNonspace()
        if !openedBlock && !allMatched && !line.blank && open[open.count - 1].isParagraph {
            // A lazy continuation line of the open paragraph.
            addParagraphLine()
            return
        }
        if !openedBlock { closeBlocks(downTo: lastMatched) }
        let container = open.count - 1
        if let task = newTask { startTask(task, itemAt: container) }
        switch open[container] {
        case .fencedCode, .indentedCode:
            break
        case .html(let condition):
            if condition.ends(in: line, from: line.offset) { closeBlocks(downTo: container - 1) }
        case .paragraph:
            if !line.blank { addParagraphLine() }
        case .document, .blockQuote, .listItem:
            // A custom status is paragraph text to CommonMark, so its item always has a
            // paragraph, even when nothing follows the box.
            var isCustom = false
            if let task = newTask, case .custom = task.box.status { isCustom = true }
            if !line.blank || isCustom {
                // A new paragraph; the first one of a task item opened on this line is its name.
                let isName = newTask != nil
                addLeaf(to: container, isItemName: isName)
                open.append(.paragraph(isItemName: isName, isText: !isName))
                paragraphFirstLine = line.firstNonspace..<line.trimmedEnd
                if !paragraphMoreLines.isEmpty { paragraphMoreLines.removeAll(keepingCapacity: true) }
                paragraphLastLine = line.number
            } else if newTask != nil {
                // A task item with no name.
                emitPendingItem(named: false)
            }
        }
    }

    /// Adds the line to the open paragraph.
    private mutating func addParagraphLine() {
        paragraphMoreLines.append(line.firstNonspace..<line.trimmedEnd)
        paragraphLastLine = line.number
    }

    // MARK: Closing blocks, task items

    /// Closes the open blocks above `keep`; a closing name paragraph completes its task item.
    private mutating func closeBlocks(downTo keep: Int) {
        while open.count - 1 > keep {
            switch open[open.count - 1] {
            case .paragraph(isItemName: true, _): emitPendingItem(named: true)
            case .paragraph(isItemName: false, isText: true):
                sink.textBlock(line: paragraphLastLine - paragraphMoreLines.count)
            case .listItem(let item) where item.isTask: sink.itemEnded(before: closingBefore)
            default: break
            }
            open.removeLast()
        }
    }

    /// Holds the task item opened on this line until its name paragraph closes.
    private mutating func startTask(_ task: NewTask, itemAt index: Int) {
        var depth = 0
        var inBlockQuote = false
        for j in 1..<index {
            switch open[j] {
            case .listItem(let item) where item.isTask: depth += 1
            case .blockQuote: inBlockQuote = true
            default: break
            }
        }
        pendingTask = PendingTask(
            task: task, line: line.number, lineStart: line.start, depth: depth, inBlockQuote: inBlockQuote)
    }

    /// Reports the pending task item, `named` by the paragraph that just closed, or without a name.
    private mutating func emitPendingItem(named: Bool) {
        guard let pending = pendingTask else { return }
        pendingTask = nil
        let box = pending.task.box
        let noName = box.statusEnd + 1..<box.statusEnd + 1
        let lastNameLine = paragraphMoreLines.last ?? paragraphFirstLine
        sink.item(
            ParsedItem(
                line: pending.line, lineStart: pending.lineStart, markerStart: pending.task.markerStart,
                boxStart: box.start, statusEnd: box.statusEnd, status: box.status, depth: pending.depth,
                isOrdered: pending.task.isOrdered, firstNameLine: named ? paragraphFirstLine : noName,
                moreNameLines: named ? paragraphMoreLines : [],
                nameEnd: named ? lastNameLine.upperBound : noName.upperBound,
                lastLine: named ? paragraphLastLine : line.number, inBlockQuote: pending.inBlockQuote,
                startsAfterOtherText: pending.task.startsAfterOtherText))
    }

    // MARK: Reports for fmt and check

    private mutating func reportListBlock(_ block: ListBlockTracker.ListBlock?) {
        if let block {
            sink.listBlock(
                firstLine: block.firstLine, lastLine: block.lastLine, canonicalizable: block.canonicalizable)
        }
    }

    /// Reports a line that reads like a task item but continues the open paragraph (not
    /// lazily): the name of the pending task item, or other text. It is indented four columns
    /// or more past that text, or an ordered item not numbered 1, which cannot interrupt it.
    private mutating func noteTaskLineInParagraph(isItemName: Bool) {
        let start = line.firstNonspace
        guard let ordered = TaskHeuristics.taskLine(at: start, in: line) else { return }
        let owner =
            isItemName ? "is part of the name of the item on line {line}" : "continues the paragraph on line {line}"
        let ownerLine =
            isItemName ? pendingTask?.line ?? paragraphLastLine : paragraphLastLine - paragraphMoreLines.count
        let cause =
            line.indent >= 4
            ? "it is indented 4 or more columns past that text; indent it less"
            : ordered
                ? "an ordered item not numbered 1 cannot interrupt it; number it 1 or add a blank line before it"
                : "add a blank line before it"
        sink.nearMiss(
            line: line.number, column: start - line.start + 1,
            message: "this line reads like a task item but \(owner): \(cause)",
            relatedLine: ownerLine)
    }

    /// Reports a line of text in `item` that reads like a task item but opens none.
    private mutating func noteTaskLikeText(inside item: ListItemBlock) {
        guard let marker = TaskHeuristics.taskLikeMarker(in: line) else { return }
        sink.taskLikeText(
            line: line.number, column: marker - line.start + 1, itemLine: item.startLine,
            hasCheckedBox: TaskHeuristics.containsCheckedBox(line))
    }
}
