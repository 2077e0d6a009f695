#if !YAML
import Foundation
import Testing

@testable import TodoFormat

/// A build without the `YAML` trait (`swift build --disable-default-traits`): front matter is
/// raw text kept byte for byte, other formats leave it out with a warning, and YAML files
/// are refused with a message that says why.
@Suite("A build without YAML")
struct WithoutYAMLTests {
    static let checklist =
        "---\ntitle:   Groceries # kept as written\ntags: [a,  b]\n---\n# Today\n- [ ] Milk\n- [x] Eggs\n"

    @Test("front matter is raw text, written back byte for byte, to a new checklist or into one")
    func rawFrontMatter() throws {
        let list = try TodoList(markdown: Self.checklist)
        #expect(
            list.metadata == [
                Field(FrontMatter.rawKey, .string("title:   Groceries # kept as written\ntags: [a,  b]\n"))
            ])
        #expect(String(decoding: try list.encoded(as: .markdown), as: UTF8.self) == Self.checklist)
        let directory = try TemporaryDirectory()
        let path = directory.path("list.md")
        try Self.checklist.write(toFile: path, atomically: false, encoding: .utf8)
        var edited = list
        edited.items[0].status = .done
        try edited.write(to: URL(fileURLWithPath: path))
        #expect(
            try String(contentsOfFile: path, encoding: .utf8)
                == Self.checklist.replacingOccurrences(of: "[ ] Milk", with: "[x] Milk"))
    }

    /// Metadata that is not the raw front matter read (keys and values) cannot be written as
    /// front matter here: setting it, or writing a list with it into a checklist, is an
    /// error, where it had been taken away without a word.
    @Test("metadata of keys and values written into a checklist is an error, not front matter taken away")
    func structuredMetadata() throws {
        var document = try TodoDocument(parsing: Self.checklist)
        #expect(throws: (any Error).self) { try document.setMetadata([Field("title", .string("Other"))]) }
        var list = document.list
        list.metadata = [Field("title", .string("Other"))]
        #expect(throws: (any Error).self) { try document.update(with: list) }
        #expect(document.text == Self.checklist)
    }

    @Test("other formats leave the front matter out, with a warning; --strict refuses")
    func leftOut() throws {
        let directory = try TemporaryDirectory()
        let input = directory.path("list.md")
        let output = directory.path("list.json")
        try Self.checklist.write(toFile: input, atomically: false, encoding: .utf8)
        let warnings = try Conversion(input: .at(input), output: .at(output)).run()
        #expect(warnings.map(\.description) == [TodoList.rawFrontMatterLeftOut.description])
        #expect(TodoList.rawFrontMatterLeftOut.message.contains("this build of todofmt has no YAML"))
        let json = try String(contentsOfFile: output, encoding: .utf8)
        #expect(!json.contains("---") && !json.contains("Groceries") && json.contains("Milk"))
        // Into the existing file too, and --strict writes nothing.
        try Self.checklist.replacingOccurrences(of: "Eggs", with: "Bread").write(
            toFile: input, atomically: false, encoding: .utf8)
        #expect(throws: ConversionError.self) {
            try Conversion(input: .at(input), output: .at(output), strict: true).run()
        }
        #expect(try String(contentsOfFile: output, encoding: .utf8) == json)
        let updated = try Conversion(input: .at(input), output: .at(output)).run()
        #expect(updated.contains { $0.kind == .metadata })
        #expect(try String(contentsOfFile: output, encoding: .utf8).contains("Bread"))
    }

    @Test("`---` lines around no `key:` line are Markdown, as YAML would not read a mapping there")
    func notFrontMatter() throws {
        let list = try TodoList(markdown: "---\n# a comment\n---\n- [ ] a\n")
        #expect(list.metadata.isEmpty)
        #expect(list.items.map(\.name) == ["a"])
        #expect(try TodoList(markdown: "---\n- [ ] inside\n---\n- [ ] a\n").items.count == 2)
    }

    @Test("a YAML file, or a new one, is an error that says this build has no YAML; nothing is written")
    func yamlRefused() throws {
        let directory = try TemporaryDirectory()
        let yaml = directory.path("list.yaml")
        let markdown = directory.path("list.md")
        try "- name: a\n".write(toFile: yaml, atomically: false, encoding: .utf8)
        try "- [ ] a\n".write(toFile: markdown, atomically: false, encoding: .utf8)
        let reading = try #require(throws: ConversionError.self) {
            try TodoList(contentsOf: URL(fileURLWithPath: yaml))
        }
        #expect(reading.description.contains("\(yaml): this build of todofmt has no YAML"))
        let out = directory.path("new.yml")
        #expect(throws: ConversionError.self) { try Conversion(input: .at(markdown), output: .at(out)).run() }
        #expect(!FileManager.default.fileExists(atPath: out))
    }
}
#endif
