import Foundation
import Testing

@testable import TodoFormat

/// The Codable conformances (`Model/*+Codable.swift`), through Foundation's encoders.
@Suite("Codable for the list model")
struct CodableTests {
    /// Every value type, in places where a careless encoding would lose it.
    static let everything = TodoList(
        metadata: [
            Field("title", .string("Groceries")),
            Field(
                "settings",
                .dictionary([
                    Field("z", .integer(1)), Field("a", .dictionary([Field("y", .null), Field("b", .bool(false))])),
                ])),
        ],
        items: [
            TodoItem(
                name: "Milk ünïcödé 😀", status: .open,
                fields: [
                    Field("due", .date(Date(timeIntervalSinceReferenceDate: 726_842_123.456789))),
                    Field("whole", .date(Date(timeIntervalSince1970: 0))),
                    Field("three", .integer(3)), Field("three point oh", .double(3.0)),
                    Field("text three", .string("3")),
                    Field("max", .integer(.max)), Field("min", .integer(.min)),
                    Field("tiny", .double(.leastNonzeroMagnitude)),
                    Field("big", .double(1e300)), Field("up", .double(.infinity)), Field("down", .double(-.infinity)),
                    Field("blob", .data(Data([0, 1, 0xAB, 0xFF]))), Field("empty blob", .data(Data())),
                    Field("nothing", .null), Field("yes", .bool(true)), Field("empty", .string("")),
                    Field("tags", .array([.string("a"), .integer(2), .array([]), .dictionary([])])),
                    // Keys in an order no sorting gives, and a key twice.
                    Field("b", .integer(1)), Field("a", .integer(2)), Field("b", .integer(3)),
                ],
                children: [
                    TodoItem(
                        name: "Whole milk", status: .done, children: [TodoItem(name: "Organic", status: .custom("/"))]),
                    TodoItem(name: "", status: .custom("-")),
                ],
                section: "Today"),
            TodoItem(name: "Eggs", status: .custom("😀"), section: ""),
            TodoItem(name: "line\nbreak \"quoted\" <xml> & \\", status: .custom("\t")),
        ])

    static func jsonRoundTrip(
        _ list: TodoList, _ encoder: JSONEncoder = JSONEncoder(), _ decoder: JSONDecoder = JSONDecoder()
    ) throws -> TodoList {
        try decoder.decode(TodoList.self, from: try encoder.encode(list))
    }

    static func plistRoundTrip(_ list: TodoList, format: PropertyListSerialization.PropertyListFormat) throws
        -> TodoList
    {
        let encoder = PropertyListEncoder()
        encoder.outputFormat = format
        return try PropertyListDecoder().decode(TodoList.self, from: try encoder.encode(list))
    }

    @Test("a list with every value type survives JSON and both property list formats unchanged")
    func everythingSurvives() throws {
        #expect(try Self.jsonRoundTrip(Self.everything) == Self.everything)
        #expect(try Self.plistRoundTrip(Self.everything, format: .xml) == Self.everything)
        #expect(try Self.plistRoundTrip(Self.everything, format: .binary) == Self.everything)
    }

    @Test(
        "every checklist fixture survives JSON and both property list formats", arguments: Fixture.files(in: "markdown")
    )
    func fixtures(name: String) throws {
        let list = try TodoList(markdown: Fixture.text(name))
        #expect(try Self.jsonRoundTrip(list) == list)
        #expect(try Self.plistRoundTrip(list, format: .xml) == list)
        #expect(try Self.plistRoundTrip(list, format: .binary) == list)
    }

    @Test("every field value survives alone, in an item and in the metadata", arguments: FieldSyntaxTests.values)
    func values(value: FieldValue) throws {
        let list = TodoList(metadata: [Field("m", value)], items: [TodoItem(name: "x", fields: [Field("f", value)])])
        #expect(try Self.jsonRoundTrip(list) == list)
        #expect(try Self.plistRoundTrip(list, format: .xml) == list)
        #expect(try Self.plistRoundTrip(list, format: .binary) == list)
    }

    @Test("NaN comes back as NaN")
    func notANumber() throws {
        let list = TodoList(items: [TodoItem(name: "x", fields: [Field("n", .double(.nan))])])
        for back in [
            try Self.jsonRoundTrip(list), try Self.plistRoundTrip(list, format: .xml),
            try Self.plistRoundTrip(list, format: .binary),
        ] {
            let value = try #require(back.items.first?.fields.first)
            #expect(value.key == "n")
            guard case .double(let d) = value.value else {
                Issue.record("expected a double, got \(value.value)")
                continue
            }
            #expect(d.isNaN)
        }
    }

