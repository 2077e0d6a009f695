import Foundation

/// A column of a table, as `PRAGMA table_info` describes it.
struct ColumnInfo: Hashable {
    var name: String
    var declaredType: String
    var isPrimaryKey: Bool

    /// A date or time column by its declared type (`TIMESTAMP`, `DATETIME`, `DATE`).
    var isDateType: Bool {
        let t = declaredType.uppercased()
        return t.contains("DATE") || t.contains("TIME")
    }
    var isBooleanType: Bool { declaredType.uppercased().contains("BOOL") }
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
    /// A Core Data store's entity: its number in `Z_PRIMARYKEY` and the columns Core Data keeps.
    var entity: Int?
    var nameColumn: String
    var checkedColumn: String?
    var orderColumn: String?
    var dateColumn: String?
    /// The column that finds a row again; nil for the rowid.
    var keyColumn: String?

    var isCoreData: Bool { entity != nil }
    var keyField: String { keyColumn ?? "rowid" }

    /// Core Data's own columns, which are not item fields.
    static let coreDataBookkeeping: Set<String> = ["Z_ENT", "Z_OPT"]
    /// Core Data's tables that are not entities.
    static let coreDataTables: Set<String> = ["Z_PRIMARYKEY", "Z_METADATA", "Z_MODELCACHE", "ACHANGE", "ATRANSACTION", "ATRANSACTIONSTRING"]
    /// Columns that hold when a row was made, for ordering when there is no order column.
    static let creationDateNames: Set<String> = [
        "createtime", "cdate", "createdat", "created", "creationdate", "datecreated", "createdate", "createddate",
        "timestamp", "date",
    ]

    /// A column's name as a key: Core Data's `Z` prefix dropped (`ZNAME` is `name`).
    static func plainName(_ column: String, coreData: Bool) -> String {
        if coreData, column.count > 1, column.hasPrefix("Z"), !column.hasPrefix("Z_") { return String(column.dropFirst()) }
        return column
    }

    /// The list's table: `table` when the user named it, else todofmt's own, else the one
    /// table with a name column. Several candidates are an error that names them.
    static func find(in db: Database, table: String?, schema: ItemSchema) throws -> ListTable {
        let tables = try db.rows("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY rowid").compactMap { row -> String? in
            if case .text(let name) = row[0] { return name }
            return nil
        }
        let coreData = tables.contains("Z_PRIMARYKEY") && tables.contains("Z_METADATA")
        let path = db.path
        if let table {
            guard tables.contains(table) else {
                throw ConversionError.noList(path: path, reason: "there is no table '\(table)' (tables: \(tables.joined(separator: ", ")))")
            }
            guard let found = try describe(table, in: db, coreData: coreData, schema: schema) else {
                throw ConversionError.noList(
                    path: path, reason: "table '\(table)' has no text column for the name; name it with --field name=COLUMN")
            }
            return found
        }
        if tables.contains(ownName), let own = try describe(ownName, in: db, coreData: false, schema: schema) { return own }
        var candidates: [ListTable] = []
        for name in tables where !name.hasPrefix("sqlite_") && !(coreData && (coreDataTables.contains(name) || name.hasPrefix("Z_"))) {
            if let found = try describe(name, in: db, coreData: coreData, schema: schema) { candidates.append(found) }
        }
        if candidates.count == 1 { return candidates[0] }
        if candidates.isEmpty {
            throw ConversionError.noList(
                path: path,
                reason: "no table has a name column (\(ItemSchema.synonyms[.name]!.joined(separator: ", "))); tables: "
                    + "\(tables.joined(separator: ", ")). Pick one with --table and name its column with --field name=COLUMN")
        }
        throw ConversionError.noList(
            path: path,
            reason: "several tables could be the list (\(candidates.map(\.name).joined(separator: ", "))); pick one with --table")
    }

