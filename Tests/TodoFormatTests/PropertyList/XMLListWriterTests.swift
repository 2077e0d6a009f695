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
        // Integers and texts the streamed writer writes in one piece, and texts it may not.
        .integer(0), .integer(-7), .integer(.min), .integer(.max), .string(""), .string("tab\tand\nline"),
        .string("\u{FF61} and \u{FFFE}"), .string("cr\rx"), .string("日本語 🎫"),
    ]
    static let keys = ["prio", "children", "name", "fields", "due", "note", "checked", "a & <b>", "\u{FF61}"]
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

    /// What the streamed writer writes of a checklist read with plain names as bytes (how
    /// `convert` reads a checklist into it), and what the whole list's writer writes of the
    /// checklist read as items.
    static func bothWays(_ checklist: String) throws -> (streamed: Written, whole: Written) {
        let input = Input(bytes: Array(checklist.utf8), name: "t.md")
        var streamed = XMLListWriter(into: ByteSink(), outputName: "x.plist", layout: ItemLayout())
        #expect(streamed.takesPlainNames)
        _ = try MarkdownFormat().read(input, options: ListOptions(), into: &streamed, leavingOutTextFor: .plist)
        var builder = ListBuilder()
        try MarkdownFormat().read(input, options: ListOptions(), into: &builder)
        var whole = PropertyListWriter(
            format: PropertyListFormat(isBinary: false, embedded: nil), sink: ByteSink(), outputName: "x.plist",
            layout: ItemLayout())
        try builder.finish().send(to: &whole)
        return (try streamed.finish(), try whole.finish())
    }

    @Test("a checklist's plain items are written as the whole list's writer writes them")
    func plainItems() throws {
        let checklist = """
            - [ ] Milk
            - [x] 日本語 🎉 *b* `code` [link](https://example.com)
              - [/] Brown ones
                - [<] status XML escapes
                - [>] status XML escapes too
                  - [?] four deep
              - [ ] back up two
            # Work &amp; <play>
            - [ ] <tag> and a > b
            - [ ] \u{FFFE} is not XML's, \u{FF61} is
              - [-] x
            - [ ] a field [prio:: 2] [due:: 2024-06-01T09:00:00Z]
              - [ ] child of a field's item [children:: 3]
                - [ ] its child
            - [ ] x [note:: null]
            # \u{FFFF} section
            - [ ] under a section XML cannot hold
            # Home
            - [✓] a status that is not ASCII
            - [ ] last

            """
        let (streamed, whole) = try Self.bothWays(checklist)
        #expect(String(decoding: streamed.bytes, as: UTF8.self) == String(decoding: whole.bytes, as: UTF8.self))
        #expect(streamed.warnings.map(\.description) == whole.warnings.map(\.description))
        #expect(streamed.warnings.count == 2, "\(streamed.warnings)")  // U+FFFE and U+FFFF; a null
    }

    @Test("random lists, read from their checklists, many items to a call", arguments: 0..<40)
    func plainRandomLists(seed: Int) throws {
        var rng = SeededGenerator(seed: UInt64(seed))
        var list = TodoList(items: [])
        for _ in 0..<(seed < 35 ? 8 : 600) { list.items.append(Self.item(depth: 0, &rng)) }
        var markdown = MarkdownWriter(into: ByteSink(), outputName: "t.md")
        try list.send(to: &markdown)
        let checklist = String(decoding: try markdown.finish().bytes, as: UTF8.self)
        let (streamed, whole) = try Self.bothWays(checklist)
        #expect(String(decoding: streamed.bytes, as: UTF8.self) == String(decoding: whole.bytes, as: UTF8.self))
        #expect(streamed.warnings.map(\.description) == whole.warnings.map(\.description))
    }

    @Test("a field key XML cannot hold is warned of, once an item, by both writers")
    func forbiddenKey() throws {
        let list = TodoList(items: [
            TodoItem(name: "a", fields: [Field("k\u{1}", .integer(1)), Field("k\u{2}", .integer(2))]),
            TodoItem(name: "b\u{1}", fields: [Field("k", .string("\u{1}"))]),
            TodoItem(name: "c", fields: [Field("k", .integer(3))]),
            // U+FFFE is a box's custom status, and no XML character.
            TodoItem(name: "d", status: .custom("\u{FFFE}")),
        ])
        var streamed = XMLListWriter(into: ByteSink(), outputName: "x.plist", layout: ItemLayout())
        try list.send(to: &streamed)
        var whole = PropertyListWriter(
            format: PropertyListFormat(isBinary: false, embedded: nil), sink: ByteSink(), outputName: "x.plist",
            layout: ItemLayout())
        try list.send(to: &whole)
        let warnings = try streamed.finish().warnings
        #expect(warnings.map(\.description) == (try whole.finish().warnings.map(\.description)))
        #expect(warnings.count == 1)
        #expect(warnings.first?.description.hasSuffix("(3 items, the first 1 a)") == true, "\(warnings)")
    }
}
