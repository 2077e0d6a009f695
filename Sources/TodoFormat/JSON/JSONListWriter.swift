import Foundation

/// Writes the plain JSON shape, one item object a line so that diffs stay readable.
///
/// `[Todo]` with `struct Todo: Codable { var name: String; var checked: Bool }` decodes it.
struct JSONListWriter: ListWriter {
    private var open = OpenItems()
    private var started = false
    private let schema: ItemSchema
    /// Plain JSON has no place for metadata: what `begin` received, for a warning.
    private(set) var leftOutMetadata: [Field] = []

    /// Whether the schema is todofmt's own: items are then written without building entries.
    private let isStandard: Bool

    init(schema: ItemSchema = .standard) {
        self.schema = schema
        isStandard = schema == .standard
    }


    mutating func begin(metadata: [Field], to sink: inout ByteSink) {
        leftOutMetadata = metadata
    }

    mutating func item(_ item: TodoItem, depth: Int, to sink: inout ByteSink) {
        let step = open.advance(to: depth)
        if !started {
            sink.write("[\n")
            started = true
        } else if step.opensChildren {
            sink.write(", ")
            Self.writeString(Substring(schema.keys[.children] ?? "children"), to: &sink)
            sink.write(": [\n")
        } else {
            sink.write("}")
            closeLevels(from: depth + step.closes, downTo: depth + 1, to: &sink)
            sink.write(",\n")
        }
        sink.write(MarkdownWriter.indent(depth + 1))
        sink.write("{")
        var first = true
        if item.fields.isEmpty && isStandard {
            // The common case, written without building the entries.
            sink.write("\"name\": ")
            Self.writeString(item.nameStorage, to: &sink)
            sink.write(item.status == .done ? ", \"checked\": true" : ", \"checked\": false")
            if case .custom(let scalar) = item.status {
                sink.write(", \"status\": ")
                Self.writeString(Substring(String(scalar)), to: &sink)
            }
            if let section = item.section {
                sink.write(", \"section\": ")
                Self.writeString(Substring(section), to: &sink)
            }
            return
        }
        for entry in schema.entries(of: item) {
            guard case .value(let value) = entry.value else { continue }  // children follow as items
            if !first { sink.write(", ") }
            first = false
            Self.writeString(Substring(entry.key), to: &sink)
            sink.write(": ")
            Self.writeValue(value, to: &sink)
        }
    }

    mutating func end(to sink: inout ByteSink) {
        if !started {
            sink.write("[]\n")
            return
        }
        sink.write("}")
        closeLevels(from: open.lastDepth, downTo: 1, to: &sink)
        sink.write("\n]\n")
    }

    /// Ends the children arrays of depths `from` down to `downTo`: `]}` under their parents.
    private func closeLevels(from: Int, downTo: Int, to sink: inout ByteSink) {
        var level = from
        while level >= downTo {
            sink.write("\n")
            sink.write(MarkdownWriter.indent(level))
            sink.write("]}")
            level -= 1
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
