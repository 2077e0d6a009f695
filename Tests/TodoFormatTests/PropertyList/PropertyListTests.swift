import Foundation
import Testing

@testable import TodoFormat

/// The shapes of docs/APP-SHAPES.md sections 1 and 2, made by plistlib, with dates, data, nested
/// dictionaries and unicode among their values.
enum Shapes {
    static let make =
        Python.prelude + """
            when = datetime.datetime(2024, 5, 1, 9, 30, 15)
            tasks = [
                {"title": "Milk", "done": False, "added": when, "id": 7},
                {"title": "Eggs ünïcödé 😀", "done": True, "blob": b"\\x00\\x01\\xff", "meta": {"aisle": 4, "tags": ["dairy", "fresh"]}},
                {"title": "Bread", "done": False, "price": 2.5},
            ]
            todos = [{"name": t["title"], "checked": t["done"]} for t in tasks]
            app = {"NSWindow Frame main": "0 0 390 844", "launchCount": 12, "lastOpened": when}
            def dump(name, value, binary=True):
                with open(os.path.join(d, name), "wb") as f:
                    plistlib.dump(value, f, fmt=plistlib.FMT_BINARY if binary else plistlib.FMT_XML, sort_keys=False)
            dump("array.bplist.plist", tasks)
            dump("array.xml.plist", tasks, binary=False)
            dump("prefs-tasks.plist", {**app, "tasks": tasks})
            dump("prefs-tasks.xml.plist", {**app, "tasks": tasks}, binary=False)
            dump("prefs-todoskey.plist", {**app, "TodosKey": json.dumps(todos).encode()})
            dump("prefs-two-lists.plist", {**app, "tasks": tasks, "TodosKey": json.dumps(todos).encode()})
            with open(os.path.join(d, "todos.json"), "w") as f: json.dump(todos, f)
            with open(os.path.join(d, "object.json"), "w") as f: json.dump({"version": 3, "items": tasks[:1] and [{"title": "Milk", "completed": False, "position": 1}, {"title": "Eggs", "completed": True, "position": 2}]}, f, indent=2)
            """

    static func make(in directory: TemporaryDirectory) throws {
        try Python.run(make, in: directory)
    }

    /// What plistlib (or json) loads from a file, as comparable text.
    static func loaded(_ name: String, in directory: TemporaryDirectory) throws -> String {
        try Python.run(
            Python.prelude + """
                p = os.path.join(d, sys.argv[2] if len(sys.argv) > 2 else "")
                """, in: directory)
    }
}

@Suite("Property lists and the app shapes")
struct PropertyListTests {
    static func load(_ path: String, in directory: TemporaryDirectory) throws -> String {
        try Python.run(
            Python.prelude + """
                p = os.path.join(d, \(String(reflecting: path)))
                with open(p, "rb") as f: data = f.read()
                value = json.loads(data) if p.endswith(".json") else plistlib.loads(data)
                print(canon(value))
                """, in: directory)
    }

