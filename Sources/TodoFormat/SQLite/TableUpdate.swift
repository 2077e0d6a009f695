import Foundation

/// Writes a list into an app's table in place (FORMAT.md, section 7.7), changing only what
/// changed: each item continues the row its key names (`ItemAlignment`, with the key as the
/// identity); a row whose item is unchanged is not touched; a changed row gets only the
/// columns whose meaning changed, in the table's own spelling (its date layout, its done
/// and open values), plus its modification date and Core Data's `Z_OPT`; an item without a
/// row is inserted with what the table needs; rows whose items are gone are deleted. What
/// the table cannot hold is a warning.
struct TableUpdate {
    let table: ListTable
    let db: Database
    private(set) var warnings = WarningLog()
    private var layout: TableLayout
    private let now: Date
    private let columnsByName: [String: ColumnInfo]
    /// The list being written, in document order.
    private var written = FlatItems(TodoList())
    /// The statement that reads a row by its locator, prepared once.
    private var selectRow: Statement?
    /// How many items stand before the list being written (`updateRow` writes a list of one
    /// row's item): the positions warnings name count them.
    private var itemsBefore = 0

    init(table: ListTable, db: Database) {
        self.table = table
        self.db = db
        layout = TableLayout()
        now = Clock.now
        var byName: [String: ColumnInfo] = [:]
        for column in table.columns where byName[column.name] == nil { byName[column.name] = column }
        columnsByName = byName
    }

    /// An item of the new list, with its depth.
    private typealias Entry = (item: TodoItem, depth: Int)

    /// A list's items in document order with their depths, without a copy when no item
    /// has children (a table's list never has).
    struct FlatItems: RandomAccessCollection {
        private let top: [TodoItem]
        private let nested: [(item: TodoItem, depth: Int)]?

        init(_ list: TodoList) {
            top = list.items
            nested = list.items.contains { !$0.children.isEmpty } ? list.flattened() : nil
        }

        var startIndex: Int { 0 }
        var endIndex: Int { nested?.count ?? top.count }
        subscript(index: Int) -> (item: TodoItem, depth: Int) {
            if let nested { return nested[index] }
            return (top[index], 0)
        }
    }

    /// Updates changed rows, inserts new items and deletes rows whose items are gone, in the
    /// caller's transaction. The same key on two items is an error (`DuplicateIdentity`, by
    /// the items' indexes in document order) before anything is written.
    mutating func write(_ list: TodoList) throws {
        let entries = FlatItems(list)
        written = entries
        defer { written = FlatItems(TodoList()) }
        let count = entries.count
        noteLosses(entries)

        // The old rows, in the order they are read, paired with the new items: while the
        // keys come in the same order (one item changed) pairs are made as the rows stream
        // by; from the first difference on, the rest are aligned by key.
        var rows = RowLocators(withRowID: table.hasRowID, keyColumns: table.keyColumns)
        var pairs = [Int](repeating: -1, count: count)
        var changed = [Bool](repeating: false, count: count)
        var rest: [(index: Int, item: TodoItem)] = []
        var leading = 0
        var oldCount = 0
        do {
            let statement = try db.prepare(table.selectStatement)
            let decoder = RowDecoder(table)
            var learner = TableLayout.Learner(table)
            let keyIndexes = table.keyColumns.map { column in
                table.columns.firstIndex { $0.name == column }! + (table.hasRowID ? 1 : 0)
            }
            while try statement.step() {
                learner.learn(statement)
                let old = decoder.item(statement)
                rows.append(statement, keyIndexes: keyIndexes)
                let j = oldCount
                oldCount += 1
                if rest.isEmpty, j < count, let key = identity(entries[j].item), key == identity(old) {
                    pairs[j] = j
                    changed[j] = !Self.same(entries[j].item, old)
                    leading += 1
                } else {
                    rest.append((j, old))
                }
            }
            layout = learner.layout
        }
        if leading < count || !rest.isEmpty {
            let tail = Array(entries[leading...])
            let alignment: ItemAlignment
            do {
                alignment = try ItemAlignment(
                    old: rest.map { ItemAlignment.Entry($0.item, depth: 0) },
                    new: tail.map { ItemAlignment.Entry($0.item, depth: 0) },
                    identity: identity)
            } catch let duplicate {
                throw DuplicateIdentity(
                    identity: duplicate.identity, first: duplicate.first + leading, second: duplicate.second + leading,
                    key: table.keyFields.joined(separator: ", "))
            }
            for (offset, entry) in tail.enumerated() {
                let i = leading + offset
                let key = identity(entry.item)
                if let o = alignment.oldIndex(of: offset), let key, key == identity(rest[o].item) {
                    pairs[i] = rest[o].index
                    changed[i] = !Self.same(entry.item, rest[o].item)
                } else if let key, leading > 0, try rowExists(entry.item) {
                    // The key of a row an earlier item already continues: a duplicated line.
                    let first = (0..<leading).first { identity(entries[$0].item) == key } ?? 0
                    throw DuplicateIdentity(
                        identity: key, first: first, second: i, key: table.keyFields.joined(separator: ", "))
                }
            }
        }
        var kept = [Bool](repeating: false, count: oldCount)
        for pair in pairs where pair >= 0 { kept[pair] = true }

        // Order: renumbered to follow the list, where the table has an order column.
        var orders: [SQLValue?] = Array(repeating: nil, count: table.orderColumn == nil ? 0 : count)
        if let orderColumn = table.orderColumn {
            let moved = Ordering.flatIndexes(of: table.schema.moved, in: list.items)
            let values = entries.map { $0.item.fields.first { $0.key == orderColumn }?.value }
            let integral = values.allSatisfy { value in
                switch value {
                case .integer?, nil: true
                default: false
                }
            }
            if integral {
                let old = values.map { value -> Int? in if case .integer(let v)? = value { v } else { nil } }
                for (i, value) in Ordering.renumber(old, moved: moved).enumerated() where value != old[i] {
                    orders[i] = value.map { .integer(Int64($0)) } ?? .null
                    if pairs[i] >= 0 { changed[i] = true }
                }
            } else {
                let old = values.map { value -> Double? in
                    switch value {
                    case .integer(let v)?: Double(v)
                    case .double(let v)? where v.isFinite: v
                    default: nil
                    }
                }
                for (i, value) in Ordering.renumber(reals: old, moved: moved).enumerated() where value != old[i] {
                    orders[i] = value.map { .real($0) } ?? .null
                    if pairs[i] >= 0 { changed[i] = true }
                }
            }
        } else {
            noteLostOrder(entries, pairs: pairs)
        }

        // The writes: rows gone first (their keys may come back on new rows), then changed
        // rows, then new ones in list order (so keys the database gives follow the list).
        var statements = StatementCache(db: db)
        for j in 0..<oldCount where !kept[j] {
            try delete(rows[j], statements: &statements)
        }
        for i in 0..<count where pairs[i] >= 0 && changed[i] {
            try update(
                entries[i], at: i, locator: rows[pairs[i]], order: orders.isEmpty ? nil : orders[i],
                statements: &statements)
        }
        try insert(
            (0..<count).lazy.filter { pairs[$0] < 0 }.map { (entries[$0], $0, orders.isEmpty ? nil : orders[$0]) },
            statements: &statements)
    }

