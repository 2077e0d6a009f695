internal import CSQLite
import Foundation

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
    let handle: OpaquePointer
    /// The file as errors name it.
    let path: String

    /// Opens a database file; `readOnly` never changes it (a `-wal` beside it is read too).
    /// `name` is the file as errors name it, when it is not `path`.
    init(path: String, readOnly: Bool, name: String? = nil) throws(StoreError) {
        self.path = name ?? path
        var db: OpaquePointer?
        let flags =
            (readOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE) | SQLITE_OPEN_URI
            | SQLITE_OPEN_NOMUTEX
        // Read-only opens go through a URI (mode=ro); the path is escaped for it.
        let target =
            readOnly && path != ":memory:"
            ? "file:" + (path.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? path) + "?mode=ro" : path
        let code = sqlite3_open_v2(target, &db, flags, nil)
        guard code == SQLITE_OK, let db else {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? "cannot open the database"
            if let db { sqlite3_close_v2(db) }
            throw StoreError(
                code: code, message: message, location: SourceLocation(file: name ?? path, byteOffset: 0).withoutOffset)
        }
        handle = db
        sqlite3_extended_result_codes(db, 1)
        // A locked database waits a little, then fails with a clear error.
        sqlite3_busy_timeout(db, 2000)
    }

    deinit {
        sqlite3_close_v2(handle)
    }

    func error(_ code: Int32, sql: String? = nil) -> StoreError {
        var message = String(cString: sqlite3_errmsg(handle))
        // "disk I/O error" says little: the system's reason ("File too large", "No space
        // left on device") says what to do.
        let system = sqlite3_system_errno(handle)
        if code & 0xff == SQLITE_IOERR || code & 0xff == SQLITE_FULL {
            if system != 0 {
                message += ": " + String(cString: strerror(system))
            } else if code == SQLITE_IOERR | (3 << 8) || code & 0xff == SQLITE_FULL {  // SQLITE_IOERR_WRITE
                message += ": a write fell short (a full disk, or past a file size limit)"
            }
        }
        return StoreError(
            code: code, message: message, sql: sql,
            location: path == ":memory:" ? nil : SourceLocation(file: path, byteOffset: 0).withoutOffset)
    }

    /// The rows the last `INSERT`, `UPDATE` or `DELETE` changed.
    var changes: Int { Int(sqlite3_changes(handle)) }

    /// Whether a transaction is open (a `BEGIN` not yet ended).
    var isInTransaction: Bool { sqlite3_get_autocommit(handle) == 0 }

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
            throw error(
                code,
                sql: String(decoding: UnsafeBufferPointer(rebasing: text[start..<max(start, offset)]), as: UTF8.self))
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

    /// The first column of the first row of a query, or nil when there is no row.
    func scalar(_ sql: String, _ arguments: [SQLValue] = []) throws(StoreError) -> SQLValue? {
        let statement = try prepare(sql)
        try statement.bind(arguments)
        return try statement.step() ? statement.value(0) : nil
    }

    /// The names of the database's tables, in the order they were made.
    func tableNames() throws(StoreError) -> [String] {
        try rows("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY rowid").compactMap { row -> String? in
            if case .text(let name) = row[0] { return name }
            return nil
        }
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
        "\"" + name.replacingEvery("\"", with: "\"\"") + "\""
    }

    /// Quotes a text as an SQL string literal.
    static func literal(_ text: String) -> String {
        "'" + text.replacingEvery("'", with: "''") + "'"
    }
}

