import Foundation
import Testing

@testable import TodoFormat

/// A task item as cmark-gfm reports it: start line, checked, depth.
struct TaskView: Hashable, CustomStringConvertible {
    var line: Int
    var checked: Bool
    var depth: Int
    var description: String { "line \(line) \(checked ? "[x]" : "[ ]") depth \(depth)" }
}

enum Cmark {
    /// The task items of a Markdown text according to `cmark-gfm -e tasklist -t xml --sourcepos`.
    /// Items that start on a line of `ignoring` are left out and do not count as task ancestors.
    static func tasks(in text: String, ignoring: Set<Int> = []) throws -> [TaskView] {
        let result = try ExternalTool.run(
            "cmark-gfm", ["-e", "tasklist", "-t", "xml", "--sourcepos"], stdin: Data(text.utf8))
        #expect(result.status == 0)
        var tasks: [TaskView] = []
        var openTasks = 0
        var stack: [Bool] = []  // for each open <item> or <tasklist>: is it a task
        for line in result.text.split(separator: "\n") {
            let trimmed = line.drop { $0 == " " }
            if trimmed.hasPrefix("<tasklist") || trimmed.hasPrefix("<item") {
                let sourcepos = trimmed.split(separator: "\"")[1]
                let lineNumber = Int(sourcepos.split(separator: ":")[0])!
                let isTask = trimmed.hasPrefix("<tasklist") && !ignoring.contains(lineNumber)
                if isTask {
                    tasks.append(
                        TaskView(line: lineNumber, checked: trimmed.contains("completed=\"true\""), depth: openTasks))
                }
                if !trimmed.hasSuffix("/>") {
                    stack.append(isTask)
                    if isTask { openTasks += 1 }
                }
            } else if trimmed.hasPrefix("</tasklist>") || trimmed.hasPrefix("</item>") {
                if stack.removeLast() { openTasks -= 1 }
            }
        }
        return tasks
    }

    /// Front matter is not Markdown: cmark-gfm gets blank lines in its place, so line numbers stay.
    static func withoutFrontMatter(_ text: String) -> String {
        guard text.hasPrefix("---\n") || text.hasPrefix("---\r\n"), let document = try? TodoDocument(parsing: text),
            document.hasFrontMatter
        else { return text }
        var lines = text.utf8.split(separator: 10, omittingEmptySubsequences: false)
            .map { String(decoding: $0, as: UTF8.self) }
        guard
            let close = lines.indices.dropFirst().first(where: {
                let line = lines[$0].trimmingCharacters(in: .whitespacesAndNewlines)
                return line == "---" || line == "..."
            })
        else { return text }
        for k in 0...close { lines[k] = "" }
        return lines.joined(separator: "\n")
    }

    /// What cmark-gfm should report for a document todofmt parsed, given the documented
    /// departures (FORMAT.md, "Agreement with cmark-gfm"):
    /// - custom statuses such as `[-]` are tasks to todofmt only;
    /// - task items inside block quotes, and items opened on a line after another marker
    ///   (`- - [ ] x`), are not seen by this cmark-gfm;
    /// - cmark-gfm calls an item checked when `[x]` or `[X]` appears anywhere on its line;
    /// - cmark-gfm makes any list item a task when a later line inside it reads like a task
    ///   item but opens none; those items (`ignoring`) are left out on both sides.
    static func expectedView(of document: TodoDocument, ignoring: Set<Int>) -> [TaskView] {
        var views: [TaskView] = []
        var seenAtDepth: [Bool] = []  // for each depth of todofmt's tree: is that ancestor seen by cmark
        let lines = document.text.utf8.split(separator: 10, omittingEmptySubsequences: false)
            .map { String(decoding: $0, as: UTF8.self) }
        for (entry, record) in zip(document.entries, document.records) {
            seenAtDepth.removeLast(max(0, seenAtDepth.count - entry.depth))
            var seen = !record.inBlockQuote && !record.startsAfterOtherText && !ignoring.contains(entry.line)
            if case .custom = entry.item.status { seen = false }
            if seen {
                let line = lines[entry.line - 1]
                let checked = entry.item.status == .done || line.contains("[x]") || line.contains("[X]")
                views.append(TaskView(line: entry.line, checked: checked, depth: seenAtDepth.filter { $0 }.count))
            }
            seenAtDepth.append(seen)
        }
        return views
    }
}

