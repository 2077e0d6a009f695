import Foundation
import Testing

@testable import TodoFormat

/// A row written back into a dump begins as the file's INSERT began (`INSERT INTO Note
/// VALUES(`): the `VALUES(` is the keyword's, never one inside a comment or a quoted name.
struct DumpTemplateTests {
    static let table = "CREATE TABLE todos(id INTEGER PRIMARY KEY, name TEXT, done INTEGER);\n"

    /// Dumps of two rows, each INSERT beginning so, and how a row written back begins.
    @Test(arguments: [
        (table, "/* VALUES( */ INSERT INTO todos VALUES(", "/* VALUES( */ INSERT INTO todos VALUES("),
        (table, "INSERT INTO todos /* VALUES(7,'x',0) */ VALUES(", "INSERT INTO todos /* VALUES(7,'x',0) */ VALUES("),
        (table, "-- VALUES(\nINSERT INTO todos VALUES (", "INSERT INTO todos VALUES ("),
        (table, "insert into todos values\t(", "insert into todos values\t("),
        (
            "CREATE TABLE \"VALUES(\"(id INTEGER PRIMARY KEY, name TEXT, done INTEGER);\n",
            "INSERT INTO \"VALUES(\" VALUES(", "INSERT INTO \"VALUES(\" VALUES("
        ),
        (
            "CREATE TABLE [my values](id INTEGER PRIMARY KEY, name TEXT, done INTEGER);\n",
            "INSERT INTO [my values] VALUES(", "INSERT INTO [my values] VALUES("
        ),
        // A column list: the row is written as the shell writes one.
        (table, "INSERT INTO todos(id,name,done) VALUES(", "INSERT INTO todos VALUES("),
    ])
    func doneKeepsTheStatementsBeginning(_ create: String, _ insert: String, _ expected: String) throws {
        let directory = try TemporaryDirectory()
        let url = directory.url.appendingPathComponent("l.sql")
        let dump = create + insert + "1,'Milk',0);\n" + insert + "2,'Eggs',1);\n"
        try Data(dump.utf8).write(to: url)
        _ = try FileEdit(file: url, edits: [.check([ItemAddress("1")])]).run()
        let list = try TodoList(contentsOf: url)
        #expect(list.items.map(\.name) == ["Milk", "Eggs"])
        #expect(list.items.map(\.isChecked) == [true, true])
        let text = try String(contentsOf: url, encoding: .utf8)
        #expect(text.contains(expected + "1,'Milk',1);"), "\(text)")
    }

    /// A table SQLite reserves (`sqlite_…`) is refused in a dump as a database refuses it,
    /// and nothing is written: a dump making it would load nowhere.
    @Test(arguments: ["out.sql", "out.sqlite"])
    func reservedTableNames(_ name: String) throws {
        let directory = try TemporaryDirectory()
        let input = directory.path("in.md")
        try Data("- [ ] milk\n".utf8).write(to: URL(fileURLWithPath: input))
        var options = ListOptions()
        options.table = "SQLite_x"
        #expect(throws: (any Error).self) {
            try Conversion(input: .at(input), output: .at(directory.path(name)), options: options).run()
        }
        #expect(!FileManager.default.fileExists(atPath: directory.path(name)))
    }

    @Test(
        arguments: [
            ("INSERT INTO t VALUES(1)", 20),
            ("insert into t values (1)", 21),
            ("INSERT INTO t(a) VALUES(1)", nil),
            ("INSERT INTO MYVALUES VALUES(1)", 27),
            ("INSERT INTO 'VALUES(' VALUES(1)", 28),
            ("INSERT INTO \"a\"\"VALUES(\" VALUES(1)", 31),
            ("INSERT INTO t VALUES x", nil),
            ("INSERT INTO t /* never closed VALUES(1)", nil),
        ] as [(String, Int?)])
    func valuesOpening(_ statement: String, _ expected: Int?) {
        let bytes = Array(statement.utf8)
        #expect(DumpEditor.valuesOpening(bytes[...]) == expected)
    }
}

/// Texts of a dump that are not UTF-8 keep their bytes through an edit: in rows the edit
/// does not touch (their statements are not written again) and in the row it changes
/// (written as the SQL that makes those bytes, not as a Swift string that repairs them).
@Suite("Dump texts that are not UTF-8")
struct DumpBytesTests {
    @Test("keep their bytes in the edited row and in the others", arguments: [1, 2])
    func kept(_ position: Int) throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("bytes.sql")
        var dump = Array(
            "CREATE TABLE todo_items (\"id\" INTEGER PRIMARY KEY, \"parent\" INTEGER, \"position\" INTEGER NOT NULL, \"name\" TEXT NOT NULL, \"checked\" BOOLEAN NOT NULL, \"status\" TEXT, \"section\" TEXT, \"note\" TEXT);\nINSERT INTO todo_items VALUES(1,NULL,0,'a',0,NULL,NULL,'caf"
                .utf8)
        dump += [0xE9] + Array("');\nINSERT INTO todo_items VALUES(2,NULL,1,'b',0,NULL,NULL,NULL);\n".utf8)
        try Data(dump).write(to: URL(fileURLWithPath: path))
        _ = try FileEdit(file: URL(fileURLWithPath: path), edits: [.check([.position([position])])]).run()
        let database = directory.path("loaded.sqlite")
        _ = try Databases.sqlite3(database, [".read \(path)"])
        #expect(
            try Databases.sqlite3(database, ["SELECT id, checked, hex(note) FROM todo_items ORDER BY id"])
                == "1|\(position == 1 ? 1 : 0)|636166E9\n2|\(position == 2 ? 1 : 0)|\n")
    }
}
