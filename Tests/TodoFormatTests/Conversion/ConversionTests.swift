import Foundation
import Testing

@testable import TodoFormat

@Suite("Conversion and files")
struct ConversionTests {
    /// A JSON list `in.json` in `directory` (by default one checked item `a`); its path.
    static func jsonInput(_ json: String = #"[{"name": "a", "checked": true}]"#, in directory: TemporaryDirectory)
        throws -> String
    {
        let input = directory.path("in.json")
        try json.write(toFile: input, atomically: false, encoding: .utf8)
        return input
    }

    @Test("formats by name, extension and content", .needsYAML)
    func detection() {
        #expect(DocumentFormat(name: "markdown") == .markdown)
        #expect(DocumentFormat(name: "YML") == .yaml)
        #expect(DocumentFormat(name: "plist") == .plist)
        #expect(DocumentFormat(name: "bplist") == .bplist)
        #expect(DocumentFormat(name: "csv") == nil)
        #expect(DocumentFormat(path: "dir.v2/TODO.MD") == .markdown)
        #expect(DocumentFormat(path: "a.yml") == .yaml)
        #expect(DocumentFormat(path: "x.json") == .json)
        #expect(DocumentFormat(path: "dir.json/README") == nil)
        #expect(DocumentFormat.read(from: Array("  [\n {\"name\": 1}]".utf8)) == .json)
        #expect(DocumentFormat.read(from: Array("\u{FEFF}{}".utf8)) == .json)
        #expect(DocumentFormat.read(from: Array("[x] is not JSON\n".utf8)) == .markdown)
        #expect(DocumentFormat.read(from: Array("# Title\n\n- [ ] a\n".utf8)) == .markdown)
        #expect(DocumentFormat.read(from: Array("- name: Milk\n  checked: false\n".utf8)) == .yaml)
        #expect(DocumentFormat.read(from: Array("---\ntitle: x\n---\n- [ ] a\n".utf8)) == .markdown)
        #expect(DocumentFormat.read(from: []) == .markdown)
    }

    @Test("checklist to JSON to checklist, with files and formats from extensions", .needsYAML)
    func throughFiles() throws {
        let directory = try TemporaryDirectory()
        let json = directory.path("list.json")
        let back = directory.path("back.md")
        let warnings = try Conversion(input: .at(Fixture.path("markdown/groceries.md")), output: .at(json)).run()
        #expect(
            warnings.map(\.description) == ["plain JSON has no place for the list's metadata (title); it was left out"])
        #expect(try Conversion(input: .at(json), output: .at(back)).run().isEmpty)
        let original = try TodoList(contentsOf: .file(Fixture.path("markdown/groceries.md")))
        #expect(try TodoList(contentsOf: .file(back)) == TodoList(items: original.items))
    }

