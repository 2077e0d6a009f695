import Foundation

/// JSON's value grammar written out (RFC 8259): the JSON format writes lists with it, and
/// other formats use it for values inside their own text (a checklist field's quoted
/// string, a table's array column, a list kept as JSON data in a property list).
enum JSONText {
    static func writeValue(_ value: FieldValue, to sink: inout ByteSink) {
        switch value {
        case .string(let s): writeString(Substring(s), to: &sink)
        case .integer(let i): sink.write(String(i))
        case .bigInteger(let digits): sink.write(digits)
        case .double(let d):
            // JSON has no NaN or infinity: they are written as the strings Swift prints.
            if d.isFinite { sink.write(NumberSyntax.format(d)) } else { writeString(Substring(String(d)), to: &sink) }
        case .bool(let b): sink.write(b ? "true" : "false")
        case .null: sink.write("null")
        case .date(let d): writeString(Substring(ISO8601.format(d)), to: &sink)
        case .data(let d): writeString(Substring(d.base64EncodedString()), to: &sink)
        case .array(let values):
            sink.write("[")
            for (i, v) in values.enumerated() {
                if i > 0 { sink.write(", ") }
                writeValue(v, to: &sink)
            }
            sink.write("]")
        case .dictionary(let fields):
            sink.write("{")
            for (i, f) in fields.enumerated() {
                if i > 0 { sink.write(", ") }
                writeString(Substring(f.key), to: &sink)
                sink.write(": ")
                writeValue(f.value, to: &sink)
            }
            sink.write("}")
        }
    }

    /// One value as JSON text.
    static func encode(_ value: FieldValue) -> String {
        var sink = ByteSink()
        writeValue(value, to: &sink)
        return String(decoding: sink.buffer, as: UTF8.self)
    }

    private static let hex: [UInt8] = Array("0123456789abcdef".utf8)

    static func writeString(_ s: Substring, to sink: inout ByteSink) {
        sink.write(byte: UInt8(ascii: "\""))
        let done = s.utf8.withContiguousStorageIfAvailable { bytes -> Bool in
            // Most names need no escaping: one scan, one copy.
            for b in bytes where b < 32 || b == UInt8(ascii: "\"") || b == UInt8(ascii: "\\") {
                return false
            }
            sink.write(bytes)
            return true
        }
        if done != true {
            for b in s.utf8 {
                switch b {
                case UInt8(ascii: "\""): sink.write("\\\"")
                case UInt8(ascii: "\\"): sink.write("\\\\")
                case 10: sink.write("\\n")
                case 13: sink.write("\\r")
                case 9: sink.write("\\t")
                case 0..<32:
                    sink.write("\\u00")
                    sink.write(byte: hex[Int(b >> 4)])
                    sink.write(byte: hex[Int(b & 15)])
                default: sink.write(byte: b)
                }
            }
        }
        sink.write(byte: UInt8(ascii: "\""))
    }
}
