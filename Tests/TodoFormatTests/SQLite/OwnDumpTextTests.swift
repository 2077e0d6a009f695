import Foundation
import Testing

@testable import TodoFormat

/// A dump laid out as todofmt writes one is read from its text (`OwnDumpText`), not run: it
/// must read as running it reads it, byte for byte, and every dump whose text does not say
/// alone what running it gives must be run.
@Suite("SQL dumps read from their text")
struct OwnDumpTextTests {
    static let checklist = """
        # Today
        - [ ] Milk [prio:: 2] [due:: 2026-01-02T09:00:00Z]
        - [x] Eggs 'quoted' and ''twice''
          - [ ] Brown [owner:: Ann]
            - [/] Deep 日本語 🎉 e\u{301}
          - [-] Cancelled [prio:: -7]
        - [ ] `code` and [a link](http://x.org) [flag:: true]
        # Later
        - [?] Odd status [big:: 9223372036854775807] [when:: soon]
        - [ ] Last [owner:: 12] [when:: 2026-01-02T09:00:00Z]

        """

    /// The list in the dump at `path` read from its text (where it can be) and by running it.
    static func bothReads(_ path: String) throws -> (text: Read, run: Read) {
        func read(_ format: SQLDumpFormat) -> Read {
            do {
                var builder = ListBuilder()
                try format.read(Input(file: path), options: ListOptions(), into: &builder)
                return .success(builder.finish())
            } catch {
                return .failure("\(error)")
            }
        }
        return (read(SQLDumpFormat()), read(SQLDumpFormat(readsText: false)))
    }

    /// A read's list, or its error.
    enum Read {
        case success(TodoList)
        case failure(String)

        func get() throws -> TodoList {
            guard case .success(let list) = self else { throw EditError("the dump does not read: \(self)") }
            return list
        }
    }

    /// Whether the dump at `path` is read from its text.
    static func readsText(_ path: String) throws -> Bool {
        guard let mapped = MappedFile(path: path) else { return false }
        return withExtendedLifetime(mapped) {
            OwnDumpText(mapped.bytes, name: path, options: ListOptions()) != nil
        }
    }

