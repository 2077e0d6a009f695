import Foundation

extension DocumentFormat {
    /// An SQLite database (`.sqlite`, `.sqlite3`, `.db`, `.store`, or any file starting
    /// `SQLite format 3`): todofmt's own table, an app's table, or a Core Data store.
    public static let sqlite = DocumentFormat(rawValue: "sqlite")
}

/// SQLite databases (FORMAT.md, section 7.7), read and updated in place through the one
/// wrapper of libsqlite3 (`Database`).
struct SQLiteFormat: ListFormat {
    var id: DocumentFormat { .sqlite }
    var aliases: [String] { ["sqlite3", "db"] }
    var extensions: [String] { ["sqlite", "sqlite3", "db", "store"] }
    var keepsDatesAsText: Bool { true }

    func recognition(of head: UnsafeBufferPointer<UInt8>) -> Recognition {
        head.starts(with: "SQLite format 3\u{0}".utf8) ? .certainly : .no
    }

    func read<S: ItemSink>(_ input: Input, options: ListOptions, into sink: inout S) throws {
        try withTable(input, options: options, into: &sink) { table, db, sink in try table.read(from: db, into: &sink) }
    }

    /// `read(_:options:into:)` for a sink of plain items: rows of todofmt's own table whose
    /// names are plain go to it as bytes (`ListTable.read(from:plainNamesInto:)`).
    func read<S: PlainItemSink>(_ input: Input, options: ListOptions, plainNamesInto sink: inout S) throws {
        try withTable(input, options: options, into: &sink) { table, db, sink in
            try table.read(from: db, plainNamesInto: &sink)
        }
    }

    /// Calls `body` with the input's list table, its database (opened to be read) and
    /// `sink`; an empty file is an empty list, as in every format (FORMAT.md, section 8),
    /// handed to `sink` instead.
    private func withTable<S: ItemSink>(
        _ input: Input, options: ListOptions, into sink: inout S,
        _ body: (ListTable, Database, inout S) throws -> Void
    ) throws {
        if try input.head(1).isEmpty {
            try sink.begin(metadata: [])
            return try sink.end()
        }
        try input.withFile { file in
            try Self.withReadOnlyDatabase(file, name: input.name) { db in
                try body(ListTable.find(in: db, options: options), db, &sink)
            }
        }
    }

    /// Opens a database for reading without changing anything beside it. SQLite makes -shm
    /// and -wal files beside a WAL database even when it only reads it, so such a database
    /// is read from a copy (with its -wal, so the newest rows are seen) in a temporary folder;
    /// a database with a rollback journal is read where it is.
    static func withReadOnlyDatabase<T>(_ file: String, name: String, _ body: (Database) throws -> T) throws -> T {
        guard InputFile.isWriteAheadLogged(file) else {
            return try body(Database(path: file, readOnly: true, name: name))
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("todofmt-read-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let copy = folder.appendingPathComponent("database").path
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: file, toPath: copy)
            if FileManager.default.fileExists(atPath: file + "-wal") {
                try FileManager.default.copyItem(atPath: file + "-wal", toPath: copy + "-wal")
            }
        } catch {
            throw ConversionError.io(path: name, reason: (error as NSError).localizedDescription)
        }
        return try body(Database(path: copy, readOnly: true, name: name))
    }

    func writer(to output: Output, options: ListOptions) throws -> any ListWriter {
        switch output.destination {
        case .standardOutput:
            throw ConversionError.unsupported("a database cannot be written to standard output; name a file")
        case .special:
            throw ConversionError.unsupported("\(output.name): a database is written to a regular file only; name one")
        case .file, .memory: break
        }
        return DatabaseWriter(output: output, table: options.table ?? ListTable.ownName)
    }

    /// Updates the list's table where it is, in one transaction that the pending write
    /// commits: only rows that changed are written. A database without a list gets
    /// todofmt's table beside its others.
    func update(_ existing: Input, with list: TodoList, options: ListOptions) throws -> PendingWrite {
        guard let path = existing.path else {
            throw ConversionError.unsupported("\(existing.name): only a file can be written into")
        }
        let db = try Database(path: path, readOnly: false, name: existing.name)
        try db.execute("BEGIN IMMEDIATE")
        do {
            let warnings = try Self.write(list, into: db, options: options, target: "an SQLite table")
            return PendingWrite(
                warnings: warnings, commit: { try db.execute("COMMIT") }, discard: { try? db.execute("ROLLBACK") })
        } catch {
            try? db.execute("ROLLBACK")
            throw error
        }
    }

    /// An edit of one item of todofmt's own table made on that item's rows alone, in one
    /// transaction that the pending write commits (`ListTable.updateOwnItem`); of an app's
    /// table, on its row (`TableUpdate.updateRow`).
    func updateItem(
        _ existing: Input, at index: Int, options: ListOptions, change: (TodoItem) throws -> TodoItem?
    ) throws -> ItemUpdate {
        try editingRows(
            existing, options: options,
            own: { table, db in try table.updateOwnItem(at: index, in: db, change: change) },
            app: { update in try update.updateRow(at: index, change: change) })
    }

    /// `add`, `rm` and the like on a run of top-level items, made on their rows: of
    /// todofmt's own table (`ListTable.updateOwnItems`), or of an app's table, where items
    /// are only added or removed (`TableUpdate.updateRows`).
    func updateItems(
        _ existing: Input, options: ListOptions, run: (Int) -> Range<Int>?,
        change: ([TodoItem]) throws -> [TodoItem]?
    ) throws -> ItemUpdate {
        try editingRows(
            existing, options: options,
            own: { table, db in try table.updateOwnItems(in: db, run: run, change: change) },
            app: { update in try update.updateRows(run: run, change: change) })
    }

