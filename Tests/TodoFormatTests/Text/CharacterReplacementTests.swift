import Testing

@testable import TodoFormat

struct CharacterReplacementTests {
    @Test(
        arguments: [
            ("it's", "'", "''", "it''s"),
            ("it'\u{301}s", "'", "''", "it''\u{301}s"),
            ("na\"\u{301}me", "\"", "\"\"", "na\"\"\u{301}me"),
            ("a\n\u{301}b\r\nc\n", "\n", " ", "a \u{301}b\r c "),
            ("no target here 日本語", "'", "''", "no target here 日本語"),
            ("", "\n", " ", ""),
            ("2024-01-02T03:04:05", "T", " ", "2024-01-02 03:04:05"),
        ] as [(String, Unicode.Scalar, String, String)])
    func replacesEveryOne(_ text: String, _ target: Unicode.Scalar, _ replacement: String, _ expected: String) {
        #expect(Array(text.replacingEvery(target, with: replacement).utf8) == Array(expected.utf8))
    }

    @Test(arguments: [
        ("plain", "plain"), ("a\nb", "a b"), ("a\r\nb", "a b"), ("a\rb", "a b"), ("a\n\rb", "a  b"),
        ("\n\u{301}x\r", " \u{301}x "), ("日本\r\n語\n", "日本 語 "),
    ])
    func onOneLine(_ text: String, _ expected: String) {
        #expect(Array(text.onOneLine.utf8) == Array(expected.utf8))
    }

    /// Quoted names and texts with a quote that a combining mark follows still make the SQL
    /// they should: SQLite reads back exactly what was quoted.
    @Test func sqlQuotesHoldQuotesBeforeCombiningMarks() throws {
        let db = try Database(path: ":memory:", readOnly: false, name: "test")
        let table = "na\"\u{301}me"
        let text = "it'\u{301}s 'quoted'"
        try db.execute("CREATE TABLE \(Database.quote(table)) (x TEXT)")
        try db.execute("INSERT INTO \(Database.quote(table)) VALUES (\(Database.literal(text)))")
        try db.execute("INSERT INTO \(Database.quote(table)) VALUES (\(SQLValue.text(text).literal))")
        let rows = try db.rows("SELECT x FROM \(Database.quote(table))")
        #expect(rows.map { $0.first } == [.text(text), .text(text)])
        let names = try db.rows("SELECT name FROM sqlite_master WHERE type = 'table'")
        #expect(names.map { $0.first } == [.text(table)])
    }
}
