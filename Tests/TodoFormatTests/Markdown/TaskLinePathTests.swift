import Foundation
import Testing

@testable import TodoFormat

/// The parser reads the common task line (`- [ ] name` under task items) without its three
/// phases (`BlockParser.readTaskLine`); these tests read text both ways and compare all
/// that the parser reports.
@Suite("The parser's direct reading of task lines")
struct TaskLinePathTests {
    /// Everything a parser reports, as text.
    struct Recorder: BlockSink {
        var events: [String] = []
        mutating func item(_ item: ParsedItem) { events.append("item \(item)") }
        mutating func itemEnded(before: Int) { events.append("ended \(before)") }
        mutating func heading(text: String, level: Int, line: Int, start: Int, end: Int) {
            events.append("heading \(text) \(level) \(line) \(start) \(end)")
        }
        mutating func listBlock(firstLine: Int, lastLine: Int, canonicalizable: Bool) {
            events.append("list \(firstLine) \(lastLine) \(canonicalizable)")
        }
        mutating func nearMiss(line: Int, column: Int, message: String, relatedLine: Int?) {
            events.append("near miss \(line) \(column) \(message) \(String(describing: relatedLine))")
        }
        mutating func taskLikeText(line: Int, column: Int, itemLine: Int, hasCheckedBox: Bool) {
            events.append("task-like \(line) \(column) \(itemLine) \(hasCheckedBox)")
        }
        mutating func textBlock(line: Int) { events.append("text \(line)") }
    }

    /// What the parser reports for `text`, with or without the direct reading.
    static func events(_ text: String, direct: Bool) -> [String] {
        var text = text
        return text.withUTF8 { bytes in
            var parser = BlockParser(text: bytes, sink: Recorder())
            parser.readsTaskLinesDirectly = direct
            return parser.parse(from: 0, firstLine: 1).events
        }
    }

    @Test("every checklist fixture reads the same both ways")
    func fixtures() throws {
        let files = (Fixture.files(in: "markdown") + Fixture.files(in: "apps")).filter { $0.hasSuffix(".md") }
        #expect(files.count > 100)
        for file in files {
            let text = try Fixture.text(file)
            #expect(Self.events(text, direct: true) == Self.events(text, direct: false), "\(file)")
        }
    }

    /// Lines that are task lines, near misses and other blocks, mixed at random.
    static let lineKinds: [String] = [
        "- [ ] plain name", "- [x] done", "- [X] Done", "- [/] going", "- [-] dropped", "* [ ] star", "+ [ ] plus",
        "- [ ] name with [link](https://example.com) and `code`", "- [ ] fields [id:: 3] [due:: 2026-01-01T00:00:00Z]",
        "- [ ] trailing spaces   ", "- [ ]  two spaces", "- [ ]\tafter a tab", "-  [ ] two after the bullet",
        "-\t[ ] tab after the bullet", "- [ ]", "- [ ] ", "- [x]", "- [ ] ]", "- [ ] name]", "- [\\] backslash",
        "- [[] bracket", "- [\"] quote", "- [ ] \"quoted\" name", "- [ ] a\\*b", "- [ ] &amp; entity",
        "- [ ] - [ ] nested marker", "- [ ] > quote", "- [ ] # heading", "1. [ ] ordered", "2) [x] ordered",
        "- plain bullet", "- [ ]x no space", "- [é] accent", "- [✓] check mark", "- ----", "---", "***",
        "- - -", "text line", "lazy continuation", "# Heading", "## Section 2", "Setext", "===", "> - [ ] quoted task",
        "```", "~~~", "    indented code", "<div>", "</div>", "<!-- comment -->", "", "", "", "\t- [ ] tab indented",
        "- [ ] name\r", "\u{FEFF}- [ ] after a byte order mark",
    ]

    @Test("generated checklists read the same both ways", arguments: 0..<300)
    func generated(seed: Int) {
        var rng = SeededGenerator(seed: UInt64(seed))
        var lines: [String] = []
        for _ in 0..<Int.random(in: 1...60, using: &rng) {
            // Mostly task lines, indented 0 to 9 spaces.
            let kind =
                Int.random(in: 0..<3, using: &rng) == 0
                ? Self.lineKinds.randomElement(using: &rng)! : Self.lineKinds[Int.random(in: 0..<10, using: &rng)]
            lines.append(String(repeating: " ", count: Int.random(in: 0...9, using: &rng) / 2 * 2 + (seed & 1)) + kind)
        }
        let text = lines.joined(separator: "\n") + (seed % 3 == 0 ? "" : "\n")
        #expect(Self.events(text, direct: true) == Self.events(text, direct: false), "\(text)")
        // And the documents the cmark-gfm agreement tests generate.
        let document = MarkdownGenerator.document(seed: UInt64(seed))
        #expect(Self.events(document, direct: true) == Self.events(document, direct: false), "\(document)")
    }

    @Test("the direct reading takes the common lines")
    func takesCommonLines() {
        // Both ways agree, and the test above would mean little if the direct way never ran.
        var text = "- [ ] a\n  - [x] b\n    - [/] c\n- [ ] d\n"
        let events = text.withUTF8 { bytes in
            var parser = BlockParser(text: bytes, sink: Recorder())
            return parser.parse(from: 0, firstLine: 1).events
        }
        #expect(events.filter { $0.hasPrefix("item") }.count == 4)
        #expect(events == Self.events(text, direct: false))
    }
}
