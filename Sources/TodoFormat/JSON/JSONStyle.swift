/// How a JSON file is written, learned from its text, so that what todofmt writes into it
/// (a changed value, a new item) looks like the rest: JSONEncoder's one line without spaces,
/// Python's `indent=4` with `\u00e9` escapes, JavaScript's two spaces, Go's tabs with
/// `\u003c`, or todofmt's own one item object a line.
struct JSONStyle: Hashable, Sendable {
    /// How strings are escaped.
    var escapes = JSONEscapes()
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
        var rawNonASCII = false
        var escapedNonASCII = false
        var rawHTML = false
        var escapedHTML = false
        var rawSlash = false
        var escapedSlash = false
        var lowerHex = false
        var upper = false
        var short = false
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
                                case 97...102:
                                    digit = Int(h) - 87
                                    lowerHex = true
                                case 65...70:
                                    digit = Int(h) - 55
                                    upper = true
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
        escapes.asciiOnly = escapedNonASCII && !rawNonASCII
        escapes.escapeHTML = escapedHTML && !rawHTML
        escapes.escapeSlash = escapedSlash && !rawSlash
        escapes.upperHex = upper && !lowerHex
        escapes.shortEscapes = short
        return zeroFraction
    }
}

/// How a JSON file escapes its strings (a plain value, cheap to pass around).
struct JSONEscapes: Hashable, Sendable {
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
}

/// Writes JSON values and item objects in a file's style, into a byte buffer. A class, so
/// that the closures writing nested values share it rather than copy it.
final class JSONRenderer {
    let style: JSONStyle
    let layout: ItemLayout
    private let keys: ItemLayout.EntryKeys
    /// The role keys written with the colon after them, and whether items can be written
    /// without building their entries (no fields, no key order of the file's).
    private let nameKey: [UInt8], childrenKey: [UInt8], sectionKey: [UInt8], statusKey: [UInt8]
    private let checkedKey: [UInt8]?, defaultCheckedKey: [UInt8]
    private let plainItems: Bool
    /// Whether checked values are plain `true`/`false` and statuses only custom characters.
    private let plainStatus: Bool
    /// Which bytes a string cannot hold as they are (256 entries).
    private let escaping: UnsafeMutablePointer<Bool>

    init(style: JSONStyle, layout: ItemLayout) {
        self.style = style
        self.layout = layout
        keys = layout.entryKeys
        var buffer: [UInt8] = []
        func key(_ k: String) -> [UInt8] {
            buffer = []
            Self.writeString(Substring(k), escapes: style.escapes, to: &buffer)
            return buffer + style.colon
        }
        nameKey = key(keys.name)
        childrenKey = key(keys.children)
        sectionKey = key(keys.section)
        statusKey = key(keys.status)
        checkedKey = keys.checked.map(key)
        defaultCheckedKey = key(keys.addedChecked)
        plainItems = layout.keyOrder.isEmpty
        plainStatus =
            !keys.wordsInStatus && (layout.checkedSpelling == nil || layout.checkedSpelling == .boolean)
            && !layout.checkedIsIntegerByDefault && layout.integerChecked.isEmpty && layout.booleanChecked.isEmpty
            && keys.checked.map { layout.schema.statusMap(of: $0) == nil } ?? true
            && layout.schema.statusMap(of: keys.status) == nil
        escaping = .allocate(capacity: 256)
        let escapes = style.escapes
        for b in 0..<256 {
            escaping[b] =
                b < 32 || b == 0x22 || b == 0x5C || (b >= 0x80 && escapes.asciiOnly)
                || (b == 0x2F && escapes.escapeSlash)
                || (escapes.escapeHTML && (b == 0x3C || b == 0x3E || b == 0x26 || b == 0xE2))
        }
    }

    deinit { escaping.deallocate() }

    /// The last indentation `indented` was asked for, and it one level deeper: the items of
    /// an array share their line's indentation, so most items make none anew.
    private var lastLine: [UInt8] = []
    private var lastInner: [UInt8]?

    /// `line` one level deeper.
    private func indented(_ line: [UInt8]) -> [UInt8] {
        if let lastInner, line == lastLine { return lastInner }
        let inner = line + style.indent
        (lastLine, lastInner) = (line, inner)
        return inner
    }

    /// Whether an item written reads back with its status (`ItemLayout.keepsStatus`).
    func keepsStatus(of item: TodoItem) -> Bool { layout.keepsStatus(of: item, keys: keys) }

    private static let hex: [UInt8] = Array("0123456789abcdef".utf8)
    private static let trueBytes: [UInt8] = Array("true".utf8)
    private static let falseBytes: [UInt8] = Array("false".utf8)
    private static let upperHexDigits: [UInt8] = Array("0123456789ABCDEF".utf8)

