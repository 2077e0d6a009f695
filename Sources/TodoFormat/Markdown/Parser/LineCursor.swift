/// One line of the text and how far the block parser has read into it, as cmark keeps them:
/// a byte offset, a column that counts a tab up to the next multiple of 4, and the first
/// character after the offset that is not a space or tab.
///
/// Every byte it looks at to find structure is ASCII; past the end of the line it reads `\n`.
struct LineCursor {
    /// The whole text; the line is `start..<end` of it.
    let text: UnsafeBufferPointer<UInt8>
    /// 1-based number of the line.
    var number = 0
    /// Byte offset of the line's first byte.
    private(set) var start = 0
    /// Byte offset where the line's content ends: its line ending, or the end of the text.
    private(set) var end = 0
    /// The first byte that the blocks matched or opened so far have not consumed.
    private(set) var offset = 0
    /// The column of `offset` (never negative, so `column & 3` is its place between tab stops).
    private(set) var column = 0
    /// Part of the tab at `offset` has been consumed as columns (indentation inside a tab).
    private(set) var partiallyConsumedTab = false
    /// The first byte from `offset` that is not a space or tab, as of `findFirstNonspace()`.
    private(set) var firstNonspace = 0
    /// The column of `firstNonspace`.
    private var firstNonspaceColumn = 0
    /// Columns from `column` to `firstNonspace`.
    private(set) var indent = 0
    /// Only spaces and tabs remain from `offset`.
    private(set) var blank = false
    /// Whether the text starts the file, so that a byte order mark at its start is no content.
    var startsFile = true

    init(text: UnsafeBufferPointer<UInt8>) {
        self.text = text
    }

    /// Starts the next line, `start..<end`.
    mutating func begin(start: Int, end: Int) {
        number += 1
        self.start = start
        self.end = end
        offset = start
        column = 0
        partiallyConsumedTab = false
        firstNonspace = -1
        // A byte order mark at the start of the file is not content.
        if start == 0 && startsFile { offset = ByteOrderMark.length(in: UnsafeBufferPointer(rebasing: text[..<end])) }
    }

    /// The byte at `i`, or `\n` past the end of the line.
    @inline(__always)
    func byte(_ i: Int) -> UInt8 { i < end ? text[i] : UInt8(ascii: "\n") }

    @inline(__always)
    static func isSpaceOrTab(_ b: UInt8) -> Bool { b == UInt8(ascii: " ") || b == UInt8(ascii: "\t") }

    /// Sets `firstNonspace`, `indent` and `blank` for the current offset.
    mutating func findFirstNonspace() {
        // Still ahead of the offset: the same byte (cmark keeps it too). Without this, each
        // of d nested containers would scan the line's indentation again, d² on a deep line.
        if firstNonspace > offset {
            indent = firstNonspaceColumn - column
            return
        }
        var i = offset
        var col = column
        var charsToTab = 4 - (column & 3)
        while i < end {
            let c = text[i]
            if c == UInt8(ascii: " ") {
                i += 1
                col += 1
                charsToTab -= 1
                if charsToTab == 0 { charsToTab = 4 }
            } else if c == UInt8(ascii: "\t") {
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
        blank = i >= end
    }

    /// Consumes `count` characters, or with `columns` that many columns (a tab may be
    /// consumed in part, as indentation is).
    mutating func advance(_ count: Int, columns: Bool) {
        var count = count
        while count > 0 && offset < end {
            if text[offset] == UInt8(ascii: "\t") {
                let charsToTab = 4 - (column & 3)
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

    mutating func advanceToFirstNonspace() {
        advance(firstNonspace - offset, columns: false)
    }

    /// Consumes one space or tab, if there is one at the offset.
    mutating func skipOptionalSpace() {
        if Self.isSpaceOrTab(byte(offset)) { advance(1, columns: true) }
    }

    /// Consumes the white space after a list marker of `markerLength` characters and returns
    /// the item's padding: the columns from the marker to the item's content. One to four
    /// spaces belong to the marker; with none, five or more, or nothing else on the line, only
    /// one does (and the rest is indentation of the content, an indented code block).
    mutating func consumeListItemPadding(markerLength: Int) -> Int {
        let saveOffset = offset
        let saveColumn = column
        let saveTab = partiallyConsumedTab
        while column - saveColumn <= 5 && Self.isSpaceOrTab(byte(offset)) {
            advance(1, columns: true)
        }
        let spaces = column - saveColumn
        guard spaces >= 5 || spaces < 1 || offset >= end else { return markerLength + spaces }
        offset = saveOffset
        column = saveColumn
        partiallyConsumedTab = saveTab
        if spaces > 0 { advance(1, columns: true) }
        return markerLength + 1
    }

    /// The first byte of the line that is not a space or tab (the line's end when there is none).
    var firstNonspaceOfLine: Int {
        var i = start
        while i < end && Self.isSpaceOrTab(text[i]) { i += 1 }
        return i
    }

    /// The end of the line's content without trailing spaces and tabs, not before `firstNonspace`.
    var trimmedEnd: Int {
        var i = end
        while i > firstNonspace && Self.isSpaceOrTab(text[i - 1]) { i -= 1 }
        return i
    }

    /// Whether only spaces and tabs follow from `i` to the end of the line.
    func isBlank(from i: Int) -> Bool {
        var j = i
        while j < end {
            if !Self.isSpaceOrTab(text[j]) { return false }
            j += 1
        }
        return true
    }

    /// The bytes of `range` as a string.
    func string(_ range: Range<Int>) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: text[range]), as: UTF8.self)
    }
}
