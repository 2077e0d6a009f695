/// An edit of one top-level item of todofmt's own table made on that item's rows alone
/// (`todofmt done todo.sqlite 4` on a million rows): the item's rows are found and read by
/// SQL, changed, and only the columns that changed are written. What a whole-list write
/// would change beyond them (renumbered rows, columns made again) is not this path's to
/// decide: where the edit could need it, it answers nil and the whole list is read.
extension ListTable {
    /// What `updateOwnItem` did.
    enum OwnItemChange {
        /// `change` left the item as it was.
        case unchanged
        /// The item's rows were updated (in the caller's transaction); the warnings say what
        /// the columns could not hold.
        case changed([ConversionWarning])
    }

    /// Changes top-level item `index` of todofmt's own table (with its children) as `change`
    /// makes it, in the caller's transaction. Nil, with nothing written, where that needs
    /// more than the item's rows: rows not stored as todofmt stores them (an item's rows
    /// together, in order), an edit that adds or removes rows, or a field whose column is
    /// not there or holds another kind of value.
    func updateOwnItem(
        at index: Int, in db: Database, change: (TodoItem) throws -> TodoItem?
    ) throws -> OwnItemChange? {
        guard editsOwnRows, fieldColumnsByKey != nil else { return nil }
        let table = Database.quote(name)
        // Values as the list reads them (`Statement.int64`: NULL is 0, text its number).
        let id = "coalesce(CAST(id AS INTEGER), 0)"
        let position = "coalesce(CAST(position AS INTEGER), 0)"
        // The item's first row: the first row without a parent at that position (as todofmt
        // writes positions and its edits keep them), else the index-th such row in stored
        // order (as todofmt writes rows)…
        guard
            let first =
                try db.rows(
                    "SELECT rowid, \(id), \(position) FROM \(table) WHERE parent IS NULL AND position = ? "
                        + "ORDER BY rowid LIMIT 1", [.integer(Int64(index))]
                ).first
                ?? db.rows(
                    "SELECT rowid, \(id), \(position) FROM \(table) WHERE parent IS NULL ORDER BY rowid LIMIT 1 OFFSET ?",
                    [.integer(Int64(index))]
                ).first,
            case .integer(let start) = first[0], case .integer(let itemID) = first[1],
            case .integer(let itemPosition) = first[2],
            // …and its rows up to the next top-level one.
            let last = try lastRow(ofItemAt: start, in: db)
        else { return nil }
        // The list reads top-level items in (position, id) order and children by parent id:
        // the item is index-th in that order and every row of it lies in the range, or the
        // list is read whole. (One pass over the table.)
        let check = try db.rows(
            "SELECT count(*) FILTER (WHERE parent IS NULL AND (\(position) < ?1 OR (\(position) = ?1 AND \(id) < ?2))), "
                + "count(*) FILTER (WHERE parent IS NOT NULL AND (rowid < ?3 OR rowid > ?4) AND CAST(parent AS INTEGER) IN "
                + "(SELECT \(id) FROM \(table) WHERE rowid BETWEEN ?3 AND ?4)), "
                + "count(*) FILTER (WHERE (rowid < ?3 OR rowid > ?4) AND \(id) IN "
                + "(SELECT \(id) FROM \(table) WHERE rowid BETWEEN ?3 AND ?4)) FROM \(table)",
            [.integer(itemPosition), .integer(itemID), .integer(start), .integer(last)])
        // (…and no row outside the range has the id of one inside: the list nests by id.)
        guard let counts = check.first, counts == [.integer(Int64(index)), .integer(0), .integer(0)] else {
            return nil
        }
        guard let rows = try ownItem(rowids: start...last, in: db), rows.id == itemID else { return nil }
        guard let new = try change(rows.item) else { return .unchanged }
        var log = WarningLog()
        guard let updates = rowUpdates(from: rows, to: new, position: String(index + 1), log: &log) else {
            return nil
        }
        try apply(updates, in: db)
        return .changed(log.warnings)
    }

    /// Whether todofmt's own table may be edited a row at a time: it has rowids, and no
    /// column hides them from SQL (one named `rowid`, `_rowid_` or `oid`).
    var editsOwnRows: Bool { isOwn && namesRowID }

