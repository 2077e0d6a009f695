#if YAML
/// A scalar's text as libyaml's emitter writes it when todofmt writes a new YAML file (the
/// settings `YAMLEmitter` gives it: Unicode, no line width, indentation 2), worked out here
/// so that the items of a long list need not go through the emitter one event at a time (it
/// was a third of the time, and the events' strings another). `YAMLScalarTextTests` holds
/// every choice to the emitter's on many texts.
///
/// A string that would read as another type (`YAMLValue.needsQuotes`) is asked for in double
/// quotes; otherwise libyaml writes it plain where plain style reads it back, else in single
/// quotes, and in double quotes when it holds a character it does not print. A text this
/// does not know how libyaml writes (a line break inside single quotes, a key too long to
/// be a simple key) gives nil: the caller lets the emitter write it.
enum YAMLScalarText {
    /// libyaml writes a longer key as a complex key (`? key`).
    static let simpleKeyBytes = 128

    /// Appends `text` as libyaml writes it; false, having appended nothing, where this does
    /// not know.
    static func append(_ text: String, isKey: Bool, to out: inout ByteSink) -> Bool {
        var text = text
        return text.withUTF8 { append(bytes: $0, isKey: isKey, to: &out) }
    }

    /// `append(_:isKey:to:)` of the text whose UTF-8 this is.
    static func append(bytes: UnsafeBufferPointer<UInt8>, isKey: Bool, to out: inout ByteSink) -> Bool {
        if isKey && !isSimpleKey(bytes) { return false }
        // One pass over the text, the analysis, tells most of `needsQuotes` too: it stops at
        // the first control character, and a text without one has no tab or line break.
        let style = analysis(of: bytes)
        if style == .unknown {
            guard YAMLValue.needsQuotes(bytes) else { return false }
            appendDoubleQuoted(bytes, to: &out)
            return true
        }
        append(bytes: bytes, analysed: style, to: &out)
        return true
    }

    /// `append(bytes:isKey:to:)` of a text whose `analysis` is `style`, which is not `.unknown`.
    static func append(bytes: UnsafeBufferPointer<UInt8>, analysed style: Style, to out: inout ByteSink) {
        switch style {
        case .plain, .singleQuoted:
            if YAMLValue.readsAsAnotherType(bytes) {
                appendDoubleQuoted(bytes, to: &out)
            } else {
                append(bytes, style, to: &out)
            }
        case .doubleQuoted, .unknown:
            // Asked for in double quotes or not, libyaml writes them.
            appendDoubleQuoted(bytes, to: &out)
        }
    }

    /// Whether libyaml writes `key` as a simple key (`key: value`) rather than a complex one.
    static func isSimpleKey(_ key: String) -> Bool {
        var key = key
        return key.withUTF8(isSimpleKey)
    }

    private static func isSimpleKey(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        bytes.count <= simpleKeyBytes && !hasLineBreak(bytes)
    }

    /// Whether text holds a line break (libyaml's `IS_BREAK`: CR, LF, U+0085, U+2028,
    /// U+2029): such a key is no simple key to libyaml.
    private static func hasLineBreak(_ b: UnsafeBufferPointer<UInt8>) -> Bool {
        for (i, c) in b.enumerated() {
            if c == 10 || c == 13 { return true }
            if c == 0xC2 && i + 1 < b.count && b[i + 1] == 0x85 { return true }
            if c == 0xE2 && i + 2 < b.count && b[i + 1] == 0x80 && (b[i + 2] == 0xA8 || b[i + 2] == 0xA9) {
                return true
            }
        }
        return false
    }

    /// Text asked for in plain style (a number, a date, a string that needs no quotes): as
    /// libyaml's analysis of it chooses.
    static func appendRequestedPlain(_ bytes: UnsafeBufferPointer<UInt8>, to out: inout ByteSink) -> Bool {
        append(bytes, analysis(of: bytes), to: &out)
    }

    /// Appends text in the style the analysis chose; false for `.unknown`.
    @discardableResult
    private static func append(_ bytes: UnsafeBufferPointer<UInt8>, _ style: Style, to out: inout ByteSink) -> Bool {
        switch style {
        case .plain: out.write(bytes)
        case .singleQuoted:
            out.write(byte: UInt8(ascii: "'"))
            for b in bytes {
                if b == UInt8(ascii: "'") { out.write(byte: b) }
                out.write(byte: b)
            }
            out.write(byte: UInt8(ascii: "'"))
        case .doubleQuoted: appendDoubleQuoted(bytes, to: &out)
        case .unknown: return false
        }
        return true
    }

