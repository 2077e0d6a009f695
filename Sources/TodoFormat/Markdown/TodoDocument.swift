import Foundation

/// A checklist file as written: its exact text plus the task items found in it.
///
/// Reading and writing back without changes gives the same bytes; an edit of one item
/// changes only that item's lines, and only the list around it is parsed again.
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
    }

    /// The task items of a document in order, made from its text when asked for (so an
    /// item's name never holds on to an older text of the document).
    public struct Entries: RandomAccessCollection, Sendable {
        fileprivate let text: String
        fileprivate let found: [FoundItem]

        public var startIndex: Int { 0 }
        public var endIndex: Int { found.count }

        public subscript(position: Int) -> Entry {
            let item = found[position]
            let parsed = item.parsed
            let built = text.withBytes { bytes in
                (ItemText.item(of: parsed, section: item.section, in: text, bytes: bytes), item.column(in: bytes))
            }
            return Entry(item: built.0, depth: parsed.depth, line: parsed.line, column: built.1)
        }
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
    public let metadata: [Field]
    /// `\n` or `\r\n`, from the file's first line ending.
    public let lineEnding: String
    /// Whether the file starts with front matter (perhaps empty).
    public var hasFrontMatter: Bool { bodyStart > 0 }
    /// Why `---` lines at the top are no front matter, when they look like it.
    let notFrontMatter: String?
    /// Where the body starts, after the front matter.
    private let bodyStart: Int
    private let firstBodyLine: Int
    /// What the parser found: the task items, the top-level list blocks, lines that look
    /// like tasks but are not.
    private(set) var found: [FoundItem] = []
    private(set) var listBlocks: [ListBlock] = []
    private(set) var nearMisses: [Problem] = []
    /// Items that cmark-gfm takes for tasks because of a later task-like line inside them.
    private(set) var taskLikeLines: [(itemLine: Int, hasCheckedBox: Bool)] = []

    /// Every task item in document order.
    public var entries: Entries { Entries(text: text, found: found) }

    /// Parses checklist text; `path` names the file in locations.
    public init(parsing text: String, path: String = "<input>") throws {
        self.init(source: try MarkdownSource(text: text, path: path))
    }

    /// Parses the UTF-8 bytes of a checklist; an invalid byte is an error at its place.
    public init(bytes: [UInt8], path: String = "<input>") throws {
        try self.init(parsing: UTF8Validation.decode(bytes, path: path), path: path)
    }

    /// Reads and parses a file.
    public init(contentsOf url: URL) throws {
        let input = Input(file: url.filePath)
        try self.init(parsing: input.text(), path: input.name)
    }

    init(source: MarkdownSource) {
        text = source.text
        path = source.path
        metadata = source.metadata
        lineEnding = source.lineEnding
        notFrontMatter = source.notFrontMatter
        bodyStart = source.bodyStart
        firstBodyLine = source.firstBodyLine
        let parsed = Self.parse(text, from: bodyStart, to: nil, firstLine: firstBodyLine, section: nil, path: path)
        (found, listBlocks, nearMisses, taskLikeLines) = (parsed.found, parsed.listBlocks, parsed.nearMisses, parsed.taskLikeLines)
    }

    /// Writes the text to a file through a temporary file renamed into place.
    public func write(to url: URL) throws {
        let output = try Output.file(url.filePath)
        do {
            var sink = output.makeSink()
            sink.write(text)
            _ = try sink.finish(path: output.name)
            try output.commit()
        } catch {
            output.discard()
            throw error
        }
    }

    /// The list the file holds.
    public var list: TodoList {
        var builder = ListBuilder()
        builder.begin(metadata: metadata)
        for entry in entries { builder.item(entry.item, depth: entry.depth) }
        return builder.finish()
    }

    /// The document's text: the bytes it was read from, with any edits.
    public func markdown() -> String { text }

    /// The document in canonical form (see ``canonicalMarkdown()``).
    public func formatted() throws -> TodoDocument {
        try TodoDocument(parsing: canonicalMarkdown(), path: path)
    }

    /// Changes the item at `index` of ``entries``: its status, name and fields, rewriting
    /// only that item's lines. Its children, section and position stay.
    public mutating func updateItem(at index: Int, _ change: (inout TodoItem) throws -> Void) rethrows {
        let old = entries[index].item
        var item = old
        try change(&item)
        guard item.status != old.status || item.nameStorage != old.nameStorage || item.fields != old.fields else { return }
        let parsed = found[index].parsed
        var bytes = Array(text.utf8)
        let before = bytes.count
        // The continuation lines of a multi-line name start like the item's own content.
        let prefix = continuationPrefix(of: parsed, in: bytes)
        let rendered = Array(
            FieldSyntax.render(name: item.nameStorage, fields: item.fields, continuation: prefix, lineEnding: lineEnding).utf8)
        var nameRange = (parsed.firstNameLine.lowerBound)..<parsed.nameEnd
        if parsed.firstNameLine.isEmpty && parsed.moreNameLines.isEmpty {
            // No name yet: write it after the white space that follows `]`.
            nameRange = (parsed.statusEnd + 2)..<(parsed.statusEnd + 2)
        }
        let lineDelta = rendered.count { $0 == 10 } - bytes[nameRange].count { $0 == 10 }
        bytes.replaceSubrange(nameRange, with: rendered)
        bytes.replaceSubrange((parsed.boxStart + 1)..<parsed.statusEnd, with: Array(String(item.status.marker).utf8))
        text = String(decoding: bytes, as: UTF8.self)
        reparse(around: parsed.line, byteDelta: bytes.count - before, lineDelta: lineDelta)
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

    /// Parses again the top-level list that holds `line` after an edit inside it that moved
    /// what follows by `byteDelta` bytes and `lineDelta` lines; everything after it only
    /// moves. A task outside a top-level list (in a block quote) makes the whole body parse again.
    private mutating func reparse(around line: Int, byteDelta: Int, lineDelta: Int) {
        guard let b = listBlocks.firstIndex(where: { $0.first <= line && line <= $0.last }) else {
            let parsed = Self.parse(text, from: bodyStart, to: nil, firstLine: firstBodyLine, section: nil, path: path)
            (found, listBlocks, nearMisses, taskLikeLines) = (parsed.found, parsed.listBlocks, parsed.nearMisses, parsed.taskLikeLines)
            return
        }
        let block = listBlocks[b]
        let first = found.firstIndex { $0.parsed.line >= block.first } ?? found.count
        let after = found[first...].firstIndex { $0.parsed.line > block.last } ?? found.count
        let section = first < after ? found[first].section : nil
        let (start, end) = text.withBytes { bytes in
            (Self.offset(ofLine: block.first, in: bytes), Self.offset(ofLine: block.last + lineDelta + 1, in: bytes))
        }
        let parsed = Self.parse(text, from: start, to: end, firstLine: block.first, section: section, path: path)
        var moved = found[after...].map { $0.shifted(bytes: byteDelta, lines: lineDelta) }
        moved.insert(contentsOf: parsed.found, at: 0)
        found.replaceSubrange(first..., with: moved)
        let laterBlocks = listBlocks[(b + 1)...].map { ListBlock(first: $0.first + lineDelta, last: $0.last + lineDelta, canonical: $0.canonical) }
        listBlocks.replaceSubrange(b..., with: parsed.listBlocks + laterBlocks)
        func outside(_ l: Int) -> Bool { l < block.first || l > block.last }
        nearMisses = nearMisses.filter { $0.location.line < block.first }
            + parsed.nearMisses
            + nearMisses.filter { $0.location.line > block.last }.map {
                var problem = $0
                problem.location.line += lineDelta
                return problem
            }
        taskLikeLines = taskLikeLines.filter { $0.itemLine < block.first } + parsed.taskLikeLines
            + taskLikeLines.filter { $0.itemLine > block.last }.map { ($0.itemLine + lineDelta, $0.hasCheckedBox) }
    }

    /// The byte offset where line `line` (from 1) starts, or the text's end.
    private static func offset(ofLine line: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Int {
        guard let base = bytes.baseAddress else { return 0 }
        var position = 0
        var current = 1
        while current < line, position < bytes.count, let newline = memchr(base + position, 10, bytes.count - position) {
            position = base.distance(to: newline.assumingMemoryBound(to: UInt8.self)) + 1
            current += 1
        }
        return current == line ? position : bytes.count
    }

    /// Parses `text` from `start` to `end` (nil: the end), numbering the first line
    /// `firstLine`, with `section` as the heading above.
    private static func parse(
        _ text: String, from start: Int, to end: Int?, firstLine: Int, section: String?, path: String
    ) -> DocumentBuilder {
        text.withBytes { bytes in
            let end = end ?? bytes.count
            let span = UnsafeBufferPointer(rebasing: bytes[start..<end])
            var parser = BlockParser(text: span, sink: DocumentBuilder(offset: start, path: path, section: section))
            return parser.parse(from: 0, firstLine: firstLine)
        }
    }
}

/// A run of top-level list items from line `first` to line `last`; `canonical` when it
/// holds nothing but task items and their names.
struct ListBlock: Sendable {
    var first: Int
    var last: Int
    var canonical: Bool
}

/// A task item as the parser found it, with the heading it stands under.
struct FoundItem: Sendable {
    var parsed: ParsedItem
    var section: String? = nil

    /// 1-based column of its `[`, in Unicode scalars.
    func column(in bytes: UnsafeBufferPointer<UInt8>) -> Int {
        var column = 1
        for i in parsed.lineStart..<parsed.boxStart where bytes[i] & 0xC0 != 0x80 { column += 1 }
        return column
    }

    /// The same item `bytes` bytes and `lines` lines further down.
    func shifted(bytes: Int, lines: Int) -> FoundItem {
        var item = self
        item.parsed = parsed.shifted(bytes: bytes, lines: lines)
        return item
    }
}

extension ParsedItem {
    /// The same item `bytes` bytes and `lines` lines further down.
    func shifted(bytes delta: Int, lines: Int) -> ParsedItem {
        guard delta != 0 || lines != 0 else { return self }
        var item = self
        item.line += lines
        item.lastLine += lines
        item.lineStart += delta
        item.markerStart += delta
        item.boxStart += delta
        item.statusEnd += delta
        item.nameEnd += delta
        item.firstNameLine = (firstNameLine.lowerBound + delta)..<(firstNameLine.upperBound + delta)
        item.moreNameLines = moreNameLines.map { ($0.lowerBound + delta)..<($0.upperBound + delta) }
        return item
    }
}

/// Collects what a document needs: each item with its place, the list blocks and near
/// misses. It may see a span of the text (from `offset`); what it keeps counts from the start.
struct DocumentBuilder: BlockSink {
    let offset: Int
    let path: String
    var section: String?
    var found: [FoundItem] = []
    var listBlocks: [ListBlock] = []
    var nearMisses: [TodoDocument.Problem] = []
    var taskLikeLines: [(itemLine: Int, hasCheckedBox: Bool)] = []

    init(offset: Int, path: String, section: String?) {
        self.offset = offset
        self.path = path
        self.section = section
    }

    mutating func item(_ parsed: ParsedItem) {
        found.append(FoundItem(parsed: parsed.shifted(bytes: offset, lines: 0), section: parsed.depth == 0 ? section : nil))
    }

    mutating func heading(text: String, level: Int, line: Int) {
        section = text.isEmpty ? nil : text
    }

    mutating func listBlock(firstLine: Int, lastLine: Int, canonicalizable: Bool) {
        listBlocks.append(ListBlock(first: firstLine, last: lastLine, canonical: canonicalizable))
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
