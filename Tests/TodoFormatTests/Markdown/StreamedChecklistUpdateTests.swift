import Foundation
import Testing

@testable import TodoFormat

/// A list from another format written into an existing checklist as it is read
/// (`MarkdownFormat.update(_:options:streaming:)`): written as a new checklist, which is then
/// written into the file as a checklist is. The text must be the one the list's own update
/// (`TodoDocument.update(with:)`) makes, for checklists as people keep them and hostile ones,
/// edited at random.
@Suite("A list read from another format, written into a checklist")
struct StreamedChecklistUpdateTests {
    /// The text `existing` becomes with `list` written in by the streamed path, or "error: …";
    /// nil where that path leaves the list to the other one.
    static func streamed(_ list: TodoList, into existing: String) -> String? {
        do {
            let input = Input(bytes: Array(existing.utf8), name: "old.md")
            guard let result = try MarkdownFormat.edit(of: input, streaming: { try list.send(to: &$0) }) else {
                return nil
            }
            guard let edit = result.edit else { return existing }
            var sink = ByteSink()
            try edit.write(to: &sink)
            return String(decoding: try sink.finish(path: "old.md"), as: UTF8.self)
        } catch {
            return "error: \(error)"
        }
    }

    /// The text `existing` becomes with `list` written in by the list's own update, or
    /// "error: …". A list without metadata keeps the file's front matter, as a list from
    /// another format does.
    static func whole(_ list: TodoList, into existing: String) -> String {
        do {
            var document = try TodoDocument(parsing: existing, path: "old.md")
            var list = list
            if list.metadata.isEmpty { list.metadata = document.metadata }
            try document.update(with: list)
            return document.text
        } catch {
            return "error: \(error)"
        }
    }

    /// Random edits of each document written both ways; returns how many took the streamed
    /// path, and the first few that differ.
    static func compare(_ documents: [String], seed base: UInt64, renaming: Bool = false) throws -> (
        streamed: Int, failed: [String]
    ) {
        var streamedCount = 0
        var failures: [String] = []
        for (seed, text) in documents.enumerated() {
            var rng = SeededGenerator(seed: UInt64(seed) &+ base)
            var list = try TodoDocument(parsing: text).list
            // One document in eight is written back with its own list; of the others, half
            // get edits that keep the items' places (which the streamed path takes), half any.
            for _ in 0..<(seed % 8 == 0 ? 0 : Int.random(in: 1...3, using: &rng)) {
                if seed % 2 == 0 || renaming {
                    Self.editInPlace(&list, &rng, fresh: renaming ? "Renamed \(seed)" : nil)
                } else {
                    ListEdits.edit(&list, &rng)
                }
            }
            // One in three gets other metadata, or none (plain JSON has none: the file's stays). (A build
            // without YAML writes only the front matter it read.)
            if seed % 3 == 1 {
                let other = buildHasYAML ? [Field("title", .string("Other")), Field("n", .integer(2))] : []
                list.metadata = Bool.random(using: &rng) ? [] : other
            }
            guard let streamed = streamed(list, into: text) else { continue }
            streamedCount += 1
            let whole = whole(list, into: text)
            // Where the list's own update cannot write the list (a document too tangled to
            // change in place), the streamed one may not either; where it can, it must
            // write the same text.
            if streamed != whole && !(whole.hasPrefix("error: ") && streamed.hasPrefix("error: ")) {
                failures.append("seed \(seed)\n--- existing\n\(text)\n--- streamed\n\(streamed)\n--- whole\n\(whole)")
            }
        }
        return (streamedCount, failures)
    }

    /// Changes one item's status, name (to `fresh` where given) or fields.
    static func editInPlace(_ list: inout TodoList, _ rng: inout SeededGenerator, fresh: String? = nil) {
        guard let path = ListEdits.paths(list.items).randomElement(using: &rng) else { return }
        ListEdits.modify(&list.items, path) { item in
            switch Int.random(in: 0..<3, using: &rng) {
            case 0: item.status = [.open, .done, .custom("/"), .custom("?")].randomElement(using: &rng)!
            case 1: item.name = fresh ?? ListEdits.names.randomElement(using: &rng)!
            default:
                item.fields =
                    Bool.random(using: &rng) ? [] : [Field("due", .string("2026-01-02")), Field("n", .integer(3))]
            }
        }
    }

