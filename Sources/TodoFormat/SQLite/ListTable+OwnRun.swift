/// `add`, `rm` and `mv` of top-level items of todofmt's own table made on the rows they
/// touch (`todofmt rm todo.sqlite 4` on a million rows): the items' rows are found by
/// their positions, the rows of an item removed are deleted, an item added gets new rows
/// with ids after the table's last, and the top-level rows after the change have their
/// `position` moved by one (top-level positions stay 0, 1, 2… as todofmt writes them). No
/// other row is renumbered, so ids stay as they were (FORMAT.md 7.7). Where the table is
/// not as todofmt keeps it, these answer nil and the whole list is read and written.
extension ListTable {
    /// Changes the run of top-level items `run` gives for the table's count of them, as
    /// `change` makes it (nil: unchanged), in the caller's transaction. Nil, with the
    /// transaction to be rolled back, where that needs more than the run's rows.
    func updateOwnItems(
        in db: Database, run: (Int) -> Range<Int>?, change: ([TodoItem]) throws -> [TodoItem]?
    ) throws -> OwnItemChange? {
        guard editsOwnRows, idIsRowID, fieldColumnsByKey != nil, try !hasUniqueIndex(in: db) else { return nil }
        // The run as it is in any long list, else (an item added at the end) as it is for
        // the count the last top-level row stored says (its position and one, as todofmt
        // writes and appends rows), found reading back from the table's end. One pass finds
        // the run's rows and counts the top-level rows; a second finds the run's where the
        // count is another. (Counting first, then finding, was two passes: a quarter of
        // `add` at a million rows.)
        let long = Int(Int32.max)
        var guess = run(long) == run(long - 1) ? run(long) : nil
        let fromEnd = guess == nil
        if fromEnd,
            case .integer(let last)? = try db.scalar(
                "SELECT position FROM \(Database.quote(name)) WHERE parent IS NULL ORDER BY rowid DESC LIMIT 1"),
            last >= 0, last < long
        {
            guess = run(Int(last) + 1)
        }
        var found = try topLevelRows(places: guess.map { [$0] } ?? [], in: db)
        // (A guess at places the table does not have as the list reads them: counted alone.)
        if found == nil && fromEnd && guess != nil {
            guess = nil
            found = try topLevelRows(places: [], in: db)
        }
        // (A run as long as the list, which `mv` of an item equal to its new neighbour asks
        // for, is read faster as the whole list.)
        guard let count = found?.count, let range = run(count), !range.isEmpty, range.count <= 64 else { return nil }
        // (The places of a longer run were all checked.)
        let covered = guess.map { $0.lowerBound <= range.lowerBound && range.upperBound <= $0.upperBound } ?? false
        if !covered { found = try topLevelRows(places: [range], in: db) }
        guard let found else { return nil }
        var old: [OwnItemRows] = []
        for place in range {
            guard let start = found.rowids[place], let last = try lastRow(ofItemAt: start, in: db),
                let rows = try ownItem(rowids: start...last, in: db)
            else { return nil }
            old.append(rows)
        }
        guard let new = try change(old.map(\.item)) else { return .unchanged }

        // The items kept at either end are left as they are; those between are changed in
        // place where they keep their shape, else removed and added anew.
        var prefix = 0
        while prefix < min(old.count, new.count) && old[prefix].item.isIdentical(to: new[prefix]) { prefix += 1 }
        var suffix = 0
        while suffix < min(old.count, new.count) - prefix
            && old[old.count - 1 - suffix].item.isIdentical(to: new[new.count - 1 - suffix])
        {
            suffix += 1
        }
        let removed = old[prefix..<(old.count - suffix)]
        let added = new[prefix..<(new.count - suffix)]
        var log = WarningLog()
        var updates: [RowUpdate] = []
        var deleted: [ClosedRange<Int64>] = []
        var inserted: [(place: Int, item: TodoItem)] = []
        // The items whose rows change: a row elsewhere under one of them would be left behind.
        var checked: [ClosedRange<Int64>] = []
        if removed.count == added.count {
            for (i, (rows, item)) in zip(removed, added).enumerated() {
                let place = range.lowerBound + prefix + i
                checked.append(rows.range)
                if let changed = rowUpdates(from: rows, to: item, position: String(place + 1), log: &log) {
                    updates += changed
                } else {
                    deleted.append(rows.range)
                    inserted.append((place, item))
                }
            }
        } else {
            deleted = removed.map(\.range)
            checked = deleted
            inserted = added.enumerated().map { (range.lowerBound + prefix + $0.offset, $0.element) }
        }

        // The top-level rows after the change move by the count of items it adds; the
        // same pass makes sure no row elsewhere nests under an item changed, and at the
        // list's end that every row is reached from a top-level one (rows that are not come
        // after the top-level ones).
        let after = range.upperBound - suffix
        // (New rows take ids after the largest: a row naming such an id as its parent would
        // nest under one.)
        let largest = try db.scalar("SELECT max(rowid) FROM \(Database.quote(name))")
        guard case .integer(let largestID) = largest ?? .integer(0),
            // (Every top-level row at a place from `after` on, and every one past the run.)
            try shift(
                from: after, by: added.count - removed.count, moving: count - after, checking: checked,
                reachable: range.upperBound == count, adoptingAfter: inserted.isEmpty ? nil : largestID, in: db)
        else { return nil }
        let table = Database.quote(name)
        for rows in deleted {
            try db.prepare("DELETE FROM \(table) WHERE rowid BETWEEN ? AND ?").run([
                .integer(rows.lowerBound), .integer(rows.upperBound),
            ])
        }
        guard try insert(inserted, in: db, log: &log) else { return nil }
        try apply(updates, in: db)
        return .changed(log.warnings)
    }

