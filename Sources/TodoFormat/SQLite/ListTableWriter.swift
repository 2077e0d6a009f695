import Foundation

/// todofmt's own table for a list: the columns it needs, and its rows made one at a time
/// (FORMAT.md, section 7.7).
struct OwnTable {
    var columns: [(name: String, type: String)]
    private let list: TodoList
    private let keys: [String]

    init(_ list: TodoList) {
        self.list = list
        // One column per field key, typed by the values it holds.
        var keys: [String] = []
        var kinds: [String: Set<String>] = [:]
        func visit(_ items: [TodoItem]) {
            for item in items {
                for field in item.fields where field.value != .null {
                    if kinds[field.key] == nil { keys.append(field.key) }
                    kinds[field.key, default: []].insert(Self.kind(of: field.value))
                }
                if !item.children.isEmpty { visit(item.children) }
            }
        }
        visit(list.items)
        self.keys = keys
        columns = [
            ("id", "INTEGER PRIMARY KEY"), ("parent", "INTEGER REFERENCES \(ListTable.ownName)(id)"),
            ("position", "INTEGER NOT NULL"), ("name", "TEXT NOT NULL"), ("checked", "BOOLEAN NOT NULL"), ("status", "TEXT"),
            ("section", "TEXT"),
        ]
        for key in keys {
            let set = kinds[key]!
            let type = set.count == 1 ? set.first! : ""
            // A field named like a structure column gets a column of its own name.
            columns.append((ListTable.ownColumns.contains(key) || key.hasPrefix("field:") ? "field:" + key : key, type))
        }
    }