    enum Style { case plain, singleQuoted, doubleQuoted, unknown }

    /// The style libyaml's emitter gives text asked for in plain style in block context
    /// (`yaml_emitter_analyze_scalar`, then `yaml_emitter_select_scalar_style`): not plain
    /// where an indicator, white space at an end or a line break would be misread; double
    /// quotes for a character it does not print; `unknown` for a line break, which single
    /// quotes write on lines of their own.
    static func analysis(of b: UnsafeBufferPointer<UInt8>) -> Style {
        guard let first = b.first, let last = b.last else { return .doubleQuoted }
        var plain = first != 32 && last != 32
        if b.count >= 3
            && ((b[0] == 0x2D && b[1] == 0x2D && b[2] == 0x2D) || (b[0] == 0x2E && b[1] == 0x2E && b[2] == 0x2E))
        {
            plain = false
        }
        switch first {
        case UInt8(ascii: "#"), UInt8(ascii: ","), UInt8(ascii: "["), UInt8(ascii: "]"), UInt8(ascii: "{"),
            UInt8(ascii: "}"), UInt8(ascii: "&"), UInt8(ascii: "*"), UInt8(ascii: "!"), UInt8(ascii: "|"),
            UInt8(ascii: ">"), UInt8(ascii: "'"), UInt8(ascii: "\""), UInt8(ascii: "%"), UInt8(ascii: "@"),
            UInt8(ascii: "`"):
            plain = false
        case UInt8(ascii: "?"), UInt8(ascii: ":"), UInt8(ascii: "-"):
            if b.count == 1 || isBlank(b[1]) { plain = false }
        default: break
        }
        var i = 0
        while i < b.count {
            // Sixteen bytes at a time while they change nothing (`loudLanes`), then eight: a
            // name that mixes scripts went a character at a time, on a
            // branch for each, where it left ASCII, and was a seventh of writing a checklist
            // as YAML.
            if i + 16 <= b.count {
                let flags = loudLanes(UnsafeRawPointer(b.baseAddress! + i).loadUnaligned(as: SIMD16<UInt8>.self))
                let (low, high) = unsafeBitCast(flags, to: (UInt64, UInt64).self)
                let quiet =
                    low != 0
                    ? UInt64(littleEndian: low).trailingZeroBitCount >> 3
                    : high != 0 ? 8 + UInt64(littleEndian: high).trailingZeroBitCount >> 3 : 16
                if quiet > 0 {
                    i += quiet
                    continue
                }
            } else if b.count >= 8 {
                // The next eight, or where fewer are left the text's last eight shifted past
                // those before `i` (zero bytes come in after the end, and are flagged): the
                // last bytes of most names went one by one.
                let from = min(i, b.count - 8)
                let word = UnsafeRawPointer(b.baseAddress! + from).loadUnaligned(as: UInt64.self) >> (8 * (i - from))
                let flags = unsafeBitCast(loudLanes(unsafeBitCast(word, to: SIMD8<UInt8>.self)), to: UInt64.self)
                let quiet = flags == 0 ? 8 : UInt64(littleEndian: flags).trailingZeroBitCount >> 3
                if quiet > 0 {
                    i += quiet
                    continue
                }
            }
            let c = b[i]
            if c < 0x80 {
                // Printable ASCII is a space or 0x21 to 0x7E; a tab, a line feed and the
                // other controls are escaped in double quotes.
                if c < 0x20 || c == 0x7F { return c == 0x0A || c == 0x0D ? .unknown : .doubleQuoted }
                if c == UInt8(ascii: ":") && (i + 1 == b.count || isBlank(b[i + 1])) { plain = false }
                if c == UInt8(ascii: "#") && i > 0 && isBlank(b[i - 1]) { plain = false }
                i += 1
                continue
            }
            // The rest of a character whose lead byte was among quiet ones.
            if c < 0xC0 {
                i += 1
                continue
            }
            let printed = printedLength(lead: c)
            if printed > 0 {
                i += printed
                continue
            }
            // The rest told by their bytes (valid UTF-8: a character starts at `i`), not
            // decoded: what `isPrintable` says of them, and the two line breaks.
            switch c {
            case 0xC2:
                // U+0080 to U+00BF: printed from U+00A0 on.
                guard b[i + 1] >= 0xA0 else { return .doubleQuoted }
                i += 2
            case 0xE2:
                // U+2000 to U+2FFF, all printed; U+2028 and U+2029 are line breaks.
                if b[i + 1] == 0x80 && (b[i + 2] == 0xA8 || b[i + 2] == 0xA9) { return .unknown }
                i += 3
            case 0xEF:
                // U+F000 to U+FFFF: printed but for U+FEFF, U+FFFE and U+FFFF.
                if (b[i + 1] == 0xBB && b[i + 2] == 0xBF) || (b[i + 1] == 0xBF && b[i + 2] >= 0xBE) {
                    return .doubleQuoted
                }
                i += 3
            default:
                // Past U+FFFF (emoji): not printed.
                return .doubleQuoted
            }
        }
        return plain ? .plain : .singleQuoted
    }