    /// Inserts new rows for `entries` (each with its index in the list written and its
    /// order value), in order, with the keys Core Data gives (`Z_PK` past the entity's
    /// `Z_MAX`, which then says the last).
    private mutating func insert<S: Sequence<(Entry, Int, SQLValue??)>>(_ entries: S, statements: inout StatementCache)
        throws
    {
        var nextKey = try coreDataMax()
        let firstKey = nextKey
        var takenDates: Set<SQLValue>? = nil
        for (entry, i, order) in entries {
            var values = try insertion(entry, at: i, order: order, takenDates: &takenDates)
            if let entity = table.entity {
                nextKey += 1
                values["Z_PK"] = .integer(nextKey)
                values["Z_ENT"] = .integer(Int64(entity.number))
                values["Z_OPT"] = .integer(1)
            }
            let names = table.columns.map(\.name).filter { values[$0] != nil }
            try statements.run(
                "INSERT INTO \(Database.quote(table.name)) (\(names.map(Database.quote).joined(separator: ", "))) VALUES (\(Array(repeating: "?", count: names.count).joined(separator: ", ")))",
                names.map { values[$0]! })
        }
        if nextKey != firstKey, let entity = table.entity, let model = table.model {
            try statements.run(
                "UPDATE Z_PRIMARYKEY SET Z_MAX = ? WHERE Z_ENT = ?",
                [.integer(nextKey), .integer(Int64(model.root(of: entity).number))])
        }
    }

    /// `add` or `rm` of items in an app's table made on their rows (`todofmt rm
    /// Store.sqlite 4` on a million rows): one narrow pass over the rows, sorted as the
    /// list is read, finds the rows of the run `run` gives for their count (and their order
    /// values); those are read, changed as `change` makes them, and the rows of items gone
    /// deleted, new items inserted and order values renumbered as `write` does it for the
    /// list so changed. Nil, with nothing written, where that needs the whole list: what
    /// `updateRow` excludes, an edit that both adds and removes items (a move) or changes
    /// an item it keeps, or a new item not at the end of a table without an order column
    /// (`write` warns of it). False where `change` left the items as they were.
    mutating func updateRows(
        run: (Int) -> Range<Int>?, change: ([TodoItem]) throws -> [TodoItem]?
    ) throws -> Bool? {
        guard !table.isOwn, table.namesRowID, let rows = try scan(run: run, keepingAll: true) else { return nil }
        let count = rows.count
        guard let range = run(count), !range.isEmpty, range.count <= 64,
            range.allSatisfy({ rows.rowid($0) != nil })
        else { return nil }
        var old: [TodoItem] = []
        var locators = RowLocators(withRowID: true)
        for i in range {
            guard let (item, locator) = try row(rows.rowid(i)!) else { return nil }
            old.append(item)
            locators.append(locator, keyIndexes: [])
        }
        guard let new = try change(old) else { return false }
        guard new.allSatisfy(\.children.isEmpty) else { return nil }
        var prefix = 0
        while prefix < min(old.count, new.count) && old[prefix].isIdentical(to: new[prefix]) { prefix += 1 }
        var suffix = 0
        while suffix < min(old.count, new.count) - prefix
            && old[old.count - 1 - suffix].isIdentical(to: new[new.count - 1 - suffix])
        {
            suffix += 1
        }
        let removed = prefix..<(old.count - suffix)
        let added = Array(new[prefix..<(new.count - suffix)])
        guard removed.isEmpty || added.isEmpty, !(removed.isEmpty && added.isEmpty) else { return nil }
        guard added.allSatisfy({ identity($0) == nil }) else { return nil }
        let place = range.lowerBound + prefix
        if table.orderColumn == nil && !added.isEmpty && place != count { return nil }
        var statements = StatementCache(db: db)
        for i in removed { try delete(locators[i], statements: &statements) }
        // The list's order values after the edit (nil for the new items), renumbered as
        // `write` renumbers them.
        var orders: [SQLValue??] = Array(repeating: nil, count: added.count)
        if let values = rows.values, !added.isEmpty {
            // Values that rise (as `scan` found them) stay where there is room for the new
            // items between their neighbours' (or past the first or last): then the values
            // around them say theirs. Else every value is renumbered as `write` does.
            let around = Array(values[max(0, place - 1)..<min(count, place + 1)])
            let window =
                Array(around.prefix(place > 0 ? 1 : 0)) + Array(repeating: nil, count: added.count)
                + Array(around.suffix(place < count ? 1 : 0))
            let local = Ordering.renumber(window, moved: [])
            if zip(window, local).allSatisfy({ $0.0 == nil || $0.0 == $0.1 }) {
                let first = place > 0 ? 1 : 0
                for i in added.indices { orders[i] = local[first + i].map { .integer(Int64($0)) } ?? .null }
            }
        }
        if let values = rows.values, !added.isEmpty, orders.contains(where: { $0 == nil }) {
            // (Renumbered a row at a time, a unique index could break midway.)
            guard try !table.hasUniqueIndex(in: db) else { return nil }
            let removedPlaces = (range.lowerBound + removed.lowerBound)..<(range.lowerBound + removed.upperBound)
            var list = values
            var places = Array(0..<count)
            list.replaceSubrange(removedPlaces, with: Array(repeating: nil, count: added.count))
            places.replaceSubrange(removedPlaces, with: Array(repeating: -1, count: added.count))
            let renumbered = try renumber(list, rows: places, rowid: { rows.rowid($0)! }, statements: &statements)
            for i in added.indices { orders[i] = renumbered[place + i].map { .integer(Int64($0)) } ?? .null }
        }
        if !added.isEmpty {
            written = FlatItems(TodoList(items: added))
            itemsBefore = place
            defer { written = FlatItems(TodoList()) }
            noteLosses(written)
            try insert(added.indices.map { ((added[$0], 0), $0, orders[$0]) }, statements: &statements)
        }
        return true
    }

