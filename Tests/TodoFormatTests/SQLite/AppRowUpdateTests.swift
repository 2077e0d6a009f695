import Foundation
import Testing

@testable import TodoFormat

/// An edit of one item of an app's table made on its row alone (`TableUpdate.updateRow`)
/// must leave the database as reading and writing the whole list leaves it: the same
/// `.dump` (modification dates at the pinned time), the same outcome and warnings.
@Suite("Editing one item of an app's table on its row alone")
struct AppRowUpdateTests {
    static let edits: [Edit] = [
        .check([.position([1])]), .uncheck([.position([2])]), .toggle([.position([3])]), .toggle([.position([2])]),
        .rename(.position([2]), to: "renamed ✅"), .rename(.position([1]), to: "x"),
        .set(.position([3]), [Field("note", .string("n"))]), .set(.position([1]), [Field("prio", .integer(2))]),
        .unset(.position([2]), ["note"]), .check([.position([99])]),
        .set(.position([2]), [Field("order", .integer(9))]),
    ]

    /// The database fixtures of apps' tables (Core Data, SwiftData, GORM, Rails, Django…),
    /// with the options that name their lists.
    static let fixtureNames: [(String, ListOptions)] = [
        ("gorm-todos.db", ListOptions()), ("uuid-tasks.sqlite", ListOptions()),
        ("rails-todos.sqlite3", ListOptions()), ("django-tasks.sqlite3", ListOptions(table: "todo_task")),
        ("swiftdata-default.store", ListOptions(entity: "TodoItem")),
        ("notes-sti.sqlite", ListOptions(entity: "ICNote")), ("things3-main.sqlite", ListOptions()),
    ]

    /// A copy of the fixture `name` in `directory`.
    static func copy(_ name: String, into directory: TemporaryDirectory) throws -> String {
        let path = directory.path(name)
        try FileManager.default.copyItem(atPath: AppTableTests.folder.appendingPathComponent(name).path, toPath: path)
        return path
    }

    @Test(
        "the apps' database fixtures",
        arguments: fixtureNames)
    func fixtures(_ name: String, _ options: ListOptions) throws {
        let directory = try TemporaryDirectory()
        let path = try Self.copy(name, into: directory)
        // The Django and UUID tables keep real order values, which `Ordering` may renumber:
        // they are written whole. The others (Core Data and SwiftData stores in WAL mode
        // among them) take the row alone.
        try Self.compare(
            path, options: options, Self.edits,
            expectingAlone: !["django-tasks.sqlite3", "uuid-tasks.sqlite"].contains(name))
    }

    /// Items added and removed (`TableUpdate.updateRows`), and edits that route leaves to
    /// the whole list (a move, a child added to a flat table): the same database either way.
    static let runEdits: [Edit] = [
        .add(name: "new ✅", under: nil, at: nil), .add(name: "first", under: nil, at: [1]),
        .add(name: "second", under: nil, at: [2]), .remove([.position([1])]), .remove([.position([2])]),
        .remove([.position([3])]), .remove([.position([99])]), .add(name: "x", under: nil, at: [99]),
        .move(.position([1]), to: [2]), .move(.position([3]), to: [1]), .move(.position([2]), to: [4]),
        .move(.position([1]), to: [99]), .add(name: "child", under: .position([1]), at: nil),
    ]

    @Test(
        "the apps' database fixtures: items added and removed",
        arguments: fixtureNames)
    func fixturesRun(_ name: String, _ options: ListOptions) throws {
        let directory = try TemporaryDirectory()
        let path = try Self.copy(name, into: directory)
        try Self.compare(path, options: options, Self.runEdits)
    }

