extension DocumentFormat {
    /// A Markdown checklist (`.md`, `.markdown`).
    public static let markdown = DocumentFormat(rawValue: "md")
}

/// Markdown checklists, todofmt's own format (FORMAT.md, sections 1 to 6 and 10).
struct MarkdownFormat: ListFormat {
    var id: DocumentFormat { .markdown }
    var aliases: [String] { ["markdown"] }
    /// `.md` and `.markdown`, and the other names Markdown files go by (a `.mkd` file whose
    /// bullets read as YAML keys was taken for a YAML list: helper hunt 104).
    var extensions: [String] { ["md", "markdown", "mdown", "mdwn", "mkd", "mkdn", "mkdown"] }

    /// A task line in the first 200 lines after any front matter (whose `key:` lines read as
    /// YAML's: front matter of 200 lines had a checklist without a name's extension read
    /// as YAML, helper hunt 104); otherwise Markdown is what text falls back to.
    func recognition(of head: UnsafeBufferPointer<UInt8>) -> Recognition {
        let body = UnsafeBufferPointer(rebasing: head[(FrontMatter.locate(in: head)?.bodyStart ?? 0)...])
        for line in HeadLines(body, limit: 200) where Self.isTaskLine(line.drop { $0 == " " || $0 == "\t" }) {
            return .likely
        }
        return .fallback
    }

    func read<S: ItemSink>(_ input: Input, options: ListOptions, into sink: inout S) throws {
        try MarkdownSource(text: input.text(), path: input.name).stream(into: &sink)
    }

    /// Reads the list, and returns the warning a conversion into `target` gives for the
    /// checklist's text that is not items (prose, headings that name no section, code),
    /// which only a checklist can hold; nil when there is none.
    func read<S: ItemSink>(
        _ input: Input, options: ListOptions, into sink: inout S, leavingOutTextFor target: DocumentFormat
    ) throws -> ConversionWarning? {
        let unlisted = try MarkdownSource(text: input.text(), path: input.name).stream(into: &sink)
        return target == .markdown ? nil : unlisted.warning(leftOutBy: Self.place(in: target))
    }

    /// `read(_:options:into:leavingOutTextFor:)` into a writer of a new file. A writer that
    /// takes plain names as bytes (JSON) gets them straight from the file's bytes, which are
    /// checked to be UTF-8 once and never made a string.
    func read<W: ListWriter>(
        _ input: Input, options: ListOptions, into writer: inout W, leavingOutTextFor target: DocumentFormat
    ) throws -> ConversionWarning? {
        let unlisted =
            writer.takesPlainNames
            ? try read(input, plainNamesInto: &writer)
            : try MarkdownSource(text: input.text(), path: input.name).stream(into: &writer)
        return target == .markdown ? nil : unlisted.warning(leftOutBy: Self.place(in: target))
    }

    func read<S: PlainItemSink>(_ input: Input, options: ListOptions, plainNamesInto sink: inout S) throws {
        _ = try read(input, plainNamesInto: &sink)
    }

    /// Reads the list into a sink that takes plain names as bytes, straight from the file's
    /// bytes, which are checked to be UTF-8 once and never made a string. Returns the text
    /// that is not items.
    func read<S: PlainItemSink>(_ input: Input, plainNamesInto sink: inout S) throws -> UnlistedText {
        try input.withBytes { try Self.read($0, name: input.name, plainNamesInto: &sink) }
    }

    /// `read(_:plainNamesInto:)` of a checklist whose bytes are `bytes`, named `name` in errors.
    static func read<S: PlainItemSink>(
        _ bytes: UnsafeBufferPointer<UInt8>, name: String, plainNamesInto sink: inout S
    ) throws -> UnlistedText {
        if !UTF8Validation.isValid(bytes) {
            _ = try UTF8Validation.decode(Array(bytes), path: name)
        }
        return try MarkdownSource.stream(bytes: bytes, path: name, plainNamesInto: &sink)
    }