    /// Moves top-level item `from` to be top-level item `to` (both from 0), as `place` makes
    /// it given its new neighbours before and after (read without their children), in the
    /// caller's transaction: its `position` (and section) and those of the top-level rows
    /// between. Nil where the table is not as todofmt keeps it or `place` returns nil.
    func moveOwnItem(
        in db: Database, from: Int, to: Int, place: (TodoItem, TodoItem?, TodoItem?) throws -> TodoItem?
    ) throws -> OwnItemChange? {
        guard editsOwnRows, idIsRowID, fieldColumnsByKey != nil, try !hasUniqueIndex(in: db) else { return nil }
        let move = ItemMove(from: from, to: to)
        let between = min(from, to)..<max(from, to) + 1
        guard let found = try topLevelRows(places: [from..<from + 1, max(0, to - 1)..<to + 2], in: db),
            from < found.count, to < found.count
        else { return nil }
        let (before, after) = move.neighbours(count: found.count)
        func bare(_ place: Int?) throws -> TodoItem?? {
            guard let place else { return .some(nil) }
            guard let rowid = found.rowids[place], let rows = try ownItem(rowids: rowid...rowid, in: db) else {
                return nil
            }
            return rows.item
        }
        guard let item = try bare(from) ?? nil, let previous = try bare(before), let next = try bare(after),
            let placed = try place(item, previous, next)
        else { return nil }
        guard from != to || placed.section != item.section else { return .unchanged }
        var placedBare = placed
        placedBare.children = []
        var sectioned = item
        sectioned.section = placed.section
        // `place` changes the section alone.
        guard placedBare == sectioned, let rowid = found.rowids[from],
            // (Exactly `between.count` rows have a position in `between`, the item's among
            // them: `from` rows lie before its place and `to - 1` before its new neighbours',
            // with one at each of those places.)
            try shift(
                from: between.lowerBound, to: between.upperBound, skipping: from, by: from < to ? -1 : 1,
                moving: between.count - 1, checking: [], reachable: max(from, to) == found.count - 1, in: db)
        else { return nil }
        var set: [(column: String, value: SQLValue)] = [("position", .integer(Int64(to)))]
        if placed.section != item.section { set.append(("section", placed.section.map { .text($0) } ?? .null)) }
        try apply([(rowid, set)], in: db)
        return .changed([])
    }

    /// Whether the table has a unique index or constraint (besides its primary key): moving
    /// positions one row at a time could break it midway, and one with `ON CONFLICT
    /// REPLACE` or `IGNORE` would drop or skip a row without an error.
    func hasUniqueIndex(in db: Database) throws -> Bool {
        try db.rows("SELECT 1 FROM pragma_index_list(?) WHERE \"unique\" AND origin != 'pk'", [.text(name)])
            .isEmpty == false
    }

    /// Whether `id` is the table's rowid (`INTEGER PRIMARY KEY`): ids are then distinct
    /// integers, and a new row's id is the rowid SQLite gives it.
    var idIsRowID: Bool {
        columns.filter(\.isPrimaryKey).map(\.name) == ["id"]
            && columns.first { $0.name == "id" }?.declaredType.uppercased() == "INTEGER"
    }

