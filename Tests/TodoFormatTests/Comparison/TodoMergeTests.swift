import Foundation
import Testing

@testable import TodoFormat

@Suite("Merging lists by item")
struct TodoMergeTests {
    static func merge(_ base: String, _ ours: String, _ theirs: String) throws -> (String, Int) {
        let result = try TodoMerge.checklists(base: base, ours: ours, theirs: theirs)
        return (String(decoding: result.bytes, as: UTF8.self), result.conflicts)
    }

    @Test("lines: one side's change, the same change on both, different changes are a conflict")
    func lines() {
        func merge(_ b: String, _ o: String, _ t: String) -> (String, Int) {
            let m = LineMerge(base: Array(b.utf8), ours: Array(o.utf8), theirs: Array(t.utf8))
            return (String(decoding: m.bytes, as: UTF8.self), m.conflicts)
        }
        #expect(merge("a\nb\nc\n", "a\nB\nc\n", "a\nb\nc\nd\n") == ("a\nB\nc\nd\n", 0))
        #expect(merge("a\nb\nc\n", "a\nB\nc\n", "a\nB\nc\n") == ("a\nB\nc\n", 0))
        #expect(
            merge("a\nb\nc\n", "a\nX\nc\n", "a\nY\nc\n") == ("a\n<<<<<<< ours\nX\n=======\nY\n>>>>>>> theirs\nc\n", 1))
        #expect(merge("", "a\n", "") == ("a\n", 0))
        #expect(merge("a", "b", "c") == ("<<<<<<< ours\nb\n=======\nc\n>>>>>>> theirs\n", 1))
    }

    @Test("a moved item takes its nested items; the same item added on both sides is one")
    func movesAndAdds() throws {
        let base = "- [ ] a\n- [ ] b\n  - [ ] b1\n- [ ] c\n"
        let ours = "- [x] a\n- [ ] b\n  - [ ] b1\n  - [ ] b2\n- [ ] c\n- [ ] d\n"
        let theirs = "- [ ] c\n- [ ] a\n- [ ] b\n  - [ ] b1\n- [ ] d\n"
        #expect(
            try Self.merge(base, ours, theirs) == ("- [ ] c\n- [x] a\n- [ ] b\n  - [ ] b1\n  - [ ] b2\n- [ ] d\n", 0))
        // Theirs moved c up (the fewest moves: b and b1 stay); ours added b2 under b, and d.
        let moved = "- [ ] a\n- [ ] c\n- [ ] b\n  - [ ] b1\n"
        #expect(
            try Self.merge(base, ours, moved) == ("- [x] a\n- [ ] c\n- [ ] b\n  - [ ] b1\n  - [ ] b2\n- [ ] d\n", 0))
        // Theirs moved b with b1 to the end: b2, which ours nested in b, goes along.
        let base2 = "- [ ] a\n- [ ] b\n  - [ ] b1\n- [ ] c\n- [ ] e\n"
        let ours2 = "- [ ] a\n- [ ] b\n  - [ ] b1\n  - [ ] b2\n- [ ] c\n- [ ] e\n"
        let theirs2 = "- [ ] a\n- [ ] c\n- [ ] e\n- [ ] b\n  - [ ] b1\n"
        #expect(
            try Self.merge(base2, ours2, theirs2) == ("- [ ] a\n- [ ] c\n- [ ] e\n- [ ] b\n  - [ ] b1\n  - [ ] b2\n", 0)
        )
    }

    @Test("one side unchanged: the other side is the merge")
    func oneSide() throws {
        let base = "- [ ] a\n"
        let changed = "- [x] a\n- [ ] b\n"
        #expect(try Self.merge(base, changed, base) == (changed, 0))
        #expect(try Self.merge(base, base, changed) == (changed, 0))
        #expect(try Self.merge(base, changed, changed) == (changed, 0))
    }

    @Test("a check on each side keeps both names' text as written (escapes, entities): a clean merge")
    func keepsNameText() throws {
        let base = "- [ ] a \\[b\\] c\n- [ ] back\\\\slash &amp;\n"
        let ours = "- [x] a \\[b\\] c\n- [ ] back\\\\slash &amp;\n"
        let theirs = "- [ ] a \\[b\\] c\n- [/] back\\\\slash &amp;\n"
        #expect(try Self.merge(base, ours, theirs) == ("- [x] a \\[b\\] c\n- [/] back\\\\slash &amp;\n", 0))
    }

    @Test(
        "an item one side removed and the other gave notes (a paragraph, code, a plain bullet) is a conflict, the notes in it"
    )
    func removedWithNotes() throws {
        let base = "- [ ] a1\n- [ ] a2\n- [ ] a3\n"
        let removed = "- [ ] a1\n- [ ] a3\n"
        for notes in ["\n  Important: call Bob\n\n", "  - plain bullet\n", "  ```\n  code\n  ```\n"] {
            let noted = "- [ ] a1\n- [ ] a2\n" + notes + "- [ ] a3\n"
            for (ours, theirs) in [(noted, removed), (removed, noted)] {
                let (merged, conflicts) = try Self.merge(base, ours, theirs)
                #expect(conflicts == 1, "\(notes)")
                // The item with its notes between the markers, on the side that kept it.
                var body = notes
                while body.hasSuffix("\n\n") { body.removeLast() }  // (blank lines after the notes stay out)
                let kept = "- [ ] a2\n" + body
                let block = ours == noted ? "<<<<<<< ours\n\(kept)=======\n" : "=======\n\(kept)>>>>>>> theirs\n"
                #expect(merged.contains(block), "\(notes): \(merged)")
            }
        }
        // Notes of another item, or prose outside the list, do not keep a removed item.
        let prose = "- [ ] a1\n- [ ] a2\n- [ ] a3\n\nMore prose.\n"
        #expect(try Self.merge(base + "\nProse.\n", prose, removed + "\nProse.\n") == (removed + "\nMore prose.\n", 0))
    }

    @Test("front matter keys changed on each side keep their comments and layout, near or far apart")
    func frontMatterAsWritten() throws {
        let base = "---\n# keep me\ntitle: \"x\"   # trailing\nowner: me\ntags: [a, b]\n---\n- [ ] Milk\n"
        func edited(_ from: String, _ to: String, in text: String = base) -> String {
            text.replacingOccurrences(of: from, with: to)
        }
        let both = edited("tags: [a, b]", "tags: [a, b, c]", in: edited("title: \"x\"", "title: \"z\""))
        // Far apart (git merges them too), and neighbours (git conflicts): each key's own lines.
        #expect(
            try Self.merge(base, edited("title: \"x\"", "title: \"z\""), edited("tags: [a, b]", "tags: [a, b, c]")) == (
                both, 0
            ))
        let near = edited("owner: me\n", "")
        #expect(
            try Self.merge(
                near, edited("title: \"x\"", "title: \"z\"", in: near),
                edited("tags: [a, b]", "tags: [a, b, c]", in: near))
                == (edited("owner: me\n", "", in: both), 0))
        // A key added on one side next to a key changed on the other; the same key changed
        // differently on both is a conflict.
        #expect(
            try Self.merge(near, edited("tags:", "due: soon\ntags:", in: near), edited("# keep me", "# kept", in: near))
                == (edited("# keep me", "# kept", in: edited("tags:", "due: soon\ntags:", in: near)), 0))
        #expect(try Self.merge(base, edited("owner: me", "owner: you"), edited("owner: me", "owner: them")).1 == 1)
        // A comment belongs to the key after it, nested lines to the key before them; a key
        // added goes after the key theirs put it after; quoted keys may hold colons.
        let commented = "---\ntitle: G\n# who buys\nowner: bob\n---\n- [ ] Milk\n"
        #expect(
            try Self.merge(
                commented, edited("title: G", "title: W", in: commented),
                edited("title: G", "title: G\nstore: Aldi", in: commented))
                == (edited("title: G", "title: W\nstore: Aldi", in: commented), 0))
        #expect(
            try Self.merge(
                commented, edited("title: G", "title: W", in: commented),
                edited("# who buys", "# who buys (weekly)", in: commented))
                == (edited("# who buys", "# who buys (weekly)", in: edited("title: G", "title: W", in: commented)), 0))
        let nested = "---\ntitle: G\nowner:\n  name: bob\nlist: x\n---\n- [ ] Milk\n"
        #expect(
            try Self.merge(
                nested, edited("owner:\n  name: bob\n", "", in: nested),
                edited("name: bob", "name: bob # x", in: nested)
            ).1 == 1)
    }

    /// (Quoted keys are YAML that the front matter reader of a build without libyaml refuses.)
    @Test("front matter keys in quotes may hold colons", .needsYAML)
    func frontMatterQuotedKeys() throws {
        let quoted = "---\n# top\n\"a:b\": 1\n\"a:c\": 2\n---\n- [ ] M\n"
        func edited(_ from: String, _ to: String, in text: String = quoted) -> String {
            text.replacingOccurrences(of: from, with: to)
        }
        #expect(
            try Self.merge(quoted, edited("\"a:b\": 1", "\"a:b\": 5"), edited("\"a:c\": 2", "\"a:c\": 6"))
                == (edited("\"a:c\": 2", "\"a:c\": 6", in: edited("\"a:b\": 1", "\"a:b\": 5")), 0))
    }

    @Test("both sides add a nested item at the same place, indented four spaces, a tab, or two levels: a clean merge")
    func bothAddNested() throws {
        for (indent, deeper) in [("    ", "        "), ("\t", "\t\t"), ("  ", "    ")] {
            let base = "- [ ] top\n- [ ] parent\n\(indent)- [ ] c1\n\(deeper)- [ ] g1\n- [ ] other\n"
            let ours = base.replacingOccurrences(of: "g1\n", with: "g1\n\(deeper)- [ ] ga\n")
            let theirs = base.replacingOccurrences(of: "g1\n", with: "g1\n\(deeper)- [ ] gz\n")
            let both = base.replacingOccurrences(of: "g1\n", with: "g1\n\(deeper)- [ ] ga\n\(deeper)- [ ] gz\n")
            #expect(
                try WindowedMergeTests.mergeFiles("nested.md", [base, ours, theirs]) == (both, 0),
                "\(indent.debugDescription)")
            let childOurs = base.replacingOccurrences(of: "- [ ] other", with: "\(indent)- [ ] ca\n- [ ] other")
            let childTheirs = base.replacingOccurrences(of: "- [ ] other", with: "\(indent)- [ ] cz\n- [ ] other")
            let children = base.replacingOccurrences(
                of: "- [ ] other", with: "\(indent)- [ ] ca\n\(indent)- [ ] cz\n- [ ] other")
            #expect(
                try WindowedMergeTests.mergeFiles("nested.md", [base, childOurs, childTheirs]) == (children, 0),
                "\(indent.debugDescription)")
        }
    }

    @Test("a nested item ours removed with its parent and theirs changed stays in its section, under the heading")
    func conflictKeepsSection() throws {
        let base = "# List\n- [ ] a\n  - [ ] a1\n  - [ ] a2\n- [ ] c\n"
        let (merged, conflicts) = try Self.merge(
            base, "# List\n- [ ] c\n", base.replacingOccurrences(of: "a1", with: "a1 changed"))
        #expect(conflicts == 1)
        #expect(merged.hasPrefix("# List\n<<<<<<< ours\n=======\n  - [ ] a1 changed\n>>>>>>> theirs\n"), "\(merged)")
    }

    @Test("theirs removes an item whose nested item ours added: that item moves up")
    func orphan() throws {
        let base = "- [ ] a\n- [ ] b\n"
        #expect(try Self.merge(base, "- [ ] a\n- [ ] b\n  - [ ] b1\n", "- [ ] a\n") == ("- [ ] a\n- [ ] b1\n", 0))
    }

    @Test("the quick merge of far-apart changes is what the merge by item gives")
    func quick() throws {
        let items = (1...40).map { "- [ ] item \($0)\n" }
        let base = items.joined()
        var ours = items
        var theirs = items
        ours[5] = "- [x] item 6\n"
        ours.insert("- [ ] new\n", at: 7)
        theirs[30] = "- [ ] item 31 renamed\n"
        let quick = try #require(
            TodoMerge.quickMerge(
                base: Array(base.utf8), ours: Array(ours.joined().utf8), theirs: Array(theirs.joined().utf8)))
        let documents = try [base, ours.joined(), theirs.joined()].map { try TodoDocument(parsing: $0) }
        let merge = ListMerge(
            base: documents[0].list.items, ours: documents[1].list.items, theirs: documents[2].list.items)
        var written = documents[1]
        try written.update(with: TodoList(items: merge.items))
        #expect(String(decoding: quick, as: UTF8.self) == written.text)
        // Changes in the same item's lines are not quick.
        let twoLines = "- [ ] a\n- [ ] long\n  name\n- [ ] c\n"
        #expect(
            TodoMerge.quickMerge(
                base: Array(twoLines.utf8), ours: Array("- [x] a\n- [ ] long\n  name\n- [ ] c\n".utf8),
                theirs: Array("- [ ] a\n- [ ] long\n  name\n- [x] c\n".utf8)) != nil)
        #expect(
            TodoMerge.quickMerge(
                base: Array(twoLines.utf8), ours: Array("- [ ] a\n- [x] long\n  name\n- [ ] c\n".utf8),
                theirs: Array("- [ ] a\n- [ ] long\n  Name\n- [ ] c\n".utf8)) == nil)
    }
}

