/// Turns parsed task items into list items as the parser reports them and hands
/// them to a writer: a tree builder, or another format's writer directly.
struct ItemStream<Writer: ListWriter>: BlockSink {
    private let source: String
    private let bytes: UnsafeBufferPointer<UInt8>
    var writer: Writer
    var sink: ByteSink
    private var section: String?

    init(source: String, bytes: UnsafeBufferPointer<UInt8>, writer: Writer, sink: ByteSink) {
        self.source = source
        self.bytes = bytes
        self.writer = writer
        self.sink = sink
    }

    mutating func item(_ parsed: ParsedItem) {
        writer.item(ItemText.item(of: parsed, section: section, in: source, bytes: bytes), depth: parsed.depth, to: &sink)
    }

    mutating func heading(text: String, level: Int, line: Int) {
        section = text.isEmpty ? nil : text
    }
}

/// The name and fields of a parsed item, read from its name lines.
enum ItemText {
    /// The list item for a parsed item; `section` is the heading above it, kept for top-level items.
    static func item(of parsed: ParsedItem, section: String?, in source: String, bytes: UnsafeBufferPointer<UInt8>) -> TodoItem {
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
            // The common case: one line, no fields, no escapes — a slice of the source.
            var plain = first.isEmpty || bytes[first.upperBound - 1] != UInt8(ascii: "]")
            if plain {
                for i in first where bytes[i] == UInt8(ascii: "\\") {
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
        return (Substring(FieldSyntax.unescapeName(slices)), fields)
    }

    static func slice(_ source: String, _ range: Range<Int>) -> Substring {
        let utf8 = source.utf8
        let start = utf8.index(utf8.startIndex, offsetBy: range.lowerBound)
        let end = utf8.index(start, offsetBy: range.count)
        return source[start..<end]
    }
}