    @Test(
        "every shape reads without flags",
        arguments: [
            "array.bplist.plist", "array.xml.plist", "prefs-tasks.plist", "prefs-tasks.xml.plist",
            "prefs-todoskey.plist", "todos.json",
        ])
    func reads(name: String) throws {
        let directory = try TemporaryDirectory()
        try Shapes.make(in: directory)
        let list = try TodoList(contentsOf: .file(directory.path(name)))
        #expect(list.items.map(\.name) == ["Milk", "Eggs ünïcödé 😀", "Bread"])
        #expect(list.items.map(\.isChecked) == [false, true, false])
        if !name.contains("todoskey") && !name.hasSuffix(".json") {
            #expect(
                list.items[0].fields == [
                    Field("added", .date(ISO8601.parse("2024-05-01T09:30:15Z".utf8)!)), Field("id", .integer(7)),
                ])
            #expect(
                list.items[1].fields == [
                    Field("blob", .data(Data([0, 1, 0xFF]))),
                    Field(
                        "meta",
                        .dictionary([
                            Field("aisle", .integer(4)), Field("tags", .array([.string("dairy"), .string("fresh")])),
                        ])),
                ])
            #expect(list.items[2].fields == [Field("price", .double(2.5))])
        }
    }

    @Test("a file with two candidate lists names them; --key picks one")
    func twoLists() throws {
        let directory = try TemporaryDirectory()
        try Shapes.make(in: directory)
        let path = directory.path("prefs-two-lists.plist")
        #expect(
            throws: ConversionError.noList(
                path: path, reason: "several keys hold todo lists (tasks, TodosKey); pick one with --key")
        ) {
            try TodoList(contentsOf: .file(path))
        }
        let todos = try TodoList(contentsOf: .file(path), options: ListOptions(key: "TodosKey"))
        #expect(todos.items.map(\.name) == ["Milk", "Eggs ünïcödé 😀", "Bread"])
        #expect(todos.items.map(\.isChecked) == [false, true, false])
        let notAList = try #require(throws: ConversionError.self) {
            try TodoList(contentsOf: .file(path), options: ListOptions(key: "launchCount"))
        }
        #expect(notAList.description == "\(path): the value under 'launchCount' is not a list of items")
    }

    @Test(
        "X to checklist to X gives back the same data, other keys and key names untouched",
        arguments: [
            "array.bplist.plist", "array.xml.plist", "prefs-tasks.plist", "prefs-tasks.xml.plist",
            "prefs-todoskey.plist", "todos.json",
            "object.json",
        ])
    func roundTrip(name: String) throws {
        let directory = try TemporaryDirectory()
        try Shapes.make(in: directory)
        let path = directory.path(name)
        let before = try Self.load(name, in: directory)
        let original = try Data(contentsOf: URL(fileURLWithPath: path))
        let markdown = directory.path("list.md")
        _ = try Conversion(input: .at(path), output: .at(markdown)).run()
        _ = try Conversion(input: .at(markdown), output: .at(path)).run()
        #expect(try Self.load(name, in: directory) == before)
        // The format stays: binary stays binary, XML stays XML.
        let after = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(after.starts(with: Data("bplist00".utf8)) == original.starts(with: Data("bplist00".utf8)))
    }

    @Test("checklist to X to checklist gives the same items", arguments: [DocumentFormat.plist, .bplist, .json])
    func fromChecklist(format: DocumentFormat) throws {
        for fixture in Fixture.files(in: "markdown") {
            var list = try TodoList(markdown: Fixture.text(fixture))
            list.metadata = []
            let bytes = try list.encoded(as: format)
            let back = try TodoList(bytes: bytes, format: format)
            var expected = list
            if format == .plist {
                // XML property list dates are whole seconds.
                expected = Self.wholeSeconds(expected)
            }
            if format == .plist || format == .bplist {
                // Property lists have no null.
                expected = Self.withoutNulls(expected)
            }
            if format == .json { expected = JSONListTests.jsonView(of: expected) }
            #expect(back == expected, "\(fixture)")
        }
    }

    /// What property lists keep: no nulls.
    static func withoutNulls(_ list: TodoList) -> TodoList {
        list.mappingValues { $0 == .null ? nil : $0 }
    }

    /// What XML property lists keep: dates in whole seconds.
    static func wholeSeconds(_ list: TodoList) -> TodoList {
        list.mappingValues { v in
            if case .date(let d) = v {
                return .date(Date(timeIntervalSince1970: d.timeIntervalSince1970.rounded(.down)))
            }
            return v
        }
    }

    @Test(
        "plistlib and plistutil read what todofmt writes, in both formats", arguments: [DocumentFormat.plist, .bplist])
    func interop(format: DocumentFormat) throws {
        let directory = try TemporaryDirectory()
        let list = try TodoList(markdown: Fixture.text("markdown/fields.md") + "- [/] ünïcödé 😀 & <xml>\n")
        let path = directory.path("out.plist")
        try list.write(to: .file(path), format: format)
        let loaded = try Python.run(
            Python.prelude + """
                with open(os.path.join(d, "out.plist"), "rb") as f: v = plistlib.load(f)
                print(len(v), v[0]["name"], v[0]["due"].isoformat(), v[3]["blob"], v[5]["name"], v[5]["status"])
                """, in: directory)
        #expect(loaded == "6 Pay rent 2024-06-01T09:00:00 b'Hello' ünïcödé 😀 & <xml> /\n")
        // plistutil converts it to the other format, and todofmt reads that the same.
        let other = directory.path("other.plist")
        let result = try ExternalTool.run(
            "plistutil", ["-i", path, "-o", other, "-f", format == .plist ? "bin" : "xml"])
        #expect(result.status == 0, "\(result.stderr)")
        let a = try TodoList(contentsOf: .file(path))
        let b = try TodoList(contentsOf: .file(other))
        #expect(a == b)
        // Everything but the null inside a dictionary, which property lists cannot hold.
        #expect(a == Self.withoutNulls(list))
    }

    @Test("the readers agree with Foundation's PropertyListSerialization")
    func foundationAgrees() throws {
        let directory = try TemporaryDirectory()
        try Shapes.make(in: directory)
        for name in ["array.bplist.plist", "array.xml.plist", "prefs-tasks.plist"] {
            let data = try Data(contentsOf: URL(fileURLWithPath: directory.path(name)))
            let foundation = try PropertyListSerialization.propertyList(from: data, format: nil)
            let ours = try XMLPropertyListWriterTests.value(of: Array(data), binary: !name.contains("xml"), path: name)
            let encoded = try PropertyListSerialization.data(fromPropertyList: foundation, format: .xml, options: 0)
            let oursEncoded = XMLPropertyListWriterTests.xml(ours)
            let reparsed = try PropertyListSerialization.propertyList(from: Data(oursEncoded.utf8), format: nil)
            #expect(NSDictionary(dictionary: ["v": reparsed]).isEqual(to: ["v": foundation]), "\(name)")
            // And the other way: what Foundation writes, todofmt reads as the same value
            // (Foundation's dictionaries have no key order, so keys are compared sorted).
            let fromFoundation = try XMLPropertyListWriterTests.value(of: Array(encoded), binary: false, path: name)
            #expect(Self.sortingKeys(fromFoundation) == Self.sortingKeys(ours), "\(name)")
        }
    }

    /// The value with every dictionary's keys in sorted order.
    static func sortingKeys(_ value: FieldValue) -> FieldValue {
        switch value {
        case .array(let values): .array(values.map(sortingKeys))
        case .dictionary(let fields):
            .dictionary(fields.map { Field($0.key, sortingKeys($0.value)) }.sorted { $0.key < $1.key })
        default: value
        }
    }

    @Test("writing into a preferences file keeps its other keys, its format and its key names")
    func writeIntoPreferences() throws {
        let directory = try TemporaryDirectory()
        try Shapes.make(in: directory)
        let checklist = directory.path("new.md")
        try "- [x] Milk [added:: 2024-05-01T09:30:15Z] [id:: 7]\n- [ ] Butter\n".write(
            toFile: checklist, atomically: false, encoding: .utf8)
        for name in ["prefs-tasks.plist", "prefs-todoskey.plist"] {
            _ = try Conversion(input: .at(checklist), output: .at(directory.path(name))).run()
        }
        let tasks = try Self.load("prefs-tasks.plist", in: directory)
        #expect(
            tasks == """
                {"NSWindow Frame main": "0 0 390 844", "launchCount": ["int", 12], "lastOpened": ["date", "2024-05-01T09:30:15"], "tasks": [{"title": "Milk", "done": ["bool", true], "added": ["date", "2024-05-01T09:30:15"], "id": ["int", 7]}, {"title": "Butter", "done": ["bool", false]}]}

                """)
        let todos = try Python.run(
            Python.prelude + """
                with open(os.path.join(d, "prefs-todoskey.plist"), "rb") as f: v = plistlib.load(f)
                print(sorted(v.keys()), json.loads(v["TodosKey"]))
                """, in: directory)
        #expect(
            todos
                == "['NSWindow Frame main', 'TodosKey', 'lastOpened', 'launchCount'] [{'name': 'Milk', 'checked': True, 'added': '2024-05-01T09:30:15Z', 'id': 7}, {'name': 'Butter', 'checked': False}]\n"
        )
    }

    @Test("a JSON object root keeps its other keys; an order field follows the new order")
    func jsonObjectAndOrder() throws {
        let directory = try TemporaryDirectory()
        try Shapes.make(in: directory)
        let path = directory.path("object.json")
        let checklist = directory.path("moved.md")
        try "- [x] Eggs [position:: 2]\n- [ ] Milk [position:: 1]\n- [ ] Tea\n".write(
            toFile: checklist, atomically: false, encoding: .utf8)
        _ = try Conversion(input: .at(checklist), output: .at(path)).run()
        let loaded = try Self.load("object.json", in: directory)
        #expect(
            loaded == """
                {"version": ["int", 3], "items": [{"title": "Eggs", "completed": ["bool", true], "position": ["int", 2]}, {"title": "Milk", "completed": ["bool", false], "position": ["int", 3]}, {"title": "Tea", "completed": ["bool", false], "position": ["int", 4]}]}

                """)
    }

    @Test("mixed 0/1 and true/false checked values survive a round trip, with --field naming the keys")
    func mixedCheckedTypes() throws {
        let directory = try TemporaryDirectory()
        try Python.run(
            Python.prelude + """
                records = [{"CheckBox": 0, "Comments": "", "ToDo": "Add help"}, {"CheckBox": False, "Notes": "", "ToDo": "Drag rows"},
                           {"CheckBox": True, "Notes": "Fertig!", "ToDo": "Update icons"}, {"CheckBox": 1, "ToDo": "Ship"}]
                with open(os.path.join(d, "list.edenlist"), "wb") as f:
                    plistlib.dump({"Records": records, "Version": "1.1.0"}, f, fmt=plistlib.FMT_XML, sort_keys=False)
                """, in: directory)
        let path = directory.path("list.edenlist")
        let before = try Self.load("list.edenlist", in: directory)
        let unnamed = try #require(throws: ConversionError.self) {
            try TodoList(contentsOf: .file(path), format: .plist)
        }
        #expect(
            unnamed.description
                == "\(path): no todo list found: no key holds an array of items with a name (name, title, content, text, task); "
                + "keys: Records, Version. Name the list with --key and the name field with --field name=KEY")
        let options = ListOptions(schema: ItemSchema(naming: [.name: "ToDo", .checked: "CheckBox"]))
        let list = try TodoList(contentsOf: .file(path), format: .plist, options: options)
        #expect(list.items.map(\.isChecked) == [false, false, true, true])
        let markdown = directory.path("list.md")
        try list.write(to: .file(markdown))
        _ = try Conversion(input: .at(markdown), output: .at(path), outputFormat: .plist, options: options).run()
        #expect(try Self.load("list.edenlist", in: directory) == before)
    }

    /// A damaged copy of `array.bplist.plist`, or a small XML list, and where the error is:
    /// a byte offset (negative counts from the end) or a line and column.
    @Test(
        "corrupt and wrong property lists are errors at their exact place; no output is touched",
        arguments: [
            ("truncated", "not a binary property list (too short or no 'bplist00' header)", [0]),
            // Both point at the byte the test changed.
            ("bad trailer", "corrupt trailer: offset size 3, reference size 1", [-26]),
            ("bad offset", "object 26 has offset 255 outside the object area (under [2].price)", [-33]),
            ("bad length", "bad length of object 25 (under [2].title)", [-1]),
            ("xml unclosed", "expected </string>, found </dict>", [4, 35]),
            ("xml unknown", "unknown element <strng>", [2, 1]),
            ("not items", "an item is not a dictionary of keys and values", [2, 1]),
            ("no name", "item has no name (its keys: done)", [1, 15]),
            ("xml root", "the root is neither an array of items nor a dictionary holding one", [2, 1]),
        ])
    func corrupt(kind: String, message: String, place: [Int]) throws {
        var place = place
        let directory = try TemporaryDirectory()
        try Shapes.make(in: directory)
        var bytes = Array(try Data(contentsOf: URL(fileURLWithPath: directory.path("array.bplist.plist"))))
        switch kind {
        case "truncated": bytes = Array(bytes.prefix(30))
        case "bad trailer": bytes[bytes.count - 26] = 3  // offset size 3
        case "bad offset": bytes[bytes.count - 32 - 1] = 0xFF  // the table's last offset byte
        case "bad length":
            // "Bread"'s marker says its length follows as an integer, and none does.
            let at = bytes.indices.first {
                bytes[$0] == 0x55 && Array(bytes[($0 + 1)...].prefix(5)) == Array("Bread".utf8)
            }!
            bytes[at] = 0x5F
            place[0] = at + 1  // where its length should be
        case "xml unclosed":
            bytes = Array(
                "<?xml version=\"1.0\"?>\n<plist version=\"1.0\">\n<array>\n\t<dict><key>name</key><string>Milk</dict>\n"
                    .utf8)
        case "xml unknown": bytes = Array("<plist><array>\n<strng>x</strng></array></plist>".utf8)
        case "not items": bytes = Array("<plist><array>\n<string>x</string></array></plist>".utf8)
        case "xml root": bytes = Array("<plist>\n<string>x</string>\n</plist>".utf8)
        default: bytes = Array("<plist><array><dict><key>done</key><true/></dict></array></plist>".utf8)
        }
        let input = directory.path("bad.plist")
        try Data(bytes).write(to: URL(fileURLWithPath: input))
        let output = directory.path("out.md")
        try "keep\n".write(toFile: output, atomically: false, encoding: .utf8)
        let location =
            place.count == 2
            ? TodoFormat.SourceLocation(file: input, line: place[0], column: place[1])
            : TodoFormat.SourceLocation(file: input, byteOffset: place[0] < 0 ? bytes.count + place[0] : place[0])
        #expect(throws: ParseError(message, at: location)) {
            try Conversion(input: .at(input), output: .at(output)).run()
        }
        #expect(try String(contentsOfFile: output, encoding: .utf8) == "keep\n")
    }
}