    /// Two reads give the same list, to the byte: names, fields, statuses, sections, depths.
    static func expectSame(_ a: Read, _ b: Read, _ comment: String) {
        switch (a, b) {
        case (.success(let x), .success(let y)):
            #expect(x == y, "\(comment)")
            #expect(Array(x.listing().utf8) == Array(y.listing().utf8), "\(comment)")
            #expect(
                x.flattened().map { $0.item.section.map { Array($0.utf8) } }
                    == y.flattened().map { $0.item.section.map { Array($0.utf8) } }, "\(comment)")
        case (.failure(let x), .failure(let y)): #expect(x == y, "\(comment)")
        default: Issue.record("one read failed and the other did not: \(a) / \(b) (\(comment))")
        }
    }

    static func dump(of checklist: String, in directory: TemporaryDirectory, as name: String = "list") throws
        -> String
    {
        let source = directory.path(name + ".md")
        try checklist.write(toFile: source, atomically: false, encoding: .utf8)
        let path = directory.path(name + ".sql")
        _ = try Conversion(input: .at(source), output: .at(path)).run()
        return path
    }

    @Test("a dump todofmt writes, and the shell's dump of todofmt's database, read from their text as run")
    func sameAsRun() throws {
        let directory = try TemporaryDirectory()
        let path = try Self.dump(of: Self.checklist, in: directory)
        #expect(try Self.readsText(path))
        let (text, run) = try Self.bothReads(path)
        Self.expectSame(text, run, "todofmt's dump")
        #expect(try text.get().flattened().count == 8)
        #expect(try text.get().flattened().map(\.depth) == [0, 0, 1, 2, 1, 0, 0, 0])

        let database = directory.path("list.db")
        _ = try Conversion(input: .at(directory.path("list.md")), output: .at(database)).run()
        let shell = directory.path("shell.sql")
        try Databases.dump(database).write(toFile: shell, atomically: false, encoding: .utf8)
        #expect(try Self.readsText(shell))
        let (shellText, shellRun) = try Self.bothReads(shell)
        Self.expectSame(shellText, shellRun, "the shell's dump")
        Self.expectSame(shellText, text, "the shell's dump and todofmt's")
    }

    @Test(
        "a dump changed where its text no longer says alone what running it gives is run; each reads as run",
        arguments: [
            // (what is replaced, by what, whether it is still read from its text)
            ("COMMIT;", "CREATE INDEX i ON todo_items(name);\nCOMMIT;", false),
            ("COMMIT;", "INSERT INTO todo_items(id,position,name,checked) VALUES(99,99,'after',0);\nCOMMIT;", false),
            (
                "COMMIT;",
                "INSERT INTO todo_items VALUES(99,NULL,99,'after',0,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL);\nCOMMIT;",
                true
            ),
            ("PRAGMA foreign_keys=OFF;", "PRAGMA foreign_keys=ON;", false),
            // rows the statements before the first row line make; no transaction to commit
            ("\nINSERT INTO todo_items VALUES(1,", "\n INSERT INTO todo_items VALUES(1,", false),
            ("\nINSERT INTO todo_items VALUES(1,", "\ninsert into todo_items VALUES(1,", false),
            ("\nINSERT INTO todo_items VALUES(1,", "\nREPLACE INTO todo_items VALUES(1,", false),
            ("BEGIN TRANSACTION;\n", "", false),
            ("BEGIN TRANSACTION;", "BEGIN TRANSACTION;\nCREATE TABLE other(x);", false),
            ("\"section\" TEXT", "\"section\" TEXT CHECK(length(name) < 100)", false),
            ("\"section\" TEXT", "\"section\" TEXT UNIQUE", false),
            // a text a number column makes a number of; an integer a text column makes text
            ("VALUES(1,NULL,0,'Milk',0,NULL,'Today',2,", "VALUES(1,NULL,0,'Milk',0,NULL,'Today','2',", false),
            ("VALUES(1,NULL,0,'Milk',", "VALUES(1,NULL,0,5,", false),
            ("'2026-01-02T09:00:00Z',NULL,NULL,NULL,NULL);", "'2026-01-02',NULL,NULL,NULL,NULL);", false),
            ("VALUES(1,NULL,0,'Milk',0,NULL,'Today',2,", "VALUES(1,NULL,0,'Milk',0,NULL,'Today',2.5,", false),
            ("VALUES(1,NULL,0,'Milk',0,NULL,'Today',2,", "VALUES(1,NULL,0,'Milk',0,NULL,'Today',X'02',", false),
            (
                "VALUES(1,NULL,0,'Milk',0,NULL,'Today',2,",
                "VALUES(1,NULL,0,'Milk',0,NULL,'Today',-9223372036854775808,", false
            ),
            ("VALUES(1,NULL,0,'Milk',", "VALUES(1,NULL,0,'Mi'||'lk',", false),
            ("VALUES(1,NULL,0,'Milk',", "VALUES(1,NULL,0,'Mi\u{FFFD}lk',", true),
            // rows out of the order the table is read in, or nested elsewhere
            ("VALUES(3,2,0,", "VALUES(30,2,0,", false),
            ("VALUES(3,2,0,", "VALUES(3,7,0,", false),
            ("VALUES(5,2,1,", "VALUES(5,2,0,", false),
            ("VALUES(6,NULL,2,", "VALUES(6,NULL,0,", false),
            ("VALUES(6,NULL,2,", "VALUES(6,NULL,7,", false),
            ("VALUES(6,NULL,2,", "VALUES(6,NULL,1,", true),
            ("VALUES(8,NULL,4,", "VALUES(8,NULL,9,", true),
            // what reads the same however it is spelled
            ("VALUES(2,NULL,1,'Eggs ''quoted'' and ''''twice''''',1,", "VALUES(2,NULL,1,'Eggs',5,", true),
            ("VALUES(1,NULL,0,'Milk',0,NULL,", "VALUES(1,NULL,0,'Milk',0,'x',", true),
            ("VALUES(1,NULL,0,'Milk',0,NULL,", "VALUES(1,NULL,0,'Milk',0,'not a status',", true),
            ("VALUES(3,2,0,'Brown',0,NULL,NULL,", "VALUES(3,2,0,'Brown',0,NULL,'A section',", true),
            ("VALUES(1,NULL,0,'Milk',0,NULL,'Today',2,", "VALUES(1,NULL,0,'Milk',0,NULL,'Today',002,", true),
            ("VALUES(1,NULL,0,'Milk',", "VALUES(1,NULL,0,'Mi\nlk',", true),
            // a dump cut short, or broken: the error running it gives
            ("'Last',0,NULL,'Later',NULL,NULL,12,NULL,NULL,'2026-01-02T09:00:00Z');", "'Last',0,NULL", false),
            ("VALUES(1,NULL,0,'Milk',", "VALUES(1,NULL,0,'Milk,", false),
        ])
    func runWhereTextDoesNotSay(replacing: String, with: String, readsText: Bool) throws {
        let directory = try TemporaryDirectory()
        let path = try Self.dump(of: Self.checklist, in: directory)
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.contains(replacing), "\(text)")
        try text.replacingOccurrences(of: replacing, with: with).write(toFile: path, atomically: false, encoding: .utf8)
        #expect(try Self.readsText(path) == readsText, "\(with)")
        let (fromText, run) = try Self.bothReads(path)
        Self.expectSame(fromText, run, with)
    }

    @Test("a text that is not UTF-8, a NUL, and an empty table are run")
    func runBytes() throws {
        let directory = try TemporaryDirectory()
        let path = try Self.dump(of: Self.checklist, in: directory)
        let original = try Data(contentsOf: URL(fileURLWithPath: path))
        let at = original.range(of: Data("Milk".utf8))!.lowerBound
        for byte: UInt8 in [0xFF, 0x00] {
            var bytes = original
            bytes[at + 1] = byte
            try bytes.write(to: URL(fileURLWithPath: path))
            #expect(try !Self.readsText(path))
            let (text, run) = try Self.bothReads(path)
            Self.expectSame(text, run, "byte \(byte)")
        }
        let empty = try Self.dump(of: "- [ ] only\n", in: directory, as: "empty")
        let lines = try String(contentsOfFile: empty, encoding: .utf8).split(separator: "\n").filter {
            !$0.hasPrefix("INSERT")
        }
        try (lines.joined(separator: "\n") + "\n").write(toFile: empty, atomically: false, encoding: .utf8)
        #expect(try !Self.readsText(empty))
        let (text, run) = try Self.bothReads(empty)
        Self.expectSame(text, run, "no rows")
    }

    @Test(
        "an edit of a dump read from its text writes what the edit of the dump run writes",
        arguments: [
            Edit.toggle([.position([2, 1])]), .check([.position([1])]), .rename(.position([4]), to: "It's renamed"),
            .add(name: "new", under: nil, at: nil), .add(name: "new", under: nil, at: [2]),
            .add(name: "child", under: .position([2]), at: [1]), .remove([.position([1])]),
            .remove([.position([2, 1, 1])]), .remove([.position([5])]), .move(.position([4]), to: [1]),
            .move(.position([1]), to: [1, 2]), .set(.position([3]), [Field("prio", .integer(9))]),
            .set(.position([3]), [Field("new", .string("key"))]), .unset(.position([1]), ["due"]),
            .unset(.position([4]), ["big"]),
        ])
    func edits(edit: Edit) throws {
        let directory = try TemporaryDirectory()
        let path = try Self.dump(of: Self.checklist, in: directory)
        let reference = directory.path("reference.sql")
        try FileManager.default.copyItem(atPath: path, toPath: reference)
        _ = try FileEdit(file: URL(fileURLWithPath: path), edits: [edit]).run()

        // The edit as it was made before dumps were read from their text: run, edited, run again.
        guard case .success(let list) = try Self.bothReads(reference).run else {
            Issue.record("the dump does not read")
            return
        }
        var tree = TreeList(list)
        try edit.apply(to: &tree, file: reference)
        var options = ListOptions()
        if let moved = tree.moved { options.schema.moved = [moved] }
        try SQLDumpFormat().loadingUpdate(Input(file: reference), with: tree.list, options: options).commit()
        #expect(
            try Data(contentsOf: URL(fileURLWithPath: path)) == Data(contentsOf: URL(fileURLWithPath: reference)),
            "\(edit)")
    }

    /// `checklist` without the key whose values are of two kinds, one a date (which read back
    /// are texts, so that a new dump of the list types the column otherwise): its dump is
    /// exactly what todofmt writes for the list it holds.
    static let fresh = checklist.replacingOccurrences(of: " [when:: soon]", with: "").replacingOccurrences(
        of: " [when:: 2026-01-02T09:00:00Z]", with: "")

    static func isFresh(_ path: String) throws -> Bool {
        guard let mapped = MappedFile(path: path) else { return false }
        return withExtendedLifetime(mapped) {
            OwnDumpText(mapped.bytes, name: path, options: ListOptions(), fresh: true) != nil
        }
    }

    @Test("a dump is exactly what todofmt writes for its list only where nothing is spelled or typed otherwise")
    func freshness() throws {
        let directory = try TemporaryDirectory()
        let path = try Self.dump(of: Self.fresh, in: directory)
        #expect(try Self.isFresh(path))
        let original = try String(contentsOfFile: path, encoding: .utf8)
        for (replacing, with) in [
            ("VALUES(1,NULL,0,'Milk',0,NULL,'Today',2,", "VALUES(1,NULL,0,'Milk',0,NULL,'Today',002,"),
            ("VALUES(3,2,0,'Brown',0,NULL,NULL,", "VALUES(3,2,0,'Brown',0,NULL,'A section',"),
            ("VALUES(1,NULL,0,'Milk',0,NULL,", "VALUES(1,NULL,0,'Milk',0,'x',"),
            ("VALUES(2,NULL,1,'Eggs ''quoted'' and ''''twice''''',1,", "VALUES(2,NULL,1,'Eggs',5,"),
            ("VALUES(6,NULL,2,", "VALUES(6,NULL,3,"),
            (
                "VALUES(1,NULL,0,'Milk',0,NULL,'Today',2,'2026-01-02T09:00:00Z',",
                "VALUES(1,NULL,0,'Milk',0,NULL,'Today',2,'2026-01-02T10:00:00+01:00',"
            ),
            ("COMMIT;\n", "COMMIT;"),
            ("\"prio\" INTEGER", "\"prio\""),
        ] {
            #expect(original.contains(replacing), "\(replacing)")
            try original.replacingOccurrences(of: replacing, with: with).write(
                toFile: path, atomically: false, encoding: .utf8)
            #expect(try Self.readsText(path), "\(with)")
            #expect(try !Self.isFresh(path), "\(with)")
        }
        #expect(try !Self.isFresh(Self.dump(of: Self.checklist, in: directory, as: "kinds")))
    }

    @Test(
        "edits of a run of items change its rows as comparing a new dump does, without one",
        arguments: [
            (Edit.toggle([.position([1])]), true), (.toggle([.position([2, 1, 1])]), true),
            (.check([.position([2])]), true), (.uncheck([.position([2])]), true),
            (.check([.position([2, 1])]), true), (.rename(.position([4]), to: "It's renamed"), true),
            (.rename(.position([2, 1]), to: "two\nlines"), false), (.rename(.position([1]), to: "Milk"), true),
            (.rename(.position([1]), to: "2026-01-02T09:00:00Z"), true),
            (.add(name: "new 'one' 🚀", under: nil, at: nil), true), (.add(name: "a\rb", under: nil, at: nil), false),
            (.add(name: "first", under: nil, at: [1]), true), (.add(name: "third", under: nil, at: [3]), true),
            (.add(name: "child", under: .position([2]), at: nil), true),
            (.set(.position([1]), [Field("prio", .integer(3))]), true),
            (.unset(.position([2, 2]), ["prio"]), true), (.toggle([.position([9])]), false),
            // the only value of a key gone, a new key, another kind: the columns change
            (.unset(.position([1]), ["due"]), false), (.set(.position([1]), [Field("new", .string("key"))]), false),
            (.set(.position([1]), [Field("prio", .string("high"))]), false), (.remove([.position([4])]), false),
            // values SQLite cannot hold: the whole write warns of them
            (.set(.position([5]), [Field("owner", .null)]), false),
            (.set(.position([5]), [Field("owner", .bigInteger("99999999999999999999"))]), false),
            (.set(.position([5]), [Field("new", .null)]), false),
            (.set(.position([2, 2]), [Field("prio", .null)]), false),
            (.remove([.position([5])]), false), (.remove([.position([2, 2])]), true),
            // a key that first had a value in the run comes later, or earlier than another's
            (.remove([.position([2, 1])]), false), (.move(.position([4]), to: [1]), false),
            (.move(.position([1]), to: [3]), false), (.move(.position([5]), to: [4]), true),
            (.move(.position([2, 2]), to: [2, 1]), true),
        ])
    func editsAlone(edit: Edit, alone: Bool) throws {
        let directory = try TemporaryDirectory()
        for checklist in [Self.fresh, Self.checklist] {
            let path = try Self.dump(of: checklist, in: directory)
            let original = try Data(contentsOf: URL(fileURLWithPath: path))
            var results: [(data: Data, outcome: String, alone: Bool)] = []
            for editsAlone in [true, false] {
                try original.write(to: URL(fileURLWithPath: path))
                var fileEdit = FileEdit(file: URL(fileURLWithPath: path), edits: [edit])
                fileEdit.editsItemAlone = editsAlone
                do {
                    let result = try fileEdit.run()
                    results.append(
                        (try Data(contentsOf: URL(fileURLWithPath: path)), "\(result.warnings)", result.madeAlone))
                } catch {
                    results.append((try Data(contentsOf: URL(fileURLWithPath: path)), "\(error)", false))
                }
            }
            #expect(results[0].data == results[1].data, "\(edit)")
            #expect(results[0].outcome == results[1].outcome, "\(edit)")
            // Only the dump exactly as todofmt writes it is edited alone.
            #expect(results[0].alone == (alone && checklist == Self.fresh), "\(edit)")
        }
    }

    @Test("edits in a longer dump, which move every row after them, change them as comparing a new dump does")
    func longer() throws {
        let directory = try TemporaryDirectory()
        var lines: [String] = []
        for i in 0..<300 {
            if i % 50 == 0 { lines.append("# Section \(i / 50)") }
            lines.append("- [\(i % 4 == 0 ? "x" : " ")] Item \(i) [n:: \(i)]")
            if i % 3 == 0 { lines.append("  - [ ] child \(i) [tag:: t\(i % 5)]") }
            if i % 21 == 0 { lines.append("    - [/] grandchild \(i)") }
        }
        let path = try Self.dump(of: lines.joined(separator: "\n") + "\n", in: directory)
        #expect(try Self.isFresh(path))
        let edits: [(Edit, Bool)] = [
            (.remove([.position([150])]), true), (.remove([.position([1])]), false),
            (.remove([.position([300])]), true),
            (.move(.position([150]), to: [10]), true), (.move(.position([10]), to: [200]), true),
            (.move(.position([152]), to: [151, 1]), true), (.add(name: "new", under: nil, at: [100]), true),
            (.add(name: "new child", under: .position([150]), at: [1]), true), (.toggle([.position([151, 1])]), true),
            (.remove([.position([22, 1, 1])]), true), (.move(.position([300]), to: [1]), true),
            (.move(.position([1]), to: [300]), true), (.move(.position([22]), to: [23]), true),
            (.move(.position([50]), to: [51]), true),
        ]
        try Self.expectAloneAsWhole(path, edits)
    }

    /// Each edit of the dump at `path` made on its rows alone (where `alone` says it is) writes
    /// what the whole write writes, and changes the file.
    static func expectAloneAsWhole(_ path: String, _ edits: [(Edit, Bool)]) throws {
        let original = try Data(contentsOf: URL(fileURLWithPath: path))
        for (edit, alone) in edits {
            var results: [(data: Data, alone: Bool)] = []
            for editsAlone in [true, false] {
                try original.write(to: URL(fileURLWithPath: path))
                var fileEdit = FileEdit(file: URL(fileURLWithPath: path), edits: [edit])
                fileEdit.editsItemAlone = editsAlone
                let result = try fileEdit.run()
                results.append((try Data(contentsOf: URL(fileURLWithPath: path)), result.madeAlone))
            }
            #expect(results[0].data == results[1].data, "\(edit)")
            #expect(results[0].alone == alone, "\(edit)")
            #expect(results[0].data != original, "\(edit)")
        }
    }

    @Test("edits that move rows with a line feed in a text leave them to the whole write, which gives up on them")
    func lineFeedsInTexts() throws {
        let directory = try TemporaryDirectory()
        // Items 10 and 30 have a note of two lines (which the shell writes with `replace(…)`).
        let items = (1...40).map { i in
            #"{"name": "Item \#(i)", "checked": false"# + (i % 20 == 10 ? #", "note": "line \#(i)\nline two"}"# : "}")
        }
        let source = directory.path("lines.json")
        try ("[" + items.joined(separator: ",\n") + "]\n").write(toFile: source, atomically: false, encoding: .utf8)
        let path = directory.path("lines.sql")
        _ = try Conversion(input: .at(source), output: .at(path)).run()
        #expect(try String(contentsOfFile: path, encoding: .utf8).contains("'line 30\nline two'"))
        #expect(try Self.isFresh(path))
        try Self.expectAloneAsWhole(
            path,
            [
                (.remove([.position([35])]), true), (.remove([.position([20])]), false),
                (.move(.position([35]), to: [32]), true), (.move(.position([5]), to: [15]), false),
                (.move(.position([31]), to: [20]), false), (.add(name: "new", under: nil, at: [36]), true),
                (.add(name: "new", under: nil, at: [25]), false), (.rename(.position([30]), to: "renamed"), false),
            ])
    }

    /// A checklist of `count` top-level items, each with a field and a child under every
    /// third: its dump's rows fill several of the reader's 64 KiB blocks.
    static func long(_ count: Int) -> String {
        (0..<count).map { i in
            "- [\(i % 4 == 0 ? "x" : " ")] Item \(i) 日本語 [n:: \(i)]\n" + (i % 3 == 0 ? "  - [ ] child \(i)\n" : "")
        }.joined()
    }

    @Test("a byte a dump read from its text cannot hold is found in its rows' first, a middle or last block")
    func checkedInBlocks() throws {
        let directory = try TemporaryDirectory()
        let path = try Self.dump(of: Self.long(3000), in: directory)
        let original = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(original.count > 3 << 16)
        #expect(try Self.isFresh(path))
        for name in ["'Item 0 ", "'Item 1500 ", "'Item 2999 "] {
            let at = original.range(of: Data(name.utf8))!.lowerBound + 2  // (the `t` of `Item`)
            // Not UTF-8, a lead byte with no continuation, a NUL; a carriage return.
            for byte: UInt8 in [0xFF, 0xC3, 0x00, 13] {
                var bytes = original
                bytes[at] = byte
                try bytes.write(to: URL(fileURLWithPath: path))
                #expect(try Self.readsText(path) == (byte == 13), "\(name) \(byte)")
                #expect(try !Self.isFresh(path), "\(name) \(byte)")
                let (text, run) = try Self.bothReads(path)
                Self.expectSame(text, run, "\(name) \(byte)")
            }
        }
    }
}
