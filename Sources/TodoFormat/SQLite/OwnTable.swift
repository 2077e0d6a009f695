internal import CSQLite
import Foundation

/// todofmt's own table for a list: the columns it needs, and its rows made one at a time
/// (FORMAT.md, section 7.7).
struct OwnTable {
    var columns: [(name: String, type: String)]
    /// The table's name: `todo_items`, or what `--table` named.
    let name: String
    private let list: TodoList
    private var keys: [String]
    /// The kinds of value (`kind(of:)`) each key has.
    private let kinds: [ExactText: Set<String>]

    init(_ list: TodoList, name: String = ListTable.ownName) {
        // One column per field key, typed by the values it holds.
        var keys: [String] = []
        // Keys by their bytes: two forms of `é` are two keys, and two columns.
        var kinds: [ExactText: Set<String>] = [:]
        func visit(_ items: [TodoItem]) {
            for i in items.indices {
                for field in items[i].fields where field.value != .null {
                    let key = ExactText(field.key)
                    if kinds[key] == nil { keys.append(field.key) }
                    kinds[key, default: []].insert(Self.kind(of: field.value))
                }
                if !items[i].children.isEmpty { visit(items[i].children) }
            }
        }
        visit(list.items)
        self.init(keys: keys, kinds: kinds, name: name, list: list)
    }

    /// The table for field keys in the order they first have a value (`keys`), and the
    /// kinds of value (`kind(of:)`) each has; its rows are those of `list`.
    init(keys: [String], kinds: [ExactText: Set<String>], name: String, list: TodoList = TodoList()) {
        self.list = list
        self.name = name
        self.keys = keys
        self.kinds = kinds
        columns = [
            ("id", "INTEGER PRIMARY KEY"), ("parent", "INTEGER REFERENCES \(Self.reference(name))(id)"),
            ("position", "INTEGER NOT NULL"), ("name", "TEXT NOT NULL"), ("checked", "BOOLEAN NOT NULL"),
            ("status", "TEXT"),
            ("section", "TEXT"),
        ]
        // The rowid's names too: a column so named hides the row's id from SQL (which the
        // write into an existing dump relies on).
        var taken = Set(columns.map { Self.folded($0.name) } + Self.rowIDNames)
        for key in keys {
            let set = kinds[ExactText(key)]!
            let type = set.count == 1 ? set.first! : ""
            let name = Self.columnName(for: key, taken: taken)
            taken.insert(Self.folded(name))
            columns.append((name, type))
        }
    }

    /// The declared types of the field keys' columns, in the keys' order.
    var fieldColumnTypes: [String] { columns[ListTable.ownColumns.count...].map(\.type) }

    /// The names SQL gives a row's id, which a column so named hides.
    private static let rowIDNames = ["rowid", "_rowid_", "oid"]

    /// The column for a field key: its name, or `field:` and its name for a key named like a
    /// structure column, the rowid or another column to SQLite (which ignores ASCII case:
    /// `K` beside `k`, `Parent`, `ROWID`), or that starts `field:`. (The reader takes
    /// `field:` off again.)
    private static func columnName(for key: String, taken: Set<String>) -> String {
        key.hasPrefix("field:") || taken.contains(folded(key)) ? "field:" + key : key
    }

    /// Refuses a list two of whose field keys would be one column to SQLite even as
    /// `field:KEY` (`status` and `STATUS`: both are taken, and SQLite ignores ASCII case),
    /// which no table holds: SQLite refuses the table, and a dump of it would not load.
    func checkColumnNames() throws {
        var seen: [String: String] = [:]
        for column in columns {
            let folded = Self.folded(column.name)
            let key = column.name.hasPrefix("field:") ? String(column.name.dropFirst(6)) : column.name
            if let other = seen[folded] {
                throw ConversionError.unsupported(
                    "the fields '\(other)' and '\(key)' would be one column to SQLite, which ignores the case of ASCII letters in names: rename one"
                )
            }
            seen[folded] = key
        }
    }

    /// A name as SQLite compares names: ASCII letters in lower case.
    private static func folded(_ name: String) -> String {
        String(decoding: name.utf8.map { $0 >= 65 && $0 <= 90 ? $0 + 32 : $0 }, as: UTF8.self)
    }

