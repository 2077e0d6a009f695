import Foundation

/// Writes the plain JSON shape, one item object a line so that diffs stay readable.
///
/// `[Todo]` with `struct Todo: Codable { var name: String; var checked: Bool }` decodes it.
enum JSONListWriter {
    static func write(_ list: TodoList, to sink: inout ByteSink) {
        if list.items.isEmpty {
            sink.write("[]\n")
            return
        }
        sink.write("[\n")
        writeItems(list.items, depth: 1, to: &sink)
        sink.write("]\n")
    }

    private static func writeItems(_ items: [TodoItem], depth: Int, to sink: inout ByteSink) {
        for (index, item) in items.enumerated() {
            sink.write(MarkdownWriter.indent(depth))
            sink.write("{\"name\": ")
            writeString(item.nameStorage, to: &sink)
            sink.write(item.status == .done ? ", \"checked\": true" : ", \"checked\": false")
            if case .custom(let scalar) = item.status {
                sink.write(", \"status\": ")
                writeString(Substring(String(scalar)), to: &sink)
            }
            if let section = item.section {
                sink.write(", \"section\": ")
                writeString(Substring(section), to: &sink)
            }
            var colliding: [Field] = []
            for field in item.fields {
                if ItemKey.reserved.contains(field.key) {
                    colliding.append(field)
                    continue
                }
                sink.write(", ")
                writeString(Substring(field.key), to: &sink)
                sink.write(": ")
                writeValue(field.value, to: &sink)
            }
            if !colliding.isEmpty {
                sink.write(", \"fields\": ")
                writeValue(.dictionary(colliding), to: &sink)
            }
            if !item.children.isEmpty {
                sink.write(", \"children\": [\n")
                writeItems(item.children, depth: depth + 1, to: &sink)
                sink.write(MarkdownWriter.indent(depth))
                sink.write("]")
            }
            sink.write(index == items.count - 1 ? "}\n" : "},\n")
        }
    }

    static func writeValue(_ value: FieldValue, to sink: inout ByteSink) {
        switch value {
        case .string(let s): writeString(Substring(s), to: &sink)
        case .integer(let i): sink.write(String(i))
        case .double(let d):
            // JSON has no NaN or infinity: they are written as the strings Swift prints.
            if d.isFinite { sink.write(String(d)) } else { writeString(Substring(String(d)), to: &sink) }
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
        var clean = true
        for b in s.utf8 where b < 32 || b == UInt8(ascii: "\"") || b == UInt8(ascii: "\\") {
            clean = false
            break
        }
        if clean {
            sink.write(s)
        } else {
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