    /// Whether SQL can name the table's rows by rowid: it has them, and no column hides them
    /// (one named `rowid`, `_rowid_` or `oid`).
    var namesRowID: Bool {
        hasRowID && !columns.contains(where: { ["rowid", "_rowid_", "oid"].contains($0.name.lowercased()) })
    }

    /// The field columns of todofmt's own table by the key each holds; nil where two hold
    /// one key.
    var fieldColumnsByKey: [ExactText: ColumnInfo]? {
        let fieldColumns = self.fieldColumns
        let fields = Dictionary(fieldColumns.map { (ExactText($0.key), $0.column) }, uniquingKeysWith: { a, _ in a })
        return fields.count == fieldColumns.count ? fields : nil
    }

    /// The last row of the item whose top-level row is `start`: the row before the next
    /// top-level row in stored order, or the table's last.
    func lastRow(ofItemAt start: Int64, in db: Database) throws -> Int64? {
        let table = Database.quote(name)
        switch try db.scalar("SELECT min(rowid) FROM \(table) WHERE parent IS NULL AND rowid > ?", [.integer(start)]) {
        case .integer(let next): return next - 1
        default:
            guard case .integer(let end) = try db.scalar("SELECT max(rowid) FROM \(table)") else { return nil }
            return end
        }
    }

    /// One top-level item of todofmt's own table read from its rows alone.
    struct OwnItemRows {
        /// The item with its children.
        var item: TodoItem
        /// Its top-level row's id.
        var id: Int64
        /// Its rows' rowids, depth first as `item` lists them.
        var rowids: [Int64]
        /// The rowids its rows lie in.
        var range: ClosedRange<Int64>
    }

    /// The item whose rows are `rowids`, the first its top-level row; nil where they are not
    /// one item (a row in the range nests under another item, two rows have one id).
    func ownItem(rowids range: ClosedRange<Int64>, in db: Database) throws -> OwnItemRows? {
        var items: [TodoItem] = []
        var ids: [Int64] = []
        var parents: [Int64?] = []
        var positions: [Int64] = []
        var stored: [Int64] = []  // the rows' rowids
        try forEachOwnRow(in: db, rowids: range) { item, id, parent, position, rowid in
            items.append(item)
            ids.append(id)
            parents.append(parent)
            positions.append(position)
            stored.append(rowid)
        }
        guard let first = ids.first, parents[0] == nil, Set(ids).count == ids.count else { return nil }
        let tree = try Self.tree(items, ids: ids, parents: parents, positions: positions)
        guard tree.count == 1, let item = tree.first, item.count == items.count else { return nil }
        // The tree's rows in depth-first order are the range's rows sorted the same way.
        let rowids = Self.depthFirstRows(ids: ids, parents: parents, positions: positions).map { stored[$0] }
        return OwnItemRows(item: item, id: first, rowids: rowids, range: range)
    }

    /// A row's changed columns.
    typealias RowUpdate = (rowid: Int64, set: [(column: String, value: SQLValue)])

