import Foundation

/// The rows that differ between two databases, table by table: what a dry run on a database
/// shows. A changed row is its old values (`-`) then its new ones (`+`), by rowid.
enum DatabaseRows {
    static func changes(from old: String, to new: String) throws -> String {
        let db = try Database(path: old, readOnly: true)
        try db.execute("ATTACH DATABASE \(Database.literal(new)) AS changed")
        var out = ""
        for table in try db.tableNames() where !table.hasPrefix("sqlite_") {
            let quoted = Database.quote(table)
            let columns = try db.rows("SELECT name FROM pragma_table_info(\(Database.literal(table)))").compactMap {
                row -> String? in
                if case .text(let name) = row[0] { return name }
                return nil
            }
            guard !columns.isEmpty else { continue }
            let values = columns.map { "quote(\(Database.quote($0)))" }.joined(separator: " || ', ' || ")
            let key = db.hasRowID(table) ? "rowid" : "0"
            func rows(_ a: String, _ b: String) throws -> [(Int64, String)] {
                try db.rows(
                    "SELECT \(key), \(values) FROM \(a).\(quoted) EXCEPT SELECT \(key), \(values) FROM \(b).\(quoted)"
                ).map { row in
                    var id: Int64 = 0
                    if case .integer(let n) = row[0] { id = n }
                    var text = ""
                    if case .text(let t) = row[1] { text = t }
                    return (id, text)
                }
            }
            let removed = try rows("main", "changed")
            let added = try rows("changed", "main")
            guard !removed.isEmpty || !added.isEmpty else { continue }
            out += "--- \(table) (\(columns.joined(separator: ", ")))\n"
            let merged = (removed.map { ($0.0, 0, "-(" + $0.1 + ")") } + added.map { ($0.0, 1, "+(" + $0.1 + ")") })
                .sorted { ($0.0, $0.1) < ($1.0, $1.1) }
            for row in merged { out += row.2 + "\n" }
        }
        return out
    }
}
