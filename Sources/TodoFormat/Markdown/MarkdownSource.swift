import Foundation

/// A checklist's text, split once: its front matter (parsed), where the Markdown body
/// starts, and its line ending. Reading a list and reading a document both start here.
struct MarkdownSource {
    /// The whole text.
    let text: String
    /// The name locations use.
    let path: String
    /// The front matter's metadata; empty without front matter.
    let metadata: [Field]
    /// The byte offset where the Markdown body starts (after the front matter).
    let bodyStart: Int
    /// The body's first line, from 1.
    let firstBodyLine: Int
    /// `\r\n` when the text's first line ending is one, else `\n`.
    let lineEnding: String
    /// Why `---` lines at the top are not front matter, when they look like it but enclose
    /// no YAML mapping (`check` says it).
    let notFrontMatter: String?

    /// Splits `text`: front matter when `---` lines at the top enclose a YAML mapping.
    init(text: String, path: String) throws {
        self.text = text
        self.path = path
        let split = text.withBytes { bytes in (FrontMatter.read(bytes, file: path), Self.lineEnding(of: bytes)) }
        (metadata, bodyStart, firstBodyLine, notFrontMatter) = split.0
        lineEnding = split.1
    }

    /// The list, read into memory.
    func list() throws -> TodoList {
        var builder = ListBuilder()
        // Most checklists are one item a line; the guess only sizes the top-level array.
        builder.reserveCapacity(text.utf8.count / 48)
        try stream(into: &builder)
        return builder.finish()
    }

    /// Hands the metadata and the items to `sink` as the parser finds them, without
    /// building the list: how a checklist converts in one pass. Returns the text that is not items.
    @discardableResult
    func stream<S: ItemSink>(into sink: inout S) throws -> UnlistedText {
        try sink.begin(metadata: metadata)
        let unlisted = try text.withBytes { bytes in
            try Self.parse(bytes, from: bodyStart, source: text, path: path) {
                try $0.drain(into: &sink)
                return true
            }
        }
        try sink.end()
        return unlisted
    }

    /// `stream(into:)` for the checklist whose text is `bytes` (valid UTF-8), into a sink
    /// that takes plain names as bytes: no string is made of the text, nor of most names.
    static func stream<W: PlainItemSink>(
        bytes: UnsafeBufferPointer<UInt8>, path: String, plainNamesInto writer: inout W
    ) throws -> UnlistedText {
        let front = FrontMatter.read(bytes, file: path)
        try writer.begin(metadata: front.metadata)
        let unlisted = try parse(bytes, from: front.bodyStart, source: nil, path: path) {
            try $0.drain(plainNamesInto: &writer)
            return true
        }
        try writer.end()
        return unlisted
    }

    /// `stream(bytes:path:plainNamesInto:)` of a text not yet checked to be UTF-8, that stops
    /// between blocks of lines once `done(writer)`: the bytes read are checked as they come
    /// (the front matter, then each block before its parse), and those after the last block
    /// read are neither checked nor read. The writer's `end` is not called. A block holds
    /// the lines that start in its first `blockSize` bytes.
    static func streamUntil<W: PlainItemSink>(
        bytes: UnsafeBufferPointer<UInt8>, path: String, plainNamesInto writer: inout W, blockSize: Int = 1 << 20,
        done: (W) -> Bool
    ) throws {
        let front = FrontMatter.read(bytes, file: path)
        try checkUTF8(bytes, 0..<front.bodyStart, path: path)
        try writer.begin(metadata: front.metadata)
        _ = try parse(bytes, from: front.bodyStart, source: nil, path: path, blockSize: blockSize, checkingUTF8: true) {
            try $0.drain(plainNamesInto: &writer)
            return !done(writer)
        }
    }

    /// Throws the error of the first byte that is not UTF-8 where `range` of `bytes` has one
    /// (the whole text is decoded for its line and column: an error's rare path).
    private static func checkUTF8(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, path: String) throws {
        guard !UTF8Validation.isValid(UnsafeBufferPointer(rebasing: bytes[range])) else { return }
        _ = try UTF8Validation.decode(Array(bytes), path: path)
    }

    /// The items from the top-level item whose line starts at `offset` (a marker in the first
    /// column: `ItemDigests` notes such lines), under the section `section`, as
    /// `stream(bytes:path:plainNamesInto:)` hands them on: nothing before that line is open
    /// there, so a reading from it finds the same items. The text that is not items, and the
    /// lines of errors, count from there.
    static func stream<W: PlainItemSink>(
        bytes: UnsafeBufferPointer<UInt8>, path: String, from offset: Int, section: String?,
        plainNamesInto writer: inout W
    ) throws {
        try writer.begin(metadata: [])
        _ = try parse(bytes, from: offset, source: nil, path: path, section: section) {
            try $0.drain(plainNamesInto: &writer)
            return true
        }
        try writer.end()
    }

    /// Parses the body from `bodyStart`, handing the items found to `drain` after each block
    /// of lines (those that start in its first `blockSize` bytes: about a megabyte), and
    /// stops there where `drain` returns false (the text that is not items is then that of
    /// the lines read). With `checkingUTF8`, each block's bytes are checked before its parse.
    /// (The parser is concrete, not generic over the sink: items wait in the parser's queue
    /// in between.)
    private static func parse(
        _ bytes: UnsafeBufferPointer<UInt8>, from bodyStart: Int, source: String?, path: String,
        section: String? = nil, blockSize: Int = 1 << 20, checkingUTF8: Bool = false,
        drain: (inout ItemQueue) throws -> Bool
    ) throws -> UnlistedText {
        var parser = BlockParser(
            text: bytes, sink: ItemQueue(source: source, bytes: bytes, path: path, section: section))
        var position = bodyStart
        let base = bytes.baseAddress
        while position < bytes.count {
            var end = min(bytes.count, position + blockSize)
            if end < bytes.count, let base, let newline = memchr(base + end, 10, bytes.count - end) {
                end = base.distance(to: newline.assumingMemoryBound(to: UInt8.self)) + 1
            } else {
                end = bytes.count
            }
            // (A block ends after a line break, so that no character is split.)
            if checkingUTF8 { try checkUTF8(bytes, position..<end, path: path) }
            parser.parseLines(from: position, to: end)
            guard try parser.withSink({ try drain(&$0) }) else { return parser.withSink { $0.unlisted } }
            position = end
        }
        var queue = parser.finish()
        queue.finish()
        _ = try drain(&queue)
        return queue.unlisted
    }

    /// `\r\n` when the first line ending in the text is one, else `\n`.
    static func lineEnding(of bytes: UnsafeBufferPointer<UInt8>) -> String {
        guard let base = bytes.baseAddress, let newline = memchr(base, 10, bytes.count) else { return "\n" }
        let i = base.distance(to: newline.assumingMemoryBound(to: UInt8.self))
        return i > 0 && bytes[i - 1] == 13 ? "\r\n" : "\n"
    }
}

extension String {
    /// Runs `body` with the string's UTF-8 bytes: its own storage for a native string (no copy).
    func withBytes<T>(_ body: (UnsafeBufferPointer<UInt8>) throws -> T) rethrows -> T {
        if let result = try utf8.withContiguousStorageIfAvailable(body) { return result }
        var copy = self
        copy.makeContiguousUTF8()
        return try copy.utf8.withContiguousStorageIfAvailable(body)!
    }
}
