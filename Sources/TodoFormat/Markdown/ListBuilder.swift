/// Turns parsed task items into the list model as the parser reports them.
struct ListBuilder: BlockSink {
    private let source: String
    private let bytes: UnsafeBufferPointer<UInt8>
    private var tree = TreeBuilder()
    private var section: String?

    init(source: String, bytes: UnsafeBufferPointer<UInt8>, expectedItems: Int = 0) {
        self.source = source
        self.bytes = bytes
        tree.reserveCapacity(expectedItems)
    }

    mutating func item(_ parsed: ParsedItem) {
        let (name, fields) = ItemText.nameAndFields(of: parsed, in: source, bytes: bytes)
        add(
            TodoItem(
                nameStorage: name, status: parsed.status, fields: fields, children: [],
                section: parsed.depth == 0 ? section : nil),
            depth: parsed.depth)
    }

    mutating func heading(text: String, level: Int, line: Int) {
        section = text.isEmpty ? nil : text
    }

    mutating func add(_ item: TodoItem, depth: Int) {
        tree.add(item, depth: depth)
    }

    /// The finished top-level items.
    mutating func finish() -> [TodoItem] {
        tree.finish()
    }
}

/// The name and fields of a parsed item, read from its name lines.
enum ItemText {
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
