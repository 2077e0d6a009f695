import Foundation
import Testing

@testable import TodoFormat

/// Writing an item's fields into a file that has the item (`ItemPatch`): the fields come
/// back in the list's order, also where the file's other items put the keys in another
/// order, and the other items keep their bytes.
@Suite("Fields written into an existing item")
struct ItemPatchTests {
    #if YAML
    static let formats: [DocumentFormat] = [.json, .plist, .yaml]
    #else
    static let formats: [DocumentFormat] = [.json, .plist]
    #endif

    /// The first item puts `prio` before `tag`, which teaches the file that key order.
    static let base = "- [ ] Milk [prio:: 1] [tag:: a]\n- [ ] Bread [tag:: rye] [n:: 2]\n- [ ] Tea\n"

    /// The second item's fields, as the checklist gives them.
    static let edits = [
        "[tag:: rye] [prio:: 1] [n:: 2]",
        "[tag:: rye] [n:: 2] [prio:: 1]",
        "[prio:: 1] [tag:: rye] [n:: 2]",
        "[n:: 2] [tag:: rye]",
        "[n:: 3] [tag:: rye]",
        "[x:: 1] [n:: 2] [y:: 2] [tag:: rye] [z:: 3]",
        "[tag:: rye]",
        // A field named as a role goes under `fields`, with the fields after it.
        "[status:: idea] [tag:: rye] [n:: 2]",
        "[tag:: rye] [section:: x] [n:: 2]",
    ]

    /// An item whose file has a `fields` object (for its `status`), and the orders it takes.
    static let nestedBase = "- [ ] A [a:: 1] [status:: idea] [b:: 2]\n- [ ] Milk [prio:: 1]\n- [ ] Tea\n"
    static let nestedEdits = [
        "[status:: idea] [a:: 1] [b:: 2]",
        "[a:: 1] [b:: 2] [status:: idea]",
        "[b:: 2] [status:: idea] [a:: 1]",
        "[a:: 1] [status:: idea] [section:: s] [b:: 2]",
        "[a:: 1] [status:: idea] [x:: 0] [section:: s] [b:: 2]",
        "[a:: 1] [b:: 2]",
    ]

    @Test("fields come back in the list's order", arguments: formats, edits)
    func order(format: DocumentFormat, fields: String) throws {
        try Self.check(
            format, base: Self.base, edited: Self.base.replacingOccurrences(of: "[tag:: rye] [n:: 2]", with: fields))
    }

    @Test("fields beside an item's `fields` object come back in the list's order", arguments: formats, nestedEdits)
    func nestedOrder(format: DocumentFormat, fields: String) throws {
        let edited = Self.nestedBase.replacingOccurrences(of: "[a:: 1] [status:: idea] [b:: 2]", with: fields)
        try Self.check(format, base: Self.nestedBase, edited: edited)
    }

    @Test(
        "a file whose keys stand in another order than todofmt's: a reorder of an item's fields is written",
        arguments: [
            (
                #"[{"name": "A", "checked": false, "fields": {"status": "idea"}, "a": 1}]"#,
                "- [ ] A [a:: 1] [status:: idea]"
            ),
            (#"[{"name": "I0", "checked": false, "title": "idea", "c": 1}]"#, "- [ ] I0 [c:: 1] [title:: idea]"),
        ])
    func foreignKeyOrder(json: String, edited: String) throws {
        let directory = try TemporaryDirectory()
        try json.write(toFile: directory.path("a.json"), atomically: false, encoding: .utf8)
        // The same in an XML property list, its keys in the JSON file's order, as an app writes it.
        try Python.run(
            Python.prelude + """
                v = json.load(open(os.path.join(d, "a.json")))
                open(os.path.join(d, "a.plist"), "wb").write(plistlib.dumps(v, sort_keys=False))
                """, in: directory)
        let checklist = directory.path("e.md")
        try (edited + "\n").write(toFile: checklist, atomically: false, encoding: .utf8)
        for name in ["a.json", "a.plist"] {
            let path = directory.path(name)
            _ = try Conversion(input: .at(checklist), output: .at(path)).run()
            #expect(
                try TodoList(contentsOf: .file(path)).items == TodoList(contentsOf: .file(checklist)).items, "\(name)")
        }
    }

    @Test(
        "an item that moves and changes keeps its fields in the list's order, in the file's places for its keys",
        arguments: [
            (#"[{"c": 2, "name": "T0"}]"#, "- [ ] NEW\n- [ ] T0 [q:: 4] [c:: 2]\n"),
            (#"[{"c": 2, "name": "T0", "d": 3}, {"name": "X"}]"#, "- [ ] X\n- [ ] T0 [d:: 3] [c:: 2]\n"),
            (
                #"[{"p": 1, "name": "T0"}, {"name": "T2", "c": 1, "p": 2}, {"name": "T3"}]"#,
                "- [ ] T0 [p:: 1]\n- [ ] T3\n- [ ] T2 [p:: 2] [c:: 1]\n"
            ),
        ])
    func movedAndChanged(json: String, edited: String) throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("m.json")
        try json.write(toFile: path, atomically: false, encoding: .utf8)
        let checklist = directory.path("m.md")
        try edited.write(toFile: checklist, atomically: false, encoding: .utf8)
        _ = try Conversion(input: .at(checklist), output: .at(path)).run()
        #expect(try TodoList(contentsOf: .file(path)).items == TodoList(contentsOf: .file(checklist)).items)
    }

    /// Writes `base` into a new file of `format`, then `edited` into that file: the file reads
    /// as `edited`, and its items named Milk and Tea keep their text.
    static func check(_ format: DocumentFormat, base: String, edited: String) throws {
        let directory = try TemporaryDirectory()
        let source = directory.path("list.md")
        try base.write(toFile: source, atomically: false, encoding: .utf8)
        let path = directory.path("list.\(format == .plist ? "plist" : format.rawValue)")
        _ = try Conversion(input: .at(source), output: .at(path)).run()
        let before = try String(contentsOfFile: path, encoding: .utf8)

        try edited.write(toFile: source, atomically: false, encoding: .utf8)
        _ = try Conversion(input: .at(source), output: .at(path)).run()
        let expected = try TodoList(contentsOf: .file(source))
        let read = try TodoList(contentsOf: .file(path))
        #expect(read.items == expected.items, "\(edited)")
        // The other items' text stays.
        let after = try String(contentsOfFile: path, encoding: .utf8)
        for name in ["Milk", "Tea"] {
            let line = try #require(before.split(separator: "\n").first { $0.contains(name) })
            #expect(after.contains(line))
        }
    }
}
