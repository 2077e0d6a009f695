import Foundation
import Testing

@testable import TodoFormat

/// A binary property list's items are read straight from its objects (`BinaryItems`) when
/// their keys are todofmt's own and ordinary fields; these tests hold that reading to what
/// the value path (`BinaryPropertyListReader.value`, then `ItemSchema.item(from:…)`) makes
/// of the same dictionaries.
@Suite("Binary property list items read from their objects")
struct BinaryItemsTests {
    static let keys = [
        "name", "name", "checked", "status", "section", "children", "children", "fields", "title", "done", "prio",
        "due", "note", "completed_at", "completedAt", "日本語", "position", "Name",
    ]
    /// Names a writer takes as they are and names it does not.
    static let names = [
        "日本語 🎉", "", " lead", "say \"hi\"", "back\\slash", "a & b", "tab\there", "two\nlines", "x]",
        "[t](u)", "<b>", "nul\u{0}", "c1\u{85}", "del\u{7F}", "\u{FEFF}bom", "pair 😀", "lone \u{FFFD}",
    ]
    static let values: [FieldValue] = [
        .string("Milk"), .string("日本語 🎉"), .string("x"), .string("/"), .string("done"), .string("someday"),
        .string(""), .bool(true), .bool(false), .integer(1), .integer(0), .null, .double(2.5),
        .date(Date(timeIntervalSinceReferenceDate: 800_000_000)), .array([.string("a")]), .array([]),
        .dictionary([Field("k", .integer(1)), Field("k", .integer(2))]), .data(Data([1, 2])),
    ]

    /// A random item dictionary: mostly well formed, now and then with a key given twice, a
    /// key of another role, a value that cannot play its key's role, or children that are not
    /// all items.
    static func dictionary(depth: Int, _ rng: inout SeededGenerator) -> FieldValue {
        var fields: [Field] = []
        if Int.random(in: 0..<6, using: &rng) > 0 {
            let name =
                Int.random(in: 0..<3, using: &rng) > 0 ? "item \(rng.next() % 100)" : names.randomElement(using: &rng)!
            fields.append(Field("name", .string(name)))
        }
        for _ in 0..<Int.random(in: 0...4, using: &rng) {
            let key =
                Int.random(in: 0..<5, using: &rng) == 0
                ? "k\(Int.random(in: 0..<80, using: &rng))" : keys.randomElement(using: &rng)!
            var value = values.randomElement(using: &rng)!
            if key == "children" && depth < 3 && Bool.random(using: &rng) {
                var children = (0..<Int.random(in: 0...3, using: &rng)).map { _ in dictionary(depth: depth + 1, &rng) }
                if Int.random(in: 0..<8, using: &rng) == 0 { children.append(.string("not an item")) }
                value = .array(children)
            }
            fields.insert(Field(key, value), at: Int.random(in: 0...fields.count, using: &rng))
        }
        return .dictionary(fields)
    }

