#if YAML
import Foundation

/// How a YAML file writes what todofmt writes into it, learned from its items: the quotes
/// its strings take, the indentation of keys and of sequences under a key, whether
/// sequences inside items are in flow style, how each date key's values are spelled, and
/// whether open items carry a checked or status key at all.
struct YAMLWriteStyle {
    /// `'` or `"` for strings that need quotes.
    private var single = 0, double = 0
    /// Columns from an item's dash to its keys.
    private(set) var itemIndent = 2
    private var itemIndentKnown = false
    /// Columns from a key to the dashes of a sequence under it (0: PyYAML's and libyaml's way).
    private var sequenceOffset: Int? = nil
    private var flowSequences = 0, blockSequences = 0
    private var dates: [String: DateSpelling] = [:]
    private var openWithChecked = 0, openWithoutChecked = 0, openWithStatus = 0, openWithoutStatus = 0
    private(set) var openOmitsChecked = false
    private(set) var openOmitsStatus = false
    /// Where each key stands in the file's items (their own keys, first seen first).
    private(set) var keyOrder: [String: Int] = [:]
    /// How the file's items spell null under each key (`null`, `~` or nothing after the
    /// colon, the first met), and under any key; `null` before any.
    private var nulls: [String: [UInt8]] = [:]
    private var null: [UInt8]? = nil

    /// Learns from an item of the file (and its children).
    mutating func learn(
        _ item: SpannedItem, bytes: UnsafeBufferPointer<UInt8>, schema: ItemSchema, merged: YAMLMergedItem?
    ) {
        if !itemIndentKnown, let first = item.keySpans.first {
            var i = first.lowerBound
            let lineStart = YAMLListPatcher.lineStart(of: i, in: bytes)
            while i > lineStart && bytes[i - 1] == 32 { i -= 1 }
            if i > lineStart && bytes[i - 1] == UInt8(ascii: "-") {
                itemIndent = first.lowerBound - (i - 1)
                itemIndentKnown = true
            }
        }
        for member in item.members where keyOrder[member.key] == nil { keyOrder[member.key] = keyOrder.count }
        for (m, member) in item.members.enumerated() {
            let span = item.valueSpans[m]
            if member.value == .null, member.role != .children, nulls[member.key] == nil {
                nulls[member.key] = Array(bytes[span])
                null = null ?? nulls[member.key]
            }
            guard !span.isEmpty else { continue }
            switch bytes[span.lowerBound] {
            case UInt8(ascii: "'"): single += 1
            case UInt8(ascii: "\""): double += 1
            default: break
            }
            switch member.value {
            case .date:
                if let spelling = DateSpelling(of: String(decoding: bytes[span], as: UTF8.self)) {
                    dates[member.key] = dates[member.key].map { Self.merged($0, spelling) } ?? spelling
                }
            case .array(let values) where !values.isEmpty:
                if bytes[span.lowerBound] == UInt8(ascii: "[") { flowSequences += 1 } else { blockSequences += 1 }
            default: break
            }
            if member.role == .children, sequenceOffset == nil, let array = item.childrenArray,
                bytes[span.lowerBound] == UInt8(ascii: "-")
            {
                sequenceOffset = max(
                    0, column(of: array.whole.lowerBound, bytes) - column(of: item.keySpans[m].lowerBound, bytes))
            }
        }
        // Open items: whether they carry the keys (merged ones count).
        if item.item.status == .open {
            let keys = Set(item.members.map(\.key) + (merged?.sources.map(\.key) ?? []))
            let roles = Set(keys.compactMap { schema.role(of: $0) })
            if roles.contains(.checked) { openWithChecked += 1 } else { openWithoutChecked += 1 }
            if item.members.contains(where: { $0.role == .status })
                || merged?.sources.contains(where: { schema.role(of: $0.key) == .status }) == true
            {
                openWithStatus += 1
            } else {
                openWithoutStatus += 1
            }
        }
        for child in item.children { learn(child, bytes: bytes, schema: schema, merged: nil) }
    }

    private func column(of offset: Int, _ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        offset - YAMLListPatcher.lineStart(of: offset, in: bytes)
    }

    /// PyYAML leaves out a fraction of zero: values without one say nothing about the digits.
    private static func merged(_ a: DateSpelling, _ b: DateSpelling) -> DateSpelling {
        var a = a
        var b = b
        if a.fraction == .none { a.fraction = b.fraction }
        if b.fraction == .none { b.fraction = a.fraction }
        return a.merged(with: b)
    }