    /// The top-level rows at `places` (ranges of places from 0), in one pass: the count of
    /// top-level rows, and the rowid of the row at each place that is less than it. Nil
    /// where the list might not read them at those places: a top-level position that is
    /// not a number, fewer or more rows before a range than its first place, a position in
    /// a range (or short of the next place) that is not an integer, two rows at one
    /// position in a range.
    func topLevelRows(places: [Range<Int>], in db: Database) throws -> (count: Int, rowids: [Int: Int64])? {
        let ranges = places.filter { !$0.isEmpty }
        // (Text and blobs sort after numbers, from the empty text on: a position is a number
        // where it is less. A real one compares as the integer the list reads it as, and one
        // in a range is no place. Rows that are not numbers counted, rather than the count
        // of positions and their largest for every row: a third of the pass at a million.)
        var sql = "SELECT count(*), count(*) FILTER (WHERE position IS NULL OR position >= '' COLLATE BINARY) = 0"
        var arguments: [SQLValue] = []
        // (`FILTER` rather than `sum(position < ?)` and `iif(…)`: a condition a row is
        // skipped by costs less than a value made of it, a fifth of the pass at a million.)
        for range in ranges {
            sql += ", count(*) FILTER (WHERE position < ?)"
            arguments.append(.integer(Int64(range.lowerBound)))
        }
        if !ranges.isEmpty {
            // (From the first place to the next past the last: a real just below it is no
            // place, and would be moved or not as the integers past the range are.)
            sql +=
                ", group_concat(rowid || ' ' || position) FILTER (WHERE "
                + ranges.map { _ in "(position >= ? AND position < ?)" }.joined(separator: " OR ") + ")"
            for range in ranges {
                arguments += [.integer(Int64(range.lowerBound)), .integer(Int64(range.upperBound))]
            }
        }
        sql += " FROM \(Database.quote(name)) WHERE parent IS NULL"
        guard let row = try db.rows(sql, arguments).first, case .integer(let count) = row[0] else { return nil }
        guard count == 0 || row[1] == .integer(1) else { return nil }
        var rowids: [Int: Int64] = [:]
        if case .text(let found) = row.last, !ranges.isEmpty {
            for pair in found.split(separator: ",") {
                let parts = pair.split(separator: " ")
                guard parts.count == 2, let rowid = Int64(parts[0]), let place = Int(parts[1]) else { return nil }
                // Two rows at one position: which comes first is not the position's to say.
                guard rowids.updateValue(rowid, forKey: place) == nil else { return nil }
            }
        }
        for (i, range) in ranges.enumerated() {
            // Exactly the range's first place rows before it, then one row at each place.
            guard range.lowerBound > count || row[2 + i] == .integer(Int64(range.lowerBound)) else { return nil }
            for place in range where place < count && rowids[place] == nil { return nil }
        }
        return (Int(count), rowids)
    }

    /// Moves by `delta` the position of each top-level row from `start` up to `end` (every
    /// one from `start` on where nil; not one at `skipping`), `expected` rows, in one pass
    /// that also makes sure no row outside each of `checking` nests under a row in it and,
    /// where `reachable`, that every row with a parent comes after it (so each is reached
    /// from a top-level row), and that no row names a parent id past `adoptingAfter` (new
    /// rows would take it). False, with rows perhaps changed (the caller's transaction is
    /// rolled back), where a row breaks any of these. The rows that do are counted with
    /// those moved: `expected` must be exact (a gap in the positions moving one row fewer
    /// hid a row left under an item removed).
    private func shift(
        from start: Int, to end: Int? = nil, skipping: Int? = nil, by delta: Int, moving expected: Int,
        checking: [ClosedRange<Int64>], reachable: Bool, adoptingAfter: Int64? = nil, in db: Database
    ) throws -> Bool {
        let table = Database.quote(name)
        var moved = "parent IS NULL AND position >= ?1"
        if end != nil { moved += " AND position < ?2" }
        if skipping != nil { moved += " AND position != ?3" }
        var arguments: [SQLValue] = [
            .integer(Int64(start)), .integer(Int64(end ?? 0)), .integer(Int64(skipping ?? -1)), .integer(Int64(delta)),
        ]
        guard delta != 0 || !checking.isEmpty || reachable || adoptingAfter != nil else { return true }
        // Rows the update sets to what they hold, only to be counted.
        var odd: [String] = []
        for range in checking {
            odd.append(
                "(parent IS NOT NULL AND CAST(parent AS INTEGER) BETWEEN ?\(arguments.count + 1) AND ?\(arguments.count + 2) "
                    + "AND rowid NOT BETWEEN ?\(arguments.count + 1) AND ?\(arguments.count + 2))")
            arguments += [.integer(range.lowerBound), .integer(range.upperBound)]
        }
        if let adoptingAfter {
            odd.append("(parent IS NOT NULL AND CAST(parent AS INTEGER) > ?\(arguments.count + 1))")
            arguments.append(.integer(adoptingAfter))
        }
        if reachable {
            // Ids with no gap between the least and the largest (as todofmt numbers rows):
            // a parent from the least up to the row's own id is a row's, which needs no
            // look-up for each row (half the pass at a million rows).
            let ids = try db.rows(
                "SELECT (SELECT count(*) FROM \(table)), (SELECT min(rowid) FROM \(table)), "
                    + "(SELECT max(rowid) FROM \(table))"
            ).first
            let exists: String
            if let ids, case .integer(let rows) = ids[0], case .integer(let least) = ids[1],
                case .integer(let largest) = ids[2],
                case (let span, false) = largest.subtractingReportingOverflow(least),
                span == rows - 1
            {
                exists = "parent < ?\(arguments.count + 1)"
                arguments.append(.integer(least))
            } else {
                exists = "NOT EXISTS (SELECT 1 FROM \(table) AS p WHERE p.id = \(table).parent)"
            }
            odd.append("(parent IS NOT NULL AND (typeof(parent) != 'integer' OR parent >= id OR \(exists)))")
        }
        let condition = delta == 0 ? odd.joined(separator: " OR ") : ([moved] + odd).joined(separator: " OR ")
        // (The rows counted have a parent; those moved have none.)
        let change = odd.isEmpty ? "?4" : "iif(parent IS NULL, ?4, 0)"
        try db.prepare("UPDATE \(table) SET position = position + \(change) WHERE \(condition)").run(arguments)
        return db.changes == (delta == 0 ? 0 : expected)
    }

