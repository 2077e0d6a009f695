/// Turns the parser's task items into list items and keeps them until they are handed on.
/// A class, so that the list reader can empty it while the parser holds it.
final class ItemQueue: BlockSink {
    private let source: String
    private let bytes: UnsafeBufferPointer<UInt8>
    private let path: String
    private var items: [(TodoItem, Int)] = []
    private var section: String?
    /// The first item nested deeper than todofmt reads, as its error.
    private var tooDeep: ParseError?
    /// The text that is not items: blocks of it, and top-level headings that name no section.
    private(set) var unlisted = UnlistedText()
    /// The line of the last top-level heading while no top-level item has followed it.
    private var headingWithoutItems: Int?

    init(source: String, bytes: UnsafeBufferPointer<UInt8>, path: String) {
        self.source = source
        self.bytes = bytes
        self.path = path
    }

    func item(_ parsed: ParsedItem) {
        if parsed.depth >= Limits.itemLevels && tooDeep == nil {
            var column = 1
            for i in parsed.lineStart..<parsed.boxStart where bytes[i] & 0xC0 != 0x80 { column += 1 }
            tooDeep = ParseError(
                Limits.itemDepthMessage, at: SourceLocation(file: path, line: parsed.line, column: column))
        }
        items.append((ItemText.item(of: parsed, section: section, in: source, bytes: bytes), parsed.depth))
        if parsed.depth == 0 { headingWithoutItems = nil }
    }

    func heading(text: String, level: Int, line: Int, start: Int, end: Int) {
        section = text.isEmpty ? nil : text
        if let unused = headingWithoutItems { unlisted.note(line: unused) }
        headingWithoutItems = line
    }

    func textBlock(line: Int) {
        unlisted.note(line: line)
    }

    /// After the last line: a heading no item followed names no section.
    func finish() {
        if let unused = headingWithoutItems { unlisted.note(line: unused) }
        headingWithoutItems = nil
    }

    /// Hands the items found so far to `sink`, in order.
    func drain<S: ItemSink>(into sink: inout S) throws {
        if let tooDeep { throw tooDeep }
        for (item, depth) in items { try sink.item(item, depth: depth) }
        items.removeAll(keepingCapacity: true)
    }
}

/// The name and fields of a parsed item, read from its name lines.
enum ItemText {
    /// The list item for a parsed item; `section` is the heading above it, kept for top-level items.
    static func item(of parsed: ParsedItem, section: String?, in source: String, bytes: UnsafeBufferPointer<UInt8>)
        -> TodoItem
    {
        let (name, fields) = nameAndFields(of: parsed, in: source, bytes: bytes)
        return TodoItem(
            nameStorage: name, status: parsed.status, fields: fields, children: [],
            section: parsed.depth == 0 ? section : nil)
    }

    static func nameAndFields(
        of parsed: ParsedItem, in source: String, bytes: UnsafeBufferPointer<UInt8>
    ) -> (Substring, [Field]) {
        let first = parsed.firstNameLine
        if parsed.moreNameLines.isEmpty {
            // The common case: one line, no fields, no escapes or references — a slice of the source.
            var plain = first.isEmpty || bytes[first.upperBound - 1] != UInt8(ascii: "]")
            if plain {
                for i in first where bytes[i] == UInt8(ascii: "\\") || bytes[i] == UInt8(ascii: "&") {
                    plain = false
                    break
                }
            }
            if plain { return (slice(source, first), []) }
        }
        var lines = [first] + parsed.moreNameLines
        // A custom-status item's name may start on its second line.
        if first.isEmpty && lines.count > 1 { lines.removeFirst() }
        var fields: [Field] = []
        let lastRange = lines[lines.count - 1]
        let last = Array(UnsafeBufferPointer(rebasing: bytes[lastRange]))
        if let split = FieldSyntax.splitFields(last[...]) {
            fields = split.fields
            lines[lines.count - 1] = lastRange.lowerBound..<(lastRange.lowerBound + split.nameEnd)
        }
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
        let blocks = count == 1 ? "1 block" : "\(count) blocks"
        return ConversionWarning(
            .prose,
            "\(target) has no place for the checklist's text that is not items (prose, headings that name no section, code: "
                + "\(blocks), the first on line \(firstLine)); it was left out")
    }
}
