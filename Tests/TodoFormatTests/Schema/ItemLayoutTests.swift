import Foundation
import Testing

@testable import TodoFormat

/// Keys todofmt has to choose when it writes into an app's file (issue 8): an item gets
/// something no item of the file has a key for, and the app may not read todofmt's key.
@Suite("Keys todofmt chooses for an app's file")
struct ItemLayoutTests {
    /// An app's list (`title`/`done`, flat, only booleans), written by Python as the app would.
    static let appList = #"[{"title": "Milk", "done": False}, {"title": "Eggs", "done": True}]"#

    /// Python statements writing `v` to the file at `p` in each format.
    static let writers: [(file: String, dump: String)] = [
        ("app.json", "open(p, 'w').write(json.dumps(v, indent=2) + '\\n')"),
        ("app.plist", "plistlib.dump(v, open(p, 'wb'))"),
        ("app.bplist", "plistlib.dump(v, open(p, 'wb'), fmt=plistlib.FMT_BINARY)"),
    ]
    static let yamlWriter = (
        file: "app.yaml", dump: "import yaml; open(p, 'w').write(yaml.safe_dump(v, sort_keys=False))"
    )

    static func make(_ file: String, _ value: String, dump: String, in directory: TemporaryDirectory) throws -> String {
        try Python.run(
            Python.prelude + """
                v = \(value)
                p = os.path.join(d, \(String(reflecting: file)))
                \(dump)
                """, in: directory)
        return directory.path(file)
    }

    static func write(_ markdown: String, into path: String, options: ListOptions = ListOptions(), strict: Bool = false)
        throws -> [ConversionWarning]
    {
        let checklist = path + ".md"
        try markdown.write(toFile: checklist, atomically: false, encoding: .utf8)
        return try Conversion(input: .at(checklist), output: .at(path), options: options, strict: strict).run()
    }

    static func chosen(_ key: String, for what: String, role: String) -> String {
        "the file's items have no key for \(what): todofmt used the key \(key), which the app may not read "
            + "(name the key with --field \(role)=KEY)"
    }

    @Test(
        "nested items and a custom status in a flat list of booleans: todofmt's keys, each named in a warning",
        arguments: writers.map(\.file))
    func chosenKeysWarn(_ file: String) throws {
        try Self.checkChosenKeys(Self.writers.first { $0.file == file }!)
    }

    @Test("the same in YAML", .needsYAML)
    func chosenKeysWarnInYAML() throws {
        try Self.checkChosenKeys(Self.yamlWriter)
        try Self.checkNamedKey(Self.yamlWriter)
    }

    static func checkChosenKeys(_ writer: (file: String, dump: String)) throws {
        let directory = try TemporaryDirectory()
        let path = try make(writer.file, appList, dump: writer.dump, in: directory)
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let checklist = "- [ ] Milk\n  - [ ] Oat\n- [/] Eggs\n"
        // --strict refuses and leaves the file as it was.
        #expect(throws: ConversionError.self) { try write(checklist, into: path, strict: true) }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)

        let warnings = try write(checklist, into: path)
        #expect(
            warnings.filter { $0.kind == .keys } == [
                ConversionWarning(
                    .keys, chosen("children", for: "nested items", role: "children"), firstItem: "1 Milk"),
                ConversionWarning(.keys, chosen("status", for: "a custom status", role: "status"), firstItem: "2 Eggs"),
            ])
        let list = try TodoList(contentsOf: .file(path))
        #expect(list.items.map(\.name) == ["Milk", "Eggs"])
        #expect(list.items[0].children.map(\.name) == ["Oat"])
        #expect(list.items[1].status == .custom("/"))