    @Test("a checklist warns of sections it cannot carry: an item without one after a heading, a nested item's")
    func sectionsInAChecklist() throws {
        let directory = try TemporaryDirectory()
        let json = directory.path("list.json")
        let md = directory.path("list.md")
        try #"[{"name": "a", "section": "S"}, {"name": "b"}, {"name": "c"}]"#.write(
            toFile: json, atomically: false, encoding: .utf8)
        let warnings = try Conversion(input: .at(json), output: .at(md)).run()
        #expect(
            warnings.map(\.description) == [
                "a checklist's heading covers the items after it: items without a section after one with a section read back under it "
                    + "(2 items, the first 2 b)"
            ])
        #expect(try String(contentsOfFile: md, encoding: .utf8) == "# S\n- [ ] a\n- [ ] b\n- [ ] c\n")
        let nested = TodoList(items: [TodoItem(name: "a", children: [TodoItem(name: "b", section: "T")])])
        var writer = MarkdownWriter(into: ByteSink(), outputName: "nested.md")
        try nested.send(to: &writer)
        #expect(
            try writer.finish().warnings.map(\.description) == [
                "a checklist has sections (headings) for top-level items only: nested items' sections were left out (item 1.1 b)"
            ])
    }

    @Test("a failed conversion leaves the output file as it was, and no temporary file", .needsYAML)
    func failureLeavesOutput() throws {
        let directory = try TemporaryDirectory()
        let output = directory.path("out.json")
        let old = "[{\"title\": \"kept\", \"done\": true}]\n"
        try old.write(toFile: output, atomically: false, encoding: .utf8)
        let input = directory.path("bad.yaml")
        try "- name: a\n- oops: [\n".write(toFile: input, atomically: false, encoding: .utf8)
        #expect(
            throws: ParseError(
                "yaml: did not find expected node content while parsing a flow node",
                at: SourceLocation(file: input, line: 3, column: 1))
        ) { try Conversion(input: .at(input), output: .at(output)).run() }
        #expect(try String(contentsOfFile: output, encoding: .utf8) == old)
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: directory.url.path).sorted() == [
                "bad.yaml", "out.json",
            ])
        // An output that is not a list todofmt can update is not overwritten either.
        try "old content\n".write(toFile: output, atomically: false, encoding: .utf8)
        let refused = try #require(throws: ConversionError.self) {
            try Conversion(input: .at(Fixture.path("markdown/groceries.md")), output: .at(output)).run()
        }
        #expect(
            refused.description
                == "\(output) exists and is not a todo list file todofmt can write into; remove it to write a new one")
        #expect(try String(contentsOfFile: output, encoding: .utf8) == "old content\n")
    }

    @Test("a checklist of front matter and prose, with no items yet, takes a list; a .json file of YAML is refused")
    func frontMatterOnlyChecklist() throws {
        let directory = try TemporaryDirectory()
        let input = try Self.jsonInput(in: directory)
        // Its `title: x` lines could be YAML, but the name says checklist and a checklist reads it.
        let checklist = directory.path("todo.md")
        try "---\ntitle: x\n---\n\n# Notes\n".write(toFile: checklist, atomically: false, encoding: .utf8)
        try Conversion(input: .at(input), output: .at(checklist)).run()
        #expect(try String(contentsOfFile: checklist, encoding: .utf8) == "---\ntitle: x\n---\n\n- [x] a\n# Notes\n")
        // YAML lines in a `.json` file are JSON's to read, as every command reads them: JSON
        // cannot, and the file stays as it was. (A build without YAML knows no format in
        // them, and refuses the file as no todo list.)
        let path = directory.path("list.json")
        let text = "title: x\ntodos: []\n"
        try text.write(toFile: path, atomically: false, encoding: .utf8)
        let error = try #require(throws: (any Error).self) {
            try Conversion(input: .at(input), output: .at(path), outputFormat: .json).run()
        }
        #expect(
            buildHasYAML
                ? error is ParseError
                : "\(error)"
                    == "\(path) exists and is not a todo list file todofmt can write into; remove it to write a new one"
        )
        #expect(try String(contentsOfFile: path, encoding: .utf8) == text)
    }

    /// A `.md` file is a checklist unless its content is surely another format (a database,
    /// a property list), or `--to` names the format it may be: text that YAML or JSON could
    /// read as a list is a checklist's prose, as every other command reads it. Written as
    /// YAML, such prose was replaced by the list without a word (helper hunt 103).
    @Test(
        "a .md file whose text YAML or JSON could read keeps that text and takes the list as a checklist",
        arguments: [
            "- name: buy milk\n- name: call mom\n",
            "---\nk: v\n---\n- name: buy milk\n- name: call mom\n",
            "# Plan\n\n- task: write report\n  due: friday\n",
            "- title: Read book\n",
            "title: x\n---\n- name: q\n  checked: true\n",
            #"[{"name": "old", "checked": false}]\#n"#,
            // Front matter past the 64 KiB whose lines tell the format, before task items.
            "---\n" + (0..<9000).map { "k\($0): v\n" }.joined() + "---\n- [ ] a\n- [ ] b\n",
        ])
    func markdownNameKeepsText(text: String) throws {
        let directory = try TemporaryDirectory()
        let input = try Self.jsonInput(#"[{"name": "a", "checked": true}, {"name": "b"}]"#, in: directory)
        let path = directory.path("notes.md")
        try text.write(toFile: path, atomically: false, encoding: .utf8)
        try Conversion(input: .at(input), output: .at(path)).run()
        let written = try String(contentsOfFile: path, encoding: .utf8)
        // Every line of the file is still there, in order, and the file reads as the list.
        var rest = written[...]
        for line in text.split(separator: "\n") where !line.hasPrefix("- [ ] ") {
            let found = try #require(rest.range(of: line + "\n"), "\(line) is gone:\n\(written)")
            rest = rest[found.upperBound...]
        }
        let list = try TodoDocument(parsing: written).list
        #expect(list.items.map(\.name) == ["a", "b"])
        #expect(list.items.map(\.isChecked) == [true, false])
    }

    /// An existing file is written in the format every other command reads it in: a
    /// checklist named `.json` is not JSON, and the write fails as `list` does, the file as it
    /// was (it was written into as a checklist); a Markdown file by another extension keeps
    /// its bullets that YAML could read (they went as a YAML list: helper hunt 104).
    @Test("an existing file is written in the format it is read in")
    func writtenAsRead() throws {
        let directory = try TemporaryDirectory()
        let input = try Self.jsonInput(in: directory)
        let json = directory.path("todo.json")
        try "- [ ] old\n".write(toFile: json, atomically: false, encoding: .utf8)
        #expect(throws: ParseError.self) { try TodoList(contentsOf: URL(fileURLWithPath: json)) }
        #expect(throws: ParseError.self) { try Conversion(input: .at(input), output: .at(json)).run() }
        #expect(try String(contentsOfFile: json, encoding: .utf8) == "- [ ] old\n")
        for name in ["notes.mkd", "notes.mdown", "notes.markdown"] {
            let path = directory.path(name)
            try "- task: write report\n".write(toFile: path, atomically: false, encoding: .utf8)
            try Conversion(input: .at(input), output: .at(path)).run()
            #expect(try String(contentsOfFile: path, encoding: .utf8) == "- task: write report\n- [x] a\n", "\(name)")
        }
    }

    /// An existing property list stays XML or binary whichever of the two `--to` names,
    /// with a warning that says so (the write was silent: hunt 104); under `--strict` the
    /// warning refuses the write, the file as it was.
    @Test(
        "--to naming the other kind of property list keeps an existing one's, with a warning",
        arguments: [(DocumentFormat.bplist, DocumentFormat.plist), (.plist, .bplist)])
    func propertyListKindKept(existing: DocumentFormat, given: DocumentFormat) throws {
        let directory = try TemporaryDirectory()
        let input = directory.path("in.md")
        let plist = directory.path("list.plist")
        try "- [ ] old\n".write(toFile: input, atomically: false, encoding: .utf8)
        try Conversion(input: .at(input), output: .at(plist), outputFormat: existing).run()
        let head = Array(try Data(contentsOf: URL(fileURLWithPath: plist)).prefix(8))
        try "- [x] new\n".write(toFile: input, atomically: false, encoding: .utf8)
        let before = try Data(contentsOf: URL(fileURLWithPath: plist))
        #expect(throws: ConversionError.self) {
            try Conversion(input: .at(input), output: .at(plist), outputFormat: given, strict: true).run()
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: plist)) == before)

        let warnings = try Conversion(input: .at(input), output: .at(plist), outputFormat: given).run()
        let kind = existing == .bplist ? "a binary" : "an XML"
        #expect(
            warnings.map(\.description) == [
                "\(plist) is \(kind) property list and stays one (--to \(given.rawValue) applies to a new file)"
            ])
        #expect(Array(try Data(contentsOf: URL(fileURLWithPath: plist)).prefix(8)) == head)
        #expect(try TodoList(contentsOf: .file(plist)).items == [TodoItem(name: "new", status: .done)])
        // `--to` naming its own kind: no warning.
        #expect(try Conversion(input: .at(input), output: .at(plist), outputFormat: existing).run().isEmpty)
    }

    /// `--to` naming the format a `.md` file's text may be in: the file is written as that
    /// format (a YAML list kept in a `.md` file stays YAML); naming another is refused.
    @Test("--to yaml writes into a .md file that holds a YAML list as YAML")
    func markdownNameHoldingYAML() throws {
        guard buildHasYAML else { return }
        let directory = try TemporaryDirectory()
        let input = try Self.jsonInput(in: directory)
        let path = directory.path("list.md")
        try "title: x\n---\n- name: q\n  checked: false\n".write(toFile: path, atomically: false, encoding: .utf8)
        try Conversion(input: .at(input), output: .at(path), outputFormat: .yaml).run()
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "title: x\n---\n- name: a\n  checked: true\n")
        let json = directory.path("json.md")
        let text = #"[{"name": "old"}]\#n"#
        try text.write(toFile: json, atomically: false, encoding: .utf8)
        #expect(
            throws: ConversionError.unsupported(
                "\(json) exists and is a md file; writing yaml would replace it: remove it first")
        ) { try Conversion(input: .at(input), output: .at(json), outputFormat: .yaml).run() }
        #expect(try String(contentsOfFile: json, encoding: .utf8) == text)
    }

    @Test(
        "a list from a format without metadata keeps the checklist's front matter, on either path",
        arguments: [
            // Distinct names go the streamed way; a repeated one, the whole list's.
            (#"[{"name": "a", "checked": true}, {"name": "b"}]"#, "- [x] a\n- [ ] b\n"),
            (#"[{"name": "a", "checked": true}, {"name": "a"}]"#, "- [x] a\n- [ ] a\n"),
        ])
    func frontMatterKept(json: String, items: String) throws {
        let directory = try TemporaryDirectory()
        let input = try Self.jsonInput(json, in: directory)
        let checklist = directory.path("todo.md")
        let front = "---\ntitle: Groceries\nowner: me\n---\n\n"
        try (front + "- [ ] a\n- [ ] b\n").write(toFile: checklist, atomically: false, encoding: .utf8)
        #expect(try Conversion(input: .at(input), output: .at(checklist)).run() == [])
        #expect(try String(contentsOfFile: checklist, encoding: .utf8) == front + items)
    }

    /// JSON has no dates: a checklist's dates went to JSON as strings, and came back quoted,
    /// every item with one changed (helper hunt 100).
    @Test(
        "a checklist's dates come back from JSON as dates, on either path",
        arguments: [
            // Distinct names go the streamed way; a repeated one, the whole list's.
            ("k", "m"), ("k", "k"),
        ])
    func datesFromJSON(first: String, second: String) throws {
        let directory = try TemporaryDirectory()
        let checklist = directory.path("todo.md")
        let text =
            "# S\n- [ ] \(first) [due:: 2024-06-01T09:00:00Z]\n"
            + "- [ ] \(second) [due:: 2024-06-01T11:00:00+02:00] [note:: \"2024-06-01T09:00:00Z\"]\n"
            + "- [ ] n [due:: \"not a date\"]\n"
        try text.write(toFile: checklist, atomically: false, encoding: .utf8)
        let json = directory.path("list.json")
        _ = try Conversion(input: .at(checklist), output: .at(json)).run()
        #expect(try String(contentsOfFile: json, encoding: .utf8).contains(#""due": "2024-06-01T09:00:00Z""#))
        // Back unchanged: not a byte changes.
        #expect(try Conversion(input: .at(json), output: .at(checklist)).run() == [])
        #expect(try String(contentsOfFile: checklist, encoding: .utf8) == text)
        // One box changed, and an item added: its `due` is a date, its `note` a string.
        var list = try TodoList(contentsOf: URL(fileURLWithPath: json))
        list.items[0].status = .done
        list.items.append(
            TodoItem(
                name: "new",
                fields: [
                    Field("due", .string("2025-01-01T00:00:00Z")), Field("note", .string("2025-01-01T00:00:00Z")),
                ],
                section: "S"))
        try list.write(to: URL(fileURLWithPath: json))
        _ = try Conversion(input: .at(json), output: .at(checklist)).run()
        #expect(
            try String(contentsOfFile: checklist, encoding: .utf8)
                == "# S\n- [x] " + text.dropFirst("# S\n- [ ] ".count)
                + "- [ ] new [due:: 2025-01-01T00:00:00Z] [note:: \"2025-01-01T00:00:00Z\"]\n")
    }

    /// The first rule turned every date-time string under a date key into a date (helper hunt
    /// 101): a quoted string beside dates, a loose date-time, a string from a format that has
    /// dates of its own.
    @Test("a string stays a string: under a key that holds strings, not a date's own text, or from YAML")
    func datesFromJSONAreExact() throws {
        let directory = try TemporaryDirectory()
        let checklist = directory.path("todo.md")
        let mixed = "- [ ] a [due:: 2024-06-01T09:00:00Z]\n- [ ] b [due:: \"2024-06-02T09:00:00Z\"]\n"
        try mixed.write(toFile: checklist, atomically: false, encoding: .utf8)
        let json = directory.path("list.json")
        _ = try Conversion(input: .at(checklist), output: .at(json)).run()
        _ = try Conversion(input: .at(json), output: .at(checklist)).run()
        // `due` holds a string that reads as a date-time: no value under it is taken for a date.
        #expect(
            try String(contentsOfFile: checklist, encoding: .utf8)
                == "- [ ] a [due:: \"2024-06-01T09:00:00Z\"]\n- [ ] b [due:: \"2024-06-02T09:00:00Z\"]\n")
        let dated = "- [ ] seed [due:: 2024-06-01T09:00:00Z]\n"
        let loose = [
            "2024-02-30T09:00:00Z", "2024-06-01 09:00:00Z", "2024-06-01T11:00:00+02:00", "2024-06-01T09:00:00.250Z",
        ]
        for text in loose {
            try dated.write(toFile: checklist, atomically: false, encoding: .utf8)
            try #"[{"name": "seed", "due": "2024-06-01T09:00:00Z"}, {"name": "x", "due": "\#(text)"}]"#.write(
                toFile: json, atomically: false, encoding: .utf8)
            _ = try Conversion(input: .at(json), output: .at(checklist)).run()
            let items = try TodoList(contentsOf: URL(fileURLWithPath: checklist)).items
            #expect(items.count == 2 && items[1].fields == [Field("due", .string(text))], "\(text)")
        }
        #if YAML
        try dated.write(toFile: checklist, atomically: false, encoding: .utf8)
        let yaml = directory.path("list.yaml")
        try "- name: seed\n  due: 2024-06-01T09:00:00Z\n- name: x\n  due: \"2024-06-03T09:00:00Z\"\n".write(
            toFile: yaml, atomically: false, encoding: .utf8)
        _ = try Conversion(input: .at(yaml), output: .at(checklist)).run()
        #expect(try String(contentsOfFile: checklist, encoding: .utf8).hasSuffix("[due:: \"2024-06-03T09:00:00Z\"]\n"))
        #endif
    }

    @Test("a YAML list's metadata document still replaces the checklist's front matter", .needsYAML)
    func frontMatterReplaced() throws {
        let directory = try TemporaryDirectory()
        let input = directory.path("in.yaml")
        try "title: Shopping\n---\n- name: a\n  checked: true\n".write(
            toFile: input, atomically: false, encoding: .utf8)
        let checklist = directory.path("todo.md")
        try "---\ntitle: Groceries\n---\n- [ ] a\n".write(toFile: checklist, atomically: false, encoding: .utf8)
        _ = try Conversion(input: .at(input), output: .at(checklist)).run()
        #expect(try String(contentsOfFile: checklist, encoding: .utf8) == "---\ntitle: Shopping\n---\n- [x] a\n")
    }

    @Test("a write into a missing directory fails cleanly")
    func missingDirectory() throws {
        let directory = try TemporaryDirectory()
        let output = directory.path("no/such/dir/x.json")
        #expect(throws: ConversionError.io(path: output, reason: "No such file or directory")) {
            try Conversion(input: .at(Fixture.path("markdown/groceries.md")), output: .at(output)).run()
        }
    }

    @Test("an output keeps the permissions of the file it replaces, and writes through a link")
    func permissionsAndLinks() throws {
        let directory = try TemporaryDirectory()
        let target = directory.path("list.json")
        let link = directory.path("link.json")
        try "[]".write(toFile: target, atomically: false, encoding: .utf8)
        chmod(target, 0o640)
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
        _ = try Conversion(input: .at(Fixture.path("markdown/groceries.md")), output: .at(link)).run()
        let attributes = try FileManager.default.attributesOfItem(atPath: target)
        #expect((attributes[.posixPermissions] as? Int) == 0o640)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == target)
        #expect(try TodoList(contentsOf: .file(target)).items.map(\.name) == ["Milk", "Eggs"])
    }

    @Test("reading never changes the input", .needsYAML)
    func inputUntouched() throws {
        let directory = try TemporaryDirectory()
        let input = directory.path("in.md")
        try FileManager.default.copyItem(atPath: Fixture.path("markdown/crlf-bom.md"), toPath: input)
        let before = try FileManager.default.attributesOfItem(atPath: input)
        _ = try Conversion(input: .at(input), output: .at(directory.path("out.yaml"))).run()
        _ = try TodoDocument.problems(inFileAt: .file(input))
        let after = try FileManager.default.attributesOfItem(atPath: input)
        #expect(try Data(contentsOf: URL(fileURLWithPath: input)) == Fixture.data("markdown/crlf-bom.md"))
        #expect(before[.modificationDate] as? Date == after[.modificationDate] as? Date)
    }

    @Test("a missing input names the file")
    func missingInput() {
        #expect(throws: ConversionError.io(path: "/no/such.md", reason: "No such file or directory")) {
            try TodoList(contentsOf: .file("/no/such.md"))
        }
    }

    @Test("UTF-8 validation agrees with Swift's", arguments: 0..<200)
    func validation(seed: Int) {
        var rng = SeededGenerator(seed: UInt64(seed))
        var bytes = Array("plain ascii text, then ünïcödé and 😀 ".utf8)
        for _ in 0..<Int.random(in: 0..<3, using: &rng) {
            bytes.insert(UInt8.random(in: 0x80...0xFF, using: &rng), at: Int.random(in: 0..<bytes.count, using: &rng))
        }
        let ours = bytes.withUnsafeBufferPointer { UTF8Validation.isValid($0) }
        let swift = String(validating: bytes, as: UTF8.self)
        #expect(ours == (swift != nil))
        // The strings JSON and property list readers make: Swift's, or none.
        let string = UTF8Validation.string(bytes)
        #expect(string.map { Array($0.utf8) } == swift.map { Array($0.utf8) })
    }
}

