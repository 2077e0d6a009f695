import Foundation
import Testing

@testable import TodoFormat

/// A new SQL dump is written as the items stream (`DumpWriter`): its rows wait, in memory and
/// then in a temporary file, until the table's columns are known, and rows from before a
/// key's first value get its column's `NULL` as they are copied. The dump must be what the
/// sqlite3 shell's `.dump` prints for the database todofmt writes from the same list.
@Suite("SQL dumps written as the items stream")
struct DumpWriterTests {
    static let checklist = """
        # Home
        - [ ] Milk it's "whole"
          - [x] Eggs
            - [/] Brown [prio:: 2]
        - [-] Café 日本語 😀
        - [ ] Bread [prio:: high] [n:: 1.5]
        # Work
        - [x] Mail [prio:: 3] [late:: yes] [when:: 2026-01-02T09:00:00Z]
          - [ ] Reply [n:: -0.25]
        - [ ] Last

        """

    /// The dump todofmt writes for the checklist, and the shell's dump of the database
    /// todofmt writes for it.
    static func dumps(of checklist: String, in directory: TemporaryDirectory) throws -> (todofmt: String, shell: String)
    {
        let source = directory.path("list.md")
        try checklist.write(toFile: source, atomically: false, encoding: .utf8)
        _ = try Conversion(input: .at(source), output: .at(directory.path("list.sql"))).run()
        _ = try Conversion(input: .at(source), output: .at(directory.path("list.db"))).run()
        return (
            try String(contentsOfFile: directory.path("list.sql"), encoding: .utf8),
            try Databases.dump(directory.path("list.db"))
        )
    }

