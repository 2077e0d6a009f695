import Foundation
import Testing

@testable import TodoFormat

/// The todo app's model (docs/APP-SHAPES.md section 1), which must decode todofmt's JSON.
private struct Todo: Codable, Equatable {
    var name: String
    var checked: Bool
}

@Suite("The plain JSON list")
struct JSONListTests {
    @Test("the fixture: nesting, a status, typed fields and a field named like a reserved key")
    func fixture() throws {
        let list = try TodoList(contentsOf: .file(Fixture.path("json/plain.json")))
        #expect(list.items.map(\.name) == ["Milk", "Eggs", "Bread"])
        #expect(list.items[1].children.map(\.name) == ["Brown ones"])
        #expect(list.items[2].status == .custom("/"))
        #expect(
            list.items[2].fields == [
                Field("id", .integer(7)), Field("price", .double(2.5)),
                Field("tags", .array([.string("a"), .string("b")])),
                Field("name", .string("a field called name")),
            ])
    }

    /// What plain JSON keeps: dates and data become strings.
    static func jsonView(of list: TodoList) -> TodoList {
        list.mappingValues { v in
            switch v {
            case .date(let d): .string(ISO8601.format(d))
            case .data(let d): .string(d.base64EncodedString())
            default: v
            }
        }
    }

    @Test("Swift's JSONDecoder reads it as [Todo]")
    func codable() throws {
        let list = try TodoList(markdown: Fixture.text("markdown/groceries.md"))
        let todos = try JSONDecoder().decode([Todo].self, from: Data(try list.encoded(as: .json)))
        #expect(todos == [Todo(name: "Milk", checked: false), Todo(name: "Eggs", checked: true)])
    }

    @Test("checklist to JSON and back keeps the items", arguments: Fixture.files(in: "markdown"))
    func roundTrip(name: String) throws {
        var list = try TodoList(markdown: Fixture.text(name))
        let json = try list.encoded(as: .json)
        // Plain JSON has no place for metadata, and no date or data type: those become strings.
        list.metadata = []
        #expect(try TodoList(bytes: json, format: .json) == Self.jsonView(of: list))
        // Foundation and Python agree that it is JSON, and on its items' names and checked flags.
        let expected = list.items.map { "\($0.isChecked) \($0.name)" }
        let foundation = try #require(try JSONSerialization.jsonObject(with: Data(json)) as? [[String: Any]])
        #expect(foundation.map { "\($0["checked"] as? Bool ?? false) \($0["name"] as? String ?? "-")" } == expected)
        let python = try ExternalTool.run(
            "python3",
            [
                "-c",
                "import json,sys; print(json.dumps([(i['checked'] and 'true' or 'false') + ' ' + i['name'] for i in json.load(sys.stdin)]))",
            ],
            stdin: Data(json))
        #expect(try JSONSerialization.jsonObject(with: python.stdout) as? [String] == expected, "\(python.stderr)")
    }

    @Test("jq reads it")
    func jq() throws {
        let list = try TodoList(markdown: Fixture.text("markdown/groceries.md"))
        let result = try ExternalTool.run("jq", ["-c", "[.[] | .name]"], stdin: Data(try list.encoded(as: .json)))
        #expect(result.text == "[\"Milk\",\"Eggs\"]\n")
    }

    @Test("the scanner reads what Foundation reads, on generated JSON", arguments: 0..<50)
    func scannerAgreesWithFoundation(seed: Int) throws {
        var rng = SeededGenerator(seed: UInt64(seed))
        func value(_ depth: Int) -> Any {
            switch Int.random(in: 0..<(depth > 2 ? 5 : 7), using: &rng) {
            case 0: return Int.random(in: -1_000_000...1_000_000, using: &rng)
            case 1: return Double(Int.random(in: -1000...1000, using: &rng)) / 8
            case 2:
                return ["plain", "quote \" slash \\ tab \t nl \n", "ünï\u{1F600}", "\u{1}", ""].randomElement(
                    using: &rng)!
            case 3: return Bool.random(using: &rng)
            case 4: return NSNull()
            case 5: return (0..<Int.random(in: 0..<4, using: &rng)).map { _ in value(depth + 1) }
            default:
                var d: [String: Any] = [:]
                for k in 0..<Int.random(in: 0..<4, using: &rng) { d["k\(k)"] = value(depth + 1) }
                return d
            }
        }
        let items: [[String: Any]] = (0..<5).map { i in ["name": "item \(i)", "checked": i % 2 == 0, "extra": value(0)]
        }
        let data = try JSONSerialization.data(withJSONObject: items)
        let list = try TodoList(bytes: Array(data), format: .json)
        #expect(list.items.count == 5)
        for (item, original) in zip(list.items, items) {
            #expect(item.fields.count == 1)
            let reencoded = JSONText.encode(item.fields[0].value)
            let ours = try JSONSerialization.jsonObject(with: Data(reencoded.utf8), options: .fragmentsAllowed)
            func canonical(_ v: Any) throws -> String {
                String(
                    decoding: try JSONSerialization.data(withJSONObject: ["v": v], options: [.sortedKeys]),
                    as: UTF8.self)
            }
            #expect(try canonical(ours) == canonical(original["extra"]!), "\(reencoded)")
        }
    }

    @Test(
        "malformed JSON is an error at its line and column",
        arguments: [
            ("[\n  {\"name\": \"a\" \"checked\": true}\n]", "unexpected '\"', expected ',' or '}'", 2, 16),
            ("[{\"name\": \"a\"},]", "trailing comma", 1, 16),
            ("[{\"name\": \"a\"}", "unexpected end of JSON, expected ',' or ']'", 1, 15),
            ("[{\"checked\": true}]", "item has no name (its keys: checked)", 1, 2),
            ("\"text\"", "expected a JSON array of items, or an object holding one", 1, 1),
            ("[{\"name\": 5}]", "an item's name ('name') must be text", 1, 11),
            ("[{\"name\": \"x\\q\"}]", "invalid escape '\\q'", 1, 13),
            (" \n", "empty file: expected a JSON array of items", 2, 1),
            ("[] []", "unexpected '[', expected the end of the file", 1, 4),
        ])
    func malformed(text: String, message: String, line: Int, column: Int) throws {
        #expect(throws: ParseError(message, at: SourceLocation(file: "x.json", line: line, column: column))) {
            try TodoList(bytes: Array(text.utf8), format: .json, name: "x.json")
        }
    }

    @Test("the fixture with a missing comma")
    func missingComma() throws {
        #expect(
            throws: ParseError(
                "unexpected '\"', expected ',' or '}'", at: SourceLocation(file: "m.json", line: 3, column: 19))
        ) {
            try TodoList(bytes: Array(Fixture.data("json/missing-comma.json")), format: .json, name: "m.json")
        }
    }

    @Test("items without a checked flag are open")
    func defaultOpen() throws {
        #expect(try TodoList(bytes: Array("[{\"name\": \"a\"}]".utf8), format: .json).items[0].status == .open)
    }
}