@Suite("One nesting limit for every reader and writer")
struct NestingLimitTests {
    /// A chain of `levels` items, each the only child of the one before.
    static func chain(_ levels: Int) -> TodoList {
        var item = TodoItem(name: "level \(levels)")
        for level in stride(from: levels - 1, through: 1, by: -1) {
            item = TodoItem(name: "level \(level)", children: [item])
        }
        return TodoList(items: [item])
    }

    @Test(
        "the deepest list todofmt reads goes through every format and back", .needsYAML,
        arguments: [DocumentFormat.markdown, .json, .yaml, .plist, .bplist, .sql])
    func deepestRoundTrip(format: DocumentFormat) throws {
        let list = Self.chain(Limits.itemLevels)
        #expect(try TodoList(bytes: try list.encoded(as: format), format: format) == list)
    }

    @Test(
        "one level more is an error when writing, in every format", .needsYAML,
        arguments: [DocumentFormat.markdown, .json, .yaml, .plist, .bplist, .sql, .sqlite])
    func deeperIsRefused(format: DocumentFormat) throws {
        #expect(throws: ConversionError.unsupported(Limits.itemDepthMessage)) {
            try Self.chain(Limits.itemLevels + 1).encoded(as: format)
        }
    }

    @Test("one level more is an error at its place when reading")
    func deeperReadIsAnError() throws {
        let levels = Limits.itemLevels + 1
        let markdown = (0..<levels).map { String(repeating: "  ", count: $0) + "- [ ] level \($0 + 1)\n" }.joined()
        #expect(
            throws: ParseError(
                Limits.itemDepthMessage, at: SourceLocation(file: "deep.md", line: levels, column: 2 * (levels - 1) + 3)
            )
        ) {
            try TodoList(bytes: Array(markdown.utf8), format: .markdown, name: "deep.md")
        }
        var json = ""
        for level in 1..<levels { json += "{\"name\": \"\(level)\", \"children\": [" }
        json += "{\"name\": \"last\"}" + String(repeating: "]}", count: levels - 1)
        #expect(throws: ParseError.self) { try TodoList(bytes: Array(("[" + json + "]").utf8), format: .json) }
    }
}

