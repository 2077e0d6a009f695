#if YAML
import Foundation

/// Where the items of a YAML list laid out as a new file's writer lays one out (a block
/// sequence at the first column) start, found line by line without parsing: for an edit of
/// one item in a long file (`YAMLListPatcher.updateItemInRun`), which parses that item and
/// its neighbours and copies every other byte.
///
/// Each item starts a line with a dash and a space at the first column, but only where no
/// node runs on over a line break: a quoted scalar may, and a line of it that starts with
/// `- ` is text (`- a: "x⏎- y"` is one item, whose `a` is `x - y`). So each line is looked
/// at as far as needed to know that nothing it opens runs on: past its indentation and its
/// dashes, the key (plain or quoted on the line), and the first bytes of the value. A
/// value must be plain, quoted and closed on its line, or `[]` or `{}`; every item line
/// must start a mapping (`- key:`), as a list of items has it. Anything else gives nil: a
/// block scalar (`|`, `>`), a flow collection with something in it, an anchor, alias, tag,
/// `?` key or `<<` merge key, a tab anywhere, a line at the first column other than
/// an item or a comment (`---`, `...`, a key), a plain value holding `: `, and line breaks
/// other than LF and CR LF (libyaml also breaks lines at a lone CR, U+0085, U+2028 and
/// U+2029). The caller then reads the file in full, which also says what is wrong with it.
///
/// The lines are not checked as YAML beyond that (indentation, escapes, printable
/// characters): the items that are parsed are; the others are copied as they stand.
enum YAMLItemLines {
    /// The offsets where the list's items start, from `listStart` (the first item's dash,
    /// at the first column) to the end of `bytes`; nil where a line holds something the
    /// scan does not follow (see the type's comment).
    /// With `plainOnly`, also nil where a line is blank or only a comment: such lines are
    /// gaps between items that the whole list's write places by its own rules, so an edit
    /// that adds, removes or moves items reads the file then.
    static func starts(in bytes: UnsafeBufferPointer<UInt8>, from listStart: Int, plainOnly: Bool = false) -> [Int]? {
        // The first item's dash must start its line (not follow a byte order mark), and no
        // tab may stand anywhere (libyaml takes one for a space after a key's colon, where
        // this scan would not see the key and the value it starts).
        guard let base = bytes.baseAddress, listStart == 0 || bytes[listStart - 1] == 10,
            find(9, in: bytes, from: listStart) == nil, !hasOtherLineBreaks(bytes, from: listStart)
        else { return nil }
        var starts: [Int] = []
        var lineStart = listStart
        while lineStart < bytes.count {
            var end = find(10, in: bytes, from: lineStart) ?? bytes.count
            let next = end + 1
            if end > lineStart && base[end - 1] == 13 { end -= 1 }
            if plainOnly {
                var first = lineStart
                while first < end && base[first] == 32 { first += 1 }
                if first == end || base[first] == UInt8(ascii: "#") { return nil }
            }
            switch Line(base: base, end: end).kind(from: lineStart) {
            case .item: starts.append(lineStart)
            case .other: break
            case .unknown: return nil
            }
            lineStart = next
        }
        return starts
    }

