import Foundation
import Testing

@testable import TodoFormat

/// An edit of one item is made on that item alone where the format can (`FileEdit.editItem`,
/// `TextListPatcher.write(replacing:…)`): it must write what reading and writing the whole
/// list writes, byte for byte.
@Suite("Editing one item alone writes what the whole list's write writes")
struct FileEditItemTests {
    static let files: [(name: String, text: String)] = [
        (
            "plain.json",
            #"[{"name": "a", "checked": false}, {"name": "b", "checked": true}, {"name": "c", "checked": false}]"#
        ),
        (
            "crlf.json",
            "[\r\n  {\"name\": \"a\", \"checked\": false},\r\n  {\"name\": \"b\", \"checked\": true, \"children\": [\r\n"
                + "    {\"name\": \"c\", \"checked\": false}\r\n  ]},\r\n  {\"name\": \"d\", \"checked\": false}\r\n]\r\n"
        ),
        (
            "repeated.json",
            #"[{"name": "a", "checked": false, "checked": true}, {"name": "b", "name": "bb", "checked": false}, "#
                + #"{"name": "c", "checked": false, "children": [{"name": "x", "checked": false}], "#
                + #""children": [{"name": "y", "checked": true}]}]"#
        ),
        // Neighbours alike: the whole list's comparison may align the items otherwise.
        (
            "alike.json",
            #"[{"name": "a", "checked": false}, {"name": "a", "checked": true}, {"name": "a", "checked": true}]"#
        ),
        // Sections: an item moved next to items of another section takes theirs.
        (
            "sections.json",
            "[\n  {\"name\": \"a\", \"checked\": false, \"section\": \"One\"},\n"
                + "  {\"name\": \"b\", \"checked\": true, \"section\": \"One\", \"children\": [\n"
                + "    {\"name\": \"c\", \"checked\": false}\n  ]},\n"
                + "  {\"name\": \"d\", \"checked\": false, \"section\": \"Two\"},\n"
                + "  {\"name\": \"e\", \"checked\": false}\n]\n"
        ),
        // Found by a hunt comparing with the whole list's write (helper 59): a nested item
        // moved to the top level takes the section before it; gaps of blank lines and
        // spaces; identical neighbours; ids with sections; a last item at another indentation.
        (
            "nested-sections.json",
            "[\n  {\"name\": \"a\", \"section\": \"S1\"},\n  {\"name\": \"b\", \"section\": \"S2\", \"children\": [\n"
                + "    {\"name\": \"c\"}\n  ]},\n  {\"name\": \"d\", \"section\": \"S3\", \"children\": [{\"name\": \"k\"}]}\n]\n"
        ),
        ("blank-lines.json", "[\n  {\"name\": \"a\"},\n\n  {\"name\": \"b\"},\n\n  {\"name\": \"c\"}\n]\n"),
        (
            "one-blank.json",
            "[\n  {\"name\": \"a\"},\n  {\"name\": \"b\"},\n\n  {\"name\": \"c\"},\n"
                + "  {\"name\": \"d\", \"children\": [{\"name\": \"k\"}]}\n]\n"
        ),
        ("spaced.json", #"[{"name": "a"} , {"name": "b"} , {"name": "c"}]"#),
        ("twins.json", "[\n  {\"name\": \"a\"},\n\n\n  {\"name\": \"d\"},\n  {\"name\": \"d\"}\n]\n"),
        (
            "ids-sections.json",
            "[\n {\"id\": 1, \"name\": \"a\", \"section\": \"L\"},\n {\"id\": 2, \"name\": \"b\", \"section\": \"W\"},\n"
                + " {\"id\": 3, \"name\": \"c\", \"section\": \"H\"}\n]\n"
        ),
        (
            "last-at-column-0.plist",
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\">\n<array>\n"
                + "\t<dict><key>name</key><string>a</string></dict>\n\t<dict><key>name</key><string>b</string></dict>\n"
                + "<dict><key>name</key><string>c</string></dict>\n</array>\n</plist>\n"
        ),
        (
            "twin-comments.plist",
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\">\n<array>\n"
                + "\t<dict><key>name</key><string>a</string></dict> <!-- after a -->\n"
                + "\t<dict><key>name</key><string>d</string></dict> <!-- 1 -->\n"
                + "\t<dict><key>name</key><string>d</string></dict> <!-- 2 -->\n</array>\n</plist>\n"
        ),
        // Ids and order fields are checked and renumbered across the list.
        ("ids.json", #"[{"title": "a", "done": false, "id": 1}, {"title": "b", "done": true, "id": 2}]"#),
        ("order.json", #"[{"name": "a", "checked": false, "order": 10}, {"name": "b", "checked": true, "order": 20}]"#),
        (
            "object.json",
            #"{"version": 2, "todos": [{"name": "a", "completed": false, "tags": ["x"]}, {"name": "b", "completed": true}]}"#
        ),
        (
            "fields.json",
            "[\n    {\n        \"name\": \"a\",\n        \"checked\": false,\n        \"priority\": 1,\n"
                + "        \"status\": \"/\"\n    },\n    {\n        \"name\": \"b\",\n        \"checked\": false,\n"
                + "        \"children\": [\n            {\n                \"name\": \"c\",\n"
                + "                \"checked\": true\n            }\n        ]\n    }\n]\n"
        ),
        (
            "nested.plist",
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\">\n<array>\n\t<dict>\n"
                + "\t\t<key>name</key>\n\t\t<string>a</string>\n\t\t<key>checked</key>\n\t\t<false/>\n"
                + "\t\t<key>priority</key>\n\t\t<integer>1</integer>\n\t</dict>\n\t<dict>\n"
                + "\t\t<key>name</key>\n\t\t<string>b</string>\n\t\t<key>checked</key>\n\t\t<true/>\n"
                + "\t\t<key>children</key>\n\t\t<array>\n\t\t\t<dict>\n\t\t\t\t<key>name</key>\n"
                + "\t\t\t\t<string>c</string>\n\t\t\t\t<key>checked</key>\n\t\t\t\t<false/>\n"
                + "\t\t\t</dict>\n\t\t</array>\n\t</dict>\n<!-- a comment --><dict><key>name</key>"
                + "<string>c &amp; d</string><key>checked</key><false/><key>name</key><string>e</string></dict>\n"
                + "</array>\n</plist>\n"
        ),
        (
            "crlf.plist",
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\r\n<plist version=\"1.0\">\r\n<dict>\r\n"
                + "\t<key>todos</key>\r\n\t<array>\r\n\t\t<dict><key>title</key><string>a</string>"
                + "<key>done</key><false/></dict>\r\n\t\t<dict><key>title</key><string>b</string>"
                + "<key>done</key><true/></dict>\r\n\t</array>\r\n</dict>\r\n</plist>\r\n"
        ),
        (
            "header.yaml",
            "title: My list\n---\n# comment\n- name: a\n  checked: false   # trailing\n  priority: 1\n"
                + "- name: b\n  checked: true\n  children:\n    - name: c\n      checked: false\n"
                + "- {name: d, checked: false}\n"
        ),
        ("crlf.yaml", "todos:\r\n  - name: a\r\n    checked: false\r\n  - name: \"b\"\r\n    checked: true\r\n"),
        // Laid out as a new file is: the edit reads only the item's run (`updateItemInRun`).
        (
            "new.yaml",
            "---\ntitle: Groceries\n---\n- name: a\n  checked: false   # trailing\n  priority: 1\n# between\n"
                + "- name: \"b: quoted\"\n  checked: true\n  children:\n  - name: c\n    checked: false\n"
                + "  - name: 'it''s'\n    checked: true\n- name: d\n  checked: false\n  tags: []\n"
        ),
        (
            "new-crlf.yaml",
            "- name: a\r\n  checked: false\r\n- name: b\r\n  checked: true\r\n  children:\r\n  - name: c\r\n"
                + "    checked: false\r\n- name: d\r\n  checked: false\r\n"
        ),
        // A quoted scalar holds a line like an item's: the whole file is parsed.
        (
            "hidden.yaml",
            "- name: \"a\n- name: x\"\n  checked: false\n- name: b\n  checked: true\n- name: c\n  checked: false\n"
        ),
        // Found by hunt 60: sections (a move to its own place, a nested item moved up), a
        // comment after the last item, blank lines between items, equal items quoted
        // otherwise, no final line break.
        (
            "sections.yaml",
            "- name: a\n  checked: false\n  section: S1\n- name: b\n  checked: false\n  section: S1\n"
                + "  children:\n  - name: b1\n    checked: false\n- name: c\n  checked: false\n  section: S2\n"
        ),
        (
            "end-comment.yaml",
            "- name: a\n  checked: false\n- name: b\n  checked: false\n- name: c\n  checked: true\n# end\n"
        ),
        (
            "blank-lines.yaml",
            "- name: a\n  checked: false\n\n- name: b\n  checked: false\n- name: c\n  checked: false\n\n"
                + "- name: d\n  checked: false\n"
        ),
        ("twins-quoted.yaml", "- name: A\n- name: 'A'\n- name: \"A\"\n- name: A\n- name: A\n- name: B\n"),
        ("no-final-break.yaml", "- name: a\n  section: S1\n- name: b\n  section: S2\n- name: c\n  section: S3"),
        // Anchors: what is written is read back as the whole list.
        ("anchor.yaml", "base: &b {checked: false}\nitems:\n  - name: a\n    <<: *b\n  - name: b\n    checked: true\n"),
    ]

    static let edits: [Edit] = [
        .check([.position([1])]), .check([.position([2])]), .uncheck([.position([2])]), .toggle([.position([3])]),
        .check([.position([2, 1])]), .check([.position([2]), .position([2, 1])]), .rename(.position([1]), to: "z"),
        .rename(.position([1]), to: "a"), .set(.position([2]), [Field("priority", .integer(3))]),
        .set(.position([1]), [Field("note", .string("n")), Field("v", .double(-0.0))]),
        .unset(.position([1]), ["priority", "status"]), .check([.position([9])]), .check([.position([2, 7])]),
    ]

    /// The fixture `name` of `files` written into a folder of its own (removed with the
    /// folder), and its format.
    static func written(_ name: String) throws -> (TemporaryDirectory, URL, any ListFormat) {
        let directory = try TemporaryDirectory()
        let file = directory.url.appendingPathComponent(name)
        try Data(files.first { $0.name == name }!.text.utf8).write(to: file)
        let format = try FormatRegistry.format(
            name.hasSuffix(".json") ? .json : name.hasSuffix(".yaml") ? .yaml : .plist)
        return (directory, file, format)
    }

    @Test(
        "JSON, XML property lists and YAML change one item alone",
        arguments: ["plain.json", "crlf.json", "nested.plist"] + (buildHasYAML ? ["header.yaml", "new.yaml"] : []))
    func takesItemAlone(_ name: String) throws {
        let (directory, file, format) = try Self.written(name)
        defer { _ = directory }
        let update = try format.updateItem(Input(file: file.path), at: 1, options: ListOptions()) { item in
            var item = item
            item.status = item.status == .done ? .open : .done
            return item
        }
        guard case .pending(let write) = update else {
            Issue.record("\(name): the item was not changed alone")
            return
        }
        write.discard()
    }

    @Test("done, undo, toggle, rename, set and unset", arguments: files.indices)
    func sameBytes(_ index: Int) throws {
        let (name, text) = Self.files[index]
        try Self.compare(name, Array(text.utf8), Self.edits)
    }

    /// Adds, removes and moves by position: made on the run of top-level items they touch
    /// (`FileEdit.editRun`) where the format can, else on the whole list.
    static let structuralEdits: [Edit] = [
        .add(name: "new", under: nil, at: nil), .add(name: "new", under: nil, at: [1]),
        .add(name: "new", under: nil, at: [2]), .add(name: "new", under: nil, at: [2, 1]),
        .add(name: "new", under: nil, at: [3]), .add(name: "new", under: nil, at: [4]),
        .add(name: "new", under: nil, at: [5]), .add(name: "a", under: nil, at: [2]),
        .add(name: "new", under: .position([2]), at: nil), .add(name: "new", under: .position([2]), at: [1]),
        .add(name: "new", under: .position([2, 1]), at: nil), .add(name: "new", under: .position([7]), at: nil),
        .remove([.position([1])]), .remove([.position([2])]), .remove([.position([3])]), .remove([.position([4])]),
        .remove([.position([2, 1])]), .remove([.position([9])]), .remove([.position([1]), .position([3])]),
        .move(.position([1]), to: [3]), .move(.position([3]), to: [1]), .move(.position([1]), to: [2]),
        .move(.position([2]), to: [1]), .move(.position([1]), to: [1]), .move(.position([2, 1]), to: [1]),
        .move(.position([1]), to: [2, 1]), .move(.position([3]), to: [2, 2]), .move(.position([1]), to: [4]),
        .move(.position([1]), to: [9]), .move(.position([9]), to: [1]), .move(.position([2]), to: [2, 1]),
        .move(.position([2, 1]), to: [2]), .move(.position([2]), to: [2]), .move(.position([3]), to: [3]),
        .move(.position([4, 1]), to: [2]), .move(.position([3]), to: [2]), .move(.position([4, 1]), to: [5]),
    ]

    @Test("add, rm and mv by position", arguments: files.indices)
    func structuralSameBytes(_ index: Int) throws {
        let (name, text) = Self.files[index]
        // Moving an item past an item equal to it: the whole list's write pairs equal items
        // in order, so it keeps the first's bytes (and the comments after it) first; the
        // move takes the item named, with its own. The two write the same list.
        try Self.compare(name, Array(text.utf8), Self.structuralEdits) { edit in
            switch (name, edit) {
            case ("twins.json", .move), ("twin-comments.plist", .move): return true
            // Among equal items quoted otherwise, which one's lines an edit takes or keeps is
            // the run's pairing of equal items in order (the whole list's pairs across it).
            case ("twins-quoted.yaml", _): return true
            default: return false
            }
        }
    }

    /// A move among top-level items reads no other item: the format moves the item's bytes
    /// (`TextListPatcher.moveItem`, `YAMLListPatcher.moveItemInRun`).
    @Test(
        "JSON, XML and YAML move a top-level item by its bytes",
        arguments: ["plain.json", "sections.json", "nested.plist"]
            + (buildHasYAML ? ["sections.yaml", "new-crlf.yaml"] : []))
    func movesByBytes(_ name: String) throws {
        let (directory, file, format) = try Self.written(name)
        defer { _ = directory }
        let before = try TodoList(contentsOf: file)
        let update = try format.moveItem(Input(file: file.path), options: ListOptions(), from: 2, to: 0) { item, _, _ in
            item
        }
        guard case .pending(let write) = update else {
            Issue.record("\(name): the item was not moved by its bytes")
            return
        }
        try write.commit()
        let after = try TodoList(contentsOf: file)
        #expect(
            after.items.map(\.name) == [before.items[2].name, before.items[0].name, before.items[1].name]
                + before.items.dropFirst(3).map(\.name))
    }

    /// A comment on the line of an element is not that line's indentation: the whole
    /// list's write once put it before every line of an item added after such an element.
    @Test("a comment before an element is written once")
    func commentBeforeElement() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("todofmt-item-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("nested.plist")
        try Data(Self.files.first { $0.name == "nested.plist" }!.text.utf8).write(to: file)
        for alone in [true, false] {
            var edit = FileEdit(file: file, edits: [.add(name: "new \(alone)", under: nil, at: nil)])
            edit.editsItemAlone = alone
            _ = try edit.run()
        }
        let text = try String(contentsOf: file, encoding: .utf8)
        #expect(text.components(separatedBy: "<!-- a comment -->").count == 2, "\(text)")
        #expect(text.contains("\n\t<dict>\n\t\t<key>name</key>\n\t\t<string>new false</string>"), "\(text)")
        #expect(try TodoList(contentsOf: file).items.map(\.name).suffix(2) == ["new true", "new false"])
    }

    /// Long JSON, XML and YAML files (written by todofmt, and hand-made JSON and XML with
    /// comments between items and other gaps): each edit is made on its run, not on the
    /// whole list, and writes what the whole list's write writes.
    @Test(
        "a run of a long file",
        arguments: ["long.json", "long.plist", "hand.json", "hand.plist"] + (buildHasYAML ? ["long.yaml"] : []))
    func longRun(_ name: String) throws {
        let items = (0..<3_000).map { i in
            TodoItem(
                name: i % 500 == 0 ? "same" : "item \(i) ✅", status: i % 3 == 0 ? .done : .open,
                fields: i % 4 == 0 ? [Field("n", .integer(i))] : [],
                children: i % 7 == 0 ? [TodoItem(name: "child \(i)", children: [TodoItem(name: "grandchild")])] : [],
                section: i < 2_000 ? "Section \(i / 100)" : nil)
        }
        var bytes = try TodoList(items: items).encoded(
            as: name.hasSuffix(".json") ? .json : name.hasSuffix(".yaml") ? .yaml : .plist)
        if name.hasPrefix("hand") {
            // Another indentation, and (in XML) a comment after every tenth item.
            var text = String(decoding: bytes, as: UTF8.self)
            if name.hasSuffix(".json") {
                text = text.replacingOccurrences(of: "\n  ", with: "\n   ")
            } else {
                var k = 0
                text = text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
                    guard line == "\t</dict>" else { return String(line) }
                    k += 1
                    return k % 10 == 0 ? "\t</dict>\n\t<!-- after \(k) -->" : "\t</dict>"
                }.joined(separator: "\n")
            }
            bytes = Array(text.utf8)
        }
        let edits: [Edit] = [
            .add(name: "new", under: nil, at: nil), .add(name: "new ✅", under: nil, at: [1_500]),
            .add(name: "new", under: .position([8]), at: [1]), .add(name: "same", under: nil, at: [502]),
            .remove([.position([1_500])]), .remove([.position([3_000])]), .remove([.position([1])]),
            .remove([.position([8, 1])]), .remove([.position([501])]), .move(.position([1_500]), to: [1]),
            .move(.position([10]), to: [2_990]), .move(.position([2_000]), to: [2_001]),
            .move(.position([22, 1]), to: [30, 1]), .move(.position([2_999]), to: [3_000]),
            .move(.position([3_000]), to: [1]), .move(.position([150]), to: [151]), .move(.position([1]), to: [3_000]),
            .move(.position([2_500]), to: [1_999]), .move(.position([199]), to: [101]), .move(.position([7]), to: [1]),
        ]
        try Self.compare(name, bytes, edits, expectingAlone: true)
    }

    /// A binary property list of more objects than 2-byte references reach (the only ones
    /// changed one item, or one run of items, alone).
    @Test("a large binary property list")
    func binary() throws {
        let items = (0..<25_000).map { i in
            TodoItem(
                name: "item \(i)", status: i % 3 == 0 ? .done : .open, fields: [Field("n", .integer(i))],
                children: i % 7 == 0 ? [TodoItem(name: "child \(i)")] : [])
        }
        let bytes = try TodoList(items: items).encoded(as: .bplist)
        try Self.compare(
            "large.bplist", bytes,
            [
                .check([.position([2])]), .uncheck([.position([1])]), .rename(.position([8, 1]), to: "x"),
                .set(.position([5]), [Field("n", .integer(-1)), Field("m", .string("new"))]),
                .unset(.position([5]), ["n"]),
            ])
        // Adds, removes and moves, among items with sections, made on their run alone.
        let sectioned = items.enumerated().map { i, item in
            var item = item
            item.section = i < 20_000 ? "Section \(i / 1_000)" : nil
            return item
        }
        try Self.compare(
            "sections.bplist", try TodoList(items: sectioned).encoded(as: .bplist),
            [
                .add(name: "new", under: nil, at: nil), .add(name: "new", under: nil, at: [1_001]),
                .add(name: "new", under: .position([8]), at: [1]), .remove([.position([25_000])]),
                .remove([.position([8, 1])]), .move(.position([12_500]), to: [1]), .move(.position([5]), to: [24_000]),
                .move(.position([1_000]), to: [1_001]), .move(.position([22, 1]), to: [3, 1]),
            ], expectingAlone: true)
    }

    /// A YAML file laid out as a new file is, longer than the items that teach the patcher
    /// the layout: the edit reads the item's run only (`YAMLListPatcher.updateItemInRun`).
    @Test("a large YAML file", .needsYAML)
    func largeYAML() throws {
        let items = (0..<2_500).map { i in
            TodoItem(
                name: i % 5 == 0 ? "item: \(i) ✅" : "item \(i)", status: i % 3 == 0 ? .done : .open,
                fields: i % 4 == 0 ? [Field("n", .integer(i))] : [],
                children: i % 7 == 0 ? [TodoItem(name: "child \(i)")] : [])
        }
        let bytes = try TodoList(items: items).encoded(as: .yaml)
        try Self.compare(
            "large.yaml", bytes,
            [
                .check([.position([2_000])]), .uncheck([.position([1])]), .rename(.position([2_500]), to: "x: \"y"),
                .set(.position([1_500]), [Field("n", .integer(-1)), Field("m", .string("new"))]),
                .unset(.position([1_001]), ["n"]), .check([.position([1_072, 1])]), .toggle([.position([999])]),
            ])
    }

    /// Makes each edit on the file `name` holding `bytes` on its item alone and on the whole
    /// list, and expects the same outcome and the same bytes.
    /// `layoutMayDiffer`: edits for which the two writes need only hold the same list.
    static func compare(
        _ name: String, _ bytes: [UInt8], _ edits: [Edit], expectingAlone: Bool = false,
        layoutMayDiffer: (Edit) -> Bool = { _ in false }
    ) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("todofmt-item-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Clock.$pinned.withValue(Date(timeIntervalSince1970: 1_700_000_000)) {
            for edit in edits {
                var results: [(bytes: [UInt8], outcome: String)] = []
                for alone in [true, false] {
                    let file = folder.appendingPathComponent(name)
                    try Data(bytes).write(to: file)
                    var fileEdit = FileEdit(file: file, edits: [edit])
                    fileEdit.editsItemAlone = alone
                    let outcome: String
                    do {
                        let result = try fileEdit.run()
                        outcome = "\(result.changed) \(result.warnings.map(\.description))"
                        if alone && expectingAlone {
                            #expect(result.madeAlone, "\(name): \(edit) was made on the whole list")
                        }
                    } catch {
                        outcome = "\(error)"
                    }
                    results.append((Array(try Data(contentsOf: file)), outcome))
                }
                #expect(results[0].outcome == results[1].outcome, "\(name): \(edit)")
                let (alone, whole) = (results[0].bytes, results[1].bytes)
                var same = alone == whole
                if !same && layoutMayDiffer(edit) {
                    let lists = try [alone, whole].map { bytes in
                        let file = folder.appendingPathComponent("read-" + name)
                        try Data(bytes).write(to: file)
                        return try TodoList(contentsOf: file)
                    }
                    same = lists[0] == lists[1]
                }
                // Where they differ, with some bytes around it.
                let at = zip(alone, whole).prefix { $0 == $1 }.count
                let window = { (bytes: [UInt8]) in
                    String(decoding: bytes[max(0, at - 80)..<min(bytes.count, at + 120)], as: UTF8.self)
                }
                #expect(same, "\(name): \(edit) at byte \(at)\nalone: \(window(alone))\nwhole: \(window(whole))")
            }
        }
    }
}
