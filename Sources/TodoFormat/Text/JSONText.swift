import Foundation

/// JSON's value grammar written out (RFC 8259): the JSON format writes lists with it, and
/// other formats use it for values inside their own text (a checklist field's quoted
/// string, a table's array column, a list kept as JSON data in a property list).
enum JSONText {
    static func writeValue(_ value: FieldValue, to sink: inout ByteSink) {
        switch value {
        case .string(let s): writeString(Substring(s), to: &sink)
        case .integer(let i):
            sink.write(upTo: 20) { start in
                var pen = BytePen(at: start)
                pen.decimal(i)
                return start.distance(to: pen.at)
            }
        case .bigInteger(let digits): sink.write(digits)
        case .double(let d):
            // JSON has no NaN or infinity: they are written as the strings Swift prints.
            if d.isFinite { sink.write(NumberSyntax.format(d)) } else { writeString(Substring(String(d)), to: &sink) }
        case .bool(let b): sink.write(b ? "true" : "false")
        case .null: sink.write("null")
        case .date(let d):
            // Digits, `-`, `:`, `.`, `T` and `Z`: nothing JSON escapes.
            sink.write(byte: UInt8(ascii: "\""))
            ISO8601.withText(d) { sink.write($0) }
            sink.write(byte: UInt8(ascii: "\""))
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
        if s.utf8.withContiguousStorageIfAvailable({ writeString(bytes: $0, to: &sink) }) == nil {
            sink.write(byte: UInt8(ascii: "\""))
            writeEscaped(s.utf8, to: &sink)
            sink.write(byte: UInt8(ascii: "\""))
        }
    }

    /// A string given as its UTF-8 bytes.
    static func writeString(bytes: UnsafeBufferPointer<UInt8>, to sink: inout ByteSink) {
        sink.write(byte: UInt8(ascii: "\""))
        // Most names need no escaping: one scan, one copy.
        if ByteScan.containsJSONEscape(bytes) {
            writeEscaped(bytes, to: &sink)
        } else {
            sink.write(bytes)
        }
        sink.write(byte: UInt8(ascii: "\""))
    }

    private static func writeEscaped<C: Collection<UInt8>>(_ bytes: C, to sink: inout ByteSink) {
        for b in bytes {
            switch b {
            case UInt8(ascii: "\""): sink.write(static: "\\\"")
            case UInt8(ascii: "\\"): sink.write(static: "\\\\")
            case 10: sink.write(static: "\\n")
            case 13: sink.write(static: "\\r")
            case 9: sink.write(static: "\\t")
            case 0..<32:
                sink.write(static: "\\u00")
                sink.write(byte: hex[Int(b >> 4)])
                sink.write(byte: hex[Int(b & 15)])
            default: sink.write(byte: b)
            }
        }
    }
}