    @Test("the encoder's date, data and key settings change nothing that comes back")
    func encoderSettings() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        encoder.dataEncodingStrategy = .deferredToData
        encoder.keyEncodingStrategy = .convertToSnakeCase
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        decoder.dataDecodingStrategy = .deferredToData
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        #expect(try Self.jsonRoundTrip(Self.everything, encoder, decoder) == Self.everything)
    }

    @Test("the encoded shape: a status is its character, a value names its type, empty parts are left out")
    func shape() throws {
        let list = TodoList(
            metadata: [Field("title", .string("Groceries"))],
            items: [
                TodoItem(
                    name: "Milk", fields: [Field("due", .date(Date(timeIntervalSinceReferenceDate: 0.5)))],
                    section: "Today"),
                TodoItem(
                    name: "Eggs", status: .done,
                    fields: [
                        Field("n", .integer(3)), Field("d", .double(3)),
                        Field("m", .dictionary([Field("z", .null), Field("a", .data(Data("Hi".utf8)))])),
                    ],
                    children: [TodoItem(name: "Brown ones", status: .custom("/"))]),
                TodoItem(
                    name: "Tea",
                    fields: [Field("i", .double(.infinity)), Field("t", .array([.bool(true), .string("s")]))]),
            ])
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let json = String(decoding: try encoder.encode(list), as: UTF8.self)
        #expect(
            json == #"{"items":["#
                + #"{"fields":[{"key":"due","value":{"date":0.5}}],"name":"Milk","section":"Today","status":" "},"#
                + #"{"children":[{"name":"Brown ones","status":"\/"}],"fields":[{"key":"n","value":{"integer":3}},"#
                + #"{"key":"d","value":{"double":3}},{"key":"m","value":{"dictionary":[{"key":"z","value":{"null":true}},"#
                + #"{"key":"a","value":{"data":"SGk="}}]}}],"name":"Eggs","status":"x"},"#
                + #"{"fields":[{"key":"i","value":{"double":"inf"}},{"key":"t","value":{"array":[{"bool":true},{"string":"s"}]}}],"#
                + #""name":"Tea","status":" "}"#
                + #"],"metadata":[{"key":"title","value":{"string":"Groceries"}}]}"#)
        // An empty list is its items only.
        #expect(String(decoding: try JSONEncoder().encode(TodoList()), as: UTF8.self) == #"{"items":[]}"#)
    }

    @Test("an XML property list keeps a date's fraction, as a real")
    func xmlPropertyListDate() throws {
        let list = TodoList(items: [
            TodoItem(name: "x", fields: [Field("d", .date(Date(timeIntervalSinceReferenceDate: 1.25)))])
        ])
        let encoder = PropertyListEncoder()
        encoder.outputFormat = .xml
        let xml = String(decoding: try encoder.encode(list), as: UTF8.self)
        #expect(xml.contains("<real>1.25</real>") && !xml.contains("<date>"), "\(xml)")
        #expect(try PropertyListDecoder().decode(TodoList.self, from: Data(xml.utf8)) == list)
    }

    @Test("a name sliced from a larger text encodes as its own text, and decodes with storage of its own")
    func slicedName() throws {
        let text = "- [ ] Milk\n- [ ] Eggs\n"
        let range = try #require(text.range(of: "Eggs"))
        let item = TodoItem(nameStorage: text[range], status: .open, fields: [], children: [], section: nil)
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let json = try encoder.encode(item)
        #expect(String(decoding: json, as: UTF8.self) == #"{"name":"Eggs","status":" "}"#)
        let back = try JSONDecoder().decode(TodoItem.self, from: json)
        #expect(back == item)
        #expect(back.nameStorage.base == "Eggs")
    }

    @Test("a status decodes from its character, X as done; a value from its type key")
    func decodesHandWritten() throws {
        let json = #"""
            {"items": [
              {"name": "a", "status": "X"},
              {"name": "b", "status": " ", "fields": [{"key": "k", "value": {"double": 2}}, {"key": "j", "value": {"double": "-inf"}}]},
              {"name": "c", "status": "@", "children": []}
            ]}
            """#
        let list = try JSONDecoder().decode(TodoList.self, from: Data(json.utf8))
        #expect(
            list
                == TodoList(items: [
                    TodoItem(name: "a", status: .done),
                    TodoItem(name: "b", fields: [Field("k", .double(2)), Field("j", .double(-.infinity))]),
                    TodoItem(name: "c", status: .custom("@")),
                ]))
    }

    @Test(
        "malformed input is a DecodingError, never a guess",
        arguments: [
            #"{"name": "a", "status": "xx"}"#,
            #"{"name": "a", "status": ""}"#,
            #"{"name": "a"}"#,
            #"{"status": " "}"#,
            #"{"name": "a", "status": " ", "fields": [{"key": "k", "value": {}}]}"#,
            #"{"name": "a", "status": " ", "fields": [{"key": "k", "value": {"string": "x", "integer": 3}}]}"#,
            #"{"name": "a", "status": " ", "fields": [{"key": "k", "value": {"string": "x", "colour": 3}}]}"#,
            #"{"name": "a", "status": " ", "fields": [{"key": "k", "value": {"colour": "red"}}]}"#,
            #"{"name": "a", "status": " ", "fields": [{"key": "k", "value": {"integer": 2.5}}]}"#,
            #"{"name": "a", "status": " ", "fields": [{"key": "k", "value": {"integer": "3"}}]}"#,
            #"{"name": "a", "status": " ", "fields": [{"key": "k", "value": {"double": "2.5"}}]}"#,
            #"{"name": "a", "status": " ", "fields": [{"key": "k", "value": {"null": false}}]}"#,
            #"{"name": "a", "status": " ", "fields": [{"key": "k", "value": {"date": "2024-01-01T00:00:00Z"}}]}"#,
            #"{"name": "a", "status": " ", "fields": [{"value": {"integer": 1}}]}"#,
            #"{"name": "a", "status": " ", "fields": [{"key": "k", "value": {"dictionary": {"a": {"integer": 1}}}}]}"#,
        ])
    func malformed(json: String) {
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(TodoItem.self, from: Data(json.utf8)) }
    }

    @Test("a list needs its items; metadata may be left out")
    func listKeys() throws {
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(TodoList.self, from: Data(#"{"metadata": []}"#.utf8))
        }
        #expect(try JSONDecoder().decode(TodoList.self, from: Data(#"{"items": []}"#.utf8)) == TodoList())
    }
}
