import Foundation

/// The rows that differ between two databases, table by table: what a dry run on a database
/// shows. A changed row is its old values (`-`) then its new ones (`+`), by rowid; a table
/// whose columns changed names its new ones on a `+++` line.
enum DatabaseRows {
    static func changes(from old: String, to new: String) throws -> String {
        let db = try Database(path: old, readOnly: true)
        try db.execute("ATTACH DATABASE \(Database.literal(new)) AS changed")
        var out = ""
        func tables(_ schema: String) throws -> [String] {
            try db.rows("SELECT name FROM \(schema).sqlite_master WHERE type = 'table' ORDER BY rowid").compactMap {
                if case .text(let name) = $0[0], !name.hasPrefix("sqlite_") { return name }
                return nil
            }
        }
        let oldTables = try tables("main")
        let newTables = try tables("changed")
        for table in oldTables + newTables.filter({ !oldTables.contains($0) }) {
            let quoted = Database.quote(table)
            // Each side's own columns: the edit may have added or dropped one (the table made
            // again), and a column one side lacks would read as a text of its name.
            func columns(_ schema: String) throws -> [String] {
                try db.rows(
                    "SELECT name FROM pragma_table_info(\(Database.literal(table)), \(Database.literal(schema)))"
                )
                .compactMap { row -> String? in
                    if case .text(let name) = row[0] { return name }
                    return nil
                }
            }
            let oldColumns = try columns("main")
            let newColumns = try columns("changed")
            guard !oldColumns.isEmpty || !newColumns.isEmpty else { continue }
            let key = !oldColumns.isEmpty && db.hasRowID(table) ? "rowid" : "0"
            func select(_ schema: String, _ columns: [String]) -> String {
                // A side without the table gives no rows.
                guard !columns.isEmpty else { return "SELECT 0, '' WHERE 0" }
                let values = columns.map { "quote(\(Database.quote($0)))" }.joined(separator: " || ', ' || ")
                return "SELECT \(key), \(values) FROM \(schema).\(quoted)"
            }
            func rows(_ a: String, _ b: String) throws -> [(Int64, String)] {
                let (aColumns, bColumns) = a == "main" ? (oldColumns, newColumns) : (newColumns, oldColumns)
                return try db.rows("\(select(a, aColumns)) EXCEPT \(select(b, bColumns))").map { row in
                    var id: Int64 = 0
                    if case .integer(let n) = row[0] { id = n }
                    var text = ""
                    if case .text(let t) = row[1] { text = t }
                    return (id, text)
                }
            }
            let removed = try rows("main", "changed")
            let added = try rows("changed", "main")
            guard !removed.isEmpty || !added.isEmpty || oldColumns != newColumns else { continue }
            out += "--- \(table) (\(oldColumns.joined(separator: ", ")))\n"
            if oldColumns != newColumns { out += "+++ \(table) (\(newColumns.joined(separator: ", ")))\n" }
            let merged = (removed.map { ($0.0, 0, "-(" + $0.1 + ")") } + added.map { ($0.0, 1, "+(" + $0.1 + ")") })
                .sorted { ($0.0, $0.1) < ($1.0, $1.1) }
            for row in merged { out += row.2 + "\n" }
        }
        return out
    }
}
