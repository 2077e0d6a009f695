#if YAML
import Foundation
import Testing

@testable import TodoFormat

/// A new YAML file's items are written without libyaml's emitter (`YAMLListWriter`,
/// `YAMLScalarText`); these tests hold them to what the emitter writes, byte for byte.
@Suite("Writing YAML as libyaml's emitter writes it")
struct YAMLScalarTextTests {
    /// Texts around every choice the emitter makes: indicators first, inside and last,
    /// white space at the ends, YAML's typed words, characters it does not print (controls,
    /// C1, the byte order mark, U+FFFE, emoji) and ones next to them, line breaks of every
    /// kind, quotes.
    static let pieces = [
        "a", "Milk", " ", "-", "?", ":", "#", ",", "[", "]", "{", "}", "&", "*", "!", "|", ">", "'", "\"", "%",
        "@", "`", ".", "---", "...", "- ", ": ", " #", "x", "yes", "null", "1", "0x1F", "2024-05-01", "é",
        "日本語", "🎉", "\u{0}", "\u{1}", "\u{7}", "\u{8}", "\t", "\n", "\u{B}", "\u{C}", "\r", "\u{1B}",
        "\u{7F}", "\u{85}", "\u{9F}", "\u{A0}", "\u{2028}", "\u{2029}", "\u{FEFF}", "\u{FFFD}", "\u{FFFE}",
        "\u{FFFF}", "\u{D7FF}", "\u{E000}", "\u{10FFFF}", "\\",
        // Around the characters told by their bytes: U+0080 to U+00BF, U+2000 to U+2FFF,
        // U+F000 to U+FFFF.
        "\u{BF}", "\u{2000}", "\u{2027}", "\u{202A}", "✅", "\u{2FFF}", "\u{EFFF}", "\u{F000}", "\u{FEFE}",
        "\u{FF00}", "\u{FFFC}",
    ]

    /// How libyaml's emitter writes `text` as a mapping's key and as its value, asked for as
    /// `YAMLValue.emitString` asks.
    static func emitted(_ text: String) throws -> String {
        let emitter = try YAMLEmitter()
        try emitter.streamStart()
        try emitter.documentStart(implicit: true)
        try emitter.mappingStart()
        try YAMLValue.emitString(text, to: emitter)
        try YAMLValue.emitString(text, to: emitter)
        try emitter.mappingEnd()
        try emitter.documentEnd()
        try emitter.streamEnd()
        return String(decoding: emitter.output, as: UTF8.self)
    }

    @Test("a text is written as the emitter writes it, as a key and as a value", arguments: 0..<8)
    func scalars(seed: Int) throws {
        var rng = SeededGenerator(seed: UInt64(seed))
        var known = 0
        for n in 0..<3_000 {
            let count = n < Self.pieces.count ? 1 : Int.random(in: 1...5, using: &rng)
            let text =
                n < Self.pieces.count
                ? Self.pieces[n] : (0..<count).map { _ in Self.pieces.randomElement(using: &rng)! }.joined()
            var key = ByteSink()
            var value = ByteSink()
            guard YAMLScalarText.append(text, isKey: true, to: &key) else {
                #expect(key.byteCount == 0)
                continue
            }
            #expect(YAMLScalarText.append(text, isKey: false, to: &value))
            known += 1
            let ours = String(decoding: key.buffer + Array(": ".utf8) + value.buffer + [10], as: UTF8.self)
            #expect(ours == (try Self.emitted(text)), "\(text.debugDescription)")
        }
        #expect(known > 2_000)
    }

    /// Texts are looked at eight bytes at a time while the bytes change nothing: each piece,
    /// alone and twice, at every offset in a word and near the text's end, among characters
    /// of one to three bytes (so that a word may end inside one).
    @Test("a piece at every place in the words a text is looked at in", arguments: ["a", "é", "日", "aé日한Ж"])
    func piecesInWords(_ filler: String) throws {
        let fill = Array(filler)
        func run(_ count: Int) -> String { String((0..<count).map { fill[$0 % fill.count] }) }
        var compared = 0
        for piece in Self.pieces {
            for before in 0..<10 {
                for after in [0, 1, 2, 5, 9, 17] {
                    for text in [run(before) + piece + run(after), run(before) + piece + run(3) + piece + run(after)] {
                        var key = ByteSink()
                        var value = ByteSink()
                        guard YAMLScalarText.append(text, isKey: true, to: &key) else { continue }
                        #expect(YAMLScalarText.append(text, isKey: false, to: &value))
                        let ours = String(decoding: key.buffer + Array(": ".utf8) + value.buffer + [10], as: UTF8.self)
                        #expect(ours == (try Self.emitted(text)), "\(text.debugDescription)")
                        compared += 1
                    }
                }
            }
        }
        #expect(compared > 5_000)
    }

