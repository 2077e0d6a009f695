import Foundation
import Testing

@testable import TodoFormat

/// Reading real property lists and writing into them (issues 8 and 9): files made by Python's
/// plistlib as apps make them, read back by plistlib as the app would.
@Suite("Property lists as apps keep them")
struct PropertyListWriteBackTests {
    /// Runs Python that writes files into the directory.
    static func make(_ program: String, in directory: TemporaryDirectory) throws {
        try Python.run(Python.prelude + "U = plistlib.UID\n" + program, in: directory)
    }

    /// What plistlib loads from a file, as `repr` prints it.
    static func loaded(_ name: String, in directory: TemporaryDirectory) throws -> String {
        try Python.run(
            Python.prelude + "print(repr(plistlib.load(open(os.path.join(d, \(String(reflecting: name))), 'rb'))))",
            in: directory)
    }

    @discardableResult
    static func write(_ markdown: String, into path: String, options: ListOptions = ListOptions(), strict: Bool = false)
        throws
        -> [ConversionWarning]
    {
        try JSONWriteBackTests.write(markdown, into: path, options: options, strict: strict)
    }

    static let preferences = """
        prefs = {"installationID": 0xF3A1B2C3D4E5F607, "anchor": 2**64 - 1, "big63": 2**63, "offset": -12600,
                 "archived": U(7), "nested": {"ref": U(300), "when": datetime.datetime(2026, 1, 1, 9, 30), "blob": b"\\x00\\x01"},
                 "tasks": [{"title": "Milk", "done": False, "ref": U(2), "serial": 2**64 - 2}, {"title": "Eggs", "done": True}]}
        """

