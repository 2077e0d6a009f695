import Foundation

/// A quick test that UTF-8 text is in Unicode's normalization form C, for the scripts a
/// todo list is mostly written in, without the standard library's table lookups per scalar.
enum NFCCheck {
    /// Orders two texts as Swift's `<` means to: by the scalars of their NFC forms, that is
    /// by those forms' UTF-8 bytes (-1, 0 or 1). Swift's own `<` (6.3) answers neither less
    /// nor more for some texts that are not equal, `"é1"` composed against `"é"` decomposed:
    /// a sort by it puts `café 10` among the `café 1`s.
    static func order(_ a: String, _ b: String) -> Int {
        var a = a
        var b = b
        if let order = a.withUTF8({ x in b.withUTF8 { y in isNFC(x) && isNFC(y) ? order(x, y) : nil } }) {
            return order
        }
        var x: [UInt8] = []
        var y: [UInt8] = []
        a._withNFCCodeUnits { x.append($0) }
        b._withNFCCodeUnits { y.append($0) }
        return x.withUnsafeBufferPointer { x in y.withUnsafeBufferPointer { y in order(x, y) } }
    }

    /// Runs `body` with the NFC form of `bytes` (valid UTF-8): the bytes themselves where
    /// they are in it.
    static func withNFC<R>(_ bytes: UnsafeBufferPointer<UInt8>, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        if isNFC(bytes) { return body(bytes) }
        var nfc: [UInt8] = []
        String(decoding: bytes, as: UTF8.self)._withNFCCodeUnits { nfc.append($0) }
        return nfc.withUnsafeBufferPointer(body)
    }

    /// Orders two byte strings: by their first differing byte, else the shorter first.
    static func order(_ x: UnsafeBufferPointer<UInt8>, _ y: UnsafeBufferPointer<UInt8>) -> Int {
        let n = min(x.count, y.count)
        let c = n == 0 ? 0 : memcmp(x.baseAddress!, y.baseAddress!, n)
        if c != 0 { return c < 0 ? -1 : 1 }
        return x.count < y.count ? -1 : x.count == y.count ? 0 : 1
    }

    /// Whether `bytes` (valid UTF-8) are in NFC: true when every scalar is one the quick
    /// path knows (see `isKnownNFCScalar`), else the standard library's quick check.
    static func isNFC(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var i = 0
        let count = bytes.count
        while i < count {
            let lead = bytes[i]
            switch lead {
            case 0..<0x80:
                // Eight bytes at a time where there are eight: all of them when they are ASCII,
                // else those before the first that is not.
                guard i + 8 <= count else {
                    i += 1
                    continue
                }
                let high =
                    UInt64(littleEndian: UnsafeRawPointer(bytes.baseAddress! + i).loadUnaligned(as: UInt64.self))
                    & 0x8080_8080_8080_8080
                i += high == 0 ? 8 : high.trailingZeroBitCount >> 3
            // U+0080–U+02FF: Latin-1 and the Latin Extended letters, IPA, spacing modifiers.
            case 0xC2...0xCB: i += 2
            // U+0388–U+03FF: Greek; U+0400–U+047F: Cyrillic.
            case 0xCE where i + 1 < count && bytes[i + 1] >= 0x88: i += 2
            case 0xCF, 0xD0, 0xD1: i += 2
            // U+2500–U+27FF: box drawing, shapes, symbols, dingbats (such as ✅).
            case 0xE2 where i + 1 < count && bytes[i + 1] >= 0x94 && bytes[i + 1] <= 0x9F: i += 3
            // U+3040–U+30FF: hiragana and katakana, but for the two combining sound marks.
            case 0xE3
            where i + 2 < count && (0x81...0x83).contains(bytes[i + 1])
                && !(bytes[i + 1] == 0x82 && (bytes[i + 2] == 0x99 || bytes[i + 2] == 0x9A)):
                i += 3
            // U+4000–U+9FFF: CJK ideographs (and the Yijing hexagrams).
            case 0xE4...0xE9: i += 3
            // U+AC00–U+D77F: Hangul syllables.
            case 0xEB, 0xEC: i += 3
            case 0xEA where i + 1 < count && bytes[i + 1] >= 0xB0: i += 3
            case 0xED where i + 1 < count && bytes[i + 1] < 0x9E: i += 3
            // U+1F000–U+1FFFF: emoji and other pictographs.
            case 0xF0 where i + 1 < count && bytes[i + 1] == 0x9F: i += 4
            // U+200D (zero width joiner) and U+FE0F (emoji presentation), found in emoji.
            case 0xE2 where i + 2 < count && bytes[i + 1] == 0x80 && bytes[i + 2] == 0x8D: i += 3
            case 0xEF where i + 2 < count && bytes[i + 1] == 0xB8 && bytes[i + 2] == 0x8F: i += 3
            default:
                var span = UTF8Span(unchecked: bytes.span)
                return span.checkForNFC(quickCheck: true)
            }
        }
        return true
    }

    /// The scalars `isNFC` passes without the standard library: each has the normalization
    /// quick check property NFC_QC=Yes and combining class 0, so any text of them alone is
    /// in NFC (a test holds this against the standard library for every one of them).
    static func isKnownNFCScalar(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0..<0x300, 0x388...0x47F, 0x2500...0x27FF, 0x3040...0x3098, 0x309B...0x30FF, 0x4000...0x9FFF,
            0xAC00...0xD77F, 0x1F000...0x1FFFF, 0x200D, 0xFE0F:
            true
        default: false
        }
    }
}