@Suite("Lists nested in dictionaries")
struct NestedPlaceTests {
    static let state =
        #"{"version": 2, "data": {"filter": "all", "todos": [{"text": "a", "completed": true}, {"text": "b"}]}}"#

    @Test("a list in a nested dictionary is found without --key, and by a key path")
    func nested() throws {
        let found = try TodoList(bytes: Array(Self.state.utf8), format: .json)
        #expect(found.items.map(\.name) == ["a", "b"] && found.items.map(\.status) == [.done, .open])
        #expect(
            try TodoList(bytes: Array(Self.state.utf8), format: .json, options: ListOptions(key: "data.todos")) == found
        )
        #expect(
            throws: ConversionError.noList(
                path: "<input>", reason: "there is no key 'nope' in 'data' (keys: filter, todos)")
        ) {
            try TodoList(bytes: Array(Self.state.utf8), format: .json, options: ListOptions(key: "data.nope"))
        }
    }

    @Test("an error in a nested list is at its line and column")
    func errorPlace() throws {
        let text = "{\"data\": {\"todos\": [\n  {\"text\": 5}\n]}}"
        #expect(
            throws: ParseError(
                "an item's name ('text') must be text", at: SourceLocation(file: "<input>", line: 2, column: 12))
        ) {
            try TodoList(bytes: Array(text.utf8), format: .json)
        }
    }

    @Test("writing into the file replaces the nested list and keeps the rest")
    func writeBack() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("state.json")
        try Self.state.write(toFile: path, atomically: false, encoding: .utf8)
        var list = try TodoList(contentsOf: .file(path))
        list.items[1].status = .done
        try list.write(to: .file(path))
        let back =
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any]
        #expect(back?["version"] as? Int == 2)
        let todos = (back?["data"] as? [String: Any])?["todos"] as? [[String: Any]]
        #expect(
            todos?.map { $0["text"] as? String } == ["a", "b"]
                && todos?.map { $0["completed"] as? Bool } == [true, true])
    }
}