    /// `mv` of a top-level item among the top-level ones, made on the rows whose order
    /// changes: the top-level rows' positions in todofmt's own table
    /// (`ListTable.moveOwnItem`), the order values in an app's (`TableUpdate.moveRow`).
    func moveItem(
        _ existing: Input, options: ListOptions, from: Int, to: Int,
        place: (TodoItem, TodoItem?, TodoItem?) throws -> TodoItem?
    ) throws -> ItemUpdate {
        try editingRows(
            existing, options: options,
            own: { table, db in try table.moveOwnItem(in: db, from: from, to: to, place: place) },
            app: { update in try update.moveRow(from: from, to: to, place: place) })
    }

    /// Runs `own` on todofmt's own table, or `app` on an app's table (true: changed, false:
    /// unchanged), in a transaction that the pending write commits; `.unsupported` (rolled
    /// back) where it answers nil.
    private func editingRows(
        _ existing: Input, options: ListOptions, own: (ListTable, Database) throws -> ListTable.OwnItemChange?,
        app: (inout TableUpdate) throws -> Bool?
    ) throws -> ItemUpdate {
        func edit(_ table: ListTable, _ db: Database) throws -> ListTable.OwnItemChange? {
            if table.isOwn { return try own(table, db) }
            var update = TableUpdate(table: table, db: db)
            return try app(&update).map { $0 ? .changed(update.warnings.warnings) : .unchanged }
        }
        // A database with a write-ahead log beside it is left to the whole list's update:
        // closing it, even unchanged, moves the log into the file, which the update would
        // then see as changed. (A database in WAL mode without one, as a Core Data store is
        // when its app is closed, stays as it was: the log SQLite makes while it is open
        // goes when it closes.)
        guard let path = existing.path, try !existing.head(1).isEmpty,
            !FileManager.default.fileExists(atPath: path + "-wal")
        else {
            return .unsupported
        }
        let db = try Database(path: path, readOnly: false, name: existing.name)
        try db.execute("BEGIN IMMEDIATE")
        do {
            switch try edit(try ListTable.find(in: db, options: options), db) {
            case nil:
                try db.execute("ROLLBACK")
                return .unsupported
            case .unchanged:
                try db.execute("ROLLBACK")
                return .unchanged
            case .changed(let warnings):
                return .pending(
                    PendingWrite(
                        warnings: warnings, commit: { try db.execute("COMMIT") },
                        discard: { try? db.execute("ROLLBACK") }))
            }
        } catch {
            try? db.execute("ROLLBACK")
            throw error
        }
    }

    /// Writes a list into a database (a file, or a dump loaded in memory), in the caller's
    /// transaction: into the list's table as it is, into todofmt's table, or (where there
    /// is no list, or `--table` names a table that is not there) into a new todofmt table.
    /// Returns what the table could not hold.
    static func write(_ list: TodoList, into db: Database, options: ListOptions, target: String) throws
        -> [ConversionWarning]
    {
        var warnings = WarningLog()
        if !list.metadata.isEmpty { warnings.append(contentsOf: [.metadataLeftOut(list.metadata, by: target)]) }
        var table: ListTable? = nil
        do {
            table = try ListTable.find(in: db, options: options)
        } catch let error as ConversionError {
            guard case .noList = error, options.entity == nil else { throw error }
            if let named = options.table, try db.tableNames().contains(named) { throw error }
        }
        if let table, !table.isOwn {
            var update = TableUpdate(table: table, db: db)
            try update.write(list)
            warnings.append(contentsOf: update.warnings.warnings)
        } else if let table {
            let own = OwnTable(list, name: table.name)
            warnings.append(contentsOf: own.warnings + (try own.update(in: db, table: table)))
        } else {
            let own = OwnTable(list, name: options.table ?? ListTable.ownName)
            try own.checkColumnNames()
            try own.write(to: db)
            warnings.append(contentsOf: own.warnings)
        }
        return warnings.warnings
    }
}

/// Writes a new database with todofmt's table: the items are gathered, then inserted in one
/// transaction into the output's temporary file (or, for memory, a temporary file read back).
struct DatabaseWriter: ListWriter {
    let output: Output
    /// The table's name: `todo_items`, or what `--table` named.
    let table: String
    private var builder = ListBuilder(keepingSlices: ())

    init(output: Output, table: String = ListTable.ownName) {
        self.output = output
        self.table = table
    }

    mutating func begin(metadata: [Field]) { builder.begin(metadata: metadata) }
    mutating func item(_ item: TodoItem, depth: Int) { builder.item(item, depth: depth) }
    mutating func end() {}

    mutating func finish() throws -> Written {
        let list = builder.finish()
        var written = Written()
        if !list.metadata.isEmpty { written.warnings.append(.metadataLeftOut(list.metadata, by: "an SQLite table")) }
        let own = OwnTable(list, name: table)
        try own.checkColumnNames()
        written.warnings += own.warnings
        if let file = output.temporaryPath {
            try Self.write(own, to: file, name: output.name)
            return written
        }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("todofmt-\(UUID().uuidString).sqlite")
            .path
        defer { try? FileManager.default.removeItem(atPath: file) }
        try Self.write(own, to: file, name: output.name)
        written.bytes = try InputFile.read(file)
        return written
    }

    private static func write(_ table: OwnTable, to file: String, name: String) throws {
        let db = try Database(path: file, readOnly: false, name: name)
        try db.transaction { try table.write(to: db) }
    }
}