    /// The length of a character whose lead byte `c` says libyaml prints it as it is (valid
    /// UTF-8 has no surrogates after 0xED): U+00C0 to U+07FF, U+0800 to U+1FFF, U+3000 to
    /// U+D7FF, U+E000 to U+EFFF. Zero for the rest (U+0080 to U+00BF, U+2000 to U+2FFF,
    /// U+F000 on, emoji), which are looked at further.
    @inline(__always)
    private static func printedLength(lead c: UInt8) -> Int {
        // Bit k is set where lead byte 0xC0 + k is one of those; 0xC0 to 0xDF lead two bytes,
        // 0xE0 to 0xEF three.
        let printed: UInt64 = 0x7FFB_FFFF_FFF8
        guard c >= 0xC0, printed >> UInt64(c & 63) & 1 != 0 else { return 0 }
        return 2 + Int(c >> 5 & 1)
    }

    /// 0x80 in each lane (a byte of eight or sixteen) that is looked at one by one, 0 in the
    /// others: not ASCII from the space to `~`, or `:` or `#`, and not a byte of a character
    /// libyaml prints as it is (`printedLength`; any byte from 0x80 to 0xBF continues a
    /// character whose lead byte was looked at). So a control, DEL, `:`, `#`, or the lead
    /// byte of a character libyaml may not print as it is (0xC2, 0xE2, 0xEF and up: the
    /// lead bytes `printedLength` does not take). Most tests are on each lane's low seven
    /// bits, to which adding a constant below 0x80 cannot overflow: exact in every lane, and
    /// fewer steps than a test for each value (`ByteScan.zeroLanes`).
    @inline(__always)
    private static func loudLanes<V: SIMD>(_ x: V) -> V where V.Scalar == UInt8 {
        let highs = V(repeating: 0x80)
        let low = x & V(repeating: 0x7F)
        // Below 0x20: the low bits below it, the high bit clear.
        let control: V = ~((low &+ V(repeating: 0x60)) | x) & highs
        // 0x7F: the low bits all set, the high bit clear.
        let delete: V = (low &+ V(repeating: 0x01)) & ~x & highs
        // 0xEF and up: the high bit set, the low bits from 0x6F up.
        let high: V = (low &+ V(repeating: 0x11)) & x & highs
        // 0xC2 and 0xE2, which differ in one bit.
        let lead: V = ByteScan.zeroLanes((x & V(repeating: 0xDF)) ^ V(repeating: 0xC2))
        let colon: V = ByteScan.zeroLanes(x ^ V(repeating: 0x3A))
        let hash: V = ByteScan.zeroLanes(x ^ V(repeating: 0x23))
        return control | delete | high | lead | colon | hash
    }

    /// A space, a tab or a line break (libyaml's `IS_BLANKZ`, but for the end of the text,
    /// which callers check).
    private static func isBlank(_ c: UInt8) -> Bool { c == 32 || c == 9 || c == 10 || c == 13 }

