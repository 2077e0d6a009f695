import Foundation
import Testing

@testable import TodoFormat

/// Writing into JSON files that exist (issue 8): Python's json writes each file the way an
/// app would, the test edits the checklist, and the result must be what the app's own writer
/// makes of the edited data (byte for byte), which Python's json then reads.
@Suite("Writing into existing JSON")
struct JSONWriteBackTests {
    /// Writes `json` (Python source of the value) with `dump` (Python source writing `v` to
    /// text `t`) into `name`; returns its path.
    static func make(_ name: String, _ value: String, dump: String, in directory: TemporaryDirectory) throws -> String {
        try Python.run(
            Python.prelude + """
                v = \(value)
                \(dump)
                open(os.path.join(d, \(String(reflecting: name))), "w", encoding="utf-8").write(t)
                """, in: directory)
        return directory.path(name)
    }

    /// Converts the checklist `markdown` into the file at `path`; returns the warnings.
    @discardableResult
    static func write(_ markdown: String, into path: String, options: ListOptions = ListOptions(), strict: Bool = false)
        throws
        -> [ConversionWarning]
    {
        let checklist = path + ".md"
        try markdown.write(toFile: checklist, atomically: false, encoding: .utf8)
        return try Conversion(input: .at(checklist), output: .at(path), options: options, strict: strict).run()
    }

    static func text(_ path: String) throws -> String { try String(contentsOfFile: path, encoding: .utf8) }

    static let layouts: [(name: String, dump: String)] = [
        ("swift", "t = json.dumps(v, ensure_ascii=False, separators=(',', ':')).replace('/', '\\\\/')"),
        ("python", "t = json.dumps(v, indent=4)"),
        ("node", "t = json.dumps(v, indent=2, ensure_ascii=False) + '\\n'"),
        (
            "go",
            "t = json.dumps(v, indent='\\t', ensure_ascii=False).replace('<', '\\\\u003c').replace('>', '\\\\u003e').replace('&', '\\\\u0026') + '\\n'"
        ),
        ("python-compact", "t = json.dumps(v)"),
    ]

    static let todos = """
        [{"id": 1, "title": "Caf\\u00e9 <au> lait & co", "done": False, "url": "https://a.example/x"},
         {"id": 2, "title": "Fix the bike", "done": False, "tags": []},
         {"id": 3, "title": "Bake", "done": True, "tags": ["home", "weekend"], "price": 2.5}]
        """

    @Test(
        "an unchanged list leaves every byte; a check changes one value, spelled as the app writes it",
        arguments: layouts.map(\.name))
    func unchangedAndChecked(name: String) throws {
        let dump = Self.layouts.first { $0.name == name }!.dump
        let directory = try TemporaryDirectory()
        let path = try Self.make("todos.json", Self.todos, dump: dump, in: directory)
        let original = try Self.text(path)
        let list = try TodoList(contentsOf: .file(path))
        try Self.write(try list.encoded(as: .markdown).string, into: path)
        #expect(try Self.text(path) == original)

        var checked = list
        checked.items[1].status = .done
        try Self.write(try checked.encoded(as: .markdown).string, into: path)
        let expected = try Self.make("expected.json", Self.todos + "\nv[1]['done'] = True", dump: dump, in: directory)
        #expect(try Self.text(path) == (try Self.text(expected)))
    }

    @Test(
        "a new item is written like its siblings: keys in their order, escapes as the file has them, the next id",
        arguments: layouts.map(\.name))
    func newItem(name: String) throws {
        let dump = Self.layouts.first { $0.name == name }!.dump
        let directory = try TemporaryDirectory()
        let path = try Self.make("todos.json", Self.todos, dump: dump, in: directory)
        var list = try TodoList(contentsOf: .file(path))
        list.items.append(TodoItem(name: "Crème <brûlée> & 🍮 /x"))
        let warnings = try Self.write(try list.encoded(as: .markdown).string, into: path)
        let expected = try Self.make(
            "expected.json", Self.todos + "\nv.append({'id': 4, 'title': 'Crème <brûlée> & 🍮 /x', 'done': False})",
            dump: dump, in: directory)
        #expect(try Self.text(path) == (try Self.text(expected)))
        #expect(warnings.isEmpty)
    }

    @Test("removing and moving items take their separators with them")
    func removeAndMove() throws {
        for (name, dump) in Self.layouts {
            let directory = try TemporaryDirectory()
            let path = try Self.make("todos.json", Self.todos, dump: dump, in: directory)
            var list = try TodoList(contentsOf: .file(path))
            list.items.insert(list.items.remove(at: 2), at: 0)
            list.items.remove(at: 2)
            try Self.write(try list.encoded(as: .markdown).string, into: path)
            let expected = try Self.make("expected.json", Self.todos + "\nv = [v[2], v[0]]", dump: dump, in: directory)
            #expect(try Self.text(path) == (try Self.text(expected)), "\(name)")
        }
    }

