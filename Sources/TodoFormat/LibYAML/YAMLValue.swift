#if YAML
import Foundation

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
        if isInteger(b), let value = Int(text) { return .integer(value) }
        if b.count > 2 && b[0] == UInt8(ascii: "0") && (b[1] == UInt8(ascii: "x") || b[1] == UInt8(ascii: "o")) {
            if let value = Int(text.dropFirst(2), radix: b[1] == UInt8(ascii: "x") ? 16 : 8) { return .integer(value) }
        }
        if isFloat(b), let value = Double(text) { return .double(value) }
        if let date = ISO8601.parse(b) { return .date(date) }
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
        let value: FieldValue
        switch first.kind {
        case .scalar(let scalar):
            value = resolve(scalar)
        case .alias(let anchor):
            guard let target = anchors[anchor] else { throw parser.error("yaml: unknown alias '\(anchor)'", at: first) }
            return target
        case .sequenceStart:
            var values: [FieldValue] = []
            while true {
                let event = try parser.next()
                if case .sequenceEnd = event.kind { break }
                values.append(try read(from: parser, startingWith: event, anchors: &anchors))
            }
            value = .array(values)
        case .mappingStart:
            var fields: [Field] = []
            while true {
                let keyEvent = try parser.next()
                if case .mappingEnd = keyEvent.kind { break }
                let key = try read(from: parser, startingWith: keyEvent, anchors: &anchors)
                let valueEvent = try parser.next()
                fields.append(Field(keyText(key), try read(from: parser, startingWith: valueEvent, anchors: &anchors)))
            }
            value = .dictionary(fields)
        default:
            throw parser.error("yaml: unexpected event", at: first)
        }
        if let anchor = first.anchor { anchors[anchor] = value }
        return value
    }

    /// A mapping key's text. Plain keys made of letters (nearly all) are taken as they are;
    /// others go through `resolve`, so `1:` and `true:` read as they print.
    static func key(_ scalar: YAMLEvent.Scalar) -> String {
        let bytes = scalar.text.utf8
        let wordLike = bytes.allSatisfy { ($0 | 0x20) >= 97 && ($0 | 0x20) <= 122 || $0 == UInt8(ascii: "_") }
        // The only words that resolve to something else: null, true and false in three casings.
        if scalar.style != .plain || (wordLike && !(bytes.count == 4 || bytes.count == 5)) {
            return scalar.text
        }
        return keyText(resolve(scalar))
    }

    /// A mapping key as text: todofmt's keys are strings.
    static func keyText(_ key: FieldValue) -> String { key.description }

    /// Emits a value so that it reads back with the same type.
    static func emit(_ value: FieldValue, to emitter: YAMLEmitter) throws(ConversionError) {
        switch value {
        case .string(let s): try emitString(s, to: emitter)
        case .integer(let i): try emitter.scalar(String(i))
        case .bigInteger(let digits): try emitter.scalar(digits)
        case .double(let d):
            if d.isNaN {
                try emitter.scalar(".nan")
            } else if d.isInfinite {
                try emitter.scalar(d < 0 ? "-.inf" : ".inf")
            } else {
                try emitter.scalar(String(d))
            }
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

    static func needsQuotes(_ s: String) -> Bool {
        if s.isEmpty { return true }
        if resolvePlain(s) != nil { return true }
        switch s.lowercased() {
        case "y", "n", "yes", "no", "on", "off": return true
        default: break
        }
        // Numbers in YAML 1.1 forms (`1_000`, `0b1`, `1:20`) are strings to us but not to everyone.
        if let first = s.utf8.first, (first >= 48 && first <= 57) || first == UInt8(ascii: "."),
            s.utf8.allSatisfy({ ($0 >= 48 && $0 <= 57) || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: ":") || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "b") || $0 == UInt8(ascii: "x") })
        {
            return true
        }
        return s.utf8.contains { $0 == 10 || $0 == 13 || $0 == 9 }
    }
}
#endif
