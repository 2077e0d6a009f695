/// Keeps the parser's task items until they are handed on (the parser holds it; the list
/// reader empties it through `BlockParser.withSink`).
///
/// An item whose name is plain (one line, nothing to unescape, no fields) is kept as the byte
/// range of its name, and becomes a list item (a slice of `source`) only when handed to a sink
/// that needs one: a writer that takes plain names (JSON) copies the bytes instead.
struct ItemQueue: BlockSink {
    /// The text as a string, when there is one: plain names are slices of it.
    private let source: String?
    private let bytes: UnsafeBufferPointer<UInt8>
    private let path: String
    private var queued: [Queued] = []
    /// The items of `queued` that are not plain.
    private var built: [TodoItem] = []
    /// The items of `queued` with fields whose names are plain (`ItemText.plainNameAndFields`):
    /// a sink that takes plain names takes them with no string or item made.
    private var fielded: [(name: Range<Int>, fields: [Field])] = []
    /// The top-level headings that name sections so far; `section` indexes the last (or is -1).
    private var sections: [String] = []
    private var section = -1
    /// The first item nested deeper than todofmt reads, as its error.
    private var tooDeep: ParseError?
    /// The text that is not items: blocks of it, and top-level headings that name no section.
    private(set) var unlisted = UnlistedText()
    /// The line of the last top-level heading while no top-level item has followed it.
    private var headingWithoutItems: Int?

    /// An item as kept: a plain item, or one whose index is `nameStart` in `built` (`nameEnd`
    /// -1) or in `fielded` (`nameEnd` -2). Plain values only, so that keeping a million costs
    /// no reference counting.
    private typealias Queued = PlainItem

    /// A queue for the items of `bytes`; `section` names the section of the first items, for
    /// a reading that starts after the heading (at a top-level item).
    init(source: String?, bytes: UnsafeBufferPointer<UInt8>, path: String, section: String? = nil) {
        self.source = source
        self.bytes = bytes
        self.path = path
        if let section {
            sections = [section]
            self.section = 0
        }
    }

    mutating func item(_ parsed: ParsedItem) {
        if parsed.depth >= Limits.itemLevels && tooDeep == nil {
            var column = 1
            for i in parsed.lineStart..<parsed.boxStart where bytes[i] & 0xC0 != 0x80 { column += 1 }
            tooDeep = ParseError(
                Limits.itemDepthMessage, at: SourceLocation(file: path, line: parsed.line, column: column))
        }
        let section = parsed.depth == 0 ? self.section : -1
        if let name = ItemText.plainName(of: parsed, bytes: bytes) {
            queued.append(
                Queued(
                    nameStart: name.lowerBound, nameEnd: name.upperBound, status: parsed.status, depth: parsed.depth,
                    section: section))
        } else if let (name, fields) = ItemText.plainNameAndFields(of: parsed, bytes: bytes) {
            fielded.append((name, fields))
            queued.append(
                Queued(
                    nameStart: fielded.count - 1, nameEnd: -2, status: parsed.status, depth: parsed.depth,
                    section: section))
        } else {
            built.append(
                ItemText.item(of: parsed, section: section < 0 ? nil : sections[section], in: source, bytes: bytes))
            queued.append(
                Queued(
                    nameStart: built.count - 1, nameEnd: -1, status: parsed.status, depth: parsed.depth,
                    section: section))
        }
        if parsed.depth == 0 { headingWithoutItems = nil }
    }

    mutating func heading(text: String, level: Int, line: Int, start: Int, end: Int) {
        if text.isEmpty {
            section = -1
        } else {
            sections.append(text)
            section = sections.count - 1
        }
        if let unused = headingWithoutItems { unlisted.note(line: unused) }
        headingWithoutItems = line
    }

    mutating func textBlock(line: Int) {
        unlisted.note(line: line)
    }

    /// After the last line: a heading no item followed names no section.
    mutating func finish() {
        if let unused = headingWithoutItems { unlisted.note(line: unused) }
        headingWithoutItems = nil
    }

