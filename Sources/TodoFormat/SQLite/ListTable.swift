import Foundation

/// A column of a table, as `PRAGMA table_info` describes it.
struct ColumnInfo: Hashable {
    var name: String
    /// The declared type, and what it says, worked out once (rows ask for every value).
    var declaredType: String {
        didSet {
            (isDateType, isBooleanType, isTextType, isJSONType) = Self.kinds(of: declaredType)
            affinity = Self.affinity(of: declaredType)
        }
    }
    /// Its place in the primary key, from 1; 0 when it is not part of it.
    var primaryKeyIndex = 0
    var notNull = false
    var hasDefault = false
    /// A date or time column by its declared type (`TIMESTAMP`, `DATETIME`, `DATE`).
    private(set) var isDateType: Bool
    private(set) var isBooleanType: Bool
    /// A column for text: no type, or one with text affinity (or `STRING`).
    private(set) var isTextType: Bool
    /// Declared `JSON`: text in it is read as a JSON value.
    private(set) var isJSONType: Bool

    init(name: String, declaredType: String) {
        self.name = name
        self.declaredType = declaredType
        (isDateType, isBooleanType, isTextType, isJSONType) = Self.kinds(of: declaredType)
        affinity = Self.affinity(of: declaredType)
    }

    var isPrimaryKey: Bool { primaryKeyIndex > 0 }

    /// SQLite's type affinity, by its rules for a declared type: what a value stored in the
    /// column is turned into.
    enum Affinity { case integer, text, blob, real, numeric }

    /// The column's affinity (worked out once, as the kinds are).
    private(set) var affinity: Affinity

    private static func affinity(of declaredType: String) -> Affinity {
        let t = declaredType.uppercased()
        if t.contains("INT") { return .integer }
        if t.contains("CHAR") || t.contains("CLOB") || t.contains("TEXT") { return .text }
        if t.isEmpty || t.contains("BLOB") { return .blob }
        if t.contains("REAL") || t.contains("FLOA") || t.contains("DOUB") { return .real }
        return .numeric
    }

    private static func kinds(of declaredType: String) -> (date: Bool, boolean: Bool, text: Bool, json: Bool) {
        let t = declaredType.uppercased()
        return (
            t.contains("DATE") || t.contains("TIME"), t.contains("BOOL"),
            t.isEmpty || t.contains("CHAR") || t.contains("TEXT") || t.contains("CLOB") || t.contains("STRING"),
            t == "JSON"
        )
    }
}

/// The table that holds a list, and what its columns mean (FORMAT.md, section 7.7).
struct ListTable {
    /// todofmt's own table.
    static let ownName = "todo_items"
    /// Its structure columns: not item fields.
    static let ownColumns = ["id", "parent", "position", "name", "checked", "status", "section"]

    var name: String
    var columns: [ColumnInfo]
    var isOwn = false
    /// False for a `WITHOUT ROWID` table, whose rows are found by their primary key.
    var hasRowID = true
    /// A Core Data store's entity whose rows are the list, and the store's model.
    var entity: CoreDataModel.Entity?
    var model: CoreDataModel?
    /// The `Z_ENT` values of the list's rows (the entity and those below it) when the table
    /// holds rows of other entities too.
    var entityNumbers: [Int]?
    var nameColumn: String
    /// The column of the checked role: 0/1, truth words, or codes the user mapped.
    var checkedColumn: String?
    /// The column of the status role: words (`completed`, `active`), one character, or codes.
    var statusColumn: String?
    /// Where there is neither: a completion date (`completed_at`), set when done.
    var completionColumn: String?
    var orderColumn: String?
    /// When a row was made, for ordering when there is no order column and for new rows.
    var dateColumn: String?
    /// When a row was last changed, set on every row todofmt changes.
    var modificationColumn: String?
    /// The columns that find a row again (the primary key, or Core Data's `Z_PK`); empty
    /// for the rowid.
    var keyColumns: [String] = []
    /// The schema the columns were matched with; its value mappings give the checked and
    /// status columns' codes.
    var schema: ItemSchema = .standard

    var isCoreData: Bool { entity != nil }
    /// The fields that carry a row's key: its key columns, or `rowid`.
    var keyFields: [String] { keyColumns.isEmpty ? ["rowid"] : keyColumns }