    /// Reads the items from the top-level item whose line starts at `offset`, in the section
    /// `section` (`MarkdownSource.stream(bytes:path:from:section:plainNamesInto:)`).
    func read<S: PlainItemSink>(_ input: Input, from offset: Int, section: String?, plainNamesInto sink: inout S)
        throws
    {
        try input.withBytes { buffer in
            let rest = UnsafeBufferPointer(rebasing: buffer[offset...])
            if !UTF8Validation.isValid(rest) {
                _ = try UTF8Validation.decode(Array(buffer), path: input.name)
            }
            try MarkdownSource.stream(
                bytes: buffer, path: input.name, from: offset, section: section, plainNamesInto: &sink)
        }
    }

    /// How a warning names a format that has no place for a checklist's text.
    static func place(in format: DocumentFormat) -> String {
        switch format.rawValue {
        case "json": "plain JSON"
        case "yaml": "a YAML list"
        case "plist", "bplist": "a property list"
        case "sqlite": "a database table"
        case "sql": "an SQL dump"
        default: "a \(format.rawValue) file"
        }
    }

    func writer(to output: Output, options: ListOptions) throws -> any ListWriter {
        MarkdownWriter(into: output.makeSink(), outputName: output.name)
    }

    /// Writes the list into the checklist, changing only what changed (FORMAT.md section 6):
    /// prose, headings and every line of an item that stays are kept byte for byte.
    func update(_ existing: Input, with list: TodoList, options: ListOptions) throws -> PendingWrite {
        var document = try TodoDocument(parsing: existing.text(), path: existing.name)
        let before = document.text
        var list = list
        // Dates that came back as strings (from JSON) are dates again where the file has them.
        if options.datesAreText {
            let dateKeys = document.text.withBytes { DateKeys(in: $0) }
            if !dateKeys.isEmpty { list.items = list.items.map(dateKeys.dated) }
        }
        // A list without metadata leaves the file's front matter as it is, as an existing YAML
        // file keeps its metadata document: every format but these two has no place for it,
        // and a checklist's title went when its list came back from JSON.
        if list.metadata.isEmpty { list.metadata = document.metadata }
        try document.update(with: list)
        // What a checklist cannot hold, as a new checklist's write warns of it (hunt 96: an
        // item without a section after one with one, which reads back under that one, went
        // in without a word, and `--strict` let it). The metadata aside: the update wrote it.
        var items = list
        items.metadata = []
        var writer = MarkdownWriter(into: ByteSink(discarding: ()), outputName: existing.name)
        try items.send(to: &writer)
        let losses = try writer.finish().warnings
        var pending = try Self.pendingWrite(
            of: document.text == before ? nil : TodoDocumentEdit(text: document.text), to: existing)
        pending.warnings += losses
        return pending
    }

    /// Writes the list of the checklist `source` into the checklist `existing`: an update like
    /// the one above, which reads and compares only the part of `source` that differs.
    func update(_ existing: Input, withChecklist source: Input) throws -> PendingWrite {
        try Self.pendingWrite(of: ChecklistFileUpdate.update(existing, with: source), to: existing)
    }

    /// `update(_:with:options:)` for a list that a reader hands to `read` as it reads it (from
    /// JSON, a property list, YAML, SQL): the list is written as a new checklist in memory,
    /// and that checklist into `existing` as a checklist is (`update(_:withChecklist:)`),
    /// which reads only the part of it that differs. Building the list and aligning it
    /// with every item of the file took four times a new file's write, and nine times the
    /// input's memory, for a million items that had not changed. Nil, with the list read,
    /// where the new checklist would not hold the list as it is (a writer's warning: a
    /// section under a nested item, one a heading cannot hold): the caller then builds the
    /// list and calls `update(_:with:options:)`, which says so in its own way. What the
    /// reader left out (keys beside the list) comes with the write.
    func update(
        _ existing: Input, options: ListOptions, streaming read: (inout any ListWriter) throws -> Void
    ) throws -> PendingWrite? {
        guard let edit = try Self.edit(of: existing, datesAreText: options.datesAreText, streaming: read) else {
            return nil
        }
        var pending = try Self.pendingWrite(of: edit.edit, to: existing)
        pending.warnings += edit.leftOut
        return pending
    }

