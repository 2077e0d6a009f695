import Foundation

/// Writes XML property list elements in a file's layout: one element a line indented with
/// tabs (Apple's tools and plistlib) or all on one line, `<real>1.0</real>` (plistlib) or
/// `<real>1</real>` (Apple), `<data>` on one line or on lines of its own (plistlib).
/// Text holds only what XML 1.0 allows (`losses(in:)` names what it replaced).
struct XMLRenderer {
    /// One element a line.
    var lines = true
    var indent: [UInt8] = [9]
    var realsKeepFraction = true
    var dataLines = false

    /// Learns reals and data from elements in `text`.
    mutating func learn(from text: UnsafeBufferPointer<UInt8>) {
        let real: StaticString = "<real>"
        let data: StaticString = "<data>"
        guard let base = text.baseAddress else { return }
        var i = 0
        var sawZeroFraction = false
        var sawWhole = false
        while i < text.count {
            // From one `<` to the next (a byte at a time was most of the scan).
            guard let next = memchr(base + i, Int32(UInt8(ascii: "<")), text.count - i) else { break }
            i = UnsafeRawPointer(next) - UnsafeRawPointer(base)
            if ByteScan.has(real, at: i, in: text) {
                // `1.0` says whole reals keep a zero fraction (plistlib); `1` that they do not (Apple).
                var j = i + real.utf8CodeUnitCount
                let start = j
                while j < text.count && text[j] != UInt8(ascii: "<") { j += 1 }
                let value = text[start..<j]
                if let dot = value.firstIndex(of: UInt8(ascii: ".")) {
                    if value[(dot + 1)...].allSatisfy({ $0 == UInt8(ascii: "0") }) && dot + 1 < j {
                        sawZeroFraction = true
                    }
                } else if value.allSatisfy({ ($0 >= 48 && $0 <= 57) || $0 == UInt8(ascii: "-") }) && !value.isEmpty {
                    sawWhole = true
                }
                i = j
            } else if ByteScan.has(data, at: i, in: text) {
                let j = i + data.utf8CodeUnitCount
                if j < text.count && (text[j] == 10 || text[j] == 13) { dataLines = true }
                i = j
            } else {
                i += 1
            }
        }
        if sawWhole && !sawZeroFraction { realsKeepFraction = false }
    }

    /// How many base64 characters plistlib writes on a line of `<data>` at this indentation.
    static func dataLineWidth(indent: [UInt8]) -> Int {
        let width = indent.reduce(0) { $0 + ($1 == 9 ? 8 : 1) }
        return max(16, 76 - width) / 4 * 4
    }

    /// Text as element content: `&`, `<` and `>` as references, a carriage return as `&#13;`
    /// (a raw one would be read as a line feed), and characters XML 1.0 cannot hold (other
    /// control characters, U+FFFE, U+FFFF) as U+FFFD.
    func text(_ s: String, to out: inout [UInt8]) {
        let plain = s.utf8.withContiguousStorageIfAvailable { bytes -> Bool in
            for b in bytes
            where (b < 32 && b != 9 && b != 10) || b == UInt8(ascii: "<") || b == UInt8(ascii: ">")
                || b == UInt8(ascii: "&") || b == 0xEF
            {
                return false
            }
            out.append(contentsOf: bytes)
            return true
        }
        if plain == true { return }
        for scalar in s.unicodeScalars {
            switch scalar.value {
            case 0x3C: out.append(contentsOf: "&lt;".utf8)
            case 0x3E: out.append(contentsOf: "&gt;".utf8)
            case 0x26: out.append(contentsOf: "&amp;".utf8)
            case 0x0D: out.append(contentsOf: "&#13;".utf8)
            case 0x09, 0x0A: out.append(UInt8(scalar.value))
            case 0..<0x20, 0xFFFE, 0xFFFF: out.append(contentsOf: "\u{FFFD}".utf8)
            default: out.append(contentsOf: String(scalar).utf8)
            }
        }
    }

