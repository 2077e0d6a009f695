import Foundation

/// Where a checklist's canonical form goes, piece by piece in order: memory (a `ByteSink`),
/// a comparison with the text (`TextComparison`), or a file written only when it differs.
protocol CanonicalOutput {
    mutating func write(_ bytes: UnsafeBufferPointer<UInt8>)
    /// Whether what is written after now can change nothing (a comparison found a
    /// difference): then the parser stops.
    var isDecided: Bool { get }
}

extension CanonicalOutput {
    var isDecided: Bool { false }
}

extension ByteSink: CanonicalOutput {}

/// Writes a checklist in canonical form (FORMAT.md section 10) as the parser reports it: every
/// top-level list made only of task items is rewritten with `- [ ]` markers and two spaces a
/// level; everything else is copied as it is.
///
/// It is the one implementation of the canonical form: `fmt` parses a file into it (no item
/// is kept, so a checklist of a million items needs little more memory than its text), and
/// ``TodoDocument/canonicalMarkdown()`` hands it the items and list blocks a document holds.
/// Each item is written as it arrives; one whose lines already read that way is kept as the
/// range of its bytes in the text, and such ranges join, so that formatting a canonical file
/// copies (or compares) its text in a few large pieces.
struct CanonicalFormWriter<Output: CanonicalOutput>: BlockSink {
    /// The whole text, and the bytes the parser reads (`text` from `offset` on): the offsets
    /// of the items it reports count from their start.
    private let text: UnsafeBufferPointer<UInt8>
    private let bytes: UnsafeBufferPointer<UInt8>
    private let offset: Int
    private let lineEnding: String
    private(set) var output: Output
    /// The text before this offset is in the output (or was replaced there).
    private var copied = 0
    /// A line whose start is known, to find later lines from (list blocks come in order).
    private var known = (line: 1, offset: 0)

    /// The items' lines since the last list block that is not yet written: each a range of
    /// the text or of `rendered`.
    private var pieces: [(range: Range<Int>, isRendered: Bool)] = []
    private var rendered = ByteSink()
    /// The pieces before this index belong to list blocks already reported.
    private var reportedPieces = 0

    /// A top-level list of task items that is to be rewritten or not.
    private struct Candidate {
        var first: Int
        var last: Int
        /// Its bytes in the text: from its first line's start (after a byte order mark) to
        /// the end of its last line.
        var start: Int
        var end: Int
        /// Its items' lines among `pieces`.
        var pieces: Range<Int>
        /// The first line after it that is not blank, and whether it is indented.
        var next: (line: Int, indented: Bool)?
    }

    /// Lists whose rewriting waits on the list on the line after them: each is followed by an
    /// indented line, which would join the last item of a rewritten list unless that line is
    /// the first of a list rewritten too (and so at the margin).
    private var waiting: [Candidate] = []
    /// The first line that is not blank after the last list rewritten, if any was.
    private var afterLastRewritten: Int? = nil

    /// A writer of the canonical form of `text` into `output`; the parser reads `text` from
    /// `offset` on (after the front matter).
    init(text: UnsafeBufferPointer<UInt8>, parsedFrom offset: Int, lineEnding: String, into output: Output) {
        self.text = text
        self.offset = offset
        bytes = UnsafeBufferPointer(rebasing: text[offset...])
        self.lineEnding = lineEnding
        self.output = output
    }