    /// Hands the items found so far to `sink`, in order.
    mutating func drain<S: ItemSink>(into sink: inout S) throws {
        if let tooDeep { throw tooDeep }
        for q in queued {
            if q.nameEnd == -1 {
                try sink.item(built[q.nameStart], depth: q.depth)
                continue
            }
            let (range, fields) = q.nameEnd == -2 ? fielded[q.nameStart] : (q.nameStart..<q.nameEnd, [])
            let name =
                source.map { ItemText.slice($0, range) }
                ?? Substring(String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self))
            let item = TodoItem(
                nameStorage: name, status: q.status, fields: fields, children: [],
                section: q.section < 0 ? nil : sections[q.section])
            try sink.item(item, depth: q.depth)
        }
        clear()
    }

    /// Hands the items found so far to `writer`, in order: each run of plain items at once,
    /// their names as bytes of the text.
    mutating func drain<W: PlainItemSink>(plainNamesInto writer: inout W) throws {
        if let tooDeep { throw tooDeep }
        try writer.take(queued: queued, text: bytes, sections: sections, fielded: fielded, built: built)
        clear()
    }

    private mutating func clear() {
        queued.removeAll(keepingCapacity: true)
        built.removeAll(keepingCapacity: true)
        fielded.removeAll(keepingCapacity: true)
    }
}

/// A checklist item without fields whose name is the text as it is (`ItemText.plainName`):
/// what a sink that takes plain names gets (`PlainItemSink.items(plain:text:sections:)`).
struct PlainItem {
    /// The name's bytes in the text.
    var nameStart: Int
    var nameEnd: Int
    var status: TodoStatus
    var depth: Int
    /// The index of the item's section among the sections given with it, or -1.
    var section: Int

    /// The item's section among `sections` (those given with it) for a top-level item; nil
    /// for a nested one, or one without.
    func section(in sections: [String]) -> String? { depth == 0 && section >= 0 ? sections[section] : nil }
}

/// The name and fields of a parsed item, read from its name lines.
enum ItemText {
    /// The list item for a parsed item; `section` is the heading above it, kept for top-level
    /// items. A plain name is a slice of `source` when there is one.
    static func item(of parsed: ParsedItem, section: String?, in source: String?, bytes: UnsafeBufferPointer<UInt8>)
        -> TodoItem
    {
        let (name, fields) = nameAndFields(of: parsed, in: source, bytes: bytes)
        return TodoItem(
            nameStorage: name, status: parsed.status, fields: fields, children: [],
            section: parsed.depth == 0 ? section : nil)
    }

    /// The byte range of the name when it is the text as it is: the common case of one line,
    /// no fields, no escapes or references. Nil otherwise, and for a name with `"` or a
    /// control character (a tab), so that a plain name is one JSON takes as it is too.
    static func plainName(of parsed: ParsedItem, bytes: UnsafeBufferPointer<UInt8>) -> Range<Int>? {
        let first = parsed.firstNameLine
        guard parsed.moreNameLines.isEmpty else { return nil }
        if first.isEmpty { return first }
        // Fields end the line with `]`.
        guard bytes[first.upperBound - 1] != UInt8(ascii: "]") else { return nil }
        return ByteScan.containsEscapeOrJSONEscape(UnsafeBufferPointer(rebasing: bytes[first])) ? nil : first
    }

    /// The byte range of the name and the fields when the name is its one line as it is
    /// before the fields, as a plain name is (`plainName`); nil otherwise, and for an item
    /// without fields.
    static func plainNameAndFields(of parsed: ParsedItem, bytes: UnsafeBufferPointer<UInt8>) -> (Range<Int>, [Field])? {
        let line = parsed.firstNameLine
        guard parsed.moreNameLines.isEmpty, !line.isEmpty, bytes[line.upperBound - 1] == UInt8(ascii: "]"),
            let split = FieldSyntax.splitFields(UnsafeBufferPointer(rebasing: bytes[line]))
        else { return nil }
        let name = line.lowerBound..<(line.lowerBound + split.nameEnd)
        return ByteScan.containsEscapeOrJSONEscape(UnsafeBufferPointer(rebasing: bytes[name]))
            ? nil : (name, split.fields)
    }

