import Foundation
import Testing

@testable import TodoFormat

/// A list written into a binary property list by comparing it with the file's items
/// (`BinaryListComparer`): a file that holds the list is left as it is, boxes checked or
/// unchecked change only their references, and anything else, or a file whose objects the
/// comparison cannot vouch for, goes the general way. The file always reads as the list.
@Suite("Comparing a list with a binary property list's items")
struct BinaryListComparerTests {
    /// What the comparison of the checklist at `checklist` with the binary file at `plist`
    /// gives: the references to change, or nil where the list differs in more than boxes.
    static func compare(_ plist: String, _ checklist: String) throws -> [ByteComparison.Difference]? {
        let bytes = try BinaryReferencePatchTests.bytes(plist)
        return try bytes.withUnsafeBufferPointer { old in
            try BinaryListComparer.compare(old, name: "list.plist", schema: ItemSchema()) { writer in
                _ = try MarkdownFormat().read(
                    Input(file: checklist), options: ListOptions(), into: &writer, leavingOutTextFor: .bplist)
            }?.differences
        }
    }

    /// A binary file `list.plist` in `directory` that plistlib writes of `items`, made by the
    /// Python statements `program` (which set it); its path.
    static func plistlibFile(_ program: String, in directory: TemporaryDirectory) throws -> String {
        _ = try Python.run(
            Python.prelude + program
                + "\nplistlib.dump(items, open(os.path.join(d, 'list.plist'), 'wb'), fmt=plistlib.FMT_BINARY)",
            in: directory)
        return directory.path("list.plist")
    }

    /// Converts the checklist into the file, then checks that the file reads as the
    /// checklist, by todofmt and by plistlib (names and boxes, in order; a `status` word
    /// tells a box where there is one).
    /// `text` written to `checklist` is not compared in place into `plist` (nil): the
    /// general write takes it, and gives its list.
    static func expectGeneralWrite(
        _ text: String, checklist: String, into plist: String, in directory: TemporaryDirectory
    ) throws {
        try text.write(toFile: checklist, atomically: false, encoding: .utf8)
        #expect(try Self.compare(plist, checklist) == nil)
        try Self.convertAndCheck(checklist, into: plist, in: directory)
    }

    static func convertAndCheck(_ checklist: String, into plist: String, in directory: TemporaryDirectory) throws {
        _ = try Conversion(input: .at(checklist), output: .at(plist)).run()
        let list = try TodoList(contentsOf: .file(checklist))
        #expect(try TodoList(contentsOf: .file(plist)).items == list.items)
        var expected: [String] = []
        func walk(_ items: [TodoItem]) {
            for item in items {
                expected.append("\(item.name)|\(item.status == .done)")
                walk(item.children)
            }
        }
        walk(list.items)
        let read = try Python.run(
            Python.prelude + """
                out = []
                def walk(items):
                    for item in items:
                        status = item.get('status')
                        done = status == 'done' if status in ('done', 'open') else item.get('checked') is True
                        out.append('%s|%s' % (item['name'], 'true' if done else 'false'))
                        walk(item.get('children', []))
                walk(plistlib.load(open(os.path.join(d, 'list.plist'), 'rb')))
                print(json.dumps(out, ensure_ascii=False))
                """, in: directory)
        let names = try JSONDecoder().decode([String].self, from: Data(read.utf8))
        #expect(names.count == expected.count)
        for (read, written) in zip(names, expected) where read != written {
            Issue.record("plistlib reads \(read), the checklist has \(written)")
            break
        }
    }