    mutating func item(_ parsed: ParsedItem) {
        // Items in a block quote are in no top-level list.
        guard !parsed.inBlockQuote else { return }
        let mark = rendered.byteCount
        // A name written as it is (`NameSyntax.isWrittenAsIs`) has no fields, escapes or
        // references: it is the item's name as `ItemText.verbatimName` reads it.
        if parsed.moreNameLines.isEmpty,
            case let name = parsed.firstNameLine,
            MarkdownWriter.writeLine(
                plainName: UnsafeBufferPointer(rebasing: bytes[name]), status: parsed.status, depth: parsed.depth,
                lineEnding: lineEnding, to: &rendered)
        {
            // Written without making the item.
        } else {
            MarkdownWriter.writeLine(
                of: ItemText.item(of: parsed, section: nil, in: nil, bytes: bytes), depth: parsed.depth,
                lineEnding: lineEnding, to: &rendered)
        }
        let count = rendered.byteCount - mark
        let start = offset + parsed.lineStart
        let same =
            start + count <= text.count
            && rendered.withBytes { memcmp($0.baseAddress! + mark, text.baseAddress! + start, count) == 0 }
        if same {
            rendered.truncate(to: mark)
            if pieces.count > reportedPieces, let last = pieces.last, !last.isRendered, last.range.upperBound == start {
                pieces[pieces.count - 1].range = last.range.lowerBound..<(start + count)
            } else {
                pieces.append((start..<(start + count), false))
            }
        } else if pieces.count > reportedPieces, let last = pieces.last, last.isRendered {
            pieces[pieces.count - 1].range = last.range.lowerBound..<(mark + count)
        } else {
            pieces.append((mark..<(mark + count), true))
        }
    }

    mutating func listBlock(firstLine: Int, lastLine: Int, canonicalizable: Bool) {
        // The lists that wait on the line this list starts on are rewritten with it, and only
        // when it is rewritten; with any other list after them, they stay as they are.
        let ownCount = pieces.count - reportedPieces
        if let waited = waiting.last?.next?.line, !(canonicalizable && waited == firstLine) {
            settle(rewrite: false)
        }
        let own = (pieces.count - ownCount)..<pieces.count
        reportedPieces = pieces.count
        guard canonicalizable else {
            pieces.removeSubrange(own)
            reportedPieces = pieces.count
            clearIfSettled()
            return
        }
        // The byte order mark before a list on the first line stays.
        let start = firstLine == 1 ? ByteOrderMark.length(in: text) : offset(ofLine: firstLine)
        let end = offset(ofLine: lastLine + 1)
        let next = Self.nextTextLine(from: end, line: lastLine + 1, in: text)
        waiting.append(
            Candidate(first: firstLine, last: lastLine, start: start, end: end, pieces: own, next: next))
        // Rewritten items take two spaces of content indentation, so an indented line after
        // a list could join its last item: such a list is left as it is.
        if next.map({ !$0.indented }) ?? true { settle(rewrite: true) }
    }

    /// After the parser's last report: the rest of the text.
    mutating func finish() {
        settle(rewrite: false)
        output.write(UnsafeBufferPointer(rebasing: text[copied...]))
    }

    /// Writes the waiting lists: rewritten, or (their text copied later) as they are.
    private mutating func settle(rewrite: Bool) {
        if rewrite {
            for list in waiting { write(list) }
        }
        waiting.removeAll(keepingCapacity: true)
        clearIfSettled()
    }

    private mutating func clearIfSettled() {
        guard waiting.isEmpty && reportedPieces == pieces.count else { return }
        pieces.removeAll(keepingCapacity: true)
        reportedPieces = 0
        rendered.truncate(to: 0)
    }

    /// Writes the text before the list and the list's items in canonical form.
    private mutating func write(_ list: Candidate) {
        // Two rewritten lists with only blank lines between them would read as one loose
        // list, which the next run would rewrite again: they become one list now.
        if afterLastRewritten == list.first { copied = list.start }
        output.write(UnsafeBufferPointer(rebasing: text[copied..<list.start]))
        // A list at the very end of a file without a final newline keeps it that way.
        let drop = list.end == text.count && text.last != 10 ? lineEnding.utf8.count : 0
        for k in list.pieces {
            var range = pieces[k].range
            if k == list.pieces.upperBound - 1 { range = range.lowerBound..<(range.upperBound - drop) }
            if pieces[k].isRendered {
                rendered.withBytes { output.write(UnsafeBufferPointer(rebasing: $0[range])) }
            } else {
                output.write(UnsafeBufferPointer(rebasing: text[range]))
            }
        }
        copied = list.end
        afterLastRewritten = list.next?.line
    }