    /// What the table's columns cannot give back as the list has it (`SQLiteValueLoss`).
    var warnings: [ConversionWarning] {
        var log = WarningLog()
        var types: [ExactText: String] = [:]
        for (i, key) in keys.enumerated() { types[ExactText(key)] = columns[ListTable.ownColumns.count + i].type }
        var positions = ItemPositions()
        func visit(_ items: [TodoItem], depth: Int) {
            for i in items.indices {
                // The position's text is made only for a warning (a million items have none).
                positions.advance(depth: depth)
                for field in items[i].fields {
                    SQLiteValueLoss.note(field.value, declaredType: types[ExactText(field.key)] ?? "", in: &log) {
                        ItemPositions.describe(positions.current, items[i])
                    }
                }
                if !items[i].children.isEmpty { visit(items[i].children, depth: depth + 1) }
            }
        }
        visit(list.items, depth: 0)
        return log.warnings
    }

    /// Every row in id order (items depth first): id, parent, position, the item.
    private func forEachRow(_ body: (Int64, Int64?, Int, TodoItem) throws -> Void) rethrows {
        var nextID: Int64 = 1
        // Items are lent to `body` where they stand: a copy of each (its strings and arrays
        // retained, then released) was a fifth of writing into an existing table.
        func add(_ items: [TodoItem], parent: Int64?) throws {
            for position in items.indices {
                let id = nextID
                nextID += 1
                try body(id, parent, position, items[position])
                if !items[position].children.isEmpty { try add(items[position].children, parent: id) }
            }
        }
        try add(list.items, parent: nil)
    }

    private func row(_ id: Int64, _ parent: Int64?, _ position: Int, _ item: TodoItem) -> [SQLValue] {
        var row: [SQLValue] = [
            .integer(id), parent.map { .integer($0) } ?? .null, .integer(Int64(position)), .text(item.name),
            .integer(item.isChecked ? 1 : 0),
            { if case .custom(let s) = item.status { return .text(String(s)) } else { return .null } }(),
            item.section.map { .text($0) } ?? .null,
        ]
        for key in keys {
            row.append(item.fields.isEmpty ? .null : item.fields.value(exactKey: key).map(Self.sqlValue) ?? .null)
        }
        return row
    }

    /// The column type todofmt's table gives values of this kind.
    static func kind(of value: FieldValue) -> String {
        switch value {
        case .string: "TEXT"
        case .integer: "INTEGER"
        case .bigInteger: "TEXT"
        case .double: "REAL"
        case .bool: "BOOLEAN"
        case .date: "DATETIME"
        case .data: "BLOB"
        case .array, .dictionary: "JSON"
        case .null: ""
        }
    }

    /// Whether `column` gives back values of `kind` (a type `kind(of:)` names) as they were
    /// written, stored under its affinity and read as its declared type says: an app's
    /// `VARCHAR(40)` holds text as `TEXT` does, an `INT` integers, while an `INTEGER` column
    /// turns the text `12` into a number and a `NUMERIC` one 2.0 into 2. (Integers in a
    /// boolean column: only those other than 0 and 1, which read as booleans; `holds`.)
    static func column(_ column: ColumnInfo, holds kind: String) -> Bool {
        let affinity = column.affinity
        switch kind {
        case "TEXT": return !column.isDateType && !column.isJSONType && [.text, .blob].contains(affinity)
        case "INTEGER": return !column.isBooleanType && [.integer, .numeric, .blob].contains(affinity)
        case "REAL": return !column.isBooleanType && [.real, .blob].contains(affinity)
        case "BOOLEAN": return column.isBooleanType && [.integer, .numeric].contains(affinity)
        case "DATETIME": return column.isDateType && [.numeric, .text, .blob].contains(affinity)
        case "JSON": return column.isJSONType
        default: return true  // blobs: no affinity changes one
        }
    }

    /// Whether `column` gives back `value` as it was written (`column(_:holds:)`).
    static func column(_ column: ColumnInfo, holds value: FieldValue) -> Bool {
        if case .integer(let i) = value, column.isBooleanType {
            return i != 0 && i != 1 && [.integer, .numeric].contains(column.affinity)
        }
        return value == .null || Self.column(column, holds: kind(of: value))
    }