/// Outputs that are not regular files are written where they are: renaming a new file over
/// `/dev/null` or a FIFO would replace it.
@Suite("Writing to special files")
struct SpecialFileTests {
    @Test("a FIFO gets the bytes and stays a FIFO; a database is refused there")
    func fifo() throws {
        let directory = try TemporaryDirectory()
        let fifo = directory.path("pipe")
        #expect(mkfifo(fifo, 0o600) == 0)
        let input = directory.path("list.md")
        try "- [ ] Milk\n- [x] Eggs\n".write(toFile: input, atomically: false, encoding: .utf8)
        nonisolated(unsafe) var received = Data()
        let reader = Thread {
            if let handle = FileHandle(forReadingAtPath: fifo) { received = handle.readDataToEndOfFile() }
        }
        reader.start()
        _ = try Conversion(input: .at(input), output: .at(fifo), outputFormat: .json).run()
        while !reader.isFinished { usleep(1000) }
        #expect(String(decoding: received, as: UTF8.self).contains(#""name": "Eggs", "checked": true"#))
        var info = stat()
        #expect(lstat(fifo, &info) == 0 && (info.st_mode & S_IFMT) == S_IFIFO)
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: directory.url.path).sorted() == ["list.md", "pipe"])
        #expect(throws: ConversionError.self) {
            try Conversion(input: .at(input), output: .at("/dev/null"), outputFormat: .sqlite).run()
        }
        #expect(lstat("/dev/null", &info) == 0 && (info.st_mode & S_IFMT) == S_IFCHR)
    }
}