    /// The edit of `existing` that `update(_:options:streaming:)` writes, and the warnings of
    /// what the reader left out; nil where the list goes the other way (above), or where two
    /// of its items have one name: the list's own update pairs such items by their content
    /// (an item checked where its namesake was unchecked takes that one's lines), a
    /// checklist's by their places.
    static func edit(
        of existing: Input, datesAreText: Bool = false, streaming read: (inout any ListWriter) throws -> Void
    ) throws -> (
        edit: TodoDocumentEdit?, leftOut: [ConversionWarning]
    )? {
        // Room for a text the file's size and an eighth (unfilled room costs no memory): the
        // text grown by copying took 0.02 s of the 0.79 s of a million-item update.
        var sink = ByteSink()
        sink.reserveCapacity(((try? existing.withBytes { $0.count }) ?? 0) * 9 / 8 + 4096)
        let (level, frontMatter, dateKeys) = try existing.withBytes { bytes in
            // The front matter with the blank lines after it: a checklist written back as it
            // was is then the file's bytes, found the same at once (without them, the file
            // was parsed to find the two texts the same but for those lines).
            let front = FrontMatter.read(bytes, file: existing.name)
            var kept: [UInt8] = []
            if front.bodyStart > 0 {
                let end = ChecklistFileUpdate.blankLinesEnd(from: front.bodyStart, in: bytes)
                kept = Array(bytes[ByteOrderMark.length(in: bytes)..<end])
            }
            return (Self.sectionHeadingLevel(in: bytes), kept, datesAreText ? DateKeys(in: bytes) : DateKeys())
        }
        var checklistWriter = MarkdownWriter(
            into: sink, outputName: existing.name, headingLevel: level, frontMatterOrNone: frontMatter)
        checklistWriter.dateKeys = dateKeys
        var writer: any ListWriter = DepthLimitedWriter(base: checklistWriter, keysFields: false)
        try read(&writer)
        let written = try writer.finish()
        guard written.warnings.allSatisfy({ $0.kind == .besideList }) else { return nil }
        let checklist = Input(bytes: written.bytes, name: existing.name)
        // The list's names, read back from the new checklist where an update needs them
        // (noted as the list came, a million names were a tenth of an update that then
        // found the file as it was).
        let namesAreDistinct = {
            var collector = NameCollector()
            let read = try? written.bytes.withUnsafeBufferPointer {
                try MarkdownFormat.read($0, name: existing.name, plainNamesInto: &collector)
            }
            return read != nil && collector.names.allDistinct
        }
        do {
            return (
                try ChecklistFileUpdate.update(existing, with: checklist, sameShape: namesAreDistinct),
                written.warnings
            )
        } catch is ChecklistFileUpdate.Declined {
            return nil
        }
    }

    /// The write of an edit of `existing` (nil: it stays as it is).
    private static func pendingWrite(of edit: TodoDocumentEdit?, to existing: Input) throws -> PendingWrite {
        guard let edit else { return .unchanged([]) }
        guard let path = existing.path else {
            throw ConversionError.unsupported("\(existing.name): only a file can be written into")
        }
        let output = try Output.file(path)
        do {
            var sink = output.makeSink()
            try edit.write(to: &sink)
            _ = try sink.finish(path: output.name)
            return PendingWrite(warnings: [], commit: output.commit, discard: output.discard)
        } catch {
            output.discard()
            throw error
        }
    }