    /// Core Data's own columns, which are not item fields.
    static let coreDataBookkeeping: Set<String> = ["Z_ENT", "Z_OPT"]
    /// Columns that hold when a row was made, for ordering when there is no order column
    /// (compared as `ItemSchema.normalizedKey` gives them).
    static let creationDateNames: Set<String> = [
        "createtime", "cdate", "createdat", "created", "creationdate", "datecreated", "createdate", "createddate",
        "creationtime", "createdon", "insertedat", "dateadded", "addedat", "timestamp", "date",
    ]
    /// Columns that hold when a row was last changed.
    static let modificationDateNames: Set<String> = [
        "updatedat", "updated", "modifiedat", "modified", "modificationdate", "datemodified", "modifieddate",
        "lastmodified", "lastmodifieddate", "modifydate", "modifytime", "updatetime", "updatedate", "changedat",
        "lastupdated", "mtime",
    ]

    /// A column's name as a key: in a Core Data store the `Z` prefix goes (`ZNAME` is
    /// `name`) and so do the digits Core Data appends to attributes of the same name in
    /// entities that share a table (`ZTITLE1` is `title`).
    static func plainName(_ column: String, coreData: Bool) -> String {
        guard coreData, column.count > 1, column.hasPrefix("Z"), !column.hasPrefix("Z_") else { return column }
        let name = column.dropFirst()
        let trimmed = name.reversed().drop { $0.isASCII && $0.isNumber }
        return trimmed.isEmpty ? String(name) : String(trimmed.reversed())
    }

    /// The list's table: the entity the user named (`--entity`), the table the user named,
    /// else todofmt's own, else the one table (in a Core Data store, the one entity) with a
    /// name column. Several candidates are an error that names them.
    static func find(in db: Database, options: ListOptions) throws -> ListTable {
        let tables = try db.tableNames()
        let model = try CoreDataModel(db: db, tables: tables)
        let path = db.path
        let schema = options.schema
        if let entityName = options.entity {
            guard let model else {
                throw ConversionError.noList(
                    path: path,
                    reason:
                        "--entity names a Core Data entity, and this is not a Core Data store (it has no Z_PRIMARYKEY table)"
                )
            }
            guard let entity = model.entity(named: entityName) else {
                throw ConversionError.noList(
                    path: path,
                    reason:
                        "there is no entity '\(entityName)' (entities: \(model.entities.map(\.name).joined(separator: ", ")))"
                )
            }
            guard let table = model.table(of: entity) else {
                throw ConversionError.noList(
                    path: path,
                    reason: "entity '\(entity.name)' has no table (Z\(model.root(of: entity).name.uppercased()))")
            }
            if let named = options.table, named != table {
                throw ConversionError.noList(
                    path: path, reason: "entity '\(entity.name)' is in table '\(table)', not '\(named)'")
            }
            guard let found = try describe(table, in: db, model: model, entity: entity, schema: schema) else {
                throw ConversionError.noList(
                    path: path,
                    reason:
                        "entity '\(entity.name)' has no text attribute for the name; name its column with --field name=COLUMN"
                )
            }
            return found
        }
        if let table = options.table {
            guard tables.contains(table) else {
                throw ConversionError.noList(
                    path: path,
                    reason:
                        "there is no table '\(table)' (\(tables.isEmpty ? "the database has no tables" : "tables: " + tables.joined(separator: ", ")))"
                )
            }
            var entity: CoreDataModel.Entity? = nil
            if let model {
                let held = try entitiesWithRows(in: table, model: model, db: db)
                if held.count > 1 {
                    throw ConversionError.noList(
                        path: path,
                        reason:
                            "table '\(table)' holds the rows of several entities (\(held.map(\.name).joined(separator: ", "))); pick one with --entity"
                    )
                }
                entity = held.first ?? model.entities(in: table).first
            }
            guard let found = try describe(table, in: db, model: model, entity: entity, schema: schema) else {
                throw ConversionError.noList(
                    path: path,
                    reason: "table '\(table)' has no text column for the name; name it with --field name=COLUMN")
            }
            return found
        }
        if tables.contains(ownName), let own = try describe(ownName, in: db, model: nil, entity: nil, schema: schema),
            own.isOwn
        {
            return own
        }
        var candidates: [ListTable] = []
        var entityTables: Set<String> = []
        if let model {
            for entity in model.entities {
                guard let table = model.table(of: entity) else { continue }
                entityTables.insert(table)
                // An abstract entity (one with entities below it and no rows of its own) is not a list.
                let below = model.family(of: entity).count > 1
                if below,
                    try db.scalar(
                        "SELECT 1 FROM \(Database.quote(table)) WHERE Z_ENT = ? LIMIT 1",
                        [.integer(Int64(entity.number))]) == nil
                {
                    continue
                }
                if let found = try describe(table, in: db, model: model, entity: entity, schema: schema) {
                    candidates.append(found)
                }
            }
        }
        for name in tables where !name.hasPrefix("sqlite_") && !entityTables.contains(name) {
            if model != nil && (CoreDataModel.ownTables.contains(name) || CoreDataModel.isJoinTable(name)) { continue }
            if let found = try describe(name, in: db, model: nil, entity: nil, schema: schema) {
                candidates.append(found)
            }
        }
        if candidates.count == 1 { return candidates[0] }
        if candidates.isEmpty && tables.isEmpty {
            throw ConversionError.noList(path: path, reason: "the database has no tables, so no list")
        }
        if candidates.isEmpty {
            throw ConversionError.noList(
                path: path,
                reason: "no table has a name column (\(ItemSchema.synonyms[.name]!.joined(separator: ", "))); tables: "
                    + "\(tables.joined(separator: ", ")). Pick one with --table and name its column with --field name=COLUMN"
            )
        }
        if candidates.contains(where: \.isCoreData) {
            let described = candidates.map { table in
                table.entity.map { "\($0.name) in \(table.name)" } ?? "table \(table.name)"
            }
            throw ConversionError.noList(
                path: path,
                reason:
                    "several entities could be the list (\(described.joined(separator: ", "))); pick one with --entity")
        }
        throw ConversionError.noList(
            path: path,
            reason:
                "several tables could be the list (\(candidates.map(\.name).joined(separator: ", "))); pick one with --table"
        )
    }

