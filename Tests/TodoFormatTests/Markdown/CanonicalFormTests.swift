import Foundation
import Testing

@testable import TodoFormat

@Suite("Canonical form")
struct CanonicalFormTests {
    @Test("fmt rewrites task lists and leaves everything else")
    func rewritesTaskLists() throws {
        let text = """
            Intro with a list that is not only tasks:

            * plain
            * [ ] task

            1. [X] first
               + [ ] child
                   continued
            2) [-] second\r
            """
        let document = try TodoDocument(parsing: text)
        #expect(
            document.canonicalMarkdown() == """
                Intro with a list that is not only tasks:

                * plain
                * [ ] task

                - [x] first
                  - [ ] child
                    continued
                - [-] second
                """)
    }

    @Test(
        "canonical fixtures stay as they are; others become canonical and keep their items",
        arguments: Fixture.files(in: "markdown"))
    func fixedPoint(name: String) throws {
        let document = try TodoDocument(parsing: Fixture.text(name))
        let formatted = try document.formatted()
        #expect(formatted.list == document.list, "fmt keeps the items")
        #expect(try formatted.formatted().text == formatted.text, "fmt of fmt changes nothing")
        if name.hasSuffix("groceries.md") || name.hasSuffix("kanban.md") {
            #expect(formatted.text == document.text)
        }
    }

    @Test("writing a list as a new checklist, and reading it back", arguments: Fixture.files(in: "markdown"))
    func newFileRoundTrip(name: String) throws {
        let list = try TodoList(markdown: Fixture.text(name))
        let written = String(decoding: try list.encoded(as: .markdown), as: UTF8.self)
        #expect(try TodoList(markdown: written) == list, "\(written)")
        #expect(try TodoDocument(parsing: written).canonicalMarkdown() == written)
    }

    @Test("generated documents keep their items through fmt", arguments: 0..<300)
    func generated(seed: Int) throws {
        let text = MarkdownGenerator.document(seed: UInt64(seed) &+ 50_000)
        let document = try TodoDocument(parsing: text)
        let same = try document.formatted().list == document.list
        #expect(same)
        // TODOFMT_DUMP=DIR keeps a failing document as a file, to run the tools on it by hand.
        if !same, let dump = ProcessInfo.processInfo.environment["TODOFMT_DUMP"] {
            try text.write(toFile: "\(dump)/fmt-\(seed).md", atomically: true, encoding: .utf8)
        }
    }

    /// How many generated documents fmt runs on twice: 3000, or TODOFMT_DOCUMENTS=N.
    static let idempotenceCount = Int(ProcessInfo.processInfo.environment["TODOFMT_DOCUMENTS"] ?? "") ?? 3000

    @Test("fmt is idempotent: fmt then fmt --check passes, on generated documents")
    func idempotent() throws {
        var failures: [String] = []
        for seed in 0..<Self.idempotenceCount {
            let text = MarkdownGenerator.document(seed: UInt64(seed) &+ 70_000, lines: 40)
            let once = try TodoDocument(parsing: text).formatted()
            let twice = try once.formatted()
            if twice.text != once.text {
                if let dump = ProcessInfo.processInfo.environment["TODOFMT_DUMP"] {
                    try text.write(toFile: "\(dump)/idem-\(seed).md", atomically: true, encoding: .utf8)
                }
                failures.append(
                    "seed \(seed):\n\(text.debugDescription)\nonce:\n\(once.text.debugDescription)\ntwice:\n\(twice.text.debugDescription)"
                )
            }
            if once.list != (try TodoDocument(parsing: text).list) {
                failures.append("seed \(seed) changes the list:\n\(text.debugDescription)")
            }
        }
        #expect(failures.isEmpty, "\(failures.count) documents:\n\(failures.prefix(3).joined(separator: "\n\n"))")
    }

    @Test(
        "fmt is idempotent on lists of other kinds separated by blank lines, and keeps a byte order mark",
        arguments: [
            ("1. [ ] a\n\n- [ ] b\n", "- [ ] a\n- [ ] b\n"),
            ("* [ ] a\n\n+ [x] b\n\n\n* [ ] c\n", "- [ ] a\n- [x] b\n- [ ] c\n"),
            ("* [ ] a\n\nText\n\n+ [x] b\n", "- [ ] a\n\nText\n\n- [x] b\n"),
            ("\u{FEFF}* [ ] a\n", "\u{FEFF}- [ ] a\n"),
            ("\u{FEFF}1. [ ] a\r\n2. [x] b", "\u{FEFF}- [ ] a\r\n- [x] b"),
        ])
    func idempotentCases(text: String, formatted: String) throws {
        let once = try TodoDocument(parsing: text).formatted()
        #expect(once.text == formatted)
        #expect(try once.formatted().text == once.text)
    }

    @Test("the new-file layout is the mission's example", .needsYAML)
    func layout() throws {
        let list = TodoList(
            metadata: [Field("title", .string("Groceries"))],
            items: [
                TodoItem(name: "Milk", section: "Today"),
                TodoItem(name: "Eggs", status: .done, children: [TodoItem(name: "Brown ones")], section: "Today"),
                TodoItem(name: "Coffee", section: "Later"),
            ])
        #expect(
            String(decoding: try list.encoded(as: .markdown), as: UTF8.self) == """
                ---
                title: Groceries
                ---
                # Today
                - [ ] Milk
                - [x] Eggs
                  - [ ] Brown ones

                # Later
                - [ ] Coffee

                """)
    }
}