    /// Whether every value of `key` the list has comes back from `column` as it was written.
    private func column(_ column: ColumnInfo, holdsValuesOf key: String) -> Bool {
        let exact = ExactText(key)
        guard let kinds = kinds[exact] else { return true }
        if kinds.count == 1, let kind = kinds.first, !(kind == "INTEGER" && column.isBooleanType) {
            return Self.column(column, holds: kind)
        }
        // Several kinds (a boolean column's integers): value by value.
        func visit(_ items: [TodoItem]) -> Bool {
            for i in items.indices {
                if !items[i].fields.isEmpty, let value = items[i].fields.value(exactKey: key),
                    !Self.column(column, holds: value)
                {
                    return false
                }
                if !items[i].children.isEmpty, !visit(items[i].children) { return false }
            }
            return true
        }
        return visit(list.items)
    }

    /// A field value as todofmt's table stores it.
    static func sqlValue(_ value: FieldValue) -> SQLValue {
        switch value {
        case .string(let s): .text(s)
        case .integer(let i): .integer(Int64(i))
        case .bigInteger(let digits): .text(digits)
        case .double(let d): .real(d)
        case .bool(let b): .integer(b ? 1 : 0)
        case .date(let d): .text(ISO8601.format(d))
        case .data(let d): .blob(d)
        case .array, .dictionary: .text(JSONText.encode(value))
        case .null: .null
        }
    }

    /// The table's name as `REFERENCES` and `INSERT INTO` write it: bare when it can be.
    static func reference(_ name: String) -> String {
        DumpLiteral.tableName(name)
    }

    var createStatement: String {
        "CREATE TABLE \(Self.reference(name)) ("
            + columns.map { "\(Database.quote($0.name)) \($0.type)".trimmingCharacters(in: .whitespaces) }.joined(
                separator: ", ") + ")"
    }

    var insertStatement: String {
        "INSERT INTO \(Database.quote(name)) VALUES ("
            + Array(repeating: "?", count: columns.count).joined(separator: ", ") + ")"
    }

    /// Creates the table and its rows in `db` (in the caller's transaction), with one
    /// prepared statement.
    func write(to db: Database) throws {
        do {
            try db.execute("DROP TABLE IF EXISTS \(Database.quote(name))")
            try db.execute(createStatement)
            let insert = try db.prepare(insertStatement)
            try forEachRow { id, parent, position, item in try insert.run(row(id, parent, position, item)) }
        }
    }

    /// The table for the same list with the field columns `table` has, in its order and
    /// with its types (columns no item uses stay, empty: an app may name them), and the
    /// list's other keys' columns after them; whether a column must be made again, because
    /// the list's values for it need another type (`column(_:holds:)`), which it then has.
    /// Nil when the structure columns are not todofmt's, first.
    private func fitted(to table: ListTable) -> (table: OwnTable, retyped: Bool)? {
        let own = ListTable.ownColumns.count
        guard table.columns.count >= own, zip(table.columns, columns).prefix(own).allSatisfy({ $0.name == $1.name })
        else { return nil }
        var types: [ExactText: String] = [:]
        for (i, key) in keys.enumerated() { types[ExactText(key)] = columns[own + i].type }
        var fitted = self
        var retyped = false
        fitted.keys = []
        fitted.columns.removeLast(columns.count - own)
        for column in table.columns[own...] {
            let key = column.name.hasPrefix("field:") ? String(column.name.dropFirst(6)) : column.name
            let exact = ExactText(key)
            // (A name that two keys would share, `x` and `field:x`, is left to a new table.)
            guard fitted.keys.allSatisfy({ ExactText($0) != exact }) else { return nil }
            var type = column.declaredType
            if let needed = types.removeValue(forKey: exact), !self.column(column, holdsValuesOf: key) {
                type = needed
                retyped = true
            }
            fitted.keys.append(key)
            fitted.columns.append((column.name, type))
        }
        var taken = Set(fitted.columns.map { Self.folded($0.name) } + Self.rowIDNames)
        for (i, key) in keys.enumerated() where types[ExactText(key)] != nil {
            let name = Self.columnName(for: key, taken: taken)
            taken.insert(Self.folded(name))
            fitted.keys.append(key)
            fitted.columns.append((name, columns[own + i].type))
        }
        return (fitted, retyped)
    }

