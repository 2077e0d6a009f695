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

    @Test("fields come back in the list's order", arguments: formats, edits)
    func order(format: DocumentFormat, fields: String) throws {
        let directory = try TemporaryDirectory()
        let source = directory.path("list.md")
        try Self.base.write(toFile: source, atomically: false, encoding: .utf8)
        let path = directory.path("list.\(format == .plist ? "plist" : format.rawValue)")
        _ = try Conversion(input: .at(source), output: .at(path)).run()
        let before = try String(contentsOfFile: path, encoding: .utf8)

        let edited = Self.base.replacingOccurrences(of: "[tag:: rye] [n:: 2]", with: fields)
        try edited.write(toFile: source, atomically: false, encoding: .utf8)
        _ = try Conversion(input: .at(source), output: .at(path)).run()
        let expected = try TodoList(contentsOf: .file(source))
        let read = try TodoList(contentsOf: .file(path))
        #expect(read.items[1].fields == expected.items[1].fields)
        #expect(read.items == expected.items)
        // The other items' text stays.
        let after = try String(contentsOfFile: path, encoding: .utf8)
        for name in ["Milk", "Tea"] {
            let line = try #require(before.split(separator: "\n").first { $0.contains(name) })
            #expect(after.contains(line))
        }
    }
}
