#if YAML
import Foundation

/// The anchored nodes of a YAML stream (`&name`) for the aliases that repeat them (`*name`),
/// and how many nodes the aliases have stood for: an alias bomb (billion laughs) stops
/// at `limit` nodes with an error rather than filling memory (FORMAT.md, section 14).
final class YAMLAnchors {
    private(set) var values: [String: FieldValue] = [:]
    private var sizes: [String: Int] = [:]
    /// Nodes the aliases read so far stand for.
    private(set) var expanded = 0
    let limit: Int

    /// The limit for a stream of `byteCount` bytes: `Limits.aliasNodes`, or one node a byte
    /// for a larger file.
    init(limitFor byteCount: Int) {
        limit = max(Limits.aliasNodes, byteCount)
    }

    var isEmpty: Bool { values.isEmpty }

    func define(_ name: String, _ value: FieldValue, size: Int) {
        values[name] = value
        sizes[name] = size
    }

    /// The value an alias stands for, with its size; an error for an unknown anchor or when
    /// aliases have expanded past the limit.
    func expand(_ name: String, parser: YAMLParser, at event: YAMLEvent) throws(ParseError) -> (
        value: FieldValue, size: Int
    ) {
        guard let value = values[name], let size = sizes[name] else {
            throw parser.error("yaml: unknown alias '\(name)'", at: event)
        }
        expanded += size
        guard expanded <= limit else {
            throw parser.error(
                "yaml: aliases expand to more than \(limit) nodes (\(Limits.aliasNodesRule)); is this an alias bomb?",
                at: event)
        }
        return (value, size)
    }
}

// Typed values in YAML: how a scalar's text and tag become a FieldValue, and back.
// Plain scalars resolve by the YAML 1.2 core schema plus date-times (YAML 1.1's
// timestamp, which PyYAML and Ruby also read); see FORMAT.md, section 7.3.
enum YAMLValue {
    static let binaryTag = "tag:yaml.org,2002:binary"

    /// The value of a scalar.
    static func resolve(_ scalar: YAMLEvent.Scalar) -> FieldValue {
        let text = scalar.text
        if let tag = scalar.tag {
            switch tag {
            case "tag:yaml.org,2002:str": return .string(text)
            case binaryTag:
                let base64 = text.filter { !$0.isWhitespace }
                return Data(base64Encoded: base64).map { .data($0) } ?? .string(text)
            case "tag:yaml.org,2002:int", "tag:yaml.org,2002:float", "tag:yaml.org,2002:bool",
                "tag:yaml.org,2002:null", "tag:yaml.org,2002:timestamp":
                return resolvePlain(text) ?? .string(text)
            default: return .string(text)
            }
        }
        if scalar.style == .plain, let value = resolvePlain(text) { return value }
        return .string(text)
    }