    /// The roles of a table's columns; nil when it has no name column.
    static func describe(_ table: String, in db: Database, coreData: Bool, schema: ItemSchema) throws -> ListTable? {
        let columns = try db.rows("PRAGMA table_info(\(Database.quote(table)))").map { row -> ColumnInfo in
            var name = "", type = ""
            if case .text(let n) = row[1] { name = n }
            if case .text(let t) = row[2] { type = t }
            var primary = false
            if case .integer(let p) = row[5] { primary = p > 0 }
            return ColumnInfo(name: name, declaredType: type, isPrimaryKey: primary)
        }
        let isEntity = coreData && columns.contains { $0.name == "Z_PK" } && columns.contains { $0.name == "Z_ENT" }
        if table == ownName && Set(ownColumns).isSubset(of: Set(columns.map(\.name))) {
            return ListTable(
                name: table, columns: columns, isOwn: true, nameColumn: "name", checkedColumn: "checked", orderColumn: "position",
                keyColumn: "id")
        }
        func role(_ column: ColumnInfo) -> ItemRole? {
            if schema.isNamed(column.name) { return schema.role(of: column.name) }
            return schema.role(of: plainName(column.name, coreData: isEntity))
        }
        let isText = { (c: ColumnInfo) in
            let t = c.declaredType.uppercased()
            return t.isEmpty || t.contains("CHAR") || t.contains("TEXT") || t.contains("CLOB") || t.contains("STRING")
        }
        guard let name = columns.first(where: { role($0) == .name && isText($0) }) else { return nil }
        var list = ListTable(name: table, columns: columns, nameColumn: name.name)
        list.checkedColumn = columns.first { role($0) == .checked }?.name
        list.orderColumn = columns.first { role($0) == .order }?.name
        list.dateColumn = columns.first { creationDateNames.contains(plainName($0.name, coreData: isEntity).lowercased()) }?.name
        if isEntity {
            list.keyColumn = "Z_PK"
            let entity = try db.rows("SELECT Z_ENT FROM Z_PRIMARYKEY WHERE Z_NAME = ?", [.text(String(table.dropFirst()))])
            if case .integer(let number)? = entity.first?.first { list.entity = Int(number) }
            if list.entity == nil {
                // The entity's number from the table's own rows, or the name match ignoring case.
                let byCase = try db.rows("SELECT Z_ENT, Z_NAME FROM Z_PRIMARYKEY")
                for row in byCase {
                    if case .integer(let n) = row[0], case .text(let entityName) = row[1], "Z" + entityName.uppercased() == table {
                        list.entity = Int(n)
                    }
                }
            }
            if list.entity == nil { list.entity = 0 }
        } else {
            let keys = columns.filter(\.isPrimaryKey)
            list.keyColumn = keys.count == 1 ? keys[0].name : nil
        }
        return list
    }

    /// The order rows are read in: the order column, else the creation date, else the key.
    var orderClause: String {
        var terms: [String] = []
        if let orderColumn { terms.append(Database.quote(orderColumn)) }
        if let dateColumn { terms.append(Database.quote(dateColumn)) }
        terms.append(keyColumn.map(Database.quote) ?? "rowid")
        return terms.joined(separator: ", ")
    }

    /// A column's value as an item field value; nil for NULL.
    func fieldValue(_ value: SQLValue, column: ColumnInfo) -> FieldValue? {
        switch value {
        case .null: return nil
        case .integer(let i):
            if column.isBooleanType || column.name == checkedColumn { return .bool(i != 0) }
            if column.isDateType && isCoreData { return .date(Date(timeIntervalSinceReferenceDate: Double(i))) }
            return .integer(Int(i))
        case .real(let d):
            if column.isDateType && isCoreData { return .date(Date(timeIntervalSinceReferenceDate: d)) }
            return .double(d)
        case .text(let s):
            if column.isDateType || column.name == dateColumn, let date = ISO8601.parse(s.utf8, assumeUTC: true) {
                return .date(date)
            }
            if column.declaredType.uppercased() == "JSON" {
                let bytes = Array(s.utf8)
                if let parsed = bytes.withUnsafeBufferPointer({ buffer -> FieldValue? in
                    var scanner = JSONScanner(bytes: buffer, path: "")
                    guard let v = try? scanner.value(), (try? scanner.expectEnd()) != nil else { return nil }
                    return v
                }) {
                    return parsed
                }
            }
            return .string(s)
        case .blob(let d): return .data(d)
        }
    }

    /// The columns that become item fields, and the field key of each.
    var fieldColumns: [(column: ColumnInfo, key: String)] {
        columns.compactMap { column in
            if column.name == nameColumn || column.name == checkedColumn { return nil }
            if isOwn {
                if Self.ownColumns.contains(column.name) { return nil }
                let key = column.name.hasPrefix("field:") ? String(column.name.dropFirst(6)) : column.name
                return (column, key)
            }
            if isCoreData && Self.coreDataBookkeeping.contains(column.name) { return nil }
            return (column, column.name)
        }
    }

    /// Hands the list to `writer` as rows are read: one item a row, so a long table never
    /// sits in memory as a list. todofmt's own table streams when its rows are stored depth
    /// first (as todofmt writes them: a first pass over its integer columns checks that and
    /// finds each row's depth); rows another program reordered are nested in memory first.
    func read<S: ItemSink>(from db: Database, into sink: inout S) throws {
        try sink.begin(metadata: [])
        if isOwn {
            guard let depths = try depthsInStoredOrder(db) else {
                for item in try readItems(from: db) { try sink.itemTree(item, depth: 0) }
                try sink.end()
                return
            }
            var row = 0
            try forEachRow(in: db, order: "rowid") { item, _, _, _ in
                var item = item
                if depths[row] > 0 { item.section = nil }
                try sink.item(item, depth: Int(depths[row]))
                row += 1
            }
        } else {
            try forEachRow(in: db, order: orderClause) { item, _, _, _ in try sink.item(item, depth: 0) }
        }
        try sink.end()
    }