    /// The entities that have rows in a table.
    private static func entitiesWithRows(in table: String, model: CoreDataModel, db: Database) throws -> [CoreDataModel
        .Entity]
    {
        let columns = try db.rows("PRAGMA table_info(\(Database.quote(table)))").compactMap { row -> String? in
            if case .text(let name) = row[1] { return name }
            return nil
        }
        guard columns.contains("Z_ENT") else { return [] }
        return try db.rows("SELECT DISTINCT Z_ENT FROM \(Database.quote(table)) ORDER BY Z_ENT").compactMap { row in
            if case .integer(let number) = row[0] { return model.entity(number: Int(number)) }
            return nil
        }
    }

    /// The roles of a table's columns; nil when it has no name column. In a Core Data
    /// store `entity` says whose rows are the list; in a table shared by several entities,
    /// only the columns its rows use play roles.
    static func describe(
        _ table: String, in db: Database, model: CoreDataModel?, entity: CoreDataModel.Entity?, schema: ItemSchema
    ) throws -> ListTable? {
        let columns = try db.rows("PRAGMA table_info(\(Database.quote(table)))").map { row -> ColumnInfo in
            var column = ColumnInfo(name: "", declaredType: "")
            if case .text(let n) = row[1] { column.name = n }
            if case .text(let t) = row[2] { column.declaredType = t }
            if case .integer(let n) = row[3] { column.notNull = n != 0 }
            column.hasDefault = row[4] != .null
            if case .integer(let p) = row[5] { column.primaryKeyIndex = Int(p) }
            return column
        }
        let names = Set(columns.map(\.name))
        let isEntity = entity != nil && names.contains("Z_PK") && names.contains("Z_ENT")
        // todofmt's table: by its name and columns, or (made under another name with
        // `--table`) by its first seven columns.
        if entity == nil
            && ((table == ownName && Set(ownColumns).isSubset(of: names))
                || Array(columns.prefix(ownColumns.count).map(\.name)) == ownColumns)
        {
            var own = ListTable(
                name: table, columns: columns, isOwn: true, nameColumn: "name", checkedColumn: "checked",
                orderColumn: "position",
                keyColumns: ["id"])
            own.hasRowID = db.hasRowID(table)
            return own
        }
        var list = ListTable(name: table, columns: columns, nameColumn: "")
        list.hasRowID = db.hasRowID(table)
        list.schema = schema
        var candidates = columns
        if isEntity, let model, let entity {
            list.entity = entity
            list.model = model
            let numbers = model.family(of: entity)
            if model.entities(in: table).count > 1 {
                list.entityNumbers = numbers
                // Only the columns the entity's rows use are its own; the others belong to
                // other entities of the table (all NULL in these rows).
                let counts = try db.rows(
                    "SELECT \(columns.map { "count(\(Database.quote($0.name)))" }.joined(separator: ", ")) FROM \(Database.quote(table)) "
                        + "WHERE Z_ENT IN (\(numbers.map(String.init).joined(separator: ", ")))")
                if let row = counts.first,
                    row.contains(where: { if case .integer(let n) = $0 { n > 0 } else { false } })
                {
                    candidates = zip(columns, row).filter { if case .integer(let n) = $1 { n > 0 } else { false } }.map(
                        \.0)
                }
            }
        }
        let coreData = isEntity
        func plain(_ column: ColumnInfo) -> String { plainName(column.name, coreData: coreData) }
        // A column the user named plays its role first; then synonyms, in column order.
        func first(_ role: ItemRole, where extra: (ColumnInfo) -> Bool = { _ in true }) -> ColumnInfo? {
            let usable = candidates.filter {
                !(coreData && ($0.name == "Z_PK" || coreDataBookkeeping.contains($0.name))) && extra($0)
            }
            if let named = usable.first(where: {
                (schema.isNamed($0.name) || schema.isNamed(plain($0)))
                    && schema.role(of: schema.isNamed($0.name) ? $0.name : plain($0)) == role
            }) {
                return named
            }
            return usable.first {
                !schema.isNamed($0.name) && !schema.isNamed(plain($0)) && schema.role(of: plain($0)) == role
            }
        }
        guard let name = first(.name, where: \.isTextType) else { return nil }
        list.nameColumn = name.name
        list.checkedColumn = first(.checked)?.name
        list.statusColumn = first(.status)?.name
        list.orderColumn = first(.order)?.name
        let others = candidates.filter { ![list.nameColumn, list.checkedColumn, list.statusColumn].contains($0.name) }
        if list.checkedColumn == nil && list.statusColumn == nil {
            list.completionColumn = others.first { ItemSchema.isCompletionDateKey(plain($0)) }?.name
        }
        list.dateColumn = others.first { creationDateNames.contains(ItemSchema.normalizedKey(plain($0))) }?.name
        list.modificationColumn =
            others.first { modificationDateNames.contains(ItemSchema.normalizedKey(plain($0))) }?.name
        if coreData {
            list.keyColumns = ["Z_PK"]
        } else {
            list.keyColumns = columns.filter(\.isPrimaryKey).sorted { $0.primaryKeyIndex < $1.primaryKeyIndex }.map(
                \.name)
        }
        return list
    }

