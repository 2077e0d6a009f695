import Foundation

/// What `StreamedUpdate.sameItems` needs to take an item whose statuses changed from the
/// new writer's text alone. Each item of that text stands on a line of its own, from its
/// `{"name": ` (values stay on their item's line, and strings escape their line breaks, so
/// that no other object starts a line), and its status members follow its name.
extension JSONListSyntax {
    static func itemNames(in new: UnsafeBufferPointer<UInt8>, into names: inout [Range<Int>]) -> Bool {
        names.removeAll(keepingCapacity: true)
        var line = 0
        while line < new.count {
            if let item = itemStart(line, in: new) {
                guard let name = plainName(at: item, in: new) else { return false }
                names.append(name)
            }
            guard let end = memchr(new.baseAddress! + line, 10, new.count - line) else { break }
            line = new.baseAddress!.distance(to: end.assumingMemoryBound(to: UInt8.self)) + 1
        }
        return true
    }

    static var statusReach: Int { 64 }

    /// Where the status members of the item on the line that holds `offset` start, at or
    /// before it: after the item's name (`{"name": "…",` from the line's start, which is at or
    /// after `floor`).
    static func statusStart(in text: UnsafeBufferPointer<UInt8>, before offset: Int, floor: Int)
        -> (start: Int, depth: Int)?
    {
        let line = ByteScan.lineStart(before: offset, floor: floor, in: text)
        guard line == 0 || text[line - 1] == 10, let item = itemStart(line, in: text),
            let nameEnd = plainName(at: item, in: text)?.upperBound,
            ByteScan.has("\", \"checked\": ", at: nameEnd, in: text),
            nameEnd + 2 <= offset
        else { return nil }
        return (nameEnd + 2, 0)
    }

    /// Whether the members after status members ending at `end`, to the children's array or
    /// the item's end, each hold a scalar under a key that `follows` takes.
    static func keysFollow(
        in text: UnsafeBufferPointer<UInt8>, from end: Int, depth: Int, _ follows: (UnsafeBufferPointer<UInt8>) -> Bool
    ) -> Bool {
        var i = end
        while i < text.count && text[i] == UInt8(ascii: ",") {
            guard ByteScan.has(", \"", at: i, in: text) else { return false }
            let keyStart = i + 3
            let keyEnd = ByteScan.firstJSONStringSpecial(text, from: keyStart)
            guard ByteScan.has("\": ", at: keyEnd, in: text), keyEnd + 3 < text.count else { return false }
            let key = UnsafeBufferPointer(rebasing: text[keyStart..<keyEnd])
            i = keyEnd + 3
            if key.count == 8 && ByteScan.has("children", at: 0, in: key) { return true }
            guard follows(key) else { return false }
            switch text[i] {
            case UInt8(ascii: "\""):
                guard let end = stringEnd(from: i + 1, in: text) else { return false }
                i = end
            case UInt8(ascii: "["), UInt8(ascii: "{"): return false
            default:
                while i < text.count, text[i] != UInt8(ascii: ","), text[i] != UInt8(ascii: "}"), text[i] != 10 {
                    i += 1
                }
            }
        }
        return true
    }

    /// Where status members starting at `start` end: ` "checked": true` or `false`, then
    /// perhaps `, "status": "…"`.
    static func statusEnd(from start: Int, depth: Int, in text: UnsafeBufferPointer<UInt8>) -> Int? {
        guard ByteScan.has(" \"checked\": ", at: start, in: text) else { return nil }
        var i = start + 12
        if ByteScan.has("true", at: i, in: text) {
            i += 4
        } else if ByteScan.has("false", at: i, in: text) {
            i += 5
        } else {
            return nil
        }
        guard ByteScan.has(", \"status\": \"", at: i, in: text) else { return i }
        return stringEnd(from: i + 13, in: text)
    }

    /// Where the string whose text starts at `offset` ends, after its closing quote.
    private static func stringEnd(from offset: Int, in text: UnsafeBufferPointer<UInt8>) -> Int? {
        var i = offset
        while true {
            i = ByteScan.firstJSONStringSpecial(text, from: i)
            guard i < text.count else { return nil }
            if text[i] == UInt8(ascii: "\"") { return i + 1 }
            guard text[i] == UInt8(ascii: "\\") else { return nil }
            i += 2  // an escape: `\` and the byte after
        }
    }

    /// Where the item object of the line at `line` of the new writer's text starts (after
    /// the line's spaces); nil where the line holds none (it closes arrays).
    private static func itemStart(_ line: Int, in new: UnsafeBufferPointer<UInt8>) -> Int? {
        var i = line
        while i < new.count && new[i] == 32 { i += 1 }
        return ByteScan.has("{\"name\": \"", at: i, in: new) ? i : nil
    }

    /// The range of the name of the item whose object starts at `item` (`{"name": "`), up to
    /// its closing quote; nil where the name has an escape, whose text is not its bytes.
    private static func plainName(at item: Int, in new: UnsafeBufferPointer<UInt8>) -> Range<Int>? {
        let end = ByteScan.firstJSONStringSpecial(new, from: item + 10)
        guard end < new.count, new[end] == UInt8(ascii: "\"") else { return nil }
        return item + 10..<end
    }
}