    /// `mv` of an item of an app's table with an order column, made on the rows whose order
    /// values change as `write` renumbers them for the list with the item moved from place
    /// `from` to place `to` (both from 0), as `place` makes it given its new neighbours.
    /// Nil, with nothing written, where `updateRows` would be, or `place` returns nil or
    /// changes the item. False where the item stays where it is.
    mutating func moveRow(
        from: Int, to: Int, place: (TodoItem, TodoItem?, TodoItem?) throws -> TodoItem?
    ) throws -> Bool? {
        guard !table.isOwn, table.namesRowID, table.orderColumn != nil, try !table.hasUniqueIndex(in: db),
            let rows = try scan(run: { _ in nil }, keepingAll: true), let values = rows.values, from < rows.count,
            to < rows.count
        else { return nil }
        let count = rows.count
        let move = ItemMove(from: from, to: to)
        let (before, after) = move.neighbours(count: count)
        func item(_ i: Int?) throws -> TodoItem?? {
            guard let i else { return .some(nil) }
            return try row(rows.rowid(i)!).map { .some($0.item) } ?? nil
        }
        guard let moved = try item(from) ?? nil, let previous = try item(before), let next = try item(after),
            let placed = try place(moved, previous, next), placed == moved
        else { return nil }
        guard from != to else { return false }
        let places = (0..<count).map(move.origin)
        var statements = StatementCache(db: db)
        _ = try renumber(
            places.map { values[$0] }, rows: places, rowid: { rows.rowid($0)! }, moved: [to], statements: &statements)
        return true
    }

    /// The rows of the list in order, in one narrow pass (which also learns the table's
    /// layout from its first rows, as `write` does): their count, the rowids of those at the
    /// places of the run `run` gives in a long list (else of the last 128; of all where
    /// `keepingAll` and the table has an order column), and their order values (where
    /// `keepingAll`). Nil where an order value is not an integer, or the order values do not
    /// rise (`write` may renumber them then). Without an order column and `keepingAll`, the
    /// pass stops after the run: the count is then not known.
    private mutating func scan(run: (Int) -> Range<Int>?, keepingAll: Bool = false) throws -> ScannedRows? {
        let source = "FROM \(Database.quote(table.name))\(table.rowFilter) ORDER BY \(table.orderClause)"
        let order = table.orderColumn.map(Database.quote)
        let long = Int(Int32.max)
        let fixed = run(long) == run(long - 1) ? run(long) : nil
        let scan = try db.prepare("SELECT rowid\(order.map { ", " + $0 } ?? "") \(source)")
        var all: [Int64] = []
        var some: [Int: Int64] = [:]
        var values: [Int?] = []
        var last: [Int64] = []
        var row = 0
        var previous = Int64.min
        let keeping = keepingAll && order != nil
        while try scan.step() {
            if order != nil {
                guard case .integer(let value) = scan.value(1), value > previous else { return nil }
                previous = value
                if keeping { values.append(Int(value)) }
            }
            if keeping {
                all.append(scan.int64(0))
            } else if let fixed {
                if fixed.contains(row) { some[row] = scan.int64(0) }
                // (No order values to check: the rest need not be read.)
                if order == nil && !keepingAll && row + 1 >= fixed.upperBound { break }
            } else {
                if last.count == 128 { last.removeFirst(64) }
                last.append(scan.int64(0))
            }
            row += 1
        }
        for (i, rowid) in last.enumerated() { some[row - last.count + i] = rowid }
        // The layout, from the rows it learns from, as `write` learns it.
        var learner = TableLayout.Learner(table)
        let head = try db.prepare("SELECT rowid, * \(source) LIMIT \(TableLayout.sampleRows)")
        while try head.step() { learner.learn(head) }
        layout = learner.layout
        return ScannedRows(count: row, all: all, some: some, values: keeping ? values : nil)
    }

    /// What `scan` found: the count of rows, the rowids of all (`all`) or of some, and the
    /// order values.
    private struct ScannedRows {
        let count: Int
        let all: [Int64]
        let some: [Int: Int64]
        let values: [Int?]?

        func rowid(_ place: Int) -> Int64? {
            all.isEmpty ? some[place] : all.indices.contains(place) ? all[place] : nil
        }
    }

    /// The item of the row `rowid`, and its locator; nil where there is no such row.
    private mutating func row(_ rowid: Int64) throws -> (item: TodoItem, locator: Statement)? {
        let select = try db.prepare("SELECT rowid, * FROM \(Database.quote(table.name)) WHERE rowid = ?")
        try select.bind([.integer(rowid)])
        guard try select.step() else { return nil }
        return (RowDecoder(table).item(select), select)
    }

