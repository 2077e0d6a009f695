/// Writes a JSON file whose root is an object holding the list (and other keys of the
/// app's): the object one key a line, the list one item object a line.
enum JSONValueWriter {
    static func write(_ root: OutputValue, layout: ItemLayout, to sink: inout ByteSink) {
        write(root, depth: 0, layout: layout, to: &sink)
        sink.write("\n")
    }

    private static func write(_ node: OutputValue, depth: Int, layout: ItemLayout, to sink: inout ByteSink) {
        switch node {
        case .value(let value):
            JSONText.writeValue(value, to: &sink)
        case .items(let items):
            writeLines(items, open: "[", close: "]", depth: depth, to: &sink) { item, sink in
                writeItem(item, depth: depth + 1, layout: layout, to: &sink)
            }
        case .dictionary(let entries):
            writeLines(entries, open: "{", close: "}", depth: depth, to: &sink) { entry, sink in
                JSONText.writeString(Substring(entry.key), to: &sink)
                sink.write(": ")
                write(entry.value, depth: depth + 1, layout: layout, to: &sink)
            }
        }
    }

    /// `open`, one element a line indented a level deeper, `close`; `open` and `close` alone when empty.
    private static func writeLines<T>(
        _ elements: [T], open: String, close: String, depth: Int, to sink: inout ByteSink,
        _ element: (T, inout ByteSink) -> Void
    ) {
        if elements.isEmpty {
            sink.write(open + close)
            return
        }
        sink.write(open + "\n")
        for (i, e) in elements.enumerated() {
            sink.write(Indentation.twoSpaces(depth + 1))
            element(e, &sink)
            sink.write(i == elements.count - 1 ? "\n" : ",\n")
        }
        sink.write(Indentation.twoSpaces(depth) + close)
    }

    /// An item object on one line, children on lines of their own.
    private static func writeItem(_ item: TodoItem, depth: Int, layout: ItemLayout, to sink: inout ByteSink) {
        sink.write("{")
        for (i, entry) in layout.entries(of: item).enumerated() {
            if i > 0 { sink.write(", ") }
            JSONText.writeString(Substring(entry.key), to: &sink)
            sink.write(": ")
            write(entry.value, depth: depth, layout: layout, to: &sink)
        }
        sink.write("}")
    }
}