    /// The rows that are the list: all of the table's, or in a table that several entities
    /// share, the entity's.
    var rowFilter: String {
        guard let entityNumbers else { return "" }
        return " WHERE Z_ENT IN (\(entityNumbers.map(String.init).joined(separator: ", ")))"
    }

    /// The order rows are read in: the order column, else the creation date, else the key.
    var orderClause: String {
        var terms: [String] = []
        if let orderColumn { terms.append(Database.quote(orderColumn)) }
        if let dateColumn { terms.append(Database.quote(dateColumn)) }
        terms.append(contentsOf: keyColumns.isEmpty ? ["rowid"] : keyColumns.map(Database.quote))
        return terms.joined(separator: ", ")
    }

    /// The query that reads the list's rows in order: the rowid (when there is one), then
    /// every column.
    var selectStatement: String {
        "SELECT \(hasRowID ? "rowid, " : "")* FROM \(Database.quote(name))\(rowFilter) ORDER BY \(orderClause)"
    }

    /// Whether a column holds dates: by its declared type, or as the creation,
    /// modification or completion date.
    func holdsDates(_ column: ColumnInfo) -> Bool {
        column.isDateType || column.name == dateColumn || column.name == modificationColumn
            || column.name == completionColumn
    }

    /// A column's value as an item field value; nil for NULL.
    func fieldValue(_ value: SQLValue, column: ColumnInfo) -> FieldValue? {
        switch value {
        case .null: return nil
        case .integer(let i):
            if column.isBooleanType && (i == 0 || i == 1) { return .bool(i == 1) }
            if column.isDateType && isCoreData && ISO8601.holds(secondsSinceReferenceDate: Double(i)) {
                return .date(Date(timeIntervalSinceReferenceDate: Double(i)))
            }
            return .integer(Int(i))
        case .real(let d):
            // A date no ISO 8601 text holds (past year 9999) stays the number it is.
            if column.isDateType && isCoreData && ISO8601.holds(secondsSinceReferenceDate: d) {
                return .date(Date(timeIntervalSinceReferenceDate: d))
            }
            return .double(d)
        case .text(let s):
            if holdsDates(column), let date = ISO8601.parse(s.utf8, assumeUTC: true) { return .date(date) }
            if column.isJSONType, let parsed = JSONScanner.wholeValue(of: Array(s.utf8)) { return parsed }
            return .string(s)
        case .blob(let d): return .data(d)
        }
    }

    /// The value mappings the user gave for a column (`--field checked=status:3`).
    func statusMap(of column: String) -> [String: TodoStatus]? {
        // Asked for every row: a schema without status values (the usual one) answers at once.
        guard schema.mapsStatusValues else { return nil }
        return schema.statusMap(of: column) ?? schema.statusMap(of: Self.plainName(column, coreData: isCoreData))
    }

