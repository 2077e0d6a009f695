/// Writes a list as a new checklist in canonical form (FORMAT.md, section 10).
struct MarkdownWriter: ListWriter {
    var lineEnding = "\n"
    private var wroteItem = false
    private var section: String? = nil

    mutating func begin(metadata: [Field], to sink: inout ByteSink) {
        if !metadata.isEmpty { sink.write(FrontMatter.render(metadata, lineEnding: lineEnding)) }
    }

    mutating func item(_ item: TodoItem, depth: Int, to sink: inout ByteSink) {
        if depth == 0 && (item.section != section || (!wroteItem && item.section != nil)) {
            if let heading = item.section {
                if wroteItem { sink.write(lineEnding) }
                sink.write("# ")
                sink.write(heading.replacingOccurrences(of: "\n", with: " "))
                sink.write(lineEnding)
            }
            section = item.section
        }
        wroteItem = true
        Self.writeLine(of: item, depth: depth, lineEnding: lineEnding, to: &sink)
    }

    mutating func end(to sink: inout ByteSink) {}

    private static let indents: [String] = (0..<64).map { String(repeating: "  ", count: $0) }

    static func indent(_ depth: Int) -> String {
        depth < indents.count ? indents[depth] : String(repeating: "  ", count: depth)
    }

    /// `- [c] name [fields]` with its indentation and line ending.
    static func writeLine(of item: TodoItem, depth: Int, lineEnding: String, to sink: inout ByteSink) {
        sink.write(indent(depth))
        switch item.status {
        case .open: sink.write("- [ ] ")
        case .done: sink.write("- [x] ")
        case .custom(let scalar): sink.write("- [" + String(scalar) + "] ")
        }
        // Most names need no escaping: one scan of their bytes, one copy.
        let plain =
            item.fields.isEmpty
            && item.nameStorage.utf8.withContiguousStorageIfAvailable { bytes -> Bool in
                for b in bytes where b == UInt8(ascii: "\\") || b == UInt8(ascii: "[") || b == 10 || b == 13 {
                    return false
                }
                sink.write(bytes)
                return true
            } == true
        if !plain {
            sink.write(FieldSyntax.render(name: item.nameStorage, fields: item.fields, continuation: indent(depth + 1)))
        }
        sink.write(lineEnding)
    }
}