/// Random Markdown that mixes the constructs that decide what is a task item.
enum MarkdownGenerator {
    static func document(seed: UInt64, lines: Int = 60) -> String {
        var rng = SeededGenerator(seed: seed)
        let crlf = Int.random(in: 0..<6, using: &rng) == 0
        var out: [String] = []
        if Int.random(in: 0..<10, using: &rng) == 0 { out.append("\u{FEFF}# Title") }
        let markers = ["-", "*", "+", "1.", "2)", "10."]
        let boxes = ["[ ]", "[x]", "[X]", "[ ]", "[x]", "[-]", "[/]", "[@]", "[]", "[ ]x", "[x ]", "[ü]"]
        let names = [
            "Milk", "Eggs [x] later", "caf\u{E9} cr\u{E8}me", "tab\tinside", "**bold** `code`", "see [link](http://x)",
            "", "[id:: 4]",
        ]
        let indents = ["", "", " ", "  ", "   ", "    ", "\t", "  \t", "      "]
        while out.count < lines {
            let indent = indents.randomElement(using: &rng)!
            switch Int.random(in: 0..<20, using: &rng) {
            case 0...8:
                let trailing = Int.random(in: 0..<5, using: &rng) == 0 ? "  " : ""
                out.append(
                    indent + markers.randomElement(using: &rng)! + [" ", "  ", "\t", "   "].randomElement(using: &rng)!
                        + boxes.randomElement(using: &rng)! + " " + names.randomElement(using: &rng)! + trailing)
            case 9: out.append("")
            case 10: out.append("")
            case 11:
                out.append(
                    indent + ["Some prose.", "more text", "lazy [x] line", "| a | b |"].randomElement(using: &rng)!)
            case 12:
                out.append(
                    ["# Heading", "## Done \u{2713}", "### ", "Setext", "===", "---", "***"].randomElement(using: &rng)!
                )
            case 13:
                let fence = ["```", "~~~", "````"].randomElement(using: &rng)!
                out.append(indent + fence + ["", "md", "swift"].randomElement(using: &rng)!)
                out.append(indent + "- [ ] inside a fence")
                if Int.random(in: 0..<4, using: &rng) > 0 { out.append(indent + fence) }
            case 14:
                out.append(
                    indent + "> " + ["- [ ] quoted task", "quote", "> - [x] deeper", "1. [ ] quoted ordered"]
                        .randomElement(using: &rng)!)
            case 15:
                out.append(
                    ["<div>", "</div>", "<!-- - [ ] hidden -->", "<!--", "-->", "<span>inline</span>", "<custom-tag>"]
                        .randomElement(using: &rng)!)
            case 16: out.append(indent + "- - [ ] nested on one line")
            case 17: out.append(indent + "    code or continuation - [ ] x")
            case 18:
                // A deep chain of nested tasks, each two columns further in.
                for level in 0..<Int.random(in: 2..<14, using: &rng) {
                    out.append(
                        String(repeating: "  ", count: level) + "- [\(level % 2 == 0 ? " " : "x")] deep \(level)")
                }
            default: out.append(indent + "1. plain ordered")
            }
        }
        // A first line of `---` is a thematic break unless a later `---` encloses a YAML mapping,
        // which is generated on purpose below.
        if Int.random(in: 0..<8, using: &rng) == 0 {
            out.insert(contentsOf: ["---", "title: Generated", "tags: [a, b]", "---"], at: 0)
        }
        return out.joined(separator: crlf ? "\r\n" : "\n")
            + (Int.random(in: 0..<3, using: &rng) == 0 ? "" : (crlf ? "\r\n" : "\n"))
    }
}

@Suite("Agreement with cmark-gfm")
struct CmarkAgreementTests {
    /// How many generated documents to compare: 400, or TODOFMT_DOCUMENTS=N for a longer run
    /// (worth it after a change to the block parser).
    static let documentCount = Int(ProcessInfo.processInfo.environment["TODOFMT_DOCUMENTS"] ?? "") ?? 400

    @Test("generated documents", arguments: 0..<documentCount)
    func generated(seed: Int) throws {
        let text = MarkdownGenerator.document(seed: UInt64(seed))
        let document = try TodoDocument(parsing: text)
        let quirks = Set(document.taskLikeLines.map(\.itemLine))
        let expected = Cmark.expectedView(of: document, ignoring: quirks)
        let actual = try Cmark.tasks(in: Cmark.withoutFrontMatter(text), ignoring: quirks)
        #expect(actual == expected, "seed \(seed):\n\(text)")
        // TODOFMT_DUMP=DIR keeps a failing document as a file, to run cmark-gfm on it by hand.
        if actual != expected, let dump = ProcessInfo.processInfo.environment["TODOFMT_DUMP"] {
            try text.write(toFile: "\(dump)/seed-\(seed).md", atomically: true, encoding: .utf8)
        }
    }