    @Test("an item with both title and name keeps each key once, in a file and in a new file")
    func keyCollision() throws {
        let directory = try TemporaryDirectory()
        let path = try Self.make(
            "todos.json", #"[{"title": "Buy oat milk", "name": "milk", "done": False}]"#,
            dump: "t = json.dumps(v, indent=2)", in: directory)
        var list = try TodoList(contentsOf: .file(path))
        #expect(list.items[0].fields == [Field("name", .string("milk"))])
        list.items[0].name = "Buy soy milk"
        try Self.write(try list.encoded(as: .markdown).string, into: path)
        #expect(
            try Self.text(path)
                == "[\n  {\n    \"title\": \"Buy soy milk\",\n    \"name\": \"milk\",\n    \"done\": false\n  }\n]")
        // A new file writes the list's own `name` key; the field goes under `fields`.
        let fresh = directory.path("new.json")
        try Self.write(try list.encoded(as: .markdown).string, into: fresh)
        let keys = try Python.run(
            Python.prelude + """
                pairs = json.load(open(os.path.join(d, "new.json")), object_pairs_hook=lambda p: [k for k, _ in p])
                print(pairs)
                """, in: directory)
        #expect(keys == "[['name', 'checked', 'fields']]\n")
        #expect(try TodoList(contentsOf: .file(fresh)) == list)
    }

    @Test(
        "an emptied list stays as [] and is found there; new items take the keys --field names, else todofmt's with a warning"
    )
    func emptiedList() throws {
        let directory = try TemporaryDirectory()
        let path = try Self.make(
            "state.json", #"{"version": 2, "todos": [{"title": "a", "done": False}], "theme": "dark"}"#,
            dump: "t = json.dumps(v, indent=2) + '\\n'", in: directory)
        try Self.write("", into: path, options: ListOptions(key: "todos"))
        #expect(try Self.text(path) == "{\n  \"version\": 2,\n  \"todos\": [],\n  \"theme\": \"dark\"\n}\n")
        let named = ListOptions(key: "todos", schema: ItemSchema(naming: [.name: "title", .checked: "done"]))
        #expect(try Self.write("- [ ] b\n", into: path, options: named).isEmpty)
        #expect(
            try Self.text(path)
                == "{\n  \"version\": 2,\n  \"todos\": [\n    {\"title\": \"b\", \"done\": false}\n  ],\n  \"theme\": \"dark\"\n}\n"
        )
        try Self.write("", into: path, options: ListOptions(key: "todos"))
        let warnings = try Self.write("- [ ] c\n- [x] d\n", into: path, options: ListOptions(key: "todos"))
        #expect(
            warnings == [
                ConversionWarning(
                    .keys,
                    "the list under 'todos' had no items to tell its item keys: new items were written with name, checked "
                        + "(name them with --field name=KEY --field checked=KEY)", count: 2, firstItem: "1 c")
            ])
        #expect(
            try TodoList(contentsOf: .file(path), options: ListOptions(key: "todos")).items.map(\.name) == ["c", "d"])
        // Without --key, the root's one empty array is the emptied list, read and written where it stayed.
        try Self.write("", into: path)
        #expect(try Self.text(path) == "{\n  \"version\": 2,\n  \"todos\": [],\n  \"theme\": \"dark\"\n}\n")
        #expect(try TodoList(contentsOf: .file(path)).items.isEmpty)
        #expect(try Self.write("- [ ] e\n", into: path, options: ListOptions(schema: named.schema)).isEmpty)
        #expect(
            try Self.text(path)
                == "{\n  \"version\": 2,\n  \"todos\": [\n    {\"title\": \"e\", \"done\": false}\n  ],\n  \"theme\": \"dark\"\n}\n"
        )
        // Nested, as Node's state file keeps it (data.todos), and refilled there.
        let nested = try Self.make(
            "state2.json", #"{"data": {"todos": [], "filter": "all"}, "tags": ["home"]}"#,
            dump: "t = json.dumps(v, indent=2) + '\\n'",
            in: directory)
        #expect(try TodoList(contentsOf: .file(nested)).items.isEmpty)
        try Self.write("- [ ] f\n", into: nested, options: ListOptions(schema: named.schema))
        #expect(
            try TodoList(contentsOf: .file(nested), options: ListOptions(key: "data.todos")).items.map(\.name) == ["f"])
    }

    @Test("a child added to a changed item is written at its own depth, and a changed sibling keeps its bytes")
    func childOfChangedItem() throws {
        let directory = try TemporaryDirectory()
        let path = try Self.make(
            "todos.json", #"[{"title": "a", "done": False}, {"title": "b", "done": True, "note": "x"}]"#,
            dump: "t = json.dumps(v, indent=2)", in: directory)
        try Self.write("- [/] a\n  - [ ] child\n- [x] b2 [note:: x]\n", into: path)
        #expect(
            try Self.text(path) == """
                [
                  {
                    "title": "a",
                    "done": false,
                    "status": "/",
                    "children": [
                      {
                        "title": "child",
                        "done": false
                      }
                    ]
                  },
                  {
                    "title": "b2",
                    "done": true,
                    "note": "x"
                  }
                ]
                """)
    }

    @Test("one key with codes for done and a custom status (Things' status 3 and 2) is written once")
    func oneKeyForTwoRoles() throws {
        let directory = try TemporaryDirectory()
        let path = try Self.make(
            "things.json", #"[{"title": "a", "status": 3}, {"title": "b", "status": 2}, {"title": "c", "status": 0}]"#,
            dump: "t = json.dumps(v)", in: directory)
        var schema = ItemSchema(naming: [:])
        schema.mapping("3", of: "status", to: .done)
        schema.mapping("2", of: "status", to: .custom("-"))
        try Self.write("- [-] a\n- [-] b\n- [x] c\n- [-] d\n", into: path, options: ListOptions(schema: schema))
        #expect(
            try Self.text(path)
                == #"[{"title": "a", "status": 2}, {"title": "b", "status": 2}, {"title": "c", "status": 3}, {"title": "d", "status": 2}]"#
        )
    }

    @Test(
        "a custom status the checked key's codes hold (state 2 beside done's 3) gets no status key, old item or new",
        arguments: [("title", "state"), ("name", "state"), ("name", "done")])
    func customStatusInCheckedCodes(nameKey: String, checkedKey: String) throws {
        let directory = try TemporaryDirectory()
        var schema = nameKey == "name" ? ItemSchema.standard : ItemSchema(naming: [.name: nameKey])
        schema.mapping("3", of: checkedKey, to: .done)
        schema.mapping("2", of: checkedKey, to: .custom("/"))
        let options = ListOptions(schema: schema)
        let markdown = "- [/] a\n- [x] b\n- [ ] c\n- [/] d\n"
        func keyed(_ text: String) -> String {
            text.replacingOccurrences(of: "title", with: nameKey).replacingOccurrences(of: "state", with: checkedKey)
        }
        let file = #"[{"title": "a", "state": 0}, {"title": "b", "state": 3}, {"title": "c", "state": 2}]"#
        let path = try Self.make("list.json", keyed(file), dump: "t = json.dumps(v)", in: directory)
        #expect(try Self.write(markdown, into: path, options: options).isEmpty)
        let expected =
            #"[{"title": "a", "state": 2}, {"title": "b", "state": 3}, {"title": "c", "state": 0}, {"title": "d", "state": 2}]"#
        #expect(try Self.text(path) == keyed(expected))
        // A new file whose items are learned from none: the codes still hold the status.
        let new = directory.path("new.json")
        try Self.write(markdown, into: new, options: options)
        #expect(!(try Self.text(new)).contains("status"))
        #expect(
            try TodoList(contentsOf: .file(new), options: options).items.map(\.status) == [
                .custom("/"), .done, .open, .custom("/"),
            ])
    }

    @Test(
        "an item made open, and a new open item, take the file's own spelling of open; codes keep the file's type",
        arguments: [
            // `OPEN` beside `done`: as the file has it, not cased like the item's `done`.
            (
                #"[{"name": "a", "status": "OPEN"}, {"name": "b", "status": "done"}, {"name": "c", "status": "done"}]"#,
                "- [ ] a\n- [ ] b\n- [x] c\n- [ ] n\n",
                #"[{"name": "a", "status": "OPEN"}, {"name": "b", "status": "OPEN"}, {"name": "c", "status": "done"}, {"name": "n", "status": "OPEN"}]"#,
                ""
            ),
            // An empty status is open.
            (
                #"[{"name": "a", "status": ""}, {"name": "b", "status": "done"}, {"name": "c", "status": "/"}]"#,
                "- [ ] a\n- [ ] b\n- [ ] c\n- [ ] n\n- [x] m\n",
                #"[{"name": "a", "status": ""}, {"name": "b", "status": ""}, {"name": "c", "status": ""}, {"name": "n", "status": ""}, {"name": "m", "status": "done"}]"#,
                ""
            ),
            // Codes `--field` maps (`finished`, `doing`): the file's other value, `todo`, is open;
            // `x`, which other apps read as done, is passed over.
            (
                #"[{"title": "X", "state": "x"}, {"title": "A", "state": "todo"}, {"title": "B", "state": "finished"}, {"title": "C", "state": "doing"}]"#,
                "- [ ] X\n- [/] A\n- [x] B\n- [ ] C\n- [ ] N\n",
                #"[{"title": "X", "state": "x"}, {"title": "A", "state": "doing"}, {"title": "B", "state": "finished"}, {"title": "C", "state": "todo"}, {"title": "N", "state": "todo"}]"#,
                "state:finished:doing"
            ),
            // Integer codes: the file's other integer, 1, as an integer; a real is passed over.
            (
                #"[{"title": "A", "status": 1.5}, {"title": "B", "status": 1}, {"title": "C", "status": 2}]"#,
                "- [ ] A\n- [ ] B\n- [ ] C\n- [ ] N\n",
                #"[{"title": "A", "status": 1.5}, {"title": "B", "status": 1}, {"title": "C", "status": 1}, {"title": "N", "status": 1}]"#,
                "status:3:2"
            ),
            // Codes the file keeps as text: every code written, new items' too, is text.
            (
                #"[{"title": "A", "status": "3"}, {"title": "B", "status": "1"}, {"title": "C", "status": "2"}]"#,
                "- [ ] A\n- [x] B\n- [/] C\n- [ ] N\n- [x] M\n- [/] O\n",
                #"[{"title": "A", "status": "1"}, {"title": "B", "status": "3"}, {"title": "C", "status": "2"}, {"title": "N", "status": "1"}, {"title": "M", "status": "3"}, {"title": "O", "status": "2"}]"#,
                "status:3:2"
            ),
            // A code written over null is typed as the file's codes are.
            (
                #"[{"title": "A", "status": 3}, {"title": "B", "status": None}, {"title": "C", "status": 2}]"#,
                "- [x] A\n- [x] B\n- [/] C\n",
                #"[{"title": "A", "status": 3}, {"title": "B", "status": 3}, {"title": "C", "status": 2}]"#,
                "status:3:2"
            ),
            // No other integer: 0.
            (
                #"[{"title": "A", "status": 3}, {"title": "B", "status": 2}]"#, "- [ ] A\n- [ ] B\n- [ ] N\n",
                #"[{"title": "A", "status": 0}, {"title": "B", "status": 0}, {"title": "N", "status": 0}]"#,
                "status:3:2"
            ),
        ])
    func fileSpellingOfOpen(file: String, markdown: String, expected: String, codes: String) throws {
        let directory = try TemporaryDirectory()
        var schema = ItemSchema.standard
        // `KEY:DONE:CUSTOM`, as `--field checked=KEY:DONE --field status=KEY:CUSTOM=/`.
        let parts = codes.split(separator: ":").map(String.init)
        if parts.count == 3 {
            schema = ItemSchema(naming: [.name: "title"])
            schema.mapping(parts[1], of: parts[0], to: .done)
            schema.mapping(parts[2], of: parts[0], to: .custom("/"))
        }
        let path = try Self.make("list.json", file, dump: "t = json.dumps(v)", in: directory)
        try Self.write(markdown, into: path, options: ListOptions(schema: schema))
        #expect(try Self.text(path) == expected)
    }

    @Test("children added under a null children key take its place, not a second key")
    func childrenOverNull() throws {
        let directory = try TemporaryDirectory()
        let path = try Self.make(
            "list.json", #"[{"name": "A", "children": None}, {"name": "B"}]"#, dump: "t = json.dumps(v)", in: directory)
        // With the field as a read of the file gives it (as `add --under` keeps it), and without.
        for markdown in ["- [ ] A [children:: null]\n  - [ ] New\n- [ ] B\n", "- [ ] A\n  - [ ] New\n- [ ] B\n"] {
            try #"[{"name": "A", "children": null}, {"name": "B"}]"#.write(
                toFile: path, atomically: false, encoding: .utf8)
            try Self.write(markdown, into: path)
            #expect(try Self.text(path) == #"[{"name": "A", "children": [{"name": "New"}]}, {"name": "B"}]"#)
        }
    }

    @Test("an item without the checked key, given a status its codes hold, gets the key with that code")
    func customStatusGivesCheckedKey() throws {
        let directory = try TemporaryDirectory()
        var schema = ItemSchema(naming: [.name: "title"])
        schema.mapping("finished", of: "state", to: .done)
        schema.mapping("doing", of: "state", to: .custom("/"))
        let path = try Self.make(
            "list.json", #"[{"title": "A", "state": "finished"}, {"title": "B"}]"#, dump: "t = json.dumps(v)",
            in: directory)
        #expect(try Self.write("- [/] A\n- [/] B\n- [/] N\n", into: path, options: ListOptions(schema: schema)).isEmpty)
        #expect(
            try Self.text(path)
                == #"[{"title": "A", "state": "doing"}, {"title": "B", "state": "doing"}, {"title": "N", "state": "doing"}]"#
        )
    }

    @Test(
        "a status todofmt cannot read, overwritten as its item is checked, is a warning; removed first, it is not",
        arguments: ["json", "xml", "binary"])
    func unreadableStatusOverwritten(format: String) throws {
        let directory = try TemporaryDirectory()
        let dump =
            ["json": "open(p, 'w').write(json.dumps(v))", "xml": "open(p, 'wb').write(plistlib.dumps(v))"][format]
            ?? "open(p, 'wb').write(plistlib.dumps(v, fmt=plistlib.FMT_BINARY))"
        let path = directory.path(format == "json" ? "list.json" : "list.plist")
        let original = """
            v = [{"name": "Milk", "status": "idea"}, {"name": "Eggs", "status": "done"}]
            p = os.path.join(d, \(String(reflecting: (path as NSString).lastPathComponent)))
            \(dump)
            """
        try Python.run(Python.prelude + original, in: directory)
        #expect(try TodoList(contentsOf: .file(path)).items[0].fields == [Field("status", .string("idea"))])
        // The checklist keeps the field; the file's `status` key can hold the one or the other.
        let warnings = try Self.write("- [x] Milk [status:: idea]\n- [x] Eggs\n", into: path)
        #expect(warnings.map(\.kind) == [.fields] && warnings.first?.firstItem == "1 Milk")
        #expect(warnings.first?.message.contains("'status'") == true)
        let written = try TodoList(contentsOf: .file(path)).items
        #expect(written.map(\.status) == [.done, .done] && written.allSatisfy(\.fields.isEmpty))
        // --strict refuses it, with the file as it was; without the field there is nothing to warn of.
        try Python.run(Python.prelude + original, in: directory)
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(throws: ConversionError.self) {
            try Self.write("- [x] Milk [status:: idea]\n- [x] Eggs\n", into: path, strict: true)
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
        #expect(try Self.write("- [x] Milk\n- [x] Eggs\n", into: path).isEmpty)
        #expect(try TodoList(contentsOf: .file(path)).items == written)
    }

    @Test(
        "a key mapped to custom statuses alone keeps its other values as boxes change; a custom code goes for the file's own",
        arguments: [
            (
                #"[{"name": "a", "done": True, "phase": 0}, {"name": "b", "done": False, "phase": 0}, {"name": "c", "done": False, "phase": 2}, {"name": "d", "done": False, "phase": 1}, {"name": "g", "done": True, "phase": 1}]"#,
                "- [x] a\n- [x] b\n- [x] c\n- [x] d [phase:: 1]\n- [ ] g [phase:: 1]\n- [ ] e\n- [/] f\n",
                #"[{"name": "a", "done": True, "phase": 0}, {"name": "b", "done": True, "phase": 0}, {"name": "c", "done": True, "phase": 0}, {"name": "d", "done": True, "phase": 1}, {"name": "g", "done": False, "phase": 1}, {"name": "e", "done": False, "phase": 0}, {"name": "f", "done": False, "phase": 2}]"#
            ),
            // An item without the checked key gets it for done, beside the mapped key's value.
            (
                #"[{"name": "a", "phase": 0}, {"name": "b", "phase": 1}, {"name": "c", "phase": 2}]"#,
                "- [x] a\n- [ ] b [phase:: 1]\n- [x] c\n- [x] d\n",
                #"[{"name": "a", "done": True, "phase": 0}, {"name": "b", "phase": 1}, {"name": "c", "done": True, "phase": 0}, {"name": "d", "done": True, "phase": 0}]"#
            ),
            // The file's other value is null.
            (
                #"[{"name": "a", "done": True, "phase": None}, {"name": "b", "done": False, "phase": None}, {"name": "c", "done": False, "phase": 2}]"#,
                "- [x] a\n- [x] b\n- [ ] c\n- [ ] d\n",
                #"[{"name": "a", "done": True, "phase": None}, {"name": "b", "done": True, "phase": None}, {"name": "c", "done": False, "phase": None}, {"name": "d", "done": False, "phase": None}]"#
            ),
        ])
    func customOnlyMapping(file: String, markdown: String, expected: String) throws {
        let directory = try TemporaryDirectory()
        var schema = ItemSchema(naming: [.checked: "done"])
        schema.mapping("2", of: "phase", to: .custom("/"))
        let path = try Self.make("list.json", file, dump: "t = json.dumps(v)", in: directory)
        #expect(try Self.write(markdown, into: path, options: ListOptions(schema: schema), strict: true).isEmpty)
        let expected = try Self.make("expected.json", expected, dump: "t = json.dumps(v)", in: directory)
        #expect(try Self.text(path) == (try Self.text(expected)))
    }

    /// Helper hunt 115: `done` and `open` in a key mapped to custom statuses alone were
    /// neither read nor written as such.
    @Test("a key mapped to custom statuses alone reads and writes its words for done and open")
    func wordsBesideCustomCodes() throws {
        let directory = try TemporaryDirectory()
        var schema = ItemSchema()
        schema.mapping("2", of: "status", to: .custom("/"))
        let options = ListOptions(schema: schema)
        let path = try Self.make(
            "list.json",
            #"[{"name": "a", "status": "done"}, {"name": "b", "status": "open"}, {"name": "c", "status": "2"}]"#,
            dump: "t = json.dumps(v)", in: directory)
        #expect(
            try TodoList(contentsOf: .file(path), options: options).items.map(\.status) == [.done, .open, .custom("/")])
        #expect(try Self.write("- [ ] a\n- [x] b\n- [x] c\n", into: path, options: options, strict: true).isEmpty)
        #expect(
            try Self.text(path)
                == #"[{"name": "a", "status": "open"}, {"name": "b", "status": "done"}, {"name": "c", "status": "done"}]"#
        )
        // A value that names no status (`idea`) is a field, no done-ness: beside a checked
        // key, it stays as the item is checked (helper hunt 116: `done` went over it).
        let checked = try Self.make(
            "checked.json",
            #"[{"name": "a", "checked": True, "status": "done"}, {"name": "d", "checked": False, "status": "idea"}]"#,
            dump: "t = json.dumps(v)", in: directory)
        #expect(
            try Self.write("- [x] a\n- [x] d [status:: idea]\n", into: checked, options: options, strict: true).isEmpty)
        #expect(
            try Self.text(checked)
                == #"[{"name": "a", "checked": true, "status": "done"}, {"name": "d", "checked": true, "status": "idea"}]"#
        )
        // Where the key has a word for open, a value that names no status is not its open
        // (helper hunt 117: new and unchecked items got `idea`).
        let words = try Self.make(
            "words.json",
            #"[{"name": "a", "status": "idea"}, {"name": "c", "status": "open"}, {"name": "d", "status": "2"}]"#,
            dump: "t = json.dumps(v)", in: directory)
        #expect(
            try Self.write("- [ ] a [status:: idea]\n- [ ] c\n- [ ] d\n- [ ] new\n", into: words, options: options)
                .isEmpty)
        #expect(
            try Self.text(words)
                == #"[{"name": "a", "status": "idea"}, {"name": "c", "status": "open"}, {"name": "d", "status": "open"}, {"name": "new", "status": "open"}]"#
        )
        // A mapping that names the word `open` itself: open items get the empty string, as
        // `open` reads back as `/` (helper hunt 118), and `idea` as a field.
        var claims = ItemSchema()
        claims.mapping("open", of: "status", to: .custom("/"))
        let claimed = try Self.make(
            "claimed.json",
            #"[{"name": "a", "status": "idea"}, {"name": "c", "status": "open"}, {"name": "e", "status": "done"}]"#,
            dump: "t = json.dumps(v)", in: directory)
        try Self.write(
            "- [ ] a [status:: idea]\n- [/] c\n- [ ] e\n- [ ] new\n", into: claimed,
            options: ListOptions(schema: claims))
        #expect(
            try Self.text(claimed)
                == #"[{"name": "a", "status": "idea"}, {"name": "c", "status": "open"}, {"name": "e", "status": ""}, {"name": "new", "status": ""}]"#
        )
        // A custom status no code names keeps its character in a new file (hunt 117: `0`).
        let fresh = directory.path("fresh.json")
        #expect(try Self.write("- [5] b\n- [/] a\n", into: fresh, options: options, strict: true).isEmpty)
        #expect(
            try TodoList(contentsOf: .file(fresh), options: options).items.map(\.status) == [
                .custom("5"), .custom("/"),
            ])
    }

    @Test(
        "a file whose lines end in CR LF gets new lines ending so too, in JSON and XML property lists",
        arguments: ["json", "plist"])
    func crlf(_ format: String) throws {
        let directory = try TemporaryDirectory()
        let value = #"[{"title": "a", "done": False}, {"title": "b", "done": True}]"#
        let dump =
            format == "json"
            ? "t = json.dumps(v, indent=2).replace('\\n', '\\r\\n') + '\\r\\n'"
            : "t = plistlib.dumps(v).decode().replace('\\n', '\\r\\n')"
        let path = try Self.make("list." + format, value, dump: dump, in: directory)
        try Self.write("- [ ] a\n  - [ ] s\n- [x] b\n- [ ] c\n", into: path)
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        #expect(bytes.indices.allSatisfy { bytes[$0] != 10 || ($0 > 0 && bytes[$0 - 1] == 13) })
        #expect(try TodoList(contentsOf: .file(path)).items.map(\.name) == ["a", "b", "c"])
        #expect(try TodoList(contentsOf: .file(path)).items[0].children.map(\.name) == ["s"])
    }

    @Test("the same id on two items is an error naming both lines, and nothing is written")
    func duplicateIdentity() throws {
        let directory = try TemporaryDirectory()
        let path = try Self.make("todos.json", Self.todos, dump: "t = json.dumps(v, indent=2)", in: directory)
        let before = try Self.text(path)
        let checklist = "- [ ] Fix the bike [id:: 2]\n- [ ] Bake [id:: 3]\n- [ ] Fix the bike again [id:: 2]\n"
        #expect(
            throws: ParseError(
                "lines 1 and 3 both carry id 2: an identity stands on one item only, so one of them must go (nothing was written)",
                at: SourceLocation(file: path + ".md", line: 3, column: 1))
        ) {
            try Self.write(checklist, into: path)
        }
        #expect(try Self.text(path) == before)
    }

    @Test(
        "order keys follow a move, only the moved item's value changing, ascending or descending, integers or reals",
        arguments: [
            ("[1, 2, 3]", "[0, 1, 2]"), ("[3, 2, 1]", "[4, 3, 2]"), ("[1.0, 2.0, 3.0]", "[0.0, 1.0, 2.0]"),
            ("[3.5, 2, 1]", "[4.5, 3.5, 2]"),
            ("[10, 20, 30]", "[9, 10, 20]"),
        ])
    func order(values: String, expected: String) throws {
        let directory = try TemporaryDirectory()
        let value = "[{'text': n, 'position': p} for n, p in zip(['a', 'b', 'c'], \(values))]"
        let path = try Self.make("todos.json", value, dump: "t = json.dumps(v, indent=2)", in: directory)
        var list = try TodoList(contentsOf: .file(path))
        list.items.insert(list.items.remove(at: 2), at: 0)
        try Self.write(try list.encoded(as: .markdown).string, into: path)
        let result = try TodoList(contentsOf: .file(path))
        #expect(result.items.map(\.name) == ["c", "a", "b"])
        let positions = try Python.run(
            Python.prelude
                + "print(json.dumps([i['position'] for i in json.load(open(os.path.join(d, 'todos.json')))]))",
            in: directory)
        #expect(positions == expected + "\n")
    }

    @Test("NaN and -0.0 are written with a warning (count and first item); --strict refuses them")
    func unholdable() throws {
        let directory = try TemporaryDirectory()
        let path = try Self.make(
            "todos.json", "[{'name': 'a', 'checked': False}]", dump: "t = json.dumps(v)", in: directory)
        let checklist = "- [ ] a\n- [ ] b [x:: nan]\n- [ ] c [x:: nan] [y:: -0.0]\n"
        let before = try Self.text(path)
        #expect(throws: ConversionError.self) { try Self.write(checklist, into: path, strict: true) }
        #expect(try Self.text(path) == before)
        let warnings = try Self.write(checklist, into: path)
        #expect(
            warnings == [
                ConversionWarning(
                    .values, "JSON has no NaN or infinity: they were written as the strings \"nan\", \"inf\", \"-inf\"",
                    count: 2, firstItem: "2 b"),
                ConversionWarning(
                    .values, "-0.0 was written as -0.0, which JavaScript and other JSON readers take for 0",
                    firstItem: "3 c"),
            ])
        // A new file warns the same.
        let fresh = directory.path("new.json")
        #expect(try Self.write(checklist, into: fresh) == warnings)
    }

    @Test("done-ness in a status word is written back in the file's words (gh's OPEN and CLOSED)")
    func statusWords() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("gh-issues.json")
        try Data(contentsOf: Fixture.url("apps/gh-issues.json")).write(to: URL(fileURLWithPath: path))
        var list = try TodoList(contentsOf: .file(path))
        list.items[0].status = .done
        list.items[1].status = .open
        try Self.write(try list.encoded(as: .markdown).string, into: path)
        let expected = try Self.make(
            "expected.json", "json.load(open(os.path.join(d, 'gh-issues.json.orig')))",
            dump:
                "v[0]['state'] = 'CLOSED'\nv[1]['state'] = 'OPEN'\nt = json.dumps(v, ensure_ascii=False, separators=(',', ':')) + '\\n'",
            in: {
                try Data(contentsOf: Fixture.url("apps/gh-issues.json")).write(
                    to: URL(fileURLWithPath: directory.path("gh-issues.json.orig")))
                return directory
            }())
        #expect(try Self.text(path) == (try Self.text(expected)))
    }

    @Test(
        "where open items have no status key, an item made open loses its key and a new open item gets none",
        arguments: [
            // A checked key beside statuses, one of them a done word (`x`).
            (
                #"[{"name": "one", "checked": False, "status": "x"}, {"name": "two", "checked": False, "status": "/"}, {"name": "three", "checked": False}]"#,
                "- [x] one\n- [ ] two\n- [ ] three\n- [ ] four\n",
                #"[{"name": "one", "checked": False, "status": "x"}, {"name": "two", "checked": False}, {"name": "three", "checked": False}, {"name": "four", "checked": False}]"#
            ),
            // Done-ness in the status key alone.
            (
                #"[{"name": "one", "status": "done"}, {"name": "two"}]"#,
                "- [ ] one\n- [ ] two\n- [x] new\n- [ ] new2\n",
                #"[{"name": "one"}, {"name": "two"}, {"name": "new", "status": "done"}, {"name": "new2"}]"#
            ),
            // A key found as the status's (`state`): every item has it, so open is `OPEN`, cased
            // as the file's done word; where one has none, open has no key.
            (
                #"[{"title": "A", "state": "CLOSED"}, {"title": "B", "state": "CLOSED"}]"#,
                "- [ ] A\n- [x] B\n- [ ] D\n",
                #"[{"title": "A", "state": "OPEN"}, {"title": "B", "state": "CLOSED"}, {"title": "D", "state": "OPEN"}]"#
            ),
            (
                #"[{"title": "A", "state": "CLOSED"}, {"title": "B"}]"#, "- [ ] A\n- [x] B\n- [ ] D\n",
                #"[{"title": "A"}, {"title": "B", "state": "CLOSED"}, {"title": "D"}]"#
            ),
            // Every item has the key: the file spells an open item with a word, `open`.
            (
                #"[{"name": "one", "status": "done"}, {"name": "two", "status": "done"}]"#,
                "- [ ] one\n- [x] two\n- [ ] new\n",
                #"[{"name": "one", "status": "open"}, {"name": "two", "status": "done"}, {"name": "new", "status": "open"}]"#
            ),
        ])
    func openWithoutStatusKey(file: String, markdown: String, expected: String) throws {
        let directory = try TemporaryDirectory()
        let dump = "t = json.dumps(v, indent=2)"
        let path = try Self.make("list.json", file, dump: dump, in: directory)
        try Self.write(markdown, into: path)
        #expect(
            try Self.text(path) == (try Self.text(try Self.make("expected.json", expected, dump: dump, in: directory))))
    }

    @Test(
        "a null status is open, no field; where the file's open items have one, open is written null",
        arguments: [
            (
                #"[{"name": "one", "status": "done"}, {"name": "two", "status": None}, {"name": "three", "status": "done"}]"#,
                "- [ ] one\n- [ ] two\n- [x] three\n- [ ] new\n",
                #"[{"name": "one", "status": None}, {"name": "two", "status": None}, {"name": "three", "status": "done"}, {"name": "new", "status": None}]"#
            ),
            // Beside an item without the key, the null is still the file's spelling of open.
            (
                #"[{"name": "one", "status": "done"}, {"name": "two", "status": None}, {"name": "three"}]"#,
                "- [ ] one\n- [ ] two\n- [ ] three\n- [ ] new\n",
                #"[{"name": "one", "status": None}, {"name": "two", "status": None}, {"name": "three"}, {"name": "new", "status": None}]"#
            ),
            // A checked key says done-ness; the null status says nothing against it, checked
            // or unchecked (helper hunt 113: checking removed it), beside a done word too.
            (
                #"[{"name": "one", "checked": True, "status": None}, {"name": "two", "checked": False, "status": None}]"#,
                "- [ ] one\n- [x] two\n",
                #"[{"name": "one", "checked": False, "status": None}, {"name": "two", "checked": True, "status": None}]"#
            ),
            (
                #"[{"name": "one", "checked": True, "status": "done"}, {"name": "two", "checked": False, "status": None}]"#,
                "- [x] one\n- [x] two\n",
                #"[{"name": "one", "checked": True, "status": "done"}, {"name": "two", "checked": True, "status": None}]"#
            ),
            // No status words, only nulls: a custom status made done or open gives way to null
            // (it lost its key), and a new item gets one (it got none).
            (
                #"[{"name": "a", "checked": False, "status": "/"}, {"name": "b", "checked": False, "status": None}]"#,
                "- [x] a\n- [ ] b\n- [ ] c\n- [x] d\n",
                #"[{"name": "a", "checked": True, "status": None}, {"name": "b", "checked": False, "status": None}, {"name": "c", "checked": False, "status": None}, {"name": "d", "checked": True, "status": None}]"#
            ),
            // Helper hunt 115: an item without the file's checked key, checked, got `done` in
            // its status (which the app reads no done-ness from); it gets the checked key.
            (
                #"[{"name": "a", "checked": False, "status": None}, {"name": "b", "status": None}]"#,
                "- [ ] a\n- [x] b\n- [x] c\n- [ ] d\n",
                #"[{"name": "a", "checked": False, "status": None}, {"name": "b", "checked": True, "status": None}, {"name": "c", "checked": True, "status": None}, {"name": "d", "checked": False, "status": None}]"#
            ),
            (
                #"[{"name": "a", "status": None}, {"name": "b", "status": None}]"#,
                "- [x] a\n- [ ] b\n- [ ] c\n- [x] d\n",
                #"[{"name": "a", "status": "done"}, {"name": "b", "status": None}, {"name": "c", "status": None}, {"name": "d", "status": "done"}]"#
            ),
        ])
    func openAsNull(file: String, markdown: String, expected: String) throws {
        let directory = try TemporaryDirectory()
        let dump = "t = json.dumps(v, indent=2)"
        let path = try Self.make("list.json", file, dump: dump, in: directory)
        let read = try TodoList(contentsOf: .file(path)).items
        #expect(read.allSatisfy { $0.fields.isEmpty })
        try Self.write(markdown, into: path)
        #expect(
            try Self.text(path) == (try Self.text(try Self.make("expected.json", expected, dump: dump, in: directory))))
    }

    @Test(
        "done-ness kept only as a completion date: checking stamps the time in the key's layout, unchecking clears it")
    func completionDate() throws {
        try Clock.$pinned.withValue(ISO8601.parse("2026-01-02T03:04:05.25Z".utf8)) {
            let directory = try TemporaryDirectory()
            let path = try Self.make(
                "todos.json",
                #"[{"title": "a", "completed_at": None}, {"title": "b", "completed_at": "2024-05-01T10:00:00.123456Z"}]"#,
                dump: "t = json.dumps(v)", in: directory)
            let list = try TodoList(contentsOf: .file(path))
            #expect(list.items.map(\.status) == [.open, .done])
            try Self.write(
                "- [x] a [completed_at:: null]\n- [ ] b [completed_at:: \"2024-05-01T10:00:00.123456Z\"]\n", into: path)
            #expect(
                try Self.text(path)
                    == #"[{"title": "a", "completed_at": "2026-01-02T03:04:05.250000Z"}, {"title": "b", "completed_at": null}]"#
            )
        }
    }

    @Test("a file with a syntax error after the list is an error, and nothing is written")
    func damagedTail() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("todos.json")
        try "[{\"name\": \"a\", \"checked\": false}] x".write(toFile: path, atomically: false, encoding: .utf8)
        #expect(
            throws: ParseError(
                "unexpected 'x', expected the end of the file", at: SourceLocation(file: path, line: 1, column: 35))
        ) {
            try Self.write("- [x] a\n", into: path)
        }
    }
}

