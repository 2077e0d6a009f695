import Foundation
import Testing

@testable import TodoFormat

@Suite("Item fields in checklist text")
struct FieldSyntaxTests {
    static let values: [FieldValue] = [
        .string("plain words"), .string("7"), .string("true"), .string("null"), .string("2024-01-02T03:04:05Z"),
        .string(" padded "), .string("with ] bracket"), .string("[starts with a bracket"), .string("line\nbreak"),
        .string(""), .string("<not data>"), .string("quote \" and \\ backslash"), .integer(0), .integer(-42),
        .integer(Int.max), .double(2.5), .double(-0.001), .double(1e300), .double(3.0), .double(.infinity),
        .bool(true), .bool(false), .null, .date(Date(timeIntervalSince1970: 1_700_000_000.123)),
        .date(Date(timeIntervalSinceReferenceDate: 726_842_123.456789)), .data(Data([0, 1, 0xAB, 0xFF])), .data(Data()),
        .array([]), .array([.integer(1), .string("two"), .array([.null])]),
        .dictionary([Field("b", .bool(true)), Field("a", .date(Date(timeIntervalSince1970: 0)))]),
    ]

    @Test("every value reads back with its type", arguments: values)
    func valueRoundTrip(value: FieldValue) throws {
        let item = TodoItem(name: "Task", fields: [Field("key", value), Field("odd key: [x]", value)])
        let text = "- [ ] " + FieldSyntax.render(name: item.nameStorage, fields: item.fields, continuation: "  ") + "\n"
        let read = try TodoList(markdown: text).items[0]
        #expect(read.name == "Task")
        #expect(read.fields == item.fields, "\(text)")
    }

    @Test(
        "names that look like fields or hold backslashes come back unchanged",
        arguments: [
            "buy [milk:: 2]", "a [b:: c] [d:: e]", "ends with \\", "back\\slash \\[ and \\\\", "[x:: 1]", "two\nlines",
            "three\n- looks like a list\n1. or an ordered one\n# or a heading", "see [link](http://x) [ok]",
            "a\n\\- b\n12\\. c\n\\x",
        ])
    func nameRoundTrip(name: String) throws {
        let item = TodoItem(name: name, fields: [Field("n", .integer(1))])
        for fields in [[], item.fields] {
            let text = "- [ ] " + FieldSyntax.render(name: item.nameStorage, fields: fields, continuation: "  ") + "\n"
            let read = try TodoList(markdown: text).items
            #expect(read.count == 1, "\(text)")
            #expect(read.first?.name == name, "\(text)")
            #expect(read.first?.fields == fields, "\(text)")
        }
    }

    @Test("dates: the one written form and the forms read")
    func dates() {
        #expect(ISO8601.format(Date(timeIntervalSince1970: 0)) == "1970-01-01T00:00:00Z")
        #expect(ISO8601.format(Date(timeIntervalSince1970: 1_717_232_400.5)) == "2024-06-01T09:00:00.5Z")
        #expect(ISO8601.format(Date(timeIntervalSince1970: -86_400 * 365)) == "1969-01-01T00:00:00Z")
        #expect(ISO8601.parse("2024-06-01T11:00:00+02:00".utf8) == Date(timeIntervalSince1970: 1_717_232_400))
        #expect(ISO8601.parse("2024-06-01 09:00:00z".utf8) == Date(timeIntervalSince1970: 1_717_232_400))
        #expect(ISO8601.parse("2024-06-01".utf8) == nil)
        #expect(ISO8601.parse("2024-13-01T00:00:00Z".utf8) == nil)
    }
}