/// Writers keep the written form of the last section (and YAML's of the last keys) to use it
/// again; Swift's strings compare by canonical equivalence, so the cache must compare bytes,
/// or a section or key spelled with a combining accent is written in the other spelling.
@Suite("Texts spelled two ways keep their spellings")
struct SpellingTests {
    static let composed = "Caf\u{E9} \u{C5}"
    static let decomposed = "Cafe\u{301} A\u{30A}"

    @Test(
        "sections and field keys in composed and decomposed form, into each format",
        arguments: ["json", "plist", "yaml", "sql"])
    func spellings(format: String) throws {
        #if !YAML
        if format == "yaml" { return }
        #endif
        let checklist = """
            # \(Self.composed)
            - [ ] a
            - [ ] b [\(Self.composed):: 1]
            # \(Self.decomposed)
            - [ ] c
            - [ ] d [\(Self.decomposed):: 2]
            # \(Self.composed)
            - [ ] e

            """
        let directory = try TemporaryDirectory()
        let source = directory.path("list.md")
        try checklist.write(toFile: source, atomically: false, encoding: .utf8)
        let output = directory.path("list.\(format)")
        _ = try Conversion(input: .at(source), output: .at(output)).run()
        let bytes = try Data(contentsOf: URL(fileURLWithPath: output))
        // Each spelling as often as the checklist has it: each item names its section (three
        // in one form, two in the other), and each form is a key once.
        func count(_ text: String) -> Int {
            let needle = Data(text.utf8)
            var n = 0
            var range = bytes.startIndex..<bytes.endIndex
            while let found = bytes.range(of: needle, in: range) {
                n += 1
                range = found.upperBound..<bytes.endIndex
            }
            return n
        }
        #expect(count(Self.composed) == 4, "\(format)")
        #expect(count(Self.decomposed) == 3, "\(format)")
        // And read back, the list is the checklist's, spelling for spelling.
        let back = try TodoList(contentsOf: .file(output))
        let sections = back.items.map { $0.section.map { Array($0.utf8) } }
        let written = try TodoList(markdown: checklist).items.map { $0.section.map { Array($0.utf8) } }
        #expect(sections == written, "\(format)")
    }

    @Test("a checklist written from a list starts a heading where the section's spelling changes")
    func headings() throws {
        let list = TodoList(items: [
            TodoItem(name: "a", section: Self.composed), TodoItem(name: "b", section: Self.decomposed),
            TodoItem(name: "c", section: Self.decomposed), TodoItem(name: "d", section: Self.composed),
        ])
        var writer = MarkdownWriter(into: ByteSink(), outputName: "t.md")
        try list.send(to: &writer)
        let text = String(decoding: try writer.finish().bytes, as: UTF8.self)
        let headings = text.split(separator: "\n").filter { $0.hasPrefix("# ") }.map { Array($0.utf8.dropFirst(2)) }
        #expect(headings == [Self.composed, Self.decomposed, Self.composed].map { Array($0.utf8) }, "\(text)")
        let back = try TodoList(markdown: text)
        #expect(
            back.items.map { $0.section.map { Array($0.utf8) } } == list.items.map { $0.section.map { Array($0.utf8) } }
        )
    }
}
