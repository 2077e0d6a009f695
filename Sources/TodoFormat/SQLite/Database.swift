import Foundation
internal import CSQLite

/// An SQLite failure: the result code, SQLite's message, and the SQL that failed.
public struct StoreError: Error, Hashable, Sendable, CustomStringConvertible, LocalizedError {
    /// SQLite's (extended) result code.
    public var code: Int32
    /// SQLite's message, or todofmt's for a refused statement.
    public var message: String
    /// The statement, when one failed.
    public var sql: String?
    /// The file, and for a dump the line of the statement.
    public var location: SourceLocation?

    /// `path:line:column: error: message` for a dump statement, else `path: message`, with the statement.
    public var description: String {
        var text = message
        if let sql { text += " (while running `\(sql.count > 200 ? String(sql.prefix(200)) + "…" : sql)`)" }
        if let location {
            return location.line > 0 ? "\(location): error: \(text)" : "\(location.file): \(text)"
        }
        return text
    }
    /// The same as `description`, for `localizedDescription`.
    public var errorDescription: String? { description }
}

/// The thin wrapper around libsqlite3: a connection. All of todofmt's SQLite goes through it.
final class Database {
    fileprivate let handle: OpaquePointer
    /// The file as errors name it.
    let path: String

    /// Opens a database file; `readOnly` never changes it (a `-wal` beside it is read too).
    /// `name` is the file as errors name it, when it is not `path`.
    init(path: String, readOnly: Bool, name: String? = nil) throws(StoreError) {
        self.path = name ?? path
        var db: OpaquePointer?
        let flags = (readOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE) | SQLITE_OPEN_URI
            | SQLITE_OPEN_NOMUTEX
        // Read-only opens go through a URI (mode=ro); the path is escaped for it.
        let target =
            readOnly && path != ":memory:"
            ? "file:" + (path.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? path) + "?mode=ro" : path
        let code = sqlite3_open_v2(target, &db, flags, nil)
        guard code == SQLITE_OK, let db else {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? "cannot open the database"
            if let db { sqlite3_close_v2(db) }
            throw StoreError(code: code, message: message, location: SourceLocation(file: name ?? path, byteOffset: 0).withoutOffset)
        }
        handle = db
        sqlite3_extended_result_codes(db, 1)
        // A locked database waits a little, then fails with a clear error.
        sqlite3_busy_timeout(db, 2000)
    }

    /// A new database in memory.
    convenience init() throws(StoreError) {
        try self.init(path: ":memory:", readOnly: false)
    }

    deinit {
        sqlite3_close_v2(handle)
    }

    func error(_ code: Int32, sql: String? = nil) -> StoreError {
        StoreError(
            code: code, message: String(cString: sqlite3_errmsg(handle)), sql: sql,
            location: path == ":memory:" ? nil : SourceLocation(file: path, byteOffset: 0).withoutOffset)
    }

    /// Runs statements that return no rows.
    func execute(_ sql: String) throws(StoreError) {
        let code = sqlite3_exec(handle, sql, nil, nil, nil)
        guard code == SQLITE_OK else { throw error(code, sql: sql) }
    }

    func prepare(_ sql: String) throws(StoreError) -> Statement {
        var statement: OpaquePointer?
        let code = sqlite3_prepare_v2(handle, sql, -1, &statement, nil)
        guard code == SQLITE_OK, let statement else { throw error(code, sql: sql) }
        return Statement(statement, database: self)
    }

    /// Prepares the statement that starts at `offset` in `text`, SQL that ends in a NUL
    /// byte, and moves `offset` past it: also when preparing fails, so the caller can
    /// show the statement. Nil when only white space and comments are left.
    func prepare(_ text: UnsafeBufferPointer<UInt8>, advancing offset: inout Int) throws(StoreError) -> Statement? {
        precondition(text.last == 0, "SQL text must end in a NUL byte")
        let base = UnsafeRawPointer(text.baseAddress!).assumingMemoryBound(to: CChar.self)
        var statement: OpaquePointer?
        var tail: UnsafePointer<CChar>?
        let start = offset
        let code = sqlite3_prepare_v2(handle, base + start, -1, &statement, &tail)
        offset = tail.map { base.distance(to: $0) } ?? text.count - 1
        guard code == SQLITE_OK else {
            throw error(code, sql: String(decoding: UnsafeBufferPointer(rebasing: text[start..<max(start, offset)]), as: UTF8.self))
        }
        return statement.map { Statement($0, database: self) }
    }

