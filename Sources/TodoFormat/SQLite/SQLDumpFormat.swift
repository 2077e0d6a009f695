import Foundation

extension DocumentFormat {
    /// SQL text as `sqlite3 DB .dump` writes it (`.sql`).
    public static let sql = DocumentFormat(rawValue: "sql")
}

/// SQL dumps (FORMAT.md, section 7.8): loaded into a database in memory behind an
/// authorizer, then read as a database; written as `sqlite3 DB .dump` writes one.
struct SQLDumpFormat: ListFormat {
    /// Whether a dump laid out as todofmt writes one is read from its text (`OwnDumpText`)
    /// rather than run; tests turn it off to compare.
    var readsText = true

    var id: DocumentFormat { .sql }
    var aliases: [String] { ["dump"] }
    var keepsDatesAsText: Bool { true }
    var extensions: [String] { ["sql"] }

    /// The first statement of a dump: `PRAGMA`, `BEGIN`, `CREATE` or `INSERT`, ending in `;`
    /// on its line or a later one (of the first 50), after any comments (`--`, `/* */`)
    /// and indentation.
    func recognition(of head: UnsafeBufferPointer<UInt8>) -> Recognition {
        var inComment = false
        var inStatement = false
        for line in HeadLines(head, limit: 50) {
            var rest = line[...]
            if inStatement {
                if rest.contains(";") { return .likely }
                continue
            }
            while true {
                if inComment {
                    guard let close = rest.firstRange(of: "*/") else {
                        rest = ""
                        break
                    }
                    rest = rest[close.upperBound...]
                    inComment = false
                }
                rest = rest.drop { $0 == " " || $0 == "\t" }
                guard rest.hasPrefix("/*") else { break }
                inComment = true
                rest = rest.dropFirst(2)
            }
            let first = rest.prefix { $0 != " " && $0 != "\t" && $0 != ";" && $0 != "(" }.uppercased()
            guard !first.isEmpty, !first.hasPrefix("--") else { continue }
            guard ["PRAGMA", "BEGIN", "CREATE", "INSERT"].contains(first) else { return .no }
            if rest.contains(";") { return .likely }
            inStatement = true
        }
        return .no
    }

    func read<S: ItemSink>(_ input: Input, options: ListOptions, into sink: inout S) throws {
        // An empty file is an empty list, as in every format (FORMAT.md, section 8).
        if try input.head(1).isEmpty {
            try sink.begin(metadata: [])
            return try sink.end()
        }
        // A dump laid out as todofmt writes one reads from its text; others are run.
        if readsText, let path = input.path, path != "-", let mapped = MappedFile(path: path),
            let text = OwnDumpText(mapped.bytes, name: input.name, options: options)
        {
            return try withExtendedLifetime(mapped) { try text.read(into: &sink) }
        }
        // The database in memory goes by the dump's name, so that errors name the file.
        let db = try Database(path: ":memory:", readOnly: false, name: input.name)
        try db.runDump(Self.terminatedBytes(input), path: input.name)
        try ListTable.find(in: db, options: options).read(from: db, into: &sink)
    }

    func writer(to output: Output, options: ListOptions) throws -> any ListWriter {
        let table = options.table ?? ListTable.ownName
        // SQLite refuses to make such a table: a dump making one would load nowhere (a
        // database refuses it as it is written; a dump is text, written without SQLite).
        if table.lowercased().hasPrefix("sqlite_") {
            throw ConversionError.unsupported(
                "\(output.name): SQLite reserves table names that begin with sqlite_ (--table \(table))")
        }
        // The rows wait beside the output until the table's columns are known.
        let directory = output.temporaryPath.map { PathParts.directory(of: $0) }
        return DumpWriter(
            sink: output.makeSink(), outputName: output.name, table: table, spillDirectory: directory,
            guessesHeader: directory != nil)
    }