    /// Writes the list into todofmt's table as it stands in `db`, changing only the rows
    /// that differ from what a new table would hold (rows are numbered depth first, so an
    /// unchanged list changes nothing and one changed item one row). Keys the table has no
    /// column for get one (`ALTER TABLE … ADD COLUMN`); a table with a column that cannot
    /// hold the list's values is made again, its other columns as they are. Returns what the
    /// table could not keep.
    func update(in db: Database, table: ListTable) throws -> [ConversionWarning] {
        guard let (fitted, retyped) = fitted(to: table) else { return try remake(in: db) }
        return retyped ? try fitted.remake(in: db) : try fitted.updateRows(in: db, table: table)
    }

    private func updateRows(in db: Database, table: ListTable) throws -> [ConversionWarning] {
        for column in columns[table.columns.count...] {
            try db.execute(
                "ALTER TABLE \(Database.quote(name)) ADD COLUMN "
                    + "\(Database.quote(column.name)) \(column.type)".trimmingCharacters(in: .whitespaces))
        }
        // Rows are matched by id: ids that are not distinct integers (a table made by hand
        // without `INTEGER PRIMARY KEY`) cannot say which row is which; deleting by such an
        // id would delete every row that has it. The table is made again.
        let idIsRowID =
            table.columns.filter(\.isPrimaryKey).map(\.name) == ["id"]
            && table.columns.first { $0.name == "id" }?.declaredType.uppercased() == "INTEGER"
        if !idIsRowID {
            let q = Database.quote(name)
            let odd = try db.scalar(
                "SELECT (SELECT count(*) FROM \(q) WHERE typeof(id) != 'integer') "
                    + "+ (SELECT count(*) - count(DISTINCT id) FROM \(q))")
            guard odd == .integer(0) else { return try remake(in: db) }
        }
        // First the differences, by id, while the table is only read.
        let select = try db.prepare("SELECT * FROM \(Database.quote(name)) ORDER BY id")
        var more = try select.step()
        var updates: [Int64: [Int]] = [:]
        var inserts: [Int64] = []
        var deletes: [Int64] = []
        try forEachRow { id, parent, position, item in
            while more && select.int64(0) < id {
                deletes.append(select.int64(0))
                more = try select.step()
            }
            guard more && select.int64(0) == id else {
                inserts.append(id)
                return
            }
            if !matches(select, id, parent, position, item) {
                let new = row(id, parent, position, item)
                let own = ListTable.ownColumns.count
                updates[id] = new.indices.filter { i in
                    i < own ? !select.holds(new[i], at: i) : !holds(select, item.field(exactKey: keys[i - own]), at: i)
                }
            }
            more = try select.step()
        }
        while more {
            deletes.append(select.int64(0))
            more = try select.step()
        }
        guard !updates.isEmpty || !inserts.isEmpty || !deletes.isEmpty else { return [] }
        var statements = StatementCache(db: db)
        for id in deletes { try statements.run("DELETE FROM \(Database.quote(name)) WHERE id = ?", [.integer(id)]) }
        // Then the rows that differ, in id order; the walk stops after the last of them.
        let targets = (Array(updates.keys) + inserts).sorted()
        guard !targets.isEmpty else { return [] }
        let insert = try db.prepare(insertStatement)
        // (Only fields take a default: NULL in todofmt's columns says the item's structure.)
        let defaults = Set(
            table.columns.indices.filter { $0 >= ListTable.ownColumns.count && table.columns[$0].hasDefault })
        var next = 0
        struct Done: Error {}
        do {
            try forEachRow { id, parent, position, item in
                guard id == targets[next] else { return }
                next += 1
                if let differing = updates[id] {
                    let new = row(id, parent, position, item)
                    try statements.run(
                        "UPDATE \(Database.quote(name)) SET \(differing.map { "\(Database.quote(columns[$0].name)) = ?" }.joined(separator: ", ")) WHERE id = ?",
                        differing.map { new[$0] } + [.integer(id)])
                } else {
                    // A column with a default gets it where the item has no value for it.
                    let values = row(id, parent, position, item)
                    let given = values.indices.filter { values[$0] != .null || !defaults.contains($0) }
                    if given.count == values.count {
                        try insert.run(values)
                    } else {
                        try statements.run(
                            "INSERT INTO \(Database.quote(name)) (\(given.map { Database.quote(columns[$0].name) }.joined(separator: ", "))) VALUES (\(given.map { _ in "?" }.joined(separator: ", ")))",
                            given.map { values[$0] })
                    }
                }
                if next == targets.count { throw Done() }
            }
        } catch is Done {}
        return []
    }