    /// Whether a string may hold a character XML 1.0 cannot: a quick look at its bytes.
    static func mayHaveForbidden<S: StringProtocol>(_ s: S) -> Bool {
        func scan<C: Sequence<UInt8>>(_ bytes: C) -> Bool {
            bytes.contains { $0 < 32 && $0 != 9 && $0 != 10 || $0 == 0xEF }
        }
        return s.utf8.withContiguousStorageIfAvailable { scan($0) } ?? scan(s.utf8)
    }

    /// Whether a string holds a character XML 1.0 cannot.
    static func hasForbidden(_ s: String) -> Bool {
        s.unicodeScalars.contains { v in
            (v.value < 0x20 && v.value != 9 && v.value != 10 && v.value != 13) || v.value == 0xFFFE || v.value == 0xFFFF
        }
    }

    func key(_ key: String, to out: inout [UInt8]) {
        out.append(contentsOf: Tag.key.open)
        text(key, to: &out)
        out.append(contentsOf: Tag.key.close)
    }

    /// An element's tags as bytes, made once: a long list writes them millions of times.
    private struct Tag {
        let open: [UInt8], close: [UInt8], empty: [UInt8]

        init(_ name: String) {
            open = Array("<\(name)>".utf8)
            close = Array("</\(name)>".utf8)
            empty = Array("<\(name)/>".utf8)
        }

        static let key = Tag("key"), string = Tag("string"), integer = Tag("integer"), real = Tag("real")
        static let date = Tag("date"), data = Tag("data"), array = Tag("array"), dict = Tag("dict")
        static let `true` = Tag("true"), `false` = Tag("false")
    }

    private func element(_ tag: Tag, _ content: String, to out: inout [UInt8]) {
        out.append(contentsOf: tag.open)
        out.append(contentsOf: content.utf8)
        out.append(contentsOf: tag.close)
    }

    /// The text of a real number.
    func real(_ d: Double) -> String {
        if d.isNaN { return "nan" }
        if d.isInfinite { return d < 0 ? "-inf" : "inf" }
        if !realsKeepFraction, d == d.rounded(), abs(d) < 1e15, !(d == 0 && d.sign == .minus) { return String(Int(d)) }
        return String(d)
    }

    /// A value's element; `line` is the indentation of the line it starts on. Nulls (which
    /// property lists cannot hold) are left out of arrays and dictionaries.
    func value(_ value: FieldValue, line: [UInt8], to out: inout [UInt8]) {
        switch value {
        case .string(let s):
            out.append(contentsOf: Tag.string.open)
            text(s, to: &out)
            out.append(contentsOf: Tag.string.close)
        case .integer(let i): element(.integer, String(i), to: &out)
        case .bigInteger(let digits): element(.integer, digits, to: &out)
        case .double(let d): element(.real, real(d), to: &out)
        case .bool(let b): out.append(contentsOf: b ? Tag.true.empty : Tag.false.empty)
        case .date(let d):
            // XML property list dates are whole seconds (plistlib and Apple read no fraction).
            element(
                .date, ISO8601.format(Date(timeIntervalSince1970: d.timeIntervalSince1970.rounded(.down))), to: &out)
        case .data(let d):
            let base64 = d.base64EncodedString()
            guard dataLines && lines else { return element(.data, base64, to: &out) }
            out.append(contentsOf: Tag.data.open)
            let width = Self.dataLineWidth(indent: line)
            var chars = Substring(base64)
            while !chars.isEmpty {
                out.append(10)
                out.append(contentsOf: line)
                out.append(contentsOf: Array(chars.prefix(width).utf8))
                chars = chars.dropFirst(width)
            }
            out.append(10)
            out.append(contentsOf: line)
            out.append(contentsOf: Tag.data.close)
        case .null: break
        case .array(let values):
            let values = values.contains(.null) ? values.filter { $0 != .null } : values
            container(.array, values.count, line: line, lines: lines, to: &out) { i, inner, out in
                self.value(values[i], line: inner, to: &out)
            }
        case .dictionary(let fields):
            let fields = fields.contains { $0.value == .null } ? fields.filter { $0.value != .null } : fields
            container(.dict, fields.count, line: line, lines: lines, to: &out) { i, inner, out in
                key(fields[i].key, to: &out)
                if lines {
                    out.append(10)
                    out.append(contentsOf: inner)
                }
                self.value(fields[i].value, line: inner, to: &out)
            }
        }
    }

