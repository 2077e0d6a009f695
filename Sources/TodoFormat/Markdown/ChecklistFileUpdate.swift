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
    /// the pieces to write: nil when it stays as it is. Where the two differ only in boxes,
    /// each changed box is written in place (`boxSplices`). A test turns off `boxes` (the
    /// items are then read and compared), `pieces` (the changed part is then aligned and
    /// spliced whole) and `inPlace` (a `ChecklistSplice` writes every changed item) to compare.
    ///
    /// With `sameShape`, the update throws `Declined` unless the source holds the file's items
    /// at the same depths under the same headings with the same names, with the same text
    /// before the items and a last line ending, and no two items of the part that changes
    /// have one name (`sameShape` tells for the whole list, a light read for boxes changed):
    /// `MarkdownFormat.update(_:options:streaming:)`, whose source is a new checklist's text,
    /// writes only then the text the list's own update writes.
    static func update(
        _ existing: Input, with source: Input, boxes: Bool = true, pieces: Bool = true, inPlace: Bool = true,
        sameShape namesAreDistinct: (() -> Bool)? = nil
    ) throws -> TodoDocumentEdit? {
        let sameShape = namesAreDistinct != nil
        if boxes, let splices = try boxSplices(existing, source, sameShape: sameShape) {
            return splices.isEmpty ? nil : TodoDocumentEdit(input: existing, replacing: splices)
        }
        let text = try existing.text()
        let reader = try ByteReader(source)
        defer { reader.close() }
        // The bytes the two files share at the start and at the end: the same files, nothing to do.
        let shared = try text.withBytes { try reader.sharedEnds(with: $0) }
        if shared.prefix == text.utf8.count && reader.count == text.utf8.count { return nil }
        let document = try TodoDocument(parsing: text, path: existing.name)
        // (Any other way, the whole list's names must differ.)
        if let namesAreDistinct, !namesAreDistinct() { throw Declined() }
        let options = Options(boxes: boxes, pieces: pieces, inPlace: inPlace, sameShape: sameShape)
        let outcome = try document.text.withBytes { old -> Outcome in
            // Front matter of the source's own: its body goes in under the file's front matter
            // (the source read with that in place of its own), and the front matter is then
            // the source's metadata's, as the whole list's update writes it.
            // The same front matter, where the file's blank lines after it are not the
            // source's: the source's body goes in under the file's front matter and its blank
            // lines (below), the front matter as it is.
            // (The file's blank lines after its front matter come along where the source's
            // body opens with text, a new checklist's heading: blank lines there mean nothing,
            // and the whole list's update keeps the file's. The text before the first item, a
            // blank line short, had left a list from JSON to that update.)
            let blankEnd = Self.blankLinesEnd(from: document.bodyStart, in: old)
            let sameFront =
                try document.bodyStart > 0 && shared.prefix >= document.bodyStart && old.last == 10
                && blankEnd > document.bodyStart && Self.opensWithText(reader, at: document.bodyStart)
                ? (metadata: document.metadata, bodyStart: document.bodyStart) : nil
            if let front = try sameFront
                ?? frontMatter(of: reader, apartFrom: document, old, shared: shared, name: source.name)
            {
                let kept =
                    try sameFront != nil || Self.opensWithText(reader, at: front.bodyStart)
                    ? blankEnd : document.bodyStart
                let body = try reader.replacingHead(front.bodyStart, with: Array(old[..<kept]))
                let shared = try body.sharedEnds(with: old)
                var splices: [Splice] = []
                if shared.prefix != old.count || body.count != old.count {
                    switch try update(document, old, with: body, shared: shared, name: source.name, options) {
                    case .whole: return .whole
                    case .splices(let made): splices = made
                    }
                }
                if front.metadata != document.metadata {
                    // Front matter taken away, where the body then opens with a block that
                    // reads as front matter: the whole list's update says what it can do.
                    if front.metadata.isEmpty
                        && FrontMatter.read(UnsafeBufferPointer(rebasing: old[document.bodyStart...]), file: "")
                            .bodyStart > 0
                    {
                        return .whole
                    }
                    let block =
                        front.metadata.isEmpty
                        ? [] : Array(try FrontMatter.render(front.metadata, lineEnding: document.lineEnding).utf8)
                    splices.insert((0..<document.bodyStart, block), at: 0)
                }
                return .splices(splices)
            }
            return try update(document, old, with: reader, shared: shared, name: source.name, options)
        }
        switch outcome {
        case .whole:
            if sameShape { throw Declined() }
            return try wholeList(of: source, into: document)
        case .splices(let splices):
            return splices.isEmpty ? nil : TodoDocumentEdit(document: document, replacing: splices)
        }
    }

    /// What `update(_:with:…)` takes from its caller.
    private struct Options {
        var boxes, pieces, inPlace, sameShape: Bool
    }

    /// What an update of the document's items comes to: splices (none: nothing changed), or
    /// the whole list to write in.
    private enum Outcome {
        case splices([Splice])
        case whole
    }

    /// The source's front matter, where it is not the file's (other bytes, or the file has
    /// none and the source opens with a fence): its metadata and where its body starts (after
    /// a byte order mark, where it has no front matter). Nil where the front matter is the same, or where the update
    /// goes another way anyway: a file that does not end a line or has a byte order mark, an
    /// empty source, a source whose front matter is not UTF-8 or does not close in its
    /// first MiB.
    private static func frontMatter(
        of reader: ByteReader, apartFrom document: TodoDocument, _ old: UnsafeBufferPointer<UInt8>,
        shared: (prefix: Int, suffix: Int), name: String
    ) throws -> (metadata: [Field], bodyStart: Int)? {
        guard old.last == 10, reader.count > 0, ByteOrderMark.length(in: old) == 0,
            shared.prefix < document.bodyStart || document.bodyStart == 0
        else { return nil }
        let opens = try opensWithFence(reader)
        guard shared.prefix < document.bodyStart || opens else { return nil }
        // No front matter: none for the list. (A byte order mark before the source's first
        // line, which the file has not, leaves it to the whole list's update: the errors
        // of that line count it as a column.)
        guard opens else {
            return ByteOrderMark.length(in: try reader.readBytes(0..<min(reader.count, 3))) == 0 ? ([], 0) : nil
        }
        let head = try reader.readBytes(0..<min(reader.count, 1 << 20))
        return head.withUnsafeBufferPointer { head -> (metadata: [Field], bodyStart: Int)? in
            guard let located = FrontMatter.locate(in: head),
                UTF8Validation.isValid(UnsafeBufferPointer(rebasing: head[..<located.bodyStart]))
            else { return nil }
            let front = FrontMatter.read(head, file: name)
            return (front.metadata, front.bodyStart)
        }
    }

    /// Where the blank lines (nothing but spaces and tabs) from `start`, a line's start, end.
    static func blankLinesEnd(from start: Int, in text: UnsafeBufferPointer<UInt8>) -> Int {
        var end = start
        var at = start
        while at < text.count {
            let byte = text[at]
            if byte == 10 {
                end = at + 1
            } else if byte != 32 && byte != 9 && byte != 13 {
                break
            }
            at += 1
        }
        return end
    }

    /// Whether the source's line at `offset` opens with a character that is not white space.
    private static func opensWithText(_ reader: ByteReader, at offset: Int) throws -> Bool {
        let byte = try reader.readBytes(offset..<min(reader.count, offset + 1)).first
        return byte.map { $0 != 10 && $0 != 13 && $0 != 32 && $0 != 9 } ?? false
    }

    /// Whether the source opens (after a byte order mark) with `---`, as front matter does.
    private static func opensWithFence(_ reader: ByteReader) throws -> Bool {
        let head = try reader.readBytes(0..<min(reader.count, 6))
        return head.dropFirst(ByteOrderMark.length(in: head)).starts(with: "---".utf8)
    }

    /// `update(_:with:…)` of the parsed `document` (whose text is `old`) with the source that
    /// `reader` reads (named `name`), which shares `shared` with it at its ends and differs.
    private static func update(
        _ document: TodoDocument, _ old: UnsafeBufferPointer<UInt8>, with reader: ByteReader,
        shared: (prefix: Int, suffix: Int), name: String, _ options: Options
    ) throws -> Outcome {
        let sameShape = options.sameShape
        if options.boxes && reader.count == old.count,
            let splices = try boxSplices(document, old, reader, within: shared.prefix..<(old.count - shared.suffix))
        {
            return .splices(splices)
        }
        // A text that does not end a line, other front matter, or a byte order mark (which
        // the first line's lines would take along when they move): the whole list is
        // written in.
        guard old.last == 10, shared.prefix >= document.bodyStart, reader.count > 0,
            ByteOrderMark.length(in: old) == 0
        else { return .whole }
        let delta = reader.count - old.count
        // From after the last top-level heading in the shared start, to after the first
        // top-level heading in the shared end (there the parse of both texts starts afresh).
        let start = document.headings.last { $0.end <= shared.prefix }?.end ?? document.bodyStart
        let closing = document.headings.first { $0.start >= old.count - shared.suffix && $0.end >= start }
        let end = closing?.end ?? old.count
        // Front matter the file has not (the part then starts at the top): the source's
        // metadata, which a read of the part would take for a thematic break and text.
        if start == 0, try opensWithFence(reader) { return .whole }
        // (The files are the same up to `start`: its line is the source's too.)
        let firstLine = ByteScan.count(of: 10, in: old[..<start]) + 1
        let region = try reader.read(start..<(end + delta), name: name, firstLine: firstLine)
        let section = document.section(before: start)
        // The source's items there; the heading that closes the region must still be one.
        let parsed = TodoDocument.parse(
            region, from: 0, to: nil, firstLine: firstLine, nameLinesBase: 0, startsFile: start == 0)
        if let closing,
            parsed.headings.last.map({ $0.start != closing.start + delta - start || $0.end != region.utf8.count })
                ?? true
        {
            return .whole
        }
        let fragment = TodoDocument(fragment: region, path: name, parsed: parsed, section: section)
        let items = document.records.firstIndex { $0.lineStart >= start } ?? document.records.count
        let itemsEnd = document.records[items...].firstIndex { $0.lineStart >= end } ?? document.records.count
        if sameShape
            && (document.shape(of: items..<itemsEnd, in: start..<end)
                != fragment.shape(of: fragment.records.indices, in: 0..<region.utf8.count)
                || document.headings(in: start..<end).map(\.text) != fragment.headings.map(\.text))
        {
            throw Declined()
        }
        let splices: [Splice]
        if options.pieces,
            let pieces = try Self.pieces(
                of: document, old, items: items..<itemsEnd, region: start..<end, fragment: fragment,
                inPlace: options.inPlace, sameNames: sameShape)
        {
            splices = pieces
        } else if sameShape {
            // (Aligned whole, the part pairs items as the whole list's update may not: by
            // content across its headings, and with its bounds where that has none.)
            throw Declined()
        } else if let splice = try document.splice(
            fragment.alignmentEntries()[...], over: items..<itemsEnd, within: start..<end, inPlace: options.inPlace)
        {
            splices = [splice]
        } else {
            splices = []
        }
        if splices.isEmpty { return .splices([]) }
        let count = (end - start) + splices.reduce(0) { $0 + $1.bytes.count - $1.range.count }
        // Written as the source's bytes (boxes checked in many places, in the source's
        // spelling): the region as written is the source's, which reads as its items.
        // (Its parse again, to check, was a sixth of such an update.)
        if count == region.utf8.count,
            region.withBytes({ source in
                var at = 0
                return Self.walk(splices, over: start..<end, of: old) { piece in
                    defer { at += piece.count }
                    return ByteScan.same(piece, UnsafeBufferPointer(rebasing: source[at..<(at + piece.count)]))
                }
            })
        {
            return .splices(splices)
        }
        // Check the region as written: it reads as the source's items, and the closing heading stays one.
        // (Made as a string at once: an array of the bytes first was another copy of the
        // region, 48 MB for a million items.)
        let check = String(unsafeUninitializedCapacity: count) { buffer in
            var at = 0
            _ = Self.walk(splices, over: start..<end, of: old) { piece in
                if let base = piece.baseAddress {
                    (buffer.baseAddress! + at).update(from: base, count: piece.count)
                }
                at += piece.count
                return true
            }
            return at
        }
        let checked = TodoDocument.parse(
            check, from: 0, to: nil, firstLine: firstLine, nameLinesBase: 0, startsFile: start == 0)
        if closing != nil, checked.headings.last?.end != count { return .whole }
        try TodoDocument(fragment: check, path: document.path, parsed: checked, section: section).verify(
            readsAs: fragment, section: section)
        return .splices(splices)
    }

    /// The splices that give the checklist `existing` the boxes of `source`, where the two are
    /// as long and differ only in the status characters of boxes that a read of `existing`
    /// alone finds before its items' names (`ChangedBoxes`): each item whose status changed
    /// gets its new status's character, as `boxSplices(_:_:_:within:)` gives it. None for the
    /// same bytes; nil otherwise, or where `existing` does not read (the update that follows
    /// says why). With `sameShape`, `source` is a new checklist's text (`MarkdownFormat`'s
    /// streamed update): `existing` is then read only as far as its last changed box (below).
    ///
    /// Parsing the whole document for its items' boxes was a third of writing a checklist
    /// with one box changed into a million-item file.
    private static func boxSplices(_ existing: Input, _ source: Input, sameShape: Bool) throws -> [Splice]? {
        try existing.withBytes { old -> [Splice]? in
            guard
                let (offsets, statuses) = try source.withBytes({ new in
                    old.count == new.count ? ChangedBoxes.differingStatuses(old, new) : nil
                })
            else { return nil }
            // The same bytes: nothing to write, once the file is text (else the update that
            // follows says where it is not). With `sameShape` (below), the bytes past the
            // front matter are a new checklist's, which is text. (Checking them was a tenth of
            // writing a million items from JSON into the checklist they came from.)
            guard !offsets.isEmpty else {
                let checked = sameShape ? (FrontMatter.locate(in: old)?.bodyStart ?? 0) : old.count
                return UTF8Validation.isValid(UnsafeBufferPointer(rebasing: old[..<checked])) ? [] : nil
            }
            var picker = BoxPicker(offsets: offsets, text: old, keepingItems: false, notingNames: sameShape)
            // With `sameShape`, the source is a new checklist's text (`MarkdownWriter`'s, under
            // the file's front matter), which reads back as the items written: past the last
            // box that differs the file is those bytes, so its read stops once every box is
            // claimed; any other file is read to its end. The read checks the UTF-8 of what
            // it reads. (Reading on to the end was a fifth of writing a list with one box
            // changed into the million-item checklist it came from, where the box stood
            // halfway.)
            guard
                (try? MarkdownSource.streamUntil(
                    bytes: old, path: existing.name, plainNamesInto: &picker,
                    done: { sameShape && $0.claimed == offsets.count })) != nil,
                picker.claimed == offsets.count
            else { return nil }
            // The list's own update aligns the items from the first changed to the last: no
            // two of them may have one name.
            if sameShape && !picker.names.allDistinct { throw Declined() }
            var splices: [Splice] = []
            for (p, byte) in zip(offsets, statuses) {
                // (A box's status is one ASCII character.)
                if let now = TaskBox.status(of: byte), now != TaskBox.status(of: old[p]) {
                    splices.append((p..<(p + 1), [UInt8(truncatingIfNeeded: now.marker.value)]))
                }
            }
            return splices
        }
    }

    /// The splices that give the items of `document` (whose text is `old`) the boxes of the
    /// source read by `reader`, where the two texts differ only in boxes: the bytes of
    /// `range` (where they differ) are the same but for the status characters of items, and
    /// each such character of the source is one a box holds (`TaskBox.status(of:)`). The
    /// source then has the same items, in the same places, with their boxes changed; each
    /// item whose status changed gets its new status's character, as a rewrite of its status
    /// alone writes it (`TodoDocument.rewrite`). Nil otherwise.
    ///
    /// A checklist with every tenth box checked is so written without reading its items
    /// from the source (1.1 s and 300 MB for a million items, aligned a stretch at a time).
    static func boxSplices(
        _ document: TodoDocument, _ old: UnsafeBufferPointer<UInt8>, _ reader: ByteReader, within range: Range<Int>
    ) throws -> [Splice]? {
        let records = document.records
        var record = 0
        var splices: [Splice] = []
        var at = range.lowerBound
        while at < range.upperBound {
            let block = at..<min(range.upperBound, at + (1 << 20))
            let new = try reader.readBytes(block)
            let same = new.withUnsafeBufferPointer { new -> Bool in
                ByteScan.forEachDifference(UnsafeBufferPointer(rebasing: old[block]), new) { i in
                    let p = block.lowerBound + i
                    while record < records.count && records[record].boxStart + 1 < p { record += 1 }
                    guard record < records.count, records[record].boxStart + 1 == p,
                        let was = TaskBox.status(of: old[p]), let now = TaskBox.status(of: new[i])
                    else { return false }
                    // (A box's status is one ASCII character.)
                    if now != was { splices.append((p..<(p + 1), [UInt8(truncatingIfNeeded: now.marker.value)])) }
                    return true
                }
            }
            guard same else { return nil }
            at = block.upperBound
        }
        return splices
    }

    /// Thrown by `update(_:with:…sameShape:)` where the source's items are not the file's
    /// in shape.
    struct Declined: Error {}

    /// A range of the text and the bytes that replace it.
    typealias Splice = (range: Range<Int>, bytes: [UInt8])

    /// The bytes `range` of `old` with `splices` (in order, within it) made, a piece at a
    /// time in order to `body` (the bytes between the splices, and each splice's), until it
    /// says false; false where it did.
    static func walk(
        _ splices: [Splice], over range: Range<Int>, of old: UnsafeBufferPointer<UInt8>,
        _ body: (UnsafeBufferPointer<UInt8>) -> Bool
    ) -> Bool {
        var copied = range.lowerBound
        for splice in splices {
            guard body(UnsafeBufferPointer(rebasing: old[copied..<splice.range.lowerBound])),
                splice.bytes.withUnsafeBufferPointer(body)
            else { return false }
            copied = splice.range.upperBound
        }
        return body(UnsafeBufferPointer(rebasing: old[copied..<range.upperBound]))
    }

    /// The splices that write the items `new` (read from `fragment`) in place of the
    /// document's `items` (whole top-level items filling the bytes `region`, which `fragment`
    /// replaces), a stretch of changed items at a time (`ListPieces`): a checklist edited in
    /// many places (every tenth box checked) no longer has all its items aligned at once.
    /// Top-level items are compared with their bytes up to the next top-level item. Nil where
    /// the region is not so split: too few items, text before the first item changed, other
    /// sections, a stretch with headings added or removed (the items after it would change
    /// sections), an unchanged item moved, or an item's name on the file's side of one
    /// stretch and on the source's of another (which the whole region's alignment pairs
    /// across stretches); with `sameNames`, also where an item of a piece has another name
    /// on the other side.
    private static func pieces(
        of document: TodoDocument, _ old: UnsafeBufferPointer<UInt8>, items: Range<Int>, region: Range<Int>,
        fragment: TodoDocument, inPlace: Bool, sameNames: Bool = false
    ) throws -> [Splice]? {
        let oldTops = items.filter { document.records[$0].depth == 0 }
        let newTops = fragment.records.indices.filter { fragment.records[$0].depth == 0 }
        guard oldTops.count > ListPieces.splitAbove, !newTops.isEmpty else { return nil }
        return try fragment.text.withBytes { text -> [Splice]? in
            // Where each top-level item's bytes start, and where the last one's end.
            let oldStarts = oldTops.map { document.records[$0].lineStart } + [region.upperBound]
            let newStarts = newTops.map { fragment.records[$0].lineStart } + [text.count]
            guard oldStarts[0] - region.lowerBound == newStarts[0],
                memcmp(old.baseAddress! + region.lowerBound, text.baseAddress!, newStarts[0]) == 0,
                let pieces = ListPieces.split(
                    oldCount: oldTops.count, newCount: newTops.count,
                    old: { UnsafeBufferPointer(rebasing: old[oldStarts[$0]..<oldStarts[$0 + 1]]) },
                    new: { UnsafeBufferPointer(rebasing: text[newStarts[$0]..<newStarts[$0 + 1]]) })
            else { return nil }
            // The same sections, in order.
            guard document.headings(in: region).map(\.text) == fragment.headings.map(\.text) else { return nil }
            // Each piece's items: places in the document's records and among `new`.
            let ranges = pieces.map { piece in
                (
                    old: oldTops[
                        piece.old.lowerBound]..<(piece.old.upperBound < oldTops.count
                        ? oldTops[piece.old.upperBound] : items.upperBound),
                    new: newTops[
                        piece.new.lowerBound]..<(piece.new.upperBound < newTops.count
                        ? newTops[piece.new.upperBound] : fragment.records.count)
                )
            }
            // The pieces' new items (only theirs are read).
            let new = ranges.map { range in
                range.new.map {
                    ItemAlignment.Entry(fragment.item(at: $0, bytes: text), depth: fragment.records[$0].depth)
                }
            }
            // The pieces' old items, read once: for their names, and for their splices.
            let read = ranges.map { range in range.old.map { document.item(at: $0, bytes: old) } }
            var names: [ListPieces.Name] = []
            names.reserveCapacity(read.reduce(0) { $0 + $1.count } + new.reduce(0) { $0 + $1.count })
            for (k, piece) in pieces.enumerated() {
                // As many headings on both sides, so that the items after it have their sections.
                if document.headings(in: oldStarts[piece.old.lowerBound]..<oldStarts[piece.old.upperBound]).count
                    != fragment.headings(in: newStarts[piece.new.lowerBound]..<newStarts[piece.new.upperBound]).count
                {
                    return nil
                }
                for item in read[k] {
                    names.append(ListPieces.Name(piece: k, isNew: false, name: item.nameStorage))
                }
                for entry in new[k] {
                    names.append(ListPieces.Name(piece: k, isNew: true, name: entry.item.nameStorage))
                }
            }
            if ListPieces.namesCross(names) { return nil }
            // With `sameNames`, each piece's items keep their names, in their places.
            if sameNames {
                for (old, new) in zip(read, new) {
                    guard old.count == new.count,
                        zip(old, new).allSatisfy({ $0.nameStorage.sameBytes(as: $1.item.nameStorage) })
                    else { return nil }
                }
            }
            var splices: [Splice] = []
            for (k, (range, new)) in zip(ranges, new).enumerated() {
                guard
                    let splice = try document.splice(
                        new[...], over: range.old, within: region, inPlace: inPlace, read: read[k])
                else { continue }
                // (Pieces stand apart: an unchanged item lies between any two.)
                guard splice.range.lowerBound >= (splices.last?.range.upperBound ?? region.lowerBound) else {
                    return nil
                }
                splices.append(splice)
            }
            return splices
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

/// A change of a checklist's text: ranges of it replaced, or a new text.
struct TodoDocumentEdit {
    /// The text changed: a document's, or a file's.
    private enum Base {
        case document(TodoDocument)
        case input(Input)
        case text(String)
    }
    private let base: Base
    /// The ranges replaced, in order and apart, with their new bytes.
    private let splices: [ChecklistFileUpdate.Splice]

    init(document: TodoDocument, replacing splices: [ChecklistFileUpdate.Splice]) {
        base = .document(document)
        self.splices = splices
    }

    /// The text of `input` with `splices` made (it is read again to write them).
    init(input: Input, replacing splices: [ChecklistFileUpdate.Splice]) {
        base = .input(input)
        self.splices = splices
    }

    init(text: String) {
        base = .text(text)
        splices = []
    }

    /// Writes the changed text to `sink` (which writes large pieces a block at a time).
    func write(to sink: inout ByteSink) throws {
        func write(_ old: UnsafeBufferPointer<UInt8>) {
            _ = ChecklistFileUpdate.walk(splices, over: 0..<old.count, of: old) {
                sink.write($0)
                return true
            }
        }
        switch base {
        case .document(let document): document.text.withBytes(write)
        case .input(let input): try input.withBytes(write)
        case .text(let text): text.withBytes { sink.write($0) }
        }
    }
}

/// An input read in pieces: its size, the bytes of a range, the bytes it shares with another
/// text at its start and end.
struct ByteReader {
    private let bytes: [UInt8]?
    private let descriptor: Int32
    private(set) var count: Int
    private let name: String
    /// Bytes read in place of the input's first `skipped` (`replacingHead`), and how many
    /// more lines those had than these.
    private var head: [UInt8] = []
    private var skipped = 0
    private var lineShift = 0

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

    /// Closes the file when the reader goes (it is used within one call; a reader made by
    /// `replacingHead` is closed with the one it was made from).
    func close() { if descriptor >= 0 { _ = Foundation.close(descriptor) } }

    /// A reader of this input with its first `length` bytes read as `newHead`. The lines
    /// its errors name are still the input's.
    func replacingHead(_ length: Int, with newHead: [UInt8]) throws -> ByteReader {
        var reader = self
        reader.head = newHead
        reader.skipped = length
        reader.count = count - length + newHead.count
        func lines(_ bytes: [UInt8]) -> Int { bytes.withUnsafeBufferPointer { ByteScan.count(of: 10, in: $0) } }
        reader.lineShift = lines(try readBytes(0..<length)) - lines(newHead)
        return reader
    }

    /// The bytes of `range`.
    func readBytes(_ range: Range<Int>) throws -> [UInt8] {
        try [UInt8](unsafeUninitializedCapacity: range.count) { buffer, n in n = try readAll(range, into: buffer) }
    }

    /// Reads the bytes of `range` into `buffer`; returns how many (all of them, or this throws).
    private func readAll(_ range: Range<Int>, into buffer: UnsafeMutableBufferPointer<UInt8>) throws -> Int {
        var n = 0
        if range.lowerBound < head.count {
            n = min(range.upperBound, head.count) - range.lowerBound
            _ = UnsafeMutableBufferPointer(rebasing: buffer[..<n]).initialize(
                from: head[range.lowerBound..<(range.lowerBound + n)])
        }
        guard n < range.count else { return n }
        let shift = skipped - head.count
        return try n
            + readInput(
                (range.lowerBound + n + shift)..<(range.upperBound + shift),
                into: UnsafeMutableBufferPointer(rebasing: buffer[n...]))
    }

    /// Reads the input's bytes of `range` into `buffer`; returns how many (all of them, or this throws).
    private func readInput(_ range: Range<Int>, into buffer: UnsafeMutableBufferPointer<UInt8>) throws -> Int {
        if let bytes {
            _ = buffer.initialize(from: bytes[range])
            return range.count
        }
        var n = 0
        while n < range.count {
            let got = pread(descriptor, buffer.baseAddress! + n, range.count - n, off_t(range.lowerBound + n))
            if got < 0 && errno == EINTR { continue }
            if got < 0 { throw ConversionError.io(path: name, reason: String(cString: strerror(errno))) }
            if got == 0 { throw ConversionError.io(path: name, reason: "the file changed while it was read") }
            n += got
        }
        return n
    }

    /// The text of `range`, which starts a line, line `firstLine` of the input: UTF-8,
    /// checked (an error says the input's line). Read into the string itself
    /// (`UTF8Validation.text`): bytes read first, then made a string, were a copy of a
    /// checklist in memory beside it.
    func read(_ range: Range<Int>, name: String, firstLine: Int = 1) throws -> String {
        try UTF8Validation.text(
            count: range.count, path: name, firstLine: firstLine + lineShift, fill: { try readAll(range, into: $0) },
            again: { try readBytes(range) })
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

extension TodoDocument {
    /// The items `items` (whole top-level items filling `region`) and the headings among them,
    /// in order: each item as its depth, each heading as -1.
    fileprivate func shape(of items: Range<Int>, in region: Range<Int>) -> [Int] {
        let headings = headings(in: region)
        var shape: [Int] = []
        shape.reserveCapacity(items.count + headings.count)
        var heading = headings.startIndex
        for k in items {
            while heading < headings.endIndex && headings[heading].start < records[k].lineStart {
                shape.append(-1)
                heading += 1
            }
            shape.append(records[k].depth)
        }
        shape.append(contentsOf: repeatElement(-1, count: headings.endIndex - heading))
        return shape
    }
}
