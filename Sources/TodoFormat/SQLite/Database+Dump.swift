internal import CSQLite
import Foundation

/// What loading a dump recorded, so that changes to the database can be written back into
/// the dump's text statement by statement: where each statement is, the table it created or
/// inserted into, and which rows each INSERT made (by rowid, or for a `WITHOUT ROWID`
/// table by its key, logged by a trigger into the temporary table `todofmt_loaded`).
final class DumpRecorder {
    struct Statement {
        /// From the statement's first character to just past its `;`.
        var range: Range<Int>
        /// The table an INSERT adds rows to.
        var inserts: String?
        /// The table a CREATE TABLE makes.
        var creates: String?
        /// The rowid of the one row the statement made, in a table with rowids.
        var rowid: Int64?
        /// The table a CREATE INDEX or CREATE TRIGGER is on.
        var on: String? = nil
    }

    /// A statement as it is kept (a dump has a million of them): tables by their index in
    /// `tables`, -1 for none (in `creates`, -2 - the index for the table an index or trigger
    /// is on: a statement creates one thing); `Int64.min` for no rowid.
    fileprivate struct Packed {
        var start: Int
        var end: Int
        var inserts: Int32
        var creates: Int32
        var rowid: Int64
    }

    /// Every statement of the dump, in order.
    struct Statements: RandomAccessCollection {
        fileprivate var packed: [Packed] = []
        fileprivate var tables: [String] = []
        fileprivate var tableIndex: [String: Int32] = [:]

        var startIndex: Int { 0 }
        var endIndex: Int { packed.count }
        subscript(index: Int) -> Statement {
            let p = packed[index]
            return Statement(
                range: p.start..<p.end, inserts: p.inserts < 0 ? nil : tables[Int(p.inserts)],
                creates: p.creates < 0 ? nil : tables[Int(p.creates)], rowid: p.rowid == .min ? nil : p.rowid,
                on: p.creates < -1 ? tables[Int(-2 - p.creates)] : nil)
        }

        fileprivate mutating func append(_ statement: Statement) {
            func index(_ name: String?) -> Int32 {
                guard let name else { return -1 }
                if let i = tableIndex[name] { return i }
                tables.append(name)
                tableIndex[name] = Int32(tables.count - 1)
                return Int32(tables.count - 1)
            }
            packed.append(
                Packed(
                    start: statement.range.lowerBound, end: statement.range.upperBound,
                    inserts: index(statement.inserts),
                    creates: statement.on.map { -2 - index($0) } ?? index(statement.creates),
                    rowid: statement.rowid ?? .min))
        }

        fileprivate mutating func setRowID(_ rowid: Int64, at index: Int) { packed[index].rowid = rowid }
    }

    /// Every statement of the dump, in order.
    fileprivate(set) var statements = Statements()
    /// For each table with rowids, its rows' rowids and the statements that made them, as
    /// (rowid, statement) sorted once loading is done.
    fileprivate(set) var rows: [String: [(rowid: Int64, statement: Int)]] = [:]
    /// Tables without rowids, whose rows a trigger records.
    fileprivate(set) var keyed: Set<String> = []
    /// Tables with rowids into which one statement put several rows: which row came from
    /// where is not known, so a change rewrites all their statements.
    fileprivate(set) var unmapped: Set<String> = []
    /// The statement running now, as `todofmt_statement()` tells the triggers that log rows.
    fileprivate var current: Int64 = -1
    fileprivate var triggers = 0

    /// The statement that made a table's row with this rowid (the last, if several did).
    func statement(of table: String, rowid: Int64) -> Int? {
        guard let list = rows[table] else { return nil }
        var low = 0
        var high = list.count
        while low < high {
            let mid = (low + high) / 2
            if list[mid].rowid <= rowid { low = mid + 1 } else { high = mid }
        }
        return low > 0 && list[low - 1].rowid == rowid ? list[low - 1].statement : nil
    }
}