    /// Renumbers the order values `values` of the list as written (the old row at each place
    /// in `rows`, -1 for a new item; `rowid` gives an old row's rowid) as `write` does, and
    /// writes those of old rows that change, with their modification date and `Z_OPT`.
    /// Returns the values.
    private mutating func renumber(
        _ values: [Int?], rows: [Int], rowid: (Int) -> Int64, moved: Set<Int> = [], statements: inout StatementCache
    ) throws -> [Int?] {
        let renumbered = Ordering.renumber(values, moved: moved)
        guard let orderColumn = table.orderColumn else { return renumbered }
        let column = Database.quote(orderColumn)
        var sets = ["\(column) = \(column) + ?"]
        var stamps: [SQLValue] = []
        if let modified = table.modificationColumn, let stamp = stamp(modified) {
            sets.append("\(Database.quote(modified)) = ?")
            stamps.append(stamp)
        }
        if table.isCoreData { sets.append("Z_OPT = COALESCE(Z_OPT, 0) + 1") }
        let filter = table.rowFilter.isEmpty ? "" : " AND" + table.rowFilter.dropFirst(" WHERE".count)
        // The changed old rows, in runs consecutive before and after whose values move by one
        // step; the longest run is written first in one statement (the rows whose values lie
        // between its first's and its last's are those rows), then the others by rowid.
        var runs: [Range<Int>] = []
        var i = 0
        while i < values.count {
            guard rows[i] >= 0, let old = values[i], let new = renumbered[i], new != old else {
                i += 1
                continue
            }
            var end = i + 1
            while end < values.count, rows[end] == rows[end - 1] + 1, let o = values[end], let n = renumbered[end],
                n - o == new - old
            {
                end += 1
            }
            runs.append(i..<end)
            i = end
        }
        func step(_ run: Range<Int>) -> SQLValue {
            .integer(Int64(renumbered[run.lowerBound]! - values[run.lowerBound]!))
        }
        if let longest = runs.indices.max(by: { runs[$0].count < runs[$1].count }), runs[longest].count > 1 {
            let run = runs.remove(at: longest)
            try statements.run(
                "UPDATE \(Database.quote(table.name)) SET \(sets.joined(separator: ", ")) "
                    + "WHERE \(column) BETWEEN ? AND ?\(filter)",
                [step(run)] + stamps + [
                    .integer(Int64(values[run.lowerBound]!)), .integer(Int64(values[run.upperBound - 1]!)),
                ])
        }
        for run in runs {
            for place in run {
                try statements.run(
                    "UPDATE \(Database.quote(table.name)) SET \(sets.joined(separator: ", ")) WHERE rowid = ?",
                    [step(run)] + stamps + [.integer(rowid(rows[place]))])
            }
        }
        return renumbered
    }

    /// An edit of one item of an app's table made on its row alone (`todofmt done
    /// Store.sqlite 4` on a million rows): one narrow pass over the rows, sorted as the list
    /// is read, finds the item's row; the layout learns from the first rows as `write`'s
    /// does; that row alone is read, changed as `change` makes it, and updated as `write`
    /// updates it for the list with that item changed. Nil, with nothing written, where
    /// that needs the whole list: todofmt's own table, a table without rowids, an item that
    /// gains children, another identity or another order value, order values that do not
    /// rise as integers (`write` may renumber them), or an index past the rows. False where
    /// `change` left the item as it was (returned nil).
    mutating func updateRow(at index: Int, change: (TodoItem) throws -> TodoItem?) throws -> Bool? {
        guard !table.isOwn, table.namesRowID, let scanned = try scan(run: { _ in index..<index + 1 }),
            let rowid = scanned.rowid(index), let (old, statement) = try row(rowid)
        else { return nil }
        var rows = RowLocators(withRowID: true)
        rows.append(statement, keyIndexes: [])
        guard let new = try change(old) else { return false }
        let orderColumn = table.orderColumn
        func orderField(_ item: TodoItem) -> Field? { item.fields.first { $0.key == orderColumn } }
        guard new.children.isEmpty, identity(new) == identity(old), orderField(new) == orderField(old) else {
            return nil
        }
        written = FlatItems(TodoList(items: [new]))
        itemsBefore = index
        defer { written = FlatItems(TodoList()) }
        noteLosses(written)
        // (An item that says what its row says leaves the row as it is, as in `write`.)
        if !Self.same(new, old) {
            var statements = StatementCache(db: db)
            try update((new, 0), at: 0, locator: rows[0], order: nil, statements: &statements)
        }
        return true
    }

    // MARK: - Identity and sameness

    /// An item's key, with dates compared as the instants they are (a date read from the
    /// table and the same date read back from the checklist may differ in their last bit).
    private func identity(_ item: TodoItem) -> FieldValue? {
        guard let key = table.key(of: item) else { return nil }
        return Self.normalized(key)
    }

    private static func normalized(_ value: FieldValue) -> FieldValue {
        switch value {
        case .date(let d): return .array([.string("date"), .double(d.timeIntervalSince1970)])
        case .array(let values): return .array(values.map(normalized))
        default: return value
        }
    }

    /// Whether an item says the same as the row it continues: name, status and fields, dates
    /// within a microsecond (sections and nesting have no place in the table).
    static func same(_ a: TodoItem, _ b: TodoItem) -> Bool {
        guard a.name == b.name, a.status == b.status, a.fields.count == b.fields.count else { return false }
        for (x, y) in zip(a.fields, b.fields) where x.key != y.key || !same(x.value, y.value) { return false }
        return true
    }

    /// Two field values that mean the same (dates within a microsecond, equal numbers).
    static func same(_ a: FieldValue?, _ b: FieldValue?) -> Bool {
        switch (a, b) {
        case (nil, nil): return true
        case (.date(let x)?, .date(let y)?):
            return x.timeIntervalSince1970 == y.timeIntervalSince1970
                || abs(x.timeIntervalSince1970 - y.timeIntervalSince1970) < 1e-6
        case (.integer(let x)?, .double(let y)?), (.double(let y)?, .integer(let x)?): return Double(x) == y
        case (.double(let x)?, .double(let y)?): return x == y || (x.isNaN && y.isNaN)
        default: return a == b
        }
    }