/// A value as SQLite stores it: its storage class and contents.
enum SQLValue: Hashable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob(Data)

    /// Whether SQLite would store the same: texts by their bytes (Swift's `==` calls texts
    /// in two Unicode normal forms equal, which a table keeps apart).
    func isIdentical(to other: SQLValue) -> Bool {
        if case .text(let a) = self, case .text(let b) = other { return a.utf8.elementsEqual(b.utf8) }
        return self == other
    }

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
        case .text(let s): return "'" + s.replacingEvery("'", with: "''") + "'"
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
            case .text(var s):
                // By its length: a NUL inside the text is part of it.
                code = s.withUTF8 { bytes in
                    bytes.withMemoryRebound(to: CChar.self) { text in
                        text.baseAddress.map { sqlite3_bind_text(handle, index, $0, Int32(text.count), Self.transient) }
                            ?? sqlite3_bind_text(handle, index, "", 0, Self.transient)
                    }
                }
            case .blob(let d):
                code = d.withUnsafeBytes {
                    sqlite3_bind_blob(handle, index, $0.baseAddress, Int32($0.count), Self.transient)
                }
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

    /// Whether a column's value is an integer.
    func isInteger(_ i: Int) -> Bool { sqlite3_column_type(handle, Int32(i)) == SQLITE_INTEGER }

    func int64(_ i: Int) -> Int64 { sqlite3_column_int64(handle, Int32(i)) }

    /// A text value's bytes as SQLite holds them (valid until the row changes); nil for a
    /// value of another class.
    func textBytes(_ i: Int) -> UnsafeBufferPointer<UInt8>? {
        let index = Int32(i)
        guard sqlite3_column_type(handle, index) == SQLITE_TEXT, let text = sqlite3_column_text(handle, index) else {
            return nil
        }
        return UnsafeBufferPointer(start: text, count: Int(sqlite3_column_bytes(handle, index)))
    }

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
        if var same = previous, same.utf8.count == count,
            count == 0 || same.withUTF8({ memcmp($0.baseAddress!, text, count) == 0 })
        {
            return same
        }
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

    /// A text column's bytes when they are not UTF-8 (`value` reads them repaired); nil
    /// for any other value.
    func textNotUTF8(_ i: Int) -> [UInt8]? {
        guard let bytes = textBytes(i) else { return nil }
        return UTF8Validation.isValid(bytes) ? nil : Array(bytes)
    }

    /// Whether a column's value is this text, compared without making a Swift value of it.
    func holds(_ text: Substring, at i: Int) -> Bool {
        let index = Int32(i)
        guard sqlite3_column_type(handle, index) == SQLITE_TEXT else { return false }
        let count = Int(sqlite3_column_bytes(handle, index))
        guard count == text.utf8.count else { return holdsRepaired(text.utf8, at: index) }
        guard count > 0, let stored = sqlite3_column_text(handle, index) else { return count == 0 }
        let same =
            text.utf8.withContiguousStorageIfAvailable { memcmp($0.baseAddress!, stored, count) == 0 }
            ?? text.utf8.elementsEqual(UnsafeBufferPointer(start: stored, count: count))
        return same || holdsRepaired(text.utf8, at: index)
    }

    /// Whether a text column holds bytes that are not UTF-8 and read as `text` (each bad
    /// sequence as U+FFFD): what todofmt read from it, so an unchanged item's text keeps
    /// its stored bytes rather than being written back repaired.
    private func holdsRepaired<C: Collection<UInt8>>(_ text: C, at index: Int32) -> Bool {
        guard text.contains(0xEF), let stored = sqlite3_column_text(handle, index) else { return false }
        let bytes = UnsafeBufferPointer(start: stored, count: Int(sqlite3_column_bytes(handle, index)))
        guard !UTF8Validation.isValid(bytes) else { return false }
        return String(decoding: bytes, as: UTF8.self).utf8.elementsEqual(text)
    }

    /// Whether a column's value is `value` (of the same storage class), compared without
    /// making a Swift value of it.
    func holds(_ value: SQLValue, at i: Int) -> Bool {
        let index = Int32(i)
        let type = sqlite3_column_type(handle, index)
        switch value {
        case .null: return type == SQLITE_NULL
        case .integer(let v): return type == SQLITE_INTEGER && sqlite3_column_int64(handle, index) == v
        case .real(let v): return type == SQLITE_FLOAT && sqlite3_column_double(handle, index) == v
        case .text(var s):
            guard type == SQLITE_TEXT else { return false }
            let count = Int(sqlite3_column_bytes(handle, index))
            guard count == s.utf8.count else { return holdsRepaired(s.utf8, at: index) }
            guard count > 0, let text = sqlite3_column_text(handle, index) else { return count == 0 }
            return s.withUTF8 { memcmp($0.baseAddress!, text, count) == 0 } || holdsRepaired(s.utf8, at: index)
        case .blob(let d):
            guard type == SQLITE_BLOB else { return false }
            let count = Int(sqlite3_column_bytes(handle, index))
            guard count == d.count else { return false }
            guard count > 0, let blob = sqlite3_column_blob(handle, index) else { return count == 0 }
            return d.withUnsafeBytes { memcmp($0.baseAddress!, blob, count) == 0 }
        }
    }
}

extension SourceLocation {
    /// A location that names only the file.
    fileprivate var withoutOffset: SourceLocation { SourceLocation(file: file, line: 0, column: 0) }
}
