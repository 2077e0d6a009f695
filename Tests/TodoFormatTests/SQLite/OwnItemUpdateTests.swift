import Foundation
import Testing

@testable import TodoFormat

/// An edit of one top-level item of todofmt's own table made on that item's rows alone
/// (`ListTable.updateOwnItem`) must leave the database as reading and writing the whole
/// list leaves it: the same rows, the same schema, and (logged by a trigger the sqlite3
/// shell adds) the same rows updated, in the same order.
@Suite("Editing one item of todofmt's table on its rows alone")
struct OwnItemUpdateTests {
    static let list = TodoList(items: [
        TodoItem(
            name: "a", fields: [Field("prio", .integer(1)), Field("due", .date(Date(timeIntervalSince1970: 0)))],
            section: "Home"),
        TodoItem(
            name: "b", status: .done,
            children: [
                TodoItem(
                    name: "c", fields: [Field("prio", .integer(2))],
                    children: [TodoItem(name: "d", status: .custom("/"))]),
                TodoItem(name: "e"),
            ], section: "Home"),
        TodoItem(name: "café", fields: [Field("owner", .string("x"))], section: "Work"),
        TodoItem(name: "f", section: "Work"),
    ])

    static let edits: [Edit] = [
        .check([.position([1])]), .uncheck([.position([2])]), .toggle([.position([2, 1, 1])]),
        .check([.position([2]), .position([2, 2])]), .check([.position([4])]),
        // The same name in another normal form is another name to the table.
        .rename(.position([3]), to: "cafe\u{301}"), .rename(.position([1]), to: "a"),
        .set(.position([1]), [Field("prio", .integer(5))]), .set(.position([2, 2]), [Field("prio", .integer(5))]),
        .set(.position([1]), [Field("due", .date(Date(timeIntervalSince1970: 86400)))]),
        // A value of another kind, a new column, a column left empty: the table is made again.
        .set(.position([1]), [Field("prio", .string("high"))]), .set(.position([1]), [Field("new", .bool(true))]),
        .unset(.position([3]), ["owner"]), .unset(.position([2, 1]), ["prio"]),
        .set(.position([4]), [Field("prio", .null)]), .set(.position([2]), [Field("prio", .double(.nan))]),
        .check([.position([9])]), .check([.position([2, 7])]),
    ]

    /// The trigger that logs each updated row's id in a table of its own.
    static let logging =
        "CREATE TABLE updated(id INTEGER); CREATE TRIGGER logged AFTER UPDATE ON todo_items BEGIN INSERT INTO updated VALUES (new.id); END;"

    /// `list` written as todofmt writes it into `name`, with the trigger that logs updates.
    static func logged(_ name: String, in directory: TemporaryDirectory) throws -> String {
        let path = directory.path(name)
        _ = try list.write(to: URL(fileURLWithPath: path))
        _ = try Databases.sqlite3(path, [logging])
        return path
    }

    @Test("as todofmt writes the table: each edit as the whole list's write makes it")
    func asWritten() throws {
        let directory = try TemporaryDirectory()
        let path = try Self.logged("made.sqlite", in: directory)
        try AppRowUpdateTests.compare(path, options: ListOptions(), Self.edits)
    }

    @Test("one checked item updates one row, on the item's rows alone")
    func oneRow() throws {
        let directory = try TemporaryDirectory()
        let path = try Self.logged("one.sqlite", in: directory)
        let update = try FormatRegistry.format(.sqlite).updateItem(Input(file: path), at: 3, options: ListOptions()) {
            var item = $0
            item.status = .done
            return item
        }
        guard case .pending(let write) = update else {
            Issue.record("the item was not changed alone")
            return
        }
        try write.commit()
        #expect(try Databases.sqlite3(path, ["SELECT id FROM updated"]) == "7\n")
        #expect(try Databases.sqlite3(path, ["SELECT name, checked FROM todo_items WHERE id = 7"]) == "f|1\n")
    }