    @Test("an item read from its objects is the item its value makes", arguments: 0..<30)
    func agrees(seed: Int) throws {
        var rng = SeededGenerator(seed: UInt64(seed))
        let elements = (0..<200).map { _ in Self.dictionary(depth: 0, &rng) }
        var sink = ByteSink()
        BinaryPropertyListWriter.write(.value(.array(elements)), layout: ItemLayout(), to: &sink)
        let bytes = sink.buffer
        var direct = 0
        try bytes.withUnsafeBufferPointer { buffer in
            let reader = try BinaryPropertyListReader(bytes: buffer, path: "t.plist")
            var items = BinaryItems(reader, schema: ItemSchema())
            for element in try #require(try reader.arrayElements(reader.topObject)) {
                guard let item = items.item(element, depth: 0) else { continue }
                direct += 1
                guard case .dictionary(let fields) = try reader.value(element) else {
                    Issue.record("read an item from an object that is not a dictionary")
                    continue
                }
                let expected = try? ItemSchema().item(from: fields, depth: 0) {
                    ParseError($0, at: SourceLocation(file: "t.plist", byteOffset: 0))
                }
                #expect(item == expected, "\(fields)")
            }
        }
        // Enough of the items are read so for the comparison to mean something.
        #expect(direct > 40, "\(direct) items read from their objects")
    }

    @Test("a sink that takes plain items gets the list the items make, in order", arguments: 0..<20)
    func plainItems(seed: Int) throws {
        var rng = SeededGenerator(seed: UInt64(seed) + 1_000)
        // Items the value path reads (a file with one it refuses fails either way), two in
        // five plain, in runs.
        var elements: [FieldValue] = []
        while elements.count < 300 {
            var element = Self.dictionary(depth: 0, &rng)
            if Int.random(in: 0..<5, using: &rng) < 2 {
                element = .dictionary([
                    Field("name", .string(Self.names.randomElement(using: &rng)!)),
                    Field("checked", .bool(Bool.random(using: &rng))),
                    Field("section", .string(elements.count < 150 ? "A" : "B")),
                ])
            }
            guard (try? Self.list(of: [element])) != nil else { continue }
            elements.append(element)
        }
        var sink = ByteSink()
        BinaryPropertyListWriter.write(.value(.array(elements)), layout: ItemLayout(), to: &sink)
        var collector = PlainCollector()
        try PropertyListFormat(isBinary: true, embedded: nil).read(
            Input(bytes: sink.buffer, name: "t.plist"), options: ListOptions(), plainNamesInto: &collector)
        let plain = collector.builder.finish()
        #expect(plain == (try Self.list(of: elements)))
        #expect(plain.items.count == 300)
        #expect(collector.plainCount > 60, "\(collector.plainCount) plain items")
        #expect(collector.fieldedCount > 20, "\(collector.fieldedCount) items with fields")
    }

    @Test("a binary list's plain names reach each writer that takes them: the bytes and warnings its items give")
    func plainNamesIntoWriters() throws {
        let directory = try TemporaryDirectory()
        let source = directory.path("in.plist")
        // Fields of every kind a binary list holds, on items and children, some written as
        // they are and some not (a key to quote, a string with a space at its end, a
        // value a checklist writes as text or a format cannot hold).
        let fieldSets: [[Field]] = [
            [],
            [Field("due", .date(Date(timeIntervalSinceReferenceDate: 812_345_678))), Field("prio", .integer(2))],
            [Field("note", .string("two words")), Field("done", .bool(true)), Field("ratio", .double(0.25))],
            [Field("tags", .array([.string("a"), .integer(1)])), Field("blob", .data(Data([0, 255])))],
            [Field("with space", .string("end ")), Field("map", .dictionary([Field("k", .bool(false))]))],
            [Field("big", .integer(.max)), Field("when", .date(Date(timeIntervalSinceReferenceDate: 0.5)))],
        ]
        let list = TodoList(
            items: Self.names.enumerated().map { i, name in
                TodoItem(
                    name: name, status: i % 3 == 0 ? .done : .open, fields: fieldSets[i % fieldSets.count],
                    children: [
                        TodoItem(name: name + " child", fields: fieldSets[(i + 2) % fieldSets.count])
                    ],
                    section: i < 8 ? "A" : "B \"quoted\"")
            })
        var binary = try FormatRegistry.format(.bplist).writer(to: .memory, options: ListOptions())
        try list.send(to: &binary)
        try Data(try binary.finish().bytes).write(to: URL(fileURLWithPath: source))
        #expect(try TodoList(contentsOf: .file(source)) == list)
        var targets = [DocumentFormat.json, .plist, .markdown, .sql]
        #if YAML
        targets.append(.yaml)
        #endif
        for target in targets {
            var writer = try FormatRegistry.format(target).writer(to: .memory, options: ListOptions())
            #expect(writer.takesPlainNames)
            try list.send(to: &writer)
            let expected = try writer.finish()
            let output = directory.path("out.\(target.rawValue)")
            let warnings = try Conversion(input: .at(source), output: .at(output)).run()
            let bytes = try Data(contentsOf: URL(fileURLWithPath: output))
            #expect(String(decoding: bytes, as: UTF8.self) == String(decoding: expected.bytes, as: UTF8.self))
            #expect(warnings.map(\.description) == expected.warnings.map(\.description), "\(target)")
        }
    }

    /// The list a binary file of `elements` reads as, item by item.
    static func list(of elements: [FieldValue]) throws -> TodoList {
        var sink = ByteSink()
        BinaryPropertyListWriter.write(.value(.array(elements)), layout: ItemLayout(), to: &sink)
        var builder = ListBuilder()
        try PropertyListFormat(isBinary: true, embedded: nil).read(
            Input(bytes: sink.buffer, name: "t.plist"), options: ListOptions(), into: &builder)
        return builder.finish()
    }

    @Test("a schema that names keys or maps status values reads values")
    func schemas() {
        #expect(BinaryItems.reads(ItemSchema()))
        #expect(!BinaryItems.reads(ItemSchema(naming: [.name: "title"])))
    }

    @Test("a whole file reads the same list both ways, keys shared or not")
    func wholeFile() throws {
        // Keys `k0`…`k99`: more key objects than are kept, so most are worked out each time.
        let elements: [FieldValue] = (0..<300).map { i in
            .dictionary([
                Field("name", .string("item \(i) é")), Field("checked", .bool(i % 3 == 0)),
                Field("k\(i % 100)", .integer(i)), Field("section", .string(i < 150 ? "A" : "B")),
            ])
        }
        var sink = ByteSink()
        BinaryPropertyListWriter.write(.value(.array(elements)), layout: ItemLayout(), to: &sink)
        let input = Input(bytes: sink.buffer, name: "t.plist")
        var builder = ListBuilder()
        try PropertyListFormat(isBinary: true, embedded: nil).read(input, options: ListOptions(), into: &builder)
        let list = builder.finish()
        #expect(list.items.count == 300)
        #expect(
            list.items[3] == TodoItem(name: "item 3 é", status: .done, fields: [Field("k3", .integer(3))], section: "A")
        )
        #expect(list.items[299].section == "B" && list.items[299].fields == [Field("k99", .integer(299))])
    }

    /// Items that differ from `item` in one way each (some may come out the same).
    static func changes(of item: TodoItem) -> [TodoItem] {
        var changes: [TodoItem] = []
        func change(_ body: (inout TodoItem) -> Void) {
            var changed = item
            body(&changed)
            changes.append(changed)
        }
        change { $0.name += "!" }
        change { $0.name = String($0.name.dropLast()) }
        change { $0.status = $0.status == .done ? .open : .done }
        change { $0.status = .custom("/") }
        change { $0.section = $0.section == nil ? "S" : nil }
        change { $0.section = ($0.section ?? "") + "x" }
        change { $0.fields.append(Field("extra", .integer(1))) }
        change { $0.fields = $0.fields.dropLast() }
        change { $0.fields = $0.fields.reversed() }
        change { if !$0.fields.isEmpty { $0.fields[0].value = .string("changed") } }
        change { if !$0.fields.isEmpty { $0.fields[0].value = .integer(7) } }
        change { $0.children = $0.children.dropLast() }
        change { $0.children.append(TodoItem(name: "new child")) }
        change { if !$0.children.isEmpty { $0.children[0].name += "?" } }
        change { if !$0.children.isEmpty { $0.children[0].status = .done } }
        return changes
    }

    @Test("an item matches a dictionary only where it is what the dictionary reads as", arguments: 0..<30)
    func matches(seed: Int) throws {
        var rng = SeededGenerator(seed: UInt64(seed))
        let elements = (0..<200).map { _ in Self.dictionary(depth: 0, &rng) }
        var sink = ByteSink()
        BinaryPropertyListWriter.write(.value(.array(elements)), layout: ItemLayout(), to: &sink)
        var matched = 0
        var refused = 0
        try sink.buffer.withUnsafeBufferPointer { buffer in
            let reader = try BinaryPropertyListReader(bytes: buffer, path: "t.plist")
            var items = BinaryItems(reader, schema: ItemSchema())
            for element in try #require(try reader.arrayElements(reader.topObject)) {
                guard let item = items.item(element, depth: 0) else {
                    // A dictionary not read so is never taken for an item.
                    let taken = items.matches(element, TodoItem(name: "item 1"), depth: 0)
                    #expect(!taken)
                    continue
                }
                // As a writer stores text: every item read so matches its dictionary.
                let same = items.matches(element, item, depth: 0)
                #expect(same, "\(item)")
                matched += 1
                for changed in Self.changes(of: item) where changed != item {
                    let taken = items.matches(element, changed, depth: 0)
                    #expect(!taken, "\(changed) taken for \(item)")
                    refused += 1
                }
            }
        }
        #expect(matched > 40 && refused > 400, "\(matched) matched, \(refused) refused")
    }

    @Test("UTF-16 text is transcoded as the standard library decodes it", arguments: 0..<50)
    func utf16(seed: Int) {
        var rng = SeededGenerator(seed: UInt64(seed))
        // ASCII runs of every length around the four-unit step, and units that end them:
        // a NUL, DEL, two-byte and three-byte characters (each at the ends of its range, and
        // in runs), pairs and lone surrogates.
        let others: [[UInt16]] = [
            [0], [0x7F], [0x80], [0xFF], [0x100], [0x7FF], [0x800], [0x3042], [0xD7FF], [0xE000], [0xFFFD],
            [0xFFFF], [0xD83D, 0xDE00], [0xD800, 0xDC00], [0xDBFF, 0xDFFF], [0xD83D], [0xDE00], [0xDBFF],
            [0xDC00], [0xDFFF], [0xDE00, 0xD83D], [0x3B1, 0x4E00, 0x80, 0xFFFF, 0x7FF, 0x800, 0x41],
        ]
        var units: [UInt16] = []
        for _ in 0..<Int.random(in: 0...12, using: &rng) {
            units += (0..<Int.random(in: 0...9, using: &rng)).map { _ in UInt16.random(in: 0x20...0x7E, using: &rng) }
            units += others.randomElement(using: &rng)!
        }
        // A few texts of three-byte characters only, which fill the room to its last byte.
        if seed < 6 { units = [UInt16](repeating: seed % 2 == 0 ? 0x4E00 : 0xFFFF, count: seed + 1) }
        let bytes = units.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
        let text = bytes.withUnsafeBufferPointer { BinaryPropertyListReader.utf16BigEndian($0) }
        let expected = Array(String(decoding: units, as: UTF16.self).utf8)
        #expect(text == String(decoding: units, as: UTF16.self), "\(units)")
        #expect(Array(text.utf8) == expected)
        // Into the room it asks for (three bytes a unit and one more), and a guard after it.
        let room = 3 * units.count + 1
        var out = [UInt8](repeating: 0xAA, count: room + 16)
        let count = bytes.withUnsafeBufferPointer { source in
            out.withUnsafeMutableBufferPointer {
                BinaryPropertyListReader.utf16BigEndian(source, into: $0.baseAddress!)
            }
        }
        #expect(Array(out[..<count]) == expected, "\(units)")
        #expect(out[room...].allSatisfy { $0 == 0xAA }, "wrote past its room: \(units)")
    }

    @Test("UTF-8 text is written as the standard library's UTF-16 big-endian", arguments: 0..<50)
    func utf16FromUTF8(seed: Int) {
        var rng = SeededGenerator(seed: UInt64(seed))
        // ASCII runs of every length around the eight-byte step, between characters of two,
        // three and four bytes, at the start, the end and anywhere in the word.
        let others = ["é", "ÿ", "Ā", "あ", "買い", "\u{FFFD}", "😀", "👩‍💻", "\u{10FFFF}", "\u{7F}", "\u{0}"]
        var text = ""
        for _ in 0..<Int.random(in: 0...12, using: &rng) {
            text += String(
                (0..<Int.random(in: 0...17, using: &rng)).map { _ in
                    Character(Unicode.Scalar(UInt8.random(in: 0x20...0x7E, using: &rng)))
                })
            text += others.randomElement(using: &rng)!
        }
        let utf8 = Array(text.utf8)
        // Room for a unit a byte, as the writer gives it, and a guard after it.
        var out = [UInt8](repeating: 0xAA, count: 2 * utf8.count + 16)
        let units = utf8.withUnsafeBufferPointer { source in
            out.withUnsafeMutableBufferPointer {
                BinaryPropertyListWriter.utf16BigEndian(fromUTF8: source, into: $0.baseAddress!)
            }
        }
        let expected = text.utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
        #expect(units == text.utf16.count, "\(text.debugDescription)")
        #expect(Array(out[..<(2 * units)]) == expected, "\(text.debugDescription)")
        #expect(out[(2 * utf8.count)...].allSatisfy { $0 == 0xAA }, "wrote past its room: \(text.debugDescription)")
    }
}
