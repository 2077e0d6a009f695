import Foundation
import Testing

@testable import TodoFormat

/// A new binary property list is written as the items arrive (`BinaryListWriter`); these
/// tests hold it to what the writer of the whole list (`PropertyListWriter`) writes from the
/// same list, byte for byte, warnings too, on both sides of the list size where references
/// grow from two bytes to four. A binary file that already holds the list is left as it is.
@Suite("Writing a binary property list item by item")
struct BinaryListWriterTests {
    static let binary = PropertyListFormat(isBinary: true, embedded: nil)

    /// What the whole list's writer writes.
    static func whole(_ list: TodoList, layout: ItemLayout = ItemLayout()) throws -> Written {
        var writer = PropertyListWriter(format: binary, sink: ByteSink(), outputName: "x.plist", layout: layout)
        try list.send(to: &writer)
        return try writer.finish()
    }

    @Test(
        "writes what the whole list's writer writes", arguments: 0..<60,
        [ItemSchema(), ItemSchema(naming: [.name: "ToDo", .checked: "CheckBox"])])
    func agrees(seed: Int, schema: ItemSchema) throws {
        // The XML writer's random lists: nested, with every kind of value, nulls, keys roles take.
        let list = XMLListWriterTests.list(seed: seed)
        let layout = ItemLayout(schema)
        var streamed = BinaryListWriter(into: ByteSink(), outputName: "x.plist", layout: layout)
        try list.send(to: &streamed)
        let a = try streamed.finish()
        let b = try Self.whole(list, layout: layout)
        #expect(a.bytes == b.bytes)
        #expect(a.warnings.map(\.description) == b.warnings.map(\.description))
        #expect(a.bytes.starts(with: Array("bplist00".utf8)))
    }