/// Random single edits of long lists: whatever the edit, the file must come out as the app's
/// writer would write the edited list, which for a file in todofmt's own layout (or in
/// Python's `indent=2`) is that writer's output for the edited list.
@Suite("Writing edits into long JSON lists")
struct JSONRandomEditTests {
    static func list(_ rng: inout SeededGenerator) -> TodoList {
        var items: [TodoItem] = []
        for i in 0..<200 {
            var item = TodoItem(name: "item \(i) \(["milk", "café", "日本語", "x\"y"].randomElement(using: &rng)!)")
            if Int.random(in: 0..<4, using: &rng) == 0 { item.status = .done }
            if Int.random(in: 0..<10, using: &rng) == 0 {
                item.fields = [Field("prio", .integer(Int.random(in: 1...3, using: &rng)))]
            }
            if Int.random(in: 0..<5, using: &rng) == 0 {
                item.children = (0..<Int.random(in: 1...3, using: &rng)).map { TodoItem(name: "child \(i).\($0)") }
            }
            items.append(item)
        }
        return TodoList(items: items)
    }

    static func edit(_ list: inout TodoList, _ rng: inout SeededGenerator) -> String {
        let n = list.items.count
        let i = Int.random(in: 0..<n, using: &rng)
        switch Int.random(in: 0..<8, using: &rng) {
        case 0:
            list.items[i].status = list.items[i].isChecked ? .open : .done
            return "check \(i)"
        case 1:
            list.items[i].name = "renamed ✅"
            return "rename \(i)"
        case 2:
            list.items.insert(TodoItem(name: "new"), at: Int.random(in: 0...n, using: &rng))
            return "insert"
        case 3:
            list.items.remove(at: i)
            return "remove \(i)"
        case 4:
            let item = list.items.remove(at: i)
            let j = Int.random(in: 0..<n, using: &rng)
            list.items.insert(item, at: j)
            return "move \(i) to \(j)"
        case 5:
            list.items[i].children.append(TodoItem(name: "new child"))
            return "add a child to \(i)"
        case 6:
            guard let k = list.items.firstIndex(where: { !$0.children.isEmpty }) else { return "nothing" }
            list.items[k].children.removeFirst()
            return "remove a child of \(k)"
        default:
            list.items[i].fields.append(Field("note", .string("a/b <c>")))
            return "add a field to \(i)"
        }
    }

    @Test("a random edit gives what the app would write", arguments: 0..<24)
    func randomEdit(seed: Int) throws {
        var rng = SeededGenerator(seed: UInt64(seed))
        let original = Self.list(&rng)
        var edited = original
        let what = Self.edit(&edited, &rng)
        let directory = try TemporaryDirectory()
        let path = directory.path("todos.json")
        // todofmt's own layout: the result is todofmt's output for the edited list.
        try Data(try original.encoded(as: .json)).write(to: URL(fileURLWithPath: path))
        try JSONWriteBackTests.write(try edited.encoded(as: .markdown).string, into: path)
        #expect(try JSONWriteBackTests.text(path) == (try edited.encoded(as: .json)).string, "\(seed): \(what)")
        // Python's indent=2: the result is Python's output for the edited list.
        let reformat =
            "t = json.dumps(json.loads(open(os.path.join(d, 'src.json')).read()), indent=2, ensure_ascii=False)"
        try Data(try original.encoded(as: .json)).write(to: URL(fileURLWithPath: directory.path("src.json")))
        let python = try JSONWriteBackTests.make("python.json", "None", dump: reformat, in: directory)
        try JSONWriteBackTests.write(try edited.encoded(as: .markdown).string, into: python)
        try Data(try edited.encoded(as: .json)).write(to: URL(fileURLWithPath: directory.path("src.json")))
        let expected = try JSONWriteBackTests.make("expected.json", "None", dump: reformat, in: directory)
        #expect(try JSONWriteBackTests.text(python) == (try JSONWriteBackTests.text(expected)), "\(seed): \(what)")
    }
}