    /// Every row in id order (items depth first): id, parent, position, the item.
    private func forEachRow(_ body: (Int64, Int64?, Int, TodoItem) throws -> Void) rethrows {
        var nextID: Int64 = 1
        func add(_ items: [TodoItem], parent: Int64?) throws {
            for (position, item) in items.enumerated() {
                let id = nextID
                nextID += 1
                try body(id, parent, position, item)
                if !item.children.isEmpty { try add(item.children, parent: id) }
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
        for key in keys { row.append(item.fields.isEmpty ? .null : item.fields[key: key].map(Self.sqlValue) ?? .null) }
        return row
    }

    private static func kind(of value: FieldValue) -> String {
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

    var createStatement: String {
        "CREATE TABLE \(ListTable.ownName) (" + columns.map { "\(Database.quote($0.name)) \($0.type)".trimmingCharacters(in: .whitespaces) }.joined(separator: ", ") + ")"
    }

    var insertStatement: String {
        "INSERT INTO \(ListTable.ownName) VALUES (" + Array(repeating: "?", count: columns.count).joined(separator: ", ") + ")"
    }

    /// Creates the table and its rows in `db` (in the caller's transaction), with one
    /// prepared statement.
    func write(to db: Database) throws {
        do {
            try db.execute("DROP TABLE IF EXISTS \(ListTable.ownName)")
            try db.execute(createStatement)
            let insert = try db.prepare(insertStatement)
            try forEachRow { id, parent, position, item in try insert.run(row(id, parent, position, item)) }
        }
    }

    /// The table as an SQL dump, as `sqlite3 DB .dump` writes one.
    func dump(to sink: inout ByteSink) {
        sink.write("PRAGMA foreign_keys=OFF;\nBEGIN TRANSACTION;\n")
        sink.write(createStatement + ";\n")
        let prefix = "INSERT INTO \(ListTable.ownName) VALUES("
        forEachRow { id, parent, position, item in
            sink.write(prefix)
            for (i, value) in row(id, parent, position, item).enumerated() {
                if i > 0 { sink.write(byte: UInt8(ascii: ",")) }
                value.writeLiteral(to: &sink)
            }
            sink.write(");\n")
        }
        sink.write("COMMIT;\n")
    }
}

extension SQLValue {
    /// The value as SQL text, written straight to the sink (a dump has a million of them).
    func writeLiteral(to sink: inout ByteSink) {
        guard case .text(let s) = self else {
            sink.write(literal)
            return
        }
        sink.write(byte: UInt8(ascii: "'"))
        var clean = true
        for b in s.utf8 where b == UInt8(ascii: "'") {
            clean = false
            break
        }
        if clean {
            sink.write(s)
        } else {
            for b in s.utf8 {
                sink.write(byte: b)
                if b == UInt8(ascii: "'") { sink.write(byte: b) }
            }
        }
        sink.write(byte: UInt8(ascii: "'"))
    }
}

/// Writes a list into an app's existing table in place (FORMAT.md, section 7.7).
struct TableUpdate {
    let table: ListTable
    let db: Database
    /// Fields that have no column in the table, for a warning.
    private(set) var leftOut: Set<String> = []

    init(table: ListTable, db: Database) {
        self.table = table
        self.db = db
    }

    /// Updates changed rows, inserts new items, deletes rows whose items are gone (in the
    /// caller's transaction).
    mutating func write(_ list: TodoList) throws {
        var items: [TodoItem] = []
        func flatten(_ list: [TodoItem]) {
            for item in list {
                items.append(item)
                flatten(item.children)
            }
        }
        // A table without a parent column holds nested items one after another.
        flatten(list.items)
        if let order = table.orderColumn {
            items = Ordering.renumbered(items.map { var i = $0; i.children = []; return i }, schema: ItemSchema(naming: [.order: order]))
        }
        let columnsByName = Dictionary(uniqueKeysWithValues: table.columns.map { ($0.name, $0) })
        let key = table.keyField
        let existing = try db.rows("SELECT \(table.keyColumn.map(Database.quote) ?? "rowid"), * FROM \(Database.quote(table.name))")
        var rows: [SQLValue: [String: SQLValue]] = [:]
        for row in existing {
            var values: [String: SQLValue] = [:]
            for (i, column) in table.columns.enumerated() { values[column.name] = row[i + 1] }
            rows[row[0]] = values
        }
        var seen: Set<SQLValue> = []
        var leftOut: Set<String> = []
        // Columns whose dates are `yyyy-MM-dd HH:mm:ss` text, found once rather than per value.
        var sqlDates: Set<String> = []
        for values in rows.values {
            for (column, value) in values {
                if case .text(let s) = value, s.count == 19, s.utf8.dropFirst(10).first == 32 { sqlDates.insert(column) }
            }
        }
        // Rows differ in which columns change, but the same statements recur: prepared once each.
        var statements: [String: Statement] = [:]
        func run(_ sql: String, _ arguments: [SQLValue]) throws {
            let statement = try statements[sql] ?? db.prepare(sql)
            statements[sql] = statement
            try statement.run(arguments)
        }
        // A creation date that is also the key (the notes app's cdate, kept to the second) must
        // differ from every other key: new rows take the write time, moved on a second at a
        // time past keys already taken, so they stay unique and in list order.
        var takenKeys = Set(rows.keys)
        if key == table.dateColumn {
            for item in items {
                if let field = item.fields.first(where: { $0.key == key }) {
                    takenKeys.insert(Self.storage(field.value, column: columnsByName[key], table: table, sqlDates: sqlDates))
                }
            }
        }
        var writeTime = Clock.now
        do {
            var maxKey: Int64 = 0
            if let entity = table.entity,
                case .integer(let m)? = try db.rows("SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT = ?", [.integer(Int64(entity))]).first?.first
            {
                maxKey = m
            }
            let startMax = maxKey
            for item in items {
                var values: [String: SQLValue] = [table.nameColumn: .text(item.name)]
                if let checked = table.checkedColumn { values[checked] = .integer(item.isChecked ? 1 : 0) }
                var rowKey: SQLValue? = nil
                for field in item.fields {
                    if field.key == key {
                        rowKey = Self.storage(field.value, column: columnsByName[key], table: table, sqlDates: sqlDates)
                        continue
                    }
                    guard let column = columnsByName[field.key], !ListTable.coreDataBookkeeping.contains(field.key) || !table.isCoreData else {
                        leftOut.insert(field.key)
                        continue
                    }
                    values[field.key] = Self.storage(field.value, column: column, table: table, sqlDates: sqlDates)
                }
                if let rowKey, let old = rows[rowKey] {
                    seen.insert(rowKey)
                    // Only the columns that differ are written; an unchanged row is not touched.
                    let changed = values.filter { column, value in !Self.same(old[column] ?? .null, value) }
                    // Columns the item no longer has become NULL (a field removed in the checklist).
                    var cleared: [String] = []
                    for (column, _) in table.fieldColumns.map({ ($0.column.name, $0.key) })
                    where column != key && values[column] == nil && old[column] != nil && old[column] != .null {
                        cleared.append(column)
                    }
                    if changed.isEmpty && cleared.isEmpty { continue }
                    var assignments = changed.keys.sorted().map { "\(Database.quote($0)) = ?" }
                    var arguments = changed.keys.sorted().map { changed[$0]! }
                    for column in cleared {
                        assignments.append("\(Database.quote(column)) = NULL")
                    }
                    if table.isCoreData { assignments.append("Z_OPT = COALESCE(Z_OPT, 0) + 1") }
                    arguments.append(rowKey)
                    try run(
                        "UPDATE \(Database.quote(table.name)) SET \(assignments.joined(separator: ", ")) WHERE \(table.keyColumn.map(Database.quote) ?? "rowid") = ?",
                        arguments)
                } else {
                    // A new row gets its creation date now, as the app would give it (the notes app's
                    // cdate, which is also its key; the note app's createTime).
                    if let dateColumn = table.dateColumn, values[dateColumn] == nil, rowKey == nil || dateColumn != key {
                        var now = Self.storage(.date(writeTime), column: columnsByName[dateColumn], table: table, sqlDates: sqlDates)
                        if dateColumn == key {
                            while takenKeys.contains(now) {
                                writeTime += 1
                                now = Self.storage(.date(writeTime), column: columnsByName[dateColumn], table: table, sqlDates: sqlDates)
                            }
                            takenKeys.insert(now)
                            rowKey = now
                        } else {
                            values[dateColumn] = now
                        }
                    }
                    if let entity = table.entity {
                        maxKey += 1
                        values["Z_PK"] = .integer(maxKey)
                        values["Z_ENT"] = .integer(Int64(entity))
                        values["Z_OPT"] = .integer(1)
                    } else if let rowKey, let keyColumn = table.keyColumn {
                        values[keyColumn] = rowKey
                    }
                    let names = values.keys.sorted()
                    try run(
                        "INSERT INTO \(Database.quote(table.name)) (\(names.map(Database.quote).joined(separator: ", "))) VALUES (\(Array(repeating: "?", count: names.count).joined(separator: ", ")))",
                        names.map { values[$0]! })
                }
            }
            for (rowKey, _) in rows where !seen.contains(rowKey) {
                try run("DELETE FROM \(Database.quote(table.name)) WHERE \(table.keyColumn.map(Database.quote) ?? "rowid") = ?", [rowKey])
            }
            if let entity = table.entity, maxKey != startMax {
                try run("UPDATE Z_PRIMARYKEY SET Z_MAX = ? WHERE Z_ENT = ?", [.integer(maxKey), .integer(Int64(entity))])
            }
        }
        self.leftOut = leftOut
    }

    /// Two stored values that mean the same (dates read back within a microsecond).
    private static func same(_ a: SQLValue, _ b: SQLValue) -> Bool {
        if a == b { return true }
        if case .real(let x) = a, case .real(let y) = b { return abs(x - y) < 1e-6 }
        if case .integer(let x) = a, case .real(let y) = b { return Double(x) == y }
        return false
    }

    /// A field value as the column stores it: Core Data dates as seconds since 2001, text
    /// dates in the column's own layout, booleans as 0 and 1.
    static func storage(_ value: FieldValue, column: ColumnInfo?, table: ListTable, sqlDates: Set<String>) -> SQLValue {
        switch value {
        case .date(let d):
            if table.isCoreData && (column?.isDateType ?? false) { return .real(d.timeIntervalSinceReferenceDate) }
            // Keep `yyyy-MM-dd HH:mm:ss` where the column has dates that way (the notes app's cdate).
            if let name = column?.name, sqlDates.contains(name) { return .text(ISO8601.formatSQL(d)) }
            return .text(ISO8601.format(d))
        case .bool(let b): return .integer(b ? 1 : 0)
        default: return OwnTable.sqlValue(value)
        }
    }
}
