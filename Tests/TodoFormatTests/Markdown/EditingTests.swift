import Foundation
import Testing

@testable import TodoFormat

@Suite("Editing a checklist item by item")
struct EditingTests {
    static let text = UpdateTests.groceries

    func document() throws -> TodoDocument { try TodoDocument(parsing: Self.text) }

    func index(_ document: TodoDocument, _ name: String) throws -> Int {
        try #require(document.entries.firstIndex { $0.item.name.hasPrefix(name) })
    }

    @Test("where items stand")
    func tree() throws {
        let document = try document()
        let eggs = try index(document, "Eggs")
        let brown = try index(document, "Brown")
        #expect(document.parentIndex(of: brown) == eggs)
        #expect(document.parentIndex(of: eggs) == nil)
        #expect(document.childIndexes(of: eggs) == [brown])
        #expect(
            document.childIndexes(of: nil).map { document.entries[$0].item.name } == [
                "Milk", "Eggs", "Bread", "Coffee", "Tea",
            ])
        #expect(document.subtreeEnd(of: eggs) == brown + 1)
    }

    @Test("remove, add, move, metadata: each changes its lines only", .needsYAML)
    func edits() throws {
        var document = try document()
        try document.removeItem(at: index(document, "Eggs"))
        #expect(
            document.text
                == Self.text.replacingOccurrences(
                    of: "- [x] Eggs\n  - [ ] Brown ones\n    with a second line\n\n  Notes about eggs.\n", with: ""))

        document = try self.document()
        try document.insertItem(TodoItem(name: "Butter"), under: nil)
        #expect(document.text == Self.text.replacingOccurrences(of: "* [ ] Tea\n", with: "* [ ] Tea\n* [ ] Butter\n"))
        #expect(document.entries.last?.item.section == "Later")

        document = try self.document()
        try document.insertItem(
            TodoItem(name: "Oat milk", children: [TodoItem(name: "cold")]), under: index(document, "Milk"))
        #expect(
            document.text
                == Self.text.replacingOccurrences(
                    of: "- [ ] Milk\n", with: "- [ ] Milk\n  - [ ] Oat milk\n    - [ ] cold\n"))

        document = try self.document()
        try document.insertItem(TodoItem(name: "Butter"), under: nil, at: 2)
        #expect(document.text == Self.text.replacingOccurrences(of: "- [/] Bread", with: "- [ ] Butter\n- [/] Bread"))

        document = try self.document()
        try document.moveItem(at: index(document, "Tea"), under: nil, at: 0)
        #expect(
            document.text
                == Self.text.replacingOccurrences(of: "* [ ] Tea\n", with: "").replacingOccurrences(
                    of: "- [ ] Milk\n", with: "* [ ] Tea\n- [ ] Milk\n"))
        #expect(document.entries[0].item.section == "Today")

        document = try self.document()
        try document.moveItem(at: index(document, "Bread"), under: index(document, "Eggs"), at: 0)
        #expect(document.list.items[1].children.map(\.name) == ["Bread", "Brown ones\nwith a second line"])
        #expect(document.text.contains("- [x] Eggs\n  - [/] Bread [store:: Bakery]\n  - [ ] Brown ones\n"))

        document = try self.document()
        try document.setMetadata([Field("title", .string("Shopping"))])
        #expect(document.text == Self.text.replacingOccurrences(of: "title: Groceries", with: "title: Shopping"))
    }

    /// What the document knows that parsing its text afresh does not give, if anything.
    static func differenceFromFreshParse(_ document: TodoDocument) -> String? {
        guard let fresh = try? TodoDocument(parsing: document.text) else { return "the text no longer parses" }
        let a = document.entries
        let b = fresh.entries
        if a.map(\.item) != b.map(\.item) { return "items differ from a fresh parse" }
        if a.map(\.line) != b.map(\.line) || a.map(\.column) != b.map(\.column) || a.map(\.depth) != b.map(\.depth) {
            return "places differ from a fresh parse"
        }
        if document.problems() != fresh.problems() {
            return "problems differ: \(document.problems()) != \(fresh.problems())"
        }
        if document.canonicalMarkdown() != fresh.canonicalMarkdown() { return "canonical form differs" }
        if document.records.map(\.extent) != fresh.records.map(\.extent) { return "extents differ" }
        return nil
    }

    @Test("edits of hostile generated documents: the document is what parsing its text gives, or stays as it was")
    func generatedHostile() throws {
        var failures: [String] = []
        var errors = 0
        for seed in 0..<UpdateTests.fuzzCount / 3 {
            var rng = SeededGenerator(seed: UInt64(seed) &+ 555_000)
            let text = MarkdownGenerator.document(seed: UInt64(seed) &+ 70_000, lines: 40)
            var document = try TodoDocument(parsing: text)
            guard !document.entries.isEmpty else { continue }
            let k = Int.random(in: 0..<document.entries.count, using: &rng)
            do {
                switch Int.random(in: 0..<3, using: &rng) {
                case 0: try document.removeItem(at: k)
                case 1: try document.insertItem(TodoItem(name: "New"), under: Bool.random(using: &rng) ? k : nil, at: 0)
                default: try document.moveItem(at: k, under: nil, at: 0)
                }
            } catch {
                errors += 1
                if document.text != text { failures.append("seed \(seed): an edit that failed changed the text") }
            }
            if let problem = Self.differenceFromFreshParse(document) {
                failures.append("seed \(seed): \(problem)\n\(text)")
            }
        }
        #expect(failures.isEmpty, "\(failures.count) failures:\n\(failures.prefix(3).joined(separator: "\n\n"))")
        #expect(errors * 100 < UpdateTests.fuzzCount / 3 * 15)
    }

    /// Paired by content, the item removed or moved was its namesake's twin: the first `c`
    /// (with the note) kept its lines, and the second lost its own (helper hunt 98).
    @Test("the item removed or moved is the one named by place, not a namesake with other lines")
    func namesakes() throws {
        let text = "- [ ] p\n  - [ ] c\n\n    note of the first c\n  - [ ] b\n  - [ ] c\n    - [ ] k\n"
        var document = try TodoDocument(parsing: text)
        try document.removeItem(at: 1)
        #expect(document.text == "- [ ] p\n  - [ ] b\n  - [ ] c\n    - [ ] k\n")
        document = try TodoDocument(parsing: text)
        try document.moveItem(at: 1, under: 0, at: 2)
        #expect(document.text == "- [ ] p\n  - [ ] b\n  - [ ] c\n    - [ ] k\n  - [ ] c\n\n    note of the first c\n")
        document = try TodoDocument(parsing: text)
        try document.insertItem(TodoItem(name: "c"), under: 0, at: 0)
        #expect(
            document.text
                == "- [ ] p\n  - [ ] c\n  - [ ] c\n\n    note of the first c\n  - [ ] b\n  - [ ] c\n    - [ ] k\n")
        // Moved far, past another top-level item: the note of the `a` that stays stays.
        let far =
            "- [ ] p\n- [ ] m\n- [ ] b\n  - [x] a\n    - [ ] a\n  - [x] a\n    - [x] a\n    - [ ] a\n\n      note\n"
        document = try TodoDocument(parsing: far)
        try document.moveItem(at: 3, under: 0, at: 0)
        #expect(
            document.text
                == "- [ ] p\n  - [x] a\n    - [ ] a\n- [ ] m\n- [ ] b\n  - [x] a\n    - [x] a\n    - [ ] a\n\n      note\n"
        )
    }

    /// Text after an item's code block is a paragraph of its own; with that item gone or
    /// moved, it followed the item or text before as its next line, and became part of that
    /// item's name or note, or of that paragraph (helper hunts 100 and 101).
    @Test(
        "text after a removed item's code block stays a paragraph of its own",
        arguments: [
            ("- [ ] a\n- [ ] b\n  ```\n  code\n  ```\nProse\n", "rm 1", "- [ ] a\n\nProse\n"),
            (
                "- [ ] a\n- [ ] b\n  ```\n  code\n  ```\nProse\n", "mv 1 0",
                "- [ ] b\n  ```\n  code\n  ```\n- [ ] a\n\nProse\n"
            ),
            ("> one\n- [ ] a\n> two\n", "rm 0", "> one\n\n> two\n"),
            ("Para one\n- [ ] a\n  ```\n  x\n  ```\nTail\n", "rm 0", "Para one\n\nTail\n"),
            ("- [ ] p\n\n  note\n- [ ] a\n  ```\n  x\n  ```\nTail\n", "rm 1", "- [ ] p\n\n  note\n\nTail\n"),
            (
                "- [ ] p\n\n  note p\n  - [ ] c\n    ```\n    x\n    ```\n  Tail under p\n", "rm 1",
                "- [ ] p\n\n  note p\n\n  Tail under p\n"
            ),
            // In the item's quote (helper hunt 102); `---` would make the text a heading, `2.`
            // and a tag would join it; `1.` starts a list of its own.
            ("> - [ ] a\n> - [ ] b\n>   ```\n>   x\n>   ```\n> Para\n", "rm 1", "> - [ ] a\n>\n> Para\n"),
            ("para\n- [ ] b\n  ```\n  x\n  ```\n---\n", "rm 0", "para\n\n---\n"),
            ("para\n- [ ] b\n  ```\n  x\n  ```\n2. foo\n", "rm 0", "para\n\n2. foo\n"),
            ("para\n- [ ] b\n  ```\n  x\n  ```\n<custom-tag>\n", "rm 0", "para\n\n<custom-tag>\n"),
            ("para\n- [ ] b\n  ```\n  x\n  ```\n1. foo\n", "rm 0", "para\n1. foo\n"),
        ])
    func gluedParagraph(text: String, edit: String, expected: String) throws {
        var document = try TodoDocument(parsing: text)
        let index = Int(edit.split(separator: " ")[1])!
        if edit.hasPrefix("rm") {
            try document.removeItem(at: index)
        } else {
            try document.moveItem(at: index, under: nil, at: 0)
        }
        #expect(document.text == expected)
        // And it reads so: no item took the text in.
        #expect(try TodoDocument(parsing: document.text).list.items.allSatisfy { !$0.name.contains("\n") })
    }

    /// `#hashtag` (no space after the `#`) is a paragraph's text, not a heading: an ordered
    /// item not numbered 1 that comes first under it gets a blank line, and the write goes
    /// through (it was refused as changing the file's meaning: helper hunt 107).
    @Test(
        "a line that starts with # but is no heading is text above a list",
        arguments: ["#hashtag", "##x", "#5 meeting"])
    func hashNotHeading(line: String) throws {
        let text = line + "\n1. [ ] one\n2. [ ] two\n"
        var moved = try TodoDocument(parsing: text)
        try moved.moveItem(at: 1, under: nil, at: 0)
        #expect(moved.text == line + "\n\n2. [ ] two\n1. [ ] one\n")
        var removed = try TodoDocument(parsing: text)
        try removed.removeItem(at: 0)
        #expect(removed.text == line + "\n\n2. [ ] two\n")
        #expect(try TodoDocument(parsing: removed.text).list.items.map(\.name) == ["two"])
        // A heading stays one: an item numbered 2 may follow it.
        var heading = try TodoDocument(parsing: "# H\n1. [ ] one\n2. [ ] two\n")
        try heading.removeItem(at: 0)
        #expect(heading.text == "# H\n2. [ ] two\n")
    }

    /// New items in a quote under a lazy line take the quote's markers, not the lazy line's
    /// (helper hunt 101); where the list stood right under that line, they do too.
    @Test("new quoted items under a lazy line are the quote's")
    func quotedAfterLazyLine() throws {
        var document = try TodoDocument(parsing: "> Text\nlazy\n> - [ ] a\n")
        try document.insertItem(TodoItem(name: "X"), under: nil, at: 0)
        #expect(document.text == "> Text\nlazy\n> - [ ] X\n> - [ ] a\n")
        #expect(try TodoDocument(parsing: document.text).list.items.map(\.name) == ["X", "a"])
    }

    /// A list right under a paragraph (a bullet may start one there) kept no blank line when
    /// its first item went, but got one when an item came first: `mv 2 1` and `add --at 1`
    /// showed a line in `git diff` the user never wrote. Where the text had a blank line, or
    /// the item cannot start a list under a paragraph (`2.`), one stays.
    @Test(
        "items that go first in a list right under text go right under it",
        arguments: [
            ("Some prose.\n- [ ] one\n- [ ] two\n", "Some prose.\n- [ ] two\n- [ ] one\n"),
            ("Some prose.\n\n- [ ] one\n- [ ] two\n", "Some prose.\n\n- [ ] two\n- [ ] one\n"),
            ("# T\nSome prose.\n* [ ] one\n* [ ] two\n", "# T\nSome prose.\n* [ ] two\n* [ ] one\n"),
            ("> Some prose.\n> - [ ] one\n> - [ ] two\n", "> Some prose.\n> - [ ] two\n> - [ ] one\n"),
            ("Some prose.\n1. [ ] one\n2. [ ] two\n", "Some prose.\n\n2. [ ] two\n1. [ ] one\n"),
        ])
    func firstUnderText(text: String, moved: String) throws {
        var document = try TodoDocument(parsing: text)
        try document.moveItem(at: 1, under: nil, at: 0)
        #expect(document.text == moved)
        #expect(try TodoDocument(parsing: document.text).list.items.map(\.name) == ["two", "one"])
        var added = try TodoDocument(parsing: text)
        try added.insertItem(TodoItem(name: "zero"), under: nil, at: 0)
        #expect(try TodoDocument(parsing: added.text).list.items.map(\.name) == ["zero", "one", "two"])
        #expect(added.text.contains("\n\n") == text.contains("\n\n"))
    }

    /// Items under a plain list item's line (`- foo`) got a blank line between, which made
    /// the whole list loose (helper hunt 102).
    @Test("items that go first under a plain list item's line go right under it")
    func underPlainItem() throws {
        var document = try TodoDocument(parsing: "- foo\n  - [ ] c1\n  - [ ] c2\n- [ ] bar\n")
        try document.moveItem(at: 1, under: nil, at: 0)
        #expect(document.text == "- foo\n  - [ ] c2\n  - [ ] c1\n- [ ] bar\n")
        try document.insertItem(TodoItem(name: "new"), under: nil, at: 0)
        #expect(document.text == "- foo\n  - [ ] new\n  - [ ] c2\n  - [ ] c1\n- [ ] bar\n")
    }

    @Test("an item cannot move inside itself")
    func moveInside() throws {
        var document = try document()
        let eggs = try index(document, "Eggs")
        #expect(throws: ConversionError.unsupported("<input>: an item cannot move inside itself")) {
            try document.moveItem(at: eggs, under: eggs + 1, at: nil)
        }
    }

    /// The list after the same edit, made on the list.
    static func expected(_ list: TodoList, _ edit: (inout [TodoItem]) -> Void) -> TodoList {
        var list = list
        edit(&list.items)
        return list
    }

    @Test("random edits of checklists as people keep them: the document reads as the edited list")
    func generated() throws {
        var failures: [String] = []
        for seed in 0..<UpdateTests.fuzzCount / 3 {
            var rng = SeededGenerator(seed: UInt64(seed) &+ 777_000)
            let text = ChecklistGenerator.document(seed: UInt64(seed) &+ 9_000)
            var document = try TodoDocument(parsing: text)
            let list = document.list
            let paths = ListEdits.paths(list.items)
            guard !paths.isEmpty else { continue }
            let k = Int.random(in: 0..<paths.count, using: &rng)
            var expected = list
            do {
                switch Int.random(in: 0..<3, using: &rng) {
                case 0:
                    try document.removeItem(at: k)
                    _ = ListEdits.remove(&expected.items, paths[k])
                case 1:
                    let parent: Int? = Bool.random(using: &rng) ? k : nil
                    let count = document.childIndexes(of: parent).count
                    let position = Int.random(in: 0...count, using: &rng)
                    try document.insertItem(TodoItem(name: "New \(seed)"), under: parent, at: position)
                    ListEdits.insert(
                        TodoItem(name: "New \(seed)"), &expected.items, parent: parent.map { paths[$0] },
                        index: position)
                default:
                    let parent: Int? = Bool.random(using: &rng) ? Int.random(in: 0..<paths.count, using: &rng) : nil
                    if let parent, paths[parent].starts(with: paths[k]) { continue }
                    let siblings = document.childIndexes(of: parent).filter { $0 != k }.count
                    let position = Int.random(in: 0...siblings, using: &rng)
                    try document.moveItem(at: k, under: parent, at: position)
                    var items = expected.items
                    let moved = ListEdits.remove(&items, paths[k])
                    // The parent's path after the removal.
                    let parentPath = parent.map { p -> [Int] in
                        var path = paths[p]
                        let removed = paths[k]
                        if path.count >= removed.count,
                            Array(path[..<(removed.count - 1)]) == Array(removed.dropLast()),
                            path[removed.count - 1] > removed.last!
                        {
                            path[removed.count - 1] -= 1
                        }
                        return path
                    }
                    ListEdits.insert(moved, &items, parent: parentPath, index: position)
                    expected.items = items
                }
            } catch {
                failures.append("seed \(seed): \(error)\n\(text)")
                continue
            }
            let count = document.text.utf8.count
            if !document.records.allSatisfy({
                $0.extentEnd <= count && $0.nameEndOffset <= count && $0.nameStartOffset <= $0.nameEndOffset
            }) {
                failures.append("seed \(seed): records do not fit the text")
                continue
            }
            if let problem = Self.differenceFromFreshParse(document) { failures.append("seed \(seed): \(problem)") }
            let got = ItemAlignment.entries(of: document.list.items).map { "\($0.depth) \($0.item.checklistText)" }
            let want = ItemAlignment.entries(of: expected.items).map { "\($0.depth) \($0.item.checklistText)" }
            if got != want { failures.append("seed \(seed): \(got) != \(want)\n\(text)\n=>\n\(document.text)") }
        }
        #expect(failures.isEmpty, "\(failures.count) failures:\n\(failures.prefix(3).joined(separator: "\n\n"))")
    }
}