    /// Whether the bytes from `start` on hold a line break other than LF and CR LF.
    private static func hasOtherLineBreaks(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Bool {
        var i = start
        while let cr = find(13, in: bytes, from: i) {
            if cr + 1 == bytes.count || bytes[cr + 1] != 10 { return true }
            i = cr + 1
        }
        // U+0085 (C2 85), U+2028 and U+2029 (E2 80 A8, E2 80 A9).
        i = start
        while let c2 = find(0xC2, in: bytes, from: i) {
            if c2 + 1 < bytes.count && bytes[c2 + 1] == 0x85 { return true }
            i = c2 + 1
        }
        i = start
        while let e2 = find(0xE2, in: bytes, from: i) {
            if e2 + 2 < bytes.count && bytes[e2 + 1] == 0x80 && (bytes[e2 + 2] | 1) == 0xA9 { return true }
            i = e2 + 1
        }
        return false
    }

    private static func find(_ byte: UInt8, in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        find(byte, in: bytes.baseAddress!, from: start, to: bytes.count)
    }

    /// Where `byte` first stands in `base[start..<end]`.
    fileprivate static func find(_ byte: UInt8, in base: UnsafePointer<UInt8>, from start: Int, to end: Int) -> Int? {
        guard start < end, let found = memchr(base + start, Int32(byte), end - start) else { return nil }
        return base.distance(to: found.assumingMemoryBound(to: UInt8.self))
    }

    /// One line's bytes up to `end` (its line break left out).
    private struct Line {
        let base: UnsafePointer<UInt8>
        let end: Int

        enum Kind { case item, other, unknown }

        /// What the line starting at `start` is: an item's first line, another line that
        /// leaves nothing open, or one the scan does not follow.
        func kind(from start: Int) -> Kind {
            var i = start
            while i < end && base[i] == 32 { i += 1 }
            if i == end || base[i] == UInt8(ascii: "#") { return .other }
            if i > start { return node(at: i) == .unknown ? .unknown : .other }
            // At the first column only an item: one dash, a space and a key.
            guard base[i] == UInt8(ascii: "-"), i + 1 < end, base[i + 1] == 32 else { return .unknown }
            let key = skipSpaces(from: i + 2)
            guard key < end, base[key] != UInt8(ascii: "-") else { return .unknown }
            return node(at: key) == .key ? .item : .unknown
        }

        /// What the line holds from `i` (a node's first byte, after the indentation): a
        /// mapping's key and its value, another node, or something the scan does not follow.
        private enum Node { case key, other, unknown }

        private func node(at start: Int) -> Node {
            var i = start
            // Block sequences' dashes (`- - a`).
            while base[i] == UInt8(ascii: "-") && i + 1 < end && base[i + 1] == 32 {
                i = skipSpaces(from: i + 2)
                if i == end { return .unknown }
            }
            if base[i] == UInt8(ascii: "#") { return i > start ? .other : .unknown }
            if base[i] == UInt8(ascii: "-") && i + 1 == end { return .unknown }
            switch base[i] {
            case UInt8(ascii: "\""), UInt8(ascii: "'"), UInt8(ascii: "["), UInt8(ascii: "{"):
                guard let after = closed(at: i) else { return .unknown }
                return trailing(after, keyAllowed: true)
            default:
                guard isPlainStart(base[i]) else { return .unknown }
                // A key: the first colon followed by a space or the line's end.
                var j = i
                while let colon = find(UInt8(ascii: ":"), from: j) {
                    if colon + 1 == end || base[colon + 1] == 32 {
                        if base[i] == UInt8(ascii: "<") && i + 1 < end && base[i + 1] == UInt8(ascii: "<") {
                            return .unknown
                        }
                        return value(from: colon + 1) ? .key : .unknown
                    }
                    j = colon + 1
                }
                return .other
            }
        }

        /// Whether the value after a key's colon (at `start`) leaves nothing open.
        private func value(from start: Int) -> Bool {
            let i = skipSpaces(from: start)
            if i == end || base[i] == UInt8(ascii: "#") { return true }
            switch base[i] {
            case UInt8(ascii: "\""), UInt8(ascii: "'"), UInt8(ascii: "["), UInt8(ascii: "{"):
                guard let after = closed(at: i) else { return false }
                return trailing(after, keyAllowed: false) == .other
            default:
                // A plain value: a second `: ` would be a key where none may be.
                guard isPlainStart(base[i]), base[i] != UInt8(ascii: "-") || i + 1 == end || base[i + 1] != 32 else {
                    return false
                }
                var j = i
                while let colon = find(UInt8(ascii: ":"), from: j) {
                    if colon + 1 == end || base[colon + 1] == 32 { return false }
                    j = colon + 1
                }
                return true
            }
        }

        /// After a quoted scalar or an empty flow collection (`after` its last byte): the
        /// line's end, a comment, or (`keyAllowed`) a colon and the key's value.
        private func trailing(_ after: Int, keyAllowed: Bool) -> Node {
            let i = skipSpaces(from: after)
            if i == end { return .other }
            if base[i] == UInt8(ascii: "#") { return i > after ? .other : .unknown }
            guard keyAllowed, base[i] == UInt8(ascii: ":"), i + 1 == end || base[i + 1] == 32
            else { return .unknown }
            return value(from: i + 1) ? .key : .unknown
        }

        /// Where a quoted scalar, `[]` or `{}` starting at `i` ends (after its last byte), when
        /// it ends on the line.
        private func closed(at i: Int) -> Int? {
            switch base[i] {
            case UInt8(ascii: "\""):
                var j = i + 1
                while j < end {
                    switch base[j] {
                    case UInt8(ascii: "\\"): j += 2
                    case UInt8(ascii: "\""): return j + 1
                    default: j += 1
                    }
                }
                return nil
            case UInt8(ascii: "'"):
                var j = i + 1
                while let quote = find(UInt8(ascii: "'"), from: j) {
                    if quote + 1 < end && base[quote + 1] == UInt8(ascii: "'") {
                        j = quote + 2
                        continue
                    }
                    return quote + 1
                }
                return nil
            case UInt8(ascii: "["):
                return i + 1 < end && base[i + 1] == UInt8(ascii: "]") ? i + 2 : nil
            default:
                return i + 1 < end && base[i + 1] == UInt8(ascii: "}") ? i + 2 : nil
            }
        }

        /// Whether a plain scalar may start with `byte` here (not an indicator this scan
        /// leaves to the parser, nor a tab).
        private func isPlainStart(_ byte: UInt8) -> Bool {
            switch byte {
            case UInt8(ascii: "|"), UInt8(ascii: ">"), UInt8(ascii: "&"), UInt8(ascii: "*"), UInt8(ascii: "!"),
                UInt8(ascii: "%"), UInt8(ascii: "@"), UInt8(ascii: "`"), UInt8(ascii: "?"), UInt8(ascii: ":"),
                UInt8(ascii: ","), UInt8(ascii: "]"), UInt8(ascii: "}"), UInt8(ascii: "#"), 9:
                return false
            default: return true
            }
        }

        private func skipSpaces(from i: Int) -> Int {
            var i = i
            while i < end && base[i] == 32 { i += 1 }
            return i
        }

        private func find(_ byte: UInt8, from i: Int) -> Int? {
            YAMLItemLines.find(byte, in: base, from: i, to: end)
        }
    }
}
#endif
