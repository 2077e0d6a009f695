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
        // A column named as the rowid hides it from SQL; a `WITHOUT ROWID` table has none.
        guard isOwn, hasRowID, !columns.contains(where: { ["rowid", "_rowid_", "oid"].contains($0.name.lowercased()) })
        else {
            return nil
        }
        let fieldColumns = self.fieldColumns
        let fields = Dictionary(fieldColumns.map { (ExactText($0.key), $0.column) }, uniquingKeysWith: { a, _ in a })
        guard fields.count == fieldColumns.count else { return nil }
        let table = Database.quote(name)
        // Values as the list reads them (`Statement.int64`: NULL is 0, text its number).
        let id = "coalesce(CAST(id AS INTEGER), 0)"
        let position = "coalesce(CAST(position AS INTEGER), 0)"
        // The item's first row: the index-th row without a parent, in stored order…
        guard
            let first = try db.rows(
                "SELECT rowid, \(id), \(position) FROM \(table) WHERE parent IS NULL ORDER BY rowid LIMIT 1 OFFSET ?",
                [.integer(Int64(index))]
            ).first,
            case .integer(let start) = first[0], case .integer(let itemID) = first[1],
            case .integer(let itemPosition) = first[2]
        else { return nil }
        // …and its rows up to the next top-level one.
        let last: Int64
        switch try db.scalar("SELECT min(rowid) FROM \(table) WHERE parent IS NULL AND rowid > ?", [.integer(start)]) {
        case .integer(let next): last = next - 1
        default:
            guard case .integer(let end) = try db.scalar("SELECT max(rowid) FROM \(table)") else { return nil }
            last = end
        }
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
        var items: [TodoItem] = []
        var ids: [Int64] = []
        var parents: [Int64?] = []
        var positions: [Int64] = []
        var stored: [Int64] = []  // the rows' rowids
        try forEachOwnRow(in: db, rowids: start...last) { item, id, parent, position, rowid in
            items.append(item)
            ids.append(id)
            parents.append(parent)
            positions.append(position)
            stored.append(rowid)
        }
        guard ids.first == itemID, Set(ids).count == ids.count else { return nil }
        let tree = try Self.tree(items, ids: ids, parents: parents, positions: positions)
        guard tree.count == 1, let old = tree.first, old.count == items.count else { return nil }
        guard let new = try change(old) else { return .unchanged }
        guard new.hasShape(of: old) else { return nil }
        // The tree's rows in depth-first order are the range's rows sorted the same way.
        let rowids = Self.depthFirstRows(ids: ids, parents: parents, positions: positions).map { stored[$0] }

        // What changes, row by row, before anything is written.
        var log = WarningLog()
        var updates: [(rowid: Int64, set: [(column: String, value: SQLValue)])] = []
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
        guard visit(old, new, position: String(index + 1), depth: 0) else { return nil }
        for update in updates {
            try db.prepare(
                "UPDATE \(table) SET \(update.set.map { "\(Database.quote($0.column)) = ?" }.joined(separator: ", ")) WHERE rowid = ?"
            ).run(update.set.map(\.value) + [.integer(update.rowid)])
        }
        return .changed(log.warnings)
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
    fileprivate var count: Int { children.reduce(1) { $0 + $1.count } }

    /// Whether the item has as many children as `other`, each with as many, all the way down.
    fileprivate func hasShape(of other: TodoItem) -> Bool {
        children.count == other.children.count
            && zip(children, other.children).allSatisfy { $0.hasShape(of: $1) }
    }
}