    mutating func finish(list: YAMLListScan, bytes: UnsafeBufferPointer<UInt8>) {
        if sequenceOffset == nil, list.afterColon != nil, !list.flow {
            sequenceOffset = max(0, list.dashColumn - list.keyColumn)
        }
        openOmitsChecked = openWithoutChecked > openWithChecked
        openOmitsStatus = openWithoutStatus > openWithStatus
    }

    /// Columns from a key at `column` to the dashes of a sequence under it.
    func sequenceIndent(under column: Int) -> Int { sequenceOffset ?? 0 }

    // MARK: Writing

    func key(_ key: String, flow: Bool, to out: inout [UInt8]) {
        scalar(key, flow: flow, plainWord: false, to: &out)
    }

    /// A value after its key's colon (with a space first when `space`): a scalar on the
    /// line, a non-empty collection in the file's style (block lines at `column` and under,
    /// or flow).
    func value(
        _ value: FieldValue, key: String, column: Int, flow: Bool, plainWord: Bool, layout: ItemLayout,
        to out: inout [UInt8],
        space: Bool = false, quote: UInt8? = nil
    ) {
        switch value {
        case .array(let values) where !values.isEmpty && !flow && blockSequences >= flowSequences:
            let dash = column + (sequenceOffset ?? 0)
            for element in values {
                out += [10] + Array(repeating: 32, count: dash) + Array("- ".utf8)
                if case .dictionary(let fields) = element, !fields.isEmpty {
                    mappingLines(fields, column: dash + 2, first: true, to: &out)
                } else {
                    self.value(
                        element, key: key, column: dash + 2, flow: false, plainWord: false, layout: layout, to: &out)
                }
            }
            return
        case .dictionary(let fields) where !fields.isEmpty && !flow:
            mappingLines(fields, column: column + 2, first: false, to: &out)
            return
        default: break
        }
        // (A null spelled as nothing takes no space after the colon either.)
        if space && !(value == .null && nullSpelling(key: key, flow: flow).isEmpty) { out.append(32) }
        if case .string(let text) = value {
            scalar(text, flow: flow, plainWord: plainWord, quote: quote, to: &out)
            return
        }
        inline(value, key: key, flow: flow, plainWord: plainWord, to: &out)
    }

    private func mappingLines(_ fields: [Field], column: Int, first: Bool, to out: inout [UInt8]) {
        for (i, field) in fields.enumerated() {
            if i > 0 || !first { out += [10] + Array(repeating: 32, count: column) }
            key(field.key, flow: false, to: &out)
            out += Array(":".utf8)
            value(
                field.value, key: field.key, column: column, flow: false, plainWord: false, layout: ItemLayout(),
                to: &out, space: true)
        }
    }

    /// Null as the file spells it under `key` (else under any key): nothing after the colon
    /// only in a block mapping (`{a:}` is no flow mapping libyaml reads).
    private func nullSpelling(key: String, flow: Bool) -> [UInt8] {
        let spelled = nulls[key] ?? null ?? Array("null".utf8)
        return flow && spelled.isEmpty ? Array("null".utf8) : spelled
    }

    /// A value on one line (collections in flow style).
    private func inline(_ value: FieldValue, key: String, flow: Bool, plainWord: Bool, to out: inout [UInt8]) {
        switch value {
        case .string(let s): scalar(s, flow: flow, plainWord: plainWord, to: &out)
        case .integer(let i): out += Array(String(i).utf8)
        case .bigInteger(let digits): out += Array(digits.utf8)
        case .double(let d): out += Array(YAMLValue.realText(d).utf8)
        case .bool(let b): out += Array((b ? "true" : "false").utf8)
        case .null: out += nullSpelling(key: key, flow: flow)
        case .date(let d): out += Array((dates[key]?.format(d) ?? ISO8601.format(d)).utf8)
        case .data(let d): out += Array(("!!binary " + d.base64EncodedString()).utf8)
        case .array(let values):
            out += Array("[".utf8)
            for (i, element) in values.enumerated() {
                if i > 0 { out += Array(", ".utf8) }
                inline(element, key: key, flow: true, plainWord: false, to: &out)
            }
            out += Array("]".utf8)
        case .dictionary(let fields):
            out += Array("{".utf8)
            for (i, field) in fields.enumerated() {
                if i > 0 { out += Array(", ".utf8) }
                scalar(field.key, flow: true, plainWord: false, to: &out)
                out += Array(": ".utf8)
                inline(field.value, key: field.key, flow: true, plainWord: false, to: &out)
            }
            out += Array("}".utf8)
        }
    }