extension Array where Element == UInt8 {
    var string: String { String(decoding: self, as: UTF8.self) }
}

/// An object that gives a key twice: JSON.parse, Python's json and Foundation take the last
/// value, and so does todofmt (it once took the first, and an edit then wrote the second
/// into a new `fields` object); `check` names the repeated key's line.
@Suite("Keys given twice in a JSON object")
struct JSONRepeatedKeyTests {
    static let text =
        "[{\"title\": \"dup\", \"done\": false,\n  \"title\": \"dup2\"}, {\"title\": \"b\", \"done\": false}]\n"

    @Test("the last value is the item's, reading and renaming; check warns at the second key")
    func lastWins() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("dk.json")
        try Self.text.write(toFile: path, atomically: false, encoding: .utf8)
        var list = try TodoList(contentsOf: .file(path))
        #expect(list.items.map(\.name) == ["dup2", "b"])
        #expect(list.items[0].fields.isEmpty)
        let problems = try TodoDocument.problems(inFileAt: .file(path))
        #expect(
            problems.map(\.description) == [
                "\(path):2:3: warning: key \"title\" given again in one object: its last value counts"
            ])

        list.items[0].name = "renamed"
        try JSONWriteBackTests.write(try list.encoded(as: .markdown).string, into: path)
        let seen = try Python.run(
            Python.prelude + "print(canon(json.load(open(os.path.join(d, 'dk.json')))))", in: directory)
        #expect(
            seen == #"[{"title": "renamed", "done": ["bool", false]}, {"title": "b", "done": ["bool", false]}]"# + "\n")
    }
}
