import Foundation
import Testing

@testable import TodoFormat

/// An SQL dump is a program SQLite runs: one that would run for ever or make a huge value
/// stops at a documented limit (FORMAT.md section 14) with an error at its statement.
@Suite("Limits of what a dump may run")
struct DumpLimitTests {
    static let table = "CREATE TABLE t(id integer primary key, name text, checked int);\n"

    /// The error reading `sql` as a dump.
    static func error(reading sql: String) throws -> StoreError {
        try #require(throws: StoreError.self) { try TodoList(bytes: Array(sql.utf8), format: .sql, name: "bad.sql") }
    }

    @Test(
        "a recursive query without an end, or a cross join of big ones, stops at the step limit",
        arguments: [
            "INSERT INTO t SELECT x, x, 0 FROM (WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c) SELECT x FROM c);",
            "INSERT INTO t SELECT a.x*100000+b.x, 'n', 0 FROM (WITH RECURSIVE a(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM a WHERE x<100000) SELECT x FROM a) a, (WITH RECURSIVE a(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM a WHERE x<100000) SELECT x FROM a) b;",
            "CREATE VIEW v AS WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c) SELECT x FROM c;\nINSERT INTO t SELECT x, 'n', 0 FROM v;",
        ])
    func endless(_ statement: String) throws {
        let error = try Self.error(reading: Self.table + statement)
        #expect(error.message == Limits.dumpStepsMessage)
        #expect(error.location?.file == "bad.sql")
        #expect(
            error.location?.line == Self.table.split(separator: "\n").count + statement.split(separator: "\n").count)
        #expect(error.sql?.hasPrefix("INSERT INTO t SELECT") == true)
    }

    @Test("a value past the size limit is an error at its statement")
    func hugeValue() throws {
        let error = try Self.error(
            reading: Self.table
                + "INSERT INTO t VALUES(1, 'a', 0);\nINSERT INTO t VALUES(2, zeroblob(\(Limits.dumpValueBytes + 1)), 0);\n"
        )
        #expect(error.message.contains("too big"))
        #expect(error.location?.line == 3)
    }

    @Test("a dump as the sqlite3 shell writes it, with indexes made after its rows, is well inside the limits")
    func ordinaryDump() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("app.sqlite")
        _ = try Databases.sqlite3(
            path,
            [
                "CREATE TABLE todo(id integer primary key, name text, checked int, position real);"
                    + "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c WHERE x<20000) "
                    + "INSERT INTO todo SELECT x, 'item '||x, x%2, x*1.5 FROM c;"
                    + "CREATE INDEX by_name ON todo(name); CREATE INDEX by_position ON todo(position, checked);"
            ])
        let dump = try Databases.dump(path)
        let list = try TodoList(bytes: Array(dump.utf8), format: .sql, name: "app.sql")
        #expect(list.items.count == 20000)
        #expect(list.items.last?.name == "item 20000")
    }
}