    /// Adds each item (with its children) as new rows at its top-level place, with ids after
    /// the table's last, depth first, in the caller's transaction. False where an item has a
    /// field without a column or of another kind than its column's (the whole list's write
    /// makes or retypes the column).
    private func insert(_ items: [(place: Int, item: TodoItem)], in db: Database, log: inout WarningLog) throws
        -> Bool
    {
        guard !items.isEmpty, let fields = fieldColumnsByKey else { return true }
        let table = Database.quote(name)
        guard case .integer(var next) = try db.scalar("SELECT coalesce(max(rowid), 0) FROM \(table)"),
            next < Int64.max - 1_000_000
        else { return false }
        let defaults = Set(columns.filter(\.hasDefault).map(\.name))
        let fieldColumns = self.fieldColumns
        func add(_ item: TodoItem, parent: Int64?, position: Int, path: String) throws -> Bool {
            next += 1
            let id = next
            var values: [(column: String, value: SQLValue)] = [
                ("id", .integer(id)), ("parent", parent.map { .integer($0) } ?? .null),
                ("position", .integer(Int64(position))), ("name", .text(item.name)),
                ("checked", .integer(item.isChecked ? 1 : 0)),
                (
                    "status",
                    { if case .custom(let s) = item.status { return .text(String(s)) } else { return .null } }()
                ),
                ("section", parent == nil ? item.section.map { .text($0) } ?? .null : .null),
            ]
            for field in item.fields {
                guard let column = fields[ExactText(field.key)] else { return false }
                SQLiteValueLoss.note(field.value, declaredType: column.declaredType, in: &log) {
                    ItemPositions.describe(path, item)
                }
            }
            for (column, key) in fieldColumns {
                let value = item.fields.isEmpty ? .null : item.fields.value(exactKey: key) ?? .null
                guard value == .null || OwnTable.column(column, holds: value) else { return false }
                values.append((column.name, OwnTable.sqlValue(value)))
            }
            // A field's column with a default gets it where the item has no value for it
            // (todofmt's columns say the item's structure: NULL there is meant).
            values.removeAll {
                $0.value == .null && defaults.contains($0.column) && !Self.ownColumns.contains($0.column)
            }
            try db.prepare(
                "INSERT INTO \(table) (\(values.map { Database.quote($0.column) }.joined(separator: ", "))) "
                    + "VALUES (\(values.map { _ in "?" }.joined(separator: ", ")))"
            ).run(values.map(\.value))
            for (i, child) in item.children.enumerated()
            where try !add(child, parent: id, position: i, path: path + ".\(i + 1)") {
                return false
            }
            return true
        }
        for (place, item) in items where try !add(item, parent: nil, position: place, path: String(place + 1)) {
            return false
        }
        return true
    }
}
