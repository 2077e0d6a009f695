import Foundation

/// Checklist text checked and split: the UTF-8 rules, the front matter and where the body starts.
enum MarkdownSource {
    /// The text of UTF-8 bytes, or an error at the first byte that is not UTF-8.
    static func decode(_ bytes: [UInt8], path: String) throws(ParseError) -> String {
        if let text = String(validating: bytes, as: UTF8.self) { return text }
        var offset = 0
        var iterator = bytes.makeIterator()
        var decoder = UTF8()
        loop: while true {
            let before = offset
            switch decoder.decode(&iterator) {
            case .scalarValue(let s): offset += UTF8.width(s)
            case .emptyInput: break loop
            case .error:
                offset = before
                break loop
            }
        }
        let location = bytes.withUnsafeBufferPointer { SourceLocation.of(offset: offset, in: $0, file: path) }
        throw ParseError("invalid UTF-8 (byte 0x\(String(bytes[offset], radix: 16, uppercase: true)))", at: location)
    }

    /// Reads a checklist into the list model.
    static func list(from text: String, path: String) throws -> TodoList {
        var tree = TreeBuilder()
        // Most checklists are one item a line; the guess only sizes the top-level array.
        tree.reserveCapacity(text.utf8.count / 48)
        var sink = ByteSink()
        try stream(text, path: path, to: &tree, sink: &sink)
        return tree.finish()
    }

    /// Reads a checklist and hands its metadata and items to `writer` as they are found,
    /// without building the list: how a checklist converts in one pass.
    static func stream<W: ListWriter>(_ text: String, path: String, to writer: inout W, sink: inout ByteSink) throws {
        let source = text
        var text = text
        // withUTF8 does not copy a native string; it is var only because the API is mutating.
        try text.withUTF8 { bytes in
            var bodyStart = 0
            var firstLine = 1
            var metadata: [Field] = []
            if let front = FrontMatter.locate(in: bytes) {
                metadata = try FrontMatter.parse(
                    UnsafeBufferPointer(rebasing: bytes[front.yaml]), file: path, lineOffset: 1)
                bodyStart = front.bodyStart
                firstLine = front.lineCount + 1
            }
            writer.begin(metadata: metadata, to: &sink)
            var parser = BlockParser(text: bytes, sink: ItemStream(source: source, bytes: bytes, writer: writer, sink: sink))
            var result = parser.parse(from: bodyStart, firstLine: firstLine)
            result.writer.end(to: &result.sink)
            writer = result.writer
            sink = result.sink
        }
    }

    /// `\r\n` when the first line ending in the text is one, else `\n`.
    static func lineEnding(of bytes: UnsafeBufferPointer<UInt8>) -> String {
        guard let base = bytes.baseAddress, let newline = memchr(base, 10, bytes.count) else { return "\n" }
        let i = base.distance(to: newline.assumingMemoryBound(to: UInt8.self))
        return i > 0 && bytes[i - 1] == 13 ? "\r\n" : "\n"
    }
}
