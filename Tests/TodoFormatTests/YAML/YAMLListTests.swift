#if YAML
import Foundation
import Testing

@testable import TodoFormat

@Suite("The YAML list")
struct YAMLListTests {
    @Test("a fixture with metadata, nesting, a status and typed fields")
    func fixture() throws {
        let list = try TodoList(contentsOf: .file(Fixture.path("yaml/with-metadata.yaml")))
        #expect(list.metadata == [Field("title", .string("Groceries")), Field("owner", .string("sam"))])
        #expect(list.items.map(\.name) == ["Milk", "Eggs", "Bread"])
        #expect(list.items[1].children.map(\.name) == ["Brown ones"])
        #expect(list.items[2].status == .custom("/"))
        #expect(
            list.items[2].fields == [
                Field("added", .date(Date(timeIntervalSince1970: 1_714_555_800))), Field("count", .integer(2)),
                Field("yes", .string("yes")),
            ])
    }

    @Test("checklist to YAML and back gives the same list", arguments: Fixture.files(in: "markdown"))
    func roundTrip(name: String) throws {
        let list = try TodoList(markdown: Fixture.text(name))
        let yaml = try list.encoded(as: .yaml)
        #expect(try TodoList(bytes: yaml, format: .yaml) == list, "\(String(decoding: yaml, as: UTF8.self))")
    }

    @Test("values of every type survive YAML", arguments: FieldSyntaxTests.values)
    func values(value: FieldValue) throws {
        let list = TodoList(
            metadata: [Field("m", value)],
            items: [TodoItem(name: "x", fields: [Field("f", value), Field("name", value)])])
        let read = try TodoList(bytes: try list.encoded(as: .yaml), format: .yaml)
        let text = String(decoding: try list.encoded(as: .yaml), as: UTF8.self)
        #expect(read == list, "\(text)")
    }

    @Test("PyYAML reads what todofmt writes as the same data")
    func pyyamlReadsOutput() throws {
        let list = try TodoList(contentsOf: .file(Fixture.path("yaml/with-metadata.yaml")))
        let script = """
            import sys, yaml, json, datetime
            docs = list(yaml.safe_load_all(sys.stdin))
            def plain(v):
                if isinstance(v, datetime.datetime): return v.strftime('%Y-%m-%dT%H:%M:%SZ')
                if isinstance(v, dict): return {k: plain(x) for k, x in v.items()}
                if isinstance(v, list): return [plain(x) for x in v]
                return v
            print(json.dumps(plain(docs), sort_keys=True))
            """
        let result = try ExternalTool.run("python3", ["-c", script], stdin: Data(try list.encoded(as: .yaml)))
        #expect(result.status == 0, "\(result.stderr)")
        let expected = """
            [{"owner": "sam", "title": "Groceries"}, [{"checked": false, "name": "Milk"}, {"checked": true, "children": [{"checked": false, "name": "Brown ones"}], "name": "Eggs"}, {"added": "2024-05-01T09:30:00Z", "checked": false, "count": 2, "name": "Bread", "status": "/", "yes": "yes"}]]
            """
        #expect(result.text.trimmingCharacters(in: .newlines) == expected)
    }

    @Test("libyaml's error, at its line and column")
    func invalid() throws {
        #expect(
            throws: ParseError(
                "yaml: mapping values are not allowed in this context",
                at: SourceLocation(file: "bad.yaml", line: 4, column: 9))
        ) {
            try TodoList(bytes: Array(Fixture.data("yaml/invalid.yaml")), format: .yaml, name: "bad.yaml")
        }
    }

    @Test(
        "shapes that are not a todo list are errors with a place",
        arguments: [
            ("- Milk\n", "expected an item (a mapping with a name)", 1, 3),
            ("- checked: true\n", "item has no name (its keys: checked)", 1, 3),
            ("just text\n", "expected a YAML list of items, found a single value", 1, 1),
            ("- name: [a]\n", "an item's name ('name') must be text", 1, 9),
            // Cut short without a final newline: libyaml's mark is past the last line; the end of the file is shown.
            ("- name: a\n  checked", "yaml: could not find expected ':' while scanning a simple key", 2, 10),
            ("- name: a\n  checked\n", "yaml: could not find expected ':' while scanning a simple key", 3, 1),
        ])
    func notALIst(text: String, message: String, line: Int, column: Int) throws {
        #expect(throws: ParseError(message, at: SourceLocation(file: "x.yaml", line: line, column: column))) {
            try TodoList(bytes: Array(text.utf8), format: .yaml, name: "x.yaml")
        }
    }

    @Test("a value a later key replaces is no error; one no key replaces is, where it stands")
    func replacedValue() throws {
        let list = try TodoList(bytes: Array("- name: [a]\n  name: b\n".utf8), format: .yaml, name: "x.yaml")
        #expect(list.items.map(\.name) == ["b"])
        #expect(
            throws: ParseError(
                "an item's name ('name') must be text", at: SourceLocation(file: "x.yaml", line: 2, column: 9))
        ) {
            try TodoList(bytes: Array("- name: b\n  name: [a]\n".utf8), format: .yaml, name: "x.yaml")
        }
    }

    @Test("an alias repeats an anchored list or mapping, read after the anchor's whole node")
    func aliasToCollection() throws {
        let text = "- name: a\n  tags: &t [x, y]\n  more: &m {k: v}\n- name: b\n  tags: *t\n  more: *m\n"
        let list = try TodoList(bytes: Array(text.utf8), format: .yaml)
        let fields = [
            Field("tags", .array([.string("x"), .string("y")])), Field("more", .dictionary([Field("k", .string("v"))])),
        ]
        #expect(list.items.map(\.fields) == [fields, fields])
    }

    @Test("an anchor on a name, and children given by an alias or with an anchor")
    func anchorsOnRoles() throws {
        let text = """
            - name: &n Milk
              children: &kids
              - name: k
            - name: Eggs
              note: *n
              children: *kids
            - name: Bread
              children: !!seq
              - name: t
            """
        let list = try TodoList(bytes: Array(text.utf8), format: .yaml)
        #expect(list.items.map(\.name) == ["Milk", "Eggs", "Bread"])
        #expect(list.items[1].fields == [Field("note", .string("Milk"))])
        #expect(list.items.map { $0.children.map(\.name) } == [["k"], ["k"], ["t"]])
    }

    @Test(
        "a checked flag as a boolean, tagged or quoted text, or a YAML 1.1 word",
        arguments: [
            ("!!str true", TodoStatus.done), ("\"true\"", .done), ("!!bool true", .done), ("true", .done),
            ("yes", .done), ("On", .done), ("no", .open), ("!!str off", .open), ("\"maybe\"", .open),
        ])
    func taggedChecked(value: String, status: TodoStatus) throws {
        let text = "- name: a\n  checked: \(value)\n"
        let list = try TodoList(bytes: Array(text.utf8), format: .yaml, name: "x.yaml")
        #expect(list.items.first?.status == status)
        // A value that is no flag stays a field.
        #expect(list.items.first?.fields == (value == "\"maybe\"" ? [Field("checked", .string("maybe"))] : []))
    }

    @Test("an empty list, and an empty file")
    func empty() throws {
        #expect(String(decoding: try TodoList().encoded(as: .yaml), as: UTF8.self) == "[]\n")
        #expect(try TodoList(bytes: Array("[]\n".utf8), format: .yaml) == TodoList())
        #expect(try TodoList(bytes: [], format: .yaml) == TodoList())
    }
}

