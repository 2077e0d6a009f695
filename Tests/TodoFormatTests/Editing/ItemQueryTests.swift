import Foundation
import Testing

@testable import TodoFormat

/// `list` on a checklist prints most items from their names' bytes, without an item made of
/// each (`ItemQuery.Selector.items(plain:…)`, and `item(plainName:fields:…)` for those with
/// fields); these tests hold it to what the same query prints from the list read into
/// memory, item by item.
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
        - [ ] a long name that shares its first thirty bytes, one [prio:: -3]
        - [ ] a long name that shares its first thirty bytes, two [prio:: -3]
        - [ ] a long name that shares its first thirty bytes [size:: big]
        - [ ] b [size:: 3] [prio:: -20]
        - [x] a long name that shares its first thirty bytes, one [size:: 3]

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
            ("grep item 10 (names with fields and without)", query { $0.grep = "ITEM 10" }),
            (
                "grep and field",
                query {
                    $0.grep = "long name"
                    $0.fields = [("prio", "-3")]
                }
            ),
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
            ("sorted by prio up, then name down", query { $0.sort = [("prio", false), ("name", true)] }),
            ("sorted by name down, then prio", query { $0.sort = [("name", true), ("prio", false)] }),
            ("sorted by size (not all numbers), then name", query { $0.sort = [("size", false), ("name", false)] }),
            (
                "sorted by checked, status, prio, size, position",
                query {
                    $0.sort = [
                        ("checked", false), ("status", true), ("prio", true), ("size", false), ("position", true),
                    ]
                }
            ),
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

    /// Positions past 9 and 99 at every depth, and back up (`list` adds one to the last
    /// number of the position in place, and carries: `3.9` → `3.10`, `99` → `100`).
    @Test("counts positions past 9 and 99 at every depth", arguments: [false, true])
    func positions(sorted: Bool) throws {
        var lines: [String] = []
        for top in 1...120 {
            lines.append("- [ ] top \(top)")
            guard top == 9 || top == 99 || top == 105 else { continue }
            for child in 1...12 {
                lines.append("  - [x] child \(top).\(child)")
                if child == 10 || child == 12 {
                    for grandchild in 1...11 { lines.append("    - [ ] grandchild \(grandchild)") }
                }
            }
        }
        let text = lines.joined(separator: "\n") + "\n"
        var query = ItemQuery()
        if sorted { query.sort = [("checked", true)] }
        let directory = try TemporaryDirectory()
        let file = directory.url.appendingPathComponent("list.md")
        try Data(text.utf8).write(to: file)
        let streamed = try Self.output {
            try query.print(file: file, format: nil, options: ListOptions(), json: false, to: $0)
        }
        let listed = try Self.output {
            try ItemQuery.print(query.items(of: try TodoList(markdown: text)), json: false, to: $0)
        }
        #expect(streamed == listed)
        #expect(streamed.contains("99.12.11 [ ] grandchild 11\n"))
        #expect(streamed.contains("100 [ ] top 100\n"))
    }

    /// Thousands of items, whose packed keys tie in long runs: names from a few words, so
    /// that many share their first bytes or all of them, in two normal forms (which found
    /// that Swift's `<` on strings is no order); numbers that share their high bytes,
    /// negative ones, missing ones; a field that is not all numbers; nesting.
    @Test("sorts thousands of items as the list in memory does", arguments: 0..<4)
    func sortsMany(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let words = [
            "milk", "milk 2", "日本語", "cafe\u{301}", "caf\u{E9}", "a long name that shares its first thirty bytes",
        ]
        var lines: [String] = []
        for i in 0..<3000 {
            let indent = i > 0 && Int.random(in: 0..<4, using: &random) == 0 ? "  " : ""
            let box = ["[ ]", "[x]", "[/]"].randomElement(using: &random)!
            var line = "\(indent)- \(box) \(words.randomElement(using: &random)!)"
            if Bool.random(using: &random) { line += " \(Int.random(in: 0..<40, using: &random))" }
            switch Int.random(in: 0..<4, using: &random) {
            case 0: break
            case 1: line += " [prio:: \(Int.random(in: -3...3, using: &random))]"
            case 2: line += " [prio:: \(Int.random(in: -70000...70000, using: &random) * 4099)]"
            default:
                line +=
                    " [prio:: \(Int.random(in: 0...2, using: &random))] [size:: \(["big", "1", "2.5"].randomElement(using: &random)!)]"
            }
            lines.append(line)
        }
        let text = lines.joined(separator: "\n") + "\n"
        let list = try TodoList(markdown: text)
        let directory = try TemporaryDirectory()
        let file = directory.url.appendingPathComponent("list.md")
        try Data(text.utf8).write(to: file)
        for keys in [
            [("name", false)], [("name", true)], [("prio", true), ("name", false)], [("prio", false)],
            [("checked", false), ("prio", true), ("name", true)], [("size", false), ("name", false)],
            [("status", true), ("prio", false), ("size", true), ("position", true)],
        ] {
            var query = ItemQuery()
            query.sort = keys
            let streamed = try Self.output {
                try query.print(file: file, format: nil, options: ListOptions(), json: false, to: $0)
            }
            let listed = try Self.output { try ItemQuery.print(query.items(of: list), json: false, to: $0) }
            #expect(streamed == listed, "\(keys)")
        }
    }

    /// Swift's `<` on strings (6.3) is no order for a composed `é` followed by more against a
    /// decomposed one: neither is less. Names sort by their NFC bytes, in memory and streamed.
    @Test func namesInTwoNormalFormsSortInOrder() throws {
        for (a, b) in [("caf\u{E9} 10", "cafe\u{301} 1"), ("\u{E9}1", "e\u{301}"), ("e\u{301} 2", "\u{E9}")] {
            #expect(NFCCheck.order(a, b) == 1, "\(a) \(b)")
            #expect(NFCCheck.order(b, a) == -1, "\(a) \(b)")
        }
        #expect(NFCCheck.order("caf\u{E9}", "cafe\u{301}") == 0)
        #expect(NFCCheck.order("a", "b") == -1)
        let list = try TodoList(
            markdown: "- [ ] caf\u{E9} 10\n- [ ] cafe\u{301} 1\n- [ ] caf\u{E9} 1\n- [ ] cafe\u{301} 2\n")
        var query = ItemQuery()
        query.sort = [("name", false)]
        #expect(query.items(of: list).map(\.position) == ["2", "3", "1", "4"])
    }

    /// NaN sorts after every number (and first when descending), so that a field holding
    /// one leaves the other items in order; streamed and in memory alike.
    @Test func notANumberSortsAfterTheNumbers() throws {
        let text = """
            - [ ] n0 [prio:: 3]
            - [ ] n1 [prio:: nan]
            - [ ] n2 [prio:: 2.5]
            - [ ] n3 [prio:: 1]
            - [ ] n4 [prio:: -5]
            - [ ] n5 [prio:: nan]

            """
        let list = try TodoList(markdown: text)
        guard case .double(let nan) = list.items[1].fields.first?.value else {
            Issue.record("nan did not read as a number")
            return
        }
        #expect(nan.isNaN)
        let directory = try TemporaryDirectory()
        let file = directory.url.appendingPathComponent("list.md")
        try Data(text.utf8).write(to: file)
        for (descending, expected) in [(false, "n4 n3 n2 n0 n1 n5"), (true, "n1 n5 n0 n2 n3 n4")] {
            var query = ItemQuery()
            query.sort = [("prio", descending)]
            #expect(query.items(of: list).map(\.item.name).joined(separator: " ") == expected)
            let streamed = try Self.output {
                try query.print(file: file, format: nil, options: ListOptions(), json: false, to: $0)
            }
            let listed = try Self.output { try ItemQuery.print(query.items(of: list), json: false, to: $0) }
            #expect(streamed == listed)
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

    @Test("--format json writes every key once: fields keyed like the object's keys go under fields")
    func jsonKeysOnce() throws {
        let text = "- [ ] a [prio:: 1] [name:: zz] [at:: 9] [status:: someday] [title:: t] [checked:: maybe]\n"
        let list = try TodoList(markdown: text)
        let directory = try TemporaryDirectory()
        let file = directory.url.appendingPathComponent("list.md")
        try Data(text.utf8).write(to: file)
        let streamed = try Self.output {
            try ItemQuery().print(file: file, format: nil, options: ListOptions(), json: true, to: $0)
        }
        let listed = try Self.output { try ItemQuery.print(ItemQuery().items(of: list), json: true, to: $0) }
        #expect(streamed == listed)
        #expect(
            streamed == """
                [
                  {"at": "1", "name": "a", "checked": false, "prio": 1, "fields": {"name": "zz", "at": 9, \
                "status": "someday", "title": "t", "checked": "maybe"}}
                ]

                """)
        // Read back as a JSON list: the name, the status and every field as they were.
        let back = try TodoList(bytes: Array(streamed.utf8), format: .json)
        #expect(back.items.map(\.name) == ["a"])
        #expect(back.items[0].status == .open)
        #expect(back.items[0].fields.dropFirst().map(\.key) == ["prio", "name", "at", "status", "title", "checked"])
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
