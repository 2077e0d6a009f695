import Foundation
import Testing

@testable import TodoFormat

@Suite("Writing a list into a checklist")
struct UpdateTests {
    /// The document after writing into `text` the list `change` makes of its list.
    func updated(_ text: String, _ change: (inout TodoList) -> Void) throws -> String {
        var document = try TodoDocument(parsing: text)
        var list = document.list
        change(&list)
        do {
            try document.update(with: list)
        } catch {
            let spliced = try? document.spliced(with: list, entries: ItemAlignment.entries(of: list.items))
            Issue.record("\(error)\nspliced:\n\(spliced ?? "-")")
            throw error
        }
        #expect(document.list == list || document.list.items.count == list.items.count)
        return document.text
    }

    static let groceries = """
        ---
        title: Groceries
        ---
        Intro text.

        # Today
        - [ ] Milk
        - [x] Eggs
          - [ ] Brown ones
            with a second line

          Notes about eggs.
        - [/] Bread [store:: Bakery]

        ```
        - [ ] not an item
        ```

        # Later
        * [ ] Coffee
        * [ ] Tea

        The end.

        """

    @Test("the same list changes nothing")
    func same() throws {
        #expect(try updated(Self.groceries) { _ in } == Self.groceries)
    }

    @Test(
        "each edit changes only its lines",
        arguments: [
            ("check", "- [ ] Milk", "- [x] Milk"),
            ("rename", "- [x] Eggs", "- [x] Fresh eggs"),
            ("fields", "- [/] Bread [store:: Bakery]", "- [/] Bread [store:: Corner] [qty:: 2]"),
            ("child", "  - [ ] Brown ones\n    with a second line\n", "  - [x] White ones\n"),
            ("later", "* [ ] Tea", "* [x] Tea"),
        ])
    func oneEdit(edit: String, before: String, after: String) throws {
        let result = try updated(Self.groceries) { list in
            switch edit {
            case "check": list.items[0].isChecked = true
            case "rename": list.items[1].name = "Fresh eggs"
            case "fields": list.items[2].fields = [Field("store", .string("Corner")), Field("qty", .integer(2))]
            case "child":
                list.items[1].children[0].name = "White ones"
                list.items[1].children[0].isChecked = true
            default: list.items[4].isChecked = true
            }
        }
        #expect(result == Self.groceries.replacingOccurrences(of: before, with: after))
    }