    /// `update(_:with:options:)` for a list that a reader hands to `read` as it reads it, into
    /// a dump laid out as todofmt writes one: the list goes through a new dump's writer whose
    /// bytes are compared with the file's; where they are the same the file is left as it
    /// is, as loading the dump and writing the list into it would leave it, and where they
    /// differ only the run of rows between is written again (`DumpStreamedUpdate`). Nil
    /// (nothing written) where that does not apply, or where a value the table cannot give
    /// back as it was (-0.0, an integer past 64 bits, a null field) would make that write
    /// change a row that reads back otherwise: the caller builds the list and calls `update`.
    func update(
        _ existing: Input, options: ListOptions, streaming read: (inout any ListWriter) throws -> Void
    ) throws -> PendingWrite? {
        guard let path = existing.path, let mapped = MappedFile(path: path) else { return nil }
        let directory = PathParts.directory(of: path)
        let table = options.table ?? ListTable.ownName
        let update = DumpStreamedUpdate(table: table)
        /// The new dump's bytes compared with the file's: what the writer wrote, the
        /// comparison, and what it learnt; nil where the writer gave up.
        func compare(assuming assumption: DumpWriter.Assumption?) throws -> (Written, ByteComparison, DumpWriter.Facts)?
        {
            let comparison = ByteComparison(mapped.bytes)
            let facts = DumpWriter.Facts()
            var writer = DepthLimitedWriter.guarding(
                DumpWriter(
                    sink: ByteSink(comparingWith: comparison), outputName: existing.name, table: table,
                    spillDirectory: directory.isEmpty ? "." : directory, facts: facts, assuming: assumption),
                format: .sql)
            do {
                try read(&writer)
            } catch is DumpWriter.Assumption.Failed {
                return nil
            }
            // A list a new dump refuses (two keys SQLite takes for one column) is the loading
            // write's to judge: the table it writes into has its own columns.
            guard let written = try? writer.finish() else { return nil }
            return (written, comparison, facts)
        }
        // The file's header assumed first, so that the rows need not be held to learn the
        // columns (a million rows went through a temporary file of 126 MB); where the list
        // has other columns, the list is read again and the header learnt from it.
        var compared = try update.assumption(mapped.bytes, table: table).flatMap { try compare(assuming: $0) }
        let assumed = compared?.2.assumptionHeld == true
        if !assumed { compared = try compare(assuming: nil) }
        guard let (written, comparison, facts) = compared else { return nil }
        // (An assumed header has been run already.)
        guard !written.warnings.contains(where: { $0.firstItem != nil && $0.kind != .fields }), !facts.remakesTable,
            assumed || update.headerLoads(mapped.bytes)
        else { return nil }
        if comparison.isSame { return .unchanged(written.warnings) }
        guard let patch = update.patched(comparison) else { return nil }
        let output = try Output.file(path)
        do {
            var sink = output.makeSink()
            sink.write(UnsafeBufferPointer(rebasing: mapped.bytes[..<patch.start]))
            patch.text.withUnsafeBufferPointer { sink.write($0) }
            sink.write(UnsafeBufferPointer(rebasing: mapped.bytes[patch.end...]))
            _ = try sink.finish(path: output.name)
        } catch {
            output.discard()
            throw error
        }
        return PendingWrite(warnings: written.warnings, commit: output.commit, discard: output.discard)
    }

    /// An edit of one top-level item of a dump exactly as todofmt writes it
    /// (`OwnDumpText.updateItems`), without reading the other items or writing a new dump.
    func updateItem(
        _ existing: Input, at index: Int, options: ListOptions, change: (TodoItem) throws -> TodoItem?
    ) throws -> ItemUpdate {
        try editingText(existing, options: options) { text, path in
            try text.updateItems(index..<index + 1, in: path) { items in try change(items[0]).map { [$0] } }
        }
    }

    /// Edits of a run of top-level items of a dump exactly as todofmt writes it that keep
    /// their rows or add items after the last (`OwnDumpText.updateItems`).
    func updateItems(
        _ existing: Input, options: ListOptions, run: (Int) -> Range<Int>?,
        change: ([TodoItem]) throws -> [TodoItem]?
    ) throws -> ItemUpdate {
        try editingText(existing, options: options) { text, path in
            guard let range = run(text.topLevelCount) else { return .unsupported }
            return try text.updateItems(range, in: path, change: change)
        }
    }