    @Test("an escape's hexadecimal digits, all eight at once")
    func hexDigits() {
        var rng = SeededGenerator(seed: 7)
        let values: [UInt32] =
            [0, 1, 9, 10, 15, 16, 0x9F, 0xA0, 0xFF, 0xFEFF, 0xFFFF, 0x1_0000, 0x1_F389, 0x10_FFFF, .max]
            + (0..<2_000).map { _ in
                UInt32.random(in: 0...UInt32.max, using: &rng) >> UInt32.random(in: 0...31, using: &rng)
            }
        for value in values {
            let hex = YAMLScalarText.hexDigits(value)
            let text = String(decoding: withUnsafeBytes(of: hex.littleEndian) { Array($0) }, as: UTF8.self)
            let expected = String(value, radix: 16, uppercase: true)
            #expect(text == String(repeating: "0", count: 8 - expected.count) + expected, "\(value)")
        }
    }

    /// A long text in double quotes is written in pieces of 16 KiB that end at a character's
    /// end: characters of every length and escapes on each side of a piece's end, against
    /// what the emitter writes for the text as a value.
    @Test(
        "a long text in double quotes, around its pieces' ends", arguments: ["🎉", "\u{1}", "é", "日", "\u{FEFF}", "\""])
    func longDoubleQuoted(_ piece: String) throws {
        for before in 16_376...16_388 {
            // (The emoji first puts the text in double quotes.)
            let text =
                "🎉" + String(repeating: "a", count: before - 4) + piece + piece + String(repeating: "b", count: 9)
            var value = ByteSink()
            #expect(YAMLScalarText.append(text, isKey: false, to: &value))
            let emitter = try YAMLEmitter()
            try emitter.streamStart()
            try emitter.documentStart(implicit: true)
            try emitter.mappingStart()
            try YAMLValue.emitString("k", to: emitter)
            try YAMLValue.emitString(text, to: emitter)
            try emitter.mappingEnd()
            try emitter.documentEnd()
            try emitter.streamEnd()
            let ours = String(decoding: Array("k: ".utf8) + value.buffer + [10], as: UTF8.self)
            #expect(ours == String(decoding: emitter.output, as: UTF8.self), "\(before)")
        }
    }

    @Test("a key longer than a simple key is left to the emitter")
    func longKey() {
        var out = ByteSink()
        #expect(!YAMLScalarText.append(String(repeating: "k", count: 129), isKey: true, to: &out))
        #expect(YAMLScalarText.append(String(repeating: "k", count: 128), isKey: true, to: &out))
        #expect(YAMLScalarText.append(String(repeating: "v", count: 129), isKey: false, to: &out))
    }

    /// Under keys named for the roles, a field keyed as an item's own key (the name's, the
    /// checked one's) goes under `fields`, as the whole item's entries put it: a field the
    /// schema alone does not nest.
    @Test("fields keyed as the named roles' keys go under fields, from names' bytes too")
    func fieldsUnderNamedKeys() throws {
        let layout = ItemLayout(ItemSchema(naming: [.name: "title", .checked: "complete", .children: "subtasks"]))
        var whole = try YAMLListWriter(into: ByteSink(), outputName: "t.yaml", layout: layout)
        var plain = try YAMLListWriter(into: ByteSink(), outputName: "t.yaml", layout: layout)
        try whole.begin(metadata: [])
        try plain.begin(metadata: [])
        let fieldsOfItems = [
            [Field("title", .string("t"))], [Field("complete", .integer(1))], [Field("prio", .integer(2))],
            [Field("subtasks", .string("s")), Field("title", .string("u"))], [],
        ]
        for (k, fields) in (fieldsOfItems + fieldsOfItems).enumerated() {
            var name = "item \(k)"
            try whole.item(TodoItem(name: name, status: .open, fields: fields), depth: 0)
            try name.withUTF8 {
                try plain.item(plainName: $0, fields: fields, status: .open, section: nil, depth: 0)
            }
        }
        try whole.end()
        try plain.end()
        let (a, b) = (try whole.finish(), try plain.finish())
        #expect(String(decoding: a.bytes, as: UTF8.self).contains("  fields:\n    title: t\n"))
        #expect(String(decoding: b.bytes, as: UTF8.self) == String(decoding: a.bytes, as: UTF8.self))
    }

