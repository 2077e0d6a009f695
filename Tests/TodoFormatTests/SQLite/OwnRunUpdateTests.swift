import Foundation
import Testing

@testable import TodoFormat

/// `add`, `rm` and `mv` of top-level items of todofmt's own table made on the rows they
/// touch (`ListTable.updateOwnItems`, `ListTable.moveOwnItem`) must leave a table that reads
/// as the list edited, as the whole list's write does, while every row the edit does not
/// remove keeps its id and values; only top-level positions move.
@Suite("Adding, removing and moving items of todofmt's table on their rows")
struct OwnRunUpdateTests {
    static let edits: [Edit] = [
        .add(name: "new", under: nil, at: nil), .add(name: "new", under: nil, at: [1]),
        .add(name: "new", under: nil, at: [3]), .add(name: "new", under: nil, at: [5]),
        .add(name: "child", under: .position([1]), at: nil), .add(name: "child", under: .position([2]), at: [1]),
        .remove([.position([1])]), .remove([.position([2])]), .remove([.position([3])]), .remove([.position([4])]),
        .remove([.position([2, 1])]),
        .move(.position([1]), to: [4]), .move(.position([4]), to: [1]), .move(.position([2]), to: [3]),
        .move(.position([3]), to: [2]), .move(.position([2]), to: [2]), .move(.position([3]), to: [1]),
        .move(.position([2, 1]), to: [1]), .move(.position([1]), to: [2, 1]),
        // past the list's end: an error either way
        .move(.position([1]), to: [9]), .remove([.position([9])]), .add(name: "x", under: nil, at: [9]),
    ]

    /// Edits the alone route cannot make: those past the list's end, which fail.
    static let failing: Set<Edit> = [
        .move(.position([1]), to: [9]), .remove([.position([9])]), .add(name: "x", under: nil, at: [9]),
    ]

    /// `edits` of the file at `path`, made alone where they can be.
    static func alone(_ path: String, _ edits: [Edit], options: ListOptions = ListOptions()) -> FileEdit {
        var edit = FileEdit(file: URL(fileURLWithPath: path), edits: edits, options: options)
        edit.editsItemAlone = true
        return edit
    }

    /// Runs `edit` on `path` both ways from `original`: the outcomes and the lists read
    /// back are the same; returns the table after the alone route, and whether it was taken.
    static func compare(_ path: String, _ original: Data, _ edit: Edit) throws -> (dump: String, alone: Bool) {
        let url = URL(fileURLWithPath: path)
        var results: [(list: TodoList?, outcome: String, alone: Bool)] = []
        var dump = ""
        for alone in [true, false] {
            try original.write(to: url)
            var fileEdit = FileEdit(file: url, edits: [edit])
            fileEdit.editsItemAlone = alone
            do {
                let result = try fileEdit.run()
                results.append(
                    (try TodoList(contentsOf: url), "\(result.warnings.map(\.description))", result.madeAlone))
            } catch {
                results.append((nil, "\(error)", false))
            }
            if alone { dump = try Databases.dump(path) }
        }
        #expect(results[0].outcome == results[1].outcome, "\(edit)")
        #expect(results[0].list == results[1].list, "\(edit)\n\(dump)")
        try original.write(to: url)
        return (dump, results[0].alone)
    }

    @Test("as todofmt writes the table: the list as the whole write makes it, on the rows touched")
    func asWritten() throws {
        let directory = try TemporaryDirectory()
        let path = try OwnItemUpdateTests.logged("run.sqlite", in: directory)
        let original = try Data(contentsOf: URL(fileURLWithPath: path))
        for edit in Self.edits {
            let (_, alone) = try Self.compare(path, original, edit)
            #expect(alone != Self.failing.contains(edit), "\(edit)")
        }
    }

    /// The rows of the table in `path`, as `id|parent|position|name`, by id.
    static func rows(_ path: String) throws -> [String] {
        try Databases.sqlite3(path, ["SELECT id, parent, position, name, section FROM todo_items ORDER BY id"])
            .split(separator: "\n").map(String.init)
    }