    /// What a value of the checked or status column says: a status, or nil when it cannot
    /// play the role (it is then a field under the column's name).
    func status(of value: SQLValue, column: ColumnInfo) -> TodoStatus? {
        if case .null = value { return nil }
        if let map = statusMap(of: column.name) {
            // Any value a map does not name is open (in a column mapped to custom statuses
            // alone, `RowDecoder` leaves it to the checked column).
            return namedStatus(of: value, column: column, map: map) ?? .open
        }
        if column.name == checkedColumn {
            switch value {
            case .integer(let i): return i != 0 ? .done : .open
            case .real(let d): return d != 0 ? .done : .open
            case .text(let s): return ItemBuilder.truth(of: s).map { $0 ? .done : .open }
            default: return nil
            }
        }
        if case .text(let s) = value { return ItemBuilder.status(fromWord: s) }
        return nil
    }

    /// The status a mapped column's value names: its code's, or, in a column mapped to
    /// custom statuses alone, its word's as an unmapped column reads it (`done` is done);
    /// nil for any other value (which says nothing: no spelling of open to learn).
    func namedStatus(of value: SQLValue, column: ColumnInfo, map: [String: TodoStatus]) -> TodoStatus? {
        if let mapped = map[fieldValue(value, column: column)?.description ?? ""] { return mapped }
        guard map.namesCustomStatusesAlone, case .text(let s) = value else { return nil }
        return ItemBuilder.status(fromWord: s)
    }

    /// The columns that become item fields, and the field key of each (todofmt's own table).
    var fieldColumns: [(column: ColumnInfo, key: String)] {
        columns.compactMap { column in
            if Self.ownColumns.contains(column.name) { return nil }
            let key = column.name.hasPrefix("field:") ? String(column.name.dropFirst(6)) : column.name
            return (column, key)
        }
    }

    /// The key of an item: the value of its key field, or of each key field; nil when it
    /// has none.
    func key(of item: TodoItem) -> FieldValue? {
        if keyFields.count == 1 { return item.fields.first { $0.key == keyFields[0] }?.value }
        var values: [FieldValue] = []
        for key in keyFields {
            guard let value = item.fields.first(where: { $0.key == key })?.value else { return nil }
            values.append(value)
        }
        return .array(values)
    }

    /// Hands the list to `sink` as rows are read: one item a row, so a long table never
    /// sits in memory as a list. todofmt's own table streams when each top-level row's
    /// descendants follow it depth first (as todofmt writes them and its edits keep them: a
    /// first pass over its integer columns checks that and finds each row's depth); rows
    /// another program reordered are nested in memory first.
    func read<S: ItemSink>(from db: Database, into sink: inout S) throws {
        try sink.begin(metadata: [])
        if isOwn {
            guard let (depths, runs) = try storedRuns(db) else {
                for item in try readOwnItems(from: db) { try sink.itemTree(item, depth: 0) }
                try sink.end()
                return
            }
            for run in runs {
                var row = run?.rows.lowerBound ?? 0
                try forEachOwnRow(in: db, rowids: run?.rowids) { item, _, _, _, _ in
                    var item = item
                    if depths[row] > 0 { item.section = nil }
                    try sink.item(item, depth: Int(depths[row]))
                    row += 1
                }
            }
        } else {
            let statement = try db.prepare(selectStatement)
            let decoder = RowDecoder(self)
            while try statement.step() { try sink.item(decoder.item(statement), depth: 0) }
        }
        try sink.end()
    }

    /// `read(from:into:)` for a sink of plain items: a row of todofmt's own table with no
    /// field whose name is plain (UTF-8 with no `\`, `&`, `"` or control character, as a
    /// checklist's plain names) goes to it as a plain item, its name's bytes copied into a
    /// batch, with no string or item made of it (most of reading a row, after SQLite's).
    func read<S: PlainItemSink>(from db: Database, plainNamesInto sink: inout S) throws {
        guard isOwn, let (depths, runs) = try storedRuns(db) else { return try read(from: db, into: &sink) }
        try sink.begin(metadata: [])
        var batch = PlainRows()
        for run in runs {
            var row = run?.rows.lowerBound ?? 0
            let takePlain = { (name: UnsafeBufferPointer<UInt8>, status: TodoStatus, section: String?) in
                let depth = Int(depths[row])
                batch.add(name: name, status: status, section: depth == 0 ? section : nil, depth: depth)
                row += 1
                if batch.isFull { try batch.flush(into: &sink) }
            }
            // (The closure runs only during the call: an optional closure counts as escaping.)
            try withoutActuallyEscaping(takePlain) { takePlain in
                try forEachOwnRow(in: db, rowids: run?.rowids, plain: takePlain) { item, _, _, _, _ in
                    try batch.flush(into: &sink)
                    var item = item
                    if depths[row] > 0 { item.section = nil }
                    try sink.item(item, depth: Int(depths[row]))
                    row += 1
                }
            }
        }
        try batch.flush(into: &sink)
        try sink.end()
    }