    @Test("a removed item's lines go, with its nested items and notes")
    func remove() throws {
        #expect(
            try updated(Self.groceries) { $0.items.remove(at: 1) }
                == Self.groceries.replacingOccurrences(
                    of: "- [x] Eggs\n  - [ ] Brown ones\n    with a second line\n\n  Notes about eggs.\n", with: ""))
        #expect(
            try updated(Self.groceries) { $0.items.remove(at: 4) }
                == Self.groceries.replacingOccurrences(of: "* [ ] Tea\n", with: ""))
    }

    @Test("new items go after the item they follow, like their neighbours, at the end of their section")
    func add() throws {
        #expect(
            try updated(Self.groceries) { $0.items.insert(TodoItem(name: "Butter", section: "Today"), at: 3) }
                == Self.groceries.replacingOccurrences(
                    of: "- [/] Bread [store:: Bakery]\n", with: "- [/] Bread [store:: Bakery]\n- [ ] Butter\n"))
        #expect(
            try updated(Self.groceries) { $0.items.append(TodoItem(name: "Cocoa", section: "Later")) }
                == Self.groceries.replacingOccurrences(of: "* [ ] Tea\n", with: "* [ ] Tea\n* [ ] Cocoa\n"))
        #expect(
            try updated(Self.groceries) { $0.items[0].children.append(TodoItem(name: "Oat milk")) }
                == Self.groceries.replacingOccurrences(of: "- [ ] Milk\n", with: "- [ ] Milk\n  - [ ] Oat milk\n"))
        #expect(
            try updated(Self.groceries) { $0.items[1].children.append(TodoItem(name: "White ones")) }
                == Self.groceries.replacingOccurrences(
                    of: "    with a second line\n", with: "    with a second line\n  - [ ] White ones\n"))
        #expect(
            try updated(Self.groceries) { $0.items.insert(TodoItem(name: "Jam", section: "Tomorrow"), at: 3) }
                == Self.groceries.replacingOccurrences(
                    of: "- [/] Bread [store:: Bakery]\n",
                    with: "- [/] Bread [store:: Bakery]\n\n# Tomorrow\n- [ ] Jam\n"))
    }

    @Test("a moved item's lines move")
    func move() throws {
        #expect(
            try updated(Self.groceries) { $0.items.swapAt(0, 2) }
                == Self.groceries.replacingOccurrences(
                    of:
                        "- [ ] Milk\n- [x] Eggs\n  - [ ] Brown ones\n    with a second line\n\n  Notes about eggs.\n- [/] Bread [store:: Bakery]\n",
                    with:
                        "- [/] Bread [store:: Bakery]\n- [x] Eggs\n  - [ ] Brown ones\n    with a second line\n\n  Notes about eggs.\n- [ ] Milk\n"
                ))
        #expect(
            try updated(Self.groceries) { list in
                var tea = list.items.remove(at: 4)
                tea.section = "Today"
                list.items.insert(tea, at: 0)
            }
                == Self.groceries.replacingOccurrences(of: "* [ ] Tea\n", with: "").replacingOccurrences(
                    of: "# Today\n", with: "# Today\n* [ ] Tea\n"))
    }

    /// An item that moved and changed pairs with its old self by its name: its lines move
    /// (its notes, its nested items, its marker, its fields as written) and its box changes.
    @Test("a moved item that changed keeps its lines")
    func moveAndChange() throws {
        #expect(
            try updated(Self.groceries) { list in
                var eggs = list.items.remove(at: 1)
                eggs.status = .open
                list.items.insert(eggs, at: 2)
            }
                == Self.groceries.replacingOccurrences(
                    of:
                        "- [x] Eggs\n  - [ ] Brown ones\n    with a second line\n\n  Notes about eggs.\n- [/] Bread [store:: Bakery]\n",
                    with:
                        "- [/] Bread [store:: Bakery]\n- [ ] Eggs\n  - [ ] Brown ones\n    with a second line\n\n  Notes about eggs.\n"
                ))
        // A field keeps its text as written (`1.10`, not `1.1` as a new item would have it).
        #expect(
            try updated("* [ ] Coffee [n:: 1.10]\n* [ ] Tea\n") { list in
                var coffee = list.items.remove(at: 0)
                coffee.status = .done
                list.items.append(coffee)
            } == "* [ ] Tea\n* [x] Coffee [n:: 1.10]\n")
    }

    /// The byte order mark stays first: it is no part of the first item's lines, which move.
    @Test(
        "a checklist that starts with a byte order mark keeps it first when its first item moves",
        arguments: [
            ("- [x] a\n- [ ] b\n", "- [x] b\n- [ ] a\n"),
            ("- [ ] a\n- [ ] b\n", "- [ ] b\n- [ ] a\n"),
            ("- [x] a\n  note\n- [ ] a\n  - [ ] z\n  - [ ] b\n", "- [x] a\n  - [ ] b\n- [x] a\n  - [x] z\n"),
            ("- [ ] a\n- [ ] b", "- [ ] new\n- [ ] b\n- [ ] a\n"),
        ])
    func byteOrderMark(file: String, checklist: String) throws {
        let expected = try MarkdownSource(text: checklist, path: "n.md").list()
        // The document's update, and a checklist file written into another.
        #expect(try updated("\u{FEFF}" + file) { $0 = expected }.unicodeScalars.first == "\u{FEFF}")
        let directory = try TemporaryDirectory()
        let (old, new) = (directory.path("old.md"), directory.path("new.md"))
        try ("\u{FEFF}" + file).write(toFile: old, atomically: false, encoding: .utf8)
        try checklist.write(toFile: new, atomically: false, encoding: .utf8)
        try MarkdownFormat().update(Input(file: old), withChecklist: Input(file: new)).commit()
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: old)))
        #expect(bytes.starts(with: [0xEF, 0xBB, 0xBF]) && !bytes.dropFirst(3).contains(0xEF), "\(bytes)")
        #expect(try TodoDocument(contentsOf: URL(fileURLWithPath: old)).list.items == expected.items)
    }

    /// Empty front matter kept as it is, with a list without metadata, is no `---` block that
    /// taking the front matter away would leave (hunt 96: the update was refused so).
    @Test("empty front matter stays, and an item renamed under it is written")
    func emptyFrontMatter() throws {
        let text = "---\n---\n\n## Home\n- [ ] a\n"
        let written = try updated(text) { $0.items[0].name = "renamed" }
        #expect(written == "---\n---\n\n## Home\n- [ ] renamed\n")
    }

    @Test("metadata changes rewrite only the front matter", .needsYAML)
    func metadata() throws {
        #expect(
            try updated(Self.groceries) { $0.metadata = [Field("title", .string("Shopping"))] }
                == Self.groceries.replacingOccurrences(of: "title: Groceries", with: "title: Shopping"))
        #expect(
            try updated(Self.groceries) { $0.metadata = [] }
                == Self.groceries.replacingOccurrences(of: "---\ntitle: Groceries\n---\n", with: ""))
        #expect(
            try updated("- [ ] a\n") { $0.metadata = [Field("owner", .string("me"))] }
                == "---\nowner: me\n---\n- [ ] a\n")
    }

    @Test(
        "loose lists, CRLF, no final newline, ordered and quoted items",
        arguments: [
            ("- [ ] a\n\n- [ ] b\n\n- [ ] c\n", "remove b", "- [ ] a\n\n- [ ] c\n"),
            ("- [ ] a\n\n- [ ] b\n\n- [ ] c\n", "remove c", "- [ ] a\n\n- [ ] b\n"),
            ("- [ ] a\r\n- [ ] b\r\n", "append d", "- [ ] a\r\n- [ ] b\r\n- [ ] d\r\n"),
            ("- [ ] a\n- [ ] b", "append d", "- [ ] a\n- [ ] b\n- [ ] d"),
            ("1. [ ] a\n2. [ ] b\n", "append d", "1. [ ] a\n2. [ ] b\n3. [ ] d\n"),
            ("> - [ ] a\n> - [ ] b\n", "append d", "> - [ ] a\n> - [ ] b\n> - [ ] d\n"),
            ("", "append d", "- [ ] d\n"),
            ("Just prose.\n", "append d", "Just prose.\n\n- [ ] d\n"),
            ("- [ ] a\n- [ ] b\n", "remove all", ""),
            ("Text\n\n- [ ] a\n\nMore\n", "remove all", "Text\n\n\nMore\n"),
            // The blank line before the first item parts it from the text above: it stays.
            ("Text\n\n- [ ] a\n- [ ] b\n", "remove a", "Text\n\n- [ ] b\n"),
            ("---\ntitle: x\n---\n\n- [ ] a\n- [ ] b\n", "remove a", "---\ntitle: x\n---\n\n- [ ] b\n"),
            // The first item right under the text above (or first in the file), then a blank
            // line: the next one takes its place, and the file does not start with a blank line.
            ("- [ ] a\n\n- [ ] b\n\n- [ ] c\n", "remove a", "- [ ] b\n\n- [ ] c\n"),
            ("- [ ] a\n\n- [ ] b\n- [ ] c\n", "remove a", "- [ ] b\n- [ ] c\n"),
            ("Text\n- [ ] a\n\n- [ ] b\n", "remove a", "Text\n- [ ] b\n"),
            ("- [ ] p\n  - [ ] a\n\n  - [ ] b\n- [ ] q\n", "remove p's first", "- [ ] p\n  - [ ] b\n- [ ] q\n"),
            // Inside a quote, the blank line that parts `2.` from the text above is the quote's.
            ("> Intro\n> 1. [ ] a\n>\n> 2. [ ] b\n", "remove a", "> Intro\n>\n> 2. [ ] b\n"),
            ("> > Intro\r\n> > 1. [ ] a\r\n> > 2. [ ] b\r\n", "remove a", "> > Intro\r\n> >\r\n> > 2. [ ] b\r\n"),
        ])
    func layouts(text: String, edit: String, expected: String) throws {
        let result = try updated(text) { list in
            switch edit {
            case "remove a": list.items.remove(at: 0)
            case "remove b": list.items.remove(at: 1)
            case "remove c": list.items.remove(at: 2)
            case "remove all": list.items = []
            case "remove p's first": list.items[0].children.remove(at: 0)
            default: list.items.append(TodoItem(name: "d"))
            }
        }
        #expect(result == expected)
    }
}