    /// A string with the file's escapes.
    func string(_ s: Substring, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        var s = s
        let escaping = self.escaping
        let plain = s.withUTF8 { bytes -> Bool in
            for b in bytes where escaping[Int(b)] { return false }
            out.append(contentsOf: bytes)
            return true
        }
        if !plain { Self.escaped(s, escapes: style.escapes, to: &out) }
        out.append(UInt8(ascii: "\""))
    }

    static func writeString(_ s: Substring, escapes style: JSONEscapes, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        let plain = s.utf8.withContiguousStorageIfAvailable { bytes -> Bool in
            for b in bytes
            where b < 32 || b == UInt8(ascii: "\"") || b == UInt8(ascii: "\\") || (b >= 0x80 && style.asciiOnly)
                || (b == UInt8(ascii: "/") && style.escapeSlash)
                || (style.escapeHTML
                    && (b == UInt8(ascii: "<") || b == UInt8(ascii: ">") || b == UInt8(ascii: "&") || b == 0xE2))
            {
                return false
            }
            out.append(contentsOf: bytes)
            return true
        }
        if plain != true { escaped(s, escapes: style, to: &out) }
        out.append(UInt8(ascii: "\""))
    }

    private static func escaped(_ s: Substring, escapes style: JSONEscapes, to out: inout [UInt8]) {
        let digits = style.upperHex ? upperHexDigits : hex
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
            container(
                values.count, open: UInt8(ascii: "["), close: UInt8(ascii: "]"), lines: style.valueLines, line: line,
                to: &out
            ) { i, inner, out in
                self.value(values[i], line: inner, to: &out)
            }
        case .dictionary(let fields):
            let colon = style.valueLines ? style.colon : style.valueColon
            container(
                fields.count, open: UInt8(ascii: "{"), close: UInt8(ascii: "}"), lines: style.valueLines, line: line,
                to: &out
            ) { i, inner, out in
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
            let inner = lines ? indented(line) : line
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
        if plainItems && item.fields.isEmpty && children == nil { return plainItem(item, line: line, to: &out) }
        let entries = layout.entries(of: item, keys: keys)
        out.append(UInt8(ascii: "{"))
        let inner = style.itemLines ? indented(line) : line
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

    /// An item without fields, written as `entries(of:)` would give it without building them.
    private func plainItem(_ item: TodoItem, line: [UInt8], to out: inout [UInt8]) {
        out.append(UInt8(ascii: "{"))
        let inner = style.itemLines ? indented(line) : line
        var first = true
        func separate() {
            if style.itemLines {
                if !first { out.append(UInt8(ascii: ",")) }
                out.append(10)
                out.append(contentsOf: inner)
            } else if !first {
                out.append(contentsOf: style.comma)
            }
            first = false
        }
        separate()
        out.append(contentsOf: nameKey)
        string(item.nameStorage, to: &out)
        if plainStatus {
            // `"checked": true`, and a status only for a custom one: no values to build.
            if let key = checkedKey ?? (item.isChecked ? defaultCheckedKey : nil) {
                separate()
                out.append(contentsOf: key)
                out.append(contentsOf: item.isChecked ? Self.trueBytes : Self.falseBytes)
            }
            if case .custom(let scalar) = item.status {
                separate()
                out.append(contentsOf: statusKey)
                string(Substring(String(scalar)), to: &out)
            }
        } else {
            var checkedKey: String? = nil
            if let key = keys.checked ?? (item.isChecked && !keys.wordsInStatus ? keys.addedChecked : nil) {
                separate()
                string(Substring(key), to: &out)
                out.append(contentsOf: style.colon)
                let name = layout.integerChecked.isEmpty && layout.booleanChecked.isEmpty ? nil : item.name
                value(layout.checkedValue(item.status, key: key, itemName: name), line: inner, to: &out)
                checkedKey = key
            }
            if layout.writesStatusKey(item.status, key: keys.status, checkedKey: checkedKey),
                let status = layout.statusValue(item.status, key: keys.status, like: nil, always: keys.wordsInStatus)
            {
                separate()
                out.append(contentsOf: statusKey)
                value(status, line: inner, to: &out)
            }
        }
        if let section = item.section {
            separate()
            out.append(contentsOf: sectionKey)
            string(Substring(section), to: &out)
        }
        if !item.children.isEmpty {
            separate()
            out.append(contentsOf: childrenKey)
            items(item.children, line: inner, to: &out)
        }
        if style.itemLines {
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
        let inner = style.arrayLines ? indented(line) : line
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