enum XMLPropertyListWriterTests {
    static func xml(_ value: FieldValue) -> String {
        var sink = ByteSink()
        XMLPropertyListWriter.write(.value(value), layout: ItemLayout(), to: &sink)
        return String(decoding: sink.buffer, as: UTF8.self)
    }

    /// A whole property list as a value, read by todofmt's readers.
    static func value(of bytes: [UInt8], binary: Bool, path: String) throws -> FieldValue {
        try bytes.withUnsafeBufferPointer { buffer in
            if binary {
                let reader = try BinaryPropertyListReader(bytes: buffer, path: path)
                return try reader.value(reader.topObject)
            }
            var reader = XMLPropertyListReader(bytes: buffer, path: path)
            let value = try reader.value(try reader.openPlist())
            try reader.closePlist()
            return value
        }
    }
}

/// Skipping a value (how an XML list's items are scanned) follows its containers without a
/// stack made for each value: the first 64 levels as bits, deeper ones in an array.
@Suite("Skipping an XML value")
struct XMLSkipValueTests {
    /// `depth` containers, dicts and arrays by turns, each holding a string, closed in order
    /// (or with `wrongAt` closed by the other tag), then a marker element.
    static func nested(_ depth: Int, wrongAt: Int? = nil) -> String {
        var open = ""
        var close = ""
        for level in 1...depth {
            let name = level % 3 == 0 ? "dict" : "array"
            open +=
                level % 3 == 0 ? "<dict><key>k</key><string>a &lt; b</string><key>v</key>" : "<array><string>x</string>"
            let closing = level == wrongAt ? (name == "dict" ? "array" : "dict") : name
            close = "</\(closing)>" + (level % 3 == 0 ? "" : "<!-- after -->") + close
        }
        return open + "<integer>1</integer>" + close + "<true/>"
    }