    /// The columns to write to make `old`'s rows hold `new`, an item of the same shape
    /// (`hasShape(of:)`), top-level item `position` (as `list` prints it); what the columns
    /// cannot hold goes into `log`. Nil where the whole list's write would do more: a
    /// child added or removed, a field without a column, a value of another kind than
    /// its column's.
    func rowUpdates(from old: OwnItemRows, to new: TodoItem, position: String, log: inout WarningLog)
        -> [RowUpdate]?
    {
        guard new.hasShape(of: old.item), let fields = fieldColumnsByKey else { return nil }
        let fieldColumns = self.fieldColumns
        var updates: [RowUpdate] = []
        var row = 0
        func visit(_ old: TodoItem, _ new: TodoItem, position: String, depth: Int) -> Bool {
            let rowid = rowids[row]
            row += 1
            var set: [(column: String, value: SQLValue)] = []
            if !new.nameStorage.utf8.elementsEqual(old.nameStorage.utf8) { set.append(("name", .text(new.name))) }
            if new.status != old.status {
                set.append(("checked", .integer(new.isChecked ? 1 : 0)))
                if case .custom(let s) = new.status {
                    set.append(("status", .text(String(s))))
                } else {
                    set.append(("status", .null))
                }
            }
            let section: SQLValue = new.section.map { .text($0) } ?? .null
            if depth == 0, !section.isIdentical(to: old.section.map { .text($0) } ?? .null) {
                set.append(("section", section))
            }
            for field in new.fields {
                guard let column = fields[ExactText(field.key)] else { return false }
                SQLiteValueLoss.note(field.value, declaredType: column.declaredType, in: &log) {
                    ItemPositions.describe(position, new)
                }
            }
            for (column, key) in fieldColumns {
                let after = new.fields.value(exactKey: key) ?? .null
                let value = OwnTable.sqlValue(after)
                guard !value.isIdentical(to: OwnTable.sqlValue(old.fields.value(exactKey: key) ?? .null)) else {
                    continue
                }
                // A value of another kind than the column's would make the whole list's
                // write retype the column.
                if after != .null && !OwnTable.column(column, holds: after) {
                    return false
                }
                set.append((column.name, value))
            }
            if !set.isEmpty { updates.append((rowid, set)) }
            for (i, pair) in zip(old.children, new.children).enumerated()
            where !visit(pair.0, pair.1, position: position + ".\(i + 1)", depth: depth + 1) {
                return false
            }
            return true
        }
        let rowids = old.rowids
        return visit(old.item, new, position: position, depth: 0) ? updates : nil
    }

    /// Writes `updates`, in the caller's transaction.
    func apply(_ updates: [RowUpdate], in db: Database) throws {
        for update in updates {
            try db.prepare(
                "UPDATE \(Database.quote(name)) SET \(update.set.map { "\(Database.quote($0.column)) = ?" }.joined(separator: ", ")) WHERE rowid = ?"
            ).run(update.set.map(\.value) + [.integer(update.rowid)])
        }
    }

    /// The rows (their places in the arrays, the first the top-level one) in the order
    /// `tree` lists them: depth first, children by position.
    private static func depthFirstRows(ids: [Int64], parents: [Int64?], positions: [Int64]) -> [Int] {
        var children: [Int64: [Int]] = [:]
        for i in ids.indices { if let parent = parents[i] { children[parent, default: []].append(i) } }
        var order: [Int] = []
        func add(_ i: Int) {
            order.append(i)
            for child in (children[ids[i]] ?? []).sorted(by: { (positions[$0], ids[$0]) < (positions[$1], ids[$1]) }) {
                add(child)
            }
        }
        add(0)
        return order
    }
}

extension TodoItem {
    /// The item and its descendants.
    var count: Int { children.reduce(1) { $0 + $1.count } }

    /// Whether the item is `other` to the byte: `==` compares names and texts as Swift
    /// compares strings (`é` composed and not are equal), a table stores their bytes.
    func isIdentical(to other: TodoItem) -> Bool {
        func same(_ a: String?, _ b: String?) -> Bool { a?.utf8.elementsEqual(b?.utf8 ?? "".utf8) ?? (b == nil) }
        func same(_ a: FieldValue, _ b: FieldValue) -> Bool {
            switch (a, b) {
            case (.string(let x), .string(let y)): same(x, y)
            case (.array(let x), .array(let y)): x.count == y.count && zip(x, y).allSatisfy { same($0, $1) }
            case (.dictionary(let x), .dictionary(let y)):
                x.count == y.count && zip(x, y).allSatisfy { same($0.key, $1.key) && same($0.value, $1.value) }
            default: a == b
            }
        }
        return self == other && nameStorage.utf8.elementsEqual(other.nameStorage.utf8) && same(section, other.section)
            && zip(fields, other.fields).allSatisfy { same($0.key, $1.key) && same($0.value, $1.value) }
            && zip(children, other.children).allSatisfy { $0.isIdentical(to: $1) }
    }

    /// Whether the item has as many children as `other`, each with as many, all the way down.
    func hasShape(of other: TodoItem) -> Bool {
        children.count == other.children.count
            && zip(children, other.children).allSatisfy { $0.hasShape(of: $1) }
    }
}