    /// Found by a hunt for data loss: a raw line break in a CRLF file's string was read as a
    /// carriage return and a line feed, and a note written into such a file came back so.
    @Test("line breaks in an XML property list's strings read as line feeds, as plistlib reads them, CRLF or not")
    func lineBreaksInText() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("crlf.plist")
        let text = [
            #"<?xml version="1.0" encoding="UTF-8"?>"#, "<plist version=\"1.0\">", "<array>",
            "\t<dict><key>title</key><string>a</string><key>notes</key><string>one",
            "two\rthree&#13;four</string></dict>",
            "\t<dict><key>title</key><string>b</string><key>notes</key><string><![CDATA[five", "six]]></string></dict>",
            "</array>", "</plist>", "",
        ].joined(separator: "\r\n")
        try text.write(toFile: path, atomically: false, encoding: .utf8)
        let notes = try TodoList(contentsOf: .file(path)).items.map { $0.fields[key: "notes"] }
        #expect(notes == [.string("one\ntwo\nthree\rfour"), .string("five\nsix")])
        #expect(
            try Self.loaded("crlf.plist", in: directory).trimmingCharacters(in: .newlines)
                == "[{'title': 'a', 'notes': 'one\\ntwo\\nthree\\rfour'}, {'title': 'b', 'notes': 'five\\nsix'}]")
        // A note of two lines written into the file, and the others, come back as they were.
        try Self.write(
            #"""
            - [ ] a [notes:: "one\ntwo\nthree\rfour"]
            - [ ] b [notes:: "five\nsix"]
            - [ ] c [notes:: "seven\neight"]

            """#, into: path)
        #expect(
            try TodoList(contentsOf: .file(path)).items.map { $0.fields[key: "notes"] }
                == [.string("one\ntwo\nthree\rfour"), .string("five\nsix"), .string("seven\neight")])
        #expect(
            try Self.loaded("crlf.plist", in: directory).trimmingCharacters(in: .newlines).hasSuffix(
                "{'title': 'c', 'notes': 'seven\\neight'}]"))
    }

    @Test("unsigned 64-bit integers, 128-bit ones and UIDs read as values and stay exactly through a write")
    func wideIntegersAndUIDs() throws {
        let directory = try TemporaryDirectory()
        try Self.make(
            Self.preferences
                + "\nplistlib.dump(prefs, open(os.path.join(d, 'prefs.plist'), 'wb'), fmt=plistlib.FMT_BINARY)",
            in: directory)
        let path = directory.path("prefs.plist")
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        guard case .dictionary(let root) = try XMLPropertyListWriterTests.value(of: bytes, binary: true, path: path)
        else {
            Issue.record("not a dictionary")
            return
        }
        #expect(root[key: "installationID"] == .bigInteger("17555509376627111431"))
        #expect(root[key: "anchor"] == .bigInteger("18446744073709551615"))
        #expect(root[key: "big63"] == .bigInteger("9223372036854775808"))
        #expect(root[key: "offset"] == .integer(-12600))
        #expect(root[key: "archived"] == .integer(7))
        var list = try TodoList(contentsOf: .file(path))
        #expect(list.items.map(\.name) == ["Milk", "Eggs"])
        #expect(
            list.items[0].fields == [Field("ref", .integer(2)), Field("serial", .bigInteger("18446744073709551614"))])
        // Unchanged: the same data; the first item checked: only its flag changes, UIDs stay UIDs.
        let before = try Self.loaded("prefs.plist", in: directory)
        try Self.write(try list.encoded(as: .markdown).string, into: path)
        #expect(try Self.loaded("prefs.plist", in: directory) == before)
        list.items[0].status = .done
        try Self.write(try list.encoded(as: .markdown).string, into: path)
        try Self.make(
            Self.preferences
                + "\nprefs['tasks'][0]['done'] = True\nplistlib.dump(prefs, open(os.path.join(d, 'expected.plist'), 'wb'), fmt=plistlib.FMT_BINARY)",
            in: directory)
        #expect(try Self.loaded("prefs.plist", in: directory) == (try Self.loaded("expected.plist", in: directory)))
    }

    /// Found by a hunt for data loss: a field the checklist lists in another order is written
    /// again where that order puts it, and a UID there became an integer.
    @Test("fields moved by the list's order keep their objects: UIDs, 128-bit integers, date fractions")
    func movedFieldsKeepTheirObjects() throws {
        let directory = try TemporaryDirectory()
        let made = """
            import datetime
            items = [{'name': 'c', 'checked': False, 'u': U(1), 'w': 2**64 - 1, 'at': datetime.datetime(2024, 1, 2, 3, 4, 5, 250000), 't': 'x'},
                     {'name': 'd', 'checked': True, 'u': U(2), 't': 'y'}]
            plistlib.dump(items, open(os.path.join(d, 'm.plist'), 'wb'), fmt=plistlib.FMT_BINARY, sort_keys=False)
            """
        try Self.make(made, in: directory)
        let path = directory.path("m.plist")
        var list = try TodoList(contentsOf: .file(path))
        // The fields in the opposite order, and the second item checked off.
        list.items[0].fields.reverse()
        list.items[1].fields.reverse()
        list.items[1].status = .open
        try Self.write(try list.encoded(as: .markdown).string, into: path)
        try Self.make(
            made.replacingOccurrences(of: "'checked': True", with: "'checked': False")
                .replacingOccurrences(of: "'m.plist'", with: "'expected.plist'"), in: directory)
        let loaded = try Self.loaded("m.plist", in: directory)
        #expect(loaded.contains("UID(1)") && loaded.contains("UID(2)") && loaded.contains("250000"))
        // The same values and types as plistlib's file, in the list's order of keys.
        let sorted = """
            def s(v): return {k: s(v[k]) for k in sorted(v)} if isinstance(v, dict) else [s(x) for x in v] if isinstance(v, list) else v
            print(repr(s(plistlib.load(open(os.path.join(d, 'm.plist'), 'rb')))) == repr(s(plistlib.load(open(os.path.join(d, 'expected.plist'), 'rb')))))
            """
        #expect(
            try Python.run(Python.prelude + sorted, in: directory).trimmingCharacters(in: .whitespacesAndNewlines)
                == "True")
    }

    @Test("16-byte integers read as the signed 128-bit values plistlib reads, and are written back as 16 bytes")
    func signed128() throws {
        let values = [
            "170141183460469231731687303715884105727", "-170141183460469231731687303715884105728",
            "1267650600228229401496703205376",
        ]
        for digits in values {
            let wide = try #require(WideInteger(digits: digits))
            #expect(wide.decimal == digits)
            #expect(wide.value == .bigInteger(digits))
            #expect(!wide.fits64Bits)
        }
        #expect(WideInteger(digits: "170141183460469231731687303715884105728") == nil)
        #expect(WideInteger(digits: "-5")?.value == .integer(-5))
        #expect(WideInteger(digits: "18446744073709551615")?.fits64Bits == true)
        // Written into a binary property list, plistlib reads them as they were, with a warning.
        let directory = try TemporaryDirectory()
        let path = directory.path("wide.plist")
        let list = TodoList(items: values.map { TodoItem(name: "n", fields: [Field("v", .bigInteger($0))]) })
        let warnings = try list.write(to: .file(path), format: .bplist)
        #expect(warnings == [ConversionWarning(.values, PropertyListLosses.wideIntegers, count: 3, firstItem: "1 n")])
        let read = try Python.run(
            Python.prelude + "print([i['v'] for i in plistlib.load(open(os.path.join(d, 'wide.plist'), 'rb'))])",
            in: directory)
        #expect(read == "[" + values.joined(separator: ", ") + "]\n")
        #expect(try TodoList(contentsOf: .file(path)) == list)
    }

    @Test("a keyed archive is an error naming its keys, never a crash")
    func keyedArchive() throws {
        let directory = try TemporaryDirectory()
        try Self.make(
            """
            archive = {"$version": 100000, "$archiver": "NSKeyedArchiver", "$top": {"root": U(1)},
                       "$objects": ["$null", {"NS.objects": [U(2)], "$class": U(3)}, {"title": U(4), "done": False}, {"$classname": "NSArray"}, "Milk"]}
            plistlib.dump(archive, open(os.path.join(d, "archive.plist"), "wb"), fmt=plistlib.FMT_BINARY)
            """, in: directory)
        let path = directory.path("archive.plist")
        #expect(
            throws: ConversionError.noList(
                path: path,
                reason:
                    "a keyed archive (NSKeyedArchiver) holds archived objects, not a todo list todofmt reads; its keys: $archiver, $objects, $top, $version"
            )
        ) {
            try TodoList(contentsOf: .file(path))
        }
    }

    static let oddNames = [
        "NUL\u{0}inside", "Bell\u{7} and escape\u{1B}", "Carriage\r\nreturn", "Tab\tand\nline", "DEL\u{7F}",
    ]

    @Test(
        "control characters are never written raw into XML: U+FFFD with a warning, a carriage return as &#13;; plistlib reads the file"
    )
    func controlCharactersInXML() throws {
        let directory = try TemporaryDirectory()
        let list = TodoList(items: Self.oddNames.map { TodoItem(name: $0) })
        let path = directory.path("odd.plist")
        let warnings = try list.write(to: .file(path), format: .plist)
        #expect(
            warnings == [
                ConversionWarning(
                    .values, PropertyListLosses.controlCharacters, count: 2, firstItem: "1 NUL\u{0}inside")
            ])
        let names = try Python.run(
            Python.prelude
                + "print(json.dumps([i['name'] for i in plistlib.load(open(os.path.join(d, 'odd.plist'), 'rb'))]))",
            in: directory)
        #expect(
            names
                == #"["NUL\ufffdinside", "Bell\ufffd and escape\ufffd", "Carriage\r\nreturn", "Tab\tand\nline", "DEL\u007f"]"#
                + "\n")
        // Into an existing XML file, the same; binary files hold every character.
        #expect(throws: ConversionError.self) { try list.write(to: .file(path), strict: true) }
        let binary = directory.path("odd.bplist")
        #expect(try list.write(to: .file(binary), format: .bplist).isEmpty)
        #expect(try TodoList(contentsOf: .file(binary)) == list)
    }

    @Test("nulls and date fractions: left out of property lists with a warning")
    func nullsAndFractions() throws {
        let directory = try TemporaryDirectory()
        try Self.make(
            "plistlib.dump([{'title': 'a', 'done': False}], open(os.path.join(d, 'list.plist'), 'wb'), fmt=plistlib.FMT_XML)",
            in: directory)
        let path = directory.path("list.plist")
        let warnings = try Self.write("- [ ] a\n- [ ] b [due:: 2026-01-02T03:04:05.25Z] [note:: null]\n", into: path)
        #expect(
            warnings == [
                ConversionWarning(.values, PropertyListLosses.dateFractions, firstItem: "2 b"),
                ConversionWarning(.values, PropertyListLosses.null, firstItem: "2 b"),
            ])
        #expect(
            try Self.loaded("list.plist", in: directory)
                == "[{'done': False, 'title': 'a'}, {'done': False, 'title': 'b', 'due': datetime.datetime(2026, 1, 2, 3, 4, 5)}]\n"
        )
    }

    @Test(
        "a changed item's null field is left out with a warning, in XML and binary files",
        arguments: ["FMT_XML", "FMT_BINARY"])
    func nullInChangedItem(_ format: String) throws {
        let directory = try TemporaryDirectory()
        try Self.make(
            "plistlib.dump([{'title': 'a', 'done': False, 'note': 'x'}, {'title': 'b', 'done': False}], open(os.path.join(d, 'list.plist'), 'wb'), fmt=plistlib.\(format))",
            in: directory)
        let path = directory.path("list.plist")
        let warnings = try Self.write("- [x] a [note:: null]\n- [x] b [gone:: null]\n", into: path)
        #expect(warnings == [ConversionWarning(.values, PropertyListLosses.null, count: 2, firstItem: "1 a")])
        #expect(
            try Self.loaded("list.plist", in: directory)
                == "[{'done': True, 'title': 'a'}, {'done': True, 'title': 'b'}]\n")
        #expect(throws: ConversionError.self) {
            try Self.write("- [ ] a [note:: null]\n- [x] b\n", into: path, strict: true)
        }
    }

    @Test(
        "JSON kept in a data value: an unchanged list keeps every byte, a change changes only its value",
        arguments: [
            ("binary, JSONEncoder", "FMT_BINARY", "separators=(',', ':'), ensure_ascii=False"),
            ("XML, Python", "FMT_XML", ""),
        ])
    func todosKey(_ label: String, format: String, dumps: String) throws {
        let directory = try TemporaryDirectory()
        let program = """
            todos = [{"name": "Café", "checked": False, "id": 1}, {"name": "Eggs", "checked": False, "id": 2}]
            def save(name, todos):
                prefs = {"launchCount": 3, "TodosKey": json.dumps(todos, \(dumps)).encode(), "big": 2**64 - 1}
                plistlib.dump(prefs, open(os.path.join(d, name), "wb"), fmt=plistlib.\(format))
            save("prefs.plist", todos)
            todos[1]["checked"] = True
            save("expected.plist", todos)
            """
        try Self.make(program, in: directory)
        let path = directory.path("prefs.plist")
        let original = try Data(contentsOf: URL(fileURLWithPath: path))
        var list = try TodoList(contentsOf: .file(path))
        try Self.write(try list.encoded(as: .markdown).string, into: path)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == original, "\(label)")
        list.items[1].status = .done
        try Self.write(try list.encoded(as: .markdown).string, into: path)
        #expect(
            try Self.loaded("prefs.plist", in: directory) == (try Self.loaded("expected.plist", in: directory)),
            "\(label)")
        if format == "FMT_XML" {
            #expect(
                try Data(contentsOf: URL(fileURLWithPath: path))
                    == (try Data(contentsOf: URL(fileURLWithPath: directory.path("expected.plist")))))
        }
    }

    @Test("a checked flag keeps each item's spelling: <integer>0</integer> becomes 1, <false/> becomes <true/>")
    func perItemSpelling() throws {
        let directory = try TemporaryDirectory()
        let program = """
            records = [{"ToDo": "a", "CheckBox": 0}, {"ToDo": "b", "CheckBox": False}, {"ToDo": "c", "CheckBox": 1}]
            def save(name):
                plistlib.dump({"Records": records, "Version": "1.1.0"}, open(os.path.join(d, name), "wb"), fmt=plistlib.FMT_XML, sort_keys=False)
            save("list.plist")
            records[0]["CheckBox"] = 1
            records[1]["CheckBox"] = True
            records.append({"ToDo": "d", "CheckBox": 0})
            save("expected.plist")
            """
        try Self.make(program, in: directory)
        let path = directory.path("list.plist")
        let options = ListOptions(key: "Records", schema: ItemSchema(naming: [.name: "ToDo", .checked: "CheckBox"]))
        try Self.write("- [x] a\n- [x] b\n- [x] c\n- [ ] d\n", into: path, options: options)
        #expect(
            try String(contentsOfFile: path, encoding: .utf8)
                == (try String(contentsOfFile: directory.path("expected.plist"), encoding: .utf8)))
    }

    @Test("XML property list dates and reals written as the file writes them")
    func spellings() throws {
        #expect(
            DateSpelling(of: "2025-10-01T13:33:10.6197688+03:30")?.format(
                ISO8601.parse("2026-01-02T03:04:05.25Z".utf8)!) == "2026-01-02T03:04:05.2500000+00:00")
        let varying = DateSpelling(of: "2025-10-01 13:33:10.6197688+03:30")!.merged(
            with: DateSpelling(of: "2025-10-01 14:02:00+03:30")!)
        #expect(varying.format(ISO8601.parse("2026-01-02T03:04:05.25Z".utf8)!) == "2026-01-02 03:04:05.25+00:00")
        #expect(
            DateSpelling(of: "2024-05-01 09:30:00")?.format(ISO8601.parse("2026-01-02T03:04:05.25Z".utf8)!)
                == "2026-01-02 03:04:05")
        #expect(DateSpelling(of: "2024-05-01") == nil)
        var apple = XMLRenderer()
        let text = Array("<real>1</real><real>2.5</real>".utf8)
        text.withUnsafeBufferPointer { apple.learn(from: $0) }
        #expect(apple.real(5) == "5" && apple.real(5.5) == "5.5")
        #expect(XMLRenderer().real(5) == "5.0")
        var plistlib = XMLRenderer()
        Array("<real>1.0</real><real>2.5</real>".utf8).withUnsafeBufferPointer { plistlib.learn(from: $0) }
        #expect(plistlib.real(5) == "5.0")
    }

    @Test("an unchanged list written back leaves a binary file as plistlib wrote it, byte for byte")
    func unchangedBinaryKeepsBytes() throws {
        let directory = try TemporaryDirectory()
        try Self.make(
            "plistlib.dump([{'title': 'test1', 'done': False}], open(os.path.join(d, 'Items.plist'), 'wb'), fmt=plistlib.FMT_BINARY)\n"
                + Self.preferences
                + "\nplistlib.dump(prefs, open(os.path.join(d, 'prefs.plist'), 'wb'), fmt=plistlib.FMT_BINARY)",
            in: directory)
        for name in ["Items.plist", "prefs.plist"] {
            let path = directory.path(name)
            let before = try Data(contentsOf: URL(fileURLWithPath: path))
            try Self.write(try TodoList(contentsOf: .file(path)).encoded(as: .markdown).string, into: path)
            #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before, "\(name)")
        }
    }

    /// A binary property list of `objects` (each its marker and contents, references of one
    /// byte), object 0 the top one.
    static func binaryPlist(_ objects: [[UInt8]]) -> Data {
        var bytes = Array("bplist00".utf8)
        var offsets: [UInt8] = []
        for object in objects {
            offsets.append(UInt8(bytes.count))
            bytes += object
        }
        let table = bytes.count
        bytes += offsets
        bytes += [0, 0, 0, 0, 0, 0, 1, 1]
        for word in [objects.count, 0, table] { bytes += (0..<8).reversed().map { UInt8((word >> ($0 * 8)) & 0xFF) } }
        return Data(bytes)
    }

    @Test("names stored in other bytes than todofmt's (ASCII as UTF-16, an accent apart) still count as the same")
    func namesInOtherBytes() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("other.plist")
        let utf16 = { (text: String) in text.utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] } }
        // [{name: "Milk" (UTF-16), checked: false}, {name: "Café" (e and U+0301), checked: true}]
        let before = Self.binaryPlist([
            [0xA2, 1, 2], [0xD2, 3, 4, 5, 6], [0xD2, 3, 4, 7, 8], Array("\u{54}name".utf8), Array("\u{57}checked".utf8),
            [0x64] + utf16("Milk"), [0x08], [0x65] + utf16("Cafe\u{301}"), [0x09],
        ])
        try before.write(to: URL(fileURLWithPath: path))
        #expect(try TodoList(contentsOf: .file(path)).items.map(\.name) == ["Milk", "Cafe\u{301}"])
        // The same list, its accent composed as an editor may write it: the file stays.
        try Self.write("- [ ] Milk\n- [x] Caf\u{E9}\n", into: path)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
        // One item renamed: only it changes; the other keeps its bytes.
        try Self.write("- [ ] Milk\n- [x] Tea\n", into: path)
        let after = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(after.range(of: Data([0x64] + utf16("Milk"))) != nil)
        #expect(try TodoList(contentsOf: .file(path)).items.map(\.name) == ["Milk", "Tea"])
    }

    /// An XML item of one name, and the text around a list of them, as the tests lay them out.
    static func xmlItem(_ name: String) -> String {
        "\t<dict>\n\t\t<key>name</key>\n\t\t<string>\(name)</string>\n\t</dict>\n"
    }
    static let xmlHead = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\">\n<array>\n"
    static let xmlTail = "</array>\n</plist>\n"

    @Test("a comment between two XML items is written once when an item is put in between")
    func commentWrittenOnce() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("c.plist")
        let (item, head, tail) = (Self.xmlItem, Self.xmlHead, Self.xmlTail)
        try (head + item("a") + "\t<!-- about b -->\n" + item("b") + tail).write(
            toFile: path, atomically: false, encoding: .utf8)
        try Self.write("- [ ] a\n- [ ] new\n- [ ] b\n", into: path)
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.components(separatedBy: "<!-- about b -->").count == 2, "\(text)")
        #expect(text == head + item("a") + "\t<!-- about b -->\n" + item("new") + item("b") + tail)
    }

    /// A comment before a key goes with the key: a key put in before it, or the keys written
    /// in another order, dropped it.
    @Test(
        "a comment before an XML key stays with the key",
        arguments: [
            (
                "- [ ] a [note:: x] [tag:: t] [prio:: 1]\n",
                "\t\t<key>note</key>\n\t\t<string>x</string>\n\t\t<key>tag</key>\n\t\t<string>t</string>\n"
                    + "\t\t<!-- about prio -->\n\t\t<key>prio</key>\n\t\t<integer>1</integer>\n"
            ),
            (
                "- [ ] a [prio:: 2] [note:: x]\n",
                "\t\t<!-- about prio -->\n\t\t<key>prio</key>\n\t\t<integer>2</integer>\n"
                    + "\t\t<key>note</key>\n\t\t<string>x</string>\n"
            ),
            // A removed key takes its comment with it.
            ("- [ ] a [note:: x]\n", "\t\t<key>note</key>\n\t\t<string>x</string>\n"),
        ])
    func commentBeforeKey(checklist: String, members: String) throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("k.plist")
        let head =
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\">\n<array>\n\t<dict>\n"
            + "\t\t<key>name</key>\n\t\t<string>a</string>\n"
        let tail = "\t</dict>\n</array>\n</plist>\n"
        try
            (head + "\t\t<key>note</key>\n\t\t<string>x</string>\n\t\t<!-- about prio -->\n"
            + "\t\t<key>prio</key>\n\t\t<integer>1</integer>\n" + tail).write(
                toFile: path, atomically: false, encoding: .utf8)
        try Self.write(checklist, into: path)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == head + members + tail)
    }

    /// The gap after an item goes with it; an item moved to the end (with no gap after it
    /// now) keeps the comment that followed it.
    @Test("an XML item moved to the end keeps the comment after it")
    func commentAfterItemMovedToEnd() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("e.plist")
        let (item, head, tail) = (Self.xmlItem, Self.xmlHead, Self.xmlTail)
        try (head + item("a") + "\t<!-- c1 -->\n" + item("b") + "\t<!-- after b -->\n" + item("c") + tail).write(
            toFile: path, atomically: false, encoding: .utf8)
        try Self.write("- [ ] c\n- [ ] a\n- [ ] new\n- [x] b\n", into: path)
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.components(separatedBy: "<!-- after b -->").count == 2, "\(text)")
        #expect(text.components(separatedBy: "<!-- c1 -->").count == 2, "\(text)")
        #expect(try TodoList(contentsOf: URL(fileURLWithPath: path)).items.map(\.name) == ["c", "a", "new", "b"])
    }

    /// An item's children array emptied by the edit stays, with the comments that were in it
    /// (helper hunt 56: it became `<array/>`, and the comment was lost).
    @Test(
        "an XML children array emptied by the edit keeps its comments",
        arguments: [
            ("\t\t\t<!-- keep me -->\n", "- [ ] A\n- [ ] N\n  - [ ] C\n- [ ] B\n"),
            ("\t\t\t<!-- keep me -->\n", "- [ ] A\n- [ ] B\n"),
            ("", "- [ ] A\n- [ ] B\n  - [x] C\n"),
        ])
    func emptiedChildrenKeepComments(comment: String, checklist: String) throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("n.plist")
        let (item, head, tail) = (Self.xmlItem, Self.xmlHead, Self.xmlTail)
        let parent = { (inside: String) in
            "\t<dict>\n\t\t<key>name</key>\n\t\t<string>A</string>\n\t\t<key>children</key>\n" + inside + "\t</dict>\n"
        }
        let child = "\t\t\t<dict>\n\t\t\t\t<key>name</key>\n\t\t\t\t<string>C</string>\n\t\t\t</dict>\n"
        try (head + parent("\t\t<array>\n" + child + comment + "\t\t</array>\n") + item("B") + tail).write(
            toFile: path, atomically: false, encoding: .utf8)
        try Self.write(checklist, into: path)
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let emptied = comment.isEmpty ? "\t\t<array/>\n" : "\t\t<array>\n" + comment + "\t\t</array>\n"
        #expect(text.hasPrefix(head + parent(emptied)), "\(text)")
        #expect(try TodoList(contentsOf: URL(fileURLWithPath: path)) == TodoList(markdown: checklist))
    }

    @Test("a field key XML cannot hold, written into an existing file, warns; --strict refuses it")
    func forbiddenKeyIntoExisting() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("k.plist")
        try Self.write("- [ ] a\n", into: path)
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let changed = #"- [ ] a ["k\u0001":: 1] ["k\u0002":: 2]"# + "\n"
        #expect(throws: (any Error).self) { try Self.write(changed, into: path, strict: true) }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
        let warnings = try Self.write(changed, into: path)
        #expect(warnings.map(\.message).contains(PropertyListLosses.controlCharacters), "\(warnings)")
    }
}