    @Test("containers nested 1 to 200 deep", arguments: [1, 2, 63, 64, 65, 66, 130, 200])
    func depth(_ depth: Int) throws {
        let text = Self.nested(depth)
        try Array(text.utf8).withUnsafeBufferPointer { bytes in
            var reader = XMLPropertyListReader(bytes: bytes, path: "x.plist")
            try reader.skipValue(reader.nextTag())
            let next = try reader.nextTag()
            #expect(next.is("true") && next.isEmpty, "\(depth): stopped at \(next.text)")
        }
    }

    /// A text's end is found eight bytes at a time in its first 32 bytes and by memchr past
    /// them: texts of every length around those edges, with a comment or a CDATA section
    /// (which may hold `<` and `</string>`) at each place, are skipped to the next element.
    @Test(
        "texts of 0 to 80 bytes with markup anywhere", arguments: ["", "<!-- </string> -->", "<![CDATA[</string>]]>"])
    func texts(_ markup: String) throws {
        for length in 0...80 {
            for place in Set([0, length / 2, length]) {
                let text = String(repeating: "é", count: length / 2) + String(repeating: "x", count: length % 2)
                let bytes = Array(text.utf8)
                let cut = min(place, bytes.count)
                let inner =
                    String(decoding: bytes[..<cut], as: UTF8.self) + markup
                    + String(decoding: bytes[cut...], as: UTF8.self)
                // (A place inside a character splits no character here: "é" is two bytes, and
                // places are even or at the end.)
                let xml = "<dict><key>k</key><string>\(inner)</string></dict><true/>"
                try Array(xml.utf8).withUnsafeBufferPointer { bytes in
                    var reader = XMLPropertyListReader(bytes: bytes, path: "x.plist")
                    try reader.skipValue(reader.nextTag())
                    let next = try reader.nextTag()
                    #expect(next.is("true"), "\(length), \(place), \(markup): stopped at \(next.text)")
                }
                // Without its closing tag, the text is an error naming its element.
                let open = "<string>\(inner)"
                Array(open.utf8).withUnsafeBufferPointer { bytes in
                    var reader = XMLPropertyListReader(bytes: bytes, path: "x.plist")
                    #expect(throws: ParseError.self, "\(length), \(place)") { try reader.skipValue(reader.nextTag()) }
                }
            }
        }
    }

    @Test(
        "a container closed by the other tag is an error",
        arguments: [(3, 1), (64, 64), (64, 60), (100, 66), (100, 99)])
    func wrongClose(_ depth: Int, _ wrongAt: Int) throws {
        let text = Self.nested(depth, wrongAt: wrongAt)
        let expected = wrongAt % 3 == 0 ? "dict" : "array"
        Array(text.utf8).withUnsafeBufferPointer { bytes in
            var reader = XMLPropertyListReader(bytes: bytes, path: "x.plist")
            #expect {
                try reader.skipValue(reader.nextTag())
            } throws: { error in
                "\(error)".contains("expected </\(expected)>")
            }
        }
    }
}
