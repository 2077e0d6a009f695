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
    /// makes it, in the caller's transaction. Nil, with nothing changed, where that needs
    /// more than the item's rows: rows not stored as todofmt stores them (an item's rows
    /// together, in order), an edit that adds or removes rows, or a field whose column is
    /// not there or holds another kind of value.
    func updateOwnItem(
        at index: Int, in db: Database, change: (TodoItem) throws -> TodoItem?
    ) throws -> OwnItemChange? {
        guard isOwn else { return nil }
        let table = Database.quote(name)
        // The item's first row: the index-th row without a parent, in stored order (its id and
        // position as the list reads them, `Statement.int64`)…
        guard
            let first = try db.rows(
                "SELECT rowid, CAST(id AS INTEGER), CAST(position AS INTEGER) FROM \(table) WHERE parent IS NULL "
                    + "ORDER BY rowid LIMIT 1 OFFSET ?",
                [.integer(Int64(index))]
            ).first,
            case .integer(let start) = first[0], case .integer(let id) = first[1],
            case .integer(let position) = first[2]
        else { return nil }
        // …and its rows up to the next top-level one.
        let next = try db.scalar(
            "SELECT min(rowid) FROM \(table) WHERE parent IS NULL AND rowid > ?", [.integer(start)])
        let end: Int64
        if case .integer(let n) = next {
            end = n
        } else if case .integer(let last) = try db.scalar("SELECT max(rowid) FROM \(table)") {
            end = last + 1
        } else {
            return nil
        }
        // The list reads top-level items in (position, id) order, as integers, and children
        // by parent id: the item is index-th in that order and every row of it lies in the
        // range, or the list is read whole. (One pass over the table.)
        let check = try db.rows(
            "SELECT count(*) FILTER (WHERE parent IS NULL AND (CAST(position AS INTEGER) < ?1 "
                + "OR (CAST(position AS INTEGER) = ?1 AND CAST(id AS INTEGER) < ?2))), "
                + "count(*) FILTER (WHERE parent IN (SELECT id FROM \(table) WHERE rowid >= ?3 AND rowid < ?4) "
                + "AND (rowid < ?3 OR rowid >= ?4)) FROM \(table)",
            [.integer(position), .integer(id), .integer(start), .integer(end)])
        guard let counts = check.first, counts == [.integer(Int64(index)), .integer(0)] else { return nil }
        var items: [TodoItem] = []
        var ids: [Int64] = []
        var parents: [Int64?] = []
        var positions: [Int64] = []
        try forEachOwnRow(in: db, rowids: start..<end) { item, id, parent, position in
            items.append(item)
            ids.append(id)
            parents.append(parent)
            positions.append(position)
        }
        // The rowids in the order the tree lists the rows (depth first, children by position).
        let rowidOfID = Dictionary(ids.enumerated().map { ($1, start + Int64($0)) }, uniquingKeysWith: { a, _ in a })
        guard rowidOfID.count == ids.count else { return nil }
        let tree = try Self.tree(items, ids: ids, parents: parents, positions: positions)
        guard tree.count == 1, ids.first == id, let old = tree.first, old.count == items.count else { return nil }
        guard let new = try change(old) else { return .unchanged }
        guard new.hasShape(of: old) else { return nil }
        // The tree's rows in depth-first order are the range's rows sorted the same way.
        let rowids = Self.depthFirstIDs(items, ids: ids, parents: parents, positions: positions).map { rowidOfID[$0]! }

        let fields = Dictionary(fieldColumns.map { ($0.key, $0.column) }, uniquingKeysWith: { a, _ in a })
        var log = WarningLog()
        var emptied: Set<String> = []
        var row = 0
        var failed = false
        func visit(_ old: TodoItem, _ new: TodoItem, position: String, depth: Int) throws {
            guard !failed else { return }
            var set: [(String, SQLValue)] = []
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
                guard let column = fields[field.key] else {
                    failed = true
                    return
                }
                SQLiteValueLoss.note(field.value, declaredType: column.declaredType, in: &log) {
                    ItemPositions.describe(position, new)
                }
            }
            for (key, column) in fields {
                let after = new.fields[key: key] ?? .null
                let value = OwnTable.sqlValue(after)
                guard !value.isIdentical(to: OwnTable.sqlValue(old.fields[key: key] ?? .null)) else { continue }
                // A value of another kind than the column's would make the whole list's
                // write retype the column; one taken out may leave it empty.
                if after != .null && OwnTable.kind(of: after) != column.declaredType.uppercased() {
                    failed = true
                    return
                }
                if after == .null { emptied.insert(column.name) }
                set.append((column.name, value))
            }
            if !set.isEmpty {
                try db.prepare(
                    "UPDATE \(table) SET \(set.map { "\(Database.quote($0.0)) = ?" }.joined(separator: ", ")) WHERE rowid = ?"
                ).run(set.map(\.1) + [.integer(rowids[row])])
            }
            row += 1
            for (i, pair) in zip(old.children, new.children).enumerated() {
                try visit(pair.0, pair.1, position: position + ".\(i + 1)", depth: depth + 1)
            }
        }
        try visit(old, new, position: String(index + 1), depth: 0)
        guard !failed else { return nil }
        // A column no row holds a value in any more is left out of the whole list's table.
        for column in emptied
        where try db.scalar("SELECT 1 FROM \(table) WHERE \(Database.quote(column)) IS NOT NULL LIMIT 1") == nil {
            return nil
        }
        return .changed(log.warnings)
    }

    /// The ids of rows in the order `tree` lists them: depth first, children by position.
    private static func depthFirstIDs(_ items: [TodoItem], ids: [Int64], parents: [Int64?], positions: [Int64])
        -> [Int64]
    {
        var children: [Int64: [Int]] = [:]
        for i in items.indices { if let parent = parents[i] { children[parent, default: []].append(i) } }
        var order: [Int64] = []
        func add(_ i: Int) {
            order.append(ids[i])
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