    /// Checklists of sections and many items, each name its own (`ChecklistFileUpdateTests`),
    /// written as todofmt writes them or as generated: most of these keep the streamed path.
    @Test("long checklists of names each its own, edited at random, get the text the list's own update writes")
    func uniqueNames() throws {
        var random = SeededGenerator(seed: 5)
        let documents = (0..<300).map { k -> String in
            // (In NFC: a name spelled otherwise leaves the list to its own update.)
            let text = ChecklistFileUpdateTests.text(ChecklistFileUpdateTests.checklist(&random, unique: true))
                .precomposedStringWithCanonicalMapping
            guard k % 2 == 0 else { return text }
            // Half as todofmt writes the list: the file a JSON list was written as.
            var writer = MarkdownWriter(into: ByteSink(), outputName: "")
            try? TodoDocument(parsing: text).list.send(to: &writer)
            return (try? writer.finish()).map { String(decoding: $0.bytes, as: UTF8.self) } ?? text
        }
        let result = try Self.compare(documents, seed: 79_000, renaming: true)
        #expect(result.streamed >= 100)
        #expect(
            result.failed.isEmpty,
            "\(result.failed.count) differ:\n\(result.failed.prefix(2).joined(separator: "\n\n"))")
    }

    @Test("checklists as people keep them, edited at random, get the text the list's own update writes")
    func realistic() throws {
        let documents = (0..<400).map { ChecklistGenerator.document(seed: UInt64($0) &+ 9_000) }
        let result = try Self.compare(documents, seed: 77_000)
        #expect(
            result.failed.isEmpty,
            "\(result.failed.count) differ:\n\(result.failed.prefix(2).joined(separator: "\n\n"))")
    }

    @Test("hostile checklists, edited at random, get the text the list's own update writes")
    func hostile() throws {
        let documents = (0..<400).map { MarkdownGenerator.document(seed: UInt64($0) &+ 90_000, lines: 30) }
        let result = try Self.compare(documents, seed: 78_000)
        #expect(
            result.failed.isEmpty,
            "\(result.failed.count) differ:\n\(result.failed.prefix(2).joined(separator: "\n\n"))")
    }

    /// A file as todofmt writes the list, but with its sections' headings a level deeper
    /// (`## Backlog`) and front matter followed by a blank line, as people keep a `TODO.md`:
    /// the new checklist is written with the file's heading level, and the file's blank
    /// line after its front matter is taken with it, so that the two texts differ in the
    /// changed items alone. (Each heading, and the blank line, had sent such a list the whole
    /// list's way: a million items from JSON into the checklist they came from took 12 s.)
    @Test("deeper headings and a blank line after the front matter still take the streamed path, with the same text")
    func deeperHeadings() throws {
        var random = SeededGenerator(seed: 11)
        let documents = try (0..<120).map { _ -> String in
            let text = ChecklistFileUpdateTests.text(ChecklistFileUpdateTests.checklist(&random, unique: true))
                .precomposedStringWithCanonicalMapping
            var list = try TodoDocument(parsing: text).list
            list.metadata = []
            var writer = MarkdownWriter(into: ByteSink(), outputName: "")
            try list.send(to: &writer)
            let lines = String(decoding: try writer.finish().bytes, as: UTF8.self)
                .split(separator: "\n", omittingEmptySubsequences: false)
            return "---\ntitle: T\n---\n\n" + lines.map { $0.hasPrefix("# ") ? "#" + $0 : $0 }.joined(separator: "\n")
        }
        let result = try Self.compare(documents, seed: 81_000, renaming: true)
        #expect(result.streamed >= 50)
        #expect(
            result.failed.isEmpty,
            "\(result.failed.count) differ:\n\(result.failed.prefix(2).joined(separator: "\n\n"))")
    }

    @Test(
        "a file's section headings' level: the last before its first task line, else its first",
        arguments: [
            ("# Title\n\n## A\n- [ ] a\n# B\n", 2),
            ("- [ ] a\n### B\n- [ ] b\n", 3),
            ("---\n# a YAML comment\n---\n## A\n- [ ] a\n", 2),
            ("Prose.\n- [ ] a\n", 1),
            ("####### seven\n#tag\n- [ ] a\n", 1),
        ])
    func sectionHeadingLevel(text: String, level: Int) {
        let found = Array(text.utf8).withUnsafeBufferPointer { MarkdownFormat.sectionHeadingLevel(in: $0) }
        #expect(found == level)
    }

    /// Items of one name pair by their content in the list's own update (a checked item
    /// takes the lines of its namesake that was checked), by their places in a checklist's:
    /// such a list goes the list's way (hunt 94). So do items that trade names.
    @Test(
        "items of one name, or that trade names, are written as the list's own update writes them",
        arguments: [
            (
                "# A\n- [x] a\n# H\n- [ ] a\n",
                #"[{"name":"a","checked":false,"section":"A"},{"name":"a","checked":true,"section":"H"}]"#
            ),
            (
                "# A\nprose line\n- [x] a\n# H\n- [ ] a\n",
                #"[{"name":"a","section":"A"},{"name":"a","checked":true,"section":"H"}]"#
            ),
            (
                "- [x] a\n- [X] a\n  - [>] c\n",
                #"[{"name":"a"},{"name":"a","checked":true,"children":[{"name":"c","checked":true}]}]"#
            ),
            (
                "- [ ] a\n- [ ] i\n  - [ ] b\n    - [ ] a\n      - [x] a\n",
                #"[{"name":"a"},{"name":"i","children":[{"name":"b","children":[{"name":"a","checked":true,"children":[{"name":"a"}]}]}]}]"#
            ),
            ("- [ ] a [n:: 1]\n- [x] b\n", #"[{"name":"b","n":1},{"name":"c","checked":true}]"#),
            ("- [ ] a\n\n  note\n- [ ] b\n", #"[{"name":"b"},{"name":"a"}]"#),
        ])
    func namesRepeated(existing: String, json: String) throws {
        var builder = ListBuilder()
        try JSONFormat().read(Input(bytes: Array(json.utf8), name: "in.json"), options: ListOptions(), into: &builder)
        let list = builder.finish()
        let streamed = Self.streamed(list, into: existing)
        #expect(streamed == nil || streamed == Self.whole(list, into: existing))
    }

    /// The streamed update's read of the file for its changed boxes stops once it has them
    /// (`MarkdownSource.streamUntil`), checking the UTF-8 of what it reads.
    @Test("a read that stops once its sink is done checks the UTF-8 of what it read, and no more")
    func readUntilDone() throws {
        let items = (0..<400).map { "- [ ] item \($0) 日本語\n" }.joined()
        func read(_ bytes: [UInt8]) throws -> Int {
            var collector = PlainCollector()
            try bytes.withUnsafeBufferPointer {
                try MarkdownSource.streamUntil(
                    bytes: $0, path: "t.md", plainNamesInto: &collector, blockSize: 256,
                    done: { $0.plainCount >= 10 })
            }
            return collector.plainCount
        }
        let count = try read(Array(("---\ntitle: T\n---\n" + items).utf8))
        #expect(count >= 10 && count < 40)
        // A byte that is not UTF-8: in the front matter, in the first item, past where the
        // read stops.
        var front = Array("---\ntitle: T\n---\n".utf8)
        front.insert(0xFF, at: 11)
        #expect(throws: ParseError.self) { try read(front + Array(items.utf8)) }
        #expect(throws: ParseError.self) { try read([0xFF] + Array(items.utf8)) }
        #expect(try read(Array(items.utf8) + [0xFF]) < 40)
    }

    /// A checklist of more than a block of lines (a megabyte) from JSON with one box changed:
    /// its read stops after that box, and the file changes in that box alone, wherever it
    /// stands. A front matter that is not UTF-8 is still an error.
    @Test("a box changed in a checklist of several blocks is written in place, first, middle or last")
    func boxInLongChecklist() throws {
        let names = (0..<40_000).map { "task \($0) 買い物リスト 🎉" }
        let text = "---\ntitle: Long\n---\n\n" + names.map { "- [ ] \($0)\n" }.joined()
        #expect(text.utf8.count > 1 << 20)
        for changed in [3, 20_000, 39_999] {
            let list = TodoList(
                items: names.enumerated().map { TodoItem(name: $1, status: $0 == changed ? .done : .open) })
            let expected = text.replacingOccurrences(
                of: "- [ ] \(names[changed])\n", with: "- [x] \(names[changed])\n")
            #expect(Self.streamed(list, into: text) == expected, "item \(changed)")
        }
        // Written with one box changed, and with none.
        var bytes = Array(text.utf8)
        bytes[11] = 0xFF  // in the title's value, where a build without YAML takes the front matter
        let input = Input(bytes: bytes, name: "old.md")
        for changed in [3, -1] {
            let list = TodoList(
                items: names.enumerated().map { TodoItem(name: $1, status: $0 == changed ? .done : .open) })
            #expect(throws: ParseError.self) {
                _ = try MarkdownFormat.edit(of: input, streaming: { try list.send(to: &$0) })
            }
        }
    }
}