    @Test("a dump is the shell's dump of todofmt's database, columns added late included")
    func sameAsShell() throws {
        let directory = try TemporaryDirectory()
        let (dump, shell) = try Self.dumps(of: Self.checklist, in: directory)
        #expect(dump == shell)
        // Rows before `late` first had a value have its column too, empty.
        #expect(
            dump.contains(
                "INSERT INTO todo_items VALUES(1,NULL,0,'Milk it''s \"whole\"',0,NULL,'Home',NULL,NULL,NULL,NULL);"
            ))
        #expect(try TodoList(contentsOf: .file(directory.path("list.sql"))) == TodoList(markdown: Self.checklist))
    }

    /// A row without a section ends in `NULL`, four bytes where the room asked for counted
    /// the last section's literal: three bytes past it, which corrupted the heap where the
    /// sink's storage ended there (a name of 484 letters, written to standard output).
    @Test("rows without a section, of every length around the sink's storage, are the shell's dump")
    func rowsWithoutSection() throws {
        let directory = try TemporaryDirectory()
        let names = (470..<530).map { String(repeating: "a", count: $0) }
        let checklist = names.map { "- [ ] \($0)\n" }.joined()
        let dumps = try Self.dumps(of: checklist, in: directory)
        #expect(dumps.todofmt == dumps.shell)
    }

    @Test("a key given twice, null first, is null in its column, as the database has it")
    func nullFirst() throws {
        let directory = try TemporaryDirectory()
        let (dump, shell) = try Self.dumps(of: "- [ ] x [k:: null] [k:: 1]\n- [ ] y [k:: 2]\n", in: directory)
        #expect(dump == shell)
        #expect(dump.contains("VALUES(1,NULL,0,'x',0,NULL,NULL,NULL);"))
    }

    @Test("rows past the memory the writer keeps go through a temporary file, and none is left beside the dump")
    func manyRows() throws {
        let directory = try TemporaryDirectory()
        // About 7 MB of rows; a key first has a value in the last item.
        var lines = (1...60_000).map { "- [\($0 % 3 == 0 ? "x" : " ")] Item \($0) with a name long enough to fill" }
        lines.append("  - [ ] Nested last [key:: 1]")
        let (dump, shell) = try Self.dumps(of: lines.joined(separator: "\n") + "\n", in: directory)
        #expect(dump == shell)
        #expect(dump.hasSuffix("INSERT INTO todo_items VALUES(60001,60000,0,'Nested last',0,NULL,NULL,1);\nCOMMIT;\n"))
        #expect(
            dump.contains(
                "INSERT INTO todo_items VALUES(7,NULL,6,'Item 7 with a name long enough to fill',0,NULL,NULL,NULL);"))
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: directory.url.path).sorted() == [
                "list.db", "list.md", "list.sql",
            ])
    }

    /// Past the rows kept in memory, the rows go into the output after the header the keys
    /// so far give; where a key comes later or a column's type changes, they are moved out
    /// and the dump written again. Either way it is the shell's dump.
    @Test(
        "rows past the memory the writer keeps follow a header guessed from the keys so far, or are moved when it does not hold",
        arguments: [
            ("every key early, the first row without them", "", ""),
            ("a column's type changes after the guess", "", "  - [ ] Last [prio:: soon]"),
            ("a key first has a value after the guess", "", "- [ ] Last [late:: yes] [prio:: 1]"),
            ("a key early and once only", "- [ ] Second [once:: 2026-01-02T09:00:00Z]", ""),
        ])
    func guessedHeader(_ name: String, early: String, late: String) throws {
        let directory = try TemporaryDirectory()
        var lines = ["- [ ] First, with no fields"]
        if !early.isEmpty { lines.append(early) }
        lines += (1...60_000).map {
            "- [\($0 % 3 == 0 ? "x" : " ")] Item \($0) with a long enough name [prio:: \($0 % 5)]"
        }
        if !late.isEmpty { lines.append(late) }
        let (dump, shell) = try Self.dumps(of: lines.joined(separator: "\n") + "\n", in: directory)
        #expect(dump == shell, "\(name)")
        #expect(dump.hasPrefix("PRAGMA foreign_keys=OFF;\nBEGIN TRANSACTION;\nCREATE TABLE"))
        #expect(dump.hasSuffix(");\nCOMMIT;\n"))
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: directory.url.path).sorted() == [
                "list.db", "list.md", "list.sql",
            ])
    }

    @Test("what SQLite cannot give back is warned of as for a database, each warning by its first item")
    func warnings() throws {
        let directory = try TemporaryDirectory()
        let json = directory.path("in.json")
        try """
        [{"name": "a", "fields": {"z": 1.5}},
         {"name": "b", "fields": {"big": 123456789012345678901234, "z": -0.0, "gone": null}},
         {"name": "c", "fields": {"t": "x", "w": -0.0, "z": -0.0}},
         {"name": "d", "fields": {"t": -0.0}}]
        """.write(toFile: json, atomically: false, encoding: .utf8)
        let dump = try Conversion(input: .at(json), output: .at(directory.path("x.sql"))).run()
        let database = try Conversion(input: .at(json), output: .at(directory.path("x.db"))).run()
        #expect(dump == database)
        #expect(dump.map(\.count) == [1, 3, 1])
        #expect(dump.map(\.firstItem) == ["2 b", "2 b", "2 b"])
        // -0.0 only where the column converts reals (`z`, `w`), not in the mixed column `t`.
        #expect(
            dump[0].message.contains("64 bits") && dump[1].message.contains("-0.0") && dump[2].message.contains("null"))
    }

    /// The streamed write of the checklist at `source` into the dump at `path`; nil where
    /// it does not apply.
    static func streamed(_ source: String, into path: String) throws -> PendingWrite? {
        try SQLDumpFormat().update(Input(file: path), options: ListOptions()) { writer in
            _ = try MarkdownFormat().read(
                Input(file: source), options: ListOptions(), into: &writer, leavingOutTextFor: .sql)
        }
    }

    @Test("writing a list into a dump that already holds it leaves the file as it was")
    func unchanged() throws {
        let directory = try TemporaryDirectory()
        let source = directory.path("list.md")
        try Self.checklist.write(toFile: source, atomically: false, encoding: .utf8)
        let path = directory.path("list.sql")
        _ = try Conversion(input: .at(source), output: .at(path)).run()
        let before = try FileManager.default.attributesOfItem(atPath: path)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        let pending = try #require(try Self.streamed(source, into: path))
        #expect(pending.warnings.isEmpty)
        try pending.commit()
        let after = try FileManager.default.attributesOfItem(atPath: path)
        #expect(after[.systemFileNumber] as? Int == before[.systemFileNumber] as? Int)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == bytes)

        // A list with a value the table changes (-0.0 stored as 0) is not written this way:
        // loading the dump and writing the list into it decides.
        try "- [ ] Zero [z:: -0.0]\n".write(toFile: source, atomically: false, encoding: .utf8)
        try FileManager.default.removeItem(atPath: path)
        _ = try Conversion(input: .at(source), output: .at(path)).run()
        #expect(try Self.streamed(source, into: path) == nil)
    }
}