    private func rowExists(_ item: TodoItem) throws -> Bool {
        var conditions: [String] = []
        var arguments: [SQLValue] = []
        for key in table.keyFields {
            guard let value = item.fields.first(where: { $0.key == key })?.value else { return false }
            conditions.append("\(key == "rowid" && table.keyColumns.isEmpty ? "rowid" : Database.quote(key)) = ?")
            arguments.append(storage(value, column: columnsByName[key]))
        }
        let filter = table.rowFilter.isEmpty ? "" : " AND" + table.rowFilter.dropFirst(" WHERE".count)
        return try db.scalar(
            "SELECT 1 FROM \(Database.quote(table.name)) WHERE \(conditions.joined(separator: " AND "))\(filter) LIMIT 1",
            arguments) != nil
    }

    // MARK: - Writing rows

    /// Updates a row: only the columns whose meaning changed, then its modification date
    /// and Core Data's `Z_OPT`.
    private mutating func update(
        _ entry: Entry, at index: Int, locator: [SQLValue], order: SQLValue??, statements: inout StatementCache
    ) throws {
        let old = try oldRow(locator)
        let (statusAssignments, lost, displaced) = statusValues(for: entry.item, old: old)
        if lost { noteLostStatus(entry.item.status, at: index) }
        if !displaced.isEmpty { noteDisplaced(displaced, at: index) }
        var assignments = statusAssignments
        let item = entry.item
        for column in table.columns where isFieldColumn(column) {
            let new = item.fields.first { $0.key == column.name }?.value
            let stored = old[column.name] ?? .null
            if Self.same(table.fieldValue(stored, column: column), new) { continue }
            if let new {
                assignments.append((column.name, storage(new, column: column)))
            } else if !column.notNull {
                assignments.append((column.name, .null))
            }
        }
        if let orderColumn = table.orderColumn, let order = order ?? nil, old[orderColumn] != order,
            !assignments.contains(where: { $0.0 == orderColumn })
        {
            assignments.append((orderColumn, order))
        }
        if !sameName(item.name, old[table.nameColumn] ?? .null) {
            assignments.insert((table.nameColumn, .text(item.name)), at: 0)
        }
        guard !assignments.isEmpty else { return }
        if let modified = table.modificationColumn, !assignments.contains(where: { $0.0 == modified }),
            let stamp = stamp(modified)
        {
            assignments.append((modified, stamp))
        }
        var sets = assignments.map { "\(Database.quote($0.0)) = ?" }
        if table.isCoreData { sets.append("Z_OPT = COALESCE(Z_OPT, 0) + 1") }
        try statements.run(
            "UPDATE \(Database.quote(table.name)) SET \(sets.joined(separator: ", ")) WHERE \(locators.condition)",
            assignments.map(\.1) + locator)
    }

    /// The column values of a new row: the name, the status in the table's spelling, the
    /// order, the fields the table has columns for, and the creation and modification dates
    /// the app would give it.
    private mutating func insertion(_ entry: Entry, at index: Int, order: SQLValue??, takenDates: inout Set<SQLValue>?)
        throws -> [String: SQLValue]
    {
        let item = entry.item
        var values: [String: SQLValue] = [table.nameColumn: .text(item.name)]
        let (statusAssignments, lost, displaced) = statusValues(for: item, old: nil)
        if lost { noteLostStatus(item.status, at: index) }
        if !displaced.isEmpty { noteDisplaced(displaced, at: index) }
        for (column, value) in statusAssignments { values[column] = value }
        for column in table.columns where isFieldColumn(column) && values[column.name] == nil {
            if table.isCoreData && column.name == "Z_PK" { continue }
            if let value = item.fields.first(where: { $0.key == column.name })?.value, value != .null {
                values[column.name] = storage(value, column: column)
            }
        }
        if let orderColumn = table.orderColumn, let order = order ?? nil { values[orderColumn] = order }
        if let created = table.dateColumn, values[created] == nil, var stamp = stamp(created) {
            if table.keyColumns == [created] {
                // A creation date that is also the key (the notes app's cdate, kept to the
                // second) must differ from every other key: moved on a second at a time past
                // keys already taken, so new rows stay unique and in list order.
                if takenDates == nil {
                    takenDates = try Set(
                        db.rows("SELECT \(Database.quote(created)) FROM \(Database.quote(table.name))").map { $0[0] })
                }
                var time = now
                while takenDates!.contains(stamp) {
                    time += 1
                    stamp = self.stamp(created, at: time) ?? stamp
                }
                takenDates!.insert(stamp)
            }
            values[created] = stamp
        }
        if let modified = table.modificationColumn, values[modified] == nil, let stamp = stamp(modified) {
            values[modified] = stamp
        }
        return values
    }

    private func delete(_ locator: [SQLValue], statements: inout StatementCache) throws {
        if let entity = table.entity, let model = table.model {
            // Core Data's many-to-many join tables (`Z_3TAGS`) lose the row's links.
            let key =
                try db.scalar("SELECT Z_PK FROM \(Database.quote(table.name)) WHERE \(locators.condition)", locator)
                ?? .null
            for (joinTable, column) in try joinColumns(of: model.ancestry(of: entity)) {
                try statements.run(
                    "DELETE FROM \(Database.quote(joinTable)) WHERE \(Database.quote(column)) = ?", [key])
            }
            // Another entity's to-one relationship to the row: its delete rule is in the
            // app's model, not in the store, so the removal is refused (FORMAT.md, 7.7).
            let names = model.ancestry(of: entity).compactMap { model.entity(number: $0)?.name.uppercased() }
            for (other, column) in try toOneColumns(naming: names) {
                let sql = "SELECT Z_PK FROM \(Database.quote(other)) WHERE \(Database.quote(column)) = ? LIMIT 1"
                if let holder = try db.scalar(sql, [key]), holder != .null {
                    throw EditError(
                        "cannot remove the \(entity.name) with Z_PK \(key.literal): \(other).\(column) (row Z_PK \(holder.literal)) refers to it, "
                            + "a Core Data relationship whose delete rule is in the app's model, not in the store; remove it in the app"
                    )
                }
            }
        }
        try statements.run("DELETE FROM \(Database.quote(table.name)) WHERE \(locators.condition)", locator)
    }

