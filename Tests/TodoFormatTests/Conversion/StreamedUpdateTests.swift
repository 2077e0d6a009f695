import Foundation
import Testing

@testable import TodoFormat

/// Writing a checklist into a JSON, XML property list or YAML file laid out as todofmt
/// writes one, by comparing the new file's bytes with the file's as the checklist streams
/// (`StreamedUpdate`, `YAMLStreamedUpdate`, `ListFormat.update(_:options:streaming:)`): each
/// edit must give the bytes the whole-list write gives (`update(_:with:options:)`), and
/// where the streamed write does not apply it must say so and leave the file alone.
@Suite("Streamed writes into existing JSON, XML property lists and YAML")
struct StreamedUpdateTests {
    #if YAML
    static let formats: [DocumentFormat] = [.json, .plist, .yaml]
    /// The line each format's file has for `Item 250` checked (`oneLine`).
    static let checkedLines = [
        #"  {"name": "Item 250", "checked": true, "n": 250},"#, "\t\t<true/>", "  checked: true",
    ]
    #else
    static let formats: [DocumentFormat] = [.json, .plist]
    static let checkedLines = [#"  {"name": "Item 250", "checked": true, "n": 250},"#, "\t\t<true/>"]
    #endif

    /// The format a test file's name gives.
    static func format(of path: String) -> DocumentFormat {
        path.hasSuffix(".plist") ? .plist : path.hasSuffix(".yaml") ? .yaml : .json
    }

    static let base = """
        ---
        title: Week
        ---
        # Home
        - [ ] Milk "whole" \\ 2%
        - [x] Eggs
          - [ ] Brown ones
          - [/] Free range [prio:: 2]
            - [ ] From the farm
        - [ ] Café crème 日本語 😀 [due:: 2026-01-02T09:00:00Z]
        - [ ] Bread [tag:: rye]

        # Work
        - [ ] Mail [id:: 7]
        - [ ] `code` and [a link](https://example.com)
          - [x] Review
        - [ ] Last one

        """

    /// Edits of the checklist's lines (0 is `---`): what each must come to.
    static let edits: [(name: String, edit: @Sendable ([String]) -> [String])] = [
        ("nothing", { $0 }),
        ("uncheck an item", { set($0, 5, "- [ ] Eggs") }),
        ("check a nested item", { set($0, 8, "    - [x] From the farm") }),
        ("rename the first item", { set($0, 4, "- [ ] Oat milk") }),
        ("rename the last item", { set($0, 16, "- [ ] The very last one") }),
        ("insert at the start", { insert($0, 4, "- [ ] Coffee") }),
        ("insert in the middle", { insert($0, 10, "- [ ] Butter") }),
        ("append", { $0 + ["- [ ] Tea"] }),
        ("append in the first section", { insert($0, 11, "- [ ] Jam") }),
        ("add a child", { insert($0, 7, "  - [ ] White ones") }),
        ("delete the first item", { remove($0, 4) }),
        ("delete a middle item", { remove($0, 10) }),
        ("delete the last item", { remove($0, 16) }),
        ("delete an item with children", { remove(remove(remove(remove($0, 8), 7), 6), 5) }),
        ("delete a child", { remove($0, 6) }),
        ("move the last item to the start", { insert(remove($0, 16), 4, "- [ ] Last one") }),
        ("add a field", { set($0, 10, "- [ ] Bread [tag:: rye] [prio:: 1]") }),
        ("rename a section", { set($0, 12, "# Office") }),
        ("an item twice", { insert($0, 5, "- [ ] Milk \"whole\" \\ 2%") }),
        (
            "rename two neighbours",
            { set(set($0, 9, "- [ ] Tea 日本語 😀 [due:: 2026-01-02T09:00:00Z]"), 10, "- [ ] Bored [tag:: rye]") }
        ),
        ("several edits apart", { set(set(insert($0, 15, "  - [ ] Reply"), 4, "- [x] Milk"), 10, "- [ ] Rye bread") }),
    ]

    static func set(_ lines: [String], _ i: Int, _ line: String) -> [String] {
        var lines = lines
        lines[i] = line
        return lines
    }

    static func insert(_ lines: [String], _ i: Int, _ line: String) -> [String] {
        var lines = lines
        lines.insert(line, at: i)
        return lines
    }

    static func remove(_ lines: [String], _ i: Int) -> [String] {
        var lines = lines
        lines.remove(at: i)
        return lines
    }

    /// A JSON file todofmt writes for `checklist`, at `name` in `directory`.
    static func newFile(_ checklist: String, _ name: String, in directory: TemporaryDirectory) throws -> String {
        let source = directory.path(name + ".md")
        try checklist.write(toFile: source, atomically: false, encoding: .utf8)
        let path = directory.path(name)
        _ = try Conversion(input: .at(source), output: .at(path)).run()
        return path
    }

    /// Writes the checklist `text` to `edited.md` in `directory`; returns its path.
    static func checklist(_ text: String, in directory: TemporaryDirectory) throws -> String {
        let path = directory.path("edited.md")
        try text.write(toFile: path, atomically: false, encoding: .utf8)
        return path
    }

    /// The streamed write of the checklist at `checklist` into the JSON file at `path`,
    /// committed; nil where it does not apply.
    static func streamed(_ checklist: String, into path: String, options: ListOptions = ListOptions()) throws
        -> [ConversionWarning]?
    {
        let target = format(of: path)
        let format = try FormatRegistry.format(target)
        let pending = try format.update(Input(file: path), options: options) { writer in
            _ = try MarkdownFormat().read(
                Input(file: checklist), options: options, into: &writer, leavingOutTextFor: target)
        }
        try pending?.commit()
        return pending?.warnings
    }

    /// The whole-list write of the checklist at `checklist` into the JSON file at `path`, committed.
    static func whole(_ checklist: String, into path: String) throws {
        let list = try TodoList(contentsOf: .file(checklist))
        let format = try FormatRegistry.format(format(of: path))
        try format.update(Input(file: path), with: list, options: ListOptions()).commit()
    }

    static func bytes(_ path: String) throws -> [UInt8] { Array(try Data(contentsOf: URL(fileURLWithPath: path))) }

    @Test("each edit gives the whole-list write's bytes", arguments: edits.map(\.name), formats)
    func sameAsWholeList(name: String, format: DocumentFormat) throws {
        let directory = try TemporaryDirectory()
        let original = try Self.newFile(Self.base, "list.\(format)", in: directory)
        let edit = Self.edits.first { $0.name == name }!.edit
        let edited = directory.path("edited.md")
        try edit(Self.base.components(separatedBy: "\n")).joined(separator: "\n").write(
            toFile: edited, atomically: false, encoding: .utf8)
        let streamedPath = directory.path("streamed.\(format)")
        let wholePath = directory.path("whole.\(format)")
        try FileManager.default.copyItem(atPath: original, toPath: streamedPath)
        try FileManager.default.copyItem(atPath: original, toPath: wholePath)

        let warnings = try #require(try Self.streamed(edited, into: streamedPath))
        try Self.whole(edited, into: wholePath)
        #expect(try Self.bytes(streamedPath) == (try Self.bytes(wholePath)))
        // The metadata the format has no place for (raw front matter in a build without
        // YAML), said once; YAML holds it.
        #expect(warnings.filter { $0.kind == .metadata }.count == (format == .yaml ? 0 : 1))
        // And the file reads as the checklist.
        let expected = try TodoList(contentsOf: .file(edited)).encoded(as: format)
        #expect(try TodoList(contentsOf: .file(streamedPath)).encoded(as: format) == expected)
    }

    @Test(
        "checking one item of many changes one line, and an unchanged list leaves the file as it was",
        arguments: zip(formats, checkedLines))
    func oneLine(format: DocumentFormat, line: String) throws {
        let directory = try TemporaryDirectory()
        let lines = (1...500).map { "- [ ] Item \($0) [n:: \($0)]" }
        let path = try Self.newFile(lines.joined(separator: "\n") + "\n", "list.\(format)", in: directory)
        let before = try String(contentsOfFile: path, encoding: .utf8)
        let same = directory.path("same.md")
        try (lines.joined(separator: "\n") + "\n").write(toFile: same, atomically: false, encoding: .utf8)
        #expect(try Self.streamed(same, into: path) == [])
        #expect(try String(contentsOfFile: path, encoding: .utf8) == before)

        let checked = directory.path("checked.md")
        try (Self.set(lines, 249, "- [x] Item 250 [n:: 250]").joined(separator: "\n") + "\n").write(
            toFile: checked, atomically: false, encoding: .utf8)
        #expect(try Self.streamed(checked, into: path) == [])
        let after = try String(contentsOfFile: path, encoding: .utf8)
        let changed = zip(before.split(separator: "\n"), after.split(separator: "\n")).filter { $0 != $1 }
        #expect(changed.map(\.1) == [Substring(line)])
        #expect(before.split(separator: "\n").count == after.split(separator: "\n").count)
    }

    @Test("a list cut short gives the whole-list write's bytes, with and without a new item", arguments: formats)
    func cutShort(format: DocumentFormat) throws {
        let directory = try TemporaryDirectory()
        // Past the first thousand items, every item has a date: the removed items teach its key.
        let lines = (1...1200).map { $0 > 1000 ? "- [ ] Item \($0) [due:: 2026-01-02T09:00:00Z]" : "- [ ] Item \($0)" }
        let path = try Self.newFile(lines.joined(separator: "\n") + "\n", "list.\(format)", in: directory)
        for added in [[], ["- [ ] New [due:: 2026-03-04T05:06:07Z]"]] {
            let checklist = try Self.checklist(
                (lines.prefix(100) + added).joined(separator: "\n") + "\n", in: directory)
            let streamed = directory.path("streamed-\(added.count).\(format)")
            let whole = directory.path("whole-\(added.count).\(format)")
            try FileManager.default.copyItem(atPath: path, toPath: streamed)
            try FileManager.default.copyItem(atPath: path, toPath: whole)
            _ = try Self.streamed(checklist, into: streamed)
            try Self.whole(checklist, into: whole)
            #expect(try Self.bytes(streamed) == (try Self.bytes(whole)))
            #expect(try TodoList(contentsOf: .file(streamed)).items.count == 100 + added.count)
        }
    }

    @Test(
        "a field named as a role before another goes under `fields` with the fields after it, in their order",
        arguments: formats)
    func fieldNamedAsRole(format: DocumentFormat) throws {
        let directory = try TemporaryDirectory()
        let path = try Self.newFile(Self.base, "list.\(format)", in: directory)
        let before = try Self.bytes(path)
        let edited = directory.path("edited.md")
        try Self.base.replacingOccurrences(
            of: "- [ ] Bread [tag:: rye]", with: "- [ ] Bread [status:: idea] [tag:: rye]"
        )
        .write(toFile: edited, atomically: false, encoding: .utf8)
        let whole = directory.path("whole.\(format)")
        try FileManager.default.copyItem(atPath: path, toPath: whole)
        #expect(try Self.streamed(edited, into: path) != nil)
        #expect(try Self.bytes(path) != before)
        try Self.whole(edited, into: whole)
        #expect(try Self.bytes(path) == (try Self.bytes(whole)))
        #expect(try TodoList(contentsOf: .file(path)).items[3].fields.map(\.key) == ["status", "tag"])
        // A new file too.
        let new = try Self.newFile(try String(contentsOfFile: edited, encoding: .utf8), "new.\(format)", in: directory)
        #expect(try TodoList(contentsOf: .file(new)).items[3].fields.map(\.key) == ["status", "tag"])
    }

    @Test("a file the writer would not write so is left to the whole-list write, unchanged")
    func givesUp() throws {
        let directory = try TemporaryDirectory()
        let checklist = directory.path("list.md")
        try "- [ ] Milk\n- [x] Eggs\n".write(toFile: checklist, atomically: false, encoding: .utf8)
        for text in [
            // Another indentation.
            "[\n    {\"name\": \"Milk\", \"checked\": false}\n]\n",
            // An object root.
            "{\"todos\": [{\"name\": \"Milk\", \"checked\": false}]}\n",
            // A new item where every item has an integer id: the next id is the largest's
            // successor, which the whole-list write finds.
            "[\n  {\"name\": \"Milk\", \"checked\": false, \"id\": 1}\n]\n",
            // Order fields, which the whole-list write renumbers.
            "[\n  {\"name\": \"Milk\", \"checked\": false, \"order\": 1}\n]\n",
        ] {
            let path = directory.path("x.json")
            try text.write(toFile: path, atomically: false, encoding: .utf8)
            #expect(try Self.streamed(checklist, into: path) == nil, "\(text)")
            #expect(try String(contentsOfFile: path, encoding: .utf8) == text)
        }
    }

    @Test("a file with an app's keys, laid out as todofmt lays out, is written as the whole-list write writes it")
    func appKeys() throws {
        let directory = try TemporaryDirectory()
        let checklist = directory.path("list.md")
        try "- [x] Milk\n- [ ] Eggs\n- [ ] Tea\n".write(toFile: checklist, atomically: false, encoding: .utf8)
        let text = "[\n  {\"title\": \"Milk\", \"done\": false},\n  {\"title\": \"Eggs\", \"done\": false}\n]\n"
        let streamedPath = directory.path("streamed.json")
        let wholePath = directory.path("whole.json")
        try text.write(toFile: streamedPath, atomically: false, encoding: .utf8)
        try text.write(toFile: wholePath, atomically: false, encoding: .utf8)
        #expect(try Self.streamed(checklist, into: streamedPath) != nil)
        try Self.whole(checklist, into: wholePath)
        #expect(try Self.bytes(streamedPath) == (try Self.bytes(wholePath)))
        #expect(try String(contentsOfFile: streamedPath, encoding: .utf8).contains(#"{"title": "Tea", "done": false}"#))
    }

    @Test("a property list plistlib wrote, an app's keys, is written as the whole-list write writes it")
    func plistlibFile() throws {
        let directory = try TemporaryDirectory()
        try Python.run(
            Python.prelude + """
                v = [{"title": "Milk", "done": False}, {"title": "Eggs", "done": True}, {"title": "Tea", "done": False}]
                for name in ["streamed.plist", "whole.plist"]:
                    open(os.path.join(d, name), "wb").write(plistlib.dumps(v))
                """, in: directory)
        let checklist = directory.path("list.md")
        try "- [ ] Milk\n- [x] Eggs\n- [x] Tea\n- [ ] Jam\n".write(
            toFile: checklist, atomically: false, encoding: .utf8)
        #expect(try Self.streamed(checklist, into: directory.path("streamed.plist")) != nil)
        try Self.whole(checklist, into: directory.path("whole.plist"))
        let streamed = try Self.bytes(directory.path("streamed.plist"))
        #expect(streamed == (try Self.bytes(directory.path("whole.plist"))))
        let read = try Python.run(
            Python.prelude
                + "print([(i['title'], i['done']) for i in plistlib.load(open(os.path.join(d, 'streamed.plist'), 'rb'))])",
            in: directory)
        #expect(
            read.trimmingCharacters(in: .whitespacesAndNewlines)
                == "[('Milk', False), ('Eggs', True), ('Tea', True), ('Jam', False)]")
    }