    /// The rows of a query, each as its column values.
    func rows(_ sql: String, _ arguments: [SQLValue] = []) throws(StoreError) -> [[SQLValue]] {
        let statement = try prepare(sql)
        try statement.bind(arguments)
        var rows: [[SQLValue]] = []
        while try statement.step() { rows.append(statement.row()) }
        return rows
    }

    /// Runs `body` in a transaction: committed when it returns, rolled back when it throws.
    func transaction<T>(_ body: () throws -> T) throws -> T {
        try execute("BEGIN IMMEDIATE")
        do {
            let result = try body()
            try execute("COMMIT")
            return result
        } catch {
            try? execute("ROLLBACK")
            throw error
        }
    }

    /// Quotes an identifier (a table or column name from a file or the user).
    static func quote(_ name: String) -> String {
        "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}

/// A value as SQLite stores it: its storage class and contents.
enum SQLValue: Hashable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob(Data)

    /// As SQL text, for a dump.
    var literal: String {
        switch self {
        case .null: return "NULL"
        case .integer(let i): return String(i)
        case .real(let d):
            if d.isNaN { return "NULL" }
            if d.isInfinite { return d < 0 ? "-1e999" : "1e999" }
            let text = String(d)
            return text.contains(".") || text.contains("e") ? text : text + ".0"
        case .text(let s): return "'" + s.replacingOccurrences(of: "'", with: "''") + "'"
        case .blob(let d): return "X'" + d.map { String(format: "%02X", $0) }.joined() + "'"
        }
    }
}

/// A prepared statement.
final class Statement {
    private let handle: OpaquePointer
    private unowned let database: Database

    fileprivate init(_ handle: OpaquePointer, database: Database) {
        self.handle = handle
        self.database = database
    }

    /// The statement's text, for errors.
    var sql: String { String(cString: sqlite3_sql(handle)) }

    deinit {
        sqlite3_finalize(handle)
    }

    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

    func bind(_ values: [SQLValue]) throws(StoreError) {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
        for (i, value) in values.enumerated() {
            let index = Int32(i + 1)
            let code: Int32
            switch value {
            case .null: code = sqlite3_bind_null(handle, index)
            case .integer(let v): code = sqlite3_bind_int64(handle, index, v)
            case .real(let v): code = sqlite3_bind_double(handle, index, v)
            case .text(let s): code = sqlite3_bind_text(handle, index, s, -1, Self.transient)
            case .blob(let d):
                code = d.withUnsafeBytes { sqlite3_bind_blob(handle, index, $0.baseAddress, Int32($0.count), Self.transient) }
            }
            guard code == SQLITE_OK else { throw database.error(code, sql: sql) }
        }
    }

    /// Moves to the next row; false when there is none.
    func step() throws(StoreError) -> Bool {
        let code = sqlite3_step(handle)
        switch code {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default: throw database.error(code, sql: sql)
        }
    }

    /// Runs a statement that returns no rows.
    func run(_ values: [SQLValue]) throws(StoreError) {
        try bind(values)
        _ = try step()
    }

    var columnCount: Int { Int(sqlite3_column_count(handle)) }

    /// A column's storage class, without making a value.
    func isNull(_ i: Int) -> Bool { sqlite3_column_type(handle, Int32(i)) == SQLITE_NULL }

    func int64(_ i: Int) -> Int64 { sqlite3_column_int64(handle, Int32(i)) }

    /// A text column as a string (other classes as SQLite converts them to text).
    func text(_ i: Int) -> String {
        let count = Int(sqlite3_column_bytes(handle, Int32(i)))
        guard let text = sqlite3_column_text(handle, Int32(i)) else { return "" }
        return String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self)
    }

    /// A text column, reusing `previous` when the text is the same (a section repeats on
    /// every row of a long list).
    func text(_ i: Int, reusing previous: inout String?) -> String {
        let count = Int(sqlite3_column_bytes(handle, Int32(i)))
        guard let text = sqlite3_column_text(handle, Int32(i)) else { return "" }
        let bytes = UnsafeBufferPointer(start: text, count: count)
        if let previous, previous.utf8.count == count, previous.utf8.elementsEqual(bytes) { return previous }
        let string = String(decoding: bytes, as: UTF8.self)
        previous = string
        return string
    }

