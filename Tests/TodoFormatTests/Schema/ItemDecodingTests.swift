import Foundation
import Testing

@testable import TodoFormat

/// How item objects' values become done-ness and statuses, in every keyed format.
@Suite("Done-ness in the words apps use")
struct ItemDecodingTests {
    /// A JSON item with one key/value besides its name, and what the item reads as.
    @Test(
        "checked and status values",
        arguments: [
            (#""checked": true"#, TodoStatus.done, [Field]()),
            (#""done": 1"#, .done, []),
            (#""isDone": 0"#, .open, []),
            (#""is_completed": "yes""#, .done, []),
            (#""Completed": "off""#, .open, []),
            (#""checked": null"#, .open, []),
            (#""checked": "maybe""#, .open, [Field("checked", .string("maybe"))]),
            (#""status": "done""#, .done, []),
            (#""state": "Completed""#, .done, []),
            (#""status": "closed""#, .done, []),
            (#""status": "x""#, .done, []),
            (#""status": "todo""#, .open, []),
            (#""status": "active""#, .open, []),
            (#""status": "/""#, .custom("/"), []),
            (#""status": "idea""#, .open, [Field("status", .string("idea"))]),
            // Characters no checklist box holds would make a line that is no task item.
            (#""status": "[""#, .open, [Field("status", .string("["))]),
            (#""status": "]""#, .open, [Field("status", .string("]"))]),
            (#""status": "\\""#, .open, [Field("status", .string("\\"))]),
            (#""status": "\t""#, .open, [Field("status", .string("\t"))]),
            (#""status": "\u00a0""#, .open, [Field("status", .string("\u{A0}"))]),
            (#""status": "\u200b""#, .open, [Field("status", .string("\u{200B}"))]),
            (#""status": "\u007f""#, .open, [Field("status", .string("\u{7F}"))]),
            (#""status": "ü""#, .custom("ü"), []),
            (#""status": " ""#, .open, []),
            (#""status": 3"#, .open, [Field("status", .integer(3))]),
            (
                #""completed_at": "2024-05-01T09:30:00Z""#, .done,
                [Field("completed_at", .string("2024-05-01T09:30:00Z"))]
            ),
            (#""completedAt": null"#, .open, [Field("completedAt", .null)]),
        ])
    func values(pair: String, status: TodoStatus, fields: [Field]) throws {
        let list = try TodoList(bytes: Array("[{\"name\": \"a\", \(pair)}]".utf8), format: .json)
        #expect(list.items[0].status == status)
        #expect(list.items[0].fields == fields)
    }

    @Test("a checked or status key wins over a completion date")
    func checkedWinsOverCompletionDate() throws {
        let text =
            #"[{"name": "a", "done": false, "completed_at": "2024-05-01"}, {"name": "b", "status": "todo", "completedAt": 5}]"#
        let list = try TodoList(bytes: Array(text.utf8), format: .json)
        #expect(list.items.map(\.status) == [.open, .open])
    }

    /// Asked by helper hunt 80: an object whose status key and checked key disagree.
    @Test("a custom status wins over a checked key; of a done or open status and a checked key, the later decides")
    func statusAndChecked() throws {
        let text = """
            [{"name": "a", "status": "x", "checked": false}, {"name": "b", "checked": false, "status": "x"},
             {"name": "c", "status": "open", "checked": true}, {"name": "d", "checked": true, "status": " "},
             {"name": "e", "status": "/", "checked": true}, {"name": "f", "checked": true}]
            """
        for format in buildHasYAML ? [DocumentFormat.json, .yaml] : [.json] {
            let list = try TodoList(bytes: Array(text.utf8), format: format)
            #expect(list.items.map(\.status) == [.open, .done, .done, .open, .custom("/"), .done], "\(format)")
        }
    }

    @Test("a status key's values as the user maps them: --field checked=status:3 --field status=status:2=-")
    func userMapping() throws {
        var schema = ItemSchema(naming: [.name: "title"])
        schema.mapping("3", of: "status", to: .done)
        schema.mapping("2", of: "status", to: .custom("-"))
        let text =
            #"[{"title": "a", "status": 0}, {"title": "b", "status": 3}, {"title": "c", "status": 2}, {"title": "d", "status": 1}]"#
        let list = try TodoList(bytes: Array(text.utf8), format: .json, options: ListOptions(schema: schema))
        #expect(list.items.map(\.status) == [.open, .done, .custom("-"), .open])
        #expect(list.items.map(\.fields) == [[], [], [], []])
    }

    /// Helper hunt 110: a key mapped to custom statuses alone said open for its other values,
    /// over the checked key's done.
    @Test("a status key mapped to custom statuses alone says nothing of done-ness in its other values")
    func customOnlyMapping() throws {
        var schema = ItemSchema(naming: [.checked: "done"])
        schema.mapping("2", of: "phase", to: .custom("/"))
        let text = """
            [{"name": "a", "done": true, "phase": 0}, {"name": "b", "phase": 0, "done": true},
             {"name": "c", "done": true, "phase": 2}, {"name": "d", "done": false, "phase": 1}]
            """
        let list = try TodoList(bytes: Array(text.utf8), format: .json, options: ListOptions(schema: schema))
        #expect(list.items.map(\.status) == [.done, .done, .custom("/"), .open])
        // 0, what writers give such a key for no custom status, says nothing; another value
        // that names no status is a field, so that converting the list keeps it.
        #expect(list.items.map(\.fields) == [[], [], [], [Field("phase", .integer(1))]])
    }

    /// A tree whose nested item has a `section` key, as an app that keeps sections per task writes it.
    static let sectioned = #"[{"title": "a", "section": "Home", "subtasks": [{"title": "b", "section": "Work"}]}]"#

    @Test(
        "a nested item's section key is a field (only top-level items have sections): kept through a checklist and back",
        arguments: [
            ("s.json", "open(p, 'w').write(json.dumps(v, indent=2))"),
            ("s.plist", "plistlib.dump(v, open(p, 'wb'))"),
            ("s.bplist", "plistlib.dump(v, open(p, 'wb'), fmt=plistlib.FMT_BINARY)"),
        ])
    func nestedSection(file: String, dump: String) throws {
        try Self.checkNestedSection(file: file, dump: dump)
    }

    @Test("the same in YAML", .needsYAML)
    func nestedSectionInYAML() throws {
        try Self.checkNestedSection(
            file: "s.yaml", dump: "import yaml; open(p, 'w').write(yaml.safe_dump(v, sort_keys=False))")
    }

    static func checkNestedSection(file: String, dump: String) throws {
        let directory = try TemporaryDirectory()
        try Python.run(
            Python.prelude + """
                v = \(sectioned)
                p = os.path.join(d, \(String(reflecting: file)))
                \(dump)
                """, in: directory)
        let path = directory.path(file)
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let list = try TodoList(contentsOf: .file(path))
        #expect(list.items[0].section == "Home")
        #expect(list.items[0].children[0].section == nil)
        #expect(list.items[0].children[0].fields == [Field("section", .string("Work"))])
        // Through a checklist (as a field there) and back into the file: nothing changes.
        let checklist = directory.path("s.md")
        #expect(try Conversion(input: .at(path), output: .at(checklist)).run().isEmpty)
        #expect(
            try String(contentsOfFile: checklist, encoding: .utf8) == "# Home\n- [ ] a\n  - [ ] b [section:: Work]\n")
        #expect(try Conversion(input: .at(checklist), output: .at(path)).run().isEmpty)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
    }

    @Test("a key given twice has its last value, as plistlib and json read it: in an XML plist item and a list's key")
    func repeatedKeys() throws {
        let directory = try TemporaryDirectory()
        let plist = directory.path("i.plist")
        let xml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0">
            <dict>
            \t<key>todos</key>
            \t<array><dict><key>title</key><string>old list</string></dict></array>
            \t<key>todos</key>
            \t<array>
            \t\t<dict>
            \t\t\t<key>title</key>
            \t\t\t<string>first</string>
            \t\t\t<key>done</key>
            \t\t\t<false/>
            \t\t\t<key>title</key>
            \t\t\t<string>second</string>
            \t\t</dict>
            \t</array>
            </dict>
            </plist>

            """
        try xml.write(toFile: plist, atomically: false, encoding: .utf8)
        let read = try Python.run(
            Python.prelude + "print(plistlib.load(open(os.path.join(d, 'i.plist'), 'rb'))['todos'][0]['title'])",
            in: directory)
        #expect(read.trimmingCharacters(in: .whitespacesAndNewlines) == "second")
        #expect(try TodoList(contentsOf: .file(plist)).items.map(\.name) == ["second"])
        // Written back: unchanged, the same bytes; checked, one line.
        let checklist = directory.path("i.md")
        try Conversion(input: .at(plist), output: .at(checklist)).run()
        try Conversion(input: .at(checklist), output: .at(plist)).run()
        #expect(try String(contentsOfFile: plist, encoding: .utf8) == xml)
        try "- [x] second\n".write(toFile: checklist, atomically: false, encoding: .utf8)
        try Conversion(input: .at(checklist), output: .at(plist)).run()
        #expect(
            try String(contentsOfFile: plist, encoding: .utf8)
                == xml.replacingOccurrences(of: "<false/>", with: "<true/>"))

        let json = directory.path("j.json")
        try #"{"todos":[{"title":"a"}],"todos":[{"title":"b","done":false}]}"#.write(
            toFile: json, atomically: false, encoding: .utf8)
        #expect(try TodoList(contentsOf: .file(json)).items.map(\.name) == ["b"])
        #expect(try TodoList(contentsOf: .file(json), options: ListOptions(key: "todos")).items.map(\.name) == ["b"])
        try "- [x] b\n".write(toFile: checklist, atomically: false, encoding: .utf8)
        try Conversion(input: .at(checklist), output: .at(json)).run()
        #expect(
            try String(contentsOfFile: json, encoding: .utf8)
                == #"{"todos":[{"title":"a"}],"todos":[{"title":"b","done":true}]}"#)
        // A children key given twice in a one-line file: a new child goes into the last one,
        // separated as the file separates, and the earlier key stays as it was.
        let tree = directory.path("t.json")
        let one = #"[{"title":"p","subtasks":[{"title":"x"}],"done":false,"subtasks":[{"title":"y","done":false}]}]"#
        try one.write(toFile: tree, atomically: false, encoding: .utf8)
        try "- [ ] p\n  - [ ] y\n  - [ ] z\n".write(toFile: checklist, atomically: false, encoding: .utf8)
        try Conversion(input: .at(checklist), output: .at(tree)).run()
        #expect(
            try String(contentsOfFile: tree, encoding: .utf8)
                == one.replacingOccurrences(
                    of: #""done":false}]}]"#, with: #""done":false},{"title":"z","done":false}]}]"#))
        // Inside a field's object the last value counts too.
        let nested = directory.path("n.json")
        try #"[{"name": "a", "checked": false, "fields": {"status": "idea", "k": 1, "k": 2}}]"#.write(
            toFile: nested, atomically: false, encoding: .utf8)
        #expect(
            try TodoList(contentsOf: .file(nested)).items[0].fields == [
                Field("status", .string("idea")), Field("k", .integer(2)),
            ])
    }

    @Test("a binary property list whose list key is given twice is read and written at the last one, as plistlib")
    func repeatedKeyInBinaryPropertyList() throws {
        let directory = try TemporaryDirectory()
        try Python.run(
            Python.prelude + """
                v = {'tasks': [{'title': 'a', 'done': False}], 'taskz': [{'title': 'b', 'done': False}]}
                b = plistlib.dumps(v, fmt=plistlib.FMT_BINARY).replace(b'taskz', b'tasks')
                open(os.path.join(d, 'b.plist'), 'wb').write(b)
                """, in: directory)
        let path = directory.path("b.plist")
        #expect(try TodoList(contentsOf: .file(path)).items.map(\.name) == ["b"])
        try "- [x] b\n- [ ] c\n".write(toFile: directory.path("b.md"), atomically: false, encoding: .utf8)
        try Conversion(input: .at(directory.path("b.md")), output: .at(path)).run()
        let read = try Python.run(
            Python.prelude + "print(plistlib.load(open(os.path.join(d, 'b.plist'), 'rb'))['tasks'])", in: directory)
        #expect(read == "[{'done': True, 'title': 'b'}, {'done': False, 'title': 'c'}]\n")
    }
}