    @Test(
        "random edits: boxes alone change only their references; any other edit is left to the general write",
        arguments: 0..<24)
    func randomEdits(seed: Int) throws {
        var rng = SeededGenerator(seed: UInt64(seed))
        let directory = try TemporaryDirectory()
        let text = BinaryListWriterTests.checklist(300)
        let (plist, checklist) = try BinaryReferencePatchTests.file(text, in: directory)
        let before = try BinaryReferencePatchTests.bytes(plist)
        let original = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var lines = original
        let boxesOnly = seed % 2 == 0
        for _ in 0..<(1 + seed % 5) {
            let i = Int.random(in: 0..<(lines.count - 1), using: &rng)
            let line = lines[i]
            if line.hasPrefix("# ") && !boxesOnly {
                lines[i] = line + "!"  // a section renamed
                continue
            }
            guard line.contains("- [ ]") || line.contains("- [x]") else { continue }
            if boxesOnly {
                lines[i] =
                    line.contains("- [ ]")
                    ? line.replacingOccurrences(of: "- [ ]", with: "- [x]")
                    : line.replacingOccurrences(of: "- [x]", with: "- [ ]")
                continue
            }
            switch Int.random(in: 0..<6, using: &rng) {
            case 0: lines[i] = line + "!"
            case 1: lines.remove(at: i)
            case 2: lines.insert(line, at: i)
            case 3: lines[i] = "  " + line
            case 4: lines[i] = line.replacingOccurrences(of: "- [ ]", with: "- [/]")
            default: lines[i] = line + " [extra:: 1]"
            }
        }
        let edited = lines.joined(separator: "\n")
        try edited.write(toFile: checklist, atomically: false, encoding: .utf8)
        let boxes = zip(original, lines).filter { $0 != $1 }.count

        let differences = try Self.compare(plist, checklist)
        if boxesOnly {
            // One reference a box, each at most two bytes (the file has under 65,536 objects).
            let found = try #require(differences)
            #expect(found.count == boxes)
            #expect(found.allSatisfy { $0.bytes.count <= 2 })
        } else if edited != text {
            #expect(differences == nil)
        }
        try Self.convertAndCheck(checklist, into: plist, in: directory)
        if boxesOnly {
            let after = try BinaryReferencePatchTests.bytes(plist)
            #expect(after.count == before.count)
            let changed = zip(before, after).filter { $0 != $1 }.count
            #expect(changed <= 2 * boxes && (boxes == 0) == (changed == 0))
        }
    }

    @Test(
        "an item taken away or added at the end of the list or of an item's children is no box's change",
        arguments: 0..<6)
    func endsOfArrays(edit: Int) throws {
        let directory = try TemporaryDirectory()
        let text =
            edit < 4
            ? "- [ ] a\n  - [x] a1\n  - [ ] a2\n- [x] b\n- [ ] c\n" : "- [ ] a\n  - [x] a1\n- [x] b\n  - [ ] b1\n"
        let edited = [
            "- [ ] a\n  - [x] a1\n  - [ ] a2\n- [x] b\n",
            "- [ ] a\n  - [x] a1\n  - [ ] a2\n- [x] b\n- [ ] c\n- [ ] d\n",
            "- [ ] a\n  - [x] a1\n- [x] b\n- [ ] c\n",
            "- [ ] a\n  - [x] a1\n  - [ ] a2\n- [x] b\n- [ ] c\n  - [ ] c1\n",
            // Every child of an item taken away: in the middle, and at the end.
            "- [ ] a\n- [x] b\n  - [ ] b1\n",
            "- [ ] a\n  - [x] a1\n- [x] b\n",
        ][edit]
        let (plist, checklist) = try BinaryReferencePatchTests.file(text, in: directory)
        try Self.expectGeneralWrite(edited, checklist: checklist, into: plist, in: directory)
    }

    @Test("boxes of an item and of its child and grandchild change three references")
    func nestedBoxes() throws {
        let directory = try TemporaryDirectory()
        let text = "- [ ] a\n  - [ ] b\n    - [x] c\n  - [ ] d\n- [x] e\n"
        let (plist, checklist) = try BinaryReferencePatchTests.file(text, in: directory)
        let before = try BinaryReferencePatchTests.bytes(plist)
        try "- [x] a\n  - [x] b\n    - [ ] c\n  - [ ] d\n- [x] e\n".write(
            toFile: checklist, atomically: false, encoding: .utf8)
        #expect(try Self.compare(plist, checklist)?.count == 3)
        try Self.convertAndCheck(checklist, into: plist, in: directory)
        #expect(zip(before, try BinaryReferencePatchTests.bytes(plist)).filter { $0 != $1 }.count == 3)
    }

    /// A checklist with sections and fields, and changes to it that are not a box's.
    static let fielded =
        "- [ ] first\n# Today\n- [ ] Milk [prio:: 2]\n- [x] café crème\n# Later\n- [ ] 日本語 🚀 [due:: 2024-05-01]\n"
    static let otherChanges: [(String, String)] = [
        ("- [ ] Milk [prio:: 2]", "- [ ] Milk! [prio:: 2]"), ("# Later", "# Later!"), ("# Later\n", ""),
        (" [prio:: 2]", ""), (" [prio:: 2]", " [prio:: 3]"), (" [prio:: 2]", " [prio:: 2] [owner:: me]"),
        ("- [x] café crème", "- [x] café crème [owner:: me]"), ("- [ ] 日本語 🚀", "- [/] 日本語 🚀"),
        ("日本語 🚀", "日本語 🚁"), ("- [ ] first\n", "# New\n- [ ] first\n"), ("# Today\n", ""),
    ]