    /// Rows of todofmt's own table gathered as plain items (`read(from:plainNamesInto:)`).
    private struct PlainRows {
        private var text: [UInt8] = []
        private var items: [PlainItem] = []
        private var sections: [String] = []

        var isFull: Bool { items.count >= 4096 }

        mutating func add(name: UnsafeBufferPointer<UInt8>, status: TodoStatus, section: String?, depth: Int) {
            let start = text.count
            text.append(contentsOf: name)
            var index = -1
            if let section {
                if !sections.isEmpty && sections[sections.count - 1].sameBytes(as: section) {
                    index = sections.count - 1
                } else {
                    index = sections.count
                    sections.append(section)
                }
            }
            items.append(PlainItem(nameStart: start, nameEnd: text.count, status: status, depth: depth, section: index))
        }

        mutating func flush<S: PlainItemSink>(into sink: inout S) throws {
            guard !items.isEmpty else { return }
            try text.withUnsafeBufferPointer { try sink.items(plain: items[...], text: $0, sections: sections) }
            text.removeAll(keepingCapacity: true)
            items.removeAll(keepingCapacity: true)
            sections.removeAll(keepingCapacity: true)
        }
    }

    /// The list in the table, in order; todofmt's own table keeps its nesting.
    func readItems(from db: Database) throws -> [TodoItem] {
        if isOwn { return try readOwnItems(from: db) }
        let statement = try db.prepare(selectStatement)
        let decoder = RowDecoder(self)
        var items: [TodoItem] = []
        while try statement.step() { items.append(decoder.item(statement)) }
        return items
    }

    /// todofmt's own table, read as it is stored and nested.
    private func readOwnItems(from db: Database) throws -> [TodoItem] {
        var items: [TodoItem] = []
        var parents: [Int64?] = []
        var ids: [Int64] = []
        var positions: [Int64] = []
        try forEachOwnRow(in: db) { item, id, parent, position, _ in
            items.append(item)
            ids.append(id)
            parents.append(parent)
            positions.append(position)
        }
        return try Self.tree(items, ids: ids, parents: parents, positions: positions)
    }

    /// The order todofmt's own table is written in: its rows' rowids, or in a `WITHOUT
    /// ROWID` table (which has none) their ids.
    private var storedOrder: String { hasRowID ? "rowid" : "id" }

    /// Each row of todofmt's own table (those whose rowid is in `rowids`, or all) as an
    /// item, with its id, parent, position and rowid (in a `WITHOUT ROWID` table, its id).
    ///
    /// Given `plain`, a row with no field whose name is plain (`read(from:plainNamesInto:)`)
    /// goes to it instead, as its name's bytes (valid while it runs), status and section.
    func forEachOwnRow(
        in db: Database, rowids: ClosedRange<Int64>? = nil,
        plain: ((UnsafeBufferPointer<UInt8>, TodoStatus, String?) throws -> Void)? = nil,
        _ body: (TodoItem, Int64, Int64?, Int64, Int64) throws -> Void
    ) throws {
        let statement: Statement
        if let rowids {
            statement = try db.prepare(
                "SELECT rowid, * FROM \(Database.quote(name)) WHERE rowid BETWEEN ? AND ? ORDER BY rowid")
            try statement.bind([.integer(rowids.lowerBound), .integer(rowids.upperBound)])
        } else {
            statement = try db.prepare("SELECT \(storedOrder), * FROM \(Database.quote(name)) ORDER BY \(storedOrder)")
        }
        // Columns by place: names of fields may be equal as Swift compares strings (`é`
        // composed and not) and still be two columns.
        func index(_ name: String) -> Int { columns.firstIndex { $0.name == name }! + 1 }
        // The field columns in arrays of their own: an array of tuples is copied a tuple at
        // a time through the runtime (its column's strings and all) whenever one is read.
        let fieldPlaces = columns.indices.filter { !Self.ownColumns.contains(columns[$0].name) }
        let fieldIndexes = fieldPlaces.map { $0 + 1 }
        let fieldColumns = fieldPlaces.map { columns[$0] }
        let fieldKeys = fieldColumns.map { $0.name.hasPrefix("field:") ? String($0.name.dropFirst(6)) : $0.name }
        let nameIndex = index("name")
        let checkedIndex = index("checked")
        let own = (
            id: index("id"), parent: index("parent"), position: index("position"), status: index("status"),
            section: index("section")
        )
        var lastSection: String? = nil
        while try statement.step() {
            if let plain, let name = statement.textBytes(nameIndex), !ByteScan.containsEscapeOrJSONEscape(name),
                UTF8Validation.isValid(name), fieldIndexes.allSatisfy({ statement.isNull($0) })
            {
                var status: TodoStatus? = .open
                if !statement.isNull(checkedIndex) { status = statement.int64(checkedIndex) != 0 ? .done : .open }
                // Text that is no status is a field (nil): such a row is no plain one.
                if !statement.isNull(own.status) { status = ItemBuilder.status(from: statement.text(own.status)) }
                if let status {
                    let section =
                        statement.isNull(own.section) ? nil : statement.text(own.section, reusing: &lastSection)
                    try plain(name, status, section)
                    continue
                }
            }
            var item = TodoItem(name: statement.isNull(nameIndex) ? "" : statement.text(nameIndex))
            if !statement.isNull(checkedIndex) { item.status = statement.int64(checkedIndex) != 0 ? .done : .open }
            for f in fieldIndexes.indices where !statement.isNull(fieldIndexes[f]) {
                if let value = fieldValue(statement.value(fieldIndexes[f]), column: fieldColumns[f]) {
                    item.fields.append(Field(fieldKeys[f], value))
                }
            }
            if !statement.isNull(own.status) {
                // Text that is no status (one a checklist's box cannot hold) stays, as a field.
                let text = statement.text(own.status)
                if let status = ItemBuilder.status(from: text) {
                    item.status = status
                } else {
                    item.fields.append(Field("status", .string(text)))
                }
            }
            if !statement.isNull(own.section) { item.section = statement.text(own.section, reusing: &lastSection) }
            try body(
                item, statement.int64(own.id), statement.isNull(own.parent) ? nil : statement.int64(own.parent),
                statement.int64(own.position), statement.int64(0))
        }
    }