extension UpdateTests {
    /// A nested list right under its parent's line: an ordered item not numbered 1 there
    /// would join that line's paragraph (hunt 96's F7 was refused as changing the meaning).
    @Test(
        "the first items of a numbered sublist removed: the one now first takes their number",
        arguments: [
            (
                "1. [x] Buy milk\n   1. [ ] check fridge\n   2. [x] go to shop\n", 1,
                "1. [x] Buy milk\n   1. [x] go to shop\n"
            ),
            (
                "- [ ] P\n  1) [ ] a\n  2) [ ] b\n     - [ ] b1\n  3) [ ] c\n", 1,
                "- [ ] P\n  1) [ ] b\n     - [ ] b1\n  3) [ ] c\n"
            ),
            ("- [ ] P\n\n  3. [ ] a\n  4. [ ] b\n  5. [ ] c\n", 2, "- [ ] P\n\n  3. [ ] c\n"),
            ("> - [ ] P\n>   1. [ ] a\n>   2. [ ] b\n", 1, "> - [ ] P\n>   1. [ ] b\n"),
            // After a blank line the list could start anywhere, but it keeps its start too.
            ("- [ ] P\n\n  1. [ ] a\n  2. [ ] b\n", 1, "- [ ] P\n\n  1. [ ] b\n"),
        ])
    func sublistLosesItsFirst(text: String, removed: Int, expected: String) throws {
        let result = try updated(text) { $0.items[0].children.removeFirst(removed) }
        #expect(result == expected)
        // A new item after it counts on from its new number.
        let added = try updated(text) {
            $0.items[0].children.removeFirst(removed)
            $0.items[0].children.insert(TodoItem(name: "new"), at: 1)
        }
        let kept = try TodoDocument(parsing: added).list.items[0].children.map(\.name)
        #expect(kept.prefix(2) == [try TodoDocument(parsing: expected).list.items[0].children[0].name, "new"])
    }
}