    /// A checklist of `count` items: sections, nesting, custom statuses, fields on some,
    /// names in ASCII, accented, CJK and emoji (UTF-16 pairs), short and long.
    static func checklist(_ count: Int) -> String {
        let names = ["Milk", "café crème", "日本語のメモ", "trip 🇯🇵 and more words than fifteen", "a", "🚀"]
        var lines: [String] = []
        var depth = 0
        for i in 0..<count {
            if i % 97 == 0 { lines.append("# Section \(i / 97)") }
            depth = i % 5 == 0 ? 0 : min(depth + (i % 3 == 0 ? 1 : 0), 3)
            let box = [" ", "x", "/", " "][i % 4]
            let field = i % 11 == 0 ? " [prio:: \(i % 3)]" : ""
            lines.append(String(repeating: "  ", count: depth) + "- [\(box)] \(names[i % names.count]) \(i)\(field)")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    @Test(
        "a checklist streamed from its bytes, past the size where references take four bytes",
        arguments: [
            // (Past 7,400 items the objects need four bytes; past 65,534 items the writer
            // knows it before the end.)
            0, 1, 9, 1_000, 7_000, 7_400, 7_800, 8_200, 9_500, 65_534, 65_536,
        ])
    func checklistSizes(count: Int) throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("list.md")
        try Self.checklist(count).write(toFile: path, atomically: false, encoding: .utf8)
        var streamed = BinaryListWriter(into: ByteSink(), outputName: "x.plist", layout: ItemLayout())
        #expect(streamed.takesPlainNames)
        _ = try MarkdownFormat().read(
            Input(file: path), options: ListOptions(), into: &streamed, leavingOutTextFor: .bplist)
        let a = try streamed.finish()
        let b = try Self.whole(try TodoList(contentsOf: .file(path)))
        #expect(a.bytes == b.bytes)
        #expect(a.warnings.map(\.description) == b.warnings.map(\.description))
    }

    @Test("plistlib reads the names as written: ASCII, accents, CJK, emoji pairs, the empty name")
    func plistlibReadsNames() throws {
        let directory = try TemporaryDirectory()
        let names = ["Milk", "café", "日本語のメモ", "trip 🇯🇵 x", "🚀", "abcdefgh日本", "12345678", ""]
        let list = TodoList(items: names.map { TodoItem(name: $0) })
        var streamed = BinaryListWriter(into: ByteSink(), outputName: "x.plist", layout: ItemLayout())
        try list.send(to: &streamed)
        try Data(try streamed.finish().bytes).write(to: URL(fileURLWithPath: directory.path("x.plist")))
        let read = try Python.run(
            Python.prelude
                + "print(json.dumps([i['name'] for i in plistlib.load(open(os.path.join(d, 'x.plist'), 'rb'))]))",
            in: directory)
        let decoded = try JSONDecoder().decode([String].self, from: Data(read.utf8))
        #expect(decoded == names)
    }

    @Test("strings spelled with other code points stay apart: composed and decomposed accents, Ω and Ω")
    func codePointsKept() throws {
        let directory = try TemporaryDirectory()
        // Short and long names, keys and sections, each in two spellings Swift compares equal.
        let spellings = ["caf\u{E9}", "cafe\u{301}", "\u{2126}", "\u{3A9}"]
        let long = ["a long name, caf\u{E9} au lait", "a long name, cafe\u{301} au lait"]
        var items = (spellings + long).map { TodoItem(name: $0) }
        items[0].section = "S\u{E9}"
        items[1].section = "Se\u{301}"
        items[2].fields = [Field("k\u{E9}y that is longer than fifteen", .integer(1))]
        items[3].fields = [Field("ke\u{301}y that is longer than fifteen", .integer(2))]
        let list = TodoList(items: items)
        var streamed = BinaryListWriter(into: ByteSink(), outputName: "x.plist", layout: ItemLayout())
        try list.send(to: &streamed)
        let written = try streamed.finish()
        #expect(written.bytes == (try Self.whole(list)).bytes)
        try Data(written.bytes).write(to: URL(fileURLWithPath: directory.path("x.plist")))
        let read = try Python.run(
            Python.prelude
                + "print(json.dumps([[i['name'], i.get('section'), sorted(k for k in i if k not in ('name', 'checked', 'section'))] for i in plistlib.load(open(os.path.join(d, 'x.plist'), 'rb'))]))",
            in: directory)
        // Python's JSON escapes every code point past ASCII: the spellings show as they are.
        let expected = [
            #"["caf\u00e9", "S\u00e9", []]"#, #"["cafe\u0301", "Se\u0301", []]"#,
            #"["\u2126", null, ["k\u00e9y that is longer than fifteen"]]"#,
            #"["\u03a9", null, ["ke\u0301y that is longer than fifteen"]]"#,
            #"["a long name, caf\u00e9 au lait", null, []]"#, #"["a long name, cafe\u0301 au lait", null, []]"#,
        ]
        .joined(separator: ", ")
        #expect(read.trimmingCharacters(in: .whitespacesAndNewlines) == "[" + expected + "]")
    }

    @Test("text is stored as the standard library's UTF-16, and told from any other units", arguments: 0..<40)
    func utf16Units(seed: Int) {
        var rng = SeededGenerator(seed: UInt64(seed))
        // ASCII runs of every length around the four-byte step, and two-, three- and
        // four-byte characters at the ends of their ranges.
        let pieces = [
            "a", "ab", "abc", "abcd", "abcde", "é", "\u{80}", "\u{7FF}", "\u{800}", "日", "\u{FFFD}", "\u{FFFF}", "🚀",
            "\u{10000}", "\u{10FFFF}", "\u{7F}", "\0",
        ]
        let text = (0..<Int.random(in: 0...12, using: &rng)).map { _ in pieces.randomElement(using: &rng)! }.joined()
        let utf8 = Array(text.utf8)
        let units = text.utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
        utf8.withUnsafeBufferPointer { utf8 in
            // The writer stores those units.
            let stored = [UInt8](unsafeUninitializedCapacity: 2 * utf8.count + 1) { buffer, count in
                count = 2 * BinaryPropertyListWriter.utf16BigEndian(fromUTF8: utf8, into: buffer.baseAddress!)
            }
            #expect(stored == units, "\(text.debugDescription)")
            #expect(units.withUnsafeBufferPointer { BinaryPropertyListWriter.isUTF16BigEndian($0, of: utf8) })
            // Any unit changed, one taken away, or one more: not the text's.
            var others: [[UInt8]] = [units + [0, 0x61], units + [0xD8, 0x3D]]
            for i in stride(from: 0, to: units.count, by: 2) {
                var changed = units
                changed[i + Int.random(in: 0...1, using: &rng)] ^= UInt8(1 << Int.random(in: 0...7, using: &rng))
                others.append(changed)
                others.append(Array(units[..<i] + units[(i + 2)...]))
            }
            for other in others {
                #expect(
                    !other.withUnsafeBufferPointer { BinaryPropertyListWriter.isUTF16BigEndian($0, of: utf8) },
                    "\(text.debugDescription) \(other)")
            }
        }
    }

    /// The streamed write of the checklist at `checklist` into the binary file at `path`,
    /// committed; nil where it does not apply.
    static func streamed(_ checklist: String, into path: String) throws -> [ConversionWarning]? {
        let pending = try binary.update(Input(file: path), options: ListOptions()) { writer in
            _ = try MarkdownFormat().read(
                Input(file: checklist), options: ListOptions(), into: &writer, leavingOutTextFor: .bplist)
        }
        try pending?.commit()
        return pending?.warnings
    }

