/// Writes a list as a new checklist in canonical form (FORMAT.md, section 10).
struct MarkdownWriter: ListWriter {
    private var sink: ByteSink
    private let outputName: String
    var lineEnding = "\n"
    private var wroteItem = false
    private var section: String? = nil
    /// Whether a heading was written: every top-level item after it reads back under one.
    private var heading = false
    private var positions = ItemPositions()
    private var warnings = WarningLog()

    init(into sink: ByteSink, outputName: String) {
        self.sink = sink
        self.outputName = outputName
    }

    mutating func begin(metadata: [Field]) throws {
        if !metadata.isEmpty { sink.write(try FrontMatter.render(metadata, lineEnding: lineEnding)) }
    }

    mutating func item(_ item: TodoItem, depth: Int) {
        positions.advance(depth: depth)
        if depth > 0 && item.section != nil {
            warnings.note(.fields, Self.nestedSection, item: ItemPositions.describe(positions.current, item))
        } else if depth == 0 && item.section == nil && heading {
            // A heading covers every item after it: this one reads back under it.
            warnings.note(.fields, Self.sectionless, item: ItemPositions.describe(positions.current, item))
        }
        if depth == 0 && (item.section != section || (!wroteItem && item.section != nil)) {
            if let heading = item.section {
                if wroteItem { sink.write(lineEnding) }
                sink.write("# ")
                sink.write(heading.replacingOccurrences(of: "\n", with: " "))
                sink.write(lineEnding)
                self.heading = true
            }
            section = item.section
        }
        wroteItem = true
        Self.writeLine(of: item, depth: depth, lineEnding: lineEnding, to: &sink)
    }

    mutating func end() {}

    mutating func finish() throws -> Written {
        Written(warnings: warnings.warnings, bytes: try sink.finish(path: outputName))
    }

    static let nestedSection =
        "a checklist has sections (headings) for top-level items only: nested items' sections were left out"
    static let sectionless =
        "a checklist's heading covers the items after it: items without a section after one with a section read back under it"

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
                    name: item.nameStorage, fields: item.fields, continuation: Indentation.twoSpaces(depth + 1),
                    lineEnding: lineEnding))
        }
        sink.write(lineEnding)
    }
}
