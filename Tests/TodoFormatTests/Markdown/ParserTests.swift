import Foundation
import Testing

@testable import TodoFormat

@Suite("What the checklist parser finds")
struct ParserTests {
    func list(_ name: String) throws -> TodoList {
        try TodoList(markdown: Fixture.text("markdown/" + name), path: name)
    }

    func outline(_ list: TodoList) -> [String] {
        list.flattened().map { entry in
            String(repeating: "  ", count: entry.depth) + "[\(entry.item.status.marker)] " + entry.item.name
        }
    }

    @Test("the mission's example", .needsYAML)
    func groceries() throws {
        let list = try list("groceries.md")
        #expect(list.metadata == [Field("title", .string("Groceries"))])
        #expect(outline(list) == ["[ ] Milk", "[x] Eggs", "  [ ] Brown ones"])
        #expect(list.items.map(\.section) == ["Today", "Today"])
        #expect(list.items[1].children[0].section == nil)
    }

    @Test("tab indents, a cancelled status and Chinese text")
    func tabsAndStatuses() throws {
        let list = try list("tabs-and-statuses.md")
        #expect(list.items.map(\.status) == [.open, .done, .custom("-"), .open, .done, .custom("/")])
        #expect(list.items[3].name == "**主线：首页加载优化 (P0)**")
        #expect(list.items[3].children.isEmpty, "plain bullets under a task are not items")
        #expect(list.items[0].section == "状态说明")
        #expect(list.items[3].section == "第一阶段：性能（进行中）")
        #expect(list.items[5].name == "正在进行的任务，含全角标点：“引号”、括号（）")
    }

    @Test("kanban columns are sections; a file without a final newline")
    func kanban() throws {
        let list = try list("kanban.md")
        #expect(list.items.map(\.section) == ["Todo", "Todo", "In Progress", "Done \u{2713}"])
        #expect(list.items[2].name == "Renew the certificate [OPS-102]")
        #expect(list.items[2].fields.isEmpty)
        #expect(list.items[3].isChecked)
    }