    /// The byte offset where line `line` (from 1) starts, or the text's end; lines are asked
    /// for in order.
    private mutating func offset(ofLine line: Int) -> Int {
        guard let base = text.baseAddress else { return 0 }
        while known.line < line {
            guard known.offset < text.count, let newline = memchr(base + known.offset, 10, text.count - known.offset)
            else { return text.count }
            known = (known.line + 1, base.distance(to: newline.assumingMemoryBound(to: UInt8.self)) + 1)
        }
        return known.offset
    }

    /// The first line from line `line`, which starts at `start`, that is not blank (white space
    /// only), and whether it starts with white space.
    static func nextTextLine(
        from start: Int, line: Int, in text: UnsafeBufferPointer<UInt8>
    ) -> (line: Int, indented: Bool)? {
        guard let base = text.baseAddress else { return nil }
        var lineStart = start
        var number = line
        while lineStart < text.count {
            var i = lineStart
            while i < text.count && (text[i] == 32 || text[i] == 9) { i += 1 }
            if i < text.count && text[i] != 10 && text[i] != 13 { return (number, i > lineStart) }
            guard let newline = memchr(base + i, 10, text.count - i) else { return nil }
            lineStart = base.distance(to: newline.assumingMemoryBound(to: UInt8.self)) + 1
            number += 1
        }
        return nil
    }
}

/// Compares what is written with a text, up to the first difference: whether a checklist is
/// already in canonical form, without its canonical form in memory (and, when it is not,
/// without parsing further than the first difference written).
struct TextComparison: CanonicalOutput {
    let text: UnsafeBufferPointer<UInt8>
    /// What was written matches the text up to here.
    private(set) var position = 0
    /// What was written differs from the text after `position`.
    private(set) var differs = false

    init(_ text: UnsafeBufferPointer<UInt8>) {
        self.text = text
    }

    /// Whether what was written is the text.
    var isEqual: Bool { !differs && position == text.count }

    /// What is written is never taken back: a difference found stays.
    var isDecided: Bool { differs }

    mutating func write(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard !differs, let source = bytes.baseAddress else { return }
        let n = bytes.count
        // A piece copied from the text at the same place is equal without a look.
        guard position + n <= text.count,
            source == text.baseAddress! + position || memcmp(source, text.baseAddress! + position, n) == 0
        else {
            differs = true
            return
        }
        position += n
    }
}

/// Writes a file's new text beside it only when it differs from the text it has: up to the
/// first difference it only compares, then writes the equal part and goes on writing.
struct ChangedFileOutput: CanonicalOutput {
    private var comparison: TextComparison
    private let path: String
    private var file: (output: Output, sink: ByteSink)?
    /// Why the file could not be made, thrown by `commit()`.
    private var failure: Error?

    /// An output for the new text of the file at `path`, whose text is `text`.
    init(path: String, text: UnsafeBufferPointer<UInt8>) {
        comparison = TextComparison(text)
        self.path = path
    }

    mutating func write(_ bytes: UnsafeBufferPointer<UInt8>) {
        if file == nil {
            comparison.write(bytes)
            guard comparison.differs else { return }
            open()
        }
        file?.sink.write(bytes)
    }

    /// Starts the new file with the part of the text written so far.
    private mutating func open() {
        guard failure == nil else { return }
        do {
            let output = try Output.file(path)
            var sink = output.makeSink()
            sink.write(UnsafeBufferPointer(rebasing: comparison.text[..<comparison.position]))
            file = (output, sink)
        } catch {
            failure = error
        }
    }

    /// The new text, written and closed beside the file, to put in place; nil where it is
    /// the file's text.
    mutating func pending() throws -> PendingFormat? {
        if file == nil && !comparison.isEqual { open() }
        if let failure { throw failure }
        guard var file else { return nil }
        do {
            _ = try file.sink.finish(path: file.output.name)
        } catch {
            file.output.discard()
            throw error
        }
        try file.output.seal()
        return PendingFormat(output: file.output)
    }
}

/// A checklist's canonical form written beside it (`ChecklistFormatting.prepare(contentsOf:)`),
/// not yet in place: `commit()` renames it over the file, `discard()` removes it and leaves
/// the file as it was.
public struct PendingFormat {
    fileprivate let output: Output

