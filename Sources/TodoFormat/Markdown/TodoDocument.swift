import Foundation

/// A checklist file as written: its exact text plus the task items found in it.
///
/// Reading and writing back without changes gives the same bytes. Edits change only what
/// they must: the status, name or fields of one item (``updateItem(at:_:)``), an item added,
/// removed or moved with its nested items (``insertItem(_:under:at:)``, ``removeItem(at:)``,
/// ``moveItem(at:under:at:)``), the metadata (``setMetadata(_:)``), or a whole list written
/// into the document (``update(with:)``). Everything else in the file stays byte for byte.
///
/// Items are addressed by their index in ``entries`` (document order, nested items after
/// their parent); an edit that adds, removes or moves items changes the indexes after it.
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
        fileprivate let document: TodoDocument

        /// The first item's index, 0.
        public var startIndex: Int { 0 }
        /// The number of items.
        public var endIndex: Int { document.records.count }

        /// The item at `position` in document order, made from the document's text.
        public subscript(position: Int) -> Entry {
            let record = document.records[position]
            let built = document.text.withBytes { bytes in
                (document.item(at: position, bytes: bytes), Self.column(of: record, in: bytes))
            }
            return Entry(item: built.0, depth: record.depth, line: Int(record.line), column: built.1)
        }

        /// 1-based column of an item's `[`, in Unicode scalars.
        static func column(of record: ItemRecord, in bytes: UnsafeBufferPointer<UInt8>) -> Int {
            var column = 1
            for i in record.lineStart..<record.boxStart where bytes[i] & 0xC0 != 0x80 { column += 1 }
            return column
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
    public internal(set) var text: String
    /// The path used in locations.
    public let path: String
    /// The front matter's metadata.
    public internal(set) var metadata: [Field]
    /// `\n` or `\r\n`, from the file's first line ending.
    public let lineEnding: String
    /// Whether the file starts with front matter (perhaps empty).
    public var hasFrontMatter: Bool { bodyStart > 0 }
    /// Why `---` lines at the top are no front matter, when they look like it.
    let notFrontMatter: String?
    /// Where the body starts, after the front matter, and its first line.
    private(set) var bodyStart: Int
    private(set) var firstBodyLine: Int
    /// What the parser found: the task items, the lines of their names that have several,
    /// the top-level headings and list blocks, lines that look like tasks but are not.
    private(set) var records: [ItemRecord] = []
    private(set) var nameLines: [NameLines] = []
    private(set) var headings: [HeadingRecord] = []
    private(set) var listBlocks: [ListBlock] = []
    private(set) var nearMisses: [NearMiss] = []
    /// Items that cmark-gfm takes for tasks because of a later task-like line inside them.
    private(set) var taskLikeLines: [(itemLine: Int, hasCheckedBox: Bool)] = []

    /// Every task item in document order.
    public var entries: Entries { Entries(document: self) }

    /// Parses checklist text; `path` names the file in locations.
    public init(parsing text: String, path: String = "<input>") throws {
        self.init(source: try MarkdownSource(text: text, path: path))
    }

    /// Parses the UTF-8 bytes of a checklist; an invalid byte is an error at its place.
    public init(bytes: [UInt8], path: String = "<input>") throws {
        try self.init(parsing: UTF8Validation.decode(bytes, path: path), path: path)
    }

    /// Reads and parses a file. The text keeps room for edits, so that one changes it in place.
    public init(contentsOf url: URL) throws {
        let input = Input(file: url.filePath)
        // Room for edits to lengthen the text in place (a file read has it already).
        var text = try input.text(room: 1 << 16)
        text.reserveCapacity(text.utf8.count + 1 << 16)
        try self.init(parsing: text, path: input.name)
    }

    init(source: MarkdownSource) {
        text = source.text
        path = source.path
        metadata = source.metadata
        lineEnding = source.lineEnding
        notFrontMatter = source.notFrontMatter
        bodyStart = source.bodyStart
        firstBodyLine = source.firstBodyLine
        parseBody()
    }

    /// The section of top-level items above the first heading (a fragment's).
    private var initialSection: String? = nil

    /// A piece of a checklist that starts where parsing starts afresh (after a top-level
    /// heading, whose text is `section`), with what the parser found in it.
    init(fragment: String, path: String, parsed: DocumentBuilder, section: String?) {
        initialSection = section
        text = fragment
        self.path = path
        metadata = []
        lineEnding = fragment.withBytes { MarkdownSource.lineEnding(of: $0) }
        notFrontMatter = nil
        bodyStart = 0
        firstBodyLine = 1
        records = parsed.records
        nameLines = parsed.nameLines
        headings = parsed.headings
        listBlocks = parsed.listBlocks
        nearMisses = parsed.nearMisses
        taskLikeLines = parsed.taskLikeLines
    }

    /// The items with their depths.
    func alignmentEntries() -> [ItemAlignment.Entry] {
        text.withBytes { bytes in
            records.indices.map { ItemAlignment.Entry(item(at: $0, bytes: bytes), depth: records[$0].depth) }
        }
    }

    /// Parses the body again, from scratch.
    private mutating func parseBody() {
        let parsed = Self.parse(text, from: bodyStart, to: nil, firstLine: firstBodyLine, nameLinesBase: 0)
        records = parsed.records
        nameLines = parsed.nameLines
        headings = parsed.headings
        listBlocks = parsed.listBlocks
        nearMisses = parsed.nearMisses
        taskLikeLines = parsed.taskLikeLines
    }

    /// Writes the text to a file through a temporary file renamed into place.
    public func write(to url: URL) throws {
        let output = try Output.file(url.filePath)
        do {
            var sink = output.makeSink()
            try TodoDocumentEdit(text: text).write(to: &sink)
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
        builder.reserveCapacity(records.count)
        builder.begin(metadata: metadata)
        text.withBytes { bytes in
            for index in records.indices { builder.item(item(at: index, bytes: bytes), depth: records[index].depth) }
        }
        return builder.finish()
    }

    /// The document's text: the bytes it was read from, with any edits.
    public func markdown() -> String { text }

    /// The document in canonical form (see ``canonicalMarkdown()``).
    public func formatted() throws -> TodoDocument {
        try TodoDocument(parsing: canonicalMarkdown(), path: path)
    }

    // MARK: Items

    /// The item at `index` (without children), read from the text whose bytes are `bytes`.
    func item(at index: Int, bytes: UnsafeBufferPointer<UInt8>) -> TodoItem {
        ItemText.item(of: parsed(index), section: section(of: index), in: text, bytes: bytes)
    }

    /// The item at `index` as the parser found it.
    func parsed(_ index: Int) -> ParsedItem {
        let record = records[index]
        return record.parsed(nameLines: record.more >= 0 ? nameLines[Int(record.more)] : nil)
    }

    /// The section of a top-level item: the text of the nearest top-level heading above it
    /// (nil without one, or when it is empty).
    func section(of index: Int) -> String? {
        let record = records[index]
        guard record.depth == 0 else { return nil }
        return section(before: record.lineStart)
    }

    /// The section at byte offset `offset`.
    func section(before offset: Int) -> String? {
        let low = headingsStarting(before: offset)
        guard low > 0 else { return initialSection }
        let text = headings[low - 1].text
        return text.isEmpty ? nil : text
    }

    /// How many top-level headings start before byte offset `offset`.
    func headingsStarting(before offset: Int) -> Int {
        var low = 0
        var high = headings.count
        while low < high {
            let mid = (low + high) / 2
            if headings[mid].start < offset { low = mid + 1 } else { high = mid }
        }
        return low
    }

    /// The top-level headings that start in `range`.
    func headings(in range: Range<Int>) -> ArraySlice<HeadingRecord> {
        headings[headingsStarting(before: range.lowerBound)..<headingsStarting(before: range.upperBound)]
    }

    /// Changes the item at `index` of ``entries``: its status, name and fields, rewriting
    /// only that item's lines. Its children, section and position stay.
    public mutating func updateItem(at index: Int, _ change: (inout TodoItem) throws -> Void) rethrows {
        let old = entries[index].item
        var item = old
        try change(&item)
        guard item.status != old.status || item.nameStorage != old.nameStorage || item.fields != old.fields else {
            return
        }
        let parsed = self.parsed(index)
        var bytes = Array(text.utf8)
        let before = bytes.count
        let (range, replacement) = bytes.withUnsafeBufferPointer {
            Self.rewrite(parsed, from: old, as: item, lineEnding: lineEnding, in: $0)
        }
        let lineDelta = replacement.count { $0 == 10 } - bytes[range].count { $0 == 10 }
        bytes.replaceSubrange(range, with: replacement)
        text = String(decoding: bytes, as: UTF8.self)
        reparse(around: parsed.line, byteDelta: bytes.count - before, lineDelta: lineDelta)
    }

    /// What changing an item from `old` (as the text has it) to `item` replaces in the text:
    /// its status character, and from there to the end of its name, with the new status,
    /// name and fields, as little as the change needs: a new status alone replaces the status
    /// character; new fields alone the fields, the name's text staying as it is written
    /// (`\[b\]`, `&amp;`: written again from the name, such text could read otherwise); the
    /// marker, the box and everything around stay. Continuation lines of a multi-line name
    /// start like the item's own second line, else with the characters before the marker and
    /// spaces up to the box.
    static func rewrite(
        _ parsed: ParsedItem, from old: TodoItem, as item: TodoItem, lineEnding: String,
        in bytes: UnsafeBufferPointer<UInt8>
    ) -> (Range<Int>, [UInt8]) {
        var marker: [UInt8] = []
        UTF8.encode(item.status.marker) { marker.append($0) }
        let sameName = old.nameStorage.sameBytes(as: item.nameStorage)
        if sameName && old.fields == item.fields { return ((parsed.boxStart + 1)..<parsed.statusEnd, marker) }
        let prefix = continuationPrefix(of: parsed, in: bytes)
        // The fields as the item's last line writes them: unchanged ones keep their text.
        let lastLine = parsed.moreNameLines.last ?? parsed.firstNameLine
        var written: [(field: Field, text: String)] = []
        let line = UnsafeBufferPointer(rebasing: bytes[lastLine])
        let split = FieldSyntax.splitFieldGroups(line)
        if let split {
            written = zip(split.fields, split.groups).map {
                ($0, String(decoding: UnsafeBufferPointer(rebasing: line[$1]), as: UTF8.self))
            }
        }
        // (Not when the fields have a line of their own: the name then ends in a line break,
        // which the name's text says only with the fields after it.)
        let fieldsOwnLine = !parsed.moreNameLines.isEmpty && split?.nameEnd == 0
        // The text kept after the status character, up to where the new text goes, and how far
        // the old text it replaces reaches.
        let (kept, text, end): (Int, String, Int)
        if sameName && !old.nameStorage.isEmpty && !fieldsOwnLine {
            // The name's text as it is; the fields after it written again.
            let fields = FieldSyntax.render(
                name: "", fields: item.fields, continuation: prefix, lineEnding: lineEnding, written: written)
            kept = min(lastLine.lowerBound + (split?.nameEnd ?? line.count), parsed.nameEnd)
            (text, end) = (fields.isEmpty ? "" : " " + fields, parsed.nameEnd)
        } else {
            // No name yet: it goes after the white space character that follows `]`.
            let nameless = parsed.firstNameLine.isEmpty && parsed.moreNameLines.isEmpty
            kept = nameless ? parsed.statusEnd + 2 : parsed.firstNameLine.lowerBound
            text = FieldSyntax.render(
                name: item.nameStorage, fields: item.fields, continuation: prefix, lineEnding: lineEnding,
                written: written)
            end = max(kept, parsed.nameEnd)
        }
        var replacement = marker
        replacement.append(contentsOf: bytes[parsed.statusEnd..<kept])
        replacement.append(contentsOf: Array(text.utf8))
        return ((parsed.boxStart + 1)..<end, replacement)
    }

    private static func continuationPrefix(of parsed: ParsedItem, in bytes: UnsafeBufferPointer<UInt8>) -> String {
        if let second = parsed.moreNameLines.first {
            var lineStart = second.lowerBound
            while lineStart > 0 && bytes[lineStart - 1] != 10 { lineStart -= 1 }
            return String(decoding: bytes[lineStart..<second.lowerBound], as: UTF8.self)
        }
        return String(decoding: LinePrefix.continuation(of: parsed, in: bytes), as: UTF8.self)
    }

    // MARK: Parsing again after an edit

    /// Parses again the top-level list that holds `line` after an edit inside it that moved
    /// what follows by `byteDelta` bytes and `lineDelta` lines; everything after it only
    /// moves. A task outside a top-level list (in a block quote) makes the whole body parse again.
    mutating func reparse(around line: Int, byteDelta: Int, lineDelta: Int) {
        guard let b = listBlocks.firstIndex(where: { $0.first <= line && line <= $0.last }) else {
            parseBody()
            return
        }
        let block = listBlocks[b]
        let first = records.firstIndex { Int($0.line) >= block.first } ?? records.count
        let after = records[first...].firstIndex { Int($0.line) > block.last } ?? records.count
        let (start, end) = text.withBytes { bytes in
            (Self.offset(ofLine: block.first, in: bytes), Self.offset(ofLine: block.last + lineDelta + 1, in: bytes))
        }
        let parsed = Self.parse(text, from: start, to: end, firstLine: block.first, nameLinesBase: nameLines.count)
        nameLines.append(contentsOf: parsed.nameLines)
        var moved = records[after...].map { Self.shifted($0, bytes: byteDelta, lines: lineDelta) }
        moved.insert(contentsOf: parsed.records, at: 0)
        records.replaceSubrange(first..., with: moved)
        for h in headings.indices where headings[h].line > block.last {
            headings[h].line += lineDelta
            headings[h].start += byteDelta
            headings[h].end += byteDelta
        }
        let laterBlocks = listBlocks[(b + 1)...].map {
            ListBlock(first: $0.first + lineDelta, last: $0.last + lineDelta, canonical: $0.canonical)
        }
        listBlocks.replaceSubrange(b..., with: parsed.listBlocks + laterBlocks)
        nearMisses =
            nearMisses.filter { $0.line < block.first } + parsed.nearMisses
            + nearMisses.filter { $0.line > block.last }.map { $0.shifted(lines: lineDelta) }
        taskLikeLines =
            taskLikeLines.filter { $0.itemLine < block.first } + parsed.taskLikeLines
            + taskLikeLines.filter { $0.itemLine > block.last }.map { ($0.itemLine + lineDelta, $0.hasCheckedBox) }
    }

    /// Replaces byte ranges of the text (in order, apart) and parses again only the sections
    /// around them: from after the top-level heading before each to after the top-level
    /// heading after it (everything, when an edit turns such a heading into something else).
    /// Everything else the document knows only moves.
    mutating func replace(_ edits: [(range: Range<Int>, bytes: [UInt8])]) {
        guard !edits.isEmpty else { return }
        let oldCount = text.utf8.count
        // The sections around the edits, in the old text, merged where they meet; with their lines.
        var regions: [(start: Int, end: Int, closed: Bool, firstLine: Int, endLine: Int)] = []
        for edit in edits {
            let start = headings.last { $0.end <= edit.range.lowerBound && $0.start >= bodyStart }?.end ?? bodyStart
            let closing = headings.first { $0.start >= edit.range.upperBound }
            let end = closing?.end ?? oldCount
            if let last = regions.last, start <= last.end {
                regions[regions.count - 1].end = max(last.end, end)
                regions[regions.count - 1].closed = end >= last.end ? closing != nil : last.closed
            } else {
                regions.append((start, end, closing != nil, 0, 0))
            }
        }
        var lineDeltas: [Int] = []
        text.withBytes { bytes in
            for k in regions.indices {
                // A region starts where the body starts or after a heading: its line is
                // counted from there, not from the start of the file.
                let start = regions[k].start
                if start == bodyStart {
                    regions[k].firstLine = firstBodyLine
                } else if let heading = headings.first(where: { $0.end == start }) {
                    regions[k].firstLine = heading.line + ByteScan.count(of: 10, in: bytes[heading.start..<heading.end])
                } else {
                    regions[k].firstLine = 1 + ByteScan.count(of: 10, in: bytes[..<start])
                }
                regions[k].endLine = regions[k].firstLine + ByteScan.count(of: 10, in: bytes[start..<regions[k].end])
            }
            for edit in edits {
                lineDeltas.append(edit.bytes.count { $0 == 10 } - ByteScan.count(of: 10, in: bytes[edit.range]))
            }
        }
        // The new text, edited from the end so that earlier offsets stay.
        var updated = text
        text = ""
        for edit in edits.reversed() {
            // No view of the text is held across the replacement, which then changes the text
            // in place rather than copying it.
            let lower = updated.utf8.index(updated.utf8.startIndex, offsetBy: edit.range.lowerBound)
            let upper = updated.utf8.index(lower, offsetBy: edit.range.count)
            updated.replaceSubrange(lower..<upper, with: String(decoding: edit.bytes, as: UTF8.self))
        }
        text = updated
        // `---` lines at the top that enclosed no mapping may now, or an edit was in the front
        // matter: the whole text is read again.
        if notFrontMatter != nil || edits.contains(where: { $0.range.lowerBound < bodyStart }),
            let source = try? MarkdownSource(text: text, path: path)
        {
            self = TodoDocument(source: source)
            return
        }
        /// How far the edits before an old offset move it (text added right at it comes after it).
        func shift(_ offset: Int) -> (bytes: Int, lines: Int) {
            var bytes = 0
            var lines = 0
            for (k, edit) in edits.enumerated() where edit.range.upperBound <= offset && edit.range.lowerBound < offset
            {
                bytes += edit.bytes.count - edit.range.count
                lines += lineDeltas[k]
            }
            return (bytes, lines)
        }
        // Each region parsed again, from the last to the first, so that earlier indexes stay;
        // what follows a region moves by the edits before it. The arrays change in place.
        var parsedRegions:
            [(region: Int, parsed: DocumentBuilder, before: (bytes: Int, lines: Int), after: (bytes: Int, lines: Int))] =
                []
        let total = shift(Int.max)
        for (k, region) in regions.enumerated() {
            // A region that reaches the end of the text takes what is added at its end.
            let before = shift(region.start)
            let after = region.end == oldCount ? total : shift(region.end)
            let start = region.start + before.bytes
            let end = region.end + after.bytes
            let parsed = Self.parse(
                text, from: start, to: end, firstLine: region.firstLine + before.lines, nameLinesBase: 0)
            // The closing heading must still close the region, else what follows reads otherwise.
            if region.closed, parsed.headings.last?.end != end {
                parseBody()
                return
            }
            parsedRegions.append((k, parsed, before, after))
        }
        var nextStart = (
            record: records.count, heading: headings.count, block: listBlocks.count, miss: nearMisses.count,
            task: taskLikeLines.count
        )
        for (k, parsed, _, after) in parsedRegions.reversed() {
            let region = regions[k]
            // Found among the old values before anything moves: the region's old part, then what
            // lies between it and the next region, which moves by the edits up to its end.
            let r0 = records[..<nextStart.record].firstIndex { $0.lineStart >= region.start } ?? nextStart.record
            let r1 = records[r0..<nextStart.record].firstIndex { $0.lineStart >= region.end } ?? nextStart.record
            for i in r1..<nextStart.record {
                records[i] = Self.shifted(records[i], bytes: after.bytes, lines: after.lines)
            }
            let base = nameLines.count
            nameLines += parsed.nameLines
            records.replaceSubrange(
                r0..<r1,
                with: parsed.records.map { record in
                    var record = record
                    if record.more >= 0 { record.more += Int32(base) }
                    return record
                })
            let h0 = headings[..<nextStart.heading].firstIndex { $0.start >= region.start } ?? nextStart.heading
            let h1 = headings[h0..<nextStart.heading].firstIndex { $0.start >= region.end } ?? nextStart.heading
            for i in h1..<nextStart.heading {
                headings[i] = Self.shifted(headings[i], bytes: after.bytes, lines: after.lines)
            }
            headings.replaceSubrange(h0..<h1, with: parsed.headings)
            let b0 = listBlocks[..<nextStart.block].firstIndex { $0.first >= region.firstLine } ?? nextStart.block
            let b1 = listBlocks[b0..<nextStart.block].firstIndex { $0.first >= region.endLine } ?? nextStart.block
            for i in b1..<nextStart.block {
                listBlocks[i] = ListBlock(
                    first: listBlocks[i].first + after.lines, last: listBlocks[i].last + after.lines,
                    canonical: listBlocks[i].canonical)
            }
            listBlocks.replaceSubrange(b0..<b1, with: parsed.listBlocks)
            let m0 = nearMisses[..<nextStart.miss].firstIndex { $0.line >= region.firstLine } ?? nextStart.miss
            let m1 = nearMisses[m0..<nextStart.miss].firstIndex { $0.line >= region.endLine } ?? nextStart.miss
            for i in m1..<nextStart.miss { nearMisses[i] = nearMisses[i].shifted(lines: after.lines) }
            nearMisses.replaceSubrange(m0..<m1, with: parsed.nearMisses)
            let t0 = taskLikeLines[..<nextStart.task].firstIndex { $0.itemLine >= region.firstLine } ?? nextStart.task
            let t1 = taskLikeLines[t0..<nextStart.task].firstIndex { $0.itemLine >= region.endLine } ?? nextStart.task
            for i in t1..<nextStart.task { taskLikeLines[i].itemLine += after.lines }
            taskLikeLines.replaceSubrange(t0..<t1, with: parsed.taskLikeLines)
            nextStart = (r0, h0, b0, m0, t0)
        }
    }

    private static func shifted(_ heading: HeadingRecord, bytes: Int, lines: Int) -> HeadingRecord {
        var heading = heading
        heading.line += lines
        heading.start += bytes
        heading.end += bytes
        return heading
    }

    private static func shifted(_ record: ItemRecord, bytes: Int, lines: Int) -> ItemRecord {
        var record = record
        record.lineStart += bytes
        record.line = UInt32(Int(record.line) + lines)
        return record
    }

    /// The byte offset where line `line` (from 1) starts, or the text's end.
    static func offset(ofLine line: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Int {
        guard let base = bytes.baseAddress else { return 0 }
        var position = 0
        var current = 1
        while current < line, position < bytes.count, let newline = memchr(base + position, 10, bytes.count - position)
        {
            position = base.distance(to: newline.assumingMemoryBound(to: UInt8.self)) + 1
            current += 1
        }
        return current == line ? position : bytes.count
    }

    /// Parses `text` from `start` to `end` (nil: the end), numbering the first line
    /// `firstLine`; `startsFile` when `text` starts at the start of the file.
    static func parse(
        _ text: String, from start: Int, to end: Int?, firstLine: Int, nameLinesBase: Int, startsFile: Bool = true
    ) -> DocumentBuilder {
        text.withBytes { bytes in
            let end = end ?? bytes.count
            let span = UnsafeBufferPointer(rebasing: bytes[start..<end])
            var parser = BlockParser(
                text: span, sink: DocumentBuilder(bytes: span, offset: start, nameLinesBase: nameLinesBase),
                startsFile: startsFile && start == 0)
            return parser.parse(from: 0, firstLine: firstLine)
        }
    }
}