    @Test("rows keep their ids: rm deletes the item's rows, add appends rows, mv changes positions")
    func idsKept() throws {
        let directory = try TemporaryDirectory()
        let path = try OwnItemUpdateTests.logged("ids.sqlite", in: directory)
        let url = URL(fileURLWithPath: path)
        // a(1) b(2: c(3: d(4)), e(5)) café(6) f(7)
        _ = try FileEdit(file: url, edits: [.remove([.position([2])])]).run()
        #expect(try Self.rows(path) == ["1||0|a|Home", "6||1|café|Work", "7||2|f|Work"])
        _ = try FileEdit(file: url, edits: [.add(name: "g", under: nil, at: [2])]).run()
        #expect(try Self.rows(path) == ["1||0|a|Home", "6||2|café|Work", "7||3|f|Work", "8||1|g|Home"])
        _ = try FileEdit(file: url, edits: [.move(.position([4]), to: [1])]).run()
        #expect(try Self.rows(path) == ["1||1|a|Home", "6||3|café|Work", "7||0|f|Home", "8||2|g|Home"])
        // Only the rows the edits touched were updated (the trigger logs each update).
        #expect(try Databases.sqlite3(path, ["SELECT group_concat(id) FROM updated"]) == "6,7,6,7,1,6,8,7\n")
        // A table so edited still has its one-item edits made alone, by position.
        let done = Self.alone(path, [.check([.position([1])])])
        #expect(try done.run().madeAlone)
        #expect(try TodoList(contentsOf: url).items.map(\.name) == ["f", "a", "g", "café"])
        #expect(try TodoList(contentsOf: url).items[0].status == .done)
    }

    @Test(
        "an item added at the end where the last top-level row stored is not the last listed: made alone, and right",
        arguments: [
            // The last row stored was added in the middle (position 1 of 4).
            [Edit.add(name: "g", under: nil, at: [2])],
            // …and then moved to the end, and another moved to the start.
            [.add(name: "g", under: nil, at: [2]), .move(.position([2]), to: [5])],
            [.move(.position([4]), to: [1])],
            // The last row stored is a child: the top-level row before it says the count.
            [.add(name: "g1", under: .position([4]), at: nil)],
        ])
    func addedAtEndAfterOthers(_ before: [Edit]) throws {
        let directory = try TemporaryDirectory()
        let path = try OwnItemUpdateTests.logged("end.sqlite", in: directory)
        for edit in before { _ = try FileEdit(file: URL(fileURLWithPath: path), edits: [edit]).run() }
        let original = try Data(contentsOf: URL(fileURLWithPath: path))
        for edit in [Edit.add(name: "new", under: nil, at: nil), .add(name: "new", under: nil, at: [5])] {
            let (dump, alone) = try Self.compare(path, original, edit)
            #expect(alone, "\(before) \(edit)")
            // The new item is the list's last, after the item that was last.
            try original.write(to: URL(fileURLWithPath: path))
            var expected = TreeList(try TodoList(contentsOf: URL(fileURLWithPath: path)))
            try edit.apply(to: &expected, file: path)
            _ = try Self.alone(path, [edit]).run()
            #expect(try TodoList(contentsOf: URL(fileURLWithPath: path)) == expected.list, "\(before) \(edit)\n\(dump)")
        }
    }

