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
}
