/// What starts the lines of an item in a checklist: the text before its box, and the text a
/// line needs to stand inside the item (its continuation lines, its nested items).
enum LinePrefix {
    /// The text that puts a line at the same column as the end of `prefix` (the bytes of a
    /// line before some content), inside the same block quotes: `>`, spaces and tabs stay,
    /// every other character (list markers, digits) becomes a space; a byte order mark goes.
    static func blanked<C: Collection>(_ prefix: C) -> [UInt8] where C.Element == UInt8 {
        var out: [UInt8] = []
        out.reserveCapacity(prefix.count)
        var bytes = Array(prefix)[...]
        if ByteOrderMark.length(in: bytes) > 0 { bytes = bytes.dropFirst(3) }
        for b in bytes { out.append(b == 32 || b == 9 || b == UInt8(ascii: ">") ? b : 32) }
        return out
    }

    /// What a continuation line of an item's name starts with: its line up to the box, blanked.
    static func continuation(of parsed: ParsedItem, in bytes: UnsafeBufferPointer<UInt8>) -> [UInt8] {
        blanked(bytes[parsed.lineStart..<parsed.boxStart])
    }
}