    /// The byte range of the name when the name is its one line as it is, without fields,
    /// escapes or character references; nil otherwise.
    static func verbatimName(of parsed: ParsedItem, bytes: UnsafeBufferPointer<UInt8>) -> Range<Int>? {
        let first = parsed.firstNameLine
        guard parsed.moreNameLines.isEmpty, first.isEmpty || bytes[first.upperBound - 1] != UInt8(ascii: "]") else {
            return nil
        }
        return ByteScan.contains(UnsafeBufferPointer(rebasing: bytes[first]), UInt8(ascii: "\\"), UInt8(ascii: "&"))
            ? nil : first
    }

    static func nameAndFields(
        of parsed: ParsedItem, in source: String?, bytes: UnsafeBufferPointer<UInt8>
    ) -> (Substring, [Field]) {
        if let first = verbatimName(of: parsed, bytes: bytes) {
            if let source { return (slice(source, first), []) }
            return (Substring(String(decoding: UnsafeBufferPointer(rebasing: bytes[first]), as: UTF8.self)), [])
        }
        // A custom-status item's name may start on its second line.
        let skipsFirst = parsed.firstNameLine.isEmpty && !parsed.moreNameLines.isEmpty
        let lastLine = parsed.moreNameLines.last ?? parsed.firstNameLine
        var nameEnd = lastLine.upperBound
        var fields: [Field] = []
        if let split = FieldSyntax.splitFields(UnsafeBufferPointer(rebasing: bytes[lastLine])) {
            fields = split.fields
            nameEnd = lastLine.lowerBound + split.nameEnd
        }
        if parsed.moreNameLines.count == (skipsFirst ? 1 : 0) {
            let range = lastLine.lowerBound..<nameEnd
            let name = UnsafeBufferPointer(rebasing: bytes[range])
            if !ByteScan.contains(name, UInt8(ascii: "\\"), UInt8(ascii: "&")) {
                if let source { return (slice(source, range), fields) }
                return (Substring(String(decoding: name, as: UTF8.self)), fields)
            }
        }
        var lines = skipsFirst ? parsed.moreNameLines : [parsed.firstNameLine] + parsed.moreNameLines
        lines[lines.count - 1] = lastLine.lowerBound..<nameEnd
        let slices = lines.map { ArraySlice(UnsafeBufferPointer(rebasing: bytes[$0])) }
        return (Substring(NameSyntax.unescape(slices)), fields)
    }

    static func slice(_ source: String, _ range: Range<Int>) -> Substring {
        let utf8 = source.utf8
        let start = utf8.index(utf8.startIndex, offsetBy: range.lowerBound)
        let end = utf8.index(start, offsetBy: range.count)
        return source[start..<end]
    }
}

/// What of a checklist's text is not its items, as a reader meets it: blocks of prose, code,
/// HTML, thematic breaks, headings that name no section (FORMAT.md section 7: what other
/// formats have no place for).
public struct UnlistedText: Hashable, Sendable {
    /// How many blocks.
    public private(set) var count = 0
    /// The line of the first.
    public private(set) var firstLine: Int?

    mutating func note(line: Int) {
        count += 1
        if firstLine.map({ line < $0 }) ?? true { firstLine = line }
    }

    /// The warning a conversion into a format gives for it (described as `target`, `plain
    /// JSON`…); nil when there is none.
    func warning(leftOutBy target: String) -> ConversionWarning? {
        guard count > 0, let firstLine else { return nil }
        // (The kinds of text in parentheses, then how much there was: "code: 1 block" had
        // read as if the file held code.)
        let blocks = count == 1 ? "1 block, on line \(firstLine)" : "\(count) blocks, the first on line \(firstLine)"
        return ConversionWarning(
            .prose,
            "\(target) has no place for the checklist's text that is not items (prose, headings that name no section, code): "
                + "\(blocks); it was left out")
    }
}
