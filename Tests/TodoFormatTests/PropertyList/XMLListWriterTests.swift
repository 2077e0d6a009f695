import Foundation
import Testing

@testable import TodoFormat

/// A new XML property list is written as the items arrive (`XMLListWriter`); these tests
/// hold it to what the writer of the whole list (`PropertyListWriter`) writes from the same
/// list, byte for byte, warnings too.
@Suite("Writing an XML property list item by item")
struct XMLListWriterTests {
    static let pieces: [FieldValue] = [
        .integer(2), .string("a <b> & c"), .bool(true), .double(1.5), .null, .string("ctrl \u{1}"),
        .date(Date(timeIntervalSince1970: 1_717_236_000.5)), .array([.integer(1), .string("x")]),
        .dictionary([Field("k", .string("v"))]), .data(Data([0, 1, 2])),
    ]
    static let keys = ["prio", "children", "name", "fields", "due", "note", "checked"]
    static let statuses: [TodoStatus] = [.open, .done, .custom("/"), .custom("<")]

    /// A random list: nested up to four deep, with fields (some under keys roles take),
    /// sections, statuses, and names XML must escape or cannot hold.
    static func list(seed: Int) -> TodoList {
        var rng = SeededGenerator(seed: UInt64(seed))
        let items = (0..<Int.random(in: 0...6, using: &rng)).map { _ in item(depth: 0, &rng) }
        return TodoList(metadata: seed % 3 == 0 ? [Field("title", .string("t"))] : [], items: items)
    }

    static func item(depth: Int, _ rng: inout SeededGenerator) -> TodoItem {
        let names = ["milk", "a & b", "<tag>", "日本語 🎫", "ctrl \u{1} name", "line\nbreak", ""]
        var item = TodoItem(name: names.randomElement(using: &rng)!, status: statuses.randomElement(using: &rng)!)
        for _ in 0..<Int.random(in: 0...2, using: &rng) where Bool.random(using: &rng) {
            item.fields.append(Field(keys.randomElement(using: &rng)!, pieces.randomElement(using: &rng)!))
        }
        if depth == 0 && Bool.random(using: &rng) {
            item.section = ["Home", "Work & <play>"].randomElement(using: &rng)
        }
        if depth < 4 {
            item.children = (0..<Int.random(in: 0...2, using: &rng)).map { _ in Self.item(depth: depth + 1, &rng) }
        }
        return item
    }

    @Test(
        "writes what the whole list's writer writes", arguments: 0..<60,
        [ItemSchema(), ItemSchema(naming: [.name: "ToDo", .checked: "CheckBox"])])
    func agrees(seed: Int, schema: ItemSchema) throws {
        let list = Self.list(seed: seed)
        let layout = ItemLayout(schema)
        var streamed = XMLListWriter(into: ByteSink(), outputName: "x.plist", layout: layout)
        try list.send(to: &streamed)
        let a = try streamed.finish()
        var whole = PropertyListWriter(
            format: PropertyListFormat(isBinary: false, embedded: nil), sink: ByteSink(), outputName: "x.plist",
            layout: layout)
        try list.send(to: &whole)
        let b = try whole.finish()
        #expect(String(decoding: a.bytes, as: UTF8.self) == String(decoding: b.bytes, as: UTF8.self))
        #expect(a.warnings.map(\.description) == b.warnings.map(\.description))
        #expect(!a.bytes.isEmpty)
    }
}