    @Test(
        "rows stored otherwise: the list reads back edited, whichever way",
        arguments: OwnItemUpdateTests.storedTables + [
            // Positions with gaps, twice, and top-level rows out of stored order.
            "CREATE TABLE todo_items (\(OwnItemUpdateTests.ownColumns)); INSERT INTO todo_items VALUES "
                + "(1,NULL,0,'a',0,NULL,NULL),(2,NULL,2,'b',0,NULL,NULL),(3,NULL,2,'c',0,NULL,NULL),"
                + "(4,NULL,5,'d',0,NULL,NULL);",
            "CREATE TABLE todo_items (\(OwnItemUpdateTests.ownColumns)); INSERT INTO todo_items VALUES "
                + "(1,NULL,2,'a',0,NULL,NULL),(2,NULL,0,'b',0,NULL,NULL),(3,2,0,'b1',0,NULL,NULL),"
                + "(4,NULL,1,'c',0,NULL,NULL);",
            // Rows whose parent is no row's, and a cycle: listed after the others.
            "CREATE TABLE todo_items (\(OwnItemUpdateTests.ownColumns)); INSERT INTO todo_items VALUES "
                + "(1,NULL,0,'a',0,NULL,NULL),(2,99,0,'x',0,NULL,NULL),(3,NULL,1,'b',0,NULL,NULL),"
                + "(4,NULL,2,'c',0,NULL,NULL);",
            "CREATE TABLE todo_items (\(OwnItemUpdateTests.ownColumns)); INSERT INTO todo_items VALUES "
                + "(1,NULL,0,'a',0,NULL,NULL),(2,3,0,'x',0,NULL,NULL),(3,2,0,'y',0,NULL,NULL),"
                + "(4,NULL,1,'b',0,NULL,NULL),(5,NULL,2,'c',0,NULL,NULL);",
            // A parent id below every id, where ids have no gap (from 1, from 3), and a parent id
            // in a gap: rows that are no item's child, listed after the others (stored among
            // the first item's rows, outside the run an edit at the end reads).
            "CREATE TABLE todo_items (\(OwnItemUpdateTests.ownColumns)); INSERT INTO todo_items VALUES "
                + "(1,NULL,0,'a',0,NULL,NULL),(2,0,0,'orphan',0,NULL,NULL),(3,NULL,1,'b',0,NULL,NULL),"
                + "(4,NULL,2,'c',0,NULL,NULL);",
            "CREATE TABLE todo_items (\(OwnItemUpdateTests.ownColumns)); INSERT INTO todo_items VALUES "
                + "(3,NULL,0,'a',0,NULL,NULL),(4,2,0,'orphan',0,NULL,NULL),(5,NULL,1,'b',0,NULL,NULL),"
                + "(6,NULL,2,'c',0,NULL,NULL);",
            "CREATE TABLE todo_items (\(OwnItemUpdateTests.ownColumns)); INSERT INTO todo_items VALUES "
                + "(1,NULL,0,'a',0,NULL,NULL),(3,2,0,'orphan',0,NULL,NULL),(4,NULL,1,'b',0,NULL,NULL),"
                + "(5,NULL,2,'c',0,NULL,NULL);",
            // A gap in the top-level positions past the run, and a row outside it under an item
            // removed or moved, or that no top-level row leads to: one row short of the count
            // moved, one over it in rows that break the edit; two errors that cancel (hunt 81).
            "CREATE TABLE todo_items (\(OwnItemUpdateTests.ownColumns)); INSERT INTO todo_items VALUES "
                + "(1,NULL,0,'a',0,NULL,NULL),(2,NULL,1,'b',0,NULL,NULL),(3,NULL,2,'c',0,NULL,NULL),"
                + "(4,NULL,3,'d',0,NULL,NULL),(5,NULL,4,'e',0,NULL,NULL),(6,NULL,10,'f',0,NULL,NULL),"
                + "(7,2,0,'b1',0,NULL,NULL),(8,1,0,'a1',0,NULL,NULL);",
            "CREATE TABLE todo_items (\(OwnItemUpdateTests.ownColumns)); INSERT INTO todo_items VALUES "
                + "(1,NULL,0,'a',0,NULL,NULL),(2,NULL,1,'b',0,NULL,NULL),(3,NULL,3,'c',0,NULL,NULL),"
                + "(4,NULL,4,'d',0,NULL,NULL),(5,9,0,'orphan',0,NULL,NULL);",
            // Ids from -1 to 2^63 - 1: their span is past 64 bits (hunt 81).
            "CREATE TABLE todo_items (\(OwnItemUpdateTests.ownColumns)); INSERT INTO todo_items VALUES "
                + "(-1,NULL,0,'a',0,NULL,NULL),(9223372036854775807,NULL,1,'b',0,NULL,NULL);",
            // A child stored after another top-level item, and a child whose id is below its parent's.
            "CREATE TABLE todo_items (\(OwnItemUpdateTests.ownColumns)); INSERT INTO todo_items VALUES "
                + "(1,NULL,0,'a',0,NULL,NULL),(2,NULL,1,'b',0,NULL,NULL),(3,1,0,'a1',0,NULL,NULL),"
                + "(4,NULL,2,'c',0,NULL,NULL);",
            "CREATE TABLE todo_items (\(OwnItemUpdateTests.ownColumns)); INSERT INTO todo_items VALUES "
                + "(1,3,0,'c1',0,NULL,NULL),(2,NULL,0,'a',0,NULL,NULL),(3,NULL,1,'b',0,NULL,NULL),"
                + "(4,NULL,2,'c',0,NULL,NULL);",
            // Defaults on todofmt's columns: a row written anew keeps its NULLs (hunt 61).
            "CREATE TABLE todo_items (id INTEGER PRIMARY KEY, parent INTEGER DEFAULT 0, position INTEGER NOT NULL, "
                + "name TEXT NOT NULL, checked BOOLEAN NOT NULL, status TEXT DEFAULT '/', section TEXT DEFAULT 'Inbox'); "
                + "INSERT INTO todo_items VALUES (1,NULL,0,'a',0,NULL,NULL),(2,1,0,'a1',0,NULL,NULL),"
                + "(3,NULL,1,'b',0,NULL,NULL);",
            // A row whose parent is the id the next new row would take (hunt 61).
            "CREATE TABLE todo_items (\(OwnItemUpdateTests.ownColumns)); INSERT INTO todo_items VALUES "
                + "(1,NULL,0,'a',0,NULL,NULL),(2,NULL,1,'b',0,NULL,NULL),(3,NULL,2,'c',0,NULL,NULL),"
                + "(4,NULL,3,'d',0,NULL,NULL),(5,6,0,'orphan',0,NULL,NULL);",
        ])
    func storedOtherwise(_ sql: String) throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("other.sqlite")
        _ = try Databases.sqlite3(path, [sql])
        let original = try Data(contentsOf: URL(fileURLWithPath: path))
        for edit in Self.edits {
            let url = URL(fileURLWithPath: path)
            var expected = TreeList(try TodoList(contentsOf: url))
            let expectedError = Result { try edit.apply(to: &expected, file: path) }
            _ = try Self.compare(path, original, edit)
            let fileEdit = Self.alone(path, [edit])
            let outcome = Result { try fileEdit.run() }
            switch (expectedError, outcome) {
            case (.success, .success): #expect(try TodoList(contentsOf: url) == expected.list, "\(sql): \(edit)")
            case (.failure, .failure): break
            default: Issue.record("\(sql): \(edit): \(expectedError) \(outcome)")
            }
            try original.write(to: url)
        }
    }

    @Test("top-level rows stored out of list order, each followed by its children: read in list order")
    func storedOutOfOrder() throws {
        let directory = try TemporaryDirectory()
        // Stored: c, a (a1, a2 (a21)), d, b (b1); listed: a, b, c, d.
        let path = try WriteBackTests.database(
            "CREATE TABLE todo_items (\(OwnItemUpdateTests.ownColumns)); INSERT INTO todo_items VALUES "
                + "(1,NULL,2,'c',0,NULL,'S'),(2,NULL,0,'a',0,NULL,'S'),(3,2,0,'a1',0,NULL,NULL),"
                + "(4,2,1,'a2',1,NULL,NULL),(5,4,0,'a21',0,NULL,NULL),(7,NULL,3,'d',0,NULL,'T'),"
                + "(9,NULL,1,'b',0,NULL,'S'),(10,9,0,'b1',0,'/',NULL);",
            in: directory, name: "order.sqlite")
        let expected = [
            TodoItem(
                name: "a",
                children: [
                    TodoItem(name: "a1"), TodoItem(name: "a2", status: .done, children: [TodoItem(name: "a21")]),
                ], section: "S"),
            TodoItem(name: "b", children: [TodoItem(name: "b1", status: .custom("/"))], section: "S"),
            TodoItem(name: "c", section: "S"), TodoItem(name: "d", section: "T"),
        ]
        #expect(try TodoList(contentsOf: URL(fileURLWithPath: path)).items == expected)
        let db = try Database(path: path, readOnly: true)
        #expect(try ListTable.find(in: db, options: ListOptions()).readItems(from: db) == expected)
    }

    @Test(
        "top-level rows are counted only where every top-level position is a number",
        arguments: [
            // The column's type, the last row's position, whether the rows are counted, and
            // whether the first two are found at their places.
            ("INTEGER", "3", true, true), ("INTEGER", "2.5", true, true), ("INTEGER", "'7'", true, true),
            ("INTEGER", "' 7'", true, true), ("INTEGER", "-1", true, false), ("INTEGER", "NULL", false, false),
            ("INTEGER", "'x'", false, false), ("INTEGER", "''", false, false), ("INTEGER", "X'00'", false, false),
            ("", "7", true, true), ("", "'7'", false, false), ("TEXT", "7", false, false),
            // (Positions that are reals are no places: `0.0` is no integer's text.)
            ("REAL", "7", true, false),
        ])
    func numericPositions(type: String, last: String, counted: Bool, placed: Bool) throws {
        let directory = try TemporaryDirectory()
        // The other rows' positions are numbers, and a child's position is any value.
        let path = try WriteBackTests.database(
            "CREATE TABLE todo_items (id INTEGER PRIMARY KEY, parent INTEGER, position \(type), name TEXT NOT NULL, "
                + "checked BOOLEAN NOT NULL, status TEXT, section TEXT); INSERT INTO todo_items VALUES "
                + "(1,NULL,0,'a',0,NULL,NULL),(2,1,'x','a1',0,NULL,NULL),(3,NULL,1,'b',0,NULL,NULL),"
                + "(4,NULL,\(last),'c',0,NULL,NULL);",
            in: directory, name: "positions.sqlite")
        let db = try Database(path: path, readOnly: true)
        let table = try ListTable.find(in: db, options: ListOptions())
        let all = try table.topLevelRows(places: [], in: db)
        #expect((all != nil) == counted && (all == nil || all?.count == 3), "\(type) \(last)")
        let first = try table.topLevelRows(places: [0..<2], in: db)
        #expect((first != nil) == placed && (first == nil || first?.rowids == [0: 1, 1: 3]), "\(type) \(last)")
    }

    @Test("an edit on the rows that needs the whole list after SQLite spilled pages into the file is made (hunt 82)")
    func spilledThenWhole() throws {
        let directory = try TemporaryDirectory()
        // Rows of 200 bytes and more, enough for moving their positions to fill SQLite's cache
        // (2 MB): and a child of the first item stored apart, which the edit on the rows
        // finds only after moving them, when it rolls back.
        let path = try WriteBackTests.database(
            "CREATE TABLE todo_items (\(OwnItemUpdateTests.ownColumns)); "
                + "WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < 14999) "
                + "INSERT INTO todo_items SELECT i + 1, NULL, i, 'item ' || i || ' ' || hex(zeroblob(100)), 0, NULL, "
                + "NULL FROM n; INSERT INTO todo_items VALUES (15001, 1, 0, 'late', 0, NULL, NULL);",
            in: directory, name: "spill.sqlite")
        let url = URL(fileURLWithPath: path)
        var expected = TreeList(try TodoList(contentsOf: url))
        let edit = Edit.remove([.position([1])])
        try edit.apply(to: &expected, file: path)
        let result = try Self.alone(path, [edit]).run()
        #expect(!result.madeAlone)
        #expect(try TodoList(contentsOf: url) == expected.list)
    }

    @Test("a unique index: positions are not moved a row at a time (a conflict would drop a row) (hunt 61)")
    func uniqueIndex() throws {
        let directory = try TemporaryDirectory()
        let path = try WriteBackTests.database(
            "CREATE TABLE todo_items (\(OwnItemUpdateTests.ownColumns), UNIQUE(position) ON CONFLICT REPLACE); "
                + "INSERT INTO todo_items VALUES (1,NULL,0,'a',0,NULL,NULL),(2,NULL,1,'b',0,NULL,NULL),"
                + "(3,NULL,2,'c',0,NULL,NULL),(4,NULL,3,'d',0,NULL,NULL);",
            in: directory, name: "unique.sqlite")
        let url = URL(fileURLWithPath: path)
        var edit = Self.alone(path, [.move(.position([1]), to: [2])])
        #expect(try !edit.run().madeAlone)
        #expect(try TodoList(contentsOf: url).items.map(\.name) == ["b", "a", "c", "d"])
        edit.edits = [.remove([.position([2])])]
        #expect(try !edit.run().madeAlone)
        #expect(try TodoList(contentsOf: url).items.map(\.name) == ["b", "c", "d"])
    }

    @Test("names equal but for their Unicode form are told apart: each keeps its bytes (hunt 61)")
    func normalForms() throws {
        let directory = try TemporaryDirectory()
        let path = try WriteBackTests.database(
            "CREATE TABLE todo_items (\(OwnItemUpdateTests.ownColumns)); INSERT INTO todo_items VALUES "
                + "(1,NULL,0,'a',0,NULL,NULL),(2,NULL,1,'cafe' || char(769),0,NULL,NULL),(3,NULL,2,'b',0,NULL,NULL),"
                + "(4,NULL,3,'c',0,NULL,NULL);",
            in: directory, name: "forms.sqlite")
        let url = URL(fileURLWithPath: path)
        func names() throws -> [String] {
            try TodoList(contentsOf: url).items.map { $0.name.utf8.map { String($0, radix: 16) }.joined() }
        }
        var edit = Self.alone(path, [.add(name: "caf\u{E9}", under: nil, at: [2])])
        #expect(try edit.run().madeAlone)
        #expect(try names() == ["61", "636166c3a9", "63616665cc81", "62", "63"])
        edit.edits = [.remove([.position([3])])]
        _ = try edit.run()
        #expect(try names() == ["61", "636166c3a9", "62", "63"])
    }

    @Test("children of an id two rows have, top-level rows out of order: nested as the whole read nests them")
    func repeatedIDsOutOfOrder() throws {
        let directory = try TemporaryDirectory()
        let path = try WriteBackTests.database(
            "CREATE TABLE todo_items (id INTEGER, parent INTEGER, position INTEGER, name TEXT, checked BOOLEAN, "
                + "status TEXT, section TEXT); INSERT INTO todo_items VALUES (1,NULL,1,'a',0,NULL,NULL),"
                + "(5,1,0,'child',0,NULL,NULL),(1,NULL,0,'b',0,NULL,NULL);",
            in: directory, name: "repeated.sqlite")
        let db = try Database(path: path, readOnly: true)
        let whole = try ListTable.find(in: db, options: ListOptions()).readItems(from: db)
        #expect(try TodoList(contentsOf: URL(fileURLWithPath: path)).items == whole)
    }

    @Test("a column with a default: a new row gets it, rows kept keep what they hold")
    func columnDefault() throws {
        let directory = try TemporaryDirectory()
        let path = try WriteBackTests.database(
            "CREATE TABLE todo_items (\(OwnItemUpdateTests.ownColumns), prio INTEGER DEFAULT 3); "
                + "INSERT INTO todo_items VALUES (1,NULL,0,'a',0,NULL,NULL,1),(2,NULL,1,'b',0,NULL,NULL,NULL);",
            in: directory, name: "default.sqlite")
        let edit = Self.alone(path, [.add(name: "new", under: nil, at: [1])])
        #expect(try edit.run().madeAlone)
        #expect(try Self.rows(path) == ["1||1|a|", "2||2|b|", "3||0|new|"])
        #expect(try Databases.sqlite3(path, ["SELECT group_concat(prio, ',') FROM todo_items ORDER BY id"]) == "1,3\n")
        #expect(try Databases.sqlite3(path, ["SELECT count(*) FROM todo_items WHERE prio IS NULL"]) == "1\n")
    }

    @Test("a 3,000-item table: edits near its start, middle and end read back as the whole write's")
    func longTable() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("long.sqlite")
        let items = (0..<3_000).map { i in
            TodoItem(
                name: "item \(i % 700)", status: i % 3 == 0 ? .done : .open,
                fields: i % 5 == 0 ? [Field("prio", .integer(i % 4))] : [],
                children: i % 7 == 0 ? [TodoItem(name: "child \(i)", children: [TodoItem(name: "grand")])] : [],
                section: "S\(i / 500)")
        }
        _ = try TodoList(items: items).write(to: URL(fileURLWithPath: path))
        let original = try Data(contentsOf: URL(fileURLWithPath: path))
        let edits: [Edit] = [
            .add(name: "new", under: nil, at: nil), .add(name: "new", under: nil, at: [1_501]),
            .remove([.position([1])]), .remove([.position([1_500])]), .remove([.position([3_000])]),
            .remove([.position([1_499])]), .move(.position([1_500]), to: [1]), .move(.position([1]), to: [3_000]),
            .move(.position([2_999]), to: [501]), .move(.position([501]), to: [1_001]),
        ]
        for edit in edits {
            let (_, alone) = try Self.compare(path, original, edit)
            #expect(alone, "\(edit)")
        }
    }
}