extension UpdateTests {
    @Test("an item moved or put first in a numbered sublist takes the list's first number (helper hunt 97)")
    func firstOfSublist() throws {
        let text = "1. [x] Buy milk\n   1. [ ] check fridge\n   2. [x] go to shop\n2. [ ] Other\n"
        // Moved to the top within its list: its own line, renumbered.
        #expect(
            try updated(text) { $0.items[0].children.swapAt(0, 1) }
                == "1. [x] Buy milk\n   1. [x] go to shop\n   1. [ ] check fridge\n2. [ ] Other\n")
        // Three parents of one name, the first kid of the first and last removed: the list is
        // paired as a whole, and an item put before `2.` takes `1.`.
        let kids = "   1. [ ] kid 0\n   2. [x] kid 1\n"
        let parents = (1...3).map { "\($0). [ ] parent\n" + kids }.joined()
        #expect(
            try updated(parents) {
                $0.items[0].children.removeFirst()
                $0.items[2].children.removeFirst()
            } == "1. [ ] parent\n   1. [x] kid 1\n2. [ ] parent\n" + kids + "3. [ ] parent\n   1. [x] kid 1\n")
        // Never a wider number: the lines under the item are indented for its own.
        let wide = "- [ ] p\n\n  10. [ ] a\n  1. [ ] b\n     - [ ] b1\n  2. [ ] c\n"
        #expect(
            try updated(wide) { $0.items[0].children.swapAt(0, 1) }
                == "- [ ] p\n\n  1. [ ] b\n     - [ ] b1\n  10. [ ] a\n  2. [ ] c\n")
    }

    @Test("a nested list that goes whole takes its blank line before with it; one that stays keeps it")
    func sublistGoesWhole() throws {
        let text = "- [ ] x\n\n  3. [ ] a\n\n- [ ] y\n\n  3. [ ] b\n  4. [ ] c\n\n- [ ] z\n"
        #expect(
            try updated(text) {
                $0.items[0].children = []
                $0.items[1].children.removeFirst()
            } == "- [ ] x\n\n- [ ] y\n\n  3. [ ] c\n\n- [ ] z\n")
    }
}

/// Random edits of a list, as a person (or another app) makes them.
enum ListEdits {
    /// Every item's place, depth first: the index path of each.
    static func paths(_ items: [TodoItem], _ prefix: [Int] = []) -> [[Int]] {
        items.enumerated().flatMap { i, item in [prefix + [i]] + paths(item.children, prefix + [i]) }
    }

    static func get(_ items: [TodoItem], _ path: [Int]) -> TodoItem {
        path.count == 1 ? items[path[0]] : get(items[path[0]].children, Array(path.dropFirst()))
    }

    static func modify(_ items: inout [TodoItem], _ path: [Int], _ change: (inout TodoItem) -> Void) {
        if path.count == 1 {
            change(&items[path[0]])
        } else {
            modify(&items[path[0]].children, Array(path.dropFirst()), change)
        }
    }

