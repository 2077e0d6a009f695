/// Writes a list as a new checklist in canonical form (FORMAT.md, "Canonical form").
enum MarkdownWriter {
    static func write(_ list: TodoList, to sink: inout ByteSink, lineEnding: String = "\n") {
        if !list.metadata.isEmpty {
            sink.write(FrontMatter.render(list.metadata, lineEnding: lineEnding))
        }
        var first = true
        var section: String? = nil
        for item in list.items {
            if item.section != section || (first && item.section != nil) {
                if let heading = item.section {
                    if !first { sink.write(lineEnding) }
                    sink.write("# ")
                    sink.write(heading.replacingOccurrences(of: "\n", with: " "))
                    sink.write(lineEnding)
                }
                section = item.section
            }
            first = false
            write(item, depth: 0, to: &sink, lineEnding: lineEnding)
        }
    }

    private static let indents: [String] = (0..<64).map { String(repeating: "  ", count: $0) }

    static func indent(_ depth: Int) -> String {
        depth < indents.count ? indents[depth] : String(repeating: "  ", count: depth)
    }

    static func write(_ item: TodoItem, depth: Int, to sink: inout ByteSink, lineEnding: String) {
        sink.write(indent(depth))
        writeLine(of: item, continuation: indent(depth + 1), to: &sink)
        sink.write(lineEnding)
        for child in item.children {
            write(child, depth: depth + 1, to: &sink, lineEnding: lineEnding)
        }
    }

    /// `- [c] name [fields]` without indentation or line ending.
    static func writeLine(of item: TodoItem, continuation: String, to sink: inout ByteSink) {
        sink.write("- [")
        sink.write(String(item.status.marker))
        sink.write("] ")
        if item.fields.isEmpty && isPlainName(item.nameStorage) {
            sink.write(item.nameStorage)
        } else {
            sink.write(FieldSyntax.render(name: item.nameStorage, fields: item.fields, continuation: continuation))
        }
    }

    /// A name that needs no escaping: no backslash, bracket or line break.
    @inline(__always)
    static func isPlainName(_ name: Substring) -> Bool {
        for b in name.utf8 where b == UInt8(ascii: "\\") || b == UInt8(ascii: "[") || b == 10 || b == 13 {
            return false
        }
        return true
    }
}