    /// What libyaml prints as it is (`IS_PRINTABLE`): a line feed, ASCII from the space to
    /// `~`, and U+00A0 to U+FFFD but for surrogates, the byte order mark, U+FFFE and U+FFFF.
    /// Nothing beyond U+FFFF: libyaml escapes emoji.
    static func isPrintable(_ scalar: UInt32) -> Bool {
        scalar == 0x0A || (scalar >= 0x20 && scalar <= 0x7E) || (scalar >= 0xA0 && scalar <= 0xD7FF)
            || (scalar >= 0xE000 && scalar <= 0xFFFD && scalar != 0xFEFF)
    }

    /// The scalar whose UTF-8 starts at `i` (valid UTF-8), moving `i` past it.
    private static func decode(_ b: UnsafeBufferPointer<UInt8>, at i: inout Int) -> UInt32 {
        let c = UInt32(b[i])
        if c < 0xE0 {
            defer { i += 2 }
            return (c & 0x1F) << 6 | UInt32(b[i + 1] & 0x3F)
        }
        if c < 0xF0 {
            defer { i += 3 }
            return (c & 0x0F) << 12 | UInt32(b[i + 1] & 0x3F) << 6 | UInt32(b[i + 2] & 0x3F)
        }
        defer { i += 4 }
        return (c & 0x07) << 18 | UInt32(b[i + 1] & 0x3F) << 12 | UInt32(b[i + 2] & 0x3F) << 6
            | UInt32(b[i + 3] & 0x3F)
    }

    /// Double quotes as libyaml writes them (`yaml_emitter_write_double_quoted`, no line
    /// width): what it does not print, line breaks, the byte order mark, `"` and `\` are
    /// escaped, by name where YAML has one, else as `\xXX`, `\uXXXX` or `\UXXXXXXXX`.
    static func appendDoubleQuoted(_ b: UnsafeBufferPointer<UInt8>, to out: inout ByteSink) {
        // Each piece of at most 16 KiB, ending at a character's end, goes into the sink in one
        // write, with the quotes (an escape is at most four bytes for each byte it stands
        // for: `\x01`, `\U0001F389`). Runs and escapes written one by one were a write and
        // a `memcpy` call each, a fifth of quoting a name with an emoji.
        var from = 0
        repeat {
            var to = min(b.count, from + 16384)
            while to < b.count && b[to] & 0xC0 == 0x80 { to -= 1 }
            let piece = UnsafeBufferPointer(rebasing: b[from..<to])
            let (opens, closes) = (from == 0, to == b.count)
            out.write(upTo: 4 * piece.count + 2) { start in
                var at = start
                if opens {
                    at.pointee = UInt8(ascii: "\"")
                    at += 1
                }
                at = putDoubleQuoted(piece, at: at)
                if closes {
                    at.pointee = UInt8(ascii: "\"")
                    at += 1
                }
                return start.distance(to: at)
            }
            from = to
        } while from < b.count
    }