    /// The to-one relationship columns of other entities' tables that may hold keys of an
    /// entity named one of `names` (upper case): Core Data indexes each such column
    /// (`ZRECIPE_ZPRODUCEDITEM_INDEX`), and a relationship to an entity is named after it
    /// (`ZITEM`, `ZPRODUCEDITEM`).
    private func toOneColumns(naming names: [String]) throws -> [(String, String)] {
        var indexes: Set<String> = []
        for row in try db.rows("SELECT name FROM sqlite_master WHERE type = 'index'") {
            if case .text(let name) = row[0] { indexes.insert(name.uppercased()) }
        }
        var found: [(String, String)] = []
        for name in try db.tableNames()
        where name.hasPrefix("Z") && name != table.name && !CoreDataModel.isJoinTable(name)
            && !CoreDataModel.ownTables.contains(name)
        {
            for row in try db.rows("PRAGMA table_info(\(Database.quote(name)))") {
                guard case .text(let column) = row[1], column.hasPrefix("Z"), !column.hasPrefix("Z_"),
                    indexes.contains("\(name)_\(column)_INDEX".uppercased()),
                    names.contains(where: { column.uppercased().dropFirst().hasSuffix($0) })
                else { continue }
                found.append((name, column))
            }
        }
        return found
    }

    /// The columns of join tables that hold keys of these entities.
    private func joinColumns(of entities: [Int]) throws -> [(String, String)] {
        var found: [(String, String)] = []
        for name in try db.tableNames() where CoreDataModel.isJoinTable(name) && !CoreDataModel.ownTables.contains(name)
        {
            for row in try db.rows("PRAGMA table_info(\(Database.quote(name)))") {
                if case .text(let column) = row[1], let number = CoreDataModel.entityNumber(ofJoinColumn: column),
                    entities.contains(number)
                {
                    found.append((name, column))
                }
            }
        }
        return found
    }

    /// The stored values of a row, by column.
    private mutating func oldRow(_ locator: [SQLValue]) throws -> [String: SQLValue] {
        if selectRow == nil {
            selectRow = try db.prepare("SELECT * FROM \(Database.quote(table.name)) WHERE \(locators.condition)")
        }
        let statement = selectRow!
        try statement.bind(locator)
        guard try statement.step() else { return [:] }
        var row: [String: SQLValue] = [:]
        for (i, column) in table.columns.enumerated() where row[column.name] == nil {
            row[column.name] = statement.value(i)
        }
        return row
    }

    private var locators: RowLocators { RowLocators(withRowID: table.hasRowID, keyColumns: table.keyColumns) }

    /// A column whose value comes from the item's field of the same name.
    private func isFieldColumn(_ column: ColumnInfo) -> Bool {
        let roles = [table.nameColumn, table.checkedColumn, table.statusColumn, table.completionColumn]
        if roles.contains(column.name) { return false }
        if table.isCoreData && (column.name == "Z_PK" || ListTable.coreDataBookkeeping.contains(column.name)) {
            return false
        }
        if column.name == table.orderColumn { return false }
        return true
    }

    private func sameName(_ name: String, _ stored: SQLValue) -> Bool {
        switch stored {
        case .text(let s): return s == name
        case .null: return name.isEmpty
        default: return table.fieldValue(stored, column: columnsByName[table.nameColumn]!)?.description == name
        }
    }

    // MARK: - Values in the table's spelling

    /// A field value as the column stores it: dates in the column's layout (seconds since
    /// 2001 in a Core Data date column), booleans as 0 and 1, lists as JSON.
    func storage(_ value: FieldValue, column: ColumnInfo?) -> SQLValue {
        switch value {
        case .date(let d):
            guard let column else { return .text(ISO8601.format(d)) }
            if table.isCoreData && column.isDateType { return .real(d.timeIntervalSinceReferenceDate) }
            return .text(layout.dateLayout(of: column.name).format(d))
        case .bool(let b): return .integer(b ? 1 : 0)
        default: return OwnTable.sqlValue(value)
        }
    }

    /// The time of the write for a date column the app stamps, in its layout; nil where the
    /// column holds numbers todofmt cannot read as dates.
    private func stamp(_ column: String, at time: Date? = nil) -> SQLValue? {
        guard let info = columnsByName[column], !layout.numericDates.contains(column) else { return nil }
        // A column for numbers (`created INTEGER`) with no dates in it to learn from: its
        // epoch is unknown.
        guard table.isCoreData || info.isDateType || info.isTextType || layout.dates[column] != nil else { return nil }
        return storage(.date(time ?? now), column: info)
    }

    /// The statuses a table can hold: those its checked, status or completion columns say.
    private func holds(_ status: TodoStatus) -> Bool {
        if status == .open { return true }
        for column in [table.statusColumn, table.checkedColumn].compactMap({ $0 }) {
            if let map = table.statusMap(of: column) {
                // (A status the column's rows spell in a word, beside the mapped codes, too.)
                if map.values.contains(status) || layout.spelling(of: status, in: column) != nil { return true }
                continue
            }
            if column == table.statusColumn { return true }
            if status == .done { return true }
        }
        return status == .done && table.completionColumn != nil
    }