/// Writing a checklist into a dump todofmt wrote, edited since, by comparing the new dump's
/// bytes with the file's (`DumpStreamedUpdate`): each edit must give the bytes that loading
/// the dump and writing the list into it gives (`update(_:with:options:)`).
@Suite("Streamed writes into existing SQL dumps")
struct DumpStreamedUpdateTests {
    /// The checklist at `source` written into the dump at `path` as it streams (nil where
    /// that does not apply), and into a copy at `wholePath` by loading it.
    static func both(_ source: String, into path: String, whole wholePath: String) throws -> PendingWrite? {
        try FileManager.default.copyItem(atPath: path, toPath: wholePath)
        let list = try TodoList(contentsOf: .file(source))
        try SQLDumpFormat().loadingUpdate(Input(file: wholePath), with: list, options: ListOptions()).commit()
        let pending = try DumpWriterTests.streamed(source, into: path)
        try pending?.commit()
        return pending
    }

    @Test(
        "each edit gives the bytes of the write that loads the dump", arguments: StreamedUpdateTests.edits.map(\.name))
    func sameAsLoaded(name: String) throws {
        let directory = try TemporaryDirectory()
        let base = directory.path("base.md")
        // Values the shell spells as todofmt does, in rows that change: no reals or line breaks.
        let checklist = StreamedUpdateTests.base.replacingOccurrences(
            of: "[due:: 2026-01-02T09:00:00Z]", with: "[due:: soon]")
        try checklist.write(toFile: base, atomically: false, encoding: .utf8)
        let path = directory.path("list.sql")
        _ = try Conversion(input: .at(base), output: .at(path)).run()
        try FileManager.default.copyItem(atPath: path, toPath: directory.path("base.sql"))
        let edit = StreamedUpdateTests.edits.first { $0.name == name }!.edit
        let edited = directory.path("edited.md")
        try edit(checklist.components(separatedBy: "\n")).joined(separator: "\n").write(
            toFile: edited, atomically: false, encoding: .utf8)
        let whole = directory.path("whole.sql")
        let pending = try Self.both(edited, into: path, whole: whole)
        if pending == nil {
            try SQLDumpFormat().loadingUpdate(
                Input(file: path), with: TodoList(contentsOf: .file(edited)), options: ListOptions()
            )
            .commit()
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Data(contentsOf: URL(fileURLWithPath: whole)))
        // Every edit is written so but where the table's columns change (a key's only value
        // gone, or of another kind): the new dump differs before its first row.
        _ = try Conversion(input: .at(edited), output: .at(directory.path("new.sql"))).run()
        func create(_ path: String) throws -> String? {
            try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").first { $0.hasPrefix("CREATE") }
                .map(String.init)
        }
        #expect((pending != nil) == (try create(directory.path("new.sql")) == create(directory.path("base.sql"))))
        #expect(
            try TodoList(contentsOf: .file(path)).flattened().map(\.item.name)
                == TodoList(contentsOf: .file(edited)).flattened().map(\.item.name))
    }

    @Test("checking one item of many changes one line")
    func oneLine() throws {
        let directory = try TemporaryDirectory()
        let lines = (1...500).map { "- [ ] Item \($0) [n:: \($0)]" }
        let source = directory.path("list.md")
        try (lines.joined(separator: "\n") + "\n").write(toFile: source, atomically: false, encoding: .utf8)
        let path = directory.path("list.sql")
        _ = try Conversion(input: .at(source), output: .at(path)).run()
        let before = try String(contentsOfFile: path, encoding: .utf8)
        try (StreamedUpdateTests.set(lines, 249, "- [x] Item 250 [n:: 250]").joined(separator: "\n") + "\n").write(
            toFile: source, atomically: false, encoding: .utf8)
        #expect(try Self.both(source, into: path, whole: directory.path("whole.sql")) != nil)
        let after = try String(contentsOfFile: path, encoding: .utf8)
        let changed = zip(before.split(separator: "\n"), after.split(separator: "\n")).filter { $0 != $1 }
        #expect(changed.map(\.1) == ["INSERT INTO todo_items VALUES(250,NULL,249,'Item 250',1,NULL,NULL,250);"])
        #expect(after == (try String(contentsOfFile: directory.path("whole.sql"), encoding: .utf8)))
    }

    @Test(
        "rows the loading write would write otherwise, or cannot tell apart, are left to it",
        arguments: [
            // A real in a changed row: the shell writes 20 digits.
            ("- [ ] A [n:: 1.5]\n- [ ] B\n", "- [x] A [n:: 1.5]\n- [ ] B\n", nil as String?),
            // A date written otherwise in the file: the same value.
            (
                "- [ ] A [d:: 2026-01-02T09:00:00Z]\n", "- [x] A [d:: 2026-01-02T09:00:00Z]\n",
                "'2026-01-02T10:00:00+01:00'"
            ),
            // A number written otherwise.
            ("- [ ] A [n:: 7]\n", "- [x] A [n:: 7]\n", "07"),
            // Another spacing.
            ("- [ ] A\n- [ ] B\n", "- [x] A\n- [ ] B\n", "1, NULL"),
        ])
    func givesUp(before: String, after: String, respell: String?) throws {
        let directory = try TemporaryDirectory()
        let source = directory.path("list.md")
        try before.write(toFile: source, atomically: false, encoding: .utf8)
        let path = directory.path("list.sql")
        _ = try Conversion(input: .at(source), output: .at(path)).run()
        if let respell {
            var text = try String(contentsOfFile: path, encoding: .utf8)
            let original = ["'2026-01-02T09:00:00Z'", "7);", "1,NULL"].first { text.contains($0) }!
            text = text.replacingOccurrences(of: original, with: original.hasSuffix(");") ? respell + ");" : respell)
            try text.write(toFile: path, atomically: false, encoding: .utf8)
        }
        try after.write(toFile: source, atomically: false, encoding: .utf8)
        #expect(try Self.both(source, into: path, whole: directory.path("whole.sql")) == nil)
    }
}