    @Test(
        "a value the format cannot hold is warned of only where its item is written, once",
        arguments: zip(formats, ["[neg:: -0.0]", "[big:: 99999999999999999999]"]))
    func valueLosses(format: DocumentFormat, field: String) throws {
        let directory = try TemporaryDirectory()
        let path = try Self.newFile("- [ ] a\n- [ ] b \(field)\n- [ ] c\n", "x.\(format)", in: directory)
        let checklist = directory.path("edited.md")
        // The item with the value unchanged: nothing to say, and `--strict` writes.
        try "- [x] a\n- [ ] b \(field)\n- [ ] c\n".write(toFile: checklist, atomically: false, encoding: .utf8)
        #expect(try Self.streamed(checklist, into: path) == nil)
        #expect(try Conversion(input: .at(checklist), output: .at(path), strict: true).run() == [])
        #expect(try TodoList(contentsOf: .file(path)).items[0].status == .done)
        // The value written into an item: one warning naming it.
        let plain = try Self.newFile("- [ ] a\n- [ ] b\n- [ ] c\n", "plain.\(format)", in: directory)
        let warnings = try Conversion(input: .at(checklist), output: .at(plain)).run()
        #expect(warnings.count == 1)
        #expect(warnings.first?.kind == .values && warnings.first?.firstItem == "2 b")
    }

