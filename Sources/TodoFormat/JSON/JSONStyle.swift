/// How a JSON file is written, learned from its text, so that what todofmt writes into it
/// (a changed value, a new item) looks like the rest: JSONEncoder's one line without spaces,
/// Python's `indent=4` with `\u00e9` escapes, JavaScript's two spaces, Go's tabs with
/// `\u003c`, or todofmt's own one item object a line.
struct JSONStyle: Hashable, Sendable {
    /// Non-ASCII characters as `\uXXXX` escapes (Python's default).
    var asciiOnly = false
    /// `/` as `\/` (Foundation's JSONEncoder).
    var escapeSlash = false
    /// `<`, `>` and `&` as `\u003c`, `\u003e`, `\u0026` (Go's default).
    var escapeHTML = false
    /// Upper-case hexadecimal digits in `\u` escapes.
    var upperHex = false
    /// `\b` and `\f` rather than `\u0008` and `\u000c` (Python, JavaScript).
    var shortEscapes = false
    /// Whether a real with no fraction is written `5.0` (Python, todofmt) or `5` (JavaScript, Go).
    var realsKeepFraction = true

    /// Item objects one key a line.
    var itemLines = false
    /// Arrays of items one item a line.
    var arrayLines = true
    /// Other arrays and objects one element a line.
    var valueLines = false
    /// One level of indentation.
    var indent: [UInt8] = Array("  ".utf8)
    /// Between a key and its value, and after a value on the same line as the next key.
    var colon: [UInt8] = Array(": ".utf8)
    var comma: [UInt8] = Array(", ".utf8)
    /// The same inside values written on one line.
    var valueColon: [UInt8] = Array(": ".utf8)
    var valueComma: [UInt8] = Array(", ".utf8)

    /// todofmt's own style (`JSONListWriter`).
    static let todofmt = JSONStyle()

    /// Learns how strings are written from JSON text: escapes that only some writers make.
    /// Returns whether a number has a zero fraction (`5.0`), which says whole reals keep theirs.
    @discardableResult
    mutating func learnText(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
        var rawNonASCII = false, escapedNonASCII = false, rawHTML = false, escapedHTML = false
        var rawSlash = false, escapedSlash = false, lowerHex = false, upper = false, short = false
        var zeroFraction = false
        var i = 0
        let n = text.count
        while i < n {
            let b = text[i]
            if b == UInt8(ascii: "\"") {
                i += 1
                while i < n {
                    let c = text[i]
                    if c == UInt8(ascii: "\"") { break }
                    if c == UInt8(ascii: "\\"), i + 1 < n {
                        let e = text[i + 1]
                        if e == UInt8(ascii: "/") { escapedSlash = true }
                        if e == UInt8(ascii: "b") || e == UInt8(ascii: "f") { short = true }
                        if e == UInt8(ascii: "u"), i + 5 < n {
                            var value = 0
                            for k in 2..<6 {
                                let h = text[i + k]
                                let digit: Int
                                switch h {
                                case 48...57: digit = Int(h) - 48
                                case 97...102: digit = Int(h) - 87; lowerHex = true
                                case 65...70: digit = Int(h) - 55; upper = true
                                default: digit = 0
                                }
                                value = value << 4 | digit
                            }
                            if value >= 0x80 { escapedNonASCII = true }
                            if value == 0x3C || value == 0x3E || value == 0x26 { escapedHTML = true }
                            i += 6
                            continue
                        }
                        i += 2
                        continue
                    }
                    if c >= 0x80 { rawNonASCII = true }
                    if c == UInt8(ascii: "<") || c == UInt8(ascii: ">") || c == UInt8(ascii: "&") { rawHTML = true }
                    if c == UInt8(ascii: "/") { rawSlash = true }
                    i += 1
                }
                i += 1
                continue
            }
            if b == UInt8(ascii: "."), i + 1 < n, text[i + 1] == UInt8(ascii: "0") {
                // `5.0`: a zero fraction that is all of the fraction.
                var j = i + 1
                while j < n && text[j] == UInt8(ascii: "0") { j += 1 }
                if j == n || !(text[j] >= 49 && text[j] <= 57) { zeroFraction = true }
            }
            i += 1
        }
        asciiOnly = escapedNonASCII && !rawNonASCII
        escapeHTML = escapedHTML && !rawHTML
        escapeSlash = escapedSlash && !rawSlash
        upperHex = upper && !lowerHex
        shortEscapes = short
        return zeroFraction
    }
}

/// Writes JSON values and item objects in a file's style, into a byte buffer.
struct JSONRenderer {
    var style: JSONStyle
    var layout: ItemLayout

    private static let hex: [UInt8] = Array("0123456789abcdef".utf8)
    private static let upperHexDigits: [UInt8] = Array("0123456789ABCDEF".utf8)

    /// A string with the file's escapes.
    func string(_ s: Substring, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        let style = self.style
        let plain = s.utf8.withContiguousStorageIfAvailable { bytes -> Bool in
            for b in bytes where b < 32 || b == UInt8(ascii: "\"") || b == UInt8(ascii: "\\") || (b >= 0x80 && style.asciiOnly)
                || (b == UInt8(ascii: "/") && style.escapeSlash)
                || (style.escapeHTML && (b == UInt8(ascii: "<") || b == UInt8(ascii: ">") || b == UInt8(ascii: "&") || b == 0xE2))
            {
                return false
            }
            out.append(contentsOf: bytes)
            return true
        }
        if plain != true { escaped(s, to: &out) }
        out.append(UInt8(ascii: "\""))
    }

