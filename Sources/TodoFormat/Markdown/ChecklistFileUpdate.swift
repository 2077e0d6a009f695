import Foundation

/// Writing one checklist file into another that exists (`todofmt convert a.md b.md`): an
/// update of `b.md` with the list of `a.md`, which keeps `b.md`'s text around its items.
///
/// The files are compared byte for byte first: where they are the same at the start and at
/// the end, they hold the same items, so only the part between (widened to whole sections:
/// from just after a top-level heading to just after another) is read from `a.md`, parsed
/// and written into `b.md`. A million-item checklist with one item changed is so updated
/// without holding `a.md` or its list in memory.
enum ChecklistFileUpdate {
    /// The text `existing` becomes with the list of the checklist `source` written in, as
    /// the pieces to write: nil when it stays as it is.
    static func update(_ existing: Input, with source: Input) throws -> TodoDocumentEdit? {
        let text = try existing.text()
        let reader = try ByteReader(source)
        defer { reader.close() }
        // The bytes the two files share at the start and at the end: the same files, nothing to do.
        let shared = try text.withBytes { try reader.sharedEnds(with: $0) }
        if shared.prefix == text.utf8.count && reader.count == text.utf8.count { return nil }
        let document = try TodoDocument(parsing: text, path: existing.name)
        return try document.text.withBytes { old -> TodoDocumentEdit? in
            // A text that does not end a line, other front matter, or a byte order mark (which
            // the first line's lines would take along when they move): the whole list is
            // written in.
            guard old.last == 10, shared.prefix >= document.bodyStart, reader.count > 0,
                ByteOrderMark.length(in: old) == 0
            else {
                return try wholeList(of: source, into: document)
            }
            let delta = reader.count - old.count
            // From after the last top-level heading in the shared start, to after the first
            // top-level heading in the shared end (there the parse of both texts starts afresh).
            let start = document.headings.last { $0.end <= shared.prefix }?.end ?? document.bodyStart
            let closing = document.headings.first { $0.start >= old.count - shared.suffix && $0.end >= start }
            let end = closing?.end ?? old.count
            let region = try reader.read(start..<(end + delta), name: source.name)
            let firstLine = ByteScan.count(of: 10, in: old[..<start]) + 1
            let section = document.section(before: start)
            // The source's items there; the heading that closes the region must still be one.
            let parsed = TodoDocument.parse(
                region, from: 0, to: nil, firstLine: firstLine, nameLinesBase: 0, startsFile: start == 0)
            if let closing,
                parsed.headings.last.map({ $0.start != closing.start + delta - start || $0.end != region.utf8.count })
                    ?? true
            {
                return try wholeList(of: source, into: document)
            }
            let new = TodoDocument(fragment: region, path: source.name, parsed: parsed, section: section)
                .alignmentEntries()
            let items = document.records.firstIndex { $0.lineStart >= start } ?? document.records.count
            let itemsEnd = document.records[items...].firstIndex { $0.lineStart >= end } ?? document.records.count
            guard let splice = try document.splice(new[...], over: items..<itemsEnd, within: start..<end) else {
                return nil
            }
            // Check the region as written: it reads as the source's items, and the closing heading stays one.
            var written = Array(old[start..<splice.range.lowerBound])
            written.append(contentsOf: splice.bytes)
            written.append(contentsOf: old[splice.range.upperBound..<end])
            let check = String(decoding: written, as: UTF8.self)
            let checked = TodoDocument.parse(
                check, from: 0, to: nil, firstLine: firstLine, nameLinesBase: 0, startsFile: start == 0)
            if closing != nil, checked.headings.last?.end != written.count {
                return try wholeList(of: source, into: document)
            }
            try TodoDocument(fragment: check, path: existing.name, parsed: checked, section: section).verify(
                reads: new[...], from: 0, section: section)
            return TodoDocumentEdit(document: document, replacing: splice.range, with: splice.bytes)
        }
    }

    /// The edit that writes the whole list of `source` into the document.
    private static func wholeList(of source: Input, into document: TodoDocument) throws -> TodoDocumentEdit? {
        let list = try MarkdownSource(text: source.text(), path: source.name).list()
        var updated = document
        try updated.update(with: list)
        if updated.text == document.text { return nil }
        return TodoDocumentEdit(text: updated.text)
    }
}

