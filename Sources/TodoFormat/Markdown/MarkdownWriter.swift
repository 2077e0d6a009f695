/// Writes a list as a new checklist in canonical form (FORMAT.md, section 10).
struct MarkdownWriter: ListWriter {
    private var sink: ByteSink
    private let outputName: String
    var lineEnding = "\n"
    private var wroteItem = false
    private var section: String? = nil
    /// Whether a heading was written: every top-level item after it reads back under one.
    private var heading = false
    private var positions = ItemPositions()
    private var warnings = WarningLog()
    /// What starts a heading's line: `#` and a space, or more `#`s for a deeper level.
    private let headingMarker: String

    /// Front matter as bytes, written where the list has no metadata.
    private let frontMatterOrNone: [UInt8]
    /// The keys whose date-time strings are written as dates (those of the checklist the
    /// list goes into).
    var dateKeys = DateKeys()

    /// A writer into `sink` (`outputName` names it in errors) whose headings are of `headingLevel`
    /// (1 to 6; a new checklist's are 1, an existing one's may be deeper). A list without
    /// metadata gets `frontMatterOrNone`: an existing checklist's own, which such a list
    /// leaves as it is.
    init(into sink: ByteSink, outputName: String, headingLevel: Int = 1, frontMatterOrNone: [UInt8] = []) {
        self.sink = sink
        self.outputName = outputName
        headingMarker = String(repeating: "#", count: min(max(headingLevel, 1), 6)) + " "
        self.frontMatterOrNone = frontMatterOrNone
    }

    mutating func begin(metadata: [Field]) throws {
        if !metadata.isEmpty {
            sink.write(try FrontMatter.render(metadata, lineEnding: lineEnding))
        } else if !frontMatterOrNone.isEmpty {
            frontMatterOrNone.withUnsafeBufferPointer { sink.write($0) }
        }
    }

    mutating func item(_ item: TodoItem, depth: Int) {
        var item = item
        if let fields = dateKeys.dated(item.fields) { item.fields = fields }
        positions.advance(depth: depth)
        if depth > 0 && item.section != nil {
            warnings.note(.fields, Self.nestedSection, item: ItemPositions.describe(positions.current, item))
        } else if depth == 0 && item.section == nil && heading {
            // A heading covers every item after it: this one reads back under it.
            warnings.note(.fields, Self.sectionless, item: ItemPositions.describe(positions.current, item))
        }
        // Sections compare by their bytes: one spelled as the last only by canonical
        // equivalence (a combining accent) is a heading of its own.
        if depth == 0 && (!item.section.sameBytes(as: section) || (!wroteItem && item.section != nil)) {
            if let heading = item.section {
                if !Self.headingHolds(heading) {
                    warnings.note(.fields, Self.changedSection, item: ItemPositions.describe(positions.current, item))
                }
                if wroteItem { sink.write(lineEnding) }
                sink.write(headingMarker)
                sink.write(heading.onOneLine)
                sink.write(lineEnding)
                self.heading = true
            }
            section = item.section
        }
        wroteItem = true
        Self.writeLine(of: item, depth: depth, lineEnding: lineEnding, to: &sink)
    }

    var takesPlainNames: Bool { true }

    mutating func item(plainName: UnsafeBufferPointer<UInt8>, status: TodoStatus, section: String?, depth: Int) {
        item(plainName: plainName, fields: [], status: status, section: section, depth: depth)
    }

    /// An item from its name's bytes: its line in one write when the name (and each field)
    /// is written as it is and the item starts no section and needs no warning; else the item
    /// is made and written as any item is.
    mutating func item(
        plainName: UnsafeBufferPointer<UInt8>, fields: [Field], status: TodoStatus, section: String?, depth: Int
    ) {
        let fields = dateKeys.dated(fields) ?? fields
        let section = depth == 0 ? section : nil
        let sameSection = depth > 0 || (section.sameBytes(as: self.section) && (section != nil ? wroteItem : !heading))
        if sameSection,
            fields.isEmpty
                ? Self.writeLine(plainName: plainName, status: status, depth: depth, lineEnding: lineEnding, to: &sink)
                : Self.writeLine(
                    plainName: plainName, fields: fields, status: status, depth: depth, lineEnding: lineEnding,
                    to: &sink)
        {
            positions.advance(depth: depth)
            wroteItem = true
            return
        }
        item(TodoItem(plainName: plainName, fields: fields, status: status, section: section), depth: depth)
    }

    mutating func end() {}

    mutating func finish() throws -> Written {
        Written(warnings: warnings.warnings, bytes: try sink.finish(path: outputName))
    }

    static let nestedSection =
        "a checklist has sections (headings) for top-level items only: nested items' sections were left out"
    static let changedSection =
        "a checklist's heading drops white space at its ends, line breaks and closing #s, and is no section when empty: "
        + "sections with them read back otherwise"

    /// Whether `# section` reads back as `section` (FORMAT.md, section 3.3): not empty, no
    /// white space at either end, no line break, and no `#`s at the end that a space (or
    /// nothing) comes before.
    static func headingHolds(_ section: String) -> Bool {
        let b = Array(section.utf8)
        guard let first = b.first, let last = b.last else { return false }
        if first == 32 || first == 9 || last == 32 || last == 9 { return false }
        if b.contains(where: { $0 == 10 || $0 == 13 }) { return false }
        var hashes = b.count
        while hashes > 0 && b[hashes - 1] == UInt8(ascii: "#") { hashes -= 1 }
        return hashes == b.count || (hashes > 0 && b[hashes - 1] != 32 && b[hashes - 1] != 9)
    }

