import Foundation
import Testing

@testable import TodoFormat

@Suite("Lossless reading and writing")
struct LosslessTests {
    static let fixtures = Fixture.files(in: "markdown")

    /// How many task items each fixture holds, nested ones included: counted by hand.
    static let itemCounts = [
        "markdown/crlf-bom.md": 3, "markdown/fields.md": 5, "markdown/front-matter-and-fence.md": 8,
        "markdown/groceries.md": 3, "markdown/kanban.md": 4, "markdown/ordered-parents.md": 4,
        "markdown/tabs-and-statuses.md": 6,
    ]

    @Test("the fixture table names every fixture")
    func everyFixtureCounted() {
        #expect(Set(Self.itemCounts.keys) == Set(Self.fixtures))
    }

    @Test("every fixture reads and writes back byte for byte", arguments: fixtures)
    func fixtureRoundTrip(name: String) throws {
        let text = try Fixture.text(name)
        let document = try TodoDocument(parsing: text, path: name)
        #expect(document.markdown().utf8.elementsEqual(text.utf8))
        #expect(document.entries.count == Self.itemCounts[name])
    }

    @Test("convert a.md b.md copies the file exactly", arguments: fixtures)
    func convertCopies(name: String) throws {
        let directory = try TemporaryDirectory()
        let output = directory.path("copy.md")
        _ = try Conversion(input: .at(Fixture.path(name)), output: .at(output)).run()
        #expect(try Data(contentsOf: URL(fileURLWithPath: output)) == Fixture.data(name))
    }

    @Test("generated documents read and write back byte for byte", arguments: 0..<200)
    func generatedRoundTrip(seed: Int) throws {
        let text = MarkdownGenerator.document(seed: UInt64(seed) &+ 10_000, lines: 80)
        let document = try TodoDocument(parsing: text)
        #expect(document.markdown().utf8.elementsEqual(text.utf8))
    }

    @Test("after edits, the document is what parsing its new text gives", arguments: 0..<60)
    func editsMatchAFreshParse(seed: Int) throws {
        var rng = SeededGenerator(seed: UInt64(seed) &+ 77)
        let text = MarkdownGenerator.document(seed: UInt64(seed) &+ 30_000, lines: 60)
        var document = try TodoDocument(parsing: text)
        guard !document.entries.isEmpty else { return }
        let names = ["a", "two words", "multi\nline name", "with [brackets]", "# heading-like", "x [k:: 1]", ""]
        for _ in 0..<4 {
            let index = Int.random(in: 0..<document.entries.count, using: &rng)
            let name = names.randomElement(using: &rng)!
            let status: TodoStatus = [.open, .done, .custom("/")].randomElement(using: &rng)!
            document.updateItem(at: index) {
                $0.name = name
                $0.status = status
                if name.hasPrefix("x") { $0.fields = [Field("n", .integer(seed))] }
            }
            let fresh = try TodoDocument(parsing: document.text)
            let entries = document.entries
            let expected = fresh.entries
            #expect(entries.map(\.item) == expected.map(\.item), "\(document.text)")
            #expect(entries.map(\.line) == expected.map(\.line) && entries.map(\.column) == expected.map(\.column))
            #expect(entries.map(\.depth) == expected.map(\.depth))
            #expect(document.problems() == fresh.problems())
            #expect(document.canonicalMarkdown() == fresh.canonicalMarkdown())
        }
    }

    @Test("editing one item changes only that item's lines")
    func editChangesOneItem() throws {
        let text = try Fixture.text("markdown/front-matter-and-fence.md")
        var document = try TodoDocument(parsing: text)
        let index = try #require(document.entries.firstIndex { $0.item.name == "step b" })
        var item = document.entries[index].item
        item.status = .done
        item.name = "step b, renamed"
        item.fields = [Field("id", .integer(9))]
        document.updateItem(at: index) { $0 = item }

        let before = text.split(separator: "\n", omittingEmptySubsequences: false)
        let after = document.markdown().split(separator: "\n", omittingEmptySubsequences: false)
        #expect(before.count == after.count)
        let changed = zip(before, after).enumerated().filter { $0.element.0 != $0.element.1 }
        #expect(changed.map(\.offset) == [document.entries[index].line - 1])
        #expect(changed.first?.element.1 == "    + [x] step b, renamed [id:: 9]")
        #expect(document.entries[index].item.name == "step b, renamed")
        #expect(document.entries.count == 8)
    }

    @Test("editing a multi-line name keeps the continuation indentation")
    func editMultiLineName() throws {
        var document = try TodoDocument(parsing: "- [ ] one\n    two\n- [ ] next\n")
        #expect(document.entries[0].item.name == "one\ntwo")
        var item = document.entries[0].item
        item.name = "uno\ndos\ntres"
        document.updateItem(at: 0) { $0 = item }
        #expect(document.markdown() == "- [ ] uno\n    dos\n    tres\n- [ ] next\n")
    }

    @Test("an item without a name gets one after its box")
    func editEmptyName() throws {
        var document = try TodoDocument(parsing: "- [ ] \n- [x] b\n")
        var item = document.entries[0].item
        #expect(item.name == "")
        item.name = "a"
        document.updateItem(at: 0) { $0 = item }
        #expect(document.markdown() == "- [ ] a\n- [x] b\n")
    }
}