    @Test("a name, a section, a field or a custom status changed is no box's change", arguments: otherChanges.indices)
    func otherChange(change: Int) throws {
        let directory = try TemporaryDirectory()
        let (old, new) = Self.otherChanges[change]
        let (plist, checklist) = try BinaryReferencePatchTests.file(Self.fielded, in: directory)
        #expect(try Self.compare(plist, checklist) == [])
        #expect(Self.fielded.contains(old))
        try Self.fielded.replacingOccurrences(of: old, with: new).write(
            toFile: checklist, atomically: false, encoding: .utf8)
        #expect(try Self.compare(plist, checklist) == nil)
        try Self.convertAndCheck(checklist, into: plist, in: directory)
    }

    /// A binary property list of `objects` (each object's bytes, in order), one byte an
    /// offset and `referenceSize` bytes a reference, its top object the first. An object in
    /// `aliases` has no bytes of its own: its offset is another object's, plus some.
    static func handMade(
        _ objects: [[UInt8]], aliases: [Int: (of: Int, plus: Int)] = [:], referenceSize: UInt8 = 1
    ) -> [UInt8] {
        var bytes = Array("bplist00".utf8)
        var offsets: [Int] = []
        for object in objects {
            offsets.append(bytes.count)
            bytes += object
        }
        for (object, alias) in aliases { offsets[object] = offsets[alias.of] + alias.plus }
        let table = bytes.count
        bytes += offsets.map { UInt8($0) }
        bytes += [0, 0, 0, 0, 0, 0, 1, referenceSize]
        for value in [objects.count, 0, table] {
            bytes += (0..<8).map { UInt8(truncatingIfNeeded: value >> (8 * (7 - $0))) }
        }
        return bytes
    }

    /// Checks the first item named `a` (anywhere in the list) in the file at `plist`, through
    /// a checklist of the list: the file then reads as that list, every other value as it was.
    static func checkFirstA(in plist: String, directory: TemporaryDirectory) throws {
        var list = try TodoList(contentsOf: .file(plist))
        func check(_ items: inout [TodoItem]) -> Bool {
            for i in items.indices {
                if items[i].name == "a" {
                    items[i].status = .done
                    return true
                }
                if check(&items[i].children) { return true }
            }
            return false
        }
        #expect(check(&list.items))
        let checklist = directory.path("list.md")
        try Data(try list.encoded(as: .markdown)).write(to: URL(fileURLWithPath: checklist))
        #expect(try Self.compare(plist, checklist) == nil)
        _ = try Conversion(input: .at(checklist), output: .at(plist)).run()
        #expect(try TodoList(contentsOf: .file(plist)).items == list.items)
    }

    @Test(
        "an item's dictionary that another item's field holds too is not changed in place",
        arguments: [
            "X = {'name': 'a', 'checked': False}; items = [X, {'name': 't', 'checked': True, 'copy': X}]",
            "X = {'name': 'a', 'checked': False}; items = [X, {'name': 't', 'checked': True, 'lst': [X, 1]}]",
            "X = {'name': 'a', 'checked': False}; items = [{'name': 't', 'checked': True, 'h': {'v': {'s': [X]}}}, X]",
            "C = [{'name': 'a', 'checked': False}]; items = [{'name': 'p', 'checked': True, 'children': C, 'backup': C}]",
            "C = [{'name': 'a', 'checked': False}]; items = [{'name': 'p', 'checked': True, 'children': C}, {'name': 't', 'checked': False, 'kids': C}]",
            "P = {'name': 'p', 'checked': True, 'children': [{'name': 'a', 'checked': False}]}; items = [P, {'name': 't', 'checked': True, 'copy': P}]",
        ])
    func sharedWithAField(items: String) throws {
        let directory = try TemporaryDirectory()
        try Self.checkFirstA(in: try Self.plistlibFile(items, in: directory), directory: directory)
    }

    /// Objects 1 to 5: `name`, `a`, `checked`, `false`, `true`; 6 and 7 items.
    static let keysAndValues: [[UInt8]] = [
        [0x54] + Array("name".utf8), [0x51] + Array("a".utf8), [0x57] + Array("checked".utf8), [0x08], [0x09],
    ]

