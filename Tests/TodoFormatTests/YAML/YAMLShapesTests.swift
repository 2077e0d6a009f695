#if YAML
import Foundation
import Testing

@testable import TodoFormat

/// YAML as people write it (issue 9): anchors, aliases and merge keys, a mapping root
/// holding the list, YAML 1.1 words, and strings written so that every reader keeps them.
@Suite("YAML as people write it")
struct YAMLShapesTests {
    static func read(_ text: String, key: String? = nil, schema: ItemSchema = .standard) throws -> TodoList {
        try TodoList(
            bytes: Array(text.utf8), format: .yaml, name: "x.yaml", options: ListOptions(key: key, schema: schema))
    }

    @Test("merge keys give the merged keys first, as PyYAML orders them; the item's own keys and the first mapping win")
    func mergeKeys() throws {
        let text = """
            templates:
              weekly: &weekly
                every: week
                checked: off
              monthly: &monthly
                every: month
                checked: off
            todos:
              - <<: *weekly
                text: Water the plants
              - <<: *monthly
                text: Pay the rent
                checked: on
              - text: Descale the kettle
                <<: [*monthly, *weekly]
              - <<: {every: day}
                text: Feed the cat
            """
        let list = try Self.read(text)
        #expect(list.items.map(\.name) == ["Water the plants", "Pay the rent", "Descale the kettle", "Feed the cat"])
        #expect(list.items.map(\.status) == [.open, .done, .open, .open])
        #expect(
            list.items.map(\.fields) == [
                [Field("every", .string("week"))], [Field("every", .string("month"))],
                [Field("every", .string("month"))],
                [Field("every", .string("day"))],
            ])
        // PyYAML agrees on every value.
        let script = """
            import sys, yaml, json
            print(json.dumps(yaml.safe_load(sys.stdin)["todos"]))
            """
        let result = try ExternalTool.run("python3", ["-c", script], stdin: Data(text.utf8))
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.text.contains(#"{"every": "month", "checked": false, "text": "Descale the kettle"}"#),
            "\(result.text)")
    }

    @Test("an alias of an item repeats it; an anchored item is an item")
    func aliasedItems() throws {
        let list = try Self.read("- &a {name: a, checked: true, n: 1}\n- name: b\n- *a\n- <<: *a\n  name: c\n")
        #expect(list.items.map(\.name) == ["a", "b", "a", "c"])
        #expect(list.items.map(\.status) == [.done, .open, .done, .done])
        #expect(list.items[3].fields == [Field("n", .integer(1))])
    }

    @Test("an unknown alias and a bad merge are errors at their place")
    func badAliases() throws {
        #expect(
            throws: ParseError("yaml: unknown alias 'nope'", at: SourceLocation(file: "x.yaml", line: 2, column: 9))
        ) {
            try Self.read("- name: a\n  note: *nope\n")
        }
        #expect(
            throws: ParseError(
                "yaml: a merge key (<<) takes a mapping or a list of mappings",
                at: SourceLocation(file: "x.yaml", line: 1, column: 7))
        ) {
            try Self.read("- <<: 3\n  name: a\n")
        }
    }

    @Test("an alias bomb stops with an error, however small the file")
    func aliasBomb() throws {
        var text = "a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n"
        for i in 1...9 {
            let aliases = Array(repeating: "*a\(i - 1)", count: 9).joined(separator: ", ")
            text += "a\(i): &a\(i) [\(aliases)]\n"
        }
        text += "todos:\n- name: x\n  laughs: *a9\n"
        let error = try #require(throws: ParseError.self) { try Self.read(text) }
        #expect(error.message.contains("aliases expand to more than 1000000 nodes"), "\(error)")
        #expect(error.message.contains("alias bomb"))
        // A few aliases are fine.
        #expect(
            try Self.read("a: &a [1, 2]\ntodos:\n- name: x\n  n: *a\n").items[0].fields == [
                Field("n", .array([.integer(1), .integer(2)]))
            ])
    }

    @Test("a key given twice has its last value, as PyYAML reads it, by every route; check names the later one")
    func repeatedKeys() throws {
        let text =
            "- title: a\n  done: false\n  title: b\n  note: 1\n  note: 2\n- title: c\n  done: true\n  done: false\n"
        let list = try Self.read(text)
        #expect(list.items.map(\.name) == ["b", "c"])
        #expect(list.items.map(\.status) == [.open, .open])
        #expect(list.items[0].fields == [Field("note", .integer(2))])
        // The same items through a mapping root (read as values) and with an anchor (read whole).
        let indented = text.split(separator: "\n").map { "  " + $0 }.joined(separator: "\n")
        #expect(try Self.read("todos:\n" + indented + "\n").items == list.items)
        #expect(
            try Self.read(text.replacingOccurrences(of: "- title: c", with: "- &x\n  title: c")).items == list.items)
        // PyYAML agrees.
        let directory = try TemporaryDirectory()
        try text.write(toFile: directory.path("d.yaml"), atomically: false, encoding: .utf8)
        let python = try Python.run(
            Python.prelude + "import yaml; print(json.dumps(yaml.safe_load(open(os.path.join(d, 'd.yaml')))))",
            in: directory)
        #expect(python.hasPrefix(#"[{"title": "b", "done": false, "note": 2}, {"title": "c", "done": false}]"#))
        // Written back unchanged, the file stays as it is; check names each later key.
        let path = directory.path("d.yaml")
        try Conversion(input: .at(path), output: .at(directory.path("d.md"))).run()
        #expect(try Conversion(input: .at(directory.path("d.md")), output: .at(path)).run().isEmpty)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == text)
        let problems = try TodoDocument.problems(in: Array(text.utf8), name: "d.yaml")
        #expect(
            problems.map(\.description) == [
                "d.yaml:3:3: warning: key \"title\" given again in one mapping: its last value counts",
                "d.yaml:5:3: warning: key \"note\" given again in one mapping: its last value counts",
                "d.yaml:8:3: warning: key \"done\" given again in one mapping: its last value counts",
            ])
    }

    @Test("an item error under a mapping root is reported at the item, as at a list root; a name is its scalar's text")
    func mappingRootErrors() throws {
        let names = try Self.read(
            "todos:\n  - title: a\n  - title: 123\n    done: yes\n  - title: 1.50\n  - title: true\n")
        #expect(names.items.map(\.name) == ["a", "123", "1.50", "true"])
        #expect(names.items.map(\.status) == [.open, .done, .open, .open])
        #expect(
            throws: ParseError(
                "an item's name ('title') must be text", at: SourceLocation(file: "x.yaml", line: 4, column: 10))
        ) {
            try Self.read("version: 2\ntodos:\n- title: a\n- title: [1, 2]\n")
        }
        let nested = "meta: {a: 1}\ndata:\n  other: [1]\n  todos:\n  - title: a\n  - {done: true}\n"
        for key in [nil, "data.todos"] {
            #expect(
                throws: ParseError(
                    "item has no name (its keys: done)", at: SourceLocation(file: "x.yaml", line: 6, column: 5))
            ) {
                try Self.read(nested, key: key)
            }
        }
        #expect(
            throws: ParseError("item has no name (its keys: x)", at: SourceLocation(file: "x.yaml", line: 6, column: 3))
        ) {
            try Self.read("---\nv: 1\n---\ntodos:\n- title: a\n- x: 1\n")
        }
    }

    @Test("a mapping root holds the list: found like JSON's, or named with --key (a path)")
    func mappingRoot() throws {
        #expect(
            try Self.read("todos: [{title: a, done: yes}, {title: b}]\nversion: 2\n").items.map(\.name) == ["a", "b"])
        let nested = "version: 2\ndata:\n  owner: sam\n  todos:\n  - title: a\n    completed: on\n"
        #expect(try Self.read(nested).items.map(\.status) == [.done])
        #expect(try Self.read(nested, key: "data.todos").items.map(\.name) == ["a"])
        // A header document first is the metadata.
        let header = "title: Shed\n---\ntasks:\n- task: a\n"
        let list = try Self.read(header)
        #expect(list.metadata == [Field("title", .string("Shed"))])
        #expect(list.items.map(\.name) == ["a"])
        #expect(throws: ConversionError.self) { try Self.read(nested, key: "data.nope") }
        #expect(throws: ConversionError.self) { try Self.read("version: 2\nowner: sam\n") }
        // An empty list is found when --key names it.
        #expect(try Self.read("todos: []\nv: 1\n", key: "todos").items.isEmpty)
    }

    @Test(
        "YAML 1.1 words for done-ness; elsewhere they stay text",
        arguments: [
            ("done: yes", TodoStatus.done), ("checked: on", .done), ("completed: Off", .open), ("isDone: NO", .open),
            ("status: done", .done),
        ])
    func words(line: String, status: TodoStatus) throws {
        let list = try Self.read("- title: a\n  \(line)\n  urgent: yes\n")
        #expect(list.items[0].status == status)
        #expect(list.items[0].fields == [Field("urgent", .string("yes"))])
    }

    @Test("PyYAML's timestamps without a zone are dates in UTC; a date alone stays text")
    func timestamps() throws {
        let list = try Self.read("- name: a\n  created: 2024-05-01 09:30:00.123456\n  due: 2024-06-01\n")
        #expect(
            list.items[0].fields == [
                Field("created", .date(Date(timeIntervalSince1970: 1_714_555_800.123456))),
                Field("due", .string("2024-06-01")),
            ])
    }

    static let retyped = [
        "2024-05-01", "2024-05-01 10:00:00", "2024-5-1 1:00:00", "+0b1", "0b101", "685.230_15e+03", "yes", "Yes", "on",
        "OFF", "y",
        "N", "=", "<<", "~", "null", "NULL", ".inf", "-.INF", ".NaN", "0x1F", "0o17", "0777", "1_000", "1:20",
        "190:20:30", ".5", "1e3",
        "true", "False", "", "12", "-3.5",
    ]

    @Test("the writer quotes every string a YAML 1.1 or 1.2 reader would retype; PyYAML and todofmt read strings back")
    func quoting() throws {
        let fields = Self.retyped.enumerated().map { Field("k\($0.offset)", .string($0.element)) }
        let list = TodoList(items: Self.retyped.map { TodoItem(name: $0, fields: fields) })
        let yaml = try list.encoded(as: .yaml)
        #expect(try TodoList(bytes: yaml, format: .yaml) == list)
        let script = """
            import sys, yaml, json
            items = yaml.safe_load(sys.stdin)
            bad = [(k, v) for item in items for k, v in item.items() if k != "checked" and not isinstance(v, str)]
            print(json.dumps([item["name"] for item in items]) if not bad else "retyped: " + repr(bad))
            """
        let result = try ExternalTool.run("python3", ["-c", script], stdin: Data(yaml))
        #expect(result.status == 0, "\(result.stderr)")
        let names = try JSONDecoder().decode([String].self, from: Data(result.text.utf8))
        #expect(names == Self.retyped, "\(String(decoding: yaml, as: UTF8.self))")
    }

    @Test("numbers are written so that both readers get them back: big integers plain, reals with a dot")
    func numbers() throws {
        let list = TodoList(items: [
            TodoItem(
                name: "a",
                fields: [
                    Field("big", .bigInteger("123456789012345678901234567890")), Field("small", .double(1e-05)),
                    Field("large", .double(1e20)),
                    Field("negative", .bigInteger("-99999999999999999999")),
                ])
        ])
        let yaml = String(decoding: try list.encoded(as: .yaml), as: UTF8.self)
        #expect(yaml.contains("big: 123456789012345678901234567890\n"))
        #expect(yaml.contains("small: 1.0e-05\n"))
        #expect(yaml.contains("large: 1.0e+20\n"))
        #expect(try TodoList(bytes: Array(yaml.utf8), format: .yaml) == list)
        let script =
            "import sys, yaml; d = yaml.safe_load(sys.stdin)[0]; print(type(d['big']).__name__, type(d['small']).__name__, d['negative'])"
        let result = try ExternalTool.run("python3", ["-c", script], stdin: Data(yaml.utf8))
        #expect(result.text.trimmingCharacters(in: .newlines) == "int float -99999999999999999999", "\(result.stderr)")
    }

    @Test("--field names the keys and values the YAML writer uses")
    func fieldOption() throws {
        var schema = ItemSchema(naming: [.name: "title", .checked: "state"])
        schema.mapping("closed", of: "state", to: .done)
        let list = TodoList(items: [TodoItem(name: "a", status: .done), TodoItem(name: "b")])
        let options = ListOptions(schema: schema)
        let yaml = String(decoding: try list.encoded(as: .yaml, options: options), as: UTF8.self)
        #expect(yaml.hasPrefix("- title: a\n  state: closed\n- title: b\n"), "\(yaml)")
        #expect(try TodoList(bytes: Array(yaml.utf8), format: .yaml, options: options) == list)
        let json = String(decoding: try list.encoded(as: .json, options: options), as: UTF8.self)
        #expect(json.contains(#""state":"closed""#) || json.contains(#""state": "closed""#), "\(json)")
    }
}
#endif