    @Test("a value taken out of a column others still use: that row alone, the table and its trigger kept")
    func valueTakenOut() throws {
        let directory = try TemporaryDirectory()
        let path = try Self.logged("unset.sqlite", in: directory)
        let before = try Databases.dump(path)
        _ = try FileEdit(file: URL(fileURLWithPath: path), edits: [.unset(.position([1]), ["prio"])]).run()
        let after = try Databases.dump(path)
        #expect(
            after
                == before.replacingOccurrences(
                    of: "VALUES(1,NULL,0,'a',0,NULL,'Home',1,", with: "VALUES(1,NULL,0,'a',0,NULL,'Home',NULL,"
                )
                .replacingOccurrences(
                    of: "CREATE TRIGGER", with: "INSERT INTO updated VALUES(1);\nCREATE TRIGGER"))
    }

    static let ownColumns =
        "id INTEGER PRIMARY KEY, parent INTEGER, position INTEGER NOT NULL, name TEXT NOT NULL, "
        + "checked BOOLEAN NOT NULL, status TEXT, section TEXT"

    /// Rows of todofmt's columns, each set in a table of its own.
    static let storedRows: [String] = [
        "(5,NULL,0,'first',0,NULL,NULL),(2,NULL,1,'second',0,NULL,NULL),(3,5,0,'child of first',0,NULL,NULL),"
            + "(1,2,0,'child of second',0,NULL,NULL),(4,NULL,2,'third',0,NULL,NULL)",
        "(1,NULL,0,'a',0,NULL,NULL),(2,NULL,1,'b',0,NULL,NULL),(3,1,0,'child of a',0,NULL,NULL)",
        "(1,NULL,0,'a',0,NULL,NULL),(2,9,0,'orphan',0,NULL,NULL),(3,NULL,1,'b',0,NULL,NULL)",
        "(1,NULL,0,'a',0,NULL,NULL),(2,1,1,'second child',0,NULL,NULL),(3,1,0,'first child',0,NULL,NULL),"
            + "(4,NULL,1,'b',0,NULL,NULL)",
        "(1,NULL,0,'a',0,NULL,NULL),(2,1,1,'second child',0,NULL,NULL),(3,NULL,1,'b',0,NULL,NULL),"
            + "(4,1,0,'first child',0,NULL,NULL)",
        "(1,NULL,0,'a',0,NULL,NULL),(2,1,1,'second child',0,NULL,NULL),(3,NULL,1,'b',0,NULL,NULL),"
            + "(4,1.5,0,'first child',0,NULL,NULL)",
        "(1,NULL,3,'a',0,NULL,NULL),(2,NULL,3,'b',0,NULL,NULL),(3,NULL,'x','c',0,NULL,NULL),"
            + "(4,NULL,2.5,'d',0,NULL,NULL)",
        // A row deleted by hand: rowids with a gap.
        "(1,NULL,0,'a',0,NULL,NULL),(3,1,1,'a2',0,NULL,NULL),(4,1,2,'a3',0,NULL,NULL),(5,NULL,1,'b',0,NULL,NULL)",
        "(1,NULL,0,'a',0,NULL,NULL),(9223372036854775807,NULL,1,'b',0,NULL,NULL)",
    ]

    static let storedTables: [String] =
        storedRows.map { "CREATE TABLE todo_items (\(ownColumns)); INSERT INTO todo_items VALUES \($0);" } + [
            "CREATE TABLE todo_items (id INTEGER PRIMARY KEY, parent INTEGER, position INTEGER, name TEXT NOT NULL, "
                + "checked BOOLEAN NOT NULL, status TEXT, section TEXT); "
                + "INSERT INTO todo_items VALUES (1,NULL,5,'b',0,NULL,NULL),(2,NULL,NULL,'a',0,NULL,NULL);",
            "CREATE TABLE todo_items (id INTEGER, parent INTEGER, position INTEGER, name TEXT, checked BOOLEAN, "
                + "status TEXT, section TEXT); "
                + "INSERT INTO todo_items VALUES (5,NULL,1,'b',0,NULL,NULL),(NULL,NULL,1,'a',0,NULL,NULL);",
            "CREATE TABLE todo_items (id, parent, position, name, checked, status, section); "
                + "INSERT INTO todo_items VALUES (1,NULL,0,'a',0,NULL,NULL),(2,1,1,'second child',0,NULL,NULL),"
                + "(3,NULL,1,'b',0,NULL,NULL),(4,'1',0,'first child',0,NULL,NULL);",
            // Ids that are not the rowid, the rowids with gaps.
            "CREATE TABLE todo_items (id INTEGER, parent INTEGER, position INTEGER, name TEXT, checked BOOLEAN, "
                + "status TEXT, section TEXT); INSERT INTO todo_items (rowid, id, parent, position, name, checked) "
                + "VALUES (1,1,NULL,0,'a',0),(2,2,1,0,'a1',0),(6,3,1,1,'a2',0),(9,4,3,0,'a2x',0),(12,5,NULL,1,'b',0);",
            // Ids given twice: deleting one by its id deleted both.
            "CREATE TABLE todo_items (id INTEGER, parent INTEGER, position INTEGER, name TEXT, checked BOOLEAN, "
                + "status TEXT, section TEXT); INSERT INTO todo_items VALUES (1,NULL,0,'a',0,NULL,NULL),"
                + "(2,1,0,'a1',0,NULL,NULL),(1,NULL,1,'b',0,NULL,NULL),(3,NULL,2,'c',0,NULL,NULL);",
            // An id given again outside the item: the list nests its children under both.
            "CREATE TABLE todo_items (id INTEGER, parent INTEGER, position INTEGER, name TEXT, checked BOOLEAN, "
                + "status TEXT, section TEXT); INSERT INTO todo_items VALUES (1,NULL,0,'a',0,NULL,NULL),"
                + "(2,1,0,'a1',0,NULL,NULL),(3,2,0,'grand',0,NULL,NULL),(10,NULL,2,'b',0,NULL,NULL),"
                + "(2,10,0,'b1',0,NULL,NULL),(20,NULL,1,'c',0,NULL,NULL);",
            // A field named rowid hides SQLite's rowid.
            "CREATE TABLE todo_items (\(ownColumns), rowid INTEGER); INSERT INTO todo_items VALUES "
                + "(1,NULL,0,'one',0,NULL,NULL,10),(2,1,0,'c1',0,NULL,NULL,10),(3,1,1,'c2',0,NULL,NULL,12),"
                + "(4,NULL,1,'two',0,NULL,NULL,20);",
        ]

    /// Rows another program stored otherwise: top-level items not in position order, a
    /// child away from its parent (its parent id a real, or text), a parent id that is no
    /// row's, children out of order, a position that is not a number or NULL, a NULL id,
    /// rowids with gaps or apart from the ids, the largest rowid, a column named `rowid`.
    /// Whichever way the edit is made, the list reads back as the list `todofmt list`
    /// showed, edited.
    @Test(
        "rows stored otherwise: the item the list shows at the position is edited",
        arguments: storedTables)
    func storedOtherwise(_ sql: String) throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("other.sqlite")
        let edits: [Edit] = [
            .check([.position([1])]), .check([.position([2])]), .check([.position([3])]), .check([.position([1, 1])]),
            .rename(.position([1, 2]), to: "z"), .check([.position([2, 1])]), .toggle([.position([1, 2, 1])]),
        ]
        for edit in edits {
            try? FileManager.default.removeItem(atPath: path)
            _ = try Databases.sqlite3(path, [sql])
            let url = URL(fileURLWithPath: path)
            var expected = TreeList(try TodoList(contentsOf: url))
            let expectedError = Result { try edit.apply(to: &expected, file: path) }
            let outcome = Result { try FileEdit(file: url, edits: [edit]).run() }
            switch (expectedError, outcome) {
            case (.success, .success): #expect(try TodoList(contentsOf: url) == expected.list, "\(sql): \(edit)")
            case (.failure, .failure): break
            default: Issue.record("\(sql): \(edit): \(expectedError) \(outcome)")
            }
        }
    }

    @Test("rows whose parent is no row's come after the others, in the order of their parents, every time")
    func orphansInOrder() throws {
        let directory = try TemporaryDirectory()
        let path = try WriteBackTests.database(
            "CREATE TABLE todo_items (\(Self.ownColumns)); INSERT INTO todo_items VALUES (1,NULL,0,'a',0,NULL,NULL),"
                + "(2,99,0,'x',0,NULL,NULL),(3,98,0,'y',0,NULL,NULL),(4,-1,0,'m',0,NULL,NULL),"
                + "(5,NULL,1,'b',0,NULL,NULL),(6,-1,1,'n',0,NULL,NULL);",
            in: directory, name: "orphans.sqlite")
        for _ in 0..<5 {
            #expect(
                try TodoList(contentsOf: URL(fileURLWithPath: path)).items.map(\.name) == [
                    "a", "b", "m", "n", "y", "x",
                ])
        }
    }

    @Test("rows in a parent cycle are listed after the others, and a write keeps every row")
    func parentCycles() throws {
        let directory = try TemporaryDirectory()
        // x and y are each other's parent, z is y's child; s is its own parent.
        let path = try WriteBackTests.database(
            "CREATE TABLE todo_items (\(Self.ownColumns)); INSERT INTO todo_items VALUES (1,NULL,0,'a',0,NULL,NULL),"
                + "(2,3,0,'x',0,NULL,NULL),(3,2,0,'y',0,NULL,NULL),(4,3,1,'z',0,NULL,NULL),"
                + "(5,NULL,1,'b',0,NULL,NULL),(6,6,0,'s',0,NULL,NULL);",
            in: directory, name: "cycles.sqlite")
        let url = URL(fileURLWithPath: path)
        let expected = [
            TodoItem(name: "a"), TodoItem(name: "b"),
            TodoItem(name: "x", children: [TodoItem(name: "y", children: [TodoItem(name: "z")])]),
            TodoItem(name: "s"),
        ]
        #expect(try TodoList(contentsOf: url).items == expected)
        let original = try Data(contentsOf: url)
        for alone in [true, false] {
            try original.write(to: url)
            var edit = FileEdit(file: url, edits: [.check([.position([1])])])
            edit.editsItemAlone = alone
            _ = try edit.run()
            var edited = expected
            edited[0].status = .done
            #expect(try TodoList(contentsOf: url).items == edited)
            #expect(try Databases.sqlite3(path, ["SELECT count(*) FROM todo_items"]) == "6\n")
        }
    }

    @Test("a WITHOUT ROWID table of todofmt's columns is read and edited, and stays one")
    func withoutRowID() throws {
        let directory = try TemporaryDirectory()
        let path = try WriteBackTests.database(
            "CREATE TABLE todo_items (\(Self.ownColumns), prio INTEGER) WITHOUT ROWID; INSERT INTO todo_items VALUES "
                + "(1,NULL,0,'a',0,NULL,NULL,1),(2,1,0,'c',0,NULL,NULL,NULL),(3,NULL,1,'b',1,NULL,NULL,2);",
            in: directory, name: "norowid.sqlite")
        let url = URL(fileURLWithPath: path)
        var expected = [
            TodoItem(name: "a", fields: [Field("prio", .integer(1))], children: [TodoItem(name: "c")]),
            TodoItem(name: "b", status: .done, fields: [Field("prio", .integer(2))]),
        ]
        #expect(try TodoList(contentsOf: url).items == expected)
        _ = try FileEdit(
            file: url, edits: [.check([.position([1])]), .set(.position([2]), [Field("due", .string("soon"))])]
        )
        .run()
        expected[0].status = .done
        expected[1].fields.append(Field("due", .string("soon")))
        #expect(try TodoList(contentsOf: url).items == expected)
        #expect(try Databases.sqlite3(path, ["SELECT sql LIKE '%WITHOUT ROWID' FROM sqlite_schema"]) == "1\n")
    }

    @Test("the children of an id two rows have are listed once")
    func repeatedParentID() throws {
        let directory = try TemporaryDirectory()
        let path = try WriteBackTests.database(
            "CREATE TABLE todo_items (\(Self.ownColumns.replacingOccurrences(of: " PRIMARY KEY", with: "")));"
                + "INSERT INTO todo_items VALUES (1,NULL,1,'a',0,NULL,NULL),(1,NULL,0,'b',0,NULL,NULL),"
                + "(2,1,0,'c',0,NULL,NULL);",
            in: directory, name: "repeated.sqlite")
        #expect(
            try TodoList(contentsOf: URL(fileURLWithPath: path)).items == [
                TodoItem(name: "b", children: [TodoItem(name: "c")]), TodoItem(name: "a"),
            ])
    }

    @Test("field keys in two Unicode forms are two columns, written, read and edited")
    func keysInTwoForms() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("forms.sqlite")
        let composed = "\u{E9}"
        let decomposed = "e\u{301}"
        let list = TodoList(items: [
            TodoItem(name: "x", fields: [Field(composed, .string("one")), Field(decomposed, .string("two"))]),
            TodoItem(name: "y"),
        ])
        _ = try list.write(to: URL(fileURLWithPath: path))
        let original = try Data(contentsOf: URL(fileURLWithPath: path))
        for alone in [true, false] {
            try original.write(to: URL(fileURLWithPath: path))
            var edit = FileEdit(file: URL(fileURLWithPath: path), edits: [.check([.position([1])])])
            edit.editsItemAlone = alone
            _ = try edit.run()
            let item = try TodoList(contentsOf: URL(fileURLWithPath: path)).items[0]
            #expect(item.isChecked)
            #expect(item.fields.map { Array($0.key.utf8) } == [Array(composed.utf8), Array(decomposed.utf8)])
            #expect(item.fields.map(\.value) == [.string("one"), .string("two")])
        }
    }

    @Test("text that is not UTF-8 in rows the edit does not change keeps its bytes", arguments: [true, false])
    func invalidUTF8Kept(alone: Bool) throws {
        let directory = try TemporaryDirectory()
        let path = try WriteBackTests.database(
            "CREATE TABLE todo_items (\(Self.ownColumns), note TEXT); INSERT INTO todo_items VALUES "
                + "(1,NULL,0,'a',0,NULL,NULL,CAST(X'636166E9' AS TEXT)),(2,NULL,1,CAST(X'62FF' AS TEXT),0,NULL,NULL,NULL),"
                + "(3,NULL,2,'c',0,NULL,NULL,NULL);",
            in: directory, name: "bytes.sqlite")
        for edit in [Edit.check([.position([3])]), .add(name: "new", under: nil, at: nil)] {
            var fileEdit = FileEdit(file: URL(fileURLWithPath: path), edits: [edit])
            fileEdit.editsItemAlone = alone
            _ = try fileEdit.run()
            #expect(
                try Databases.sqlite3(path, ["SELECT hex(name), hex(note) FROM todo_items WHERE id < 3 ORDER BY id"])
                    == "61|636166E9\n62FF|\n", "\(edit)")
        }
    }

    @Test("a database with its write-ahead log beside it is edited the first time, its log read")
    func writeAheadLog() throws {
        let directory = try TemporaryDirectory()
        try Python.run(
            """
            import sqlite3, shutil, os, sys
            d = sys.argv[1]
            src = os.path.join(d, 'src.sqlite')
            c = sqlite3.connect(src)
            c.execute('PRAGMA journal_mode=WAL'); c.execute('PRAGMA wal_autocheckpoint=0')
            c.execute('CREATE TABLE todo_items (\(Self.ownColumns))')
            c.execute("INSERT INTO todo_items VALUES (1,NULL,0,'a',0,NULL,NULL),(2,NULL,1,'b',0,NULL,NULL)")
            c.commit()
            for suffix in ('', '-wal'): shutil.copyfile(src + suffix, os.path.join(d, 'wal.sqlite') + suffix)
            c.close()
            """, in: directory)
        let path = directory.path("wal.sqlite")
        #expect(FileManager.default.fileExists(atPath: path + "-wal"))
        _ = try FileEdit(file: URL(fileURLWithPath: path), edits: [.check([.position([2])])]).run()
        #expect(try Databases.sqlite3(path, ["SELECT name, checked FROM todo_items ORDER BY id"]) == "a|0\nb|1\n")
    }

    @Test("a dry run shows the rows the edit changes, and changes none")
    func dryRun() throws {
        let directory = try TemporaryDirectory()
        let path = try WriteBackTests.database(
            "CREATE TABLE todo_items (\(Self.ownColumns), due DATETIME); INSERT INTO todo_items VALUES "
                + "(1,NULL,0,'a',0,NULL,NULL,'2024-06-01 09:00:00'),(2,NULL,1,'b',0,NULL,NULL,'2024-06-02 09:00:00');",
            in: directory, name: "dry.sqlite")
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        var edit = FileEdit(file: URL(fileURLWithPath: path), edits: [.check([.position([2])])])
        edit.dryRun = true
        let result = try edit.run()
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
        #expect(result.changed)
        #expect(
            result.changes.split(separator: "\n").filter { $0.hasPrefix("-") || $0.hasPrefix("+") }
                == [
                    "--- todo_items (id, parent, position, name, checked, status, section, due)",
                    "-(2, NULL, 1, 'b', 0, NULL, NULL, '2024-06-02 09:00:00')",
                    "+(2, NULL, 1, 'b', 1, NULL, NULL, '2024-06-02 09:00:00')",
                ])
    }
}