extension DumpWriterTests {
    @Test("a key named as the row's id gets a column named field:KEY, in a dump and a database, and reads back")
    func rowIDKeys() throws {
        let directory = try TemporaryDirectory()
        let checklist = "- [ ] A [rowid:: 7] [OID:: x] [_rowid_:: 1.5]\n- [x] B\n"
        let (dump, shell) = try Self.dumps(of: checklist, in: directory)
        #expect(dump == shell)
        #expect(dump.contains(#""field:rowid" INTEGER, "field:OID" TEXT, "field:_rowid_" REAL"#))
        #expect(try TodoList(contentsOf: .file(directory.path("list.sql"))) == TodoList(markdown: checklist))
        #expect(try TodoList(contentsOf: .file(directory.path("list.db"))) == TodoList(markdown: checklist))
        // Written into again (one box changed), the dump changes one row.
        let edited = directory.path("edited.md")
        try checklist.replacingOccurrences(of: "- [x] B", with: "- [ ] B").write(
            toFile: edited, atomically: false, encoding: .utf8)
        _ = try Conversion(input: .at(edited), output: .at(directory.path("list.sql"))).run()
        let after = try String(contentsOfFile: directory.path("list.sql"), encoding: .utf8)
        #expect(after == dump.replacingOccurrences(of: "'B',1,", with: "'B',0,"))
    }
}

/// A writer that assumes the header of the dump it is compared with (`DumpWriter.Assumption`)
/// writes each row as it comes, and must write the very bytes of one that learns the header
/// from the list; where the list has other columns it stops or says so.
@Suite("SQL dumps written assuming the file's header")
struct DumpAssumptionTests {
    /// The dump the writer writes for `checklist`, assuming `assumption`: its bytes and
    /// whether the assumption held; nil where the writer stopped.
    static func write(_ checklist: String, assuming assumption: DumpWriter.Assumption?) throws -> ([UInt8], Bool)? {
        let facts = DumpWriter.Facts()
        var writer: any ListWriter = DumpWriter(
            sink: ByteSink(), outputName: "x.sql", facts: facts, assuming: assumption)
        do {
            try TodoList(markdown: checklist).send(to: &writer)
        } catch is DumpWriter.Assumption.Failed {
            return nil
        }
        return (try writer.finish().bytes, facts.assumptionHeld)
    }

    static func assumption(of dump: [UInt8]) -> DumpWriter.Assumption? {
        dump.withUnsafeBufferPointer {
            DumpStreamedUpdate(table: ListTable.ownName).assumption($0, table: ListTable.ownName)
        }
    }

