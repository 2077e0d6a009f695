import Foundation
import Testing

@testable import TodoFormat

@Suite("What changed between two lists, item by item")
struct ListDiffTests {
    static func diff(_ old: String, _ new: String) throws -> [String] {
        ListDiff(from: try TodoList(markdown: old), to: try TodoList(markdown: new)).changes.map(\.description)
    }

    @Test("the same list: no changes")
    func same() throws {
        #expect(try Self.diff("- [ ] a\n  - [x] b\n", "- [ ] a\n  - [x] b\n") == [])
    }

    @Test("checked, unchecked, custom status, renamed, field changed, added, removed")
    func kinds() throws {
        let old = "- [ ] Milk\n- [x] Eggs\n- [ ] Bread [qty:: 2]\n- [ ] Jam\n- [ ] Tea\n"
        let new = "- [x] Milk\n- [ ] Eggs\n- [ ] Bread loaf [qty:: 3] [due:: 2026-12-01]\n- [/] Tea\n- [ ] Cake\n"
        #expect(
            try Self.diff(old, new) == [
                "removed 4: [ ] Jam",
                "checked 1: Milk",
                "unchecked 2: Eggs",
                "renamed 3: Bread loaf (was Bread)",
                "field 3 qty: 3 (was 2)",
                "field 3 due: 2026-12-01 (was none)",
                "status 4: [/] Tea (was [ ])",
                "added 5: [ ] Cake",
            ])
    }

    /// Boxes alone changed: the items pair in place, also where an item's box became that of
    /// another item with its text (which took the two for one item moved).
    @Test("lists that differ only in their boxes pair in place, items of the same text too")
    func boxesOnly() throws {
        let old = "- [ ] Milk\n- [x] Milk\n- [ ] Eggs\n  - [/] Milk\n  - [ ] Milk\n"
        let new = "- [x] Milk\n- [ ] Milk\n- [ ] Eggs\n  - [ ] Milk\n  - [/] Milk\n"
        #expect(
            try Self.diff(old, new) == [
                "checked 1: Milk", "unchecked 2: Milk", "status 3.1: [ ] Milk (was [/])",
                "status 3.2: [/] Milk (was [ ])",
            ])
        // Anything else changed as well: the items are paired as before.
        #expect(try Self.diff(old, new + "- [ ] Tea\n").contains { $0.hasPrefix("moved") })
    }

    @Test("a date and the same date as text are the same value; a changed date is told as read")
    func dates() {
        let day = Date(timeIntervalSince1970: 1_764_547_200)
        let later = day.addingTimeInterval(86_400)
        func list(_ due: FieldValue, _ at: FieldValue) -> TodoList {
            TodoList(items: [
                TodoItem(name: "Pay", fields: [Field("due", due)]), TodoItem(name: "Tea", fields: [Field("at", at)]),
            ])
        }
        let old = list(.date(day), .date(day))
        let text = FieldValue.string(FieldValue.date(day).description)
        #expect(ListDiff(from: old, to: list(text, .date(day))).changes.isEmpty)
        let changes = ListDiff(from: old, to: list(text, .date(later))).changes
        #expect(changes.count == 1)
        #expect(changes.first?.oldValue == .date(day) && changes.first?.newValue == .date(later))
    }

    @Test("a moved item is one move; its nested items go with it and are not moves")
    func moves() throws {
        let old = "- [ ] a\n- [ ] b\n  - [ ] b1\n  - [ ] b2\n- [ ] c\n- [ ] d\n- [ ] e\n- [ ] f\n"
        let new = "- [ ] a\n- [ ] c\n- [ ] d\n- [ ] e\n- [ ] f\n- [ ] b\n  - [ ] b1\n  - [ ] b2\n"
        #expect(try Self.diff(old, new) == ["moved 6 (was 2): b"])
        // Indented under another item: a move to a nested position.
        #expect(try Self.diff("- [ ] a\n- [ ] b\n", "- [ ] a\n  - [ ] b\n") == ["moved 1.1 (was 2): b"])
        // Checked and moved: both.
        #expect(
            try Self.diff("- [ ] a\n- [ ] b\n- [ ] c\n", "- [x] c\n- [ ] a\n- [ ] b\n") == [
                "moved 1 (was 3): c", "checked 1: c",
            ])
    }

    @Test("items with an id pair by it, whatever their text")
    func identity() throws {
        let old = "- [ ] Milk [id:: 1]\n- [ ] Eggs [id:: 2]\n"
        let new = "- [ ] Eggs, brown [id:: 2]\n- [ ] Oat milk [id:: 1]\n"
        #expect(
            try Self.diff(old, new) == [
                "moved 1 (was 2): Eggs, brown", "renamed 1: Eggs, brown (was Eggs)", "renamed 2: Oat milk (was Milk)",
            ])
    }

    @Test("metadata and sections", .needsYAML)
    func metadataAndSections() throws {
        let old = "---\ntitle: A\n---\n# Today\n- [ ] a\n# Later\n- [ ] b\n"
        let new = "---\ntitle: B\nowner: me\n---\n# Today\n- [ ] a\n- [ ] b\n# Later\n"
        #expect(
            try Self.diff(old, new) == [
                "metadata title: B (was A)", "metadata owner: me (was none)", "section 2: Today (was Later)",
            ])
    }

    @Test("typed changes: kinds, positions, values")
    func typed() throws {
        let diff = ListDiff(
            from: TodoList(items: [TodoItem(name: "a", fields: [Field("n", .integer(1))])]),
            to: TodoList(items: [
                TodoItem(name: "a", status: .done, fields: [Field("n", .integer(2))]), TodoItem(name: "b"),
            ]))
        #expect(diff.changes.map(\.kind) == [.checked, .field, .added])
        #expect(
            diff.changes[1].key == "n" && diff.changes[1].oldValue == .integer(1)
                && diff.changes[1].newValue == .integer(2))
        #expect(diff.changes[2].position == "2" && diff.changes[2].item?.name == "b")
    }

    @Test("a list of many items with one changed in the middle")
    func large() throws {
        let items = (0..<5000).map { TodoItem(name: "item \($0 % 100)") }
        var changed = items
        changed[2500].status = .done
        changed.remove(at: 10)
        let diff = ListDiff(from: TodoList(items: items), to: TodoList(items: changed))
        #expect(diff.changes.map(\.description) == ["removed 11: [ ] item 10", "checked 2500: item 0"])
    }

    /// Found by a hunt: the items left around the common run were paired in order wherever
    /// they stood, so a removed item and an added one on either side of an unchanged item
    /// were a rename, and the unchanged item a move.
    @Test(
        "a removed item and an added one on either side of an unchanged item are not a rename", arguments: [10, 1100])
    func notARenameAcrossTheCommonRun(pads: Int) throws {
        let padding = (0..<pads).map { "- [ ] pad \($0)\n" }.joined()
        let diff = try Self.diff(
            padding + "- [ ] gone\n- [ ] keep\n",
            padding.replacingOccurrences(of: "[ ]", with: "[x]") + "- [ ] keep\n- [ ] new\n")
        #expect(
            diff.filter { !$0.hasPrefix("checked") } == ["removed \(pads + 1): [ ] gone", "added \(pads + 2): [ ] new"])
        #expect(diff.count == pads + 2)
    }

    /// Found by a hunt: the children left under a parent that moved stand on either side of
    /// the common run's items, but among their siblings they kept their places.
    @Test("a child renamed under a parent that moved is renamed")
    func childRenamedUnderMovedParent() throws {
        let diff = try Self.diff(
            "- [ ] Soap\n  - [ ] Honey\n  - [ ] Cheese\n- [ ] A\n- [ ] B\n- [ ] C\n- [ ] Beans\n",
            "- [ ] Beans\n- [ ] A\n- [ ] B\n- [ ] C\n- [ ] Soap\n  - [ ] Honey loaf\n  - [ ] Cheese\n")
        #expect(diff.contains("renamed 5.1: Honey loaf (was Honey)"), "\(diff)")
        #expect(!diff.contains { $0.hasPrefix("added") || $0.hasPrefix("removed") }, "\(diff)")
        // Under a parent that stays (checked where it stands, or unchanged), children on either
        // side of an unchanged child are not a rename.
        for parent in ["- [x] Soap", "- [ ] Soap"] {
            let nested = try Self.diff(
                "- [ ] Soap\n  - [ ] gone\n  - [ ] keep\n- [ ] Beans\n",
                parent + "\n  - [ ] keep\n  - [ ] new\n- [ ] Beans\n")
            #expect(nested.contains("removed 1.1: [ ] gone") && nested.contains("added 1.2: [ ] new"), "\(nested)")
        }
    }

    @Test("Myers' common run is a longest common subsequence, or nil past the differences allowed")
    func commonRunIsLongest() {
        var random = SeededGenerator(seed: 5)
        for round in 0..<400 {
            let a = (0..<Int.random(in: 0..<60, using: &random)).map { _ in Int.random(in: 0..<6, using: &random) }
            var b = a
            for _ in 0..<Int.random(in: 0..<12, using: &random) {
                let at = Int.random(in: 0...b.count, using: &random)
                if Bool.random(using: &random) || at == b.count {
                    b.insert(Int.random(in: 0..<6, using: &random), at: at)
                } else {
                    b.remove(at: at)
                }
            }
            // The longest common subsequence's length, by the table.
            var table = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
            for i in a.indices.reversed() {
                for j in b.indices.reversed() {
                    table[i][j] = a[i] == b[j] ? table[i + 1][j + 1] + 1 : max(table[i + 1][j], table[i][j + 1])
                }
            }
            let longest = table[0][0]
            let differences = a.count + b.count - 2 * longest
            // The bound told from the digests alone (which `ItemPairing` skips Myers' diff by)
            // never passes the differences, and meets them where every difference is in counts.
            let least = ItemPairing.leastDifferences(a, b)
            #expect(least <= differences, "round \(round)")
            if a.sorted() == a && b.sorted() == b { #expect(least == differences, "round \(round)") }
            let limit = Int.random(in: 0..<15, using: &random)
            let run = TodoFormat.commonRun(a, b, maxDifferences: limit)
            guard a.count > 0 && b.count > 0 else { continue }
            guard differences <= limit else {
                #expect(run == nil, "round \(round)")
                continue
            }
            guard let run else {
                Issue.record("round \(round): no run within \(limit) differences")
                continue
            }
            #expect(run.count == longest, "round \(round)")
            #expect(run.allSatisfy { a[$0.0] == b[$0.1] }, "round \(round)")
            #expect(zip(run, run.dropFirst()).allSatisfy { $0.0 < $1.0 && $0.1 < $1.1 }, "round \(round)")
        }
    }

    /// `ItemPairing.uniqueRun` as first written: items grouped by content on each side, a
    /// new item paired where its content comes once on each side, then the longest run.
    static func referenceUniqueRun(_ old: [ItemAlignment.Entry], _ new: [ItemAlignment.Entry]) -> [(Int, Int)] {
        var oldPlaces: [ItemAlignment.Entry: [Int]] = [:]
        var newPlaces: [ItemAlignment.Entry: [Int]] = [:]
        for (o, entry) in old.enumerated() { oldPlaces[entry, default: []].append(o) }
        for (n, entry) in new.enumerated() { newPlaces[entry, default: []].append(n) }
        let pairs = new.indices.compactMap { n -> (Int, Int)? in
            guard newPlaces[new[n]]!.count == 1, let olds = oldPlaces[new[n]], olds.count == 1 else { return nil }
            return (olds[0], n)
        }
        let run = longestIncreasingRun(pairs.map { Optional($0.0) })
        return pairs.indices.filter { run[$0] }.map { pairs[$0] }
    }

    @Test("the items that come once on each side, counted by digest, are those grouped by content")
    func uniqueRunAgreesWithGrouping() {
        var random = SeededGenerator(seed: 73)
        for round in 0..<300 {
            // Unique items, and items from a few names that recur (some spelled in two
            // canonically equivalent ways), at a few depths, checked or not.
            let names = ["a", "b", "caf\u{E9}", "cafe\u{301}", "日本"]
            func entry() -> ItemAlignment.Entry {
                let name =
                    Int.random(in: 0..<3, using: &random) == 0
                    ? names.randomElement(using: &random)! : "item \(Int.random(in: 0..<400, using: &random))"
                return ItemAlignment.Entry(
                    TodoItem(name: name, status: Bool.random(using: &random) ? .done : .open),
                    depth: Int.random(in: 0..<2, using: &random))
            }
            let old = (0..<Int.random(in: 0..<300, using: &random)).map { _ in entry() }
            var new = old
            for _ in 0..<Int.random(in: 0..<40, using: &random) {
                let at = Int.random(in: 0...new.count, using: &random)
                switch Int.random(in: 0..<3, using: &random) {
                case 0: new.insert(entry(), at: at)
                case 1 where at < new.count: new.remove(at: at)
                default:
                    if at < new.count {
                        let moved = new.remove(at: at)
                        new.insert(moved, at: Int.random(in: 0...new.count, using: &random))
                    }
                }
            }
            let got = ItemPairing.uniqueRun(old[...], new[...], old.map(\.hashValue), new.map(\.hashValue))
            let expected = Self.referenceUniqueRun(old, new)
            #expect(got.map(\.0) == expected.map(\.0) && got.map(\.1) == expected.map(\.1), "round \(round)")
        }
    }

    /// Past 2,000 insertions and deletions Myers' diff gives up; the items that come once on
    /// each side stand for its common run (`ItemPairing.uniqueRun`).
    @Test("a list of many items with every other box checked, an item moved, and repeated items")
    func manyChanges() throws {
        // Unique items, and among them ten times "Milk" open and "Milk" done, one after the other.
        var items = (0..<3000).map { TodoItem(name: "item \($0)") }
        for k in (0..<10).reversed() {
            items.insert(contentsOf: [TodoItem(name: "Milk"), TodoItem(name: "Milk", status: .done)], at: k * 300)
        }
        var changed = items
        for k in 0..<3000 where k % 2 == 1 {
            changed[changed.firstIndex { $0.name == "item \(k)" }!].status = .done
        }
        // The first open Milk checked: "Milk" does not come once on either side, so it pairs by
        // text, in order; it must not pair with the Milk after it, which was done (then moved).
        changed[0].status = .done
        changed.insert(changed.remove(at: changed.firstIndex { $0.name == "item 1500" }!), at: 2900)
        let diff = ListDiff(from: TodoList(items: items), to: TodoList(items: changed)).changes.map(\.description)
        #expect(diff.filter { $0.contains("Milk") } == ["checked 1: Milk"])
        #expect(diff.filter { $0.hasPrefix("moved") }.map { $0.hasSuffix(": item 1500") } == [true])
        #expect(diff.filter { $0.hasPrefix("checked") }.count == 1501)
        #expect(diff.count == 1502)
    }
}

