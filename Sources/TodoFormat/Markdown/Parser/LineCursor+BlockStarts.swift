// The block starts of CommonMark that matter for finding task items, recognised at a byte
// offset of the line (the first non-space character). HTML blocks are in HTMLBlockCondition.

/// A list marker: `-`, `+`, `*`, or up to nine digits and `.` or `)`.
struct ListMarker {
    /// Bytes of the marker.
    var length: Int
    var isOrdered: Bool
    /// The bullet character or the ordered delimiter: a different one starts a different list.
    var char: UInt8
}

/// A task item's checkbox: `[c]` followed by white space.
struct TaskBox {
    /// Byte offset of `[`.
    var start: Int
    /// Byte offset just past the status character (of `]`).
    var statusEnd: Int
    var status: TodoStatus

    /// The status a box's character gives (`[ ]` open, `[x]` and `[X]` done, any other
    /// printable ASCII character but `[`, `]` and `\` a status of its own); nil where the
    /// line has no box.
    @inline(__always)
    static func status(of character: UInt8) -> TodoStatus? {
        switch character {
        case UInt8(ascii: " "): .open
        case UInt8(ascii: "x"), UInt8(ascii: "X"): .done
        case UInt8(ascii: "["), UInt8(ascii: "]"), UInt8(ascii: "\\"): nil
        case 0x21..<0x7F: .custom(Unicode.Scalar(character))
        default: nil
        }
    }
}

extension LineCursor {
    /// The level of an ATX heading (`#` to `######` and white space or the line's end) at `i`.
    func atxHeadingLevel(at i: Int) -> Int? {
        var n = 0
        while byte(i + n) == UInt8(ascii: "#") && n < 7 { n += 1 }
        guard n >= 1 && n <= 6 else { return nil }
        let next = byte(i + n)
        return Self.isSpaceOrTab(next) || next == UInt8(ascii: "\n") ? n : nil
    }

    /// The text of the ATX heading of `level` at `i`, without the closing `#`s and white space.
    func atxHeadingText(at i: Int, level: Int) -> Range<Int> {
        var start = i + level
        while start < end && Self.isSpaceOrTab(text[start]) { start += 1 }
        var end = self.end
        while end > start && Self.isSpaceOrTab(text[end - 1]) { end -= 1 }
        // A closing sequence of #s, preceded by white space (or standing alone).
        var hashes = end
        while hashes > start && text[hashes - 1] == UInt8(ascii: "#") { hashes -= 1 }
        if hashes < end && (hashes == start || Self.isSpaceOrTab(text[hashes - 1])) {
            end = hashes
            while end > start && Self.isSpaceOrTab(text[end - 1]) { end -= 1 }
        }
        return start..<max(start, end)
    }

    /// The length of an opening code fence at `i`: three or more backticks (with no backtick
    /// after them on the line) or tildes.
    func openingFenceLength(at i: Int) -> Int? {
        let c = byte(i)
        guard c == UInt8(ascii: "`") || c == UInt8(ascii: "~") else { return nil }
        var n = 0
        while byte(i + n) == c { n += 1 }
        guard n >= 3 else { return nil }
        if c == UInt8(ascii: "`") {
            var j = i + n
            while j < end {
                if text[j] == UInt8(ascii: "`") { return nil }
                j += 1
            }
        }
        return n
    }

    /// Whether a fence of at least `length` `char`s, and only white space after it, is at `i`.
    func isClosingFence(at i: Int, char: UInt8, length: Int) -> Bool {
        var n = 0
        while byte(i + n) == char { n += 1 }
        return n >= length && isBlank(from: i + n)
    }

    /// The level of a setext heading underline (`=`s for 1, `-`s for 2) at `i`.
    func setextHeadingLevel(at i: Int) -> Int? {
        let c = byte(i)
        guard c == UInt8(ascii: "=") || c == UInt8(ascii: "-") else { return nil }
        var j = i
        while j < end && text[j] == c { j += 1 }
        guard isBlank(from: j) else { return nil }
        return c == UInt8(ascii: "=") ? 1 : 2
    }

    /// Whether a thematic break (three or more `*`, `-` or `_`, and white space) is at `i`.
    func isThematicBreak(at i: Int) -> Bool {
        let c = byte(i)
        guard c == UInt8(ascii: "*") || c == UInt8(ascii: "-") || c == UInt8(ascii: "_") else { return false }
        var count = 0
        var j = i
        while j < end {
            let b = text[j]
            if b == c {
                count += 1
            } else if !Self.isSpaceOrTab(b) {
                return false
            }
            j += 1
        }
        return count >= 3
    }

    /// The list marker at `i`, if one is there. A marker that would interrupt a paragraph
    /// must start an ordered list at 1, and must have content after it.
    func listMarker(at i: Int, interruptsParagraph: Bool) -> ListMarker? {
        let c = byte(i)
        if c == UInt8(ascii: "-") || c == UInt8(ascii: "+") || c == UInt8(ascii: "*") {
            let next = byte(i + 1)
            guard Self.isSpaceOrTab(next) || next == UInt8(ascii: "\n") else { return nil }
            if interruptsParagraph && isBlank(from: i + 1) { return nil }
            return ListMarker(length: 1, isOrdered: false, char: c)
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
        guard Self.isSpaceOrTab(next) || next == UInt8(ascii: "\n") else { return nil }
        if interruptsParagraph && (value != 1 || isBlank(from: i + n + 1)) { return nil }
        return ListMarker(length: n + 1, isOrdered: true, char: delimiter)
    }

    /// `[c]` followed by white space at `i`, where `c` is a single Unicode scalar other than
    /// a bracket, a backslash or white space.
    func taskBox(at i: Int) -> TaskBox? {
        guard byte(i) == UInt8(ascii: "[") else { return nil }
        let first = byte(i + 1)
        let status: TodoStatus
        var statusEnd = i + 2
        switch first {
        case UInt8(ascii: " "): status = .open
        case UInt8(ascii: "x"), UInt8(ascii: "X"): status = .done
        case UInt8(ascii: "["), UInt8(ascii: "]"), UInt8(ascii: "\\"): return nil
        case 0x21..<0x7F: status = .custom(Unicode.Scalar(first))
        case 0x80...:
            guard let (scalar, length) = nonASCIIStatus(at: i + 1) else { return nil }
            status = .custom(scalar)
            statusEnd = i + 1 + length
        default: return nil
        }
        guard byte(statusEnd) == UInt8(ascii: "]") else { return nil }
        let after = byte(statusEnd + 1)
        // Vertical tab and form feed count as white space here, as in cmark-gfm.
        guard Self.isSpaceOrTab(after) || after == 0x0B || after == 0x0C else { return nil }
        return TaskBox(start: i, statusEnd: statusEnd, status: status)
    }

    /// The scalar whose UTF-8 starts at `i` and its length in bytes, unless it is white
    /// space, a control or a format character (or not UTF-8).
    // Kept out of line: the common statuses are ASCII.
    @inline(never)
    private func nonASCIIStatus(at i: Int) -> (Unicode.Scalar, Int)? {
        let first = text[i]
        let length = first >= 0xF0 ? 4 : first >= 0xE0 ? 3 : first >= 0xC0 ? 2 : 0
        guard length > 0, i + length <= end else { return nil }
        var decoder = UTF8()
        var iterator = UnsafeBufferPointer(rebasing: text[i..<(i + length)]).makeIterator()
        guard case .scalarValue(let s) = decoder.decode(&iterator), TodoStatus.isCustomMarker(s) else { return nil }
        return (s, length)
    }
}
