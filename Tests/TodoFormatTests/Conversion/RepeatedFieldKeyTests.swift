import Foundation
import Testing

@testable import TodoFormat

/// A checklist item may give a field key twice (`[tag:: a] [tag:: b]`); read back from any
/// other format the item has one value a key (JSON, YAML and property list readers keep the
/// last, a table's column the first), so a conversion names each such key and item in a
/// warning; a value given again as it was loses nothing and says nothing.
@Suite("A field key given twice")
struct RepeatedFieldKeyTests {
    static let checklist = """
        - [ ] Bread
          - [ ] Rye
        - [ ] Milk [tag:: a] [tag:: b] [n:: 1] [n:: 1] [z:: 1] [z:: 2] [z:: 1]
          - [ ] Brown [x:: 1] [y:: 2] [x:: 3]
        - [ ] Eggs [tag:: c] [other:: d] [same:: 1] [same:: 1]

        """

    static let outputs = ["json", "plist", "sqlite", "sql"] + (buildHasYAML ? ["yaml"] : [])

    static func expected(_ format: String) -> [String] {
        [("tag", "2 Milk"), ("z", "2 Milk"), ("x", "2.1 Brown")].map { key, item in
            ConversionWarning(.fields, ConversionWarning.repeatedKeyMessage(key), firstItem: item).description
        }
    }

    @Test("a new file of keyed values names each item and key; a checklist says nothing", arguments: outputs)
    func newFile(ext: String) throws {
        let directory = try TemporaryDirectory()
        let input = directory.path("in.md")
        try Self.checklist.write(toFile: input, atomically: false, encoding: .utf8)
        let warnings = try Conversion(input: .at(input), output: .at(directory.path("out.\(ext)"))).run()
        #expect(warnings.filter { $0.kind == .fields }.map(\.description) == Self.expected(ext))
        // Read back, the item has one value for the key: the loss the warning names.
        let back = try TodoList(contentsOf: URL(fileURLWithPath: directory.path("out.\(ext)")))
        #expect(back.items[1].fields.filter { $0.key == "tag" }.count == 1)

        let copy = try Conversion(input: .at(input), output: .at(directory.path("copy.md"))).run()
        #expect(copy.isEmpty)
    }

    @Test("a write into an existing file names them too")
    func existing() throws {
        let directory = try TemporaryDirectory()
        let input = directory.path("in.md")
        try Self.checklist.write(toFile: input, atomically: false, encoding: .utf8)
        let output = directory.path("app.json")
        try #"[{"name": "Milk", "checked": false}]"#.write(toFile: output, atomically: false, encoding: .utf8)
        let warnings = try Conversion(input: .at(input), output: .at(output)).run()
        #expect(warnings.filter { $0.kind == .fields }.map(\.description) == Self.expected("json"))
        #expect(throws: ConversionError.self) {
            try Conversion(input: .at(input), output: .at(directory.path("strict.json")), strict: true).run()
        }
    }

    @Test("each key given again with another value, once, in order, by its exact bytes")
    func repeatedKeys() {
        let f = { (k: String, v: Int) in Field(k, .integer(v)) }
        #expect(DepthLimitedWriter.repeatedKeys(in: [f("a", 1), f("b", 1)]).isEmpty)
        #expect(
            DepthLimitedWriter.repeatedKeys(in: [f("a", 1), f("b", 1), f("c", 1), f("b", 2), f("a", 2), f("b", 3)])
                == ["b", "a"])
        #expect(DepthLimitedWriter.repeatedKeys(in: [f("a", 1), f("a", 1)]).isEmpty)
        #expect(DepthLimitedWriter.repeatedKeys(in: [f("a", 1), f("a", 1), f("a", 2)]) == ["a"])
        #expect(DepthLimitedWriter.repeatedKeys(in: [f("Tag", 1), f("tag", 2)]).isEmpty)
        #expect(DepthLimitedWriter.repeatedKeys(in: []).isEmpty)
    }
}
