import Foundation
import Testing

@testable import TodoFormat

/// `list` on a checklist prints most items from their names' bytes, without an item made of
/// each (`ItemQuery.Selector.items(plain:…)`); these tests hold it to what the same query
/// prints from the list read into memory, item by item.
@Suite("list's filters on a checklist's plain items")
struct ItemQueryTests {
    /// Names of every kind the reader meets: plain, links, brackets that start a link
    /// definition or read as fields, references, escapes, CJK, emoji, a Kelvin sign and a
    /// dotted capital I (which lower to ASCII), a custom status, nesting, sections, CRLF.
    static let checklist = """
        ---
        title: Mixed
        ---
        - [ ] Buy MILK
        - [x] [ticket 🎫](https://example.com/t/1) for milk
          - [ ] child with [brackets] inside
          - [/] half done 日本語のメモ
            - [ ] deeper \\[x] escaped
        - [ ] \\[label]: not a definition
        - [ ] ends in brackets \\[prio:: 2]
        - [ ] has a field [prio:: 2]
        - [ ] R\\&D; & co
        - [ ] 200 \u{212A} of ice
        - [X] \u{0130}stanbul trip
        # Work
        - [ ] Email 日本語
        - [-] dropped "quoted" item
        - [ ] tab\there
        - [ ] café crème

        Some prose.

        ## Not a section
        - [ ] under a second-level heading
          - [x] nested done
        # Home
        1. [ ] numbered item
        2. [x] second
        - [ ] item 10 [prio:: 2]
        - [ ] item 1
        - [ ] item 100 [prio:: 1]
        - [ ] item 10
        - [ ] ab
        - [ ] a
        - [ ] ab c [prio:: 2]
        - [ ] caf\u{E9}
        - [ ] cafe\u{301} again

        """

    static let queries: [(String, ItemQuery)] = {
        func query(_ change: (inout ItemQuery) -> Void) -> ItemQuery {
            var query = ItemQuery()
            change(&query)
            return query
        }
        return [
            ("everything", ItemQuery()),
            ("open", query { $0.statuses = [.open] }),
            ("done and /", query { $0.statuses = [.done, .custom("/")] }),
            ("grep milk", query { $0.grep = "milk" }),
            ("grep MILK", query { $0.grep = "MILK" }),
            ("grep 日本語", query { $0.grep = "日本語" }),
            ("grep k (a Kelvin sign lowers to k)", query { $0.grep = "k o" }),
            ("grep i̇ (the dotted capital I lowers to it)", query { $0.grep = "i̇stanbul" }),
            ("grep CAFÉ", query { $0.grep = "CAFÉ" }),
            ("section Work", query { $0.section = "Work" }),
            ("field", query { $0.fields = [("prio", "2")] }),
            (
                "paged",
                query {
                    $0.offset = 3
                    $0.limit = 4
                }
            ),
            ("sorted", query { $0.sort = [("name", true)] }),
            ("sorted up", query { $0.sort = [("name", false)] }),
            ("sorted by prio, then name", query { $0.sort = [("prio", true), ("name", false)] }),
        ]
    }()

    @Test("prints what the query prints from the list in memory", arguments: 0..<queries.count, [false, true])
    func agrees(index: Int, json: Bool) throws {
        let (label, query) = Self.queries[index]
        for text in [Self.checklist, Self.checklist.replacingOccurrences(of: "\n", with: "\r\n")] {
            let directory = try TemporaryDirectory()
            let file = directory.url.appendingPathComponent("list.md")
            try Data(text.utf8).write(to: file)
            let streamed = try Self.output {
                try query.print(file: file, format: nil, options: ListOptions(), json: json, to: $0)
            }
            let list = try TodoList(markdown: text)
            let listed = try Self.output { try ItemQuery.print(query.items(of: list), json: json, to: $0) }
            #expect(streamed == listed, "\(label)")
            #expect(!listed.isEmpty)
        }
    }

    @Test("finds what lowering both finds", arguments: ["milk", "MILK", "日本語", "k", "i", "é", "CRÈME", "ß", ""])
    func needle(text: String) {
        let needle = GrepNeedle(text)
        let names = [
            "Buy MILK", "milk", "mil", "", "200 \u{212A} of ice", "\u{0130}stanbul", "Email 日本語", "日本", "café crème",
            "STRASSE", "straße", "K", "k",
        ]
        for name in names {
            // (Every name contains the empty text, which `String.contains` denies.)
            let expected = text.isEmpty || name.lowercased().contains(text.lowercased())
            #expect(needle.isFound(in: Substring(name)) == expected, "\(name) \(text)")
            #expect(Array(name.utf8).withUnsafeBufferPointer { needle.isFound(inUTF8: $0) } == expected)
        }
    }

    /// What `body` writes to the file descriptor it is given.
    static func output(_ body: (Int32) throws -> Void) throws -> String {
        let directory = try TemporaryDirectory()
        let path = directory.path("out.txt")
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        try body(descriptor)
        close(descriptor)
        return try String(contentsOfFile: path, encoding: .utf8)
    }
}
