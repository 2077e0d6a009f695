import Foundation
import Testing

@testable import TodoFormat

/// A checklist item may give a field key twice (`[tag:: a] [tag:: b]`); every other format
/// keeps one value a key (JSON, YAML and property list readers the last, a table one
/// column), so a conversion names such items in a warning.
@Suite("A field key given twice")
struct RepeatedFieldKeyTests {
    static let checklist = """
        - [ ] Bread
          - [ ] Rye
        - [ ] Milk [tag:: a] [tag:: b]
          - [ ] Brown [x:: 1] [y:: 2] [x:: 3]
        - [ ] Eggs [tag:: c] [other:: d]

        """

    static let outputs = ["json", "plist", "sqlite", "sql"] + (buildHasYAML ? ["yaml"] : [])

    static func expected(_ format: String) -> [String] {
        [("tag", "2 Milk"), ("x", "2.1 Brown")].map { key, item in
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

    @Test("the first key given again, by its exact bytes")
    func repeatedKey() {
        let f = { (k: String) in Field(k, .string("v")) }
        #expect(DepthLimitedWriter.repeatedKey(in: [f("a"), f("b")]) == nil)
        #expect(DepthLimitedWriter.repeatedKey(in: [f("a"), f("b"), f("c"), f("b"), f("a")]) == "b")
        #expect(DepthLimitedWriter.repeatedKey(in: [f("Tag"), f("tag")]) == nil)
        #expect(DepthLimitedWriter.repeatedKey(in: []) == nil)
    }
}