extension Database {
    /// Runs SQL text as `sqlite3 DB .dump` writes it: creating tables, indexes, views and
    /// triggers, inserting rows, transactions and `PRAGMA foreign_keys`. Anything else
    /// (ATTACH, load_extension, other pragmas, updates, drops) is refused by an authorizer
    /// before it runs, and the error names the statement's line and shows it. With a
    /// recorder, each statement's place and the rows it made are recorded.
    func runDump(_ text: [UInt8], path: String, recorder: DumpRecorder? = nil) throws(StoreError) {
        final class Guard {
            var refusal: String?
            /// todofmt's own statements (the triggers that record rows) are not the dump's.
            var ownStatement = false
            var inserts: String?
            var creates: String?
            var on: String?
            /// Progress calls left for the statement that runs (`Limits.dumpStatementSteps`).
            var stepsLeft = 0
        }
        let guardian = Guard()
        let authorizer:
            @convention(c) (
                UnsafeMutableRawPointer?, Int32, UnsafePointer<CChar>?, UnsafePointer<CChar>?, UnsafePointer<CChar>?,
                UnsafePointer<CChar>?
            ) -> Int32 = { context, action, first, second, _, _ in
                let guardian = Unmanaged<Guard>.fromOpaque(context!).takeUnretainedValue()
                if guardian.ownStatement { return SQLITE_OK }
                let a = first.map { String(cString: $0) } ?? ""
                let b = second.map { String(cString: $0) } ?? ""
                switch action {
                case SQLITE_INSERT:
                    if guardian.inserts == nil && a != "sqlite_master" && a != "sqlite_temp_master" {
                        guardian.inserts = a
                    }
                    return SQLITE_OK
                case SQLITE_CREATE_TABLE:
                    if guardian.creates == nil { guardian.creates = a }
                    return SQLITE_OK
                case SQLITE_CREATE_INDEX, SQLITE_CREATE_TRIGGER:
                    if guardian.on == nil { guardian.on = b }
                    return SQLITE_OK
                // Making an index reindexes it; ANALYZE's statistics are what `.dump` writes after it.
                case SQLITE_CREATE_VIEW, SQLITE_TRANSACTION, SQLITE_READ,
                    SQLITE_SELECT, SQLITE_SAVEPOINT, SQLITE_RECURSIVE, SQLITE_REINDEX, SQLITE_ANALYZE:
                    return SQLITE_OK
                case SQLITE_UPDATE where a.hasPrefix("sqlite_"), SQLITE_DELETE where a.hasPrefix("sqlite_"):
                    return SQLITE_OK
                case SQLITE_PRAGMA where a.lowercased() == "foreign_keys":
                    return SQLITE_OK
                case SQLITE_FUNCTION:
                    if b.lowercased() == "load_extension" {
                        guardian.refusal = "load_extension is not allowed in a dump"
                        return SQLITE_DENY
                    }
                    return SQLITE_OK
                case SQLITE_ATTACH, SQLITE_DETACH:
                    guardian.refusal = "ATTACH and DETACH are not allowed in a dump (they touch other files)"
                    return SQLITE_DENY
                case SQLITE_PRAGMA:
                    guardian.refusal = "PRAGMA \(a) is not allowed in a dump"
                    return SQLITE_DENY
                default:
                    guardian.refusal =
                        "only creating tables, indexes, views and triggers, inserting rows and transactions are allowed in a dump"
                    return SQLITE_DENY
                }
            }
        let context = Unmanaged.passUnretained(guardian).toOpaque()
        if let recorder { try prepareRecording(recorder) }
        sqlite3_set_authorizer(handle, authorizer, context)
        defer { sqlite3_set_authorizer(handle, nil, nil) }
        // A dump is a program: one statement may not run for ever (a recursive CTE without an
        // end) nor make a value past a size (a huge zeroblob). SQLite calls the handler every
        // `Limits.dumpStepsPerCall` virtual machine steps; a non-zero return interrupts.
        let progress: @convention(c) (UnsafeMutableRawPointer?) -> Int32 = { context in
            let guardian = Unmanaged<Guard>.fromOpaque(context!).takeUnretainedValue()
            guardian.stepsLeft -= 1
            return guardian.stepsLeft < 0 ? 1 : 0
        }
        sqlite3_progress_handler(handle, Int32(Limits.dumpStepsPerCall), progress, context)
        defer { sqlite3_progress_handler(handle, 0, nil, nil) }
        let lengthLimit = sqlite3_limit(handle, SQLITE_LIMIT_LENGTH, Int32(Limits.dumpValueBytes))
        defer { sqlite3_limit(handle, SQLITE_LIMIT_LENGTH, lengthLimit) }
        // SQLite reads up to a NUL: a text that ends in one is used as it is (a dump can be
        // large), any other is copied with one.
        let bytes = text.last == 0 ? text : text + [0]
        try withExtendedLifetime(guardian) { () throws(StoreError) in
            try bytes.withUnsafeBufferPointer { buffer throws(StoreError) in
                let text = UnsafeBufferPointer(rebasing: buffer[..<(buffer.count - 1)])
                var offset = 0
                var statementsRun = 0
                while offset < text.count && text[offset] != 0 {
                    let start = offset
                    guardian.refusal = nil
                    guardian.inserts = nil
                    guardian.creates = nil
                    guardian.on = nil
                    recorder?.current = Int64(recorder?.statements.count ?? 0)
                    // Errors name the statement's line and show its first line (up to where
                    // SQLite stopped reading it, or its line's end when it read none of it).
                    let statementStart = Self.statementStart(in: text, from: start)
                    func failure(_ error: StoreError, refusal: String? = nil) -> StoreError {
                        var stop = max(statementStart, offset)
                        if stop == statementStart {
                            while stop < text.count && text[stop] != 10 { stop += 1 }
                        }
                        let shown = String(
                            decoding: UnsafeBufferPointer(rebasing: text[statementStart..<stop]), as: UTF8.self)
                        let firstLine = shown.prefix { $0 != "\n" }.trimmingCharacters(in: .whitespaces)
                        return StoreError(
                            code: error.code, message: refusal ?? error.message,
                            sql: firstLine.count > 80 ? String(firstLine.prefix(80)) + "…" : firstLine,
                            location: SourceLocation.of(offset: statementStart, in: text, file: path))
                    }
                    let statement: Statement
                    do throws(StoreError) {
                        // Nil: only comments or white space were left.
                        guard let prepared = try prepare(buffer, advancing: &offset) else { break }
                        statement = prepared
                    } catch {
                        throw failure(error, refusal: guardian.refusal)
                    }
                    guardian.stepsLeft =
                        (Limits.dumpStatementSteps + Limits.dumpStepsPerStatementBefore * statementsRun)
                        / Limits.dumpStepsPerCall
                    statementsRun += 1
                    do throws(StoreError) {
                        _ = try statement.step()
                    } catch  where error.code == SQLITE_INTERRUPT {
                        throw failure(error, refusal: Limits.dumpStepsMessage)
                    } catch {
                        throw failure(error)
                    }
                    if let recorder {
                        let made = DumpRecorder.Statement(
                            range: statementStart..<offset, inserts: guardian.inserts, creates: guardian.creates,
                            on: guardian.creates == nil ? guardian.on : nil)
                        recorder.statements.append(made)
                        guardian.ownStatement = true
                        defer { guardian.ownStatement = false }
                        try record(made, of: recorder)
                    }
                }
            }
        }
        if let recorder {
            sqlite3_set_authorizer(handle, nil, nil)
            try finishRecording(recorder)
        }
    }