    @Test("items from their names' bytes (and fields) are written as the items are", arguments: 0..<10)
    func plainNames(seed: Int) throws {
        var rng = SeededGenerator(seed: UInt64(seed))
        var whole = try YAMLListWriter(into: ByteSink(), outputName: "t.yaml")
        var plain = try YAMLListWriter(into: ByteSink(), outputName: "t.yaml")
        let metadata = seed % 2 == 0 ? [] : [Field("title", .string("T"))]
        try whole.begin(metadata: metadata)
        try plain.begin(metadata: metadata)
        var depth = 0
        for _ in 0..<150 {
            depth = Int.random(in: 0...(depth + 1), using: &rng)
            var name = Self.pieces.randomElement(using: &rng)! + Self.pieces.randomElement(using: &rng)!
            let status: TodoStatus = [.open, .done, .custom("/"), .custom("#")].randomElement(using: &rng)!
            let section = ["Home", nil, "a: b"].randomElement(using: &rng)!
            // Fields, some of them ones the emitter writes or that go under `fields`.
            let fields = [
                [], [], [Field("prio", .integer(2))], [Field("due", .date(Date(timeIntervalSince1970: 1e9)))],
                [Field("note", .string("a: b")), Field("tags", .array([.string("x")]))], [Field("name", .string("n"))],
                [Field("children", .string("c"))], [Field("checked", .bool(true)), Field("prio", .integer(1))],
                [Field("fields", .integer(1))], [Field("done", .bool(false))], [Field("Name", .string("N"))],
            ]
            .randomElement(using: &rng)!
            try whole.item(
                TodoItem(name: name, status: status, fields: fields, section: depth == 0 ? section : nil), depth: depth)
            try name.withUTF8 {
                if fields.isEmpty {
                    try plain.item(plainName: $0, status: status, section: section, depth: depth)
                } else {
                    try plain.item(plainName: $0, fields: fields, status: status, section: section, depth: depth)
                }
            }
        }
        try whole.end()
        try plain.end()
        let (a, b) = (try whole.finish(), try plain.finish())
        #expect(String(decoding: b.bytes, as: UTF8.self) == String(decoding: a.bytes, as: UTF8.self))
    }

    /// Runs of plain items (`items(plain:text:sections:)`, as a checklist's reader hands
    /// them over) are written as libyaml's emitter writes the same items: sections by their index, taken
    /// once for each run in one (a section the emitter writes among them), more custom
    /// statuses than the writer keeps texts for, and names of every kind.
    @Test("runs of plain items are written as the items are", arguments: 0..<6)
    func plainRuns(seed: Int) throws {
        var rng = SeededGenerator(seed: UInt64(seed))
        // (Against libyaml's emitter: `YAMLListWriter` writes an item as its runs do.)
        var whole = try EmitterYAMLListWriter(into: ByteSink(), outputName: "t.yaml", layout: ItemLayout())
        var runs = try YAMLListWriter(into: ByteSink(), outputName: "t.yaml")
        try whole.begin(metadata: [])
        try runs.begin(metadata: [])
        let sections = ["Home", "a: b", "x\u{1}y", "🎉", "Home"]
        let statuses: [TodoStatus] =
            [.open, .done] + "/#-?!abcdefghijklmnopqrstu".unicodeScalars.map { TodoStatus.custom($0) }
        var depth = -1  // (the first item at the top)
        for _ in 0..<12 {
            var text: [UInt8] = []
            var run: [PlainItem] = []
            var section = Int.random(in: -1..<sections.count, using: &rng)
            for _ in 0..<Int.random(in: 1...40, using: &rng) {
                depth = Int.random(in: 0...(depth + 1), using: &rng)
                if Int.random(in: 0..<5, using: &rng) == 0 {
                    section = Int.random(in: -1..<sections.count, using: &rng)
                }
                let name = Self.pieces.randomElement(using: &rng)! + Self.pieces.randomElement(using: &rng)!
                let status = statuses.randomElement(using: &rng)!
                let start = text.count
                text += Array(name.utf8)
                run.append(
                    PlainItem(nameStart: start, nameEnd: text.count, status: status, depth: depth, section: section))
                try whole.item(
                    TodoItem(
                        name: name, status: status, section: depth == 0 && section >= 0 ? sections[section] : nil),
                    depth: depth)
            }
            try text.withUnsafeBufferPointer { try runs.items(plain: run[...], text: $0, sections: sections) }
        }
        try whole.end()
        try runs.end()
        let (a, b) = (try whole.finish(), try runs.finish())
        #expect(String(decoding: b.bytes, as: UTF8.self) == String(decoding: a.bytes, as: UTF8.self))
    }

