import Foundation

/// A task item where it stands in a checklist's text, kept small (48 bytes) so that a
/// document of a million items stays near the size of its text. Offsets other than
/// `lineStart` count from `lineStart`, so an edit before an item moves only `lineStart`.
struct ItemRecord: Sendable {
    /// Byte offset of the line that holds the list marker.
    var lineStart: Int
    /// 1-based line of the list marker.
    var line: UInt32
    /// The depth (low 24 bits) and the flags (high 8 bits).
    private var depthAndFlags: UInt32
    /// Offset of the list marker.
    var marker: UInt32
    /// Offset of `[`.
    var box: UInt32
    /// Offset of the name's first character (where it would be: after the box's white space
    /// when there is no name).
    var nameStart: UInt32
    /// Offset just past the name's last line's content (before trailing white space and the
    /// line ending).
    var nameEnd: UInt32
    /// Offset just past the end of the item's list item: its last line that is not blank, with
    /// its line ending. Its nested items and any other text inside it lie before.
    var extent: UInt32
    /// The status character's scalar value.
    var statusValue: UInt32
    /// Index of the item's ``NameLines`` when its name has more than one line, else -1.
    var more: Int32

    private static let ordered: UInt32 = 1 << 24
    private static let inBlockQuote: UInt32 = 1 << 25
    private static let afterOtherText: UInt32 = 1 << 26

    init(_ parsed: ParsedItem, lineStart: Int, more: Int32) {
        self.lineStart = lineStart
        line = UInt32(truncatingIfNeeded: parsed.line)
        var flags: UInt32 = 0
        if parsed.isOrdered { flags |= Self.ordered }
        if parsed.inBlockQuote { flags |= Self.inBlockQuote }
        if parsed.startsAfterOtherText { flags |= Self.afterOtherText }
        depthAndFlags = UInt32(min(parsed.depth, 0xFF_FFFF)) | flags
        let base = parsed.lineStart
        marker = UInt32(parsed.markerStart - base)
        box = UInt32(parsed.boxStart - base)
        nameStart = UInt32(parsed.firstNameLine.lowerBound - base)
        nameEnd = UInt32(parsed.nameEnd - base)
        extent = nameEnd
        switch parsed.status {
        case .open: statusValue = 32
        case .done: statusValue = UInt32(UInt8(ascii: "x"))
        case .custom(let scalar): statusValue = scalar.value
        }
        self.more = more
    }

    /// Number of task items around the item.
    var depth: Int { Int(depthAndFlags & 0xFF_FFFF) }
    var isOrdered: Bool { depthAndFlags & Self.ordered != 0 }
    var inBlockQuote: Bool { depthAndFlags & Self.inBlockQuote != 0 }
    var startsAfterOtherText: Bool { depthAndFlags & Self.afterOtherText != 0 }

    var status: TodoStatus {
        switch statusValue {
        case 32: .open
        case 0x78, 0x58: .done
        default: .custom(Unicode.Scalar(statusValue) ?? "?")
        }
    }

    /// Absolute offsets.
    var markerStart: Int { lineStart + Int(marker) }
    var boxStart: Int { lineStart + Int(box) }
    /// Just past the status character.
    var statusEnd: Int { boxStart + 1 + (Unicode.Scalar(statusValue).map { String($0).utf8.count } ?? 1) }
    var nameStartOffset: Int { lineStart + Int(nameStart) }
    var nameEndOffset: Int { lineStart + Int(nameEnd) }
    var extentEnd: Int { lineStart + Int(extent) }

    /// Whether `other` (in `otherBytes`) is this item's line as it is in `bytes`: the same
    /// bytes up to the end of its name, the same offsets and flags in them, and a name of
    /// one line. Both then read as the same item (its section aside).
    func sameLine(as other: ItemRecord, in bytes: UnsafeBufferPointer<UInt8>, _ otherBytes: UnsafeBufferPointer<UInt8>)
        -> Bool
    {
        guard depthAndFlags == other.depthAndFlags, marker == other.marker, box == other.box,
            nameStart == other.nameStart, nameEnd == other.nameEnd, statusValue == other.statusValue, more < 0,
            other.more < 0
        else { return false }
        return memcmp(bytes.baseAddress! + lineStart, otherBytes.baseAddress! + other.lineStart, Int(nameEnd)) == 0
    }

    /// The item as the parser found it, to read its name and fields.
    func parsed(nameLines: NameLines?) -> ParsedItem {
        var firstLine = nameStartOffset..<nameEndOffset
        var more: [Range<Int>] = []
        var lastLine = Int(line)
        if let nameLines {
            firstLine = nameStartOffset..<(lineStart + Int(nameLines.firstEnd))
            more = nameLines.lines.map { (lineStart + Int($0.lowerBound))..<(lineStart + Int($0.upperBound)) }
            lastLine += Int(nameLines.lastLineDelta)
        }
        return ParsedItem(
            line: Int(line), lineStart: lineStart, markerStart: markerStart, boxStart: boxStart, statusEnd: statusEnd,
            status: status, depth: depth, isOrdered: isOrdered, firstNameLine: firstLine, moreNameLines: more,
            nameEnd: nameEndOffset, lastLine: lastLine, inBlockQuote: inBlockQuote,
            startsAfterOtherText: startsAfterOtherText)
    }
}