    /// Makes the table again (`write`) in place of the one in `db`, and then its indexes and
    /// triggers as they were; those that name a column the table no longer has are left out,
    /// each a warning. A unique index the rows would break fails the write.
    private func remake(in db: Database) throws -> [ConversionWarning] {
        let dependents = try db.dependents(of: name)
        try write(to: db)
        var log = WarningLog()
        for (type, dependent, sql) in dependents {
            do {
                try db.execute(sql)
            } catch  where error.code & 0xFF == SQLITE_CONSTRAINT {
                throw error  // a unique index the rows no longer keep: the write fails, as an UPDATE would
            } catch {
                log.append(
                    contentsOf: [
                        ConversionWarning(
                            .fields,
                            "the table was made again for the list's fields, and its \(type) \(dependent) no longer "
                                + "could be (\(error.message)); it was left out")
                    ])
            }
        }
        return log.warnings
    }

    /// Whether the statement's row holds what `row` would, compared without making it.
    private func matches(_ select: Statement, _ id: Int64, _ parent: Int64?, _ position: Int, _ item: TodoItem) -> Bool
    {
        guard select.holds(parent.map { .integer($0) } ?? .null, at: 1), select.holds(.integer(Int64(position)), at: 2),
            select.holds(item.nameStorage, at: 3), select.holds(.integer(item.isChecked ? 1 : 0), at: 4)
        else { return false }
        if case .custom(let s) = item.status {
            guard select.holds(.text(String(s)), at: 5) else { return false }
        } else if !select.isNull(5) {
            return false
        }
        guard select.holds(item.section.map { .text($0) } ?? .null, at: 6) else { return false }
        for (k, key) in keys.enumerated() where !holds(select, item.field(exactKey: key), at: 7 + k) { return false }
        return true
    }

    /// Whether column `i` of the statement's row holds a field's value (nil: no field): as
    /// todofmt writes it, or for a date or a JSON value, as a text that reads as the same
    /// one (a date written with another zone or fraction, JSON spaced otherwise), which a
    /// write leaves as it is.
    private func holds(_ select: Statement, _ value: FieldValue?, at i: Int) -> Bool {
        guard let value else { return select.isNull(i) }
        if select.holds(Self.sqlValue(value), at: i) { return true }
        guard case .text(let text) = select.value(i) else { return false }
        switch value {
        case .date(let date): return ISO8601.parse(text.utf8, assumeUTC: true) == date
        case .array, .dictionary: return JSONScanner.wholeValue(of: Array(text.utf8)) == value
        default: return false
        }
    }
}

extension SQLValue {
    /// The value as SQL text, written straight to the sink (a dump has a million of them).
    /// A NUL inside a text is written as `char(0)` joined to the rest, and a text with a
    /// carriage return as the shell's `.dump` writes it (`replace('…\r…','\r',char(13))`:
    /// the shell drops a raw one before a line feed when it reads the dump), so that the text
    /// loads back whole.
    func writeLiteral(to sink: inout ByteSink) {
        // NULL and integers, most of a dump's columns, without a string made of them.
        switch self {
        case .null:
            sink.write(static: "NULL")
        case .integer(let i):
            sink.write(upTo: 20) { start in
                var pen = BytePen(at: start)
                pen.decimal(Int(i))
                return start.distance(to: pen.at)
            }
        case .text(let s):
            // Eight bytes at a time (a byte at a time through the string's view was a fifth
            // of `convert x.md x.sql`).
            let special =
                s.utf8.withContiguousStorageIfAvailable(ByteScan.containsSQLSpecial)
                ?? s.utf8.contains { $0 == UInt8(ascii: "'") || $0 == 0 || $0 == 13 }
            if !special {
                sink.write(byte: UInt8(ascii: "'"))
                sink.write(s)
                sink.write(byte: UInt8(ascii: "'"))
            } else {
                sink.write(DumpLiteral.quoted(s, escapingLineBreaks: s.utf8.contains(13)))
            }
        case .real, .blob:
            sink.write(literal)
        }
    }
}

extension TodoItem {
    /// The value of its field whose key has exactly these bytes (`value(exactKey:)`).
    fileprivate func field(exactKey key: String) -> FieldValue? {
        fields.isEmpty ? nil : fields.value(exactKey: key)
    }
}