    /// `<name>`, the elements (one a line, or on one line), `</name>`; `<name/>` when empty.
    private func container(
        _ tag: Tag, _ count: Int, line: [UInt8], lines: Bool, to out: inout [UInt8],
        _ element: (Int, [UInt8], inout [UInt8]) -> Void
    ) {
        guard count > 0 else {
            out.append(contentsOf: tag.empty)
            return
        }
        out.append(contentsOf: tag.open)
        let inner = lines ? line + indent : line
        for i in 0..<count {
            if lines {
                out.append(10)
                out.append(contentsOf: inner)
            }
            element(i, inner, &out)
        }
        if lines {
            out.append(10)
            out.append(contentsOf: line)
        }
        out.append(contentsOf: tag.close)
    }

    /// An item's dictionary with its children, as the file's items are written.
    func item(
        _ item: TodoItem, layout: ItemLayout, keys: ItemLayout.EntryKeys, line: [UInt8], arrayLines: Bool,
        to out: inout [UInt8]
    ) {
        func isNull(_ entry: OutputEntry) -> Bool {
            if case .value(.null) = entry.value { true } else { false }
        }
        var entries = layout.entries(of: item, keys: keys)
        if entries.contains(where: isNull) { entries.removeAll(where: isNull) }
        container(.dict, entries.count, line: line, lines: lines, to: &out) { i, inner, out in
            key(entries[i].key, to: &out)
            if lines {
                out.append(10)
                out.append(contentsOf: inner)
            }
            switch entries[i].value {
            case .value(let v): value(v, line: inner, to: &out)
            case .items(let children):
                container(.array, children.count, line: inner, lines: arrayLines, to: &out) { j, childLine, out in
                    self.item(
                        children[j], layout: layout, keys: keys, line: childLine, arrayLines: arrayLines, to: &out)
                }
            case .dictionary: break
            }
        }
    }

    /// What an XML property list cannot hold of a value, as warning messages.
    static func losses(in value: FieldValue) -> [String] {
        switch value {
        case .null: return [PropertyListLosses.null]
        case .string(let s) where mayHaveForbidden(s) && hasForbidden(s): return [PropertyListLosses.controlCharacters]
        case .date(let d) where d.timeIntervalSince1970 != d.timeIntervalSince1970.rounded(.down):
            return [PropertyListLosses.dateFractions]
        case .bigInteger(let digits) where !(WideInteger(digits: digits)?.fits64Bits ?? false):
            return [PropertyListLosses.wideIntegers]
        case .array(let values): return Array(Set(values.flatMap(losses))).sorted()
        case .dictionary(let fields):
            return Array(
                Set(
                    fields.flatMap {
                        losses(in: $0.value) + (hasForbidden($0.key) ? [PropertyListLosses.controlCharacters] : [])
                    })
            ).sorted()
        default: return []
        }
    }
}

/// The warnings of what property lists cannot hold.
enum PropertyListLosses {
    static let null = "property lists have no null: null values were left out"
    static let controlCharacters =
        "an XML property list cannot hold control characters other than tab, line feed and carriage return: they were written as U+FFFD"
    static let dateFractions = "XML property list dates are whole seconds: fractions of a second were left out"
    static let wideIntegers = "integers beyond 64 bits were written, which Apple's property list readers cannot read"
    static let tooWide = "integers beyond 128 bits do not fit a binary property list: they were written as text"
}
