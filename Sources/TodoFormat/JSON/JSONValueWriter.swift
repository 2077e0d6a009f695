/// Writes a JSON file whose root is an object holding the list (and other keys of the
/// app's): the object one key a line, the list one item object a line.
enum JSONValueWriter {
    static func write(_ root: OutputValue, schema: ItemSchema, to sink: inout ByteSink) {
        write(root, depth: 0, schema: schema, to: &sink)
        sink.write("\n")
    }

    private static func write(_ node: OutputValue, depth: Int, schema: ItemSchema, to sink: inout ByteSink) {
        switch node {
        case .value(let value):
            JSONListWriter.writeValue(value, to: &sink)
        case .items(let items):
            if items.isEmpty {
                sink.write("[]")
                return
            }
            sink.write("[\n")
            for (i, item) in items.enumerated() {
                sink.write(MarkdownWriter.indent(depth + 1))
                writeItem(item, depth: depth + 1, schema: schema, to: &sink)
                sink.write(i == items.count - 1 ? "\n" : ",\n")
            }
            sink.write(MarkdownWriter.indent(depth) + "]")
        case .dictionary(let entries):
            if entries.isEmpty {
                sink.write("{}")
                return
            }
            sink.write("{\n")
            for (i, entry) in entries.enumerated() {
                sink.write(MarkdownWriter.indent(depth + 1))
                JSONListWriter.writeString(Substring(entry.key), to: &sink)
                sink.write(": ")
                write(entry.value, depth: depth + 1, schema: schema, to: &sink)
                sink.write(i == entries.count - 1 ? "\n" : ",\n")
            }
            sink.write(MarkdownWriter.indent(depth) + "}")
        }
    }

    /// An item object on one line, children on lines of their own.
    private static func writeItem(_ item: TodoItem, depth: Int, schema: ItemSchema, to sink: inout ByteSink) {
        sink.write("{")
        for (i, entry) in schema.entries(of: item).enumerated() {
            if i > 0 { sink.write(", ") }
            JSONListWriter.writeString(Substring(entry.key), to: &sink)
            sink.write(": ")
            write(entry.value, depth: depth, schema: schema, to: &sink)
        }
        sink.write("}")
    }
}
