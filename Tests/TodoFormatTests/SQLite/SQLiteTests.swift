import Foundation
import Testing

@testable import TodoFormat

/// Databases in the shapes apps use, made with Python's sqlite3.
enum Databases {
    static let make =
        Python.prelude + """
            import sqlite3, shutil
            def connect(name):
                return sqlite3.connect(os.path.join(d, name))
            # The notes app: notes keyed by creation time.
            db = connect("notes.sqlite3")
            db.execute("create table if not exists Note (cdate text primary key, content text)")
            db.executemany("insert into Note values (?, ?)", [("2024-05-03 07:45:00", "Third"), ("2024-05-01 09:30:00", "First"), ("2024-05-02 18:05:12", "Second")])
            db.commit(); db.close()
            # The classic tutorial table: pk, text, priority, complete.
            db = connect("todo.sqlite")
            db.execute("CREATE TABLE todo(pk INTEGER PRIMARY KEY, text VARCHAR(25), priority INTEGER, complete BOOLEAN)")
            db.executemany("INSERT INTO todo VALUES (?, ?, ?, ?)", [(1, "Take out the trash", 3, 0), (2, "Homework", 1, 1), (3, "Learn Swift ünïcödé", 2, 0)])
            db.commit(); db.close()
            def core_data(name, entity, columns, rows, wal_rows=()):
                db = connect(name)
                db.execute("PRAGMA journal_mode=WAL")
                db.execute("PRAGMA wal_autocheckpoint=0")
                table = "Z" + entity.upper()
                db.execute(f"CREATE TABLE {table} ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, {columns} )")
                db.execute("CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER)")
                db.execute("CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB)")
                db.execute("CREATE TABLE Z_MODELCACHE (Z_CONTENT BLOB)")
                for i, row in enumerate(rows, 1):
                    db.execute(f"INSERT INTO {table} VALUES (?, 2, 1, {', '.join('?' * len(row))})", (i, *row))
                db.execute("INSERT INTO Z_PRIMARYKEY VALUES (1, 'Other', 0, 0)")
                db.execute("INSERT INTO Z_PRIMARYKEY VALUES (2, ?, 0, ?)", (entity, len(rows) + len(wal_rows)))
                db.execute("INSERT INTO Z_METADATA VALUES (1, 'UUID', X'00')")
                db.commit()
                db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
                for i, row in enumerate(wal_rows, len(rows) + 1):
                    db.execute(f"INSERT INTO {table} VALUES (?, 2, 1, {', '.join('?' * len(row))})", (i, *row))
                db.commit()
                # Copy the store while its connection is open: the newest rows stay in the -wal.
                if wal_rows:
                    for suffix in ("", "-wal"):
                        shutil.copyfile(os.path.join(d, name) + suffix, os.path.join(d, "wal-" + name) + suffix)
                db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
                db.close()
            core_data("cdtodo.sqlite", "Todo", "ZCHECKED INTEGER, ZORDERID INTEGER, ZNAME VARCHAR",
                      [(0, 2, "Bread"), (1, 0, "Milk"), (0, 1, "Eggs")], wal_rows=[(0, 3, "Butter"), (1, 4, "Jam")])
            core_data("cdnote.sqlite", "Note", "ZCREATETIME TIMESTAMP, ZCONTENT VARCHAR",
                      [(736329600.25, "Second"), (736243200.0, "First")])
            """

    static func make(in directory: TemporaryDirectory) throws {
        try Python.run(make, in: directory)
    }

    static func sqlite3(_ path: String, _ arguments: [String], stdin: String? = nil) throws -> String {
        let result = try ExternalTool.run("sqlite3", [path] + arguments, stdin: stdin.map { Data($0.utf8) })
        #expect(result.status == 0, "\(result.stderr)")
        return result.text
    }

    static func dump(_ path: String) throws -> String { try sqlite3(path, [".dump"]) }
}