/// The lines of a name that has more than one, relative to its item's `lineStart`.
struct NameLines: Sendable {
    /// End of the first line's content.
    var firstEnd: UInt32
    /// Lines from the marker's to the last name line.
    var lastLineDelta: UInt32
    /// The content of each further line.
    var lines: [Range<UInt32>]
}

/// A heading at the top of the document's blocks: it names the section of the items below.
struct HeadingRecord: Sendable {
    /// 1-based line of its first line.
    var line: Int
    /// Byte offsets: its first line's start, and just past its last line's line ending.
    var start: Int
    var end: Int
    var level: Int
    /// Its text; empty for an empty heading, which ends a section without naming one.
    var text: String
}

/// A run of top-level list items from line `first` to line `last`; `canonical` when it
/// holds nothing but task items and their names.
struct ListBlock: Sendable {
    var first: Int
    var last: Int
    var canonical: Bool
}

/// A problem `check` reports, whose message may name another line as `{line}`.
struct NearMiss: Sendable {
    var line: Int
    var column: Int
    var message: String
    var relatedLine: Int?

    func problem(path: String) -> TodoDocument.Problem {
        var text = message
        if let relatedLine { text = text.replacingOccurrences(of: "{line}", with: String(relatedLine)) }
        return TodoDocument.Problem(
            location: SourceLocation(file: path, line: line, column: column), severity: .warning, message: text)
    }

    func shifted(lines delta: Int) -> NearMiss {
        var miss = self
        miss.line += delta
        if let related = relatedLine { miss.relatedLine = related + delta }
        return miss
    }
}

/// Collects what a document needs from the parser: each item where it stands, the
/// top-level headings and list blocks, and what `check` reports. It may see a span of the
/// text (from `offset`); what it keeps counts from the start of the whole text.
struct DocumentBuilder: BlockSink {
    /// The span parsed; the parser's offsets count from its start.
    let bytes: UnsafeBufferPointer<UInt8>
    let offset: Int
    var records: [ItemRecord] = []
    var nameLines: [NameLines] = []
    /// The index the first name lines found get in the document's table.
    let nameLinesBase: Int
    var headings: [HeadingRecord] = []
    var listBlocks: [ListBlock] = []
    var nearMisses: [NearMiss] = []
    var taskLikeLines: [(itemLine: Int, hasCheckedBox: Bool)] = []
    /// Items reported and not yet ended, innermost last.
    private var open: [Int] = []

    init(bytes: UnsafeBufferPointer<UInt8>, offset: Int, nameLinesBase: Int = 0) {
        self.bytes = bytes
        self.offset = offset
        self.nameLinesBase = nameLinesBase
        // Room for an item on every line: the records never grow by copying, and room not
        // filled costs no memory. (Grown by doubling, they took up to twice their size at a
        // million items, and both buffers while they were copied.)
        records.reserveCapacity(ByteScan.count(of: 10, in: bytes) + 1)
    }

    mutating func item(_ parsed: ParsedItem) {
        var more: Int32 = -1
        if !parsed.moreNameLines.isEmpty {
            let base = parsed.lineStart
            more = Int32(nameLinesBase + nameLines.count)
            nameLines.append(
                NameLines(
                    firstEnd: UInt32(parsed.firstNameLine.upperBound - base),
                    lastLineDelta: UInt32(parsed.lastLine - parsed.line),
                    lines: parsed.moreNameLines.map { UInt32($0.lowerBound - base)..<UInt32($0.upperBound - base) }))
        }
        var record = ItemRecord(parsed, lineStart: parsed.lineStart + offset, more: more)
        record.extent = UInt32(lineEnd(after: parsed.nameEnd) - parsed.lineStart)
        records.append(record)
        open.append(records.count - 1)
    }

    mutating func itemEnded(before: Int) {
        guard let index = open.popLast() else { return }
        // The item's list item ends with its last line that is not blank.
        var end = before
        while end > 0, case let b = bytes[end - 1], b == 32 || b == 9 || b == 10 || b == 13 { end -= 1 }
        let start = records[index].lineStart - offset
        let ownEnd = start + Int(records[index].extent)
        records[index].extent = UInt32(max(ownEnd, lineEnd(after: end)) - start)
    }

    /// The offset just past the line ending of the line that holds `i` (the end of the span
    /// when that line has none).
    private func lineEnd(after i: Int) -> Int {
        var j = i
        while j < bytes.count && bytes[j] != 10 { j += 1 }
        return j < bytes.count ? j + 1 : j
    }

    mutating func heading(text: String, level: Int, line: Int, start: Int, end: Int) {
        headings.append(
            HeadingRecord(
                line: line, start: start + offset, end: lineEnd(after: end) + offset, level: level, text: text))
    }

    mutating func listBlock(firstLine: Int, lastLine: Int, canonicalizable: Bool) {
        listBlocks.append(ListBlock(first: firstLine, last: lastLine, canonical: canonicalizable))
    }

    mutating func taskLikeText(line: Int, column: Int, itemLine: Int, hasCheckedBox: Bool) {
        taskLikeLines.append((itemLine, hasCheckedBox))
        nearMiss(
            line: line, column: column,
            message: "this line reads like a task item but continues the text of the item on line {line}; "
                + "indent it less or add a blank line before it",
            relatedLine: itemLine)
    }

    mutating func nearMiss(line: Int, column: Int, message: String, relatedLine: Int?) {
        nearMisses.append(NearMiss(line: line, column: column, message: message, relatedLine: relatedLine))
    }
}
