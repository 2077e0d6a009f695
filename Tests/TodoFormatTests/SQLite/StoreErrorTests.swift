import Foundation
import Testing

@testable import TodoFormat

@Suite("SQLite error messages")
struct StoreErrorTests {
    static let longSQL = "INSERT INTO t VALUES ('" + String(repeating: "x", count: 300) + "');"

    @Test(
        "SQLite's message, the statement, and the file or the dump line",
        arguments: [
            (StoreError(code: 1, message: "no such table: t"), "no such table: t"),
            (
                StoreError(code: 1, message: "no such table: t", sql: "SELECT * FROM t"),
                "no such table: t (while running `SELECT * FROM t`)"
            ),
            (
                StoreError(
                    code: 26, message: "file is not a database",
                    location: SourceLocation(file: "a.sqlite", line: 0, column: 0)),
                "a.sqlite: file is not a database"
            ),
            (
                StoreError(
                    code: 1, message: "no such table: t", sql: "SELECT 1 FROM t;",
                    location: SourceLocation(file: "d.sql", line: 8, column: 1)),
                "d.sql:8:1: error: no such table: t (while running `SELECT 1 FROM t;`)"
            ),
            (
                StoreError(code: 1, message: "too big", sql: longSQL),
                "too big (while running `INSERT INTO t VALUES ('" + String(repeating: "x", count: 177) + "…`)"
            ),
        ])
    func description(error: StoreError, text: String) {
        #expect(error.description == text)
        #expect(error.localizedDescription == text)
    }

    @Test("a statement of exactly 200 characters is shown whole")
    func twoHundred() {
        let sql = String(repeating: "y", count: 200)
        #expect(StoreError(code: 1, message: "m", sql: sql).description == "m (while running `\(sql)`)")
    }

    @Test("a refused dump statement reads the same from the reader")
    func fromReader() {
        let text = "CREATE TABLE t(name TEXT);\nATTACH DATABASE 'x.db' AS x;\n"
        do {
            _ = try TodoList(bytes: Array(text.utf8), format: .sql, name: "bad.sql")
            Issue.record("ATTACH was not refused")
        } catch let error as StoreError {
            #expect(
                error.description
                    == "bad.sql:2:1: error: ATTACH and DETACH are not allowed in a dump (they touch other files) (while running `ATTACH DATABASE 'x.db' AS x;`)"
            )
        } catch {
            Issue.record("expected a StoreError, got \(error)")
        }
    }
}
