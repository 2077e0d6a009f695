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
            if bytes.count - bodyStart >= 1 << 22,
                let cut = splitPoint(bytes, from: bodyStart + (bytes.count - bodyStart) / 2)
            {
                try streamInParallel(
                    source: source, bytes: bytes, bodyStart: bodyStart, firstLine: firstLine, cut: cut,
                    writer: &writer, sink: &sink)
            } else {
                var parser = BlockParser(text: bytes, sink: ItemStream(source: source, bytes: bytes, writer: writer, sink: sink))
                var result = parser.parse(from: bodyStart, firstLine: firstLine)
                result.writer.end(to: &result.sink)
                writer = result.writer
                sink = result.sink
            }
        }
    }

    /// A line near `from` where a long checklist can be cut and its halves parsed apart: an
    /// ATX heading at column 0 after a blank line (a section of a long list). Nil when there is none.
    private static func splitPoint(_ bytes: UnsafeBufferPointer<UInt8>, from: Int) -> Int? {
        guard let base = bytes.baseAddress else { return nil }
        var i = from
        while i < bytes.count, let found = memchr(base + i, 10, bytes.count - i) {
            let next = base.distance(to: found.assumingMemoryBound(to: UInt8.self)) + 1
            // "\n" then "# " (or "\r\n" endings): a blank line, then a heading.
            var line = next
            if line < bytes.count && bytes[line] == 13 { line += 1 }
            if line < bytes.count && bytes[line] == 10 {
                let heading = line + 1
                if heading + 1 < bytes.count && bytes[heading] == UInt8(ascii: "#") {
                    var hashes = heading
                    while hashes < bytes.count && bytes[hashes] == UInt8(ascii: "#") && hashes - heading < 7 { hashes += 1 }
                    if hashes - heading <= 6 && hashes < bytes.count && (bytes[hashes] == 32 || bytes[hashes] == 9) {
                        return heading
                    }
                }
            }
            i = next
        }
        return nil
    }

    /// Parses the two halves of a long checklist on two cores. The first half goes straight
    /// to the writer; the second half's items wait in memory (names still slices of the
    /// text) and follow it. If the first half ends inside a block that could take in the
    /// cut line (a fence left open), the second half is parsed again in order instead.
    private static func streamInParallel<W: ListWriter>(
        source: String, bytes: UnsafeBufferPointer<UInt8>, bodyStart: Int, firstLine: Int, cut: Int,
        writer: inout W, sink: inout ByteSink
    ) throws {
        var firstHalf = BlockParser(text: bytes, sink: ItemStream(source: source, bytes: bytes, writer: writer, sink: sink))
        var cutLine = firstLine
        if let base = bytes.baseAddress {
            var i = bodyStart
            while i < cut, let found = memchr(base + i, 10, cut - i) {
                cutLine += 1
                i = base.distance(to: found.assumingMemoryBound(to: UInt8.self)) + 1
            }
        }
        var secondHalf = BlockParser(
            text: bytes, sink: ItemStream(source: source, bytes: bytes, writer: ItemCollector(), sink: ByteSink()))
        let secondLine = cutLine
        nonisolated(unsafe) var first = firstHalf
        nonisolated(unsafe) var second = secondHalf
        DispatchQueue.concurrentPerform(iterations: 2) { part in
            if part == 0 {
                first.parseLines(from: bodyStart, to: cut)
            } else {
                _ = second.parse(from: cut, firstLine: secondLine)
            }
        }
        firstHalf = first
        secondHalf = second
        var result: ItemStream<W>
        if firstHalf.canRestartAtTopLevel {
            result = firstHalf.finish()
            for (item, depth) in secondHalf.finish().writer.items {
                result.writer.item(item, depth: depth, to: &result.sink)
            }
        } else {
            firstHalf.parseLines(from: cut, to: bytes.count)
            result = firstHalf.finish()
        }
        result.writer.end(to: &result.sink)
        writer = result.writer
        sink = result.sink
    }

    /// `\r\n` when the first line ending in the text is one, else `\n`.
    static func lineEnding(of bytes: UnsafeBufferPointer<UInt8>) -> String {
        guard let base = bytes.baseAddress, let newline = memchr(base, 10, bytes.count) else { return "\n" }
        let i = base.distance(to: newline.assumingMemoryBound(to: UInt8.self))
        return i > 0 && bytes[i - 1] == 13 ? "\r\n" : "\n"
    }
}
