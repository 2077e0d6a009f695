/// How an item's members (a key and its value) stand in a text list file laid out as
/// todofmt writes it: what `MemberWindow` widens a difference to.
enum MemberLayout {
    /// On the item's line, each after `{`, `[` or `,` and before `,`, `}` or `]`: JSON.
    /// Quotes inside strings are escaped, so that a window holding a quote after such a
    /// byte reads as members wherever it stands.
    case inline
    /// A member a `<key>` line and the lines of its value: XML property lists. Text escapes
    /// `<`, so that a line that starts with `<` (after its indentation) is never inside text.
    case keyLines
}

/// Where two texts of one item (the file's, and the output's, each from its start to the
/// next item's) differ: from the first byte that differs to the last, widened to whole
/// members (`MemberLayout`), as a range in each. Two pairs of texts with windows of the same
/// bytes differ by the same change of the same members, wherever the windows stand among an
/// item's own members: what a streamed update checks for one pair holds for the other
/// (`StreamedUpdate.sameItems`, which rules out items whose fields hold dictionaries, whose
/// members a window could be too).
struct MemberWindow {
    let old: Range<Int>
    let new: Range<Int>

    /// The window of `old` and `new`; nil where they are the same, or where the window is
    /// longer than `limit` bytes on the two sides together (it holds a name, or more than
    /// one change: a window of its own) or does not start at a member.
    init?(old: UnsafeBufferPointer<UInt8>, new: UnsafeBufferPointer<UInt8>, layout: MemberLayout, limit: Int = 512) {
        let prefix = ByteComparison.commonPrefix(old, new)
        guard prefix < old.count || prefix < new.count else { return nil }
        let suffix = ByteComparison.commonSuffix(old, new, limit: min(old.count, new.count) - prefix)
        // The start moves back through the bytes both share, the end on through the bytes
        // both end with: each is read in `old`.
        var start = prefix
        var end = old.count - suffix
        switch layout {
        case .inline:
            while start > 0 && !Self.opensMember(old[start - 1]) { start -= 1 }
            while end < old.count && !Self.closesMember(old[end]) { end += 1 }
        case .keyLines:
            start = Self.lineStart(before: start, in: old)
            while !Self.line(at: start, in: old, startsWith: "<key>") {
                guard start > 0 else { return nil }
                start = Self.lineStart(before: start - 1, in: old)
            }
            end = Self.lineEnd(from: end, in: old)
            while end < old.count, !Self.line(at: end + 1, in: old, startsWith: "<key>"),
                !Self.line(at: end + 1, in: old, startsWith: "</dict>")
            {
                end = Self.lineEnd(from: end + 1, in: old)
            }
        }
        let newEnd = new.count - (old.count - end)
        guard (end - start) + (newEnd - start) <= limit else { return nil }
        self.old = start..<end
        self.new = start..<newEnd
    }

    private static func opensMember(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: ",") || byte == UInt8(ascii: "{") || byte == UInt8(ascii: "[") || byte == 10
    }

    private static func closesMember(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: ",") || byte == UInt8(ascii: "}") || byte == UInt8(ascii: "]") || byte == 10
    }

    /// The start of the line that holds `offset` (`offset` itself where a line starts there).
    private static func lineStart(before offset: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Int {
        var at = offset
        while at > 0 && bytes[at - 1] != 10 { at -= 1 }
        return at
    }

    /// The end of the line that holds `offset`: its line break, or the text's end.
    private static func lineEnd(from offset: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Int {
        var at = offset
        while at < bytes.count && bytes[at] != 10 { at += 1 }
        return at
    }

    /// Whether the line starting at `offset` starts with `word` after its tabs and spaces.
    private static func line(at offset: Int, in bytes: UnsafeBufferPointer<UInt8>, startsWith word: StaticString)
        -> Bool
    {
        var at = offset
        while at < bytes.count && (bytes[at] == 9 || bytes[at] == 32) { at += 1 }
        return ByteScan.has(word, at: at, in: bytes)
    }
}