    /// `mv` of a top-level item among the top-level ones in a dump exactly as todofmt writes
    /// it (`OwnDumpText.moveItem`), without reading the items it passes.
    func moveItem(
        _ existing: Input, options: ListOptions, from: Int, to: Int,
        place: (TodoItem, TodoItem?, TodoItem?) throws -> TodoItem?
    ) throws -> ItemUpdate {
        try editingText(existing, options: options) { text, path in
            try text.moveItem(from: from, to: to, in: path, place: place)
        }
    }

    /// Runs `edit` on the dump's text where it is exactly what todofmt writes for its list
    /// (`OwnDumpText(fresh:)`); `.unsupported` otherwise.
    private func editingText(
        _ existing: Input, options: ListOptions, _ edit: (OwnDumpText, String) throws -> ItemUpdate
    )
        throws -> ItemUpdate
    {
        guard readsText, let path = existing.path, path != "-", let mapped = MappedFile(path: path),
            let text = OwnDumpText(mapped.bytes, name: existing.name, options: options, fresh: true)
        else { return .unsupported }
        return try withExtendedLifetime(mapped) { try edit(text, path) }
    }

    /// Updates the dump as its database would be updated: compared with a new dump of the
    /// list where it is laid out as todofmt writes one (`update(_:options:streaming:)`; an
    /// edit of a long dump read from its text then never runs it), else by running it
    /// (`loadingUpdate`).
    func update(_ existing: Input, with list: TodoList, options: ListOptions) throws -> PendingWrite {
        if existing.path != nil,
            let pending = try update(existing, options: options, streaming: { try list.send(to: &$0) })
        {
            return pending
        }
        return try loadingUpdate(existing, with: list, options: options)
    }

    /// Updates the dump as its database would be updated (`SQLiteFormat.write`): the dump
    /// is run in memory, recording which statement made which row; the list is written into
    /// that database; then only the statements of rows that changed are written again, new
    /// rows follow their table's last statement, and every other byte stays.
    func loadingUpdate(_ existing: Input, with list: TodoList, options: ListOptions) throws -> PendingWrite {
        guard let path = existing.path else {
            throw ConversionError.unsupported("\(existing.name): only a file can be written into")
        }
        let text = try Self.terminatedBytes(existing)
        let db = try Database(path: ":memory:", readOnly: false, name: existing.name)
        let recorder = DumpRecorder()
        try db.runDump(text, path: existing.name, recorder: recorder)
        let editor = try DumpEditor(db: db, recorder: recorder, text: text)
        try db.execute("BEGIN")
        let warnings = try SQLiteFormat.write(list, into: db, options: options, target: "an SQL dump")
        try db.execute("COMMIT")
        let output = try Output.file(path)
        do {
            var sink = output.makeSink()
            try editor.write(to: &sink)
            _ = try sink.finish(path: output.name)
        } catch {
            output.discard()
            throw error
        }
        return PendingWrite(warnings: warnings, commit: output.commit, discard: output.discard)
    }
}

extension SQLDumpFormat {
    /// The dump's bytes and a NUL after them (SQLite reads up to one), read into one
    /// allocation when the dump is a file: a dump can be large.
    static func terminatedBytes(_ input: Input) throws -> [UInt8] {
        guard let path = input.path, path != "-" else { return try input.bytes() + [0] }
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw ConversionError.io(path: input.name, reason: String(cString: strerror(errno))) }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return try input.bytes() + [0] }
        let size = Int(info.st_size)
        var failure: Int32 = 0
        let bytes = [UInt8](unsafeUninitializedCapacity: size + 1) { buffer, count in
            var done = 0
            while done < size {
                let n = Foundation.read(fd, buffer.baseAddress! + done, size - done)
                if n < 0 && errno == EINTR { continue }
                if n <= 0 {
                    if n < 0 { failure = errno }
                    break
                }
                done += n
            }
            buffer[done] = 0
            count = done + 1
        }
        if failure != 0 { throw ConversionError.io(path: input.name, reason: String(cString: strerror(failure))) }
        return bytes
    }
}