    /// The level of the file's section headings, for a new checklist of a list written into it
    /// to have its headings' bytes (`## Backlog`, where it would write `# Backlog`): that of
    /// the last heading before the first task line of the file's first thousand lines (front
    /// matter aside), else of the first heading there; 1 where there is none. A guess from
    /// lines alone (a `#` line inside code counts), which decides only whether the update
    /// finds the two texts' headings the same bytes: where they are not, it goes the whole
    /// list's way, as it did before. (Each heading of another level had made every section
    /// a difference: a million items from JSON into the checklist they came from took 12 s.)
    static func sectionHeadingLevel(in text: UnsafeBufferPointer<UInt8>) -> Int {
        let head = UnsafeBufferPointer(rebasing: text.prefix(1 << 20))
        let body = FrontMatter.locate(in: head)?.bodyStart ?? 0
        var level: Int? = nil
        var sawTask = false
        for line in HeadLines(UnsafeBufferPointer(rebasing: head[body...]), limit: 1000) {
            let hashes = line.prefix { $0 == "#" }.count
            if (1...6).contains(hashes), line.dropFirst(hashes).first == " " {
                if sawTask { return level ?? hashes }
                level = hashes
            } else if !sawTask && Self.isTaskLine(line.drop { $0 == " " || $0 == "\t" }) {
                if let level { return level }
                sawTask = true
            }
        }
        return level ?? 1
    }

    /// A line that starts like a task item: a list marker, white space, `[c]` and white space.
    private static func isTaskLine(_ line: Substring) -> Bool {
        var rest = line
        if let first = rest.first, "-*+".contains(first) {
            rest = rest.dropFirst()
        } else {
            let digits = rest.prefix { $0.isASCII && $0.isNumber }
            guard !digits.isEmpty else { return false }
            rest = rest.dropFirst(digits.count)
            guard let d = rest.first, d == "." || d == ")" else { return false }
            rest = rest.dropFirst()
        }
        guard rest.first == " " || rest.first == "\t" else { return false }
        rest = rest.drop { $0 == " " || $0 == "\t" }
        let chars = Array(rest.prefix(4))
        return chars.count >= 4 && chars[0] == "[" && chars[2] == "]" && (chars[3] == " " || chars[3] == "\t")
    }
}

/// A writer that adds warnings to another's (what reading found the output has no place for).
struct WarningAddingWriter: ListWriter {
    var base: any ListWriter
    let warnings: [ConversionWarning]

    mutating func begin(metadata: [Field]) throws { try base.begin(metadata: metadata) }
    mutating func item(_ item: TodoItem, depth: Int) throws { try base.item(item, depth: depth) }
    var takesPlainNames: Bool { base.takesPlainNames }

    mutating func item(plainName: UnsafeBufferPointer<UInt8>, status: TodoStatus, section: String?, depth: Int) throws {
        try base.item(plainName: plainName, status: status, section: section, depth: depth)
    }

    mutating func items(plain: ArraySlice<PlainItem>, text: UnsafeBufferPointer<UInt8>, sections: [String]) throws {
        try base.items(plain: plain, text: text, sections: sections)
    }

    mutating func item(
        plainName: UnsafeBufferPointer<UInt8>, fields: [Field], status: TodoStatus, section: String?, depth: Int
    ) throws {
        try base.item(plainName: plainName, fields: fields, status: status, section: section, depth: depth)
    }

    mutating func end() throws { try base.end() }

    mutating func finish() throws -> Written {
        var written = try base.finish()
        written.warnings += warnings
        return written
    }
}

/// The names of a checklist's items, as a read hands them on (`DistinctNames`).
private struct NameCollector: PlainItemSink {
    var names = DistinctNames()

    mutating func begin(metadata: [Field]) {}

    mutating func item(_ item: TodoItem, depth: Int) {
        var name = item.nameStorage
        name.withUTF8 { _ = names.insert($0) }
    }

    mutating func item(
        plainName: UnsafeBufferPointer<UInt8>, fields: [Field], status: TodoStatus, section: String?, depth: Int
    ) {
        names.insert(plainName)
    }

    mutating func items(plain: ArraySlice<PlainItem>, text: UnsafeBufferPointer<UInt8>, sections: [String]) {
        for item in plain where names.allDistinct {
            names.insert(UnsafeBufferPointer(rebasing: text[item.nameStart..<item.nameEnd]))
        }
    }

    mutating func end() {}
}