    @Test("two items with one identity leave the file alone and the error names both lines")
    func duplicateIdentity() throws {
        let directory = try TemporaryDirectory()
        let path = try Self.newFile("- [ ] A [id:: 1]\n- [ ] B [id:: 2]\n", "x.json", in: directory)
        let before = try Self.bytes(path)
        let checklist = directory.path("dup.md")
        try "- [ ] A [id:: 1]\n- [ ] B [id:: 1]\n".write(toFile: checklist, atomically: false, encoding: .utf8)
        #expect(try Self.streamed(checklist, into: path) == nil)
        #expect(try Self.bytes(path) == before)
        #expect {
            try Conversion(input: .at(checklist), output: .at(path)).run()
        } throws: { "\($0)".contains("lines 1 and 2 both carry id 1") }
        #expect(try Self.bytes(path) == before)
    }

    /// The file's layout is learned only after the comparison, where the list differs; a
    /// file whose items keep an order of their own (which a new file's writer does not keep)
    /// is told by its first item, before the list is read.
    @Test("a file whose items keep an order of their own takes the whole-list write", arguments: [".json", ".plist"])
    func ownOrder(suffix: String) throws {
        let directory = try TemporaryDirectory()
        let path = try Self.newFile("- [ ] A [position:: 1]\n- [ ] B [position:: 2]\n", "x" + suffix, in: directory)
        let before = try Self.bytes(path)
        let checklist = try Self.checklist("- [x] A [position:: 1]\n- [ ] B [position:: 2]\n", in: directory)
        #expect(try Self.streamed(checklist, into: path) == nil)
        #expect(try Self.bytes(path) == before)
        // So is the same list: told before it is read.
        let same = try Self.checklist("- [ ] A [position:: 1]\n- [ ] B [position:: 2]\n", in: directory)
        #expect(try Self.streamed(same, into: path) == nil)
        #expect(try Self.bytes(path) == before)
        // Where only a later item has one, the same list is no reason to leave the file
        // unread: the layout learned from it numbers every item (found by helper hunt 55).
        let later = try Self.newFile("- [ ] A\n- [ ] B [position:: 2]\n", "later" + suffix, in: directory)
        #expect(
            try Self.streamed(Self.checklist("- [ ] A\n- [ ] B [position:: 2]\n", in: directory), into: later) == nil)
    }

    /// The comparison notes the values under keys named as identities; integers, most ids,
    /// are checked for two alike only when the notes are read.
    @Test("values shared under identity keys are noted among many items, before and after a read")
    func notedIdentities() {
        let notes = ComparedWriter.Notes(schema: ItemSchema())
        // 5,000 different integers, in no order; a text and a real that read as one of them
        // are other values; an id given twice in one item counts once.
        for n in 0..<5_000 { notes.note([Field("name", .string("x")), Field("id", .integer(n * 7_919 % 5_000))]) }
        notes.note([Field("id", .string("17"))])
        notes.note([Field("id", .double(17))])
        notes.note([Field("id", .integer(9_000)), Field("id", .integer(9_000))])
        #expect(notes.noted.isEmpty)
        // The first integer again, once the notes were read: noted.
        notes.note([Field("id", .integer(0))])
        #expect(notes.noted.sharedIdentities == ["id"])
        // Past the first 32 keys met, a key's values are kept apart from the others.
        let other = ComparedWriter.Notes(schema: ItemSchema())
        other.note((0..<40).map { Field("k\($0)", .integer($0)) })
        other.note([Field("UU_ID", .integer(5)), Field("position", .integer(3))])
        #expect(other.noted.sharedIdentities.isEmpty && other.noted.hasOrder)
        other.note([Field("UU_ID", .integer(5))])
        #expect(other.noted.sharedIdentities == ["UU_ID"])
    }

    /// The file's identity key is learned after the comparison; the comparison notes the
    /// values under every key named as identities are. Two items sharing one under a key
    /// that is not the file's identity key (`uuid` on two of three items: not every item has
    /// it) are written as the whole-list write writes them.
    @Test(
        "values shared under keys named as identities that are not the file's identity key stream",
        arguments: formats)
    func sharedNamedIdentity(format: DocumentFormat) throws {
        let directory = try TemporaryDirectory()
        let text = "- [ ] A [uuid:: u1]\n- [ ] B [uuid:: u2]\n- [ ] C\n"
        let path = try Self.newFile(text, "x.\(format)", in: directory)
        let whole = try Self.newFile(text, "whole.\(format)", in: directory)
        let checklist = try Self.checklist("- [ ] A [uuid:: u1]\n- [ ] B [uuid:: u1]\n- [x] C\n", in: directory)
        #expect(try Self.streamed(checklist, into: path) != nil)
        try Self.whole(checklist, into: whole)
        #expect(try Self.bytes(path) == Self.bytes(whole))
    }

    /// An item giving its id twice counts it once, as the item is read: the streamed write
    /// applies as before the comparison came first (found by helper hunt 55, where the
    /// whole-list write took over and wrote the key twice).
    @Test("an id given twice in one item streams", arguments: formats)
    func repeatedIdentityKey(format: DocumentFormat) throws {
        let directory = try TemporaryDirectory()
        let path = try Self.newFile("- [ ] a\n- [ ] b\n", "x.\(format)", in: directory)
        let checklist = try Self.checklist("- [ ] a [id:: v] [id:: v]\n- [ ] b\n", in: directory)
        #expect(try Self.streamed(checklist, into: path) != nil)
        let items = try TodoList(contentsOf: .file(path)).items
        #expect(items.map(\.name) == ["a", "b"] && items[0].fields == [Field("id", .string("v"))])
    }

    /// Items whose ids, given twice each, share their last value: the list holds each
    /// item's first (as the whole-list write reads it), so they share no identity; the
    /// streamed write, which reads its run back from the output (where the last counts),
    /// found them shared and failed with a message naming neither item (older; seen in
    /// helper hunt 55). The whole-list write now decides, as it does for a new file.
    @Test("ids given twice in items are read as the list holds them", arguments: formats)
    func sharedRepeatedIdentity(format: DocumentFormat) throws {
        let directory = try TemporaryDirectory()
        let text = "- [ ] a [id:: 1]\n- [ ] b [id:: 2]\n"
        let path = try Self.newFile(text, "x.\(format)", in: directory)
        let whole = try Self.newFile(text, "whole.\(format)", in: directory)
        let checklist = try Self.checklist("- [ ] a [id:: 1] [id:: x]\n- [x] b [id:: 2] [id:: x]\n", in: directory)
        #expect(try Self.streamed(checklist, into: path) == nil)
        _ = try Conversion(input: .at(checklist), output: .at(path)).run()
        try Self.whole(checklist, into: whole)
        #expect(try Self.bytes(path) == Self.bytes(whole))
        // Two items that do share their id: the error names both lines.
        let fresh = try Self.newFile(text, "fresh.\(format)", in: directory)
        _ = try Self.checklist("- [ ] a [id:: 1]\n- [x] b [id:: 1]\n", in: directory)
        let before = try Self.bytes(fresh)
        #expect {
            try Conversion(input: .at(checklist), output: .at(fresh)).run()
        } throws: { "\($0)".contains("lines 1 and 2 both carry id 1") }
        #expect(try Self.bytes(fresh) == before)
    }

    @Test("a checklist with text left out streams through convert", arguments: formats)
    func textLeftOut(format: DocumentFormat) throws {
        let directory = try TemporaryDirectory()
        let text = "# Empty\n# Work\n- [ ] a [id:: 1]\n- [ ] b [id:: 2]\n"
        let path = try Self.newFile(text, "x.\(format)", in: directory)
        let before = try Self.bytes(path)
        let checklist = try Self.checklist(text, in: directory)
        let warnings = try Conversion(input: .at(checklist), output: .at(path)).run()
        #expect(warnings.contains { $0.kind == .prose })
        #expect(try Self.bytes(path) == before)
        _ = try Self.checklist(text.replacingOccurrences(of: "- [ ] b", with: "- [x] b"), in: directory)
        _ = try Conversion(input: .at(checklist), output: .at(path)).run()
        #expect(try TodoList(contentsOf: .file(path)).items.map(\.status) == [.open, .done])
    }

    @Test("convert takes the streamed write into a todofmt file and the whole-list one otherwise, alike")
    func throughConvert() throws {
        let directory = try TemporaryDirectory()
        let path = try Self.newFile(Self.base, "list.json", in: directory)
        let edited = directory.path("edited.md")
        try Self.base.replacingOccurrences(of: "- [ ] Bread", with: "- [x] Bread").write(
            toFile: edited, atomically: false, encoding: .utf8)
        let warnings = try Conversion(input: .at(edited), output: .at(path)).run()
        #expect(warnings.contains { $0.kind == .metadata })
        let expected = try TodoList(contentsOf: .file(edited)).encoded(as: .json)
        #expect(try Self.bytes(path) == expected)
    }

    #if YAML
    /// Writes `text` to `name` in `directory`, twice (`streamed.yaml`, `whole.yaml`), and
    /// `checklist` beside; returns the streamed write's warnings (nil where it does not
    /// apply) after checking that it gives the whole-list write's bytes.
    @discardableResult
    static func yamlBothWays(_ text: String, _ checklist: String, in directory: TemporaryDirectory) throws
        -> [ConversionWarning]?
    {
        let streamedPath = directory.path("streamed.yaml")
        let wholePath = directory.path("whole.yaml")
        let edited = directory.path("edited.md")
        try text.write(toFile: streamedPath, atomically: false, encoding: .utf8)
        try text.write(toFile: wholePath, atomically: false, encoding: .utf8)
        try checklist.write(toFile: edited, atomically: false, encoding: .utf8)
        let warnings = try streamed(edited, into: streamedPath)
        if warnings == nil { #expect(try String(contentsOfFile: streamedPath, encoding: .utf8) == text) }
        _ = try Conversion(input: .at(edited), output: .at(streamedPath)).run()
        try whole(edited, into: wholePath)
        #expect(try bytes(streamedPath) == (try bytes(wholePath)))
        return warnings
    }

    @Test("a YAML file todofmt wrote and a person edited since: comments, blank lines, quoting stay")
    func yamlEditedByHand() throws {
        let directory = try TemporaryDirectory()
        let path = try Self.newFile(Self.base, "list.yaml", in: directory)
        let text = try String(contentsOfFile: path, encoding: .utf8)
            .replacingOccurrences(of: "- name: Eggs\n", with: "\n# the farm's\n- name: 'Eggs' # free range\n")
            .replacingOccurrences(of: "- name: Bread\n", with: "- name: Bread\n  # rye or spelt\n")
        let lines = Self.base.components(separatedBy: "\n")
        for (name, edit) in Self.edits {
            let checklist = edit(lines).joined(separator: "\n")
            let warnings = try Self.yamlBothWays(text, checklist, in: directory)
            // Every edit but the first item's is after the hand-edited lines, whose items the
            // output differs in first: the streamed write applies to them too.
            #expect(warnings != nil || name.contains("first") || name.contains("start"), "\(name)")
        }
    }

    @Test("a run past the first thousand items of a YAML file teaches the layout as the whole-list write's does")
    func yamlLongFile() throws {
        let directory = try TemporaryDirectory()
        var lines = (1...1200).map { "- [ ] Item \($0)" }
        let path = try Self.newFile(lines.joined(separator: "\n") + "\n", "list.yaml", in: directory)
        // An app's key in the items past the sample, and a new item beside them.
        let text = try String(contentsOfFile: path, encoding: .utf8)
            .replacingOccurrences(
                of: "- name: Item 1100\n  checked: false\n", with: "- name: Item 1100\n  prio: 1\n  checked: false\n")
        lines[1100] = "- [x] Item 1101"
        lines.insert("- [ ] Item 1101½ [prio:: 2]", at: 1101)
        #expect(try Self.yamlBothWays(text, lines.joined(separator: "\n") + "\n", in: directory) != nil)
    }

    @Test("a comment line between two items goes where the whole-list write puts it, whatever changes beside it")
    func yamlCommentBetweenItems() throws {
        let directory = try TemporaryDirectory()
        let items = (1...6).map { "- [ ] Item \($0)" }
        let path = try Self.newFile(items.joined(separator: "\n") + "\n", "list.yaml", in: directory)
        let text = try String(contentsOfFile: path, encoding: .utf8)
            .replacingOccurrences(of: "- name: Item 4\n", with: "# about item 4\n\n- name: Item 4\n")
        for edited in [
            Self.insert(items, 3, "- [ ] New"), Self.remove(items, 3), Self.remove(items, 2),
            Self.set(items, 2, "- [x] Item 3"), Self.set(items, 3, "- [x] Item 4"), items + ["- [ ] New"],
            Self.insert(Self.insert(items, 3, "- [ ] New"), 3, "- [ ] Newer"),
        ] {
            // The gap after an item, comment and all, stays with it (FORMAT.md, section 7.6).
            #expect(try Self.yamlBothWays(text, edited.joined(separator: "\n") + "\n", in: directory) != nil)
        }
    }

    @Test("a YAML file the streamed write cannot vouch for is left to the whole-list write, unchanged")
    func yamlGivesUp() throws {
        let directory = try TemporaryDirectory()
        let many = (1...1100).map { "- name: Item \($0)\n  checked: false\n" }.joined()
        for (text, checklist) in [
            // A list under a key.
            ("todos:\n- name: Milk\n  checked: false\n", "- [x] Milk\n"),
            // A flow list.
            ("[{name: Milk, checked: false}]\n", "- [x] Milk\n"),
            // A new item where every item has an integer id, and order fields.
            ("- name: Milk\n  checked: false\n  id: 1\n", "- [ ] Milk [id:: 1]\n- [ ] Tea\n"),
            ("- name: Milk\n  checked: false\n  order: 1\n", "- [ ] Milk [order:: 1]\n- [ ] Tea\n"),
            // A quoted name that goes on over a line that starts as an item does.
            (
                "- name: Milk\n  checked: false\n- name: \"Eggs\n- x\"\n  checked: false\n",
                "- [x] Milk\n- [ ] Eggs - x\n"
            ),
            // Anchors in the changed run, past the first items.
            (
                many + "- &a\n  name: Last\n  checked: false\n- *a\n",
                (1...1100).map { "- [ ] Item \($0)\n" }.joined() + "- [ ] Last\n- [x] Last\n"
            ),
            // A second document after the list.
            ("- name: Milk\n  checked: false\n---\nother: 1\n", "- [x] Milk\n"),
            // Front matter the file has no header for, and an emptied list.
            ("- name: Milk\n  checked: false\n", "---\ntitle: X\n---\n- [x] Milk\n"),
            ("- name: Milk\n  checked: false\n", ""),
        ] {
            #expect(try Self.yamlBothWays(text, checklist, in: directory) == nil, "\(text.suffix(80))")
            let written = try String(contentsOfFile: directory.path("streamed.yaml"), encoding: .utf8)
            #expect(!checklist.hasPrefix("---") || written.hasPrefix("---\ntitle: X\n---\n"))
        }
    }
    #endif
}
