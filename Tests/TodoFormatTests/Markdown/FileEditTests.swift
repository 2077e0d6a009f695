import Foundation
import Testing

@testable import TodoFormat

@Suite("Editing a file: refused when it changed since it was read")
struct FileEditTests {
    @Test("a checklist changed on disk after reading is not overwritten", arguments: ["md", "json"])
    func concurrentChange(_ ext: String) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("todofmt-edit-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("list." + ext)
        let text = ext == "md" ? "- [ ] Milk\n- [ ] Eggs\n" : "[{\"name\": \"Milk\", \"checked\": false}]\n"
        let theirs = ext == "md" ? "- [ ] Milk\n- [ ] Bread\n" : "[{\"name\": \"Bread\", \"checked\": false}]\n"
        try text.write(to: file, atomically: false, encoding: .utf8)
        var edit = FileEdit(file: file, edits: [.check([.position([1])])])
        let path = file.path
        edit.beforeCommit = { try? theirs.write(toFile: path, atomically: false, encoding: .utf8) }
        #expect(throws: EditError.self) { try edit.run() }
        #expect(try String(contentsOf: file, encoding: .utf8) == theirs)
        // Unchanged, the same edit goes through.
        try text.write(to: file, atomically: false, encoding: .utf8)
        edit.beforeCommit = nil
        #expect(try edit.run().changed)
    }

    /// The byte order mark stays first: the first item's lines, which move, do not take it.
    @Test(
        "a checklist that starts with a byte order mark keeps it first when its first item moves",
        arguments: [
            (Edit.move(.position([2]), to: [1]), "- [ ] b\n- [ ] a\n"),
            (Edit.move(.position([1]), to: [2]), "- [ ] b\n- [ ] a\n"),
            (Edit.add(name: "new", under: nil, at: [1]), "- [ ] new\n- [ ] a\n- [ ] b\n"),
            (Edit.remove([.position([1])]), "- [ ] b\n"),
            (Edit.move(.position([1]), to: [1, 1]), "- [ ] b\n  - [ ] a\n"),
        ])
    func byteOrderMark(edit: Edit, expected: String) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("todofmt-edit-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("list.md")
        try "\u{FEFF}- [ ] a\n- [ ] b\n".write(to: file, atomically: false, encoding: .utf8)
        #expect(try FileEdit(file: file, edits: [edit]).run().changed)
        #expect(Array(try Data(contentsOf: file)) == [0xEF, 0xBB, 0xBF] + Array(expected.utf8))
    }

    @Test("a unified diff sets aside the lines both texts share")
    func diff() {
        let old = (1...10).map { "line \($0)\n" }.joined()
        let new = old.replacingOccurrences(of: "line 5\n", with: "line five\n")
        #expect(
            UnifiedDiff.text(old: old, new: new, name: "f") == """
                --- a/f
                +++ b/f
                @@ -2,7 +2,7 @@
                 line 2
                 line 3
                 line 4
                -line 5
                +line five
                 line 6
                 line 7
                 line 8

                """)
        #expect(UnifiedDiff.text(old: "a\n", new: "a\nb\n", name: "f") == "--- a/f\n+++ b/f\n@@ -1 +1,2 @@\n a\n+b\n")
        #expect(UnifiedDiff.text(old: "a\n", new: "a\n", name: "f") == "")
    }
}

/// An edit of one item of a checklist rewrites that item's line, and its other fields keep
/// their text: they were once written again in todofmt's spelling (`1.10` as `1.1`, `1e400`
/// as `inf`, a date's zone lost to UTC, `<00 FF>` as `<00ff>`, JSON respaced).
@Suite("Editing a checklist item keeps its other fields as written")
struct FieldTextEditTests {
    static let line =
        "- [ ] a [n:: 1.10] [b:: 1e400] [d:: 2024-01-01T23:00:00-02:00] [e:: {\"b\":1,  \"a\":2}] [f:: <00 FF>]\n"

    static func edited(_ edit: Edit) throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "todofmt-fields-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("t.md")
        try line.write(to: file, atomically: false, encoding: .utf8)
        _ = try FileEdit(file: file, edits: [edit]).run()
        return try String(contentsOf: file, encoding: .utf8)
    }

    @Test("rename, set and check change only their own text")
    func keepsFieldText() throws {
        #expect(
            try Self.edited(.rename(.position([1]), to: "z"))
                == Self.line.replacingOccurrences(of: "[ ] a", with: "[ ] z"))
        #expect(
            try Self.edited(.set(.position([1]), [Field("n", .integer(2))]))
                == Self.line.replacingOccurrences(of: "1.10", with: "2"))
        #expect(try Self.edited(.check([.position([1])])) == Self.line.replacingOccurrences(of: "[ ]", with: "[x]"))
    }

    /// A name's text written again from the name can read otherwise: `\[b\]` as `[b]` is a
    /// link when a `[b]:` definition follows, `&amp;` as `\&amp;` no longer an ampersand.
    @Test(
        "done, set and unset keep the name's text as it is written",
        arguments: [
            "plain \\[b\\]", "ref &#65; here", "x &amp; y", "back\\\\slash", "*em* `code` <b>", "ends in \\[a:: 1]",
            "multi\n  line \\[x]",
        ])
    func keepsNameText(name: String) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("t.md")
        let text = "- [ ] \(name)\r\n- [ ] other\r\n\r\n[b]: http://example.com\r\n"
        try text.write(to: file, atomically: false, encoding: .utf8)
        let steps: [(Edit, String)] = [
            (.check([.position([1])]), text.replacingOccurrences(of: "- [ ] \(name)", with: "- [x] \(name)")),
            (
                .set(.position([1]), [Field("k", .integer(1))]),
                text.replacingOccurrences(of: "- [ ] \(name)", with: "- [x] \(name) [k:: 1]")
            ),
            (.toggle([.position([1])]), text.replacingOccurrences(of: "- [ ] \(name)", with: "- [ ] \(name) [k:: 1]")),
            (.unset(.position([1]), ["k"]), text),
        ]
        for (edit, expected) in steps {
            _ = try FileEdit(file: file, edits: [edit]).run()
            #expect(try String(contentsOf: file, encoding: .utf8) == expected, "\(edit)")
        }
    }

    @Test("unset of fields on a line of their own keeps a name that ends in a line break")
    func fieldsOnTheirOwnLine() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("t.md")
        try "- [ ] Foo\n  [a:: 1]\n- [ ] Bar\n".write(to: file, atomically: false, encoding: .utf8)
        _ = try FileEdit(file: file, edits: [.unset(.position([1]), ["a"])]).run()
        #expect(try TodoList(contentsOf: file).items.map(\.name) == ["Foo\n", "Bar"])
    }
}