    /// The function and the table that record which statement made which row.
    private func prepareRecording(_ recorder: DumpRecorder) throws(StoreError) {
        let function: @convention(c) (OpaquePointer?, Int32, UnsafeMutablePointer<OpaquePointer?>?) -> Void = {
            context, _, _ in
            let recorder = Unmanaged<DumpRecorder>.fromOpaque(sqlite3_user_data(context)!).takeUnretainedValue()
            sqlite3_result_int64(context, recorder.current)
        }
        let code = sqlite3_create_function_v2(
            handle, "todofmt_statement", 0, SQLITE_UTF8, Unmanaged.passUnretained(recorder).toOpaque(), function, nil,
            nil, nil)
        guard code == SQLITE_OK else { throw error(code) }
        try execute("CREATE TEMP TABLE todofmt_loaded (stmt INTEGER, tbl TEXT, ident)")
    }

    /// After a statement: the row it put into a table with rowids is recorded; a table it
    /// created without rowids gets a trigger that records the rows inserted into it.
    private func record(_ statement: DumpRecorder.Statement, of recorder: DumpRecorder) throws(StoreError) {
        let index = recorder.statements.count - 1
        if let created = statement.creates, !created.hasPrefix("sqlite_"), !hasRowID(created) {
            recorder.triggers += 1
            recorder.keyed.insert(created)
            let identity = try rowIdentity(of: created, as: "NEW.")
            try execute(
                "CREATE TEMP TRIGGER todofmt_load_\(recorder.triggers) AFTER INSERT ON main.\(Database.quote(created)) BEGIN "
                    + "INSERT INTO todofmt_loaded VALUES (todofmt_statement(), \(Database.literal(created)), \(identity)); END"
            )
        }
        guard let table = statement.inserts, !recorder.keyed.contains(table) else { return }
        let count = sqlite3_changes(handle)
        if count == 1 {
            let rowid = sqlite3_last_insert_rowid(handle)
            recorder.statements.setRowID(rowid, at: index)
            recorder.rows[table, default: []].append((rowid, index))
        } else if count > 1 {
            recorder.unmapped.insert(table)
        }
    }