    static func remove(_ items: inout [TodoItem], _ path: [Int]) -> TodoItem {
        if path.count == 1 { return items.remove(at: path[0]) }
        var removed: TodoItem!
        modify(&items, Array(path.dropLast())) { removed = $0.children.remove(at: path.last!) }
        return removed
    }

    /// Inserts as a child of `parent` (nil: at the top) at `index`.
    static func insert(_ item: TodoItem, _ items: inout [TodoItem], parent: [Int]?, index: Int) {
        var item = item
        guard let parent else {
            items.insert(item, at: min(index, items.count))
            return
        }
        item.section = nil
        modify(&items, parent) { $0.children.insert(item, at: min(index, $0.children.count)) }
    }

    static let names = [
        "New item", "Buy milk ", "  spaced", "two\nlines", "- looks like a list", "# heading?", "tab\there",
        "x [k:: 1]", " ", "Eggs",
    ]
    static let sections: [String?] = [nil, "Today", "Later", "Heading", "Brand new"]

    static func edit(_ list: inout TodoList, _ rng: inout SeededGenerator) {
        var items = list.items
        let all = paths(items)
        func randomPath() -> [Int]? { all.isEmpty ? nil : all.randomElement(using: &rng) }
        switch Int.random(in: 0..<10, using: &rng) {
        case 0, 1:
            if let p = randomPath() {
                modify(&items, p) { $0.status = [.open, .done, .custom("/")].randomElement(using: &rng)! }
            }
        case 2:
            if let p = randomPath() { modify(&items, p) { $0.name = names.randomElement(using: &rng)! } }
        case 3:
            if let p = randomPath() {
                modify(&items, p) { $0.fields = Bool.random(using: &rng) ? [] : [Field("id", .integer(7))] }
            }
        case 4:
            if let p = randomPath() { _ = remove(&items, p) }
        case 5, 6:
            let item = TodoItem(name: names.randomElement(using: &rng)!, section: sections.randomElement(using: &rng)!)
            let parent = Bool.random(using: &rng) ? randomPath() : nil
            let count = parent.map { get(items, $0).children.count } ?? items.count
            insert(item, &items, parent: parent, index: Int.random(in: 0...count, using: &rng))
        case 7:
            if let p = randomPath() {
                var moved = remove(&items, p)
                let rest = paths(items)
                let parent = Bool.random(using: &rng) || rest.isEmpty ? nil : rest.randomElement(using: &rng)
                if parent == nil {
                    moved.section = Bool.random(using: &rng) ? moved.section : sections.randomElement(using: &rng)!
                }
                let count = parent.map { get(items, $0).children.count } ?? items.count
                insert(moved, &items, parent: parent, index: Int.random(in: 0...count, using: &rng))
            }
        case 8:
            if !items.isEmpty {
                let i = Int.random(in: 0..<items.count, using: &rng)
                items[i].section = sections.randomElement(using: &rng)!
            }
        default:
            if Bool.random(using: &rng) {
                items.reverse()
            } else {
                items = Array(items.dropFirst(Int.random(in: 0...items.count, using: &rng)))
            }
        }
        list.items = items
    }
}

