import Foundation
import Testing

@testable import TodoFormat

/// `--dry-run` (`FileEdit.dryRun`) makes the edit on a copy and says what changed: it must
/// say what the real edit then does, and leave the file and the folder it is in as they were.
@Suite("Dry runs show the real edit and change nothing")
struct DryRunTests {
    /// The files in a folder, with their bytes.
    static func contents(of directory: TemporaryDirectory) throws -> [String: Data] {
        var all: [String: Data] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: directory.url.path) {
            let path = directory.path(name)
            if let target = try? FileManager.default.destinationOfSymbolicLink(atPath: path) {
                all[name] = Data(target.utf8)
            } else {
                all[name] = try Data(contentsOf: URL(fileURLWithPath: path))
            }
        }
        return all
    }

    /// Runs `edit` as a dry run on `file`, expects the folder unchanged, and returns what it said.
    static func dryRun(_ file: String, _ edit: Edit, in directory: TemporaryDirectory) throws -> String {
        let before = try contents(of: directory)
        var fileEdit = FileEdit(file: URL(fileURLWithPath: file), edits: [edit])
        fileEdit.dryRun = true
        let result = try fileEdit.run()
        #expect(try contents(of: directory) == before, "\(file): \(edit)")
        return result.changes
    }

    @Test(
        "through a symbolic link, absolute or relative, the linked file is copied, not written",
        arguments: [true, false])
    func symbolicLink(absolute: Bool) throws {
        let directory = try TemporaryDirectory()
        for name in ["real.json", "real.sqlite"] {
            let real = directory.path(name)
            _ = try TodoList(items: [TodoItem(name: "a"), TodoItem(name: "b")]).write(to: URL(fileURLWithPath: real))
            let link = directory.path("link-" + name)
            try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: absolute ? real : name)
            for edit in [Edit.check([.position([1])]), .remove([.position([2])])] {
                let changes = try Self.dryRun(link, edit, in: directory)
                #expect(!changes.isEmpty, "\(name): \(edit)")
            }
            try FileManager.default.removeItem(atPath: link)
        }
    }

    @Test("a write-ahead-logged database: no log or shared-memory file is left beside it")
    func writeAheadLog() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("wal.sqlite")
        _ = try TodoList(items: [TodoItem(name: "a"), TodoItem(name: "b")]).write(to: URL(fileURLWithPath: path))
        _ = try Databases.sqlite3(path, ["PRAGMA journal_mode=WAL"])
        let changes = try Self.dryRun(path, .check([.position([1])]), in: directory)
        #expect(changes.contains("+(1, NULL, 0, 'a', 1"))
    }

    @Test("an edit that adds a column of a database says so, and shows the rows as they become")
    func columns() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("columns.sqlite")
        _ = try TodoList(items: [TodoItem(name: "a", fields: [Field("note", .string("x"))]), TodoItem(name: "b")])
            .write(to: URL(fileURLWithPath: path))
        let added = try Self.dryRun(path, .set(.position([2]), [Field("due", .string("soon"))]), in: directory)
        #expect(added.contains("\n+++ todo_items (id, parent, position, name, checked, status, section, note, due)\n"))
        #expect(added.contains("+(2, NULL, 1, 'b', 0, NULL, NULL, NULL, 'soon')"))
        // A column no item uses any more stays (an app may name it): the row's value goes.
        let emptied = try Self.dryRun(path, .unset(.position([1]), ["note"]), in: directory)
        #expect(!emptied.contains("+++"))
        #expect(emptied.contains("-(1, NULL, 0, 'a', 0, NULL, NULL, 'x')\n+(1, NULL, 0, 'a', 0, NULL, NULL, NULL)"))
        // A value the column cannot hold makes the table again, with the same columns.
        _ = try Databases.sqlite3(path, ["ALTER TABLE todo_items ADD COLUMN old TEXT"])
        let retyped = try Self.dryRun(path, .set(.position([1]), [Field("note", .integer(5))]), in: directory)
        #expect(!retyped.contains("+++"))
        #expect(retyped.contains("+(1, NULL, 0, 'a', 0, NULL, NULL, 5, NULL)"))
    }

    @Test("the diff of a CRLF file keeps its line endings and is the diff of the real edit")
    func crlf() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("crlf.json")
        let text = "[{\"name\":\"a\",\"checked\":false},\r\n {\"name\":\"b\",\"checked\":false}]\r\n"
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        let changes = try Self.dryRun(path, .check([.position([2])]), in: directory)
        #expect(!changes.contains("No newline"))
        #expect(changes.hasSuffix("+ {\"name\":\"b\",\"checked\":true}]\r\n"))
        #expect(changes.contains("- {\"name\":\"b\",\"checked\":false}]\r\n"))
    }

    @Test("an empty file: the dry run shows the new file the edit writes", arguments: ["e.sql", "e.sqlite", "e.plist"])
    func emptyFile(_ name: String) throws {
        let directory = try TemporaryDirectory()
        let path = directory.path(name)
        FileManager.default.createFile(atPath: path, contents: Data())
        let changes = try Self.dryRun(path, .add(name: "first", under: nil, at: nil), in: directory)
        _ = try FileEdit(file: URL(fileURLWithPath: path), edits: [.add(name: "first", under: nil, at: nil)]).run()
        #expect(try TodoList(contentsOf: URL(fileURLWithPath: path)).items.map(\.name) == ["first"])
        if name.hasSuffix(".sql") {
            let written = String(decoding: try Data(contentsOf: URL(fileURLWithPath: path)), as: UTF8.self)
            for line in written.split(separator: "\n") { #expect(changes.contains("+" + line + "\n"), "\(line)") }
        } else {
            #expect(changes.contains("first"))
        }
    }

    /// A binary property list's dry run diffs its items as checklist lines, without
    /// positions: one item added before 20,000 others is one line added (the diff of
    /// positioned lines compared every line after it, in memory growing with their square).
    @Test("a binary property list: the items as checklist lines")
    func binaryItems() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("long.plist")
        let items = (0..<20_000).map {
            TodoItem(name: "item \($0)", children: $0 == 5 ? [TodoItem(name: "child")] : [])
        }
        try Data(try TodoList(items: items).encoded(as: .bplist)).write(to: URL(fileURLWithPath: path))
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        var edit = FileEdit(file: URL(fileURLWithPath: path), edits: [.add(name: "new", under: nil, at: [3])])
        edit.dryRun = true
        let result = try edit.run()
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
        let changed = result.changes.split(separator: "\n").filter { $0.hasPrefix("-") || $0.hasPrefix("+") }
        #expect(changed == ["--- a/\(path) (items)", "+++ b/\(path) (items)", "+- [ ] new"], "\(result.changes)")
        edit.edits = [.remove([.position([6, 1])])]
        let removed = try edit.run().changes.split(separator: "\n").filter { $0.hasPrefix("-") || $0.hasPrefix("+") }
        #expect(removed.last == "-  - [ ] child", "\(removed)")
    }

    @Test("an error names the file, not the copy", .needsYAML)
    func errorNamesFile() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("anchors.yaml")
        let text = "- name: a\n  checked: false\n  room: &k kitchen\n- name: b\n  checked: false\n  room: *k\n"
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        var edit = FileEdit(file: URL(fileURLWithPath: path), edits: [.remove([.position([1])])])
        edit.dryRun = true
        do {
            _ = try edit.run()
            Issue.record("removing the anchor's item was not refused")
        } catch {
            #expect("\(error)".contains(path))
            #expect(!"\(error)".contains("todofmt-dry"))
        }
    }
}