    /// How todofmt's own table is read in list order a row at a time: each row's depth (in
    /// stored order), and the runs of rows (places in stored order, and their rowids) to
    /// read one after another. Each top-level row must be followed in stored order by its
    /// descendants, depth first with siblings in position order; the top-level rows may
    /// stand in any order (an edit that moves or adds one leaves it where it was stored, with
    /// its position changed), each run then a stretch of them stored in list order. Nil
    /// otherwise, or for top-level rows out of order in a table without rowids SQL can name.
    private func storedRuns(_ db: Database) throws -> (
        depths: [Int32], runs: [(rows: Range<Int>, rowids: ClosedRange<Int64>)?]
    )? {
        let statement = try db.prepare(
            "SELECT id, parent, position, \(storedOrder) FROM \(Database.quote(name)) ORDER BY \(storedOrder)")
        var depths: [Int32] = []
        var nesting = OwnRowNesting()
        // The top-level rows: position, id, place in stored order, rowid.
        var tops: [(position: Int64, id: Int64, row: Int, rowid: Int64)] = []
        var lastRowID: Int64 = 0
        var inOrder = true
        while try statement.step() {
            let id = statement.int64(0)
            let position = statement.int64(2)
            let parent = statement.isNull(1) ? nil : statement.int64(1)
            if parent == nil {
                if let last = tops.last, (last.position, last.id) >= (position, id) { inOrder = false }
                tops.append((position, id, depths.count, statement.int64(3)))
            }
            guard let depth = nesting.place(id: id, parent: parent, position: position) else { return nil }
            depths.append(depth)
            lastRowID = statement.int64(3)
        }
        // (A run of nil: every row, read in stored order.)
        if inOrder { return (depths, [nil]) }
        // (A column named as the rowid hides it from SQL.)
        // (Ids that are the rowid are distinct: each child's parent is one row.)
        guard namesRowID, idIsRowID else { return nil }
        let order = tops.indices.sorted { (tops[$0].position, tops[$0].id) < (tops[$1].position, tops[$1].id) }
        var runs: [(rows: Range<Int>, rowids: ClosedRange<Int64>)?] = []
        var first = 0
        for i in order.indices where i + 1 == order.count || order[i + 1] != order[i] + 1 {
            let start = order[first]
            let end = order[i] + 1  // the first top-level row after the run, in stored order
            runs.append(
                (
                    tops[start].row..<(end < tops.count ? tops[end].row : depths.count),
                    tops[start].rowid...(end < tops.count ? tops[end].rowid - 1 : lastRowID)
                ))
            first = i + 1
        }
        return (depths, runs)
    }