    /// Puts the new text in place.
    public func commit() throws { try output.commitSealed() }

    /// Leaves the file as it was.
    public func discard() { output.discardSealed() }
}

/// `fmt`'s work: a checklist's canonical form (see ``TodoDocument/canonicalMarkdown()``) made
/// in one pass of the parser over its bytes, without a document or a list in memory, and
/// without making an item of a line that is already canonical.
public enum ChecklistFormatting {
    /// The canonical form of the checklist whose UTF-8 bytes are `bytes` (`path` names it in
    /// an error about a byte that is not UTF-8).
    public static func canonicalMarkdown(of bytes: [UInt8], path: String) throws -> String {
        try bytes.withUnsafeBufferPointer { text in
            try validate(bytes, text, path: path)
            var sink = ByteSink()
            sink.reserveCapacity(text.count)
            sink = write(text, into: sink)
            return sink.withBytes { String(decoding: $0, as: UTF8.self) }
        }
    }

    /// Whether the checklist whose UTF-8 bytes are `bytes` is in canonical form.
    public static func isCanonical(_ bytes: [UInt8], path: String) throws -> Bool {
        try bytes.withUnsafeBufferPointer { text in
            try validate(bytes, text, path: path)
            return write(text, into: TextComparison(text)).isEqual
        }
    }

    /// Whether the checklist file at `url` is in canonical form.
    public static func isCanonical(contentsOf url: URL) throws -> Bool {
        try isCanonical(InputFile.read(url.filePath), path: url.filePath)
    }

    /// Throws where `format(contentsOf:)` would before it writes: the file cannot be read,
    /// or is not UTF-8 (any text has a canonical form). Reads the file, parses nothing.
    public static func validate(contentsOf url: URL) throws {
        let path = url.filePath
        let bytes = try InputFile.read(path)
        try bytes.withUnsafeBufferPointer { try validate(bytes, $0, path: path) }
    }

    /// Rewrites the checklist file at `url` in canonical form, through a temporary file
    /// renamed into place, when it is not in canonical form; returns whether it did.
    @discardableResult
    public static func format(contentsOf url: URL) throws -> Bool {
        guard let pending = try prepare(contentsOf: url) else { return false }
        try pending.commit()
        return true
    }

    /// `format(contentsOf:)` in two steps, for a command that rewrites several files and
    /// leaves them all as they were where one fails: the canonical form written beside the
    /// file, to put in place or discard; nil where the file is in canonical form.
    public static func prepare(contentsOf url: URL) throws -> PendingFormat? {
        let path = url.filePath
        let bytes = try InputFile.read(path)
        return try bytes.withUnsafeBufferPointer { text in
            try validate(bytes, text, path: path)
            var output = write(text, into: ChangedFileOutput(path: path, text: text))
            return try output.pending()
        }
    }

    /// Throws at the first byte that is not UTF-8.
    private static func validate(_ bytes: [UInt8], _ text: UnsafeBufferPointer<UInt8>, path: String) throws {
        if !UTF8Validation.isValid(text) { _ = try UTF8Validation.decode(bytes, path: path) }
    }

    /// Parses the text, after its front matter, into a writer of its canonical form.
    private static func write<Output: CanonicalOutput>(_ text: UnsafeBufferPointer<UInt8>, into output: Output)
        -> Output
    {
        let front = FrontMatter.read(text, file: "")
        let body = UnsafeBufferPointer(rebasing: text[front.bodyStart...])
        // As a document parses its body: from the front matter's end, as a text of its own.
        var parser = BlockParser(
            text: body,
            sink: CanonicalFormWriter(
                text: text, parsedFrom: front.bodyStart, lineEnding: MarkdownSource.lineEnding(of: text),
                into: output),
            startsFile: front.bodyStart == 0)
        // `fmt --check` stops at the first difference it finds.
        var writer = parser.parse(from: 0, firstLine: front.firstBodyLine) { $0.output.isDecided }
        if !writer.output.isDecided { writer.finish() }
        return writer.output
    }
}