    /// Each row's depth when todofmt's table is stored depth first with siblings in position
    /// order; nil otherwise.
    private func depthsInStoredOrder(_ db: Database) throws -> [Int32]? {
        let statement = try db.prepare("SELECT id, parent, position FROM \(Database.quote(name)) ORDER BY rowid")
        var depths: [Int32] = []
        var path: [Int64] = []  // ids of the items around the next one
        var siblings: [Int64] = []  // position of the last item at each depth under the current path
        while try statement.step() {
            if statement.isNull(1) {
                path.removeAll(keepingCapacity: true)
            } else {
                let parent = statement.int64(1)
                while let last = path.last, last != parent { path.removeLast() }
                if path.isEmpty { return nil }
            }
            let depth = path.count, position = statement.int64(2)
            if depth < siblings.count {
                if siblings[depth] >= position { return nil }
                siblings[depth] = position
                siblings.removeLast(siblings.count - depth - 1)
            } else {
                siblings.append(position)
            }
            if depth >= Limits.itemLevels { return nil }
            depths.append(Int32(depth))
            path.append(statement.int64(0))
        }
        return depths
    }

    /// The list in the table, in order; todofmt's own table keeps its nesting.
    func readItems(from db: Database) throws -> [TodoItem] {
        var items: [TodoItem] = []
        var parents: [Int64?] = []
        var ids: [Int64] = []
        var positions: [Int64] = []
        // todofmt's table is read as it is stored, and nested below.
        try forEachRow(in: db, order: isOwn ? "rowid" : orderClause) { item, id, parent, position in
            items.append(item)
            if isOwn {
                ids.append(id)
                parents.append(parent)
                positions.append(position)
            }
        }
        return isOwn ? try Self.tree(items, ids: ids, parents: parents, positions: positions) : items
    }

    /// Each row as an item, with (for todofmt's table) its id, parent and position.
    private func forEachRow(in db: Database, order: String, _ body: (TodoItem, Int64, Int64?, Int64) throws -> Void) throws {
        let statement = try db.prepare("SELECT rowid, * FROM \(Database.quote(name)) ORDER BY \(order)")
        let index = Dictionary(uniqueKeysWithValues: columns.enumerated().map { ($1.name, $0 + 1) })
        let fieldIndexes = fieldColumns.map { (index[$0.column.name]!, $0.column, $0.key) }
        let nameIndex = index[nameColumn]!
        let checkedIndex = checkedColumn.flatMap { index[$0] }
        let own =
            isOwn
            ? (id: index["id"]!, parent: index["parent"]!, position: index["position"]!, status: index["status"]!, section: index["section"]!)
            : nil
        var lastSection: String? = nil
        while try statement.step() {
            var item = TodoItem(name: statement.isNull(nameIndex) ? "" : statement.text(nameIndex))
            if let checkedIndex, !statement.isNull(checkedIndex) { item.status = statement.int64(checkedIndex) != 0 ? .done : .open }
            if !isOwn && keyColumn == nil { item.fields.append(Field("rowid", .integer(Int(statement.int64(0))))) }
            for (i, column, key) in fieldIndexes where !statement.isNull(i) {
                if let value = fieldValue(statement.value(i), column: column) { item.fields.append(Field(key, value)) }
            }
            guard let own else {
                try body(item, 0, nil, 0)
                continue
            }
            if !statement.isNull(own.status), let status = ItemBuilder.status(from: statement.text(own.status)) {
                item.status = status
            }
            if !statement.isNull(own.section) { item.section = statement.text(own.section, reusing: &lastSection) }
            try body(
                item, statement.int64(own.id), statement.isNull(own.parent) ? nil : statement.int64(own.parent),
                statement.int64(own.position))
        }
    }

    /// Nests items by their parent ids, each parent's children by position. Rows stored depth
    /// first (as todofmt writes them) nest in one pass; others are sorted first.
    private static func tree(_ items: [TodoItem], ids: [Int64], parents: [Int64?], positions: [Int64]) throws -> [TodoItem] {
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
        let order = items.indices.sorted { a, b in
            (parents[a] ?? -1, positions[a], ids[a]) < (parents[b] ?? -1, positions[b], ids[b])
        }
        return try grouped(order.map { items[$0] }, ids: order.map { ids[$0] }, parents: order.map { parents[$0] })
    }

    /// Nests rows that come grouped by parent (roots first), each group in order; a parent
    /// that is not there makes its rows roots.
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
        for (parent, range) in groups where !known.contains(parent) { roots.append(contentsOf: range) }
        func build(_ i: Int, depth: Int) throws -> TodoItem {
            guard depth < Limits.itemLevels else { throw ConversionError.unsupported(Limits.itemDepthMessage) }
            var item = items[i]
            if depth > 0 { item.section = nil }
            if let range = groups[ids[i]] { item.children = try range.map { try build($0, depth: depth + 1) } }
            return item
        }
        return try roots.map { try build($0, depth: 0) }
    }
}