    /// Nests items by their parent ids, each parent's children by position. Rows stored depth
    /// first (as todofmt writes them) nest in one pass; others are sorted first.
    static func tree(_ items: [TodoItem], ids: [Int64], parents: [Int64?], positions: [Int64]) throws
        -> [TodoItem]
    {
        var tree = ListBuilder(keepingSlices: ())
        var path: [Int64] = []  // ids of the items around the next one
        var siblings: [Int64] = []  // position of the last item at each depth under the current path
        var inOrder = true
        for i in items.indices {
            if let parent = parents[i] {
                while let last = path.last, last != parent { path.removeLast() }
                if path.isEmpty {
                    inOrder = false
                    break
                }
            } else {
                path.removeAll(keepingCapacity: true)
            }
            let depth = path.count
            if depth < siblings.count {
                if siblings[depth] >= positions[i] {
                    inOrder = false
                    break
                }
                siblings[depth] = positions[i]
                siblings.removeLast(siblings.count - depth - 1)
            } else {
                siblings.append(positions[i])
            }
            tree.item(items[i], depth: depth)
            path.append(ids[i])
        }
        if inOrder { return tree.finish().items }
        // Top-level rows first, then each parent's rows together (a parent id of -1 too).
        let order = items.indices.sorted { a, b in
            (parents[a] == nil ? 0 : 1, parents[a] ?? 0, positions[a], ids[a])
                < (parents[b] == nil ? 0 : 1, parents[b] ?? 0, positions[b], ids[b])
        }
        return try grouped(order.map { items[$0] }, ids: order.map { ids[$0] }, parents: order.map { parents[$0] })
    }

    /// Nests rows that come grouped by parent (roots first), each group in order; a parent
    /// that is not there makes its rows roots. Each row is placed once: rows in a parent
    /// cycle (reached from no root) come last, each cycle from the row where following
    /// parents from its first row comes round again; under a repeated id, the first row.
    private static func grouped(_ items: [TodoItem], ids: [Int64], parents: [Int64?]) throws -> [TodoItem] {
        var groups: [Int64: Range<Int>] = [:]
        var roots: [Int] = []
        var i = 0
        while i < items.count {
            var j = i + 1
            while j < items.count && parents[j] == parents[i] { j += 1 }
            if let parent = parents[i] { groups[parent] = i..<j } else { roots.append(contentsOf: i..<j) }
            i = j
        }
        let known = Set(ids)
        // In the order the groups come (a dictionary's order differs from run to run).
        for range in groups.filter({ !known.contains($0.key) }).values.sorted(by: { $0.lowerBound < $1.lowerBound }) {
            roots.append(contentsOf: range)
        }
        var placed = [Bool](repeating: false, count: items.count)
        func build(_ i: Int, depth: Int) throws -> TodoItem {
            guard depth < Limits.itemLevels else { throw ConversionError.unsupported(Limits.itemDepthMessage) }
            placed[i] = true
            var item = items[i]
            if depth > 0 { item.section = nil }
            if let range = groups[ids[i]] {
                for child in range where !placed[child] { item.children.append(try build(child, depth: depth + 1)) }
            }
            return item
        }
        var tree = try roots.map { try build($0, depth: 0) }
        guard tree.count < items.count, placed.contains(false) else { return tree }
        // What is left hangs from a cycle (a row whose parents lead back to it): a row's
        // parent is then a row of the same id not yet placed either.
        var rowOfID: [Int64: Int] = [:]
        for (row, id) in ids.enumerated() where rowOfID[id] == nil { rowOfID[id] = row }
        for first in items.indices where !placed[first] {
            var seen: Set<Int> = [first]
            var row = first
            while let parent = parents[row], let next = rowOfID[parent], seen.insert(next).inserted { row = next }
            tree.append(try build(row, depth: 0))
        }
        return tree
    }
}

/// Follows the rows of todofmt's own table in stored order as they nest when each top-level
/// row is followed by its descendants depth first, siblings in rising position, no deeper
/// than todofmt reads (top-level rows are ordered apart).
struct OwnRowNesting {
    private var path: [Int64] = []  // ids of the rows around the next one
    private var siblings: [Int64] = []  // position of the last row at each depth under the path

    /// The row's depth; nil where it breaks that order.
    mutating func place(id: Int64, parent: Int64?, position: Int64) -> Int32? {
        if let parent {
            while let last = path.last, last != parent { path.removeLast() }
            if path.isEmpty { return nil }
            let depth = path.count
            if depth < siblings.count {
                if siblings[depth] >= position { return nil }
                siblings[depth] = position
                // (One at a time: `removeLast(_:)` is a generic call that costs more, per row.)
                while siblings.count > depth + 1 { siblings.removeLast() }
            } else {
                siblings.append(position)
            }
            if depth >= Limits.itemLevels { return nil }
        } else {
            while !path.isEmpty { path.removeLast() }
            while siblings.count > 1 { siblings.removeLast() }
            if siblings.isEmpty { siblings.append(position) } else { siblings[0] = position }
        }
        let depth = Int32(path.count)
        path.append(id)
        return depth
    }
}