    /// A Core Data store of 12,000 rows, past the 10,000 the layout learns from: the edit
    /// steps the rows up to the item's and takes that row alone.
    @Test("a long Core Data store")
    func longStore() throws {
        let directory = try TemporaryDirectory()
        let path = try WriteBackTests.database(
            """
            CREATE TABLE ZTODO (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZCHECKED INTEGER,
              ZORDERID INTEGER, ZNAME VARCHAR, ZNOTE VARCHAR);
            CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER);
            CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB);
            INSERT INTO Z_PRIMARYKEY VALUES (1, 'Todo', 0, 12000);
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 12000)
            INSERT INTO ZTODO SELECT i, 1, 1, i % 3 = 0, 12000 - i, 'todo ' || i, CASE WHEN i % 5 = 0 THEN 'n' END
              FROM n;
            """, in: directory, name: "Todo.sqlite")
        let edits: [Edit] = [
            .check([.position([11_000])]), .uncheck([.position([3])]), .rename(.position([12_000]), to: "last"),
            .set(.position([10_001]), [Field("note", .string("x"))]), .unset(.position([5]), ["note"]),
            .toggle([.position([1])]),
        ]
        try Self.compare(path, options: ListOptions(), edits, expectingAlone: true)
        // Items added (at the end, between two rows, first) and removed: their rows alone,
        // with Core Data's keys and `Z_MAX` as the whole write gives them.
        let runEdits: [Edit] = [
            .add(name: "new", under: nil, at: nil), .add(name: "first", under: nil, at: [1]),
            .remove([.position([1])]), .remove([.position([6_000])]), .remove([.position([12_000])]),
        ]
        try Self.compare(path, options: ListOptions(), runEdits, expectingAlone: true)
        // Between two rows whose order values leave no room, and moved: the rows numbered
        // again in one statement, the item moved and others alone.
        try Self.compare(
            path, options: ListOptions(),
            [
                .add(name: "between", under: nil, at: [6_001]), .move(.position([6_000]), to: [1]),
                .move(.position([6_000]), to: [12_000]), .move(.position([2]), to: [11_000]),
                .move(.position([11_000]), to: [3]), .move(.position([5]), to: [6]),
            ], expectingAlone: true)
    }

    /// Order values with gaps, so that an item between two without room has every row
    /// numbered again from the first value (runs of rows moving by different steps), and a
    /// modification date each changed row gets.
    @Test("order values with gaps: added, moved and removed on the rows whose values change")
    func gappedOrders() throws {
        let directory = try TemporaryDirectory()
        let path = try WriteBackTests.database(
            "CREATE TABLE todos (id INTEGER PRIMARY KEY, title TEXT, done BOOLEAN, position INTEGER, "
                + "updated_at DATETIME); INSERT INTO todos VALUES (1,'a',0,1,'2024-01-01 00:00:00'),"
                + "(2,'b',0,2,'2024-01-01 00:00:00'),(3,'c',1,3,'2024-01-01 00:00:00'),"
                + "(4,'d',0,5,'2024-01-01 00:00:00'),(5,'e',0,6,'2024-01-01 00:00:00'),"
                + "(6,'f',0,9,'2024-01-01 00:00:00'),(7,'g',0,10,'2024-01-01 00:00:00');",
            in: directory, name: "gaps.sqlite")
        try Self.compare(
            path, options: ListOptions(),
            [
                .add(name: "between", under: nil, at: [2]), .add(name: "room", under: nil, at: [4]),
                .add(name: "end", under: nil, at: nil), .move(.position([7]), to: [2]),
                .move(.position([1]), to: [5]), .move(.position([6]), to: [5]), .move(.position([4]), to: [5]),
                .remove([.position([4])]), .move(.position([2]), to: [1]),
            ], expectingAlone: true)
    }

    /// Columns named as the rowid hide it from SQL: such a table is written whole (hunt 62).
    @Test("columns named rowid, oid and _rowid_: edits are made on the whole list")
    func hiddenRowID() throws {
        let directory = try TemporaryDirectory()
        let path = try WriteBackTests.database(
            "CREATE TABLE todos (rowid INTEGER, oid INTEGER, _rowid_ INTEGER, title TEXT, done INTEGER, "
                + "position INTEGER); INSERT INTO todos VALUES (30,1,1,'a',0,1),(20,1,1,'b',0,2),(10,1,1,'c',0,3),"
                + "(1,1,1,'d',0,4);",
            in: directory, name: "hidden.sqlite")
        for edit: Edit in [
            .add(name: "p", under: nil, at: nil), .remove([.position([2])]), .move(.position([3]), to: [1]),
            .check([.position([1])]),
        ] {
            let fileEdit = OwnRunUpdateTests.alone(path, [edit])
            #expect(try !fileEdit.run().madeAlone, "\(edit)")
        }
    }

