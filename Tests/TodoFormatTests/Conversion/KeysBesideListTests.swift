import Foundation
import Testing

@testable import TodoFormat

/// A list read out of a dictionary root leaves the root's other keys behind (an app's
/// other data, a preference file's other settings): a warning names them, `--strict`
/// refuses, and a root that holds only the list (or is the list) says nothing. Files are
/// made by Python's json, PyYAML and plistlib (which sorts keys: the files' keys are in
/// that order, as the warning names them in the file's order).
@Suite("Keys beside the list")
struct KeysBesideListTests {
    static let extensions = ["json", "plist", "bplist"] + (buildHasYAML ? ["yaml"] : [])

    static let items = "[{'name': 'a', 'checked': False}, {'name': 'b', 'checked': True}]"

    /// The warnings of converting the file to a new checklist, and the checklist.
    static func convert(_ input: String, in directory: TemporaryDirectory, strict: Bool = false) throws -> (
        [ConversionWarning], String
    ) {
        let output = directory.path("out-\(UUID().uuidString).md")
        let warnings = try Conversion(input: .at(input), output: .at(output), strict: strict).run()
        return (warnings, try String(contentsOfFile: output, encoding: .utf8))
    }

    @Test("the root's other keys, nested ones as paths, are named; the items all arrive", arguments: extensions)
    func named(ext: String) throws {
        let directory = try TemporaryDirectory()
        let flat = try KeyPlacementTests.make(
            "flat.\(ext)", "{'settings': {'theme': 'dark'}, 'todos': \(Self.items), 'version': 2, 'zone': 'x'}",
            in: directory)
        let (warnings, text) = try Self.convert(flat, in: directory)
        #expect(text == "- [ ] a\n- [x] b\n")
        #expect(
            warnings.map(\.message) == [
                "only the list under 'todos' is read from \(flat): the keys beside it ('settings', 'version', 'zone') were left out"
            ])
        #expect(warnings.map(\.kind) == [.besideList])

        let nested = try KeyPlacementTests.make(
            "nested.\(ext)", "{'data': {'n': 2, 'todos': \(Self.items)}, 'v': 1}", in: directory)
        #expect(
            try Self.convert(nested, in: directory).0.map(\.message) == [
                "only the list under 'data.todos' is read from \(nested): the keys beside it ('v', 'data.n') were left out"
            ])
    }

    @Test("a root that is the list, or holds only it, says nothing", arguments: extensions)
    func silent(ext: String) throws {
        let directory = try TemporaryDirectory()
        for value in [Self.items, "{'todos': \(Self.items)}", "{'data': {'todos': \(Self.items)}}"] {
            let path = try KeyPlacementTests.make("list-\(UUID().uuidString).\(ext)", value, in: directory)
            let (warnings, text) = try Self.convert(path, in: directory)
            #expect(warnings.isEmpty, "\(value)")
            #expect(text == "- [ ] a\n- [x] b\n")
        }
    }

    @Test("--strict refuses, writing nothing; into an existing file the warning stands too")
    func strictAndExisting() throws {
        let directory = try TemporaryDirectory()
        let input = try KeyPlacementTests.make("app.json", "{'version': 2, 'todos': \(Self.items)}", in: directory)
        let output = directory.path("out.md")
        #expect(throws: ConversionError.self) {
            try Conversion(input: .at(input), output: .at(output), strict: true).run()
        }
        #expect(!FileManager.default.fileExists(atPath: output))
        try "- [ ] old\n".write(toFile: output, atomically: false, encoding: .utf8)
        let existing = directory.path("other.json")
        try #"[{"name": "old", "checked": false}]"#.write(toFile: existing, atomically: false, encoding: .utf8)
        let warnings = try Conversion(input: .at(input), output: .at(existing)).run()
        #expect(warnings.map(\.kind) == [.besideList])
        #expect(try String(contentsOfFile: existing, encoding: .utf8).contains("\"b\""))
    }

    /// A checklist that holds the list in its own layout is updated from the new checklist's
    /// text (`MarkdownFormat.update(_:options:streaming:)`); one whose items are otherwise
    /// is updated from the list built. Either way the warning stands, and `--strict` leaves
    /// the file as it was.
    @Test(
        "into an existing checklist the warning stands, whichever way the list goes in; --strict leaves the file",
        arguments: [
            ("- [ ] a\n- [ ] b\n", "- [ ] a\n- [x] b\n"), ("* [ ] a\n\n* [ ] b\n", "* [ ] a\n\n* [x] b\n"),
            ("Intro.\n\n- [ ] b\n", "Intro.\n\n- [ ] a\n- [x] b\n"),
        ])
    func intoChecklist(existing: String, expected: String) throws {
        let (warnings, written) = try Self.written(
            "app.json", "{'version': 2, 'todos': \(Self.items)}", into: existing)
        #expect(warnings.map(\.kind) == [.besideList])
        #expect(written == expected)
    }

    /// The warnings and text of the JSON `json` (Python's literal, in a file `name`) written
    /// into a checklist `existing`, after `--strict` refused it and left the file as it was.
    static func written(_ name: String, _ json: String, into existing: String) throws -> (
        warnings: [ConversionWarning], text: String
    ) {
        let directory = try TemporaryDirectory()
        let input = try KeyPlacementTests.make(name, json, in: directory)
        let output = directory.path("out.md")
        try existing.write(toFile: output, atomically: false, encoding: .utf8)
        #expect(throws: ConversionError.self) {
            try Conversion(input: .at(input), output: .at(output), strict: true).run()
        }
        #expect(try String(contentsOfFile: output, encoding: .utf8) == existing)
        let warnings = try Conversion(input: .at(input), output: .at(output)).run()
        return (warnings, try String(contentsOfFile: output, encoding: .utf8))
    }

    /// What a checklist cannot hold warns in an existing checklist as in a new one (hunt 96):
    /// an item without a section after one with one reads back under that one's heading.
    @Test(
        "into an existing checklist, an item that will read under another's heading warns; --strict leaves the file",
        arguments: ["## Home\n- [ ] a\n", "# Home\n\n- [ ] a\n"])
    func sectionlessIntoChecklist(existing: String) throws {
        let (warnings, written) = try Self.written(
            "in.json", "[{'name': 'a', 'checked': True, 'section': 'Home'}, {'name': 'b'}]", into: existing)
        #expect(warnings.map(\.message).contains { $0.contains("read back under it") })
        #expect(written == existing.replacingOccurrences(of: "- [ ] a\n", with: "- [x] a\n- [ ] b\n"))
    }
}