/// Checklists as people keep them: headings, prose, tight and loose lists with `-`, `*` or
/// numbers, nesting by two or four spaces, notes and code under items, now and then a quote.
enum ChecklistGenerator {
    static func document(seed: UInt64) -> String {
        var rng = SeededGenerator(seed: seed)
        let crlf = Int.random(in: 0..<8, using: &rng) == 0
        var lines: [String] = []
        if Int.random(in: 0..<4, using: &rng) == 0 { lines += ["---", "title: List \(seed)", "---"] }
        if Int.random(in: 0..<3, using: &rng) == 0 { lines += ["# Project \(seed)", "", "Some intro text.", ""] }
        let names = [
            "Milk", "Eggs", "Call the bank", "Fix the build [id:: 3]", "caf\u{E9} cr\u{E8}me", "**bold** task",
            "see [docs](http://x)",
        ]
        let headings = ["Today", "Later", "Done", "Ideas"]
        for section in 0..<Int.random(in: 1...4, using: &rng) {
            if section > 0 || Bool.random(using: &rng) {
                lines.append(
                    String(repeating: "#", count: Int.random(in: 1...3, using: &rng)) + " "
                        + headings[section % headings.count])
                if Int.random(in: 0..<3, using: &rng) == 0 { lines += ["", "A paragraph about this part."] }
                if Bool.random(using: &rng) { lines.append("") }
            }
            let marker = ["- ", "- ", "* ", "+ ", "1. "].randomElement(using: &rng)!
            let indent = Bool.random(using: &rng) ? 2 : 4
            let loose = Int.random(in: 0..<5, using: &rng) == 0
            var depth = 0
            for n in 0..<Int.random(in: 0...8, using: &rng) {
                let box = [" ", " ", "x", "/", "-"].randomElement(using: &rng)!
                let m = marker == "1. " ? "\(n + 1). " : marker
                let pad = String(repeating: " ", count: depth * (marker == "1. " && indent == 2 ? 3 : indent))
                lines.append(pad + m + "[\(box)] " + names.randomElement(using: &rng)!)
                switch Int.random(in: 0..<12, using: &rng) {
                case 0: lines.append(pad + String(repeating: " ", count: m.count) + "a second line")
                case 1: lines += ["", pad + String(repeating: " ", count: m.count) + "A note under it."]
                case 2:
                    lines += [
                        "", pad + String(repeating: " ", count: m.count) + "```",
                        pad + String(repeating: " ", count: m.count) + "code",
                        pad + String(repeating: " ", count: m.count) + "```",
                    ]
                default: break
                }
                if loose { lines.append("") }
                depth = [0, depth, min(depth + 1, 3)].randomElement(using: &rng)!
            }
            if Int.random(in: 0..<4, using: &rng) == 0 { lines += ["", "Text after the list."] }
            if Int.random(in: 0..<6, using: &rng) == 0 { lines += ["", "> - [ ] a quoted task", "> - [x] another"] }
            lines.append("")
        }
        if Int.random(in: 0..<3, using: &rng) == 0 { lines.removeLast() }
        return lines.joined(separator: crlf ? "\r\n" : "\n")
    }
}

extension UpdateTests {
    /// How many generated documents get random edits: 1500, or TODOFMT_DOCUMENTS=N.
    static let fuzzCount = Int(ProcessInfo.processInfo.environment["TODOFMT_DOCUMENTS"] ?? "") ?? 1500

    /// Random edits of each document: the result reads as the list (else the update throws),
    /// and writing the same list again changes nothing. Returns the failures.
    static func fuzz(_ documents: [String], seed base: UInt64) throws -> (failed: [String], errors: Int) {
        var failures: [String] = []
        var errors = 0
        for (seed, text) in documents.enumerated() {
            var rng = SeededGenerator(seed: UInt64(seed) &+ base)
            var document = try TodoDocument(parsing: text)
            var list = document.list
            for _ in 0..<Int.random(in: 1...3, using: &rng) { ListEdits.edit(&list, &rng) }
            do {
                try document.update(with: list)
            } catch {
                errors += 1
                failures.append(
                    "seed \(seed): \(error)\n\(text)\n---\n\(list.flattened().map { "\($0.depth) \($0.item.checklistText) §\($0.item.section ?? "-")" }.joined(separator: "\n"))"
                )
                continue
            }
            let again = document.text
            try document.update(with: document.list)
            if document.text != again { failures.append("seed \(seed): writing the result again changes it") }
        }
        return (failures, errors)
    }

    @Test("random edits of checklists as people keep them always write back")
    func generatedRealistic() throws {
        let documents = (0..<Self.fuzzCount).map { ChecklistGenerator.document(seed: UInt64($0) &+ 500) }
        let result = try Self.fuzz(documents, seed: 321_000)
        #expect(
            result.failed.isEmpty,
            "\(result.failed.count) failures:\n\(result.failed.prefix(3).joined(separator: "\n\n"))")
    }

    @Test("random edits of hostile generated documents: a result that reads as the list, or an error")
    func generatedHostile() throws {
        let documents = (0..<Self.fuzzCount).map { MarkdownGenerator.document(seed: UInt64($0) &+ 60_000, lines: 30) }
        let result = try Self.fuzz(documents, seed: 123_000)
        // Every document that is written reads as its list (the update checks it); a few of
        // these documents are too tangled to change in place, and say so.
        #expect(result.failed.count == result.errors)
        #expect(
            result.errors * 100 < documents.count * 15,
            "\(result.errors) of \(documents.count) could not be written:\n\(result.failed.prefix(3).joined(separator: "\n\n"))"
        )
    }
}