    @Test("an item's dictionary whose bytes another object's offset points into is not changed in place")
    func overlappingObjects() throws {
        let directory = try TemporaryDirectory()
        let plist = directory.path("list.plist")
        // Object 7 is object 6's bytes again: two items {name: a, checked: false}; 8 is {name: t, checked: true}.
        let shared =
            [[0xA3, 6, 7, 8]] + Self.keysAndValues + [
                [0xD2, 1, 3, 2, 4], [], [0xD2, 1, 3, 9, 5], [0x51] + Array("t".utf8),
            ]
        try Data(Self.handMade(shared, aliases: [7: (6, 0)])).write(to: URL(fileURLWithPath: plist))
        let checklist = directory.path("list.md")
        // Both of them checked: one reference, changed twice.
        try "- [x] a\n- [x] a\n- [x] t\n".write(toFile: checklist, atomically: false, encoding: .utf8)
        #expect(try Self.compare(plist, checklist) == nil)
        try Self.checkFirstA(in: plist, directory: directory)

        // Object 6, an item {name: a, checked: false}, lies inside object 8, the data of item 7's
        // `blob`.
        let inData =
            [[0xA2, 6, 7]] + Self.keysAndValues + [
                [], [0xD3, 1, 3, 10, 9, 5, 8], [0x45, 0xD2, 1, 3, 2, 4], [0x51] + Array("t".utf8),
                [0x54] + Array("blob".utf8),
            ]
        try Data(Self.handMade(inData, aliases: [6: (8, 1)])).write(to: URL(fileURLWithPath: plist))
        let before = try TodoList(contentsOf: .file(plist)).items
        #expect(before.count == 2 && before[1].fields.first?.value == .data(Data([0xD2, 1, 3, 2, 4])))
        try Self.checkFirstA(in: plist, directory: directory)
    }

    @Test("a `checked` that refers to no object is an error, read or written into, with the file as it was")
    func checkedOutOfRange() throws {
        let directory = try TemporaryDirectory()
        let plist = directory.path("list.plist")
        func reference(_ n: Int) -> [UInt8] { (0..<8).map { UInt8(truncatingIfNeeded: n >> (8 * (7 - $0))) } }
        func dictionary(_ values: [Int]) -> [UInt8] {
            [0xD2] + reference(1) + reference(3) + values.flatMap(reference)
        }
        // Items {name: a, checked: reference -1} and {name: t, checked: true}.
        let objects: [[UInt8]] =
            [[0xA2] + reference(6) + reference(7)] + Self.keysAndValues + [
                dictionary([2, -1]), dictionary([8, 5]), [0x51] + Array("t".utf8),
            ]
        let bytes = Self.handMade(objects, referenceSize: 8)
        try Data(bytes).write(to: URL(fileURLWithPath: plist))
        #expect(throws: ParseError.self) { try TodoList(contentsOf: .file(plist)) }
        let checklist = directory.path("list.md")
        for text in ["- [ ] a\n- [x] t\n", "- [x] a\n- [x] t\n", "- [ ] a\n- [ ] t\n"] {
            try text.write(toFile: checklist, atomically: false, encoding: .utf8)
            #expect(throws: ParseError.self) { try Conversion(input: .at(checklist), output: .at(plist)).run() }
            #expect(try BinaryReferencePatchTests.bytes(plist) == bytes)
        }
    }

    @Test(
        "an item's dictionary another item's field holds is not changed in place, in references of every size",
        arguments: [1, 2, 4, 8], [false, true])
    func sharedWithAField(referenceSize: Int, shared: Bool) throws {
        let directory = try TemporaryDirectory()
        let plist = directory.path("list.plist")
        func references(_ objects: Int...) -> [UInt8] {
            objects.flatMap { n in
                (0..<referenceSize).map { UInt8(truncatingIfNeeded: n >> (8 * (referenceSize - 1 - $0))) }
            }
        }
        // Items 6, {name: a, checked: false}, and 7, {name: t, checked: true, copy: item 6 or
        // "t"}: the pass over every collection (a loop for each reference size) finds the
        // second reference to item 6 where there is one.
        let objects =
            [[0xA2] + references(6, 7)] + Self.keysAndValues + [
                [0xD2] + references(1, 3, 2, 4), [0xD3] + references(1, 3, 9, 8, 5, shared ? 6 : 8),
                [0x51] + Array("t".utf8), [0x54] + Array("copy".utf8),
            ]
        try Data(Self.handMade(objects, referenceSize: UInt8(referenceSize))).write(to: URL(fileURLWithPath: plist))
        var items = try TodoList(contentsOf: .file(plist)).items
        #expect(items.count == 2 && items[1].fields.first?.key == "copy")
        items[0].status = .done
        let checklist = directory.path("list.md")
        try Data(try TodoList(items: items).encoded(as: .markdown)).write(to: URL(fileURLWithPath: checklist))
        // Unshared, item 6's reference to `false` (after the root, five keys and values, its
        // marker, two keys and a value) becomes one to `true`, object 5.
        let unshared = ByteComparison.Difference(
            offset: 8 + 1 + 2 * referenceSize + 17 + 1 + 3 * referenceSize, bytes: references(5))
        #expect(try Self.compare(plist, checklist) == (shared ? nil : [unshared]))
        if shared {
            try Self.checkFirstA(in: plist, directory: directory)
        } else {
            var expected = try BinaryReferencePatchTests.bytes(plist)
            expected.replaceSubrange(unshared.offset..<(unshared.offset + referenceSize), with: unshared.bytes)
            _ = try Conversion(input: .at(checklist), output: .at(plist)).run()
            #expect(try BinaryReferencePatchTests.bytes(plist) == expected)
        }
    }