    func value(_ i: Int) -> SQLValue {
        let index = Int32(i)
        switch sqlite3_column_type(handle, index) {
        case SQLITE_INTEGER: return .integer(sqlite3_column_int64(handle, index))
        case SQLITE_FLOAT: return .real(sqlite3_column_double(handle, index))
        case SQLITE_TEXT:
            let count = Int(sqlite3_column_bytes(handle, index))
            guard let text = sqlite3_column_text(handle, index) else { return .text("") }
            return .text(String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self))
        case SQLITE_BLOB:
            let count = Int(sqlite3_column_bytes(handle, index))
            guard let blob = sqlite3_column_blob(handle, index) else { return .blob(Data()) }
            return .blob(Data(bytes: blob, count: count))
        default: return .null
        }
    }

    func row() -> [SQLValue] { (0..<columnCount).map(value) }
}

extension SourceLocation {
    /// A location that names only the file.
    fileprivate var withoutOffset: SourceLocation { SourceLocation(file: file, line: 0, column: 0) }
}

extension Database {
    /// Runs SQL text as `sqlite3 DB .dump` writes it: creating tables, indexes, views and
    /// triggers, inserting rows, transactions and `PRAGMA foreign_keys`. Anything else
    /// (ATTACH, load_extension, other pragmas, updates, drops) is refused by an authorizer
    /// before it runs, and the error names the statement's line.
    func runDump(_ text: [UInt8], path: String) throws(StoreError) {
        final class Guard {
            var refusal: String?
        }
        let guardian = Guard()
        let authorizer: @convention(c) (
            UnsafeMutableRawPointer?, Int32, UnsafePointer<CChar>?, UnsafePointer<CChar>?, UnsafePointer<CChar>?,
            UnsafePointer<CChar>?
        ) -> Int32 = { context, action, first, second, _, _ in
            let guardian = Unmanaged<Guard>.fromOpaque(context!).takeUnretainedValue()
            let a = first.map { String(cString: $0) } ?? ""
            let b = second.map { String(cString: $0) } ?? ""
            switch action {
            case SQLITE_CREATE_TABLE, SQLITE_CREATE_INDEX, SQLITE_CREATE_VIEW, SQLITE_CREATE_TRIGGER, SQLITE_INSERT,
                SQLITE_TRANSACTION, SQLITE_READ, SQLITE_SELECT, SQLITE_SAVEPOINT, SQLITE_RECURSIVE:
                return SQLITE_OK
            case SQLITE_UPDATE where a == "sqlite_sequence", SQLITE_DELETE where a == "sqlite_sequence":
                return SQLITE_OK
            case SQLITE_UPDATE where a.hasPrefix("sqlite_"), SQLITE_INSERT where a.hasPrefix("sqlite_"):
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
                guardian.refusal = "only creating tables, indexes, views and triggers, inserting rows and transactions are allowed in a dump"
                return SQLITE_DENY
            }
        }
        let context = Unmanaged.passUnretained(guardian).toOpaque()
        sqlite3_set_authorizer(handle, authorizer, context)
        defer { sqlite3_set_authorizer(handle, nil, nil) }
        var bytes = text
        bytes.append(0)
        try withExtendedLifetime(guardian) { () throws(StoreError) in
            try bytes.withUnsafeBufferPointer { buffer throws(StoreError) in
                let text = UnsafeBufferPointer(rebasing: buffer[..<(buffer.count - 1)])
                var offset = 0
                while offset < text.count && text[offset] != 0 {
                    let start = offset
                    guardian.refusal = nil
                    // Errors name the statement's line and show its first line (up to where
                    // SQLite stopped reading it).
                    func failure(_ error: StoreError, refusal: String? = nil) -> StoreError {
                        let statementStart = Self.statementStart(in: text, from: start)
                        let shown = String(
                            decoding: UnsafeBufferPointer(rebasing: text[statementStart..<max(statementStart, offset)]), as: UTF8.self)
                        let firstLine = shown.prefix { $0 != "\n" }.trimmingCharacters(in: .whitespaces)
                        return StoreError(
                            code: error.code, message: refusal ?? error.message,
                            sql: firstLine.count > 80 ? String(firstLine.prefix(80)) + "…" : firstLine,
                            location: SourceLocation.of(offset: statementStart, in: text, file: path))
                    }
                    let statement: Statement
                    do throws(StoreError) {
                        guard let prepared = try prepare(buffer, advancing: &offset) else { break }  // only comments or white space were left
                        statement = prepared
                    } catch {
                        throw failure(error, refusal: guardian.refusal)
                    }
                    do throws(StoreError) {
                        _ = try statement.step()
                    } catch {
                        throw failure(error)
                    }
                }
            }
        }
    }

    /// Where the statement from `offset` starts: after white space and `--` comments.
    private static func statementStart(in text: UnsafeBufferPointer<UInt8>, from offset: Int) -> Int {
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