@Suite("Large YAML lists, read in two halves")
struct LargeYAMLTests {
    static func bigList() -> TodoList {
        var items: [TodoItem] = []
        for i in 0..<60_000 {
            var item = TodoItem(name: "item \(i) ünïcödé", status: i % 3 == 0 ? .done : .open, section: "S\(i / 1000)")
            if i % 7 == 0 { item.children = [TodoItem(name: "child of \(i)", fields: [Field("n", .integer(i))])] }
            items.append(item)
        }
        return TodoList(metadata: [Field("title", .string("big"))], items: items)
    }

    @Test("the halves give the same list as one pass")
    func sameList() throws {
        let list = Self.bigList()
        let yaml = try list.encoded(as: .yaml)
        #expect(yaml.count > 1 << 22, "large enough to be read in halves")
        #expect(try TodoList(bytes: yaml, format: .yaml) == list)
        // Without metadata: one document.
        let bare = TodoList(items: list.items)
        #expect(try TodoList(bytes: try bare.encoded(as: .yaml), format: .yaml) == bare)
    }

    @Test("an error in the second half is reported at its true line")
    func errorPlace() throws {
        var text = String(decoding: try Self.bigList().encoded(as: .yaml), as: UTF8.self)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        let bad = lines.count * 3 / 4
        var edited = lines.map(String.init)
        edited[bad] = "  checked: [unclosed"
        text = edited.joined(separator: "\n")
        let error = try #require(throws: ParseError.self) {
            try TodoList(bytes: Array(text.utf8), format: .yaml, name: "big.yaml")
        }
        // The same error as the damaged item alone gives (libyaml notices it on the next
        // item's line), moved down by the lines before that item.
        let start = try #require(edited[..<bad].lastIndex { $0.hasPrefix("- ") })
        let next = try #require(edited[(bad + 1)...].firstIndex { $0.hasPrefix("- ") })
        let excerpt = edited[start...next].joined(separator: "\n") + "\n"
        let alone = try #require(throws: ParseError.self) {
            try TodoList(bytes: Array(excerpt.utf8), format: .yaml, name: "big.yaml")
        }
        #expect(
            error
                == ParseError(
                    alone.message,
                    at: TodoFormat.SourceLocation(
                        file: "big.yaml", line: alone.location.line + start, column: alone.location.column)))
        #expect(error.location.line > bad, "\(error)")
    }

    @Test("an alias in the second half to an anchor in the first still resolves")
    func aliasAcrossHalves() throws {
        var list = Self.bigList()
        list.items[0].fields = [Field("tag", .string("shared"))]
        var text = String(decoding: try list.encoded(as: .yaml), as: UTF8.self)
        text = text.replacingOccurrences(of: "tag: shared", with: "tag: &t shared")
        text += "- name: last\n  checked: false\n  tag: *t\n"
        let read = try TodoList(bytes: Array(text.utf8), format: .yaml)
        #expect(read.items.last?.fields == [Field("tag", .string("shared"))])
        #expect(read.items.count == list.items.count + 1)
    }
}

@Suite("YAML with a byte order mark")
struct YAMLByteOrderMarkTests {
    @Test("a list after a byte order mark reads like one without", arguments: [false, true])
    func list(large: Bool) throws {
        var list = TodoList(
            metadata: [Field("title", .string("Café"))],
            items: [TodoItem(name: "a"), TodoItem(name: "b", status: .done)])
        // Large enough to be read in two halves, whose cut is found by byte offset.
        if large { list.items = LargeYAMLTests.bigList().items }
        let yaml = try list.encoded(as: .yaml)
        #expect(try TodoList(bytes: [0xEF, 0xBB, 0xBF] + yaml, format: .yaml) == list)
    }
}
#endif
