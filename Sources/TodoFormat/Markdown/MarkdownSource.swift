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
        let source = text
        var text = text
        // withUTF8 does not copy a native string; it is var only because the API is mutating.
        return try text.withUTF8 { bytes in
            var metadata: [Field] = []
            var bodyStart = 0
            var firstLine = 1
            if let front = FrontMatter.locate(in: bytes) {
                metadata = try FrontMatter.parse(
                    UnsafeBufferPointer(rebasing: bytes[front.yaml]), file: path, lineOffset: 1)
                bodyStart = front.bodyStart
                firstLine = front.lineCount + 1
            }
            // Most checklists are one item a line; the guess only sizes the top-level array.
            let builder = ListBuilder(source: source, bytes: bytes, expectedItems: bytes.count / 48)
            var parser = BlockParser(text: bytes, sink: builder)
            var result = parser.parse(from: bodyStart, firstLine: firstLine)
            return TodoList(metadata: metadata, items: result.finish())
        }
    }

    /// `\r\n` when the first line ending in the text is one, else `\n`.
    static func lineEnding(of bytes: UnsafeBufferPointer<UInt8>) -> String {
        guard let base = bytes.baseAddress, let newline = memchr(base, 10, bytes.count) else { return "\n" }
        let i = base.distance(to: newline.assumingMemoryBound(to: UInt8.self))
        return i > 0 && bytes[i - 1] == 13 ? "\r\n" : "\n"
    }
}