    /// The typed value of plain scalar text, or nil when it is a string.
    static func resolvePlain(_ text: String) -> FieldValue? {
        guard let first = text.utf8.first else { return .null }
        // Most plain scalars are names: letters that cannot start a typed value.
        switch first {
        case UInt8(ascii: "n"), UInt8(ascii: "N"), UInt8(ascii: "~"), UInt8(ascii: "t"), UInt8(ascii: "T"),
            UInt8(ascii: "f"), UInt8(ascii: "F"), UInt8(ascii: "."), UInt8(ascii: "+"), UInt8(ascii: "-"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            break
        default:
            return nil
        }
        // A word (null, true, false) has at most five letters; no number or date starts with one.
        if first >= UInt8(ascii: "A") && text.utf8.count > 5 { return nil }
        switch text {
        case "~", "null", "Null", "NULL": return .null
        case "true", "True", "TRUE": return .bool(true)
        case "false", "False", "FALSE": return .bool(false)
        case ".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF": return .double(.infinity)
        case "-.inf", "-.Inf", "-.INF": return .double(-.infinity)
        case ".nan", ".NaN", ".NAN": return .double(.nan)
        default: break
        }
        let b = Array(text.utf8)
        if isInteger(b) {
            if let value = Int(text) { return .integer(value) }
            // Beyond Int: a big integer, digits as written without a plus sign.
            return .bigInteger(b[0] == UInt8(ascii: "+") ? String(text.dropFirst()) : text)
        }
        if b.count > 2 && b[0] == UInt8(ascii: "0") && (b[1] == UInt8(ascii: "x") || b[1] == UInt8(ascii: "o")) {
            if let value = Int(text.dropFirst(2), radix: b[1] == UInt8(ascii: "x") ? 16 : 8) { return .integer(value) }
        }
        if isFloat(b), let value = Double(text) { return .double(value) }
        // YAML 1.1's timestamp: without a zone it is UTC (PyYAML writes `2024-05-01 09:30:00.123456`).
        if let date = ISO8601.parse(b, assumeUTC: true) { return .date(date) }
        return nil
    }

    private static func isInteger(_ b: [UInt8]) -> Bool {
        var i = 0
        if i < b.count && (b[i] == UInt8(ascii: "-") || b[i] == UInt8(ascii: "+")) { i += 1 }
        guard i < b.count else { return false }
        while i < b.count {
            guard b[i] >= 48 && b[i] <= 57 else { return false }
            i += 1
        }
        return true
    }

    private static func isFloat(_ b: [UInt8]) -> Bool {
        var i = 0
        if i < b.count && (b[i] == UInt8(ascii: "-") || b[i] == UInt8(ascii: "+")) { i += 1 }
        var digits = 0
        while i < b.count && b[i] >= 48 && b[i] <= 57 {
            i += 1
            digits += 1
        }
        if i < b.count && b[i] == UInt8(ascii: ".") {
            i += 1
            while i < b.count && b[i] >= 48 && b[i] <= 57 {
                i += 1
                digits += 1
            }
        }
        guard digits > 0 else { return false }
        if i < b.count && (b[i] == UInt8(ascii: "e") || b[i] == UInt8(ascii: "E")) {
            i += 1
            if i < b.count && (b[i] == UInt8(ascii: "-") || b[i] == UInt8(ascii: "+")) { i += 1 }
            let start = i
            while i < b.count && b[i] >= 48 && b[i] <= 57 { i += 1 }
            guard i > start else { return false }
        }
        return i == b.count
    }

    /// Reads the node that starts with `first` as a value; aliases to earlier anchored values resolve.
    static func read(
        from parser: YAMLParser, startingWith first: YAMLEvent, anchors: inout [String: FieldValue]
    ) throws(ParseError) -> FieldValue {
        let table = YAMLAnchors(limitFor: parser.byteCount)
        for (name, value) in anchors { table.define(name, value, size: 1) }
        let value = try read(from: parser, startingWith: first, anchors: table)
        anchors = table.values
        return value
    }

    /// Reads the node that starts with `first` as a value: aliases resolve to their anchored
    /// values (counted against the table's limit), merge keys (`<<`) merge.
    static func read(from parser: YAMLParser, startingWith first: YAMLEvent, anchors: YAMLAnchors) throws(ParseError)
        -> FieldValue
    {
        try readSized(from: parser, startingWith: first, anchors: anchors, depth: 0).value
    }

    /// A value and how many nodes it stands for, aliases expanded.
    static func readSized(
        from parser: YAMLParser, startingWith first: YAMLEvent, anchors: YAMLAnchors, depth: Int
    ) throws(ParseError) -> (value: FieldValue, size: Int) {
        let value: FieldValue
        var size = 1
        switch first.kind {
        case .scalar(let scalar):
            value = resolve(scalar)
        case .alias(let anchor):
            return try anchors.expand(anchor, parser: parser, at: first)
        case .sequenceStart:
            guard depth < Limits.valueLevels else {
                throw parser.error("values nested too deep (\(Limits.valueLevels) levels at most)", at: first)
            }
            var values: [FieldValue] = []
            while true {
                let event = try parser.next()
                if case .sequenceEnd = event.kind { break }
                let (element, n) = try readSized(from: parser, startingWith: event, anchors: anchors, depth: depth + 1)
                values.append(element)
                size += n
            }
            value = .array(values)
        case .mappingStart:
            guard depth < Limits.valueLevels else {
                throw parser.error("values nested too deep (\(Limits.valueLevels) levels at most)", at: first)
            }
            var fields: [Field] = []
            var merged: [Field]? = nil
            while true {
                let keyEvent = try parser.next()
                if case .mappingEnd = keyEvent.kind { break }
                if isMergeKey(keyEvent) {
                    let valueEvent = try parser.next()
                    let (source, n) = try readSized(
                        from: parser, startingWith: valueEvent, anchors: anchors, depth: depth + 1)
                    merged = (merged ?? []) + (try mergedFields(source, parser: parser, at: valueEvent))
                    size += n
                    continue
                }
                let (key, k) = try readSized(from: parser, startingWith: keyEvent, anchors: anchors, depth: depth + 1)
                let valueEvent = try parser.next()
                let (element, n) = try readSized(
                    from: parser, startingWith: valueEvent, anchors: anchors, depth: depth + 1)
                let text = keyText(key)
                // A mapping or sequence as a key becomes its text, and a key inside it is
                // quoted again at each level: nested keys would double in length a level.
                if text.utf8.count > Limits.keyBytes {
                    throw parser.error("a mapping key longer than \(Limits.keyBytes) bytes as text", at: keyEvent)
                }
                fields.append(Field(text, element))
                size += k + n
            }
            value = .dictionary(merged.map { merge($0, fields.lastOfEachKey()) } ?? fields.lastOfEachKey())
        default:
            throw parser.error("yaml: unexpected event", at: first)
        }
        if let anchor = first.anchor { anchors.define(anchor, value, size: size) }
        return (value, size)
    }

    /// Whether a mapping key is the merge key: a plain `<<`, or one tagged `!!merge`.
    static func isMergeKey(_ event: YAMLEvent) -> Bool {
        guard case .scalar(let scalar) = event.kind else { return false }
        if let tag = scalar.tag { return tag == "tag:yaml.org,2002:merge" }
        return scalar.style == .plain && scalar.text == "<<"
    }

    /// The fields a merge key's value brings, in the order PyYAML gives them: a mapping's
    /// own; for a list of mappings, the last one's first, so that the first wins.
    static func mergedFields(_ source: FieldValue, parser: YAMLParser, at event: YAMLEvent) throws(ParseError)
        -> [Field]
    {
        switch source {
        case .dictionary(let fields): return fields
        case .array(let values):
            var fields: [Field] = []
            for value in values.reversed() {
                guard case .dictionary(let more) = value else {
                    throw parser.error("yaml: a merge key (<<) takes a mapping or a list of mappings", at: event)
                }
                fields += more
            }
            return fields
        default:
            throw parser.error("yaml: a merge key (<<) takes a mapping or a list of mappings", at: event)
        }
    }

    /// The fields of a mapping with merge keys, as YAML 1.1 (PyYAML, Ruby) has them: the
    /// merged keys first, then the mapping's own; a later key's value replaces an earlier
    /// one's where it stands, so the mapping's own keys win over merged ones.
    static func merge(_ merged: [Field], _ own: [Field]) -> [Field] {
        var result: [Field] = []
        var index: [String: Int] = [:]
        for field in merged + own {
            if let i = index[field.key] {
                result[i].value = field.value
            } else {
                index[field.key] = result.count
                result.append(field)
            }
        }
        return result
    }

    /// A mapping key's text. Plain keys made of letters (nearly all) are taken as they are;
    /// others go through `resolve`, so `1:` and `true:` read as they print.
    static func key(_ scalar: YAMLEvent.Scalar) -> String {
        if scalar.style != .plain { return scalar.text }
        // The only words that resolve to something else: null, true and false in three casings
        // (resolving `name` itself was a tenth of reading an item).
        var word: UInt64 = 0
        var count = 0
        for b in scalar.text.utf8 {
            guard ((b | 0x20) >= 97 && (b | 0x20) <= 122) || b == UInt8(ascii: "_") else {
                return keyText(resolve(scalar))
            }
            if count < 8 { word |= UInt64(b | 0x20) << (8 * UInt64(count)) }
            count += 1
        }
        // `null`, `true`, `false` as little-endian words of their letters.
        let reserved = count <= 5 && (word == 0x6C6C_756E || word == 0x6575_7274 || word == 0x65_736C_6166)
        return reserved ? keyText(resolve(scalar)) : scalar.text
    }

    /// A mapping key as text: todofmt's keys are strings.
    static func keyText(_ key: FieldValue) -> String { key.description }

    /// Emits a value so that it reads back with the same type.
    static func emit(_ value: FieldValue, to emitter: YAMLEmitter) throws(ConversionError) {
        switch value {
        case .string(let s): try emitString(s, to: emitter)
        case .integer(let i): try emitter.scalar(String(i))
        case .bigInteger(let digits): try emitter.scalar(digits)
        case .double(let d): try emitter.scalar(realText(d))
        case .bool(let b): try emitter.scalar(b ? "true" : "false")
        case .null: try emitter.scalar("null")
        case .date(let d): try emitter.scalar(ISO8601.format(d))
        case .data(let d): try emitter.scalar(d.base64EncodedString(), tag: binaryTag)
        case .array(let values):
            try emitter.sequenceStart(flow: values.isEmpty)
            for v in values { try emit(v, to: emitter) }
            try emitter.sequenceEnd()
        case .dictionary(let fields):
            try emitter.mappingStart(flow: fields.isEmpty)
            for field in fields {
                try emitString(field.key, to: emitter)
                try emit(field.value, to: emitter)
            }
            try emitter.mappingEnd()
        }
    }

    /// A string is quoted when its plain form would read as another type, also by
    /// YAML 1.1 readers (`yes`, `on`…); libyaml quotes on its own what plain style cannot hold.
    static func emitString(_ s: String, to emitter: YAMLEmitter) throws(ConversionError) {
        if needsQuotes(s) {
            try emitter.scalar(s, style: .doubleQuoted)
        } else {
            try emitter.scalar(s)
        }
    }

    /// Whether a string's plain form would be read as something else by a YAML 1.2 reader
    /// (libyaml as todofmt reads it) or a YAML 1.1 one (PyYAML, Ruby's Psych): null, a
    /// boolean (`yes`, `on`, `y`…), a number in any of their forms (`0x1F`, `0o17`, `+0b1`,
    /// `1_000`, `685.230_15e+03`, `1:20`, `.inf`), a date (`2024-05-01`, with or without a
    /// time), the merge key `<<` or the value key `=`.
    static func needsQuotes(_ s: String) -> Bool {
        var text = s
        return text.withUTF8 { needsQuotes($0) }
    }

    /// `needsQuotes(_:)` of the text whose UTF-8 this is.
    static func needsQuotes(_ b: UnsafeBufferPointer<UInt8>) -> Bool {
        guard !b.isEmpty else { return true }
        for c in b where c == 10 || c == 13 || c == 9 { return true }
        return readsAsAnotherType(b)
    }

    /// `needsQuotes(_:)` of a text known to hold no tab or line break, and not empty: whether
    /// it reads as null, a boolean, a number, a date, `=` or `<<`.
    static func readsAsAnotherType(_ b: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let first = b.first else { return true }
        // Only these bytes start null, a boolean, a number, a date, `=`, `<<` or `~`
        // (most names start otherwise and need no more looking).
        switch first {
        case UInt8(ascii: "n"), UInt8(ascii: "N"), UInt8(ascii: "t"), UInt8(ascii: "T"), UInt8(ascii: "f"),
            UInt8(ascii: "F"), UInt8(ascii: "y"), UInt8(ascii: "Y"), UInt8(ascii: "o"), UInt8(ascii: "O"),
            UInt8(ascii: "~"), UInt8(ascii: "."), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "="),
            UInt8(ascii: "<"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            break
        default:
            return false
        }
        // A word YAML reads as null or a boolean has at most five letters, and no number or
        // date starts with a letter: a longer text that does reads as text (`resolvePlain`
        // says so too), with no string made of it.
        if first >= UInt8(ascii: "A") && b.count > 5 { return false }
        if resolvePlain(String(decoding: b, as: UTF8.self)) != nil { return true }
        return isYAML11Word(b) || looksNumeric(b)
    }

    /// Whether text is, ignoring ASCII case, a word YAML 1.1 readers take for null or a
    /// boolean, or `=` or `<<` (no other letters lower-case to these ASCII ones).
    private static func isYAML11Word(_ b: UnsafeBufferPointer<UInt8>) -> Bool {
        guard b.count <= 4 else { return false }
        var word: UInt32 = 0
        for c in b { word = word << 8 | UInt32((c >= 65 && c <= 90) ? c | 0x20 : c) }
        switch word {
        case 0x79, 0x6E, 0x79_6573, 0x6E6F, 0x6F6E, 0x6F_6666, 0x3D, 0x3C3C, 0x6E75_6C6C, 0x7E: return true
        default: return false
        }
    }

    /// Text made of what YAML 1.1 numbers, sexagesimals and dates are made of, with a digit:
    /// an optional sign, then a digit or a dot, then digits, letters of hexadecimal, `x`,
    /// `o`, `_`, `:`, `.`, `+`, `-` (a date's `-`, an exponent's sign), or a date followed by
    /// a time. Some such texts are strings to every reader; quoting them costs nothing.
    private static func looksNumeric(_ b: UnsafeBufferPointer<UInt8>) -> Bool {
        var i = 0
        if i < b.count && (b[i] == UInt8(ascii: "+") || b[i] == UInt8(ascii: "-")) { i += 1 }
        guard i < b.count, (b[i] >= 48 && b[i] <= 57) || b[i] == UInt8(ascii: ".") else { return false }
        // A date, with whatever time follows (YAML 1.1 allows one-digit months, days and hours).
        if b.count >= i + 8, b[i..<(i + 4)].allSatisfy({ $0 >= 48 && $0 <= 57 }), b[i + 4] == UInt8(ascii: "-") {
            return true
        }
        var digit = false
        for c in b[i...] {
            switch c {
            case 48...57: digit = true
            case UInt8(ascii: "a")...UInt8(ascii: "f"), UInt8(ascii: "A")...UInt8(ascii: "F"), UInt8(ascii: "x"),
                UInt8(ascii: "X"),
                UInt8(ascii: "o"), UInt8(ascii: "O"), UInt8(ascii: "_"), UInt8(ascii: ":"), UInt8(ascii: "."),
                UInt8(ascii: "+"),
                UInt8(ascii: "-"):
                continue
            default: return false
            }
        }
        return digit
    }

    /// A real as YAML 1.1 and 1.2 readers both read it: with a dot before an exponent
    /// (`1.0e-05`; PyYAML reads `1e-05` as text).
    static func realText(_ d: Double) -> String {
        if d.isNaN { return ".nan" }
        if d.isInfinite { return d < 0 ? "-.inf" : ".inf" }
        let text = String(d)
        if let e = text.firstIndex(where: { $0 == "e" || $0 == "E" }), !text[..<e].contains(".") {
            return text[..<e] + ".0" + text[e...]
        }
        return text
    }
}
#endif
