import Foundation

/// A checklist file as written: its exact text plus the task items found in it.
///
/// Reading and writing back without changes gives the same bytes; an edit of one
/// item changes only that item's lines.
public struct TodoDocument: Sendable {
    /// A task item where it stands in the file.
    public struct Entry: Sendable {
        /// The item, without children (see ``depth``).
        public var item: TodoItem
        /// Number of task items around it.
        public var depth: Int
        /// 1-based line of its list marker.
        public var line: Int
        /// 1-based column of its `[`.
        public var column: Int
        var parsed: ParsedItem
    }

    /// A problem `check` reports.
    public struct Problem: Hashable, Sendable, CustomStringConvertible {
        /// How bad a problem is.
        public enum Severity: String, Sendable { case warning, error }
        /// Where the problem is.
        public var location: SourceLocation
        /// A warning or an error.
        public var severity: Severity
        /// What is wrong, in lower case without a final period.
        public var message: String
        /// `path:line:column: severity: message`.
        public var description: String { "\(location): \(severity.rawValue): \(message)" }
    }

    /// The file's text.
    public private(set) var text: String
    /// The path used in locations.
    public let path: String
    /// The front matter's metadata.
    public private(set) var metadata: [Field]
    /// Every task item in document order.
    public private(set) var entries: [Entry]
    /// `\n` or `\r\n`, from the file's first line ending.
    public private(set) var lineEnding: String
    private var listBlocks: [(first: Int, last: Int, canonical: Bool)] = []
    private var nearMisses: [Problem] = []
    /// Items that cmark-gfm takes for tasks because of a later task-like line inside them.
    private(set) var taskLikeLines: [(itemLine: Int, hasCheckedBox: Bool)] = []

    /// Parses checklist text; `path` names the file in locations.
    public init(parsing text: String, path: String = "<input>") throws {
        self.text = text
        self.path = path
        self.metadata = []
        self.entries = []
        self.lineEnding = "\n"
        try reparse()
    }

    /// Reads and parses a file.
    public init(contentsOf path: String) throws {
        let name = InputFile.displayName(path)
        try self.init(parsing: MarkdownSource.decode(InputFile.read(path), path: name), path: name)
    }

    /// Writes the text to a file (`-` for standard output) through a temporary file renamed into place.
    public func write(to path: String) throws {
        try OutputFile.write(path) { $0.write(text) }
    }

    /// The document in canonical form (see ``canonicalMarkdown()``).
    public func formatted() throws -> TodoDocument {
        try TodoDocument(parsing: canonicalMarkdown(), path: path)
    }

    private mutating func reparse() throws {
        let source = text
        var text = text
        let path = path
        let result = try text.withUTF8 { bytes in
            var metadata: [Field] = []
            var bodyStart = 0
            var firstLine = 1
            if let front = FrontMatter.locate(in: bytes) {
                metadata = try FrontMatter.parse(
                    UnsafeBufferPointer(rebasing: bytes[front.yaml]), file: path, lineOffset: 1)
                bodyStart = front.bodyStart
                firstLine = front.lineCount + 1
            }
            var parser = BlockParser(text: bytes, sink: DocumentBuilder(source: source, bytes: bytes, path: path))
            let builder = parser.parse(from: bodyStart, firstLine: firstLine)
            return (metadata, builder, MarkdownSource.lineEnding(of: bytes))
        }
        metadata = result.0
        entries = result.1.entries
        listBlocks = result.1.listBlocks
        nearMisses = result.1.nearMisses
        taskLikeLines = result.1.taskLikeLines
        lineEnding = result.2
    }

    /// The list the file holds.
    public var list: TodoList {
        var builder = TreeBuilder()
        var sink = ByteSink()
        builder.begin(metadata: metadata, to: &sink)
        for entry in entries { builder.add(entry.item, depth: entry.depth) }
        return builder.finish()
    }

    /// The document's text: the bytes it was read from, with any edits.
    public func markdown() -> String { text }

    /// Replaces the status, name and fields of the item at `index` in ``entries``,
    /// rewriting only that item's lines. Its children and position stay.
    public mutating func replaceItem(at index: Int, with item: TodoItem) throws {
        let parsed = entries[index].parsed
        var bytes = Array(text.utf8)
        // The continuation lines of a multi-line name start like the item's own content.
        let prefix = continuationPrefix(of: parsed, in: bytes)
        let rendered = Array(
            FieldSyntax.render(name: item.nameStorage, fields: item.fields, continuation: prefix).utf8)
        var nameRange = (parsed.firstNameLine.lowerBound)..<parsed.nameEnd
        if parsed.firstNameLine.isEmpty && parsed.moreNameLines.isEmpty {
            // No name yet: write it after the white space that follows `]`.
            nameRange = (parsed.statusEnd + 2)..<(parsed.statusEnd + 2)
        }
        bytes.replaceSubrange(nameRange, with: rendered)
        bytes.replaceSubrange((parsed.boxStart + 1)..<parsed.statusEnd, with: Array(String(item.status.marker).utf8))
        text = String(decoding: bytes, as: UTF8.self)
        try reparse()
    }

