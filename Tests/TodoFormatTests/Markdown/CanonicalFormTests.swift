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

    @Test("canonical fixtures stay as they are; others become canonical and keep their items", arguments: Fixture.files(in: "markdown"))
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

    @Test("the new-file layout is the mission's example")
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