    @Test("a dictionary two items share is not changed for one of them")
    func sharedDictionary() throws {
        let directory = try TemporaryDirectory()
        let plist = directory.path("list.plist")
        let checklist = directory.path("list.md")
        // The root array holds object 1 twice, {name: "a", checked: false}, then object 7,
        // {name: "b", checked: true}.
        let objects: [[UInt8]] = [
            [0xA3, 1, 1, 7], [0xD2, 2, 4, 3, 5], [0x54] + Array("name".utf8), [0x51] + Array("a".utf8),
            [0x57] + Array("checked".utf8), [0x08], [0x09], [0xD2, 2, 4, 8, 6], [0x51] + Array("b".utf8),
        ]
        try Data(Self.handMade(objects)).write(to: URL(fileURLWithPath: plist))
        #expect(
            try TodoList(contentsOf: .file(plist)).items == [
                TodoItem(name: "a"), TodoItem(name: "a"), TodoItem(name: "b", status: .done),
            ])
        try "- [x] a\n- [ ] a\n- [x] b\n".write(toFile: checklist, atomically: false, encoding: .utf8)
        #expect(try Self.compare(plist, checklist) == nil)
        try Self.convertAndCheck(checklist, into: plist, in: directory)
    }

    @Test(
        "a box the file tells by a status key, or a value it holds no object for yet, is left to the general write",
        arguments: [
            (
                #"[{"name": "a", "checked": False, "status": "/"}, {"name": "b", "checked": True}]"#,
                "- [x] a\n- [x] b\n"
            ),
            (#"[{"name": "a", "checked": False}, {"name": "b", "checked": False}]"#, "- [x] a\n- [ ] b\n"),
            (#"[{"name": "a", "status": "open"}, {"name": "b", "checked": True}]"#, "- [x] a\n- [x] b\n"),
            // `a` is done by its status word, its `checked` refers to the file's only `false`:
            // the file has no `true` for `b`.
            (
                #"[{"name": "a", "checked": False, "status": "done"}, {"name": "b", "checked": False}]"#,
                "- [x] a\n- [x] b\n"
            ),
        ])
    func leftToTheGeneralWrite(items: String, text: String) throws {
        let directory = try TemporaryDirectory()
        let plist = try Self.plistlibFile("items = " + items, in: directory)
        try Self.expectGeneralWrite(text, checklist: directory.path("list.md"), into: plist, in: directory)
    }

    @Test("a file that holds the list, written by plistlib, is left as it is")
    func plistlibFileUnchanged() throws {
        let directory = try TemporaryDirectory()
        let plist = try Self.plistlibFile(
            """
            items = [{"name": "Milk", "checked": False, "section": "Today",
                      "children": [{"name": "café crème", "checked": False, "status": "/"}]},
                     {"name": "日本語 🚀", "checked": True, "section": "Today", "prio": 2}]
            """, in: directory)
        let checklist = directory.path("list.md")
        try "# Today\n- [ ] Milk\n  - [/] café crème\n- [x] 日本語 🚀 [prio:: 2]\n".write(
            toFile: checklist, atomically: false, encoding: .utf8)
        #expect(try Self.compare(plist, checklist) == [])
        let before = try BinaryReferencePatchTests.bytes(plist)
        try Self.convertAndCheck(checklist, into: plist, in: directory)
        #expect(try BinaryReferencePatchTests.bytes(plist) == before)
        // Its box unchecked: one reference.
        try "# Today\n- [ ] Milk\n  - [/] café crème\n- [ ] 日本語 🚀 [prio:: 2]\n".write(
            toFile: checklist, atomically: false, encoding: .utf8)
        #expect(try Self.compare(plist, checklist)?.count == 1)
        try Self.convertAndCheck(checklist, into: plist, in: directory)
        #expect(zip(before, try BinaryReferencePatchTests.bytes(plist)).filter { $0 != $1 }.count == 1)
    }
}