@Suite("Comparing files without building their lists")
struct ListDiffFilesTests {
    @Test("the diff of two files is the diff of their lists", arguments: 0..<12)
    func sameAsLists(seed: Int) throws {
        var generator = SeededGenerator(seed: UInt64(seed))
        var lines: [String] = []
        for k in 0..<200 {
            let depth = k == 0 ? 0 : Int.random(in: 0...1, using: &generator)
            lines.append(String(repeating: "  ", count: depth) + "- [ ] item \(k % 37)")
        }
        var edited = lines
        for _ in 0..<Int.random(in: 1...4, using: &generator) {
            let k = Int.random(in: 1..<edited.count, using: &generator)
            switch Int.random(in: 0..<4, using: &generator) {
            case 0: edited[k] = edited[k].replacingOccurrences(of: "[ ]", with: "[x]")
            case 1: edited[k] += " renamed"
            case 2: edited.remove(at: k)
            default: edited.insert("- [ ] new \(k)", at: k)
            }
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("todofmt-diff-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let a = folder.appendingPathComponent("a.md")
        let b = folder.appendingPathComponent("b.md")
        try (lines.joined(separator: "\n") + "\n").write(to: a, atomically: false, encoding: .utf8)
        try (edited.joined(separator: "\n") + "\n").write(to: b, atomically: false, encoding: .utf8)
        let fromFiles = try ListDiff(old: a, new: b)
        let fromLists = ListDiff(from: try TodoList(contentsOf: a), to: try TodoList(contentsOf: b))
        #expect(fromFiles.changes.map(\.description) == fromLists.changes.map(\.description))
        #expect(!fromFiles.isEmpty)
    }

    /// Between the equal ends, lists that differ only in their boxes are told from the digests
    /// (`ItemDigests.shape(at:)`), and the changed items taken as the new file was digested, or
    /// (kept none) read again: from a top-level item before them, or from the start (YAML).
    @Test("boxes changed, few or many, close together or far apart, in every format", arguments: 0..<12)
    func boxesOnly(seed: Int) throws {
        var generator = SeededGenerator(seed: UInt64(seed))
        var lines: [String] = ["# Start"]
        for k in 0..<6000 {
            let depth = k == 0 ? 0 : Int.random(in: 0...2, using: &generator) / 2
            if k % 1000 == 999 { lines.append("## Part \(k / 1000)") }
            let fields = k % 7 == 0 ? " [due:: 2026-01-0\(k % 9 + 1)] [n:: \(k % 3)]" : ""
            lines.append(String(repeating: "  ", count: depth) + "- [ ] item \(k % 53)" + fields)
        }
        var edited = lines
        let spread = [40, 2000, 5900][seed % 3]
        let start = Int.random(in: 1..<(edited.count - spread - 5), using: &generator)
        let boxes = ["[x]", "[/]", "[-]", "[ ]"]
        for _ in 0..<(seed % 2 == 0 ? 3 : 800) {
            let k = start + Int.random(in: 0..<spread, using: &generator)
            guard let box = edited[k].range(of: "[ ]") ?? edited[k].range(of: "[x]") else { continue }
            edited[k].replaceSubrange(box, with: boxes.randomElement(using: &generator)!)
        }
        let folder = try TemporaryDirectory()
        let old = try TodoList(markdown: lines.joined(separator: "\n") + "\n")
        let kind = DocumentFormat(rawValue: ["json", "md", buildHasYAML ? "yaml" : "plist", "md"][seed % 4])
        let a = folder.url.appendingPathComponent("a." + kind.rawValue)
        try Data(try old.encoded(as: kind)).write(to: a)
        let b = folder.url.appendingPathComponent("b.md")
        try (edited.joined(separator: "\n") + "\n").write(to: b, atomically: false, encoding: .utf8)
        for (x, y) in [(a, b), (b, a)] {
            let fromLists = ListDiff(from: try TodoList(contentsOf: x), to: try TodoList(contentsOf: y))
            // The changed items kept while the new file is digested, or read again.
            for boxesAtMost in [ItemDigests.boxesAtMost, 0] {
                let fromFiles = try ListDiff(
                    old: x, new: y, format: nil, options: ListOptions(), boxesAtMost: boxesAtMost)
                #expect(fromFiles.changes.map(\.description) == fromLists.changes.map(\.description))
                #expect(
                    !fromFiles.changes.contains { $0.kind != .checked && $0.kind != .unchecked && $0.kind != .status })
            }
        }
    }

    /// The new file keeps its items from its first difference on (`ItemDigests.kept`, at most
    /// 4,096): a window inside them is not read again, a longer one is.
    @Test("large lists, the changes close together or far apart, the old list in JSON or a checklist", arguments: 0..<8)
    func keptWindow(seed: Int) throws {
        var generator = SeededGenerator(seed: UInt64(seed))
        var lines: [String] = ["# Start"]
        for k in 0..<6000 {
            let depth = k == 0 ? 0 : Int.random(in: 0...2, using: &generator) / 2
            if k % 1000 == 999 { lines.append("## Part \(k / 1000)") }
            lines.append(String(repeating: "  ", count: depth) + "- [ ] item \(k % 53)")
        }
        var edited = lines
        let spread = seed % 2 == 0 ? 100 : 5900
        let start = Int.random(in: 1..<(edited.count - spread - 5), using: &generator)
        for _ in 0..<Int.random(in: 1...3, using: &generator) {
            let k = start + Int.random(in: 0..<spread, using: &generator)
            switch Int.random(in: 0..<4, using: &generator) {
            case 0: edited[k] = edited[k].replacingOccurrences(of: "[ ]", with: "[x]")
            case 1: edited[k] += " renamed"
            case 2: edited.remove(at: k)
            default: edited.insert("- [ ] new \(k)", at: k)
            }
        }
        let folder = try TemporaryDirectory()
        let old = try TodoList(markdown: lines.joined(separator: "\n") + "\n")
        let a = folder.url.appendingPathComponent(seed % 4 < 2 ? "a.json" : "a.md")
        try Data(try old.encoded(as: seed % 4 < 2 ? .json : .markdown)).write(to: a)
        let b = folder.url.appendingPathComponent("b.md")
        try (edited.joined(separator: "\n") + "\n").write(to: b, atomically: false, encoding: .utf8)
        let fromFiles = try ListDiff(old: a, new: b)
        let fromLists = ListDiff(from: try TodoList(contentsOf: a), to: try TodoList(contentsOf: b))
        #expect(fromFiles.changes.map(\.description) == fromLists.changes.map(\.description))
        #expect(!fromFiles.isEmpty)
    }

    /// A checklist is read again from the last top-level item in the first column noted
    /// before the window (`ItemDigests.noteLine`), under that item's section: the checklist
    /// has what could make a reading from there differ (quotes, code, HTML, plain bullets
    /// with items under them, items with fields, sections), the changes far into it.
    @Test("a checklist read again from a top-level item before the changes", arguments: 0..<10)
    func resumedChecklist(seed: Int) throws {
        var generator = SeededGenerator(seed: UInt64(seed))
        var blocks: [String] = []
        // Each kind of block by the number drawn; 12 to 19 draw a plain item.
        let kinds: [(Int) -> String] = [
            { "## Section \($0 % 7)" },
            { "> - [ ] quoted \($0)\n> - [x] quoted too \($0)" },
            { "- plain \($0)\n  - [ ] under plain \($0)" },
            { "```\n- [ ] not an item \($0)\n```" },
            { "<div>\n- [ ] html \($0)\n</div>\n" },
            { "Prose \($0)\n" },
            { "1. [ ] ordered \($0)" },
            { "- [ ] fielded \($0 % 5) [due:: 2026-01-0\($0 % 9 + 1)]" },
            { "- [ ] item \($0 % 41)\n  - [/] child \($0 % 3)\n    - [ ] grandchild" },
            { "* [x] star \($0 % 11)" },
            { "+ [ ] plus \($0 % 13)" },
            { "- [ ] item \($0 % 41)\n\n" },
            { "- [ ] item \($0 % 41)" },
        ]
        for k in 0..<900 {
            blocks.append(kinds[min(Int.random(in: 0..<20, using: &generator), kinds.count - 1)](k))
        }
        let lines = blocks.joined(separator: "\n").components(separatedBy: "\n")
        var edited = lines
        for _ in 0..<Int.random(in: 1...3, using: &generator) {
            let k = Int.random(in: (edited.count / 2)..<edited.count, using: &generator)
            switch Int.random(in: 0..<4, using: &generator) {
            case 0: edited[k] = edited[k].replacingOccurrences(of: "[ ]", with: "[x]")
            case 1: edited[k] += " renamed"
            case 2: edited.remove(at: k)
            default: edited.insert("- [ ] new \(k)", at: k)
            }
        }
        let ending = seed % 3 == 0 ? "\r\n" : "\n"
        let folder = try TemporaryDirectory()
        let a = folder.url.appendingPathComponent("a.md")
        let b = folder.url.appendingPathComponent("b.md")
        try Data((lines.joined(separator: ending) + ending).utf8).write(to: a)
        try Data((edited.joined(separator: ending) + ending).utf8).write(to: b)
        for (old, new) in [(a, b), (b, a)] {
            let fromFiles = try ListDiff(old: old, new: new)
            let fromLists = ListDiff(from: try TodoList(contentsOf: old), to: try TodoList(contentsOf: new))
            #expect(fromFiles.changes.map(\.description) == fromLists.changes.map(\.description))
        }
    }

    /// A checklist's plain items are hashed from its bytes, a JSON file's items from their
    /// strings: the same list in both, one name composed and the other decomposed, is no change.
    @Test("a checklist against the same list in JSON, accents composed or not, is no change; an edit is one")
    func acrossFormats() throws {
        let folder = try TemporaryDirectory()
        let checklist =
            "# Home\n- [ ] caf\u{E9} cr\u{E8}me\n  - [x] [link](https://x.org) & more\n- [/] due [due:: 2024-06-01]\n"
        try checklist.write(toFile: folder.path("a.md"), atomically: false, encoding: .utf8)
        let json = """
            [{"name": "cafe\u{301} cre\u{300}me", "checked": false, "section": "Home",
              "children": [{"name": "[link](https://x.org) & more", "checked": true}]},
             {"name": "due", "checked": false, "status": "/", "due": "2024-06-01", "section": "Home"}]
            """
        try json.write(toFile: folder.path("b.json"), atomically: false, encoding: .utf8)
        let same = try ListDiff(
            old: folder.url.appendingPathComponent("a.md"), new: folder.url.appendingPathComponent("b.json"))
        #expect(same.changes.map(\.description) == [])
        try json.replacingOccurrences(of: "\"checked\": true", with: "\"checked\": false")
            .write(toFile: folder.path("b.json"), atomically: false, encoding: .utf8)
        let edited = try ListDiff(
            old: folder.url.appendingPathComponent("a.md"), new: folder.url.appendingPathComponent("b.json"))
        #expect(edited.changes.map(\.description) == ["unchecked 1.1: [link](https://x.org) & more"])
    }
}