/// A change of a checklist's text: a range of it replaced, or a new text.
struct TodoDocumentEdit {
    private let document: TodoDocument?
    private let range: Range<Int>
    private let bytes: [UInt8]
    private let text: String?

    init(document: TodoDocument, replacing range: Range<Int>, with bytes: [UInt8]) {
        self.document = document
        self.range = range
        self.bytes = bytes
        text = nil
    }

    init(text: String) {
        document = nil
        range = 0..<0
        bytes = []
        self.text = text
    }

    /// Writes the changed text to `sink`, a megabyte at a time.
    func write(to sink: inout ByteSink) {
        if let text {
            text.withBytes { Self.write($0[...], to: &sink) }
            return
        }
        guard let document else { return }
        document.text.withBytes { old in
            Self.write(old[..<range.lowerBound], to: &sink)
            sink.write(bytes: bytes)
            Self.write(old[range.upperBound...], to: &sink)
        }
    }

    private static func write(_ bytes: Slice<UnsafeBufferPointer<UInt8>>, to sink: inout ByteSink) {
        var start = bytes.startIndex
        while start < bytes.endIndex {
            let end = min(bytes.endIndex, start + (1 << 20))
            sink.write(UnsafeBufferPointer(rebasing: bytes[start..<end]))
            start = end
        }
    }
}

/// An input read in pieces: its size, the bytes of a range, the bytes it shares with another
/// text at its start and end.
struct ByteReader {
    private let bytes: [UInt8]?
    private let descriptor: Int32
    let count: Int
    private let name: String

    init(_ input: Input) throws {
        name = input.name
        guard let path = input.path, path != "-" else {
            let all = try input.bytes()
            bytes = all
            descriptor = -1
            count = all.count
            return
        }
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw ConversionError.io(path: path, reason: String(cString: strerror(errno))) }
        var info = stat()
        guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
            _ = Foundation.close(fd)
            let all = try input.bytes()
            bytes = all
            descriptor = -1
            count = all.count
            return
        }
        bytes = nil
        descriptor = fd
        count = Int(info.st_size)
    }

    /// Closes the file when the reader goes (it is used within one call).
    func close() { if descriptor >= 0 { _ = Foundation.close(descriptor) } }

    /// The bytes of `range`.
    func readBytes(_ range: Range<Int>) throws -> [UInt8] {
        if let bytes { return Array(bytes[range]) }
        var failure: Int32 = 0
        let read = [UInt8](unsafeUninitializedCapacity: range.count) { buffer, n in
            n = 0
            while n < range.count {
                let got = pread(descriptor, buffer.baseAddress! + n, range.count - n, off_t(range.lowerBound + n))
                if got < 0 && errno == EINTR { continue }
                if got < 0 { failure = errno }
                if got <= 0 { break }
                n += got
            }
        }
        if failure != 0 { throw ConversionError.io(path: name, reason: String(cString: strerror(failure))) }
        if read.count != range.count {
            throw ConversionError.io(path: name, reason: "the file changed while it was read")
        }
        return read
    }

    /// The text of `range`: UTF-8, checked.
    func read(_ range: Range<Int>, name: String) throws -> String {
        try UTF8Validation.decode(readBytes(range), path: name)
    }

    /// How many bytes at the start and at the end this input shares with `other` (the end
    /// not reaching into the start).
    func sharedEnds(with other: UnsafeBufferPointer<UInt8>) throws -> (prefix: Int, suffix: Int) {
        let block = 1 << 20
        var prefix = 0
        let limit = min(count, other.count)
        while prefix < limit {
            let chunk = try readBytes(prefix..<min(limit, prefix + block))
            var i = 0
            let same = chunk.withUnsafeBufferPointer { mine in
                memcmp(mine.baseAddress!, other.baseAddress! + prefix, mine.count) == 0
            }
            if same {
                prefix += chunk.count
                continue
            }
            while i < chunk.count && chunk[i] == other[prefix + i] { i += 1 }
            prefix += i
            break
        }
        var suffix = 0
        let suffixLimit = limit - prefix
        while suffix < suffixLimit {
            let length = min(block, suffixLimit - suffix)
            let chunk = try readBytes((count - suffix - length)..<(count - suffix))
            var i = 0
            while i < length && chunk[length - 1 - i] == other[other.count - 1 - suffix - i] { i += 1 }
            suffix += i
            if i < length { break }
        }
        return (prefix, suffix)
    }
}