    static let sectionless =
        "a checklist's heading covers the items after it: items without a section after one with a section read back under it"

    /// `- [c] name [fields]` with its indentation and line ending.
    static func writeLine(of item: TodoItem, depth: Int, lineEnding: String, to sink: inout ByteSink) {
        // Most names need no escaping: one scan of their bytes, one copy.
        if item.fields.isEmpty,
            item.nameStorage.utf8.withContiguousStorageIfAvailable({
                writeLine(plainName: $0, status: item.status, depth: depth, lineEnding: lineEnding, to: &sink)
            }) == true
        {
            return
        }
        // Most fields are words with numbers, truth values or plain text: the line in one write.
        if !item.fields.isEmpty,
            item.nameStorage.utf8.withContiguousStorageIfAvailable({
                writeLine(
                    plainName: $0, fields: item.fields, status: item.status, depth: depth, lineEnding: lineEnding,
                    to: &sink)
            }) == true
        {
            return
        }
        writeMarker(status: item.status, depth: depth, to: &sink)
        sink.write(
            FieldSyntax.render(
                name: item.nameStorage, fields: item.fields, continuation: Indentation.twoSpaces(depth + 1),
                lineEnding: lineEnding))
        sink.write(lineEnding)
    }

    /// `writeLine(of:depth:lineEnding:to:)` for an item without fields named `name`, when the
    /// name needs no escaping (`NameSyntax.isWrittenAsIs`): its bytes are the name as written,
    /// and no item need be made of them. Returns false, having written nothing, for another name.
    static func writeLine(
        plainName name: UnsafeBufferPointer<UInt8>, status: TodoStatus, depth: Int, lineEnding: String,
        to sink: inout ByteSink
    ) -> Bool {
        guard NameSyntax.isWrittenAsIs(name) else { return false }
        let crlf = lineEnding == "\r\n"
        guard crlf || lineEnding == "\n" else {
            writeMarker(status: status, depth: depth, to: &sink)
            sink.write(name)
            sink.write(lineEnding)
            return true
        }
        // The line in one write: each write has a cost of its own, more than the copying.
        sink.write(upTo: 2 * depth + 16 + name.count) { start in
            var pen = BytePen(at: start)
            pen.marker(status, depth: depth)
            pen.put(name)
            pen.put(crlf ? "\r\n" : "\n")
            return start.distance(to: pen.at)
        }
        return true
    }

    /// `writeLine(of:depth:lineEnding:to:)` for an item named `name` with fields, when the
    /// name is written as it is (`NameSyntax.isWrittenAsIs`) and every field is written as it
    /// is: a bare key (`FieldSyntax.isBareKey`) with an integer, a truth value, a date or a
    /// bare string. The bytes are `FieldSyntax.render`'s. Returns false, having written
    /// nothing, otherwise.
    static func writeLine(
        plainName name: UnsafeBufferPointer<UInt8>, fields: [Field], status: TodoStatus, depth: Int,
        lineEnding: String, to sink: inout ByteSink
    ) -> Bool {
        let crlf = lineEnding == "\r\n"
        guard crlf || lineEnding == "\n", !name.isEmpty, NameSyntax.isWrittenAsIs(name) else { return false }
        var room = 2 * depth + 16 + name.count
        for field in fields {
            guard FieldSyntax.isBareKey(field.key) else { return false }
            switch field.value {
            case .integer: room += 20
            case .bool: room += 5
            case .date: room += 40
            case .string(let text) where FieldSyntax.isBareString(text): room += text.utf8.count
            default: return false
            }
            room += field.key.utf8.count + 6
        }
        sink.write(upTo: room) { start in
            var pen = BytePen(at: start)
            pen.marker(status, depth: depth)
            pen.put(name)
            for field in fields {
                pen.put(" [")
                var key = field.key
                key.withUTF8 { pen.put($0) }
                pen.put(":: ")
                switch field.value {
                case .integer(let value): pen.decimal(value)
                case .bool(let value): value ? pen.put("true") : pen.put("false")
                case .date(let date): ISO8601.withText(date) { pen.put($0) }
                case .string(var text): text.withUTF8 { pen.put($0) }
                default: break
                }
                pen.put(byte: UInt8(ascii: "]"))
            }
            pen.put(crlf ? "\r\n" : "\n")
            return start.distance(to: pen.at)
        }
        return true
    }

    /// The indentation, the marker and the box with the white space after it.
    private static func writeMarker(status: TodoStatus, depth: Int, to sink: inout ByteSink) {
        // Byte by byte rather than through strings: fmt writes every item's line this way.
        sink.write(upTo: 2 * depth + 16) { start in
            var pen = BytePen(at: start)
            pen.marker(status, depth: depth)
            return start.distance(to: pen.at)
        }
    }
}

extension BytePen {
    /// A task line's indentation, list marker and box with the space after it: 16 bytes
    /// and two a level of room.
    @inline(__always)
    fileprivate mutating func marker(_ status: TodoStatus, depth: Int) {
        spaces(2 * depth)
        switch status {
        case .open: put("- [ ] ")
        case .done: put("- [x] ")
        case .custom(let scalar):
            put("- [")
            for b in scalar.utf8 { put(byte: b) }
            put("] ")
        }
    }
}