    @Test("a children key libyaml writes as a complex key gets the emitter's whole list")
    func complexChildrenKey() throws {
        let list = TodoList(items: [
            TodoItem(name: "a", children: [TodoItem(name: "b", children: [TodoItem(name: "c")])])
        ])
        for key in [String(repeating: "k", count: 129), "sub\ntasks", "x\u{2028}y"] {
            let options = ListOptions(schema: ItemSchema(naming: [.children: key]))
            var writer = try YAMLFormat().writer(to: .memory, options: options)
            try list.send(to: &writer)
            let bytes = try writer.finish().bytes
            var reference = try EmitterYAMLListWriter(
                into: ByteSink(), outputName: "t.yaml", layout: ItemLayout(options.schema))
            try list.send(to: &reference)
            #expect(bytes == (try reference.finish().bytes))
            #expect(String(decoding: bytes, as: UTF8.self).contains("? "))
            #expect(try TodoList(bytes: bytes, format: .yaml, name: "t.yaml", options: options) == list)
        }
    }

    static let values: [FieldValue] = [
        .integer(-3), .integer(.max), .bigInteger("123456789012345678901234567890"), .double(1.5),
        .double(1e-5), .double(-.infinity), .double(.nan), .bool(true), .null,
        .date(Date(timeIntervalSince1970: 1_717_236_000.25)), .string("yes"), .string("a: b"), .string("🎉"),
        .string("line\u{2028}sep"), .array([]), .dictionary([]), .array([.integer(1), .string("x")]),
        .dictionary([Field("k", .string("v")), Field("n", .array([.null]))]), .data(Data([0, 1, 2])),
    ]

    static func item(depth: Int, _ rng: inout SeededGenerator) -> TodoItem {
        let names = ["milk", "a: b", " lead", "- dash", "日本語 🎫", "ctrl \u{1}", "line\nbreak", "", "yes", "x\u{2028}y"]
        let keys = [
            "prio", "children", "name", "fields", "due", "a: b", "#k", "🎉", String(repeating: "k", count: 130),
            "status",
            "section", "checked", "title", "done", "Prio",
        ]
        var item = TodoItem(
            name: names.randomElement(using: &rng)!,
            status: [.open, .done, .custom("/"), .custom("#")].randomElement(using: &rng)!)
        for _ in 0..<Int.random(in: 0...3, using: &rng) where Bool.random(using: &rng) {
            item.fields.append(Field(keys.randomElement(using: &rng)!, values.randomElement(using: &rng)!))
        }
        if depth == 0 && Bool.random(using: &rng) {
            item.section = ["Home", "Work: later", "🎉"].randomElement(using: &rng)
        }
        if depth < 4 {
            item.children = (0..<Int.random(in: 0...2, using: &rng)).map { _ in Self.item(depth: depth + 1, &rng) }
        }
        return item
    }

    @Test(
        "a list is written as the emitter writes it", arguments: 0..<80,
        [ItemSchema(), ItemSchema(naming: [.name: "title", .checked: "done", .children: "subtasks"])])
    func lists(seed: Int, schema: ItemSchema) throws {
        var rng = SeededGenerator(seed: UInt64(seed))
        let metadata: [Field] =
            switch seed % 4 {
            case 0: []
            case 1: [Field("title", .string("Groceries"))]
            case 2: [Field("title", .string("a: b\nc")), Field("tags", .array([.string("x")]))]
            default: [Field("owner", .dictionary([Field("name", .string("🎉"))])), Field("n", .integer(1))]
            }
        let items = (0..<Int.random(in: 0...6, using: &rng)).map { _ in Self.item(depth: 0, &rng) }
        let list = TodoList(metadata: metadata, items: items)
        let layout = ItemLayout(schema)
        var ours = try YAMLListWriter(into: ByteSink(), outputName: "t.yaml", layout: layout)
        try list.send(to: &ours)
        var reference = try EmitterYAMLListWriter(into: ByteSink(), outputName: "t.yaml", layout: layout)
        try list.send(to: &reference)
        let (a, b) = (try ours.finish(), try reference.finish())
        #expect(String(decoding: a.bytes, as: UTF8.self) == String(decoding: b.bytes, as: UTF8.self))
    }
}
#endif