    /// The checked, status and completion columns' values for an item, where they differ
    /// in meaning from what is stored (`old`, nil for a new row), and whether the item's
    /// status has no place in the table.
    private func statusValues(for item: TodoItem, old: [String: SQLValue]?) -> (
        [(String, SQLValue)], lost: Bool, displaced: [Field]
    ) {
        var status = item.status
        let lost = !holds(status)
        if lost { status = .open }
        var values: [(String, SQLValue)] = []
        var displaced: [Field] = []
        for name in [table.checkedColumn, table.statusColumn].compactMap({ $0 }) {
            let column = columnsByName[name]!
            // A column that holds done and open only gets done-ness.
            let wanted: TodoStatus
            if let map = table.statusMap(of: name) {
                wanted = map.values.contains(status) || layout.spelling(of: status, in: name) != nil ? status : .open
            } else if name == table.checkedColumn && name != table.statusColumn {
                wanted = status == .done ? .done : .open
            } else {
                wanted = status
            }
            let stored = old?[name] ?? .null
            // A value that plays no role (Tracks' `deferred`) is the item's field under the column.
            if let field = item.fields.first(where: { $0.key == name }) {
                // Beside a checked column, which holds done-ness, the status column keeps the
                // field for done too.
                let besideChecked = name == table.statusColumn && table.checkedColumn.map { $0 != name } ?? false
                let value = storage(field.value, column: column)
                if wanted == .open || (wanted == .done && besideChecked), readsAsField(value, column: column) {
                    if old == nil || !Self.same(table.fieldValue(stored, column: column), field.value) {
                        values.append((name, value))
                    }
                    continue
                }
                // The status goes where the field's value was (`Doing` that is no status,
                // overwritten by `done`), or would be read as a status (`x`, 0 in a column
                // mapped to custom statuses alone): the field is lost, with a warning.
                displaced.append(field)
            }
            if old != nil {
                // The stored value already says it (NULL says open): it stays as it is spelled.
                // (A value that reads as a field, which the item no longer has, goes.)
                let meaning = readsAsField(stored, column: column) ? nil : table.status(of: stored, column: column)
                if meaning == wanted || (meaning == nil && stored == .null && wanted == .open) { continue }
                // A NULL status beside a checked column, which tells done-ness, stays as the
                // row is checked (as a null status beside a checked key does in JSON), and so
                // does a value that names no status in a column mapped to custom statuses
                // alone (`idea`).
                if name == table.statusColumn, let checked = table.checkedColumn, checked != name,
                    (stored == .null && wanted == .done)
                        || (wanted == .done || wanted == .open) && saysNothing(stored, column: column)
                {
                    continue
                }
            }
            values.append((name, spelling(of: wanted, in: column)))
        }
        if let name = table.completionColumn, let column = columnsByName[name] {
            let stored = old?[name] ?? .null
            let field = item.fields.first { $0.key == name }?.value
            if status == .done {
                if let field, field != .null {
                    if old == nil || !Self.same(table.fieldValue(stored, column: column), field) {
                        values.append((name, storage(field, column: column)))
                    }
                } else if stored == .null, let stamp = stamp(name) {
                    values.append((name, stamp))
                }
            } else if stored != .null {
                values.append((name, .null))
            }
        }
        return (values, lost, displaced)
    }

    /// Whether `value`, stored in the checked or status column `column`, reads back as the
    /// item's field under it (as `RowDecoder` reads it): a value that names no status.
    private func readsAsField(_ value: SQLValue, column: ColumnInfo) -> Bool {
        if value == .null { return false }
        if column.name == table.statusColumn, let map = table.statusMap(of: column.name), map.namesCustomStatusesAlone {
            return value != .integer(0) && table.namedStatus(of: value, column: column, map: map) == nil
        }
        return table.status(of: value, column: column) == nil
    }

    /// Whether `value` of a column mapped to custom statuses alone is 0, which says nothing
    /// of done-ness there. (Any other value that names no status, `idea`, is the item's
    /// field: where the item has none, it was removed.)
    private func saysNothing(_ value: SQLValue, column: ColumnInfo) -> Bool {
        guard value == .integer(0), let map = table.statusMap(of: column.name) else { return false }
        return map.namesCustomStatusesAlone && table.namedStatus(of: value, column: column, map: map) == nil
    }

    /// The stored value of a status in a column: the value the column's rows use for it
    /// most (NULL for open where open rows are NULL and none spells it), else the value the
    /// user mapped to it, else 1/0 (checked) or the word.
    private func spelling(of status: TodoStatus, in column: ColumnInfo) -> SQLValue {
        if let learned = layout.spelling(of: status, in: column.name) { return learned }
        let learned = layout.spellings(in: column.name)
        let numeric =
            column.declaredType.uppercased().contains("INT")
            || learned.values.contains { if case .integer = $0 { true } else { false } }
        func typed(_ text: String) -> SQLValue {
            if numeric, let i = Int64(text) { return .integer(i) }
            if numeric, let d = Double(text) { return .real(d) }
            return .text(text)
        }
        if let map = table.statusMap(of: column.name), let value = map.first(where: { $0.value == status })?.key {
            return typed(value)
        }
        if status == .open || status == .done, let map = table.statusMap(of: column.name), map.namesCustomStatusesAlone,
            column.name != table.checkedColumn
        {
            // A column mapped to custom statuses alone, with no value of its own for open:
            // one that says nothing, as in JSON (0 beside integer codes, else empty).
            // (Text `'0'` would be the custom status `0`.)
            return map.keys.allSatisfy({ Int($0) != nil }) && numeric ? .integer(0) : .text("")
        }
        if column.name == table.checkedColumn {
            // Mirror a word the column uses for the other state (`yes` for `no`).
            let opposite: TodoStatus = status == .done ? .open : .done
            if case .text(let word)? = learned[opposite] {
                let pairs = ["true": "false", "yes": "no", "on": "off", "y": "n", "1": "0", "t": "f"]
                let lower = word.lowercased()
                if let match = pairs.first(where: { $0.key == lower || $0.value == lower }) {
                    let mirrored = lower == match.key ? match.value : match.key
                    let cased =
                        word == word.uppercased()
                        ? mirrored.uppercased() : word.first?.isUppercase == true ? mirrored.capitalized : mirrored
                    return .text(cased)
                }
            }
            if table.statusMap(of: column.name) != nil { return numeric ? .integer(0) : .text("") }
            return .integer(status == .done ? 1 : 0)
        }
        switch status {
        case .done, .open:
            // Cased like the column's word for the other (`Open` beside `Done`).
            let word = status == .done ? "done" : "open"
            guard case .text(let other)? = learned[status == .done ? .open : .done] else { return .text(word) }
            return .text(ItemLayout.cased(word, like: other))
        case .custom(let scalar): return .text(String(scalar))
        }
    }

    // MARK: - What the table cannot hold