    /// The last line of each task item's list item, by its first line, as cmark-gfm's
    /// source positions give it (without the blank lines it counts at the end).
    static func cmarkItemEnds(in text: String) throws -> [Int: Int] {
        let result = try ExternalTool.run(
            "cmark-gfm", ["-e", "tasklist", "-t", "xml", "--sourcepos"], stdin: Data(text.utf8))
        let lines = text.utf8.split(separator: 10, omittingEmptySubsequences: false).map { Array($0) }
        var ends: [Int: Int] = [:]
        for line in result.text.split(separator: "\n") {
            let trimmed = line.drop { $0 == " " }
            guard trimmed.hasPrefix("<tasklist") else { continue }
            let position = trimmed.split(separator: "\"")[1].split(separator: "-")
            let start = Int(position[0].split(separator: ":")[0])!
            var end = Int(position[1].split(separator: ":")[0])!
            while end > start && end <= lines.count && lines[end - 1].allSatisfy({ $0 == 32 || $0 == 9 || $0 == 13 }) {
                end -= 1
            }
            ends[start] = end
        }
        return ends
    }

    @Test("each item's extent ends where cmark-gfm ends its list item", arguments: 0..<200)
    func extents(seed: Int) throws {
        let text = MarkdownGenerator.document(seed: UInt64(seed) &+ 40_000)
        let document = try TodoDocument(parsing: text)
        let ends = try Self.cmarkItemEnds(in: Cmark.withoutFrontMatter(text))
        let bytes = Array(text.utf8)
        for (entry, record) in zip(document.entries, document.records) {
            guard let cmarkEnd = ends[entry.line] else { continue }
            let last = bytes[..<(record.extentEnd - 1)].count { $0 == 10 } + 1
            #expect(last == cmarkEnd, "seed \(seed), item on line \(entry.line):\n\(text)")
        }
    }

    @Test("each documented departure really departs")
    func departures() throws {
        let cases: [(String, [TaskView])] = [
            // Custom status: a task to todofmt, plain text to cmark-gfm.
            ("- [-] cancelled\n", []),
            // Block quotes: cmark-gfm 0.29 does not see tasks there.
            ("> - [ ] quoted\n", []),
            // Two markers on one line.
            ("- - [ ] inner\n", []),
            // A byte order mark before the first line's marker.
            ("\u{FEFF}- [ ] first\n", []),
            // cmark-gfm searches the line for [x].
            ("- [ ] see [x] here\n", [TaskView(line: 1, checked: true, depth: 0)]),
            // A later task-like line inside an item makes the item a task to cmark-gfm.
            (
                "- [ ] a\n- b\n  > q\n      - [x] c\n",
                [TaskView(line: 1, checked: false, depth: 0), TaskView(line: 2, checked: true, depth: 0)]
            ),
        ]
        for (text, cmarkView) in cases {
            let document = try TodoDocument(parsing: text)
            #expect(document.entries.count == 1, "todofmt sees one task in \(text.debugDescription)")
            if text.contains("> q") { #expect(document.taskLikeLines.map(\.itemLine) == [2]) }
            #expect(try Cmark.tasks(in: text) == cmarkView, "cmark-gfm on \(text.debugDescription)")
        }
        #expect(try TodoDocument(parsing: "- [ ] see [x] here\n").entries[0].item.status == .open)
    }
}

@Suite("Agreement and losslessness on the fixtures")
struct FixtureAgreementTests {
    static let files = Fixture.files(in: "markdown").map(Fixture.path)

    @Test("cmark-gfm finds the same task items", arguments: files)
    func agreement(path: String) throws {
        let text = String(decoding: try Data(contentsOf: URL(fileURLWithPath: path)), as: UTF8.self)
        let document = try TodoDocument(parsing: text, path: path)
        let quirks = Set(document.taskLikeLines.map(\.itemLine))
        let expected = Cmark.expectedView(of: document, ignoring: quirks)
        #expect(try Cmark.tasks(in: Cmark.withoutFrontMatter(text), ignoring: quirks) == expected)
    }

    @Test("reads and writes back byte for byte, and converts to a copy", arguments: files)
    func lossless(path: String) throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        let document = try TodoDocument(parsing: String(decoding: data, as: UTF8.self), path: path)
        #expect(Data(document.markdown().utf8) == data)
        let directory = try TemporaryDirectory()
        _ = try Conversion(input: .at(path), output: .at(directory.path("copy.md")), inputFormat: .markdown).run()
        #expect(try Data(contentsOf: URL(fileURLWithPath: directory.path("copy.md"))) == data)
    }
}