@Suite("Merging files: only the part around the changes")
struct WindowedMergeTests {
    @Test("merging files gives what merging their whole texts gives", arguments: 0..<40)
    func sameAsWhole(seed: Int) throws {
        var generator = SeededGenerator(seed: UInt64(seed))
        var lines = ["# List"]
        for k in 0..<60 {
            let depth = k == 0 ? 0 : Int.random(in: 0...1, using: &generator)
            lines.append(String(repeating: "  ", count: depth) + "- [ ] item \(k)")
            if k == 30 { lines += ["", "Some prose.", "", "# More"] }
        }
        func edit(_ lines: [String]) -> [String] {
            var lines = lines
            for _ in 0..<Int.random(in: 1...3, using: &generator) {
                let k = Int.random(in: 38...44, using: &generator)
                guard lines[k].contains("- [") else { continue }
                switch Int.random(in: 0..<4, using: &generator) {
                case 0: lines[k] = lines[k].replacingOccurrences(of: "[ ]", with: "[x]")
                case 1: lines[k] += " renamed"
                case 2: lines.remove(at: k)
                default: lines.insert("- [ ] new \(k) \(Int.random(in: 0..<1000, using: &generator))", at: k)
                }
            }
            return lines
        }
        let base = lines.joined(separator: "\n") + "\n"
        let ours = edit(lines).joined(separator: "\n") + "\n"
        let theirs = edit(lines).joined(separator: "\n") + "\n"
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("todofmt-merge-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let urls = ["base.md", "ours.md", "theirs.md"].map { folder.appendingPathComponent($0) }
        for (url, text) in zip(urls, [base, ours, theirs]) {
            try text.write(to: url, atomically: false, encoding: .utf8)
        }
        let whole = try TodoMerge.checklists(base: base, ours: ours, theirs: theirs)
        let files = try TodoMerge.files(base: urls[0], ours: urls[1], theirs: urls[2])
        let merged = try String(contentsOf: urls[1], encoding: .utf8)
        let expected = String(decoding: whole.bytes, as: UTF8.self)
        // Where the whole texts merge cleanly, the part merges to the same list (a new item may
        // take other neighbours' indentation); where they conflict, so does the part.
        #expect((files.conflicts == 0) == (whole.conflicts == 0))
        if whole.conflicts == 0 {
            #expect(try TodoList(markdown: merged) == TodoList(markdown: expected), "\(merged)\n\(expected)")
        }
    }

    /// Merges three files' texts (written as `name` with a prefix) and returns ours after.
    static func mergeFiles(_ name: String, _ texts: [String]) throws -> (String, Int) {
        let directory = try TemporaryDirectory()
        let urls = ["base-", "ours-", "theirs-"].map { URL(fileURLWithPath: directory.path($0 + name)) }
        for (url, text) in zip(urls, texts) { try text.write(to: url, atomically: false, encoding: .utf8) }
        let result = try TodoMerge.files(base: urls[0], ours: urls[1], theirs: urls[2])
        return (try String(contentsOf: urls[1], encoding: .utf8), result.conflicts)
    }

    @Test("theirs' changes outside the list (other keys, comments) are kept in JSON and YAML", .needsYAML)
    func outsideTheList() throws {
        let json = [
            #"{"settings": {"theme": "dark"}, "todos": [{"title": "Milk", "done": false}]}"# + "\n",
            #"{"settings": {"theme": "dark"}, "todos": [{"title": "Milk", "done": true}]}"# + "\n",
            #"{"settings": {"theme": "light"}, "todos": [{"title": "Milk", "done": false}]}"# + "\n",
        ]
        #expect(
            try Self.mergeFiles("list.json", json) == (
                #"{"settings": {"theme": "light"}, "todos": [{"title": "Milk", "done": true}]}"# + "\n", 0
            ))
        let yaml = [
            "# my list\nsettings:\n  theme: dark\ntodos:\n  - title: Milk\n    done: false\n  - title: Eggs\n    done: false\n",
            "# my list\nsettings:\n  theme: dark\ntodos:\n  - title: Milk\n    done: true\n  - title: Eggs\n    done: false\n",
            "# my list, edited\nsettings:\n  theme: light\ntodos:\n  - title: Milk\n    done: false\n  - title: Eggs  # important\n    done: false\n",
        ]
        #expect(
            try Self.mergeFiles("list.yaml", yaml)
                == (
                    "# my list, edited\nsettings:\n  theme: light\ntodos:\n  - title: Milk\n    done: true\n  - title: Eggs  # important\n    done: false\n",
                    0
                ))
        // Both changed the same key differently: a conflict between markers, the list merged.
        var both = yaml
        both[1] = both[1].replacingOccurrences(of: "theme: dark", with: "theme: blue")
        let (text, conflicts) = try Self.mergeFiles("list.yaml", both)
        #expect(conflicts == 1)
        #expect(text.contains("<<<<<<< ours\n  theme: blue\n=======\n  theme: light\n>>>>>>> theirs\n"), "\(text)")
        #expect(text.contains("    done: true\n  - title: Eggs  # important\n"), "\(text)")
    }

    @Test("theirs' change to another table of a database is kept; both changing it is a conflict")
    func outsideTheListTable() throws {
        let directory = try TemporaryDirectory()
        let schema =
            "CREATE TABLE todos(id INTEGER PRIMARY KEY, title TEXT, done INTEGER); CREATE TABLE settings(k TEXT, v TEXT);"
            + "INSERT INTO todos VALUES(1, 't1', 0), (2, 't2', 0); INSERT INTO settings VALUES('theme', 'dark');"
        let base = try WriteBackTests.database(schema, in: directory, name: "base.sqlite")
        func copy(_ name: String, _ sql: String) throws -> String {
            let path = directory.path(name)
            try? FileManager.default.removeItem(atPath: path)
            try FileManager.default.copyItem(atPath: base, toPath: path)
            _ = try Databases.sqlite3(path, [sql])
            return path
        }
        let urls = { (o: String, t: String) in [base, o, t].map { URL(fileURLWithPath: $0) } }
        var u = urls(
            try copy("ours.sqlite", "UPDATE todos SET done = 1 WHERE id = 1"),
            try copy("theirs.sqlite", "UPDATE todos SET title = 'T2' WHERE id = 2; UPDATE settings SET v = 'light'"))
        var result = try TodoMerge.files(base: u[0], ours: u[1], theirs: u[2])
        #expect(result.conflicts == 0)
        #expect(
            try Databases.sqlite3(u[1].path, ["SELECT * FROM todos; SELECT * FROM settings"])
                == "1|t1|1\n2|T2|0\ntheme|light\n")
        u = urls(
            try copy("ours.sqlite", "UPDATE todos SET done = 1 WHERE id = 1; UPDATE settings SET v = 'blue'"),
            try copy("theirs.sqlite", "UPDATE settings SET v = 'light'"))
        result = try TodoMerge.files(base: u[0], ours: u[1], theirs: u[2])
        #expect(result.conflicts == 1 && result.unmerged != nil)
        #expect(
            try Databases.sqlite3(u[1].path, ["SELECT * FROM todos; SELECT * FROM settings"])
                == "1|t1|1\n2|t2|0\ntheme|blue\n")
    }

    @Test("an item one side changed and the other removed keeps its nested items inside the markers")
    func conflictKeepsNestedItems() throws {
        let base = "- [ ] Milk\n- [ ] Eggs\n  - [ ] Brown\n- [ ] Bread\n"
        let checked = "- [ ] Milk\n- [x] Eggs\n  - [ ] Brown\n- [ ] Bread\n"
        let removed = "- [ ] Milk\n- [ ] Bread\n"
        #expect(
            try TodoMergeTests.merge(base, checked, removed)
                == ("- [ ] Milk\n<<<<<<< ours\n- [x] Eggs\n  - [ ] Brown\n=======\n>>>>>>> theirs\n- [ ] Bread\n", 1))
        #expect(
            try TodoMergeTests.merge(base, removed, checked)
                == ("- [ ] Milk\n<<<<<<< ours\n=======\n- [x] Eggs\n  - [ ] Brown\n>>>>>>> theirs\n- [ ] Bread\n", 1))
    }

    @Test("the same item added by both sides at different places is one item, where ours put it")
    func addedTwice() throws {
        let base = "- [ ] a\n- [ ] b\n"
        #expect(
            try TodoMergeTests.merge(base, "- [ ] a\n- [ ] b\n- [ ] Tea\n", "- [ ] a\n- [ ] Tea\n- [ ] b\n") == (
                "- [ ] a\n- [ ] b\n- [ ] Tea\n", 0
            ))
        #expect(
            try TodoMergeTests.merge(base, "- [ ] Tea\n- [ ] a\n- [ ] b\n", "- [ ] a\n- [ ] b\n- [ ] Tea\n") == (
                "- [ ] Tea\n- [ ] a\n- [ ] b\n", 0
            ))
        // Not the same item: a different box, or added twice by one side and once by the other.
        #expect(
            try TodoMergeTests.merge(base, "- [ ] a\n- [ ] b\n- [ ] Tea\n", "- [x] Tea\n- [ ] a\n- [ ] b\n") == (
                "- [x] Tea\n- [ ] a\n- [ ] b\n- [ ] Tea\n", 0
            ))
        #expect(
            try TodoMergeTests.merge(base, "- [ ] Tea\n- [ ] a\n- [ ] b\n- [ ] Tea\n", "- [ ] a\n- [ ] Tea\n- [ ] b\n")
                == ("- [ ] Tea\n- [ ] a\n- [ ] b\n- [ ] Tea\n", 0))
        let directory = try TemporaryDirectory()
        let urls = ["base.json", "ours.json", "theirs.json"].map { URL(fileURLWithPath: directory.path($0)) }
        let texts = [
            #"[{"title":"a","done":false},{"title":"b","done":false}]"#,
            #"[{"title":"a","done":false},{"title":"b","done":false},{"title":"Tea","done":false}]"#,
            #"[{"title":"Tea","done":false},{"title":"a","done":false},{"title":"b","done":false}]"#,
        ]
        for (url, text) in zip(urls, texts) { try (text + "\n").write(to: url, atomically: false, encoding: .utf8) }
        #expect(try TodoMerge.files(base: urls[0], ours: urls[1], theirs: urls[2]).conflicts == 0)
        #expect(try TodoList(contentsOf: urls[1]).items.map(\.name) == ["a", "b", "Tea"])
    }
}