@Suite("SQLite databases, dumps and Core Data stores")
struct SQLiteTests {
    @Test("each shape reads as sqlite3 reports it: names, states, order, dates, fields and keys")
    func reads() throws {
        let directory = try TemporaryDirectory()
        try Databases.make(in: directory)
        // The notes app: ordered by cdate, which becomes a date and stays as the key.
        let notes = try TodoList(contentsOf: .file(directory.path("notes.sqlite3")))
        let reported = try Databases.sqlite3(
            directory.path("notes.sqlite3"), ["select content, cdate from Note order by cdate"])
        #expect(
            notes.items.map {
                "\($0.name)|\(ISO8601.formatSQL({ if case .date(let d)? = $0.fields[key: "cdate"] { d } else { Date() } }($0)))"
            }.joined(separator: "\n") + "\n" == reported)
        // The tutorial table: complete is the checked flag, pk the key, priority a field.
        let todo = try TodoList(contentsOf: .file(directory.path("todo.sqlite")))
        #expect(todo.items.map(\.name) == ["Take out the trash", "Homework", "Learn Swift ünïcödé"])
        #expect(todo.items.map(\.isChecked) == [false, true, false])
        #expect(todo.items[2].fields == [Field("pk", .integer(3)), Field("priority", .integer(2))])
        // Core Data: ordered by ZORDERID, Z_PK kept, Z_ENT and Z_OPT not fields.
        let store = try TodoList(contentsOf: .file(directory.path("cdtodo.sqlite")))
        let order = try Databases.sqlite3(
            directory.path("cdtodo.sqlite"), ["select ZNAME, ZCHECKED, Z_PK from ZTODO order by ZORDERID"])
        #expect(
            store.items.map { "\($0.name)|\($0.isChecked ? 1 : 0)|\($0.fields[key: "Z_PK"]!)" }.joined(separator: "\n")
                + "\n"
                == order.split(separator: "\n").map { line in
                    let parts = line.split(separator: "|")
                    return "\(parts[0])|\(parts[1])|\(parts[2])"
                }.joined(separator: "\n") + "\n")
        #expect(store.items[0].fields.map(\.key) == ["Z_PK", "ZORDERID"])
        // Core Data dates are seconds since 2001 and order the notes.
        let notesStore = try TodoList(contentsOf: .file(directory.path("cdnote.sqlite")))
        #expect(notesStore.items.map(\.name) == ["First", "Second"])
        #expect(
            notesStore.items[1].fields[key: "ZCREATETIME"] == .date(Date(timeIntervalSinceReferenceDate: 736329600.25)))
    }

    @Test("a store's newest rows in its -wal are read, and reading changes nothing beside it")
    func wal() throws {
        let directory = try TemporaryDirectory()
        try Databases.make(in: directory)
        let store = directory.path("wal-cdtodo.sqlite")
        let before = try FileManager.default.contentsOfDirectory(atPath: directory.url.path).sorted()
        let bytes = try Data(contentsOf: URL(fileURLWithPath: store))
        let list = try TodoList(contentsOf: .file(store))
        #expect(list.items.map(\.name) == ["Milk", "Eggs", "Bread", "Butter", "Jam"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path).sorted() == before)
        #expect(try Data(contentsOf: URL(fileURLWithPath: store)) == bytes)
        // Without its -wal the store has only the older rows.
        try FileManager.default.removeItem(atPath: store + "-wal")
        #expect(try TodoList(contentsOf: .file(store)).items.map(\.name) == ["Milk", "Eggs", "Bread"])
    }

    @Test(
        "database to checklist to the same database changes nothing",
        arguments: ["notes.sqlite3", "todo.sqlite", "cdtodo.sqlite", "cdnote.sqlite"])
    func unchanged(name: String) throws {
        let directory = try TemporaryDirectory()
        try Databases.make(in: directory)
        let path = directory.path(name)
        let before = try Databases.dump(path)
        _ = try Conversion(input: .at(path), output: .at(directory.path("list.md"))).run()
        _ = try Conversion(input: .at(directory.path("list.md")), output: .at(path)).run()
        #expect(try Databases.dump(path) == before)
    }

    @Test("checking, renaming, adding, removing and moving items change exactly those rows")
    func edits() throws {
        let directory = try TemporaryDirectory()
        try Databases.make(in: directory)
        let path = directory.path("cdtodo.sqlite")
        let before = Set(try Databases.dump(path).split(separator: "\n"))
        let markdown = directory.path("list.md")
        _ = try Conversion(input: .at(path), output: .at(markdown)).run()
        #expect(
            try String(contentsOfFile: markdown, encoding: .utf8) == """
                - [x] Milk [Z_PK:: 2] [ZORDERID:: 0]
                - [ ] Eggs [Z_PK:: 3] [ZORDERID:: 1]
                - [ ] Bread [Z_PK:: 1] [ZORDERID:: 2]
                - [ ] Butter [Z_PK:: 4] [ZORDERID:: 3]
                - [x] Jam [Z_PK:: 5] [ZORDERID:: 4]

                """)
        // Check Eggs, rename Bread, move Jam to the top, remove Butter, add Tea.
        try """
        - [x] Jam [Z_PK:: 5] [ZORDERID:: 4]
        - [x] Milk [Z_PK:: 2] [ZORDERID:: 0]
        - [x] Eggs [Z_PK:: 3] [ZORDERID:: 1]
        - [ ] Rye bread [Z_PK:: 1] [ZORDERID:: 2]
        - [ ] Tea

        """.write(toFile: markdown, atomically: false, encoding: .utf8)
        _ = try Conversion(input: .at(markdown), output: .at(path)).run()
        let after = Set(try Databases.dump(path).split(separator: "\n"))
        #expect(
            before.subtracting(after).sorted() == [
                "INSERT INTO ZTODO VALUES(1,2,1,0,2,'Bread');", "INSERT INTO ZTODO VALUES(3,2,1,0,1,'Eggs');",
                "INSERT INTO ZTODO VALUES(4,2,1,0,3,'Butter');", "INSERT INTO ZTODO VALUES(5,2,1,1,4,'Jam');",
                "INSERT INTO Z_PRIMARYKEY VALUES(2,'Todo',0,5);",
            ])
        #expect(
            after.subtracting(before).sorted() == [
                "INSERT INTO ZTODO VALUES(1,2,2,0,2,'Rye bread');", "INSERT INTO ZTODO VALUES(3,2,2,1,1,'Eggs');",
                "INSERT INTO ZTODO VALUES(5,2,2,1,-1,'Jam');", "INSERT INTO ZTODO VALUES(6,2,1,0,3,'Tea');",
                "INSERT INTO Z_PRIMARYKEY VALUES(2,'Todo',0,6);",
            ])
    }

    @Test(
        "checklist to a new database or dump and back gives the same items; sqlite3 loads the dump",
        arguments: Fixture.files(in: "markdown"))
    func fromChecklist(fixture: String) throws {
        let directory = try TemporaryDirectory()
        var list = try TodoList(markdown: Fixture.text(fixture))
        list.metadata = []
        let database = directory.path("new.sqlite")
        let dump = directory.path("new.sql")
        let loaded = directory.path("loaded.db")
        try list.write(to: .file(database))
        // A NULL column is an absent field: fields whose value is null are not kept.
        var expected = list
        func dropNulls(_ items: [TodoItem]) -> [TodoItem] {
            items.map { item in
                var item = item
                item.fields = item.fields.filter { $0.value != .null }
                item.children = dropNulls(item.children)
                return item
            }
        }
        expected.items = dropNulls(list.items)
        #expect(try TodoList(contentsOf: .file(database)) == expected)
        try list.write(to: .file(dump))
        #expect(try TodoList(contentsOf: .file(dump)) == expected)
        _ = try Databases.sqlite3(loaded, [], stdin: try String(contentsOfFile: dump, encoding: .utf8))
        #expect(try Databases.dump(loaded) == Databases.dump(database))
    }

    @Test("todofmt's table: rows another program reordered nest by parent and position; an update keeps other tables")
    func ownTable() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("own.sqlite")
        try TodoList(markdown: "- [ ] A\n  - [ ] A1\n  - [ ] A2\n- [x] B\n").write(to: .file(path))
        _ = try Databases.sqlite3(
            path,
            [
                "UPDATE todo_items SET position = 5 - position WHERE parent = 1; CREATE TABLE app(x); INSERT INTO app VALUES (42);"
            ])
        #expect(try TodoList(contentsOf: .file(path)).flattened().map { $0.item.name } == ["A", "A2", "A1", "B"])
        _ = try Databases.sqlite3(
            path, ["UPDATE todo_items SET id = id + 100, parent = parent + 100 WHERE id = 1 OR parent = 1"])
        #expect(
            try TodoList(contentsOf: .file(path)).flattened().map { "\($0.depth)\($0.item.name)" } == [
                "0A", "1A2", "1A1", "0B",
            ])
        try TodoList(markdown: "- [x] C\n").write(to: .file(path))
        #expect(try TodoList(contentsOf: .file(path)).items.map(\.name) == ["C"])
        #expect(try Databases.sqlite3(path, ["SELECT x FROM app"]) == "42\n")
    }

    @Test("todofmt's table: status text no checklist box holds stays, as a field")
    func ownTableStatusText() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("own.sqlite")
        try TodoList(markdown: "- [/] A\n- [ ] B\n- [ ] C\n- [x] D\n").write(to: .file(path))
        _ = try Databases.sqlite3(
            path,
            [
                "UPDATE todo_items SET status = '[' WHERE name = 'B'; UPDATE todo_items SET status = 'idea' WHERE name = 'C'"
            ])
        let items = try TodoList(contentsOf: .file(path)).items
        #expect(items.map(\.status) == [.custom("/"), .open, .open, .done])
        #expect(items.map(\.fields) == [[], [Field("status", .string("["))], [Field("status", .string("idea"))], []])
        // And so a checklist of them reads back with every item.
        let checklist = directory.path("own.md")
        try TodoList(contentsOf: .file(path)).write(to: .file(checklist))
        #expect(try TodoList(contentsOf: .file(checklist)) == TodoList(contentsOf: .file(path)))
    }

    /// A row with no field whose name is plain goes to a writer as its name's bytes
    /// (`ListTable.read(from:plainNamesInto:)`); every other row as an item. Either way a
    /// conversion writes what the list read as items gives.
    @Test("todofmt's table read row by row as plain names or items gives the list's own conversion, in every format")
    func ownTablePlainRows() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("own.sqlite")
        let checklist = """
            # Home
            - [ ] Milk
              - [x] Eggs
                - [/] Brown
            - [ ] Bread [prio:: 2]
            - [ ] Jam
            # Work
            - [ ] Mail
            - [x] Call
            - [ ] Plan
            - [ ] Tea
            - [ ] Cake
            - [ ] Last

            """
        try TodoList(markdown: checklist).write(to: .file(path))
        _ = try Databases.sqlite3(
            path,
            [
                "UPDATE todo_items SET name = 'Jam & bread' WHERE name = 'Jam';"
                    + " UPDATE todo_items SET name = 'back\\slash \"quoted\"' WHERE name = 'Mail';"
                    + " UPDATE todo_items SET name = 'two' || char(10) || 'lines' WHERE name = 'Call';"
                    + " UPDATE todo_items SET name = CAST(X'706CFF616E' AS TEXT) WHERE name = 'Plan';"
                    + " UPDATE todo_items SET name = 42 WHERE name = 'Tea';"
                    + " UPDATE todo_items SET status = 'idea' WHERE name = 'Cake';"
                    + " UPDATE todo_items SET status = '-', checked = 0 WHERE name = 'Last';"
            ])
        let list = try TodoList(contentsOf: .file(path))
        #expect(list.items.count == 9)
        #expect(list.items.map(\.name).contains("pl\u{FFFD}an") && list.items.map(\.name).contains("42"))
        for format in [DocumentFormat.markdown, .json, .plist] {
            let output = directory.path("out." + format.rawValue)
            _ = try Conversion(input: .at(path), output: .at(output)).run()
            #expect(try Array(Data(contentsOf: URL(fileURLWithPath: output))) == list.encoded(as: format), "\(format)")
        }
    }

    @Test("fields one column to SQLite even as field:KEY are refused, into a database or a dump")
    func clashingFieldKeys() throws {
        let directory = try TemporaryDirectory()
        let list = try TodoList(markdown: #"- [ ] a [status:: "["] [STATUS:: "]"]"# + "\n")
        for name in ["t.sqlite", "t.sql"] {
            let path = directory.path(name)
            #expect(throws: ConversionError.self) { try list.write(to: .file(path)) }
            #expect(!FileManager.default.fileExists(atPath: path))
        }
        // Keys that differ from a structure column's name or from each other only in case,
        // one step apart, still get columns of their own.
        let fine = try TodoList(markdown: "- [ ] a [Status:: 1] [k:: 2] [K:: 3]\n")
        let path = directory.path("fine.sqlite")
        try fine.write(to: .file(path))
        #expect(try TodoList(contentsOf: .file(path)) == fine)
    }

    @Test("a new row gets its creation date, as the app would give it")
    func creationDate() throws {
        let directory = try TemporaryDirectory()
        try Databases.make(in: directory)
        for (name, query) in [
            ("notes.sqlite3", "SELECT cdate FROM Note WHERE content = 'New'"),
            ("cdnote.sqlite", "SELECT ZCREATETIME FROM ZNOTE WHERE ZCONTENT = 'New'"),
        ] {
            let path = directory.path(name)
            let markdown = directory.path(name + ".md")
            _ = try Conversion(input: .at(path), output: .at(markdown)).run()
            try (try String(contentsOfFile: markdown, encoding: .utf8) + "- [ ] New\n").write(
                toFile: markdown, atomically: false, encoding: .utf8)
            let before = Date()
            _ = try Conversion(input: .at(markdown), output: .at(path)).run()
            let stored = try Databases.sqlite3(path, [query]).trimmingCharacters(in: .newlines)
            let date =
                name.hasPrefix("cd")
                ? Date(timeIntervalSinceReferenceDate: Double(stored) ?? 0)
                : ISO8601.parse(stored.utf8, assumeUTC: true) ?? .distantPast
            #expect(abs(date.timeIntervalSince(before)) < 5, "\(name): \(stored)")
            #expect(try TodoList(contentsOf: .file(path)).items.last?.name == "New")
        }
    }

    @Test("new notes keyed by their creation time get distinct keys, in list order")
    func creationDateKeys() throws {
        let directory = try TemporaryDirectory()
        try Databases.make(in: directory)
        let path = directory.path("notes.sqlite3")
        let markdown = directory.path("notes.md")
        _ = try Conversion(input: .at(path), output: .at(markdown)).run()
        let added = (1...5).map { "- [ ] New \($0)\n" }.joined()
        try (try String(contentsOfFile: markdown, encoding: .utf8) + added).write(
            toFile: markdown, atomically: false, encoding: .utf8)
        _ = try Conversion(input: .at(markdown), output: .at(path)).run()
        let stored = try Databases.sqlite3(path, ["SELECT content FROM Note ORDER BY cdate"])
        #expect(stored == "First\nSecond\nThird\nNew 1\nNew 2\nNew 3\nNew 4\nNew 5\n")
        #expect(try Databases.sqlite3(path, ["SELECT count(DISTINCT cdate) FROM Note"]) == "8\n")
    }

    @Test("a failing update rolls back: the database stays as it was")
    func rollback() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("strict.sqlite")
        _ = try Databases.sqlite3(
            path,
            [
                "CREATE TABLE task(id INTEGER PRIMARY KEY, title TEXT, due TEXT NOT NULL); INSERT INTO task VALUES (1, 'Old', '2024-01-01');"
            ])
        let before = try Databases.dump(path)
        let checklist = directory.path("in.md")
        // The first item renames a row (an update that would succeed); the second has no due date.
        try "- [ ] Renamed [id:: 1] [due:: \"2024-01-01\"]\n- [ ] New without a due date\n".write(
            toFile: checklist, atomically: false, encoding: .utf8)
        let error = try #require(throws: StoreError.self) {
            try Conversion(input: .at(checklist), output: .at(path)).run()
        }
        #expect(
            error.description
                == "\(path): NOT NULL constraint failed: task.due (while running `INSERT INTO \"task\" (\"title\") VALUES (?)`)"
        )
        #expect(try Databases.dump(path) == before)
    }

    @Test("a dump from the sqlite3 shell reads like its database")
    func shellDump() throws {
        let directory = try TemporaryDirectory()
        try Databases.make(in: directory)
        for name in ["notes.sqlite3", "cdtodo.sqlite", "todo.sqlite"] {
            let dump = directory.path(name + ".sql")
            try Databases.dump(directory.path(name)).write(toFile: dump, atomically: false, encoding: .utf8)
            #expect(
                try TodoList(contentsOf: .file(dump)) == TodoList(contentsOf: .file(directory.path(name))), "\(name)")
        }
    }

    @Test(
        "refused dump statements are errors at their line",
        arguments: [
            (
                "ATTACH DATABASE '/tmp/x.db' AS other;",
                "ATTACH and DETACH are not allowed in a dump (they touch other files)"
            ),
            ("PRAGMA writable_schema=ON;", "PRAGMA writable_schema is not allowed in a dump"),
            ("SELECT load_extension('x');", "load_extension is not allowed in a dump"),
            (
                "DROP TABLE t;",
                "only creating tables, indexes, views and triggers, inserting rows and transactions are allowed in a dump"
            ),
            (
                "UPDATE t SET name = 'x';",
                "only creating tables, indexes, views and triggers, inserting rows and transactions are allowed in a dump"
            ),
        ])
    func refused(statement: String, message: String) throws {
        let text =
            "PRAGMA foreign_keys=OFF;\nBEGIN TRANSACTION;\nCREATE TABLE t(name TEXT);\n-- a comment\n\(statement)\nCOMMIT;\n"
        do {
            _ = try TodoList(bytes: Array(text.utf8), format: .sql, name: "bad.sql")
            Issue.record("\(statement) was not refused")
        } catch let error as StoreError {
            #expect(error.location == SourceLocation(file: "bad.sql", line: 5, column: 1), "\(error)")
            #expect(error.description == "bad.sql:5:1: error: \(message) (while running `\(statement)`)")
        }
    }

    @Test("a dump without a list names the dump, not the database in memory it was loaded into")
    func dumpWithoutList() {
        #expect(
            throws: ConversionError.noList(
                path: "n.sql",
                reason: "no table has a name column (name, title, content, text, task); tables: n. "
                    + "Pick one with --table and name its column with --field name=COLUMN")
        ) {
            try TodoList(
                bytes: Array("CREATE TABLE n(a INTEGER);\nINSERT INTO n VALUES (1);\n".utf8), format: .sql,
                name: "n.sql")
        }
    }

    @Test(
        "dump statements that fail name their line and show their first line",
        arguments: [
            (
                "CREATE TABLE t(name TEXT UNIQUE);\n-- c\nINSERT INTO t VALUES('a');\n  INSERT INTO t VALUES('a');\n",
                "bad.sql:4:3: error: UNIQUE constraint failed: t.name (while running `INSERT INTO t VALUES('a');`)"
            ),
            (
                "CREATE TABLE t(name TEXT);\n\n  CREAT TABLE u(x); INSERT INTO t VALUES(1);\n",
                "bad.sql:3:3: error: near \"CREAT\": syntax error (while running `CREAT`)"
            ),
            (
                "CREATE TABLE t(name TEXT); UPDATE t SET name = 'yyyyyyyyyyyyyyyyyyyyyyyyyyyyyy' WHERE name = 'x' AND name = 'x';\n",
                "bad.sql:1:28: error: only creating tables, indexes, views and triggers, inserting rows and transactions are allowed in a dump (while running `UPDATE t SET name = 'yyyyyyyyyyyyyyyyyyyyyyyyyyyyyy' WHERE name = 'x' AND name =…`)"
            ),
        ])
    func failedDumpStatement(text: String, description: String) throws {
        #expect(throws: StoreError.self) { try TodoList(bytes: Array(text.utf8), format: .sql, name: "bad.sql") }
        do {
            _ = try TodoList(bytes: Array(text.utf8), format: .sql, name: "bad.sql")
        } catch let error as StoreError {
            #expect(error.description == description)
        }
    }

    @Test("comments and white space after the last dump statement are skipped")
    func dumpTail() throws {
        let text = "CREATE TABLE t(name TEXT);\nINSERT INTO t VALUES('x'); -- done\n/* the end */\n  \n"
        #expect(try TodoList(bytes: Array(text.utf8), format: .sql).items.map(\.name) == ["x"])
    }

    @Test(
        "bad databases are clear errors and change nothing",
        arguments: ["not a database", "truncated", "no text column", "several tables", "locked"])
    func bad(kind: String) throws {
        let directory = try TemporaryDirectory()
        try Databases.make(in: directory)
        let path = directory.path("bad.sqlite")
        var holder: Process? = nil
        switch kind {
        case "not a database":
            try Data("definitely not SQLite, but long enough to look at".utf8).write(to: URL(fileURLWithPath: path))
        case "truncated":
            try Data(try Data(contentsOf: URL(fileURLWithPath: directory.path("todo.sqlite"))).prefix(1024)).write(
                to: URL(fileURLWithPath: path))
        case "no text column":
            _ = try Databases.sqlite3(path, ["CREATE TABLE n(a INTEGER, b REAL); INSERT INTO n VALUES (1, 2.5);"])
        case "several tables":
            _ = try Databases.sqlite3(path, ["CREATE TABLE a(name TEXT); CREATE TABLE b(title TEXT);"])
        default:
            try FileManager.default.copyItem(atPath: directory.path("todo.sqlite"), toPath: path)
            // Another process holds the database locked for writing.
            let process = Process()
            process.executableURL = URL(fileURLWithPath: ExternalTool.path(of: "python3")!)
            process.arguments = [
                "-c",
                "import sqlite3, sys, time\ndb = sqlite3.connect(sys.argv[1], isolation_level=None)\ndb.execute('BEGIN EXCLUSIVE')\nopen(sys.argv[1] + '.locked', 'w').close()\ntime.sleep(30)",
                path,
            ]
            try process.run()
            holder = process
            let deadline = Date().addingTimeInterval(10)
            while !FileManager.default.fileExists(atPath: path + ".locked") && Date() < deadline { usleep(20_000) }
        }
        defer { holder?.terminate() }
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let checklist = directory.path("in.md")
        try "- [ ] New\n".write(toFile: checklist, atomically: false, encoding: .utf8)
        for conversion in [
            Conversion(input: .at(path), output: .at(directory.path("out.md")), inputFormat: .sqlite),
            Conversion(input: .at(checklist), output: .at(path)),
        ] {
            if kind == "no text column" || kind == "several tables" {
                // Writing adds todofmt's table; reading is the error.
                if conversion.input == .at(checklist) { continue }
            }
            do {
                _ = try conversion.run()
                Issue.record("\(kind): \(conversion.input) converted")
            } catch let error as StoreError {
                let writing = conversion.input == .at(checklist)
                let expected =
                    switch kind {
                    case "not a database": "file is not a database"
                    case "truncated": "database disk image is malformed"
                    default: "database is locked"
                    }
                #expect(error.message == expected, "\(kind), \(writing ? "writing" : "reading"): \(error)")
                #expect(error.location?.file == path, "\(error)")
            } catch let error as ConversionError {
                let expected =
                    switch kind {
                    case "several tables": "\(path): several tables could be the list (a, b); pick one with --table"
                    case "not a database":
                        "\(path) exists and is not a todo list file todofmt can write into; remove it to write a new one"
                    default:
                        "\(path): no table has a name column (name, title, content, text, task); tables: n. "
                            + "Pick one with --table and name its column with --field name=COLUMN"
                    }
                #expect(error.description == expected)
            }
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
        #expect(!FileManager.default.fileExists(atPath: directory.path("out.md")))
    }
}