    private func finishRecording(_ recorder: DumpRecorder) throws(StoreError) {
        for row in try rows("SELECT name FROM sqlite_temp_master WHERE type = 'trigger' AND name LIKE 'todofmt_load_%'")
        {
            if case .text(let name) = row[0] { try execute("DROP TRIGGER temp.\(Database.quote(name))") }
        }
        try execute("CREATE INDEX temp.todofmt_loaded_rows ON todofmt_loaded (tbl, ident)")
        try execute("CREATE INDEX temp.todofmt_loaded_statements ON todofmt_loaded (stmt)")
        for (table, list) in recorder.rows {
            // Rows come in rowid order in most dumps: sorting is then a check.
            if !zip(list, list.dropFirst()).allSatisfy({
                $0.rowid < $1.rowid || ($0.rowid == $1.rowid && $0.statement < $1.statement)
            }) {
                recorder.rows[table] = list.sorted { ($0.rowid, $0.statement) < ($1.rowid, $1.statement) }
            }
        }
    }

    /// A table's indexes and triggers (those it was given, not its constraints' own
    /// indexes), in the order they were made: type, name and CREATE statement.
    func dependents(of table: String) throws(StoreError) -> [(type: String, name: String, sql: String)] {
        try rows(
            "SELECT type, name, sql FROM sqlite_master WHERE tbl_name = ? COLLATE NOCASE "
                + "AND type IN ('index', 'trigger') AND sql IS NOT NULL ORDER BY rowid", [.text(table)]
        ).compactMap {
            guard case (.text(let type), .text(let name), .text(let sql)) = ($0[0], $0[1], $0[2]) else { return nil }
            return (type, name, sql)
        }
    }

    /// Whether a table has a rowid (it was not made `WITHOUT ROWID`).
    func hasRowID(_ table: String) -> Bool {
        var statement: OpaquePointer?
        let code = sqlite3_prepare_v2(handle, "SELECT rowid FROM \(Database.quote(table)) LIMIT 0", -1, &statement, nil)
        sqlite3_finalize(statement)
        return code == SQLITE_OK
    }

    /// An SQL expression that tells a table's rows apart: the rowid, or for a table without
    /// one its primary key's columns quoted and joined. `prefix` is `NEW.` or `OLD.` in a
    /// trigger, or empty.
    func rowIdentity(of table: String, as prefix: String = "") throws(StoreError) -> String {
        if hasRowID(table) { return prefix + "rowid" }
        let keys = try rows("PRAGMA table_info(\(Database.quote(table)))").compactMap { row -> (Int64, String)? in
            guard case .text(let name) = row[1], case .integer(let pk) = row[5], pk > 0 else { return nil }
            return (pk, name)
        }.sorted { $0.0 < $1.0 }.map(\.1)
        return keys.map { "quote(\(prefix)\(Database.quote($0)))" }.joined(separator: " || ',' || ")
    }
}

extension Database {
    /// Where the statement from `offset` starts: after white space and `--` comments.
    fileprivate static func statementStart(in text: UnsafeBufferPointer<UInt8>, from offset: Int) -> Int {
        var i = offset
        while i < text.count {
            switch text[i] {
            case 9, 10, 13, 32:
                i += 1
            case UInt8(ascii: "-") where i + 1 < text.count && text[i + 1] == UInt8(ascii: "-"):
                while i < text.count && text[i] != 10 { i += 1 }
            default:
                return i
            }
        }
        return i
    }
}
