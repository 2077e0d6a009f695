import Foundation
import Testing

@testable import TodoFormat

/// A list written into a binary file that todofmt wrote, where the new bytes differ from the
/// file's only in what dictionaries' values refer to (`BinaryReferencePatch`): the file is
/// copied with those references changed, every other byte in place. Anything else (a new
/// string, a moved object, an identity or an order changed) is left to the whole-list write.
@Suite("Changing references in a binary property list in place")
struct BinaryReferencePatchTests {
    /// The bytes of the file at `path`.
    static func bytes(_ path: String) throws -> [UInt8] { Array(try Data(contentsOf: URL(fileURLWithPath: path))) }

    /// A binary file written from `text` (a checklist), in `directory`: its path and the
    /// checklist's.
    static func file(_ text: String, in directory: TemporaryDirectory) throws -> (plist: String, checklist: String) {
        let checklist = directory.path("list.md")
        try text.write(toFile: checklist, atomically: false, encoding: .utf8)
        let plist = directory.path("list.plist")
        _ = try Conversion(input: .at(checklist), output: .at(plist), outputFormat: .bplist).run()
        return (plist, checklist)
    }

    /// Checklist lines of `BinaryListWriterTests.checklist(300)` changed, and what plistlib
    /// then reads of the items they name: name, `checked` and `prio`.
    static let changes: [(edits: [(String, String)], read: String)] = [
        ([("- [ ] a 148\n", "- [x] a 148\n")], #"[["a 148", true, null]]"#),
        ([("🚀 143 [prio:: 2]", "🚀 143 [prio:: 0]")], #"[["🚀 143", false, 0]]"#),
        (
            [
                ("- [ ] a 148\n", "- [x] a 148\n"), ("- [x] café crème 13\n", "- [ ] café crème 13\n"),
                ("🚀 143 [prio:: 2]", "🚀 143 [prio:: 1]"),
            ],
            #"[["café crème 13", false, null], ["🚀 143", false, 1], ["a 148", true, null]]"#
        ),
    ]

    @Test(
        "a box checked or unchecked and a field set to a value the file holds change only those references",
        arguments: changes.indices)
    func referencesChanged(change: Int) throws {
        let (edits, expected) = Self.changes[change]
        let directory = try TemporaryDirectory()
        let text = BinaryListWriterTests.checklist(300)
        let (plist, checklist) = try Self.file(text, in: directory)
        let before = try Self.bytes(plist)
        var edited = text
        for (old, new) in edits {
            #expect(edited.contains(old))
            edited = edited.replacingOccurrences(of: old, with: new)
        }
        try edited.write(toFile: checklist, atomically: false, encoding: .utf8)

        let warnings = try #require(try BinaryListWriterTests.streamed(checklist, into: plist))
        #expect(warnings.isEmpty)
        let after = try Self.bytes(plist)
        #expect(after.count == before.count)
        let changed = zip(before, after).filter { $0 != $1 }.count
        #expect(changed >= edits.count && changed <= 4 * edits.count)
        #expect(try TodoList(contentsOf: .file(plist)).items == TodoList(contentsOf: .file(checklist)).items)

        // plistlib reads the changed items as the checklist has them.
        let read = try Python.run(
            Python.prelude + """
                def walk(items, out):
                    for item in items:
                        fields = item.get('fields', {})
                        out.append([item['name'], item.get('checked'), fields.get('prio', item.get('prio'))])
                        walk(item.get('children', []), out)
                out = []
                walk(plistlib.load(open(os.path.join(d, 'list.plist'), 'rb')), out)
                names = [e[0] for e in json.loads(sys.stdin.read())]
                print(json.dumps([o for o in out if o[0] in names], ensure_ascii=False))
                """, in: directory, stdin: Data(expected.utf8))
        #expect(read.trimmingCharacters(in: .whitespacesAndNewlines) == expected)
    }

    @Test(
        "an identity or an order changed to a value the file holds, a new name, or a box whose value the file does not hold yet: the whole-list write",
        arguments: [
            ("t 100 [id:: 100]", "t 100 [id:: 7]"),
            ("t 100 [id:: 100] [position:: 100]", "t 100 [id:: 100] [position:: 7]"),
            ("t 100 [id:: 100]", "t 7 [id:: 100]"),
            ("- [ ] t 0 ", "- [x] t 0 "),
        ])
    func leftToTheWholeWrite(old: String, new: String) throws {
        let directory = try TemporaryDirectory()
        // No box is checked before item 0's: its `true` would be a new object.
        let text = (0..<200).map { i in
            "- [\(i % 2 == 0 ? " " : "x")] t \(i) [id:: \(i)]" + (i == 100 ? " [position:: 100]" : "") + "\n"
        }.joined()
        let (plist, checklist) = try Self.file(text, in: directory)
        let before = try Self.bytes(plist)
        #expect(text.contains(old))
        try text.replacingOccurrences(of: old, with: new).write(toFile: checklist, atomically: false, encoding: .utf8)
        #expect(try BinaryListWriterTests.streamed(checklist, into: plist) == nil)
        #expect(try Self.bytes(plist) == before)
    }
}
