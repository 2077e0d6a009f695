/// Writes a list as a new checklist in canonical form (FORMAT.md, section 10).
struct MarkdownWriter: ListWriter {
    private var sink: ByteSink
    private let outputName: String
    var lineEnding = "\n"
    private var wroteItem = false
    private var section: String? = nil

    init(into sink: ByteSink, outputName: String) {
        self.sink = sink
        self.outputName = outputName
    }

    mutating func begin(metadata: [Field]) throws {
        if !metadata.isEmpty { sink.write(try FrontMatter.render(metadata, lineEnding: lineEnding)) }
    }

    mutating func item(_ item: TodoItem, depth: Int) {
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

    mutating func end() {}

    mutating func finish() throws -> Written {
        Written(bytes: try sink.finish(path: outputName))
    }

    /// `- [c] name [fields]` with its indentation and line ending.
    static func writeLine(of item: TodoItem, depth: Int, lineEnding: String, to sink: inout ByteSink) {
        sink.write(Indentation.twoSpaces(depth))
        switch item.status {
        case .open: sink.write("- [ ] ")
        case .done: sink.write("- [x] ")
        case .custom(let scalar): sink.write("- [" + String(scalar) + "] ")
        }
        // Most names need no escaping: one scan of their bytes, one copy.
        let plain =
            item.fields.isEmpty
            && item.nameStorage.utf8.withContiguousStorageIfAvailable { bytes -> Bool in
                guard NameSyntax.isPlain(bytes) else { return false }
                sink.write(bytes)
                return true
            } == true
        if !plain {
            sink.write(
                FieldSyntax.render(
                    name: item.nameStorage, fields: item.fields, continuation: Indentation.twoSpaces(depth + 1), lineEnding: lineEnding))
        }
        sink.write(lineEnding)
    }
}