    private func escaped(_ s: Substring, to out: inout [UInt8]) {
        let digits = style.upperHex ? Self.upperHexDigits : Self.hex
        func unit(_ u: UInt16) {
            out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "u")])
            for shift in stride(from: 12, through: 0, by: -4) { out.append(digits[Int(u >> UInt16(shift)) & 15]) }
        }
        for scalar in s.unicodeScalars {
            let v = scalar.value
            switch v {
            case 0x22: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
            case 0x5C: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
            case 0x0A: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
            case 0x0D: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
            case 0x09: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
            case 0x08 where style.shortEscapes: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "b")])
            case 0x0C where style.shortEscapes: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "f")])
            case 0..<0x20: unit(UInt16(v))
            case 0x2F where style.escapeSlash: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "/")])
            case _ where style.escapeHTML && (v == 0x3C || v == 0x3E || v == 0x26 || v == 0x2028 || v == 0x2029):
                unit(UInt16(v))
            case 0x80... where style.asciiOnly:
                for u in String(scalar).utf16 { unit(u) }
            default: out.append(contentsOf: String(scalar).utf8)
            }
        }
    }

    /// A number as the file writes numbers.
    func number(_ d: Double, to out: inout [UInt8]) {
        if d == 0 && d.sign == .minus {
            out.append(contentsOf: Array("-0.0".utf8))
        } else if !style.realsKeepFraction, d == d.rounded(), abs(d) < 1e15 {
            out.append(contentsOf: Array(String(Int(d)).utf8))
        } else {
            out.append(contentsOf: Array(NumberSyntax.format(d).utf8))
        }
    }

    /// Any value; `line` is the indentation of the line it starts on.
    func value(_ value: FieldValue, line: [UInt8], to out: inout [UInt8]) {
        switch value {
        case .string(let s): string(Substring(s), to: &out)
        case .integer(let i): out.append(contentsOf: Array(String(i).utf8))
        case .bigInteger(let digits): out.append(contentsOf: Array(digits.utf8))
        case .double(let d):
            // JSON has no NaN or infinity: they are written as the strings Swift prints.
            if d.isFinite { number(d, to: &out) } else { string(Substring(String(d)), to: &out) }
        case .bool(let b): out.append(contentsOf: Array((b ? "true" : "false").utf8))
        case .null: out.append(contentsOf: Array("null".utf8))
        case .date(let d): string(Substring(ISO8601.format(d)), to: &out)
        case .data(let d): string(Substring(d.base64EncodedString()), to: &out)
        case .array(let values):
            container(values.count, open: UInt8(ascii: "["), close: UInt8(ascii: "]"), lines: style.valueLines, line: line, to: &out) { i, inner, out in
                self.value(values[i], line: inner, to: &out)
            }
        case .dictionary(let fields):
            let colon = style.valueLines ? style.colon : style.valueColon
            container(fields.count, open: UInt8(ascii: "{"), close: UInt8(ascii: "}"), lines: style.valueLines, line: line, to: &out) { i, inner, out in
                string(Substring(fields[i].key), to: &out)
                out.append(contentsOf: colon)
                self.value(fields[i].value, line: inner, to: &out)
            }
        }
    }

    /// `open`, the elements (one a line, or on one line), `close`; `open` and `close` alone when empty.
    private func container(
        _ count: Int, open: UInt8, close: UInt8, lines: Bool, line: [UInt8], to out: inout [UInt8],
        _ element: (Int, [UInt8], inout [UInt8]) -> Void
    ) {
        out.append(open)
        if count > 0 {
            let inner = lines ? line + style.indent : line
            for i in 0..<count {
                if lines {
                    if i > 0 { out.append(UInt8(ascii: ",")) }
                    out.append(10)
                    out.append(contentsOf: inner)
                } else if i > 0 {
                    out.append(contentsOf: style.valueComma)
                }
                element(i, inner, &out)
            }
            if lines {
                out.append(10)
                out.append(contentsOf: line)
            }
        }
        out.append(close)
    }

    /// An item object with its children; `line` is the indentation of its line. `children`
    /// writes the children array where the caller has its own (moved items keep their text).
    func item(
        _ item: TodoItem, line: [UInt8], to out: inout [UInt8],
        children: ((_ line: [UInt8], _ out: inout [UInt8]) -> Void)? = nil
    ) {
        let entries = layout.entries(of: item)
        out.append(UInt8(ascii: "{"))
        let inner = style.itemLines ? line + style.indent : line
        for (i, entry) in entries.enumerated() {
            if style.itemLines {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                out.append(10)
                out.append(contentsOf: inner)
            } else if i > 0 {
                out.append(contentsOf: style.comma)
            }
            string(Substring(entry.key), to: &out)
            out.append(contentsOf: style.colon)
            switch entry.value {
            case .value(let v): value(v, line: inner, to: &out)
            case .items(let items):
                if let children {
                    children(inner, &out)
                } else {
                    self.items(items, line: inner, to: &out)
                }
            case .dictionary: break  // not produced for items
            }
        }
        if style.itemLines && !entries.isEmpty {
            out.append(10)
            out.append(contentsOf: line)
        }
        out.append(UInt8(ascii: "}"))
    }

    /// An array of items; `line` is the indentation of the line it opens on.
    func items(_ items: [TodoItem], line: [UInt8], to out: inout [UInt8]) {
        out.append(UInt8(ascii: "["))
        guard !items.isEmpty else {
            out.append(UInt8(ascii: "]"))
            return
        }
        let inner = style.arrayLines ? line + style.indent : line
        for (i, child) in items.enumerated() {
            if style.arrayLines {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                out.append(10)
                out.append(contentsOf: inner)
            } else if i > 0 {
                out.append(contentsOf: style.comma)
            }
            item(child, line: inner, to: &out)
        }
        if style.arrayLines {
            out.append(10)
            out.append(contentsOf: line)
        }
        out.append(UInt8(ascii: "]"))
    }
}
