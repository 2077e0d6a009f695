import Foundation
import Testing

@testable import TodoFormat

/// Writing into the database fixtures (`Fixtures/apps`) through the library, with each
/// checklist's names taken as cmark-gfm reads them: a decimal character reference (`&#32;`,
/// `&#13;`, `&#0;` as NUL) is the character. So the tables' side of the fixtures is checked
/// whatever the checklist writer does with such names (the CLI tests of the fixtures check
/// both sides together).
@Suite("Writing into app tables, by the database fixtures' edits")
struct AppTableTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/apps")

    struct Case: CustomStringConvertible, Sendable {
        var fixture: String
        var flags: ListOptions
        var checklist: String
        var result: String?
        var description: String { checklist }
    }

    static let cases: [Case] = {
        var cases: [Case] = []
        for (fixture, options) in [
            ("gorm-todos.db", ListOptions()), ("uuid-tasks.sqlite", ListOptions()),
            ("rails-todos.sqlite3", ListOptions()),
            ("django-tasks.sqlite3", ListOptions(table: "todo_task")),
            ("swiftdata-default.store", ListOptions(entity: "TodoItem")),
            ("notes-sti.sqlite", ListOptions(entity: "ICNote")), ("tutorial-db.json", ListOptions()),
        ] {
            let base = fixture.split(separator: ".")[0]
            cases.append(Case(fixture: fixture, flags: options, checklist: "\(base).expected.md", result: nil))
            for edit in ["check", "rename", "add", "remove", "move"]
            where FileManager.default.fileExists(atPath: folder.appendingPathComponent("\(base).after-\(edit).md").path)
            {
                cases.append(
                    Case(
                        fixture: fixture, flags: options, checklist: "\(base).after-\(edit).md",
                        result: "\(base).after-\(edit).dump"))
            }
        }
        return cases
    }()

    /// A name as cmark-gfm reads it: decimal character references become their characters.
    static func decoded(_ name: String) -> String {
        var result = ""
        var rest = Substring(name)
        while let start = rest.range(of: "&#") {
            result += rest[..<start.lowerBound]
            let after = rest[start.upperBound...]
            let digits = after.prefix { $0.isASCII && $0.isNumber }
            if !digits.isEmpty, after.dropFirst(digits.count).first == ";", let code = UInt32(digits),
                let scalar = Unicode.Scalar(code)
            {
                result.unicodeScalars.append(scalar)
                rest = after.dropFirst(digits.count + 1)
            } else {
                result += "&#"
                rest = after
            }
        }
        return result + rest
    }

    @Test("each edit's checklist gives the expected .dump; the unchanged one changes nothing", arguments: cases)
    func edit(_ c: Case) throws {
        let directory = try TemporaryDirectory()
        let copy = directory.path(c.fixture)
        try FileManager.default.copyItem(atPath: Self.folder.appendingPathComponent(c.fixture).path, toPath: copy)
        let before = try Databases.dump(copy)
        var list = try TodoList(
            markdown: String(contentsOf: Self.folder.appendingPathComponent(c.checklist), encoding: .utf8))
        list.items = list.items.map { item in
            var item = item
            item.name = Self.decoded(item.name)
            return item
        }
        try Clock.$pinned.withValue(ISO8601.parse("2026-01-02T03:04:05.25Z".utf8)) {
            try list.write(to: URL(fileURLWithPath: copy), options: c.flags)
        }
        let expected =
            try c.result.map { try String(contentsOf: Self.folder.appendingPathComponent($0), encoding: .utf8) }
            ?? before
        #expect(try Databases.dump(copy) == expected)
    }

    @Test("names with control characters and a NUL go back byte for byte (the shell's .dump stops at a NUL)")
    func exactNames() throws {
        let directory = try TemporaryDirectory()
        let copy = directory.path("uuid-tasks.sqlite")
        try FileManager.default.copyItem(
            atPath: Self.folder.appendingPathComponent("uuid-tasks.sqlite").path, toPath: copy)
        let query =
            "import sqlite3, sys; print(repr(sqlite3.connect(sys.argv[1]).execute('select id, title from tasks order by id').fetchall()))"
        let before = try ExternalTool.run("python3", ["-c", query, copy]).text
        var list = try TodoList(contentsOf: URL(fileURLWithPath: copy))
        #expect(list.items.map(\.name).contains("NUL\u{0}inside, bell\u{7}, escape\u{1B}[1mbold\u{1B}[0m, DEL\u{7F}"))
        list.items[0].status = .done
        try list.write(to: URL(fileURLWithPath: copy))
        #expect(try ExternalTool.run("python3", ["-c", query, copy]).text == before)
    }
}