    @Test("front matter, a fenced copy that is not parsed, three markers, [X] and a hard break", .needsYAML)
    func frontMatterAndFence() throws {
        let list = try list("front-matter-and-fence.md")
        #expect(list.metadata.map(\.key) == ["title", "icon"])
        #expect(
            outline(list) == [
                "[x] step 1", "  [x] step A", "  [ ] step B\ncontinued", "    [x] step a", "    [ ] step b",
                "  [x] step C",
                "[ ] step 2", "[ ] step 3\n:::",
            ])
    }

    @Test("tasks under ordered and plain parents are nobody's children")
    func orderedParents() throws {
        let list = try list("ordered-parents.md")
        #expect(
            outline(list) == [
                "[ ] nested task one", "[x] nested task two", "[ ] under a plain bullet",
                "[x] checked under a plain bullet",
            ])
        #expect(list.items.map(\.section) == ["Ordered parents", "Ordered parents", "Bullets", "Bullets"])
    }

    @Test("CRLF line endings, a byte order mark and trailing spaces")
    func crlfAndBOM() throws {
        let document = try TodoDocument(parsing: Fixture.text("markdown/crlf-bom.md"))
        #expect(document.lineEnding == "\r\n")
        #expect(outline(document.list) == ["[ ] First", "[x] Second", "  [ ] Child\twith tab"])
        #expect(document.list.items[0].section == "Windows list")
    }

    @Test("fields of every type, and names that only look like fields")
    func fields() throws {
        let list = try list("fields.md")
        let items = list.items
        #expect(items[0].name == "Pay rent")
        #expect(
            items[0].fields == [
                Field("due", .date(Date(timeIntervalSince1970: 1_717_232_400))), Field("amount", .double(1250.5)),
                Field("paid", .bool(false)),
            ])
        #expect(items[1].fields == [Field("id", .integer(42)), Field("note", .string("asked about fees"))])
        #expect(items[2].fields == [Field("odd key", .string("needs \"quotes\"")), Field("count", .string("7"))])
        #expect(
            items[3].fields == [
                Field("tags", .array([.string("home"), .string("money")])),
                Field("meta", .dictionary([Field("a", .integer(1)), Field("b", .null)])),
                Field("blob", .data(Data("Hello".utf8))),
            ])
        #expect(items[4].name == "A name with [brackets:: inside] and a \\ backslash")
        #expect(items[4].fields.isEmpty)
    }

    @Test(
        "the text that decides task items",
        arguments: [
            ("- [ ] a\n", 1), ("- [ ]a\n", 0), ("- [] a\n", 0), ("-[ ] a\n", 0), ("- [ ]\n", 0), ("- [ ] \n", 1),
            ("* [x] a\n", 1), ("+ [X] a\n", 1), ("1. [ ] a\n", 1), ("1) [x] a\n", 1), ("-    [ ] four spaces\n", 1),
            ("-     [ ] five spaces is code\n", 0), ("    - [ ] indented code\n", 0), ("```\n- [ ] fenced\n```\n", 0),
            ("<div>\n- [ ] html\n</div>\n", 0), ("> - [ ] quoted\n", 1), ("- [@] custom\n", 1), ("- [\t] tab box\n", 0),
            ("1234567890. [ ] too many digits\n", 0), ("text\n- [ ] interrupts a paragraph\n", 1),
            ("text\n2. [ ] cannot interrupt a paragraph\n", 0),
        ])
    func decidesTasks(text: String, count: Int) throws {
        #expect(try TodoDocument(parsing: text).entries.count == count, "\(text.debugDescription)")
    }

    @Test(
        "check reports a task line that became part of the text above, with its line",
        arguments: [
            (
                "- [ ] a\n      - [x] t\n", ["a\n- [x] t"],
                "f.md:2:7: warning: this line reads like a task item but is part of the name of the item on line 1: "
                    + "it is indented 4 or more columns past that text; indent it less"
            ),
            (
                "- [ ] a\n  b\n      - [/] t\n", ["a\nb\n- [/] t"],
                "f.md:3:7: warning: this line reads like a task item but is part of the name of the item on line 1: "
                    + "it is indented 4 or more columns past that text; indent it less"
            ),
            (
                "- [ ] a\n  2. [ ] b\n", ["a\n2. [ ] b"],
                "f.md:2:3: warning: this line reads like a task item but is part of the name of the item on line 1: "
                    + "an ordered item not numbered 1 cannot interrupt it; number it 1 or add a blank line before it"
            ),
            (
                "Some text\n    - [ ] t\n", [],
                "f.md:2:5: warning: this line reads like a task item but continues the paragraph on line 1: "
                    + "it is indented 4 or more columns past that text; indent it less"
            ),
            (
                "> - [ ] a\n>       - [x] t\n", ["a\n- [x] t"],
                "f.md:2:9: warning: this line reads like a task item but is part of the name of the item on line 1: "
                    + "it is indented 4 or more columns past that text; indent it less"
            ),
        ])
    func taskLineInText(text: String, names: [String], problem: String) throws {
        let document = try TodoDocument(parsing: text, path: "f.md")
        #expect(document.list.flattened().map(\.item.name) == names)
        #expect(document.problems().map(\.description) == [problem])
    }

    @Test(
        "task lines that really are items, or plain text, are no problem",
        arguments: [
            "- [ ] a\n  - [x] t\n", "- [ ] a\n    - [x] t\n", "- [ ] a\n  1. [ ] b\n", "- [ ] a\n      more text\n",
            "text\n- [ ] t\n",
        ])
    func noTaskLineInText(text: String) throws {
        #expect(try TodoDocument(parsing: text).problems().isEmpty)
    }

    @Test("a byte order mark after front matter is text, to the document and the list reader alike")
    func byteOrderMarkAfterFrontMatter() throws {
        let text = "---\ntitle: x\n---\n\u{FEFF}# T\n2) [x] a\n- [ ] b\n"
        #expect(try TodoDocument(parsing: text).entries.map(\.item.name) == ["b"])
        #expect(try TodoList(markdown: text).items.map(\.name) == ["b"])
        #expect(try TodoList(markdown: text).items[0].section == nil)
    }

    @Test("invalid UTF-8 is an error at its line and column")
    func invalidUTF8() throws {
        var bytes = Array("- [ ] ok\n- [ ] caf".utf8)
        bytes.append(0xE9)
        bytes.append(contentsOf: Array("\n".utf8))
        #expect(
            throws: ParseError("invalid UTF-8 (byte 0xE9)", at: SourceLocation(file: "bad.md", line: 2, column: 10))
        ) {
            try TodoList(bytes: bytes, format: .markdown, name: "bad.md")
        }
    }

    @Test(
        "lines that enclose no YAML mapping are no front matter: Markdown, as cmark-gfm reads them, and check says why",
        .needsYAML)
    func notFrontMatter() throws {
        let cases: [(String, [String], String)] = [
            (
                "---\n- [ ] inside\n---\n- [ ] a\n", ["inside", "a"],
                "yaml: did not find expected '-' indicator while parsing a block collection at line 2, column 7"
            ),
            (
                "---\ntitle: x\nowner: a: b\n---\n- [ ] a\n", ["a"],
                "yaml: mapping values are not allowed in this context at line 3, column 9"
            ),
            ("---\n- a list\n---\n- [ ] x\n", ["x"], "a YAML sequence at line 2, column 1"),
            ("---\nSome prose\n---\n- [ ] x\n", ["x"], "YAML text at line 2, column 1"),
            ("---\n# Heading\n---\n- [ ] x\n", ["x"], "no YAML mapping, only comments or an empty value"),
        ]
        for (text, names, reason) in cases {
            let document = try TodoDocument(parsing: text, path: "f.md")
            #expect(document.metadata.isEmpty)
            #expect(document.list.flattened().map(\.item.name) == names)
            #expect(try Cmark.tasks(in: text).count == names.count, "\(text.debugDescription)")
            let close = text.components(separatedBy: "\n").dropFirst().firstIndex(of: "---")! + 1
            #expect(
                document.problems().map(\.description) == [
                    "f.md:1:1: warning: the '---' lines 1 and \(close) enclose no front matter: what lies between is not a "
                        + "YAML mapping (\(reason)), so they are read as Markdown"
                ])
        }
        // A heading between them is a section.
        #expect(try TodoList(markdown: "---\n# Heading\n---\n- [ ] x\n").items[0].section == "Heading")
        // A mapping, an empty mapping and nothing at all are front matter.
        #expect(try TodoList(markdown: "---\ntitle: x\n---\n- [ ] a\n").metadata == [Field("title", .string("x"))])
        for text in ["---\n{}\n---\n- [ ] a\n", "---\n---\n- [ ] a\n", "---\n\n...\n- [ ] a\n"] {
            let document = try TodoDocument(parsing: text)
            #expect(document.problems().isEmpty && document.list.items.count == 1, "\(text.debugDescription)")
        }
        // An unclosed fence is not front matter: the file is plain Markdown.
        #expect(try TodoList(markdown: "---\n- [ ] x\n").items.count == 1)
    }
}

@Suite("Large checklists, parsed in two halves")
struct LargeChecklistTests {
    static func bigText(openFenceInMiddle: Bool) -> String {
        var lines: [String] = ["---", "title: big", "---"]
        for i in 0..<120_000 {
            if i % 500 == 0 { lines += ["", "## Part \(i / 500)"] }
            if openFenceInMiddle && i == 60_000 { lines.append("```") }
            lines.append((i % 3 == 1 ? "  " : "") + "- [\(i % 2 == 0 ? " " : "x")] item \(i) ünïcödé [n:: \(i)]")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    @Test("the halves give the same list as one pass", arguments: [false, true])
    func sameList(openFence: Bool) throws {
        let text = Self.bigText(openFenceInMiddle: openFence)
        #expect(text.utf8.count > 1 << 22, "large enough to be parsed in halves")
        let streamed = try TodoList(markdown: text)
        let sequential = try TodoDocument(parsing: text).list
        #expect(streamed == sequential)
        // An unclosed fence swallows the rest of the file, in both readings.
        #expect(streamed.flattened().count == (openFence ? 60_000 : 120_000))
    }
}