    private func continuationPrefix(of parsed: ParsedItem, in bytes: [UInt8]) -> String {
        if let second = parsed.moreNameLines.first {
            var lineStart = second.lowerBound
            while lineStart > 0 && bytes[lineStart - 1] != 10 { lineStart -= 1 }
            return String(decoding: bytes[lineStart..<second.lowerBound], as: UTF8.self)
        }
        let lead = String(decoding: bytes[parsed.lineStart..<parsed.markerStart], as: UTF8.self)
        return lead + String(repeating: " ", count: parsed.boxStart - parsed.markerStart)
    }

    /// The text in canonical form: every top-level list made only of task items is
    /// rewritten with `- [ ]` markers and two spaces a level; everything else stays.
    public func canonicalMarkdown() -> String {
        if !listBlocks.contains(where: \.canonical) { return text }
        let bytes = Array(text.utf8)
        var lineStarts: [Int] = [0]
        for (i, b) in bytes.enumerated() where b == 10 { lineStarts.append(i + 1) }
        // Rewritten items take two spaces of content indentation, so an indented line after
        // a list could join its last item: such a list is left as it is.
        func nextTextIsIndented(after line: Int) -> Bool {
            var n = line
            while n < lineStarts.count {
                var i = lineStarts[n]
                let end = n + 1 < lineStarts.count ? lineStarts[n + 1] : bytes.count
                while i < end && (bytes[i] == 32 || bytes[i] == 9) { i += 1 }
                if i < end && bytes[i] != 10 && bytes[i] != 13 { return i > lineStarts[n] }
                n += 1
            }
            return false
        }
        let blocks = listBlocks.filter { $0.canonical && !nextTextIsIndented(after: $0.last) }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var position = 0
        var entryIndex = 0
        for block in blocks {
            let start = lineStarts[block.first - 1]
            let end = block.last < lineStarts.count ? lineStarts[block.last] : bytes.count
            out.append(contentsOf: bytes[position..<start])
            while entryIndex < entries.count && entries[entryIndex].line < block.first { entryIndex += 1 }
            var sink = ByteSink()
            while entryIndex < entries.count && entries[entryIndex].line <= block.last {
                let entry = entries[entryIndex]
                MarkdownWriter.writeLine(of: entry.item, depth: entry.depth, lineEnding: lineEnding, to: &sink)
                entryIndex += 1
            }
            out.append(contentsOf: sink.buffer)
            // A list at the very end of a file without a final newline keeps it that way.
            if end == bytes.count && bytes.last != 10 { out.removeLast(lineEnding.utf8.count) }
            position = end
        }
        out.append(contentsOf: bytes[position...])
        return String(decoding: out, as: UTF8.self)
    }

    /// Problems a person should fix: lines that look like tasks but are not, mixed line endings.
    public func problems() -> [Problem] {
        var problems = nearMisses
        let bytes = Array(text.utf8)
        var crlf = 0, lf = 0, firstMixed = 0, line = 1
        for (i, b) in bytes.enumerated() where b == 10 {
            if i > 0 && bytes[i - 1] == 13 { crlf += 1 } else { lf += 1 }
            if crlf > 0 && lf > 0 && firstMixed == 0 { firstMixed = line }
            line += 1
        }
        if firstMixed > 0 {
            problems.append(
                Problem(
                    location: SourceLocation(file: path, line: firstMixed, column: 1), severity: .warning,
                    message: "mixed line endings (\(lf) LF, \(crlf) CRLF)"))
        }
        return problems.sorted { ($0.location.line, $0.location.column) < ($1.location.line, $1.location.column) }
    }
}

/// Collects what a document needs: each item with its place, the list blocks and near misses.
private struct DocumentBuilder: BlockSink {
    let source: String
    let bytes: UnsafeBufferPointer<UInt8>
    let path: String
    var entries: [TodoDocument.Entry] = []
    var listBlocks: [(first: Int, last: Int, canonical: Bool)] = []
    var nearMisses: [TodoDocument.Problem] = []
    var taskLikeLines: [(itemLine: Int, hasCheckedBox: Bool)] = []
    var section: String?

    init(source: String, bytes: UnsafeBufferPointer<UInt8>, path: String) {
        self.source = source
        self.bytes = bytes
        self.path = path
    }

    mutating func item(_ parsed: ParsedItem) {
        let item = ItemText.item(of: parsed, section: section, in: source, bytes: bytes)
        var column = 1
        for i in parsed.lineStart..<parsed.boxStart where bytes[i] & 0xC0 != 0x80 { column += 1 }
        entries.append(
            TodoDocument.Entry(item: item, depth: parsed.depth, line: parsed.line, column: column, parsed: parsed))
    }

    mutating func heading(text: String, level: Int, line: Int) {
        section = text.isEmpty ? nil : text
    }

    mutating func listBlock(firstLine: Int, lastLine: Int, canonicalizable: Bool) {
        listBlocks.append((firstLine, lastLine, canonicalizable))
    }

    mutating func taskLikeText(line: Int, column: Int, itemLine: Int, hasCheckedBox: Bool) {
        taskLikeLines.append((itemLine, hasCheckedBox))
        nearMiss(
            line: line, column: column,
            message: "this line reads like a task item but continues the text of the item on line \(itemLine); "
                + "indent it less or add a blank line before it")
    }

    mutating func nearMiss(line: Int, column: Int, message: String) {
        nearMisses.append(
            TodoDocument.Problem(
                location: SourceLocation(file: path, line: line, column: column), severity: .warning, message: message))
    }
}