        // A new nested item under an item of a list that has nested items: the file's key, no warning.
        #expect(try write(checklist + "  - [ ] Brown\n", into: path).filter { $0.kind == .keys }.isEmpty)
    }

    @Test("a key --field names is the app's: written, no warning", arguments: writers.map(\.file))
    func namedKeyIsQuiet(_ file: String) throws {
        try Self.checkNamedKey(Self.writers.first { $0.file == file }!)
    }

    static func checkNamedKey(_ writer: (file: String, dump: String)) throws {
        let directory = try TemporaryDirectory()
        let path = try make(writer.file, appList, dump: writer.dump, in: directory)
        let options = ListOptions(schema: ItemSchema(naming: [.children: "subtasks"]))
        #expect(try write("- [ ] Milk\n  - [ ] Oat\n- [x] Eggs\n", into: path, options: options).isEmpty)
        let list = try TodoList(contentsOf: .file(path), options: options)
        #expect(list.items[0].children.map(\.name) == ["Oat"])
        // Python reads the nested item under the app's key.
        let found = try Python.run(
            Python.prelude + """
                p = \(String(reflecting: path))
                if p.endswith('.json'): v = json.load(open(p))
                elif p.endswith('.yaml'):
                    import yaml; v = yaml.safe_load(open(p))
                else: v = plistlib.load(open(p, 'rb'))
                print(v[0]['subtasks'][0]['title'])
                """, in: directory)
        #expect(found.trimmingCharacters(in: .whitespacesAndNewlines) == "Oat")
    }

    @Test("--field checked=KEY names the key a done item gets in a file whose items have no done key")
    func namedCheckedKey() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("flat.json")
        try "[\n  {\"title\": \"a\"},\n  {\"title\": \"b\"}\n]\n".write(
            toFile: path, atomically: false, encoding: .utf8)
        let options = ListOptions(schema: ItemSchema(naming: [.checked: "isDone"]))
        #expect(try Self.write("- [x] a\n- [ ] b\n", into: path, options: options).isEmpty)
        #expect(
            try String(contentsOfFile: path, encoding: .utf8)
                == "[\n  {\"title\": \"a\", \"isDone\": true},\n  {\"title\": \"b\"}\n]\n")
    }

    @Test("a file in todofmt's own shape (name, checked) takes todofmt's keys without a warning")
    func ownShapeIsQuiet() throws {
        let directory = try TemporaryDirectory()
        let path = try Self.make(
            "own.json", #"[{"name": "a", "checked": False}]"#,
            dump: "open(p, 'w').write(json.dumps(v, indent=2) + '\\n')", in: directory)
        #expect(try Self.write("- [ ] a\n  - [/] b\n", into: path).isEmpty)
        #expect(try TodoList(contentsOf: .file(path)).items[0].children[0].status == .custom("/"))
    }

    /// Mappings of words to custom statuses alone: a key of codes that are words
    /// (`phase:doing=/`), and the words for done and open themselves (`status:done=/`).
    static let wordMappings: [(key: String, word: String)] = [
        ("phase", "doing"), ("status", "done"), ("status", "open"),
    ]

    @Test(
        "a key whose words map to custom statuses alone keeps done and open, in a new file and an existing one",
        arguments: writers.map(\.file))
    func wordsMappedToCustomStatuses(_ file: String) throws {
        try Self.checkWordsMappedToCustomStatuses(Self.writers.first { $0.file == file }!)
    }

    @Test("the same in YAML", .needsYAML)
    func wordsMappedToCustomStatusesInYAML() throws {
        try Self.checkWordsMappedToCustomStatuses(Self.yamlWriter)
        try Self.checkValuesNamingNoStatus(Self.yamlWriter)
    }

    @Test(
        "a key mapped to custom statuses alone gives a value that names no status as a field, which converting keeps",
        arguments: writers.map(\.file))
    func valuesNamingNoStatus(_ file: String) throws {
        try Self.checkValuesNamingNoStatus(Self.writers.first { $0.file == file }!)
    }

    /// Before, `idea` and 5 said nothing of done-ness and were no field either: converting
    /// the list to a checklist, or any other format, dropped them without a warning.
    static func checkValuesNamingNoStatus(_ writer: (file: String, dump: String)) throws {
        let directory = try TemporaryDirectory()
        var schema = ItemSchema(naming: [.checked: "done"])
        schema.mapping("2", of: "phase", to: .custom("/"))
        let options = ListOptions(schema: schema)
        let path = try make(
            writer.file,
            #"[{"name": "a", "done": True, "phase": "idea"}, {"name": "b", "done": False, "phase": 5}, {"name": "c", "done": False, "phase": 2}, {"name": "d", "done": True, "phase": 0}]"#,
            dump: writer.dump, in: directory)
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let checklist = directory.path("list.md")
        #expect(try Conversion(input: .at(path), output: .at(checklist), options: options, strict: true).run().isEmpty)
        let expected = "- [x] a [phase:: idea]\n- [ ] b [phase:: 5]\n- [/] c\n- [x] d\n"
        #expect(try String(contentsOfFile: checklist, encoding: .utf8) == expected)
        // Written back unchanged, the file is as it was; with boxes changed, the values stay.
        #expect(try write(expected, into: path, options: options, strict: true).isEmpty)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
        #expect(
            try write(
                "- [ ] a [phase:: idea]\n- [x] b [phase:: 5]\n- [/] c\n- [ ] d\n", into: path, options: options,
                strict: true
            ).isEmpty)
        let list = try TodoList(contentsOf: .file(path), options: options)
        #expect(list.items.map(\.status) == [.open, .done, .custom("/"), .open])
        #expect(list.items.map(\.fields) == [[Field("phase", .string("idea"))], [Field("phase", .integer(5))], [], []])
        // Codes kept as text: an item made open or done, or a new one, gets the empty string
        // or a word for done, never the text `"0"`, which reads back as the custom status
        // `0`; a character no code names (`?`) is a custom status, and goes (helper hunt
        // 119: both stayed, or became `"0"`).
        let text = try make(
            "text-" + writer.file,
            #"[{"name": "a", "done": False, "phase": "2"}, {"name": "b", "done": False, "phase": "?"}, {"name": "c", "done": False, "phase": "idea"}]"#,
            dump: writer.dump, in: directory)
        #expect(try TodoList(contentsOf: .file(text), options: options).items[1].status == .custom("?"))
        let edited = "- [ ] a\n- [x] b\n- [ ] c [phase:: idea]\n- [x] new\n- [ ] newer\n"
        #expect(try write(edited, into: text, options: options, strict: true).isEmpty)
        #expect(
            try TodoList(contentsOf: .file(text), options: options).items.map(\.status) == [
                .open, .done, .open, .done, .open,
            ])
        #expect(try TodoList(contentsOf: .file(text), options: options).items.map(\.fields.count) == [0, 0, 1, 0, 0])
        // A mapping of the word for done: `?` unchecked goes too.
        var words = ItemSchema(naming: [.checked: "done"])
        words.mapping("done", of: "status", to: .custom("/"))
        let mapped = try make(
            "words-" + writer.file,
            #"[{"name": "a", "done": True, "status": "?"}, {"name": "b", "done": False, "status": "done"}]"#,
            dump: writer.dump, in: directory)
        let wordOptions = ListOptions(schema: words)
        #expect(try write("- [ ] a\n- [/] b\n", into: mapped, options: wordOptions, strict: true).isEmpty)
        #expect(
            try TodoList(contentsOf: .file(mapped), options: wordOptions).items.map(\.status) == [.open, .custom("/")])
        // A code for 0 (`phase:0=/`): an item leaving it does not get 0 (helper hunt 121).
        var zero = ItemSchema(naming: [.checked: "done"])
        zero.mapping("0", of: "phase", to: .custom("/"))
        let zeroOptions = ListOptions(schema: zero)
        let zeroPath = try make(
            "zero-" + writer.file,
            #"[{"name": "a", "done": False, "phase": 0}, {"name": "b", "done": False, "phase": 0}]"#,
            dump: writer.dump, in: directory)
        #expect(try write("- [x] a\n- [ ] b\n", into: zeroPath, options: zeroOptions, strict: true).isEmpty)
        #expect(try TodoList(contentsOf: .file(zeroPath), options: zeroOptions).items.map(\.status) == [.done, .open])
        // A new file of the checklist reads back as the checklist.
        let fresh = directory.path("fresh-" + writer.file.replacingOccurrences(of: "bplist", with: "plist"))
        #expect(try write(expected, into: fresh, options: options, strict: true).isEmpty)
        let back = directory.path("back.md")
        #expect(try Conversion(input: .at(fresh), output: .at(back), options: options, strict: true).run().isEmpty)
        #expect(try String(contentsOfFile: back, encoding: .utf8) == expected)
    }

    /// Before, a done item got the empty string, a word for open, in the mapped key after its
    /// checked key (and `done` where the user maps `done` to `/`): it read back as open. In
    /// JSON, a file in todofmt's own shape had its done items unchecked.
    static func checkWordsMappedToCustomStatuses(_ writer: (file: String, dump: String)) throws {
        let directory = try TemporaryDirectory()
        let checklist = "- [ ] a\n- [x] b\n- [/] c\n"
        let statuses: [TodoStatus] = [.open, .done, .custom("/")]
        for (key, word) in wordMappings {
            var schema = ItemSchema()
            schema.mapping(word, of: key, to: .custom("/"))
            let options = ListOptions(schema: schema)
            // A new file (a property list's kind follows from the extension's: XML).
            let fresh = directory.path(
                "fresh-\(key)-\(word)-" + writer.file.replacingOccurrences(of: "bplist", with: "plist"))
            #expect(try write(checklist, into: fresh, options: options, strict: true).isEmpty)
            #expect(try TodoList(contentsOf: .file(fresh), options: options).items.map(\.status) == statuses)
            // A file in todofmt's own shape, made by Python.
            let own = try make(
                "own-\(key)-\(word)-" + writer.file,
                #"[{"name": "a", "checked": False}, {"name": "b", "checked": True}, {"name": "c", "checked": False, "status": "/"}]"#,
                dump: writer.dump, in: directory)
            _ = try write(checklist, into: own, options: options)
            #expect(try TodoList(contentsOf: .file(own), options: options).items.map(\.status) == statuses)
            // A file whose items hold the empty string in the key, a word for open: checked,
            // an item gets a word for done there.
            let empty = try make(
                "empty-\(key)-\(word)-" + writer.file,
                #"[{"name": "a", "checked": False, "\#(key)": ""}, {"name": "b", "checked": False, "\#(key)": ""}, {"name": "c", "checked": False, "\#(key)": "\#(word)"}]"#,
                dump: writer.dump, in: directory)
            #expect(try write(checklist, into: empty, options: options, strict: true).isEmpty)
            #expect(try TodoList(contentsOf: .file(empty), options: options).items.map(\.status) == statuses)
            // Items that hold the mapped word itself, checked and unchecked: the word goes
            // (helper hunt 120: `done` mapped to `/` stayed on a checked item).
            let held = try make(
                "held-\(key)-\(word)-" + writer.file,
                #"[{"name": "a", "checked": False, "\#(key)": "\#(word)"}, {"name": "b", "checked": False, "\#(key)": "\#(word)"}]"#,
                dump: writer.dump, in: directory)
            #expect(try write("- [x] a\n- [ ] b\n", into: held, options: options, strict: true).isEmpty)
            #expect(try TodoList(contentsOf: .file(held), options: options).items.map(\.status) == [.done, .open])
        }
        // A file whose status key holds words: `done` means `/`, so a done item gets the
        // file's other word for done, and where it has none, another word for done.
        var schema = ItemSchema()
        schema.mapping("done", of: "status", to: .custom("/"))
        let options = ListOptions(schema: schema)
        for (name, other, expected) in [("finished", "finished", "finished"), ("none", "Open", "Done")] {
            let path = try make(
                "\(name)-" + writer.file,
                #"[{"name": "a", "status": "\#(other)"}, {"name": "b", "status": "done"}, {"name": "c", "status": "open"}]"#,
                dump: writer.dump, in: directory)
            #expect(try TodoList(contentsOf: .file(path), options: options).items[1].status == .custom("/"))
            #expect(try write("- [x] a\n- [x] b\n- [ ] c\n", into: path, options: options, strict: true).isEmpty)
            #expect(
                try TodoList(contentsOf: .file(path), options: options).items.map(\.status) == [.done, .done, .open])
            // Read without the mapping, the key holds the word.
            let fields = try TodoList(contentsOf: .file(path)).items.map(\.status)
            #expect(fields == [.done, .done, .open])
            let words = try Python.run(
                Python.prelude + """
                    p = \(String(reflecting: path))
                    if p.endswith('.json'): v = json.load(open(p))
                    elif p.endswith('.yaml'):
                        import yaml; v = yaml.safe_load(open(p))
                    else: v = plistlib.load(open(p, 'rb'))
                    print(' '.join(i['status'] for i in v))
                    """, in: directory)
            #expect(words.trimmingCharacters(in: .whitespacesAndNewlines) == "\(expected) \(expected) open")
        }
    }
}