    /// Warnings about what no column holds: nesting, sections, fields without a column.
    private mutating func noteLosses(_ entries: FlatItems) {
        var names = Set(table.columns.map(\.name))
        if table.keyColumns.isEmpty { names.insert("rowid") }
        if table.isCoreData { names.subtract(ListTable.coreDataBookkeeping) }
        let lowered = Set(names.map { $0.lowercased() })
        var leftOut: [String] = []
        var leftOutCount = 0
        var firstLeftOut: Int? = nil
        var log = warnings
        defer { warnings = log }
        for (i, entry) in entries.enumerated() {
            if entry.depth > 0 {
                log.note(
                    .nesting, "the table has no parent column; nested items were written one after another",
                    item: position(i, entries))
            }
            if entry.item.section != nil {
                log.note(
                    .fields, "the table has no place for sections (headings); they were left out",
                    item: position(i, entries))
            }
            var missing = false
            for field in entry.item.fields {
                if field.key == table.nameColumn
                    || (!names.contains(field.key) && !lowered.contains(field.key.lowercased()))
                {
                    if !leftOut.contains(field.key) { leftOut.append(field.key) }
                    missing = true
                } else {
                    let column =
                        columnsByName[field.key]
                        ?? table.columns.first { $0.name.lowercased() == field.key.lowercased() }
                    SQLiteValueLoss.note(field.value, declaredType: column?.declaredType ?? "", in: &log) {
                        position(i, entries)
                    }
                }
            }
            if missing {
                leftOutCount += 1
                if firstLeftOut == nil { firstLeftOut = i }
            }
        }
        if let firstLeftOut {
            var warning = ConversionWarning(
                .fields, "the table has no column for \(leftOut.joined(separator: ", ")); those fields were left out",
                firstItem: position(firstLeftOut, entries))
            warning.count = leftOutCount
            log.append(contentsOf: [warning])
        }
    }

    /// Notes fields of item `index` whose column its status took (`statusValues`).
    private mutating func noteDisplaced(_ fields: [Field], at index: Int) {
        var log = warnings
        log.note(displaced: fields, item: describe(index))
        warnings = log
    }

    private mutating func noteLostStatus(_ status: TodoStatus, at index: Int) {
        let message =
            table.checkedColumn == nil && table.statusColumn == nil && table.completionColumn == nil
            ? "the table has no column for done-ness or a status; checked items and custom statuses were not written"
            : status == .done
                ? "the table has no value for done (no checked column, and its status column's mapped values name none); those items were written as open"
                : "the table has no value for this status (done-ness is written, custom statuses are not); those items were written as open"
        var log = warnings
        log.note(.status, message, item: describe(index))
        warnings = log
    }

    /// Where the table has no order column, the list comes back in the order of its rows
    /// (kept ones as they were, new ones after them): a move changes nothing, with a warning.
    private mutating func noteLostOrder(_ entries: FlatItems, pairs: [Int]) {
        var last = -1
        var sequence: [Double?] = []
        sequence.reserveCapacity(pairs.count)
        var news = 0
        for pair in pairs {
            if pair >= 0 {
                sequence.append(Double(pair))
            } else {
                news += 1
                sequence.append(Double(pairs.count + news))
            }
        }
        let keep = longestIncreasingRun(sequence)
        guard let first = keep.firstIndex(of: false) else { return }
        last = keep.count { !$0 }
        var warning = ConversionWarning(
            .order,
            "the table has no order column; the items' new order was not kept (they come back in the order of their rows)",
            firstItem: position(first, entries))
        warning.count = last
        warnings.append(contentsOf: [warning])
    }

    /// An item of the list being written, as warnings name it.
    private func describe(_ index: Int) -> String { position(index, written) }

    /// An item's position as `list` shows it (`2.1`), with its name.
    private func position(_ index: Int, _ entries: FlatItems) -> String {
        var positions = ItemPositions()
        var text = ""
        for i in 0...index { text = positions.next(depth: entries[i].depth) }
        // `updateRow`'s list is one top-level item: its position counts the items before it.
        if itemsBefore > 0, let number = Int(text) { text = String(number + itemsBefore) }
        return ItemPositions.describe(text, entries[index].item)
    }

    /// The largest Core Data key given so far in the entity's hierarchy (its root's `Z_MAX`).
    private func coreDataMax() throws -> Int64 {
        guard let entity = table.entity, let model = table.model else { return 0 }
        let root = model.root(of: entity)
        var largest: Int64 = 0
        if case .integer(let m)? = try db.scalar(
            "SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT = ?", [.integer(Int64(root.number))])
        {
            largest = m
        }
        // Never below a key the table already has.
        if case .integer(let m)? = try db.scalar("SELECT max(Z_PK) FROM \(Database.quote(table.name))") {
            largest = max(largest, m)
        }
        return largest
    }
}

/// Where each old row is, to update or delete it: its rowid, or for a table without one
/// its primary key's values.
struct RowLocators {
    let withRowID: Bool
    var keyColumns: [String] = []
    private var rowids: [Int64] = []
    private var keys: [[SQLValue]] = []

    init(withRowID: Bool, keyColumns: [String] = []) {
        self.withRowID = withRowID
        self.keyColumns = keyColumns
    }

    mutating func append(_ statement: Statement, keyIndexes: [Int]) {
        if withRowID {
            rowids.append(statement.int64(0))
        } else {
            keys.append(keyIndexes.map(statement.value))
        }
    }

    subscript(index: Int) -> [SQLValue] { withRowID ? [.integer(rowids[index])] : keys[index] }

    /// The condition that finds a row by its locator.
    var condition: String {
        withRowID ? "rowid = ?" : keyColumns.map { "\(Database.quote($0)) = ?" }.joined(separator: " AND ")
    }
}

/// Prepared statements by their text, each prepared once.
struct StatementCache {
    let db: Database
    private var statements: [String: Statement] = [:]

    init(db: Database) { self.db = db }

    mutating func run(_ sql: String, _ arguments: [SQLValue]) throws {
        let statement = try statements[sql] ?? db.prepare(sql)
        statements[sql] = statement
        try statement.run(arguments)
    }
}