    @Test(
        "a binary file that holds the list is left as it is, not written anew; a box checked changes one reference; a value the file cannot hold is left to the whole-list write"
    )
    func unchangedFileLeftAlone() throws {
        let directory = try TemporaryDirectory()
        let checklist = directory.path("list.md")
        let text = "---\ntitle: Week\n---\n" + Self.checklist(300)
        try text.write(toFile: checklist, atomically: false, encoding: .utf8)
        let path = directory.path("list.plist")
        _ = try Conversion(input: .at(checklist), output: .at(path), outputFormat: .bplist).run()
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let inode = try FileManager.default.attributesOfItem(atPath: path)[.systemFileNumber] as? Int

        let warnings = try #require(try Self.streamed(checklist, into: path))
        #expect(warnings.map(\.kind) == [.metadata])
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
        #expect(try FileManager.default.attributesOfItem(atPath: path)[.systemFileNumber] as? Int == inode)

        // A null field (which a property list cannot hold): nothing streamed, the file as it
        // was.
        let nulled = text.replacingOccurrences(of: "- [ ] Milk 0", with: "- [ ] Milk 0 [gone:: null]")
        try nulled.write(toFile: checklist, atomically: false, encoding: .utf8)
        #expect(try Self.streamed(checklist, into: path) == nil)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)

        // The first item checked, before any other: a new file would hold its `true` first,
        // every later object moved; the file's own `true` is referred to instead, and only
        // that reference changes (one byte: the file has fewer than 256 objects).
        try text.replacingOccurrences(of: "- [ ] Milk 0", with: "- [x] Milk 0").write(
            toFile: checklist, atomically: false, encoding: .utf8)
        #expect(try Self.streamed(checklist, into: path)?.map(\.kind) == [.metadata])
        let after = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(after.count == before.count)
        #expect(zip(before, after).filter { $0 != $1 }.count == 1)
        #expect(try TodoList(contentsOf: .file(path)).items == TodoList(contentsOf: .file(checklist)).items)
    }
}

/// A new binary property list is no larger than plistlib's file of the same data: every
/// equal string (long ones too) and data value is one object, and references take as few
/// bytes as the count of objects needs.
@Suite("Binary property lists as small as plistlib's")
struct BinaryListSizeTests {
    /// Checklists whose long names, sections and field values repeat, and one of distinct
    /// names, on both sides of the counts where references grow.
    static let checklists: [String] = [
        (0..<3000).map { i in
            (i % 300 == 0 ? "# Errands and chores for week \(i / 300 % 5)\n" : "")
                + "- [\(i % 2 == 0 ? " " : "x")] \(["Call mom about the weekend plans", "Review the pull request for the parser", "Buy groceries: milk, eggs, bread"][i % 3]) [owner:: someone@example.com]\n"
        }.joined(),
        (0..<2000).map { "- [ ] task number \($0) with a longer name [owner:: someone@example.com]\n" }.joined(),
        (0..<100).map { "# A section with a long heading \($0)\n- [ ] t\($0)\n" }.joined(),
        (0..<90).map { "- [ ] item \($0 % 7) that repeats and repeats\n" }.joined(),
        (0..<30_000).map { "- [x] t \($0 % 10)\n" }.joined(),
    ]

    @Test("no larger than plistlib's file of the same data", arguments: checklists.indices)
    func noLargerThanPlistlib(index: Int) throws {
        let directory = try TemporaryDirectory()
        let checklist = directory.path("list.md")
        try Self.checklists[index].write(toFile: checklist, atomically: false, encoding: .utf8)
        _ = try Conversion(input: .at(checklist), output: .at(directory.path("list.plist")), outputFormat: .bplist)
            .run()
        // The whole list's writer writes the same bytes.
        let written = try Data(contentsOf: URL(fileURLWithPath: directory.path("list.plist")))
        #expect(Array(written) == (try BinaryListWriterTests.whole(TodoList(markdown: Self.checklists[index]))).bytes)
        let sizes = try Python.run(
            Python.prelude + """
                v = plistlib.load(open(os.path.join(d, 'list.plist'), 'rb'))
                plistlib.dump(v, open(os.path.join(d, 'py.plist'), 'wb'), fmt=plistlib.FMT_BINARY, sort_keys=False)
                assert plistlib.load(open(os.path.join(d, 'py.plist'), 'rb')) == v
                print(os.path.getsize(os.path.join(d, 'list.plist')), os.path.getsize(os.path.join(d, 'py.plist')))
                """, in: directory
        ).split(separator: " ").compactMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        #expect(sizes.count == 2)
        if sizes.count == 2 { #expect(sizes[0] <= sizes[1], "todofmt \(sizes[0]) bytes, plistlib \(sizes[1])") }
    }
}

extension BinaryListSizeTests {
    @Test("past the strings the writers keep, the item by item writer writes what the whole list's writer writes")
    func pastTheTable() throws {
        let checklist =
            (0..<(LongStringTable.capacity + 100)).map { "- [ ] a distinct and long name \($0)\n" }.joined()
            + "# A long section heading met after the table is full\n"
            + (0..<50).map { "- [ ] again a distinct and long name \($0 % 3)\n" }.joined()
        let list = try TodoList(markdown: checklist)
        var streamed = BinaryListWriter(into: ByteSink(), outputName: "x.plist", layout: ItemLayout())
        try list.send(to: &streamed)
        #expect(try streamed.finish().bytes == (try BinaryListWriterTests.whole(list)).bytes)
    }
}
