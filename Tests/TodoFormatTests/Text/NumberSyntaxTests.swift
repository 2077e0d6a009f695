import Foundation
import Testing

@testable import TodoFormat

@Suite("Integers beyond Int")
struct BigIntegerTests {
    @Test("a JSON or checklist integer beyond Int keeps its digits through every text format and Codable")
    func bigIntegers() throws {
        let text = #"[{"name": "a", "big": 18446744073709551615, "negative": -99999999999999999999, "small": -5}]"#
        let list = try TodoList(bytes: Array(text.utf8), format: .json)
        #expect(
            list.items[0].fields == [
                Field("big", .bigInteger("18446744073709551615")),
                Field("negative", .bigInteger("-99999999999999999999")),
                Field("small", .integer(-5)),
            ])
        for format in [DocumentFormat.markdown, .json, .plist] {
            #expect(
                try TodoList(bytes: try list.encoded(as: format), format: format).items[0].fields
                    == list.items[0].fields)
        }
        let coded = try JSONDecoder().decode(TodoList.self, from: JSONEncoder().encode(list))
        #expect(coded == list)
        #expect(
            NumberSyntax.integer("12a") == nil && NumberSyntax.integer("--1") == nil && NumberSyntax.integer("") == nil)
    }

    @Test("a binary property list holds unsigned 64-bit integers in 16 bytes, as plistlib writes them")
    func unsigned64() throws {
        let list = TodoList(items: [TodoItem(name: "a", fields: [Field("id", .bigInteger("18446744073709551615"))])])
        let bytes = try list.encoded(as: .bplist)
        #expect(bytes.contains(0x14))
        let decoded = try PropertyListSerialization.propertyList(from: Data(bytes), format: nil) as? [[String: Any]]
        #expect(decoded?.first?["name"] as? String == "a")
    }
}