    /// A store whose write-ahead log stands beside it (its app is open, or was not closed
    /// cleanly) is written whole: closing it moves the log into the file.
    @Test("a store with its log beside it")
    func withLog() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("swiftdata.store")
        try FileManager.default.copyItem(
            atPath: AppTableTests.folder.appendingPathComponent("swiftdata-default.store").path, toPath: path)
        try Data("not a log".utf8).write(to: URL(fileURLWithPath: path + "-wal"))
        var edit = FileEdit(
            file: URL(fileURLWithPath: path), edits: [.check([.position([1])])],
            options: ListOptions(entity: "TodoItem"))
        edit.editsItemAlone = true
        #expect(try !edit.run().madeAlone)
        // Without it (that write ended the log), the store in WAL mode takes the row alone
        // and is left without a log.
        #expect(!FileManager.default.fileExists(atPath: path + "-wal"))
        edit.edits = [.toggle([.position([1])])]
        #expect(try edit.run().madeAlone)
        #expect(
            try !TodoList(contentsOf: URL(fileURLWithPath: path), options: ListOptions(entity: "TodoItem")).items[0]
                .isChecked)
        #expect(!FileManager.default.fileExists(atPath: path + "-wal"))
    }

    /// Order values the whole list's write renumbers (repeated, missing): the edit is made
    /// on the whole list, as before.
    @Test("order values that the write renumbers")
    func renumbered() throws {
        let directory = try TemporaryDirectory()
        let path = try WriteBackTests.database(
            "CREATE TABLE todos (id INTEGER PRIMARY KEY, title TEXT, done BOOLEAN, sort_order INTEGER);"
                + "INSERT INTO todos VALUES (1,'a',0,1),(2,'b',1,1),(3,'c',0,NULL),(4,'d',0,7);",
            in: directory, name: "order.sqlite")
        try Self.compare(path, options: ListOptions(), Self.edits)
        let edit = OwnRunUpdateTests.alone(path, [.check([.position([1])])])
        #expect(try !edit.run().madeAlone)
    }

    /// Makes each edit on a copy of the database at `path` on the item's rows alone and on
    /// the whole list, and expects the same outcome and the same `.dump` (at a pinned time,
    /// for modification dates). `OwnItemUpdateTests` compares todofmt's own table with it.
    static func compare(_ path: String, options: ListOptions, _ edits: [Edit], expectingAlone: Bool = false) throws {
        let original = try Data(contentsOf: URL(fileURLWithPath: path))
        try Clock.$pinned.withValue(Date(timeIntervalSince1970: 1_700_000_000)) {
            for edit in edits {
                var results: [(dump: String, outcome: String)] = []
                for alone in [true, false] {
                    try original.write(to: URL(fileURLWithPath: path))
                    var fileEdit = FileEdit(file: URL(fileURLWithPath: path), edits: [edit], options: options)
                    fileEdit.editsItemAlone = alone
                    let outcome: String
                    do {
                        let result = try fileEdit.run()
                        outcome = "\(result.changed) \(result.warnings.map(\.description))"
                        if alone && expectingAlone { #expect(result.madeAlone, "\(edit) was made on the whole list") }
                    } catch {
                        outcome = "\(error)"
                    }
                    results.append((try Databases.dump(path), outcome))
                }
                let name = URL(fileURLWithPath: path).lastPathComponent
                #expect(results[0].outcome == results[1].outcome, "\(name): \(edit)")
                let same = results[0].dump == results[1].dump
                #expect(same, "\(name): \(edit)\n\(results[0].dump.suffix(600))\n\(results[1].dump.suffix(600))")
            }
        }
        try original.write(to: URL(fileURLWithPath: path))
    }
}