    /// A string: plain where every reader reads it back as this text (a checked or status
    /// word such as `yes` or `done` stays plain where `plainWord`), else quoted as the file
    /// quotes (double quotes where the text needs escapes).
    func scalar(_ s: String, flow: Bool, plainWord: Bool, quote: UInt8? = nil, to out: inout [UInt8]) {
        let plainSafe = Self.plainAllowed(s, flow: flow)
        // (A checked or status word that is YAML 1.1's value key `=` is quoted as a new file
        // quotes it: PyYAML reads it plain as a type it cannot make.)
        if plainSafe && (plainWord ? YAMLValue.resolvePlain(s) == nil && s != "=" : !YAMLValue.needsQuotes(s)) {
            out += Array(s.utf8)
            return
        }
        let printable = !s.unicodeScalars.contains(where: Self.isEscaped)
        let singleQuotes = quote.map { $0 == UInt8(ascii: "'") } ?? (single > double)
        if singleQuotes && printable {
            out.append(UInt8(ascii: "'"))
            for b in s.utf8 {
                if b == UInt8(ascii: "'") { out.append(b) }
                out.append(b)
            }
            out.append(UInt8(ascii: "'"))
            return
        }
        out.append(UInt8(ascii: "\""))
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += Array("\\\"".utf8)
            case "\\": out += Array("\\\\".utf8)
            case "\n": out += Array("\\n".utf8)
            case "\t": out += Array("\\t".utf8)
            case "\r": out += Array("\\r".utf8)
            case "\0": out += Array("\\0".utf8)
            case "\u{2028}": out += Array("\\L".utf8)
            case "\u{2029}": out += Array("\\P".utf8)
            case "\u{85}": out += Array("\\N".utf8)
            default:
                if Self.isEscaped(scalar) {
                    out += Array(String(format: "\\u%04X", scalar.value).utf8)
                } else {
                    out += Array(String(scalar).utf8)
                }
            }
        }
        out.append(UInt8(ascii: "\""))
    }

    /// What this writer puts only in double quotes, escaped: control characters (the tab
    /// and line breaks among them), C1 controls (U+0085 among them), U+2028 and U+2029, the
    /// byte order mark, and U+FFFE and U+FFFF, which are outside YAML's printable characters
    /// (libyaml refuses a file that has them as they are).
    static func isEscaped(_ scalar: Unicode.Scalar) -> Bool {
        let v = scalar.value
        return v < 32 || v == 127 || (0x80...0x9F).contains(v) || v == 0x2028 || v == 0x2029 || v == 0xFEFF
            || v == 0xFFFE || v == 0xFFFF
    }

    /// Whether text can stand as a plain scalar (and reads back as the same text, ignoring
    /// types): no indicator first, no `: ` or ` #`, no line breaks or control characters,
    /// no space at either end, and in flow style none of `,[]{}`.
    static func plainAllowed(_ s: String, flow: Bool) -> Bool {
        let b = Array(s.utf8)
        guard let first = b.first, let last = b.last else { return false }
        if first == 32 || last == 32 || last == UInt8(ascii: ":") { return false }
        if "-?:,[]{}#&*!|>'\"%@`".utf8.contains(first) {
            // `-`, `?` and `:` start a plain scalar when a non-space follows (outside flow for `:`).
            guard first == UInt8(ascii: "-") || first == UInt8(ascii: "?") || (first == UInt8(ascii: ":") && !flow),
                b.count > 1,
                b[1] != 32
            else { return false }
            if b.count >= 3 && b[0...2].elementsEqual("---".utf8) { return false }
        }
        if b.count >= 3 && b[0...2].elementsEqual("...".utf8) { return false }
        for (i, c) in b.enumerated() {
            if c < 32 || c == 127 { return false }
            if c == UInt8(ascii: ":")
                && (i + 1 == b.count || b[i + 1] == 32 || (flow && ",[]{}".utf8.contains(b[i + 1])))
            {
                return false
            }
            if c == UInt8(ascii: "#") && i > 0 && b[i - 1] == 32 { return false }
            if flow && ",[]{}".utf8.contains(c) { return false }
        }
        // Unicode line breaks, the byte order mark, C1 controls, U+FFFE and U+FFFF (the
        // controls below 0x20 are no plain text either: the bytes said so above).
        return !s.unicodeScalars.contains(where: isEscaped)
    }
}
#endif
