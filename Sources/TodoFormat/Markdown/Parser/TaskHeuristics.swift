/// `check`'s heuristics: lines that were probably meant as task items, but that CommonMark
/// (and so todofmt) reads otherwise. The parser reports them to its sink; they change nothing
/// it finds.
enum TaskHeuristics {
    /// A checkbox-like text right after a list marker, and what to say about it.
    struct NearMiss {
        /// 1-based byte column of the line.
        var column: Int
        var message: String
    }

    /// `[]`, or `[c]` directly followed by text (`[ ]x`), at `i`: the content of a list item
    /// that opened no task. `[c]:`, `[c](` and `[c][` are left alone, as they read as links.
    static func nearMiss(at i: Int, in line: LineCursor) -> NearMiss? {
        guard line.byte(i) == UInt8(ascii: "[") else { return nil }
        if line.byte(i + 1) == UInt8(ascii: "]") {
            return NearMiss(column: i - line.start + 1, message: "'[]' is not a checkbox; write '[ ]'")
        }
        guard line.byte(i + 2) == UInt8(ascii: "]") else { return nil }
        switch line.byte(i + 3) {
        case UInt8(ascii: "\n"), UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: ":"), UInt8(ascii: "("),
            UInt8(ascii: "["):
            return nil
        default:
            return NearMiss(
                column: i + 3 - line.start + 1, message: "a checkbox needs a space after ']' to make a task item")
        }
    }

    /// The byte offset of the marker when the whole line reads like a task item by cmark-gfm's
    /// pattern: white space, `-`, `+`, `*` or digits and any one character, white space,
    /// `[ ]`, `[x]` or `[X]`, white space.
    ///
    /// The parser asks about lines of text inside a list item that open no block (`-[x] a`,
    /// or a task item indented into lazy text): cmark-gfm then marks the enclosing item as a
    /// task (checked if the line holds `[x]`), where todofmt reports the line instead.
    static func taskLikeMarker(in line: LineCursor) -> Int? {
        // Vertical tab and form feed are white space to cmark-gfm's pattern.
        func isSpace(_ b: UInt8) -> Bool { LineCursor.isSpaceOrTab(b) || b == 0x0B || b == 0x0C }
        let text = line.text
        let end = line.end
        var i = line.start
        while i < end && isSpace(text[i]) { i += 1 }
        let markerStart = i
        let first = line.byte(i)
        if first == UInt8(ascii: "-") || first == UInt8(ascii: "+") || first == UInt8(ascii: "*") {
            i += 1
        } else {
            while line.byte(i) >= UInt8(ascii: "0") && line.byte(i) <= UInt8(ascii: "9") { i += 1 }
            guard i > markerStart, i < end else { return nil }
            i += 1
        }
        let spaceStart = i
        while i < end && isSpace(text[i]) { i += 1 }
        let box = line.byte(i + 1)
        guard i > spaceStart, line.byte(i) == UInt8(ascii: "["),
            box == UInt8(ascii: " ") || box == UInt8(ascii: "x") || box == UInt8(ascii: "X"),
            line.byte(i + 2) == UInt8(ascii: "]"), i + 3 < end, isSpace(text[i + 3])
        else { return nil }
        return markerStart
    }

    /// Whether the text at `i` reads like a task item as todofmt reads one: a list marker, white
    /// space and a box. Returns whether the marker is ordered, or nil.
    static func taskLine(at i: Int, in line: LineCursor) -> Bool? {
        var j = i
        let first = line.byte(j)
        let ordered: Bool
        if first == UInt8(ascii: "-") || first == UInt8(ascii: "+") || first == UInt8(ascii: "*") {
            j += 1
            ordered = false
        } else {
            while line.byte(j) >= UInt8(ascii: "0") && line.byte(j) <= UInt8(ascii: "9") && j - i < 9 { j += 1 }
            guard j > i, line.byte(j) == UInt8(ascii: ".") || line.byte(j) == UInt8(ascii: ")") else { return nil }
            j += 1
            ordered = true
        }
        let spaces = j
        while LineCursor.isSpaceOrTab(line.byte(j)) { j += 1 }
        guard j > spaces, line.taskBox(at: j) != nil else { return nil }
        return ordered
    }

    /// Whether `[x]` or `[X]` appears anywhere on the line (cmark-gfm checks such an item).
    static func containsCheckedBox(_ line: LineCursor) -> Bool {
        let text = line.text
        var i = line.start
        while i + 2 < line.end {
            if text[i] == UInt8(ascii: "[") && (text[i + 1] | 0x20) == UInt8(ascii: "x")
                && text[i + 2] == UInt8(ascii: "]")
            {
                return true
            }
            i += 1
        }
        return false
    }
}