    @Test("the header assumed from a dump gives that dump's bytes, keys named like columns included")
    func sameBytes() throws {
        for checklist in [
            DumpWriterTests.checklist, "- [ ] a [status:: x] [ID:: 3] [field:y:: 1]\n- [ ] b [late:: 2]\n",
            "- [ ] no fields\n",
        ] {
            let (dump, _) = try #require(try Self.write(checklist, assuming: nil))
            let assumption = try #require(Self.assumption(of: dump))
            let (assumed, held) = try #require(try Self.write(checklist, assuming: assumption))
            #expect(held)
            #expect(assumed == dump)
        }
        #expect(Self.assumption(of: Array("PRAGMA foreign_keys=OFF;\nBEGIN TRANSACTION;\nCOMMIT;\n".utf8)) == nil)
    }

    @Test(
        "other columns than the header's: a new key, keys in another order or a key before it without a value stop the writer; other types, or the last key without a value, do not hold",
        arguments: [
            ("- [ ] Bread [prio:: high] [n:: 1.5]", "- [ ] Bread [prio:: high] [n:: 1.5] [new:: 1]", false),
            ("- [/] Brown [prio:: 2]", "- [/] Brown [n:: 2] [prio:: 2]", false),
            ("[n:: -0.25]", "[n:: text]", true),
            ("[late:: yes]", "", false),
            (" [when:: 2026-01-02T09:00:00Z]", "", true),
        ])
    func otherColumns(old: String, new: String, finishes: Bool) throws {
        let (dump, _) = try #require(try Self.write(DumpWriterTests.checklist, assuming: nil))
        let assumption = try #require(Self.assumption(of: dump))
        #expect(DumpWriterTests.checklist.contains(old))
        let changed = DumpWriterTests.checklist.replacingOccurrences(of: old, with: new)
        let result = try Self.write(changed, assuming: assumption)
        #expect((result != nil) == finishes)
        if let (_, held) = result { #expect(!held) }
    }
}

/// Runs of plain items (`items(plain:text:sections:)`, as a checklist's reader hands them
/// over) take a section once for each run in it, by its index: the rows must be those of
/// the same items handed over one by one.
@Suite("SQL dumps from runs of plain items")
struct DumpPlainRunTests {
    @Test("runs with sections changing within them give the rows of the items one by one", arguments: 0..<4)
    func runs(seed: Int) throws {
        var rng = SeededGenerator(seed: UInt64(seed))
        var single = DumpWriter(sink: ByteSink(), outputName: "x.sql")
        var batched = DumpWriter(sink: ByteSink(), outputName: "x.sql")
        let sections = ["Home", "it's", "日本語", "Home", "🎉 party"]
        let names = ["milk", "it's", "café crème", "買い物", "🎉", "a\\b", "x"]
        let statuses: [TodoStatus] = [.open, .done, .custom("/"), .custom("-"), .custom("'")]
        var depth = -1
        for _ in 0..<10 {
            var text: [UInt8] = []
            var run: [PlainItem] = []
            var section = Int.random(in: -1..<sections.count, using: &rng)
            for _ in 0..<Int.random(in: 1...30, using: &rng) {
                depth = Int.random(in: 0...(depth + 1), using: &rng)
                if Int.random(in: 0..<4, using: &rng) == 0 {
                    section = Int.random(in: -1..<sections.count, using: &rng)
                }
                let name = names.randomElement(using: &rng)!
                let status = statuses.randomElement(using: &rng)!
                let start = text.count
                text += Array(name.utf8)
                run.append(
                    PlainItem(nameStart: start, nameEnd: text.count, status: status, depth: depth, section: section))
                try Array(name.utf8).withUnsafeBufferPointer {
                    try single.item(
                        plainName: $0, status: status, section: section >= 0 ? sections[section] : nil, depth: depth)
                }
            }
            try text.withUnsafeBufferPointer { try batched.items(plain: run[...], text: $0, sections: sections) }
        }
        let expected = String(decoding: try single.finish().bytes, as: UTF8.self)
        #expect(expected.contains("'🎉 party'") && expected.contains("'it''s'"))
        #expect(String(decoding: try batched.finish().bytes, as: UTF8.self) == expected)
    }
}