    /// Writes `b`'s characters as double quotes hold them (`appendDoubleQuoted`) at `at`,
    /// at most four bytes for each of `b`'s; returns where they end.
    private static func putDoubleQuoted(_ b: UnsafeBufferPointer<UInt8>, at: UnsafeMutablePointer<UInt8>)
        -> UnsafeMutablePointer<UInt8>
    {
        var at = at
        /// Copies `b[run..<end]` to `at`: eight bytes at a time where there are eight (the
        /// last eight overlapping those before), else a byte at a time (runs between an
        /// emoji's escapes are short).
        func copy(_ run: Int, _ end: Int) {
            let count = end - run
            guard count >= 8 else {
                var k = run
                while k < end {
                    at.pointee = b[k]
                    at += 1
                    k += 1
                }
                return
            }
            let from = UnsafeRawPointer(b.baseAddress! + run)
            let to = UnsafeMutableRawPointer(at)
            var k = 0
            while k + 8 < count {
                to.storeBytes(
                    of: from.loadUnaligned(fromByteOffset: k, as: UInt64.self), toByteOffset: k, as: UInt64.self)
                k += 8
            }
            to.storeBytes(
                of: from.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self), toByteOffset: count - 8,
                as: UInt64.self)
            at += count
        }
        // Characters written as they are go out a run at a time.
        var run = 0
        var i = 0
        while i < b.count {
            let start = i
            let c = b[i]
            if c < 0x80 && i + 8 <= b.count {
                // Eight bytes at a time while they are printable ASCII other than `"` and `\`.
                let x = UnsafeRawPointer(b.baseAddress! + i).loadUnaligned(as: UInt64.self)
                let flags =
                    x & 0x8080_8080_8080_8080 | ByteScan.hasBelow(x, 0x20) | ByteScan.has(x, 0x7F)
                    | ByteScan.has(x, 0x22) | ByteScan.has(x, 0x5C)
                // The lowest flag is exact (`ByteScan.has`).
                let quiet = flags == 0 ? 8 : flags.trailingZeroBitCount >> 3
                if quiet > 0 {
                    i += quiet
                    continue
                }
            }
            if c >= 0x20 && c < 0x7F && c != 0x22 && c != 0x5C {
                i += 1
                continue
            }
            let printed = printedLength(lead: c)
            if printed > 0 {
                i += printed
                continue
            }
            let scalar: UInt32
            if c < 0x80 {
                scalar = UInt32(c)
                i += 1
            } else {
                scalar = decode(b, at: &i)
            }
            let escaped =
                !isPrintable(scalar) || scalar == 0x0A || scalar == 0x0D || scalar == 0x85 || scalar == 0x2028
                || scalar == 0x2029 || scalar == 0x22 || scalar == 0x5C
            guard escaped else { continue }
            copy(run, start)
            run = i
            at += escape(scalar, into: at)
        }
        copy(run, b.count)
        return at
    }

    /// The eight upper-case hexadecimal digits of `value`, the first in the word's lowest
    /// byte (its first in memory, stored little-endian): each nibble spread into a byte of
    /// its own, the highest into the lowest, then `0` added to each and 7 more to each from
    /// 10 on (which with 6 added reaches 16).
    static func hexDigits(_ value: UInt32) -> UInt64 {
        var x = UInt64(value)
        x = (x | x << 16) & 0x0000_FFFF_0000_FFFF
        x = (x | x << 8) & 0x00FF_00FF_00FF_00FF
        x = ((x | x << 4) & 0x0F0F_0F0F_0F0F_0F0F).byteSwapped
        let letters = ((x &+ 0x0606_0606_0606_0606) >> 4) & 0x0101_0101_0101_0101
        return x &+ 0x3030_3030_3030_3030 &+ letters &* 7
    }

    /// Writes libyaml's escape of `scalar` at `p` (at most ten bytes); returns its length.
    private static func escape(_ scalar: UInt32, into p: UnsafeMutablePointer<UInt8>) -> Int {
        p[0] = UInt8(ascii: "\\")
        // (Past U+2029, as an emoji is, there is no short escape: most escapes are those.)
        var short: UInt8? = nil
        if scalar <= 0x2029 {
            short =
                switch scalar {
                case 0x00: UInt8(ascii: "0")
                case 0x07: UInt8(ascii: "a")
                case 0x08: UInt8(ascii: "b")
                case 0x09: UInt8(ascii: "t")
                case 0x0A: UInt8(ascii: "n")
                case 0x0B: UInt8(ascii: "v")
                case 0x0C: UInt8(ascii: "f")
                case 0x0D: UInt8(ascii: "r")
                case 0x1B: UInt8(ascii: "e")
                case 0x22: UInt8(ascii: "\"")
                case 0x5C: UInt8(ascii: "\\")
                case 0x85: UInt8(ascii: "N")
                case 0x2028: UInt8(ascii: "L")
                case 0x2029: UInt8(ascii: "P")
                default: nil
                }
        }
        if let short {
            p[1] = short
            return 2
        }
        let (letter, digits): (UInt8, Int) =
            scalar <= 0xFF ? (UInt8(ascii: "x"), 2) : scalar <= 0xFFFF ? (UInt8(ascii: "u"), 4) : (UInt8(ascii: "U"), 8)
        p[1] = letter
        // All eight digits at once, the last `digits` of them stored: a digit at a time was
        // most of an escape, and an escape is one for each emoji.
        let hex = hexDigits(scalar)
        let at = UnsafeMutableRawPointer(p + 2)
        switch digits {
        case 2: at.storeBytes(of: UInt16(truncatingIfNeeded: hex >> 48).littleEndian, as: UInt16.self)
        case 4: at.storeBytes(of: UInt32(truncatingIfNeeded: hex >> 32).littleEndian, as: UInt32.self)
        default: at.storeBytes(of: hex.littleEndian, as: UInt64.self)
        }
        return 2 + digits
    }
}
#endif
