import Foundation

/// Searches of short runs of text (an item's name) for a few byte values, eight bytes at a
/// time: the checks a name passes before it is copied as it is (into JSON, say).
///
/// Each test is on a 64-bit word: `x ^ (c * 0x01…01)` has a zero byte where `x` has `c`, and
/// `(v - 0x01…01) & ~v & 0x80…80` is not zero exactly when `v` has a zero byte.
enum ByteScan {
    /// The byte range of each line, its line ending included.
    static func lineRanges(_ bytes: [UInt8]) -> [Range<Int>] {
        var ranges: [Range<Int>] = []
        var start = 0
        bytes.withUnsafeBufferPointer { buffer in
            for i in 0..<buffer.count where buffer[i] == 10 {
                ranges.append(start..<(i + 1))
                start = i + 1
            }
        }
        if start < bytes.count { ranges.append(start..<bytes.count) }
        return ranges
    }

    /// Whether two texts are the same bytes.
    @inline(__always)
    static func same(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Bool {
        a.count == b.count && (a.isEmpty || memcmp(a.baseAddress!, b.baseAddress!, a.count) == 0)
    }

    /// Calls `body` with each offset at which `a` and `b` (as long) differ, in order, until
    /// it says false; false where it did. Eight bytes are compared at a time, and only a word
    /// that differs is looked into (files that differ in a byte in sixty, a tenth of their
    /// boxes checked, are so compared at about memory's speed).
    @inline(__always)
    static func forEachDifference(
        _ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>, _ body: (Int) -> Bool
    ) -> Bool {
        let count = min(a.count, b.count)
        var i = 0
        while i + 8 <= count {
            var differ = UInt64(
                littleEndian: UnsafeRawPointer(a.baseAddress! + i).loadUnaligned(as: UInt64.self)
                    ^ UnsafeRawPointer(b.baseAddress! + i).loadUnaligned(as: UInt64.self))
            while differ != 0 {
                let byte = differ.trailingZeroBitCount / 8
                guard body(i + byte) else { return false }
                differ &= ~(0xFF << UInt64(8 * byte))
            }
            i += 8
        }
        while i < count {
            if a[i] != b[i], !body(i) { return false }
            i += 1
        }
        return true
    }

    /// Where the line that holds `offset` starts (after the last line break before it), or
    /// `floor` where no line break lies from `floor` to there. Eight bytes at a time from
    /// the end: the line of an item whose status changed, found a byte at a time for each of
    /// a hundred thousand, was a fiftieth of writing them back.
    static func lineStart(before offset: Int, floor: Int = 0, in bytes: UnsafeBufferPointer<UInt8>) -> Int {
        var i = min(offset, bytes.count)  // the bytes before `i` are looked at
        while i > floor {
            if i - 8 >= floor {
                let word = UInt64(
                    littleEndian: UnsafeRawPointer(bytes.baseAddress! + i - 8).loadUnaligned(as: UInt64.self))
                let flags = has(word, 10)
                guard flags != 0 else {
                    i -= 8
                    continue
                }
                // The last flag may be a borrow's, above a line break: each is looked at.
                let at = i - 8 + (63 - flags.leadingZeroBitCount) >> 3
                if bytes[at] == 10 { return at + 1 }
                i = at
                continue
            }
            if bytes[i - 1] == 10 { return i }
            i -= 1
        }
        return floor
    }

    /// Whether `bytes` has `word` at `i`.
    @inline(__always)
    static func has(_ word: StaticString, at i: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let count = word.utf8CodeUnitCount
        guard i >= 0, i + count <= bytes.count, let base = bytes.baseAddress else { return count == 0 }
        return same(base + i, word.utf8Start, count: count)
    }

    /// Whether the `count` bytes at `a` and at `b` are the same. A few bytes (a tag's name,
    /// `<!--`) are compared here one by one: a call of `memcmp` for them cost more than the
    /// comparison, and was a fourteenth of scanning an XML property list's items.
    @inline(__always)
    static func same(_ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, count: Int) -> Bool {
        guard count <= 16 else { return memcmp(a, b, count) == 0 }
        var i = 0
        while i < count {
            if a[i] != b[i] { return false }
            i += 1
        }
        return true
    }

    private static let ones: UInt64 = 0x0101_0101_0101_0101
    private static let highs: UInt64 = 0x8080_8080_8080_8080

    /// Not zero when a byte of `x` is `c`; the lowest flagged byte is one that is `c` (a
    /// borrow flags only bytes above).
    @inline(__always)
    static func has(_ x: UInt64, _ c: UInt8) -> UInt64 {
        let v = x ^ (ones &* UInt64(c))
        return (v &- ones) & ~v & highs
    }

    /// The borrow of `has(x, c)` before its mask: a test of several bytes below 0x80 ORs
    /// these (and `x &- ones &* n`, `hasBelow`'s) and masks them once with `ascii`, as each
    /// test would (for such a byte, `~(x ^ c)` and `~x` have the same high bits).
    @inline(__always)
    static func borrow(_ x: UInt64, _ c: UInt8) -> UInt64 {
        (x ^ (ones &* UInt64(c))) &- ones
    }

    /// Not zero when `borrows` (ORed `borrow`s of `x`) flags a byte: the mask each test has.
    @inline(__always)
    static func ascii(_ x: UInt64, _ borrows: UInt64) -> UInt64 {
        borrows & ~x & highs
    }

    /// Not zero when a byte of `x` is below `n` (at most 128); the lowest flagged byte is one
    /// that is below `n`.
    @inline(__always)
    static func hasBelow(_ x: UInt64, _ n: UInt8) -> UInt64 {
        (x &- ones &* UInt64(n)) & ~x & highs
    }

    /// 0x80 in each lane of `v` that is zero, 0 in the others. Lanes are bytes that neither
    /// borrow nor carry from each other, so tests made of these are exact in every lane.
    /// (The standard library's lane comparisons, `.==` and `any`, were compiled here one
    /// lane at a time through the stack; wrapping arithmetic and bitwise operations on
    /// `SIMD16<UInt8>` are single SSE2 instructions.)
    @inline(__always)
    static func zeroLanes<V: SIMD>(_ v: V) -> V where V.Scalar == UInt8 {
        (v &- V(repeating: 1)) & ~v & V(repeating: 0x80)
    }

    /// How many bytes of `bytes` are `c`, eight at a time: each word's matches are added up
    /// byte by byte in one word (a byte's count stays below 256 for 255 words), which is
    /// summed once per 255 words. (A population count of every word was a software loop
    /// on this target, four instructions a byte: a line count over a checklist cost more
    /// than a tenth of its parse.)
    static func count(of c: UInt8, in bytes: UnsafeBufferPointer<UInt8>) -> Int {
        guard let base = bytes.baseAddress else { return 0 }
        let n = bytes.count
        let pattern = ones &* UInt64(c)
        let lows: UInt64 = 0x7F7F_7F7F_7F7F_7F7F
        let pairs: UInt64 = 0x00FF_00FF_00FF_00FF
        var count = 0
        var i = 0
        while i + 8 <= n {
            let blockEnd = min(n, i + 8 * 255)
            var sums: UInt64 = 0
            while i + 8 <= blockEnd {
                let v = UnsafeRawPointer(base).loadUnaligned(fromByteOffset: i, as: UInt64.self) ^ pattern
                // A byte's high bit is set here exactly when that byte of `v` is not zero (no
                // carry crosses bytes: each low part is at most 0x7F + 0x7F).
                let nonzero = (((v & lows) &+ lows) | v) & highs
                sums &+= (~nonzero & highs) >> 7
                i += 8
            }
            // The eight counts in pairs (each below 512), then the four pairs in the top
            // sixteen bits.
            let paired = (sums & pairs) &+ ((sums >> 8) & pairs)
            count += Int(truncatingIfNeeded: (paired &* 0x0001_0001_0001_0001) >> 48)
        }
        while i < n {
            if base[i] == c { count += 1 }
            i += 1
        }
        return count
    }

    /// Whether `bytes` holds U+FFFD (EF BF BD in UTF-8): only words with a byte 0xEF are
    /// looked into.
    static func containsReplacementCharacter(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = bytes.baseAddress else { return false }
        let n = bytes.count
        func at(_ i: Int) -> Bool { i + 2 < n && base[i] == 0xEF && base[i + 1] == 0xBF && base[i + 2] == 0xBD }
        var i = 0
        while i + 8 <= n {
            var hit = has(UnsafeRawPointer(base).loadUnaligned(fromByteOffset: i, as: UInt64.self), 0xEF)
            // Flags above a real one may be false: each is checked.
            while hit != 0 {
                if at(i + hit.trailingZeroBitCount >> 3) { return true }
                hit &= hit &- 1
            }
            i += 8
        }
        while i < n {
            if at(i) { return true }
            i += 1
        }
        return false
    }

    /// How many bytes of a slice of a buffer are `c`.
    static func count(of c: UInt8, in bytes: Slice<UnsafeBufferPointer<UInt8>>) -> Int {
        count(of: c, in: UnsafeBufferPointer(rebasing: bytes))
    }

    /// The offset of the first byte at or after `start` that is `"`, `\` or below 0x20 (what
    /// ends the plain run of a JSON string), or `bytes.count` when there is none. (Each
    /// word's lowest flagged byte is a real one: a false flag only follows a real one.)
    static func firstJSONStringSpecial(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        guard let base = bytes.baseAddress else { return bytes.count }
        let n = bytes.count
        var i = start
        while i + 8 <= n {
            let x = UInt64(littleEndian: UnsafeRawPointer(base).loadUnaligned(fromByteOffset: i, as: UInt64.self))
            let hit = has(x, 0x22) | has(x, 0x5C) | hasBelow(x, 0x20)
            if hit != 0 { return i + hit.trailingZeroBitCount >> 3 }
            i += 8
        }
        while i < n {
            let c = base[i]
            if c == 0x22 || c == 0x5C || c < 0x20 { return i }
            i += 1
        }
        return n
    }

    /// Whether `bytes` holds `a` or `b`.
    static func contains(_ bytes: UnsafeBufferPointer<UInt8>, _ a: UInt8, _ b: UInt8) -> Bool {
        words(bytes, bytewise: { $0 == a || $0 == b }, wordwise: { has($0, a) | has($0, b) != 0 })
    }

    /// Whether `bytes` holds `'`, NUL or a carriage return: what an SQL text literal cannot
    /// hold as it is (`SQLValue.writeLiteral`).
    static func containsSQLSpecial(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        words(
            bytes, bytewise: { $0 == 0x27 || $0 == 0 || $0 == 13 },
            wordwise: { ascii($0, borrow($0, 0x27) | borrow($0, 13) | ($0 &- ones)) != 0 })
    }

    /// Whether `bytes` holds `\`, `&` (a checklist's escapes and references) or a byte that
    /// JSON strings escape.
    static func containsEscapeOrJSONEscape(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        words(
            bytes, bytewise: { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C || $0 == 0x26 },
            // `"` (0x22) and `&` (0x26) differ in one bit: with it set, both are 0x26.
            wordwise: { ascii($0, borrow($0 | ones &* 4, 0x26) | borrow($0, 0x5C) | ($0 &- ones &* 0x20)) != 0 })
    }

    /// Whether `bytes` holds a byte that JSON strings escape: `"`, `\` or one below 0x20.
    static func containsJSONEscape(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        words(
            bytes, bytewise: { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C },
            wordwise: { ascii($0, borrow($0, 0x22) | borrow($0, 0x5C) | ($0 &- ones &* 0x20)) != 0 })
    }

    /// Whether `bytes` holds `<`, `>`, `&` (what XML escapes) or 0xEF (the first byte of
    /// U+FFFE and U+FFFF, which XML 1.0 cannot hold).
    static func containsXMLSpecial(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        // Sixteen bytes at a time (`zeroLanes`): eight at a time, this check was a twentieth
        // of writing a checklist into an existing XML property list. (The test is a local
        // function made for `SIMD16` and always inlined: a generic one was a call for every
        // sixteen bytes, and no faster than words.)
        @inline(__always) func special(_ x: SIMD16<UInt8>) -> Bool {
            // `<` and `>` differ in one bit.
            let angle: SIMD16<UInt8> = zeroLanes((x | SIMD16(repeating: 0x02)) ^ SIMD16(repeating: 0x3E))
            let ampersand: SIMD16<UInt8> = zeroLanes(x ^ SIMD16(repeating: 0x26))
            let ef: SIMD16<UInt8> = zeroLanes(x ^ SIMD16(repeating: 0xEF))
            let flags = angle | ampersand | ef
            let halves = unsafeBitCast(flags, to: (UInt64, UInt64).self)
            return halves.0 | halves.1 != 0
        }
        guard bytes.count >= 16, let base = bytes.baseAddress else {
            return words(
                bytes, bytewise: { $0 == 0x3C || $0 == 0x3E || $0 == 0x26 || $0 == 0xEF },
                wordwise: { has($0 | ones &* 0x02, 0x3E) | has($0, 0x26) | has($0, 0xEF) != 0 })
        }
        let raw = UnsafeRawPointer(base)
        var i = 0
        while i + 16 <= bytes.count {
            if special(raw.loadUnaligned(fromByteOffset: i, as: SIMD16<UInt8>.self)) { return true }
            i += 16
        }
        // The last sixteen overlap those before.
        return i < bytes.count && special(raw.loadUnaligned(fromByteOffset: bytes.count - 16, as: SIMD16<UInt8>.self))
    }

    /// Whether `bytes` holds a byte that keeps a name from being written as it is
    /// (`NameSyntax.isPlain`): one below 0x20, `\`, `&`, 0x7F, 0xC2, and `[` unless
    /// `allowingBrackets`.
    static func containsNameEscape(_ bytes: UnsafeBufferPointer<UInt8>, allowingBrackets: Bool) -> Bool {
        if allowingBrackets {
            return words(
                bytes, bytewise: { $0 < 0x20 || $0 == 0x5C || $0 == 0x26 || $0 == 0x7F || $0 == 0xC2 },
                wordwise: { has($0, 0x5C) | has($0, 0x26) | has($0, 0x7F) | has($0, 0xC2) | hasBelow($0, 0x20) != 0 })
        }
        return words(
            bytes, bytewise: { $0 < 0x20 || $0 == 0x5C || $0 == 0x5B || $0 == 0x26 || $0 == 0x7F || $0 == 0xC2 },
            wordwise: {
                has($0, 0x5C) | has($0, 0x5B) | has($0, 0x26) | has($0, 0x7F) | has($0, 0xC2) | hasBelow($0, 0x20) != 0
            })
    }

    /// Whether a byte passes `bytewise`, testing eight at a time with `wordwise` (a test of
    /// whether any byte of a word passes). The last word overlaps the one before it.
    @inline(__always)
    private static func words(
        _ bytes: UnsafeBufferPointer<UInt8>, bytewise: (UInt8) -> Bool, wordwise: (UInt64) -> Bool
    ) -> Bool {
        let n = bytes.count
        guard let base = bytes.baseAddress else { return false }
        guard n >= 8 else {
            for i in 0..<n where bytewise(base[i]) { return true }
            return false
        }
        let raw = UnsafeRawPointer(base)
        var i = 0
        while i + 8 <= n {
            if wordwise(raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)) { return true }
            i += 8
        }
        return i < n && wordwise(raw.loadUnaligned(fromByteOffset: n - 8, as: UInt64.self))
    }
}
