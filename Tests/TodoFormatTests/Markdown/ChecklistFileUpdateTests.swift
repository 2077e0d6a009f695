import Foundation
import Testing

@testable import TodoFormat

/// A checklist written into another (`todofmt convert a.md b.md`) a stretch of changed items
/// at a time, each changed item rewritten in place where it stays: the same bytes as the
/// whole changed part aligned and spliced at once.
@Suite("A checklist written into a checklist, piece by piece")
struct ChecklistFileUpdateTests {
    /// The text `existing` becomes with the list of `source` (with pieces, with items
    /// rewritten in place, or not); or the error, after "error: ".
    static func written(
        _ source: String, into existing: String, boxes: Bool = true, pieces: Bool = true, inPlace: Bool = true
    ) -> String {
        do {
            guard
                let edit = try ChecklistFileUpdate.update(
                    Input(bytes: Array(existing.utf8), name: "old.md"),
                    with: Input(bytes: Array(source.utf8), name: "new.md"),
                    boxes: boxes, pieces: pieces, inPlace: inPlace)
            else { return existing }
            var sink = ByteSink()
            try edit.write(to: &sink)
            return String(decoding: try sink.finish(path: "old.md"), as: UTF8.self)
        } catch {
            return "error: \(error)"
        }
    }

    /// A line of a generated checklist: an item (its depth, bullet, status, name and field)
    /// or other text.
    enum Line: Equatable {
        case item(depth: Int, bullet: String, status: Character, name: String, field: Int?)
        case text(String)

        var rendered: String {
            switch self {
            case .item(let depth, let bullet, let status, let name, let field):
                String(repeating: "  ", count: depth) + bullet + " [\(status)] " + name
                    + (field.map { " [n:: \($0)]" } ?? "")
            case .text(let text): text
            }
        }
    }

    /// Names that repeat, differ only in case, or are canonically equivalent with other bytes.
    static let names = [
        "Milk", "milk", "Eggs", "Bread", "café", "cafe\u{301}", "Call the bank", "日本語", "Pay rent", "Tea",
    ]

    /// A checklist of sections, prose, notes and items up to two deep; with `unique`, each
    /// item's name is its own.
    static func checklist(_ random: inout SeededGenerator, unique: Bool = false) -> [Line] {
        var lines: [Line] = [.text("# Start")]
        var depth = 0
        for k in 0..<Int.random(in: 60...160, using: &random) {
            switch Int.random(in: 0..<40, using: &random) {
            case 0:
                lines.append(.text(""))
                lines.append(.text("## Section \(k % 7)"))
                depth = 0
                continue
            case 1:
                lines.append(.text(""))
                lines.append(.text("Some prose \(k)."))
                lines.append(.text(""))
                depth = 0
                continue
            case 2 where depth > 0:
                lines.append(.text(String(repeating: "  ", count: depth) + "  a note \(k)"))
                continue
            case 3:
                lines.append(.text(""))
                continue
            default: break
            }
            depth = Int.random(in: 0...min(depth + 1, 2), using: &random)
            lines.append(item(depth: depth, &random, unique: unique ? "u\(k)" : nil))
        }
        return lines
    }

    static func item(depth: Int, _ random: inout SeededGenerator, unique: String? = nil) -> Line {
        .item(
            depth: depth, bullet: ["-", "-", "-", "*"].randomElement(using: &random)!,
            status: [" ", " ", "x", "/"].randomElement(using: &random)!,
            name: names.randomElement(using: &random)!
                + (unique.map { " " + $0 }
                    ?? (Bool.random(using: &random) ? "" : " \(Int.random(in: 0..<50, using: &random))")),
            field: Int.random(in: 0..<4, using: &random) == 0 ? Int.random(in: 0..<3, using: &random) : nil)
    }

    /// `lines` edited in `count` places: boxes checked, names and fields changed, items
    /// added, removed, moved and duplicated, headings and prose added, removed and moved. With `unique`, no
    /// name is given twice.
    static func edited(_ lines: [Line], count: Int, _ random: inout SeededGenerator, unique: Bool = false) -> [Line] {
        var lines = lines
        for edit in 0..<count {
            let i = Int.random(in: 1..<lines.count, using: &random)
            guard case .item(let depth, let bullet, let status, let name, let field) = lines[i] else {
                // Other text (a heading too) removed or moved.
                switch Int.random(in: 0..<4, using: &random) {
                case 0: lines.remove(at: i)
                case 1: lines.insert(lines.remove(at: i), at: Int.random(in: 1..<lines.count, using: &random))
                default: break
                }
                continue
            }
            switch Int.random(in: 0..<20, using: &random) {
            case 15,
                18 where unique:
                lines[i] = .item(
                    depth: depth, bullet: bullet, status: status == " " ? "x" : " ", name: name, field: field)
            case 0..<9:
                lines[i] = .item(
                    depth: depth, bullet: bullet, status: status == " " ? "x" : " ", name: name, field: field)
            case 9..<11:
                lines[i] = .item(depth: depth, bullet: bullet, status: status, name: name + " renamed", field: field)
            case 11: lines[i] = .item(depth: depth, bullet: bullet, status: status, name: name, field: (field ?? 0) + 1)
            case 12: lines.insert(item(depth: depth, &random, unique: unique ? "new \(edit)" : nil), at: i + 1)
            case 13: lines.remove(at: i)
            case 14: lines.insert(lines.remove(at: i), at: Int.random(in: 1..<lines.count, using: &random))
            case 15: lines.insert(lines[i], at: Int.random(in: 1..<lines.count, using: &random))
            case 16: lines.insert(.text("## Section new"), at: i)
            case 17: lines[i] = .item(depth: depth, bullet: "*", status: status, name: name, field: field)
            case 18:
                lines[i] = .item(
                    depth: depth, bullet: bullet, status: status, name: Self.names.randomElement(using: &random)!,
                    field: field)
            default:
                lines[i] = .item(
                    depth: depth, bullet: bullet, status: status == " " ? "x" : " ", name: name, field: field)
                let j = Int.random(in: 1..<lines.count, using: &random)
                if case .item(let d, let b, let s, let n, let f) = lines[j] {
                    lines[j] = .item(depth: d, bullet: b, status: s == " " ? "x" : " ", name: n, field: f)
                }
            }
        }
        return lines
    }

    static func text(_ lines: [Line]) -> String { lines.map(\.rendered).joined(separator: "\n") + "\n" }

    /// Checklists edited in many places, written each in two ways; the first few that differ
    /// are reported.
    static func compare(
        seed: UInt64, rounds: Int, unique: Bool, _ first: (String, String) -> String,
        _ second: (String, String) -> String
    ) {
        var random = SeededGenerator(seed: seed)
        var failures = 0
        for round in 0..<rounds where failures < 3 {
            let lines = checklist(&random, unique: unique)
            let existing = text(lines)
            let source = text(edited(lines, count: Int.random(in: 1...40, using: &random), &random, unique: unique))
            let a = first(source, existing)
            let b = second(source, existing)
            if a != b {
                failures += 1
                Issue.record(
                    "round \(round)\n--- existing\n\(existing)--- source\n\(source)--- one\n\(a)\n--- other\n\(b)")
            }
        }
    }

    @Test("changed items rewritten in place give a splice's bytes, names repeated or not")
    func inPlace() {
        Self.compare(
            seed: 11, rounds: 400, unique: false, { Self.written($0, into: $1, boxes: false) },
            { Self.written($0, into: $1, boxes: false, inPlace: false) })
    }

    @Test("a checklist edited in many places, its names each its own, gives the whole splice's bytes piece by piece")
    func pieces() {
        Self.compare(
            seed: 12, rounds: 300, unique: true, { Self.written($0, into: $1, boxes: false) },
            { Self.written($0, into: $1, boxes: false, pieces: false, inPlace: false) })
    }

    /// Only boxes changed (`ChecklistFileUpdate.boxSplices`): each item's status character is
    /// rewritten in place, as the pieces and the whole splice rewrite it; a change of a box
    /// in a code block, or to a character no box holds, is no such edit and goes as before.
    @Test("boxes changed in many places give the whole splice's bytes; other changes that look like boxes go as before")
    func boxesOnly() {
        var random = SeededGenerator(seed: 31)
        var failures = 0
        for round in 0..<300 where failures < 3 {
            var lines = Self.checklist(&random, unique: true)
            lines.insert(contentsOf: [.text(""), .text("```"), .text("- [ ] not an item"), .text("```")], at: 1)
            var edited = lines
            for _ in 0..<Int.random(in: 1...30, using: &random) {
                let i = Int.random(in: 1..<edited.count, using: &random)
                if case .item(let depth, let bullet, _, let name, let field) = edited[i] {
                    let status: Character = [" ", "x", "X", "/", "-", "?"].randomElement(using: &random)!
                    edited[i] = .item(depth: depth, bullet: bullet, status: status, name: name, field: field)
                }
            }
            switch round % 4 {
            case 1: edited[3] = .text("- [x] not an item")
            case 2:
                if let i = edited.firstIndex(where: { if case .item = $0 { true } else { false } }),
                    case .item(let depth, let bullet, _, let name, let field) = edited[i]
                {
                    edited[i] = .item(depth: depth, bullet: bullet, status: "]", name: name, field: field)
                }
            default: break
            }
            let existing = Self.text(lines)
            let source = Self.text(edited)
            let a = Self.written(source, into: existing)
            let b = Self.written(source, into: existing, boxes: false, pieces: false, inPlace: false)
            if a != b {
                failures += 1
                Issue.record(
                    "round \(round)\n--- existing\n\(existing)--- source\n\(source)--- one\n\(a)\n--- other\n\(b)")
            }
        }
        // Items of one text whose boxes were swapped keep their lines: each box changed.
        let existing = Self.padded(["- [ ] Milk", "* [x] Milk  "])
        let source = Self.padded(["- [x] Milk", "* [ ] Milk  "])
        #expect(Self.written(source, into: existing) == source)
        // `[X]` for a box checked is written `[x]`, as a status is; `[X]` for `[x]` is no change.
        #expect(
            Self.written(Self.padded(["- [X] a", "- [X] b"]), into: Self.padded(["- [ ] a", "- [x] b"]))
                == Self.padded(["- [x] a", "- [x] b"]))
    }

    /// Twenty items around a part of a checklist.
    static func padded(_ middle: [String]) -> String {
        let items = (1...20).map { "- [ ] Item \($0)" }
        return (items + middle + items.map { $0 + " again" }).joined(separator: "\n") + "\n"
    }

    @Test("changed items side by side that swap names pair by name, as a splice pairs them")
    func swappedNames() {
        let existing = Self.padded(["- [ ] a", "* [ ] b"])
        let source = Self.padded(["- [x] b", "- [x] a"])
        let written = Self.written(source, into: existing)
        #expect(written == Self.written(source, into: existing, inPlace: false))
        // "b" keeps its bullet: it moved.
        #expect(written == Self.padded(["* [x] b", "- [x] a"]))
    }

    @Test("a changed item with the content of an unchanged one in another stretch stays where it is")
    func pairedWithinItsStretch() {
        let fillers = (1...20).map { "- [ ] Filler \($0)" }
        let existing = Self.padded(["* [/] Tea", "- [ ] Milk"] + fillers[..<10] + ["+ [ ] Tea"] + fillers[10...])
        // The first Tea opened, and the last filler checked.
        let source = Self.padded(
            ["* [ ] Tea", "- [ ] Milk"] + fillers[..<10] + ["+ [ ] Tea"] + fillers[10..<19] + ["- [x] Filler 20"])
        #expect(Self.written(source, into: existing) == source)
        // Aligned whole, too: where only statuses changed, each item pairs with the one in its
        // place (the opened Tea had paired with the unchanged one by content, and their lines
        // changed places).
        #expect(Self.written(source, into: existing, boxes: false, pieces: false, inPlace: false) == source)
    }

    /// A source with front matter written into a file without: the front matter is the
    /// list's metadata, not Markdown the part read from the source holds (it read as a
    /// thematic break and a heading `title: T`, and the metadata was lost).
    @Test(
        "front matter the file lacks comes in as the list's metadata, as the whole list's update writes it",
        arguments: [
            ("- [ ] a\n- [ ] b\n", "---\ntitle: T\n---\n- [ ] a\n- [x] b\n"),
            // A YAML comment that is the file's heading: the part read ends there.
            ("- [ ] a\n# Later\n- [ ] b\n", "---\ntitle: T\n# Later\n---\n- [ ] a\n# Later\n- [ ] b\n"),
            ("Intro.\n\n- [ ] a\n", "---\nowner: me\n---\nIntro.\n\n- [x] a\n"),
        ])
    func frontMatterComesIn(existing: String, source: String) throws {
        let written = Self.written(source, into: existing)
        var document = try TodoDocument(parsing: existing)
        let list = try MarkdownSource(text: source, path: "new.md").list()
        try document.update(with: list)
        #expect(written == document.text)
        #expect(try TodoDocument(parsing: written).list == list)
    }

    /// Items of one name under two headings, their boxes changed, in a source laid out
    /// otherwise (other bullets, blank lines), so that neither the boxes' path nor items
    /// rewritten in place apply. Each item keeps its heading, and no heading is written twice:
    /// the alignment paired each item with the other's content under the other heading
    /// (statuses alone changed: now in place), and an item going to the top of the part read
    /// (after the heading both files share) went under a second heading of that name.
    @Test(
        "items of one name under two headings stay under their headings, each heading written once",
        arguments: [
            (
                "# A\n- [x] a\n# B\n- [ ] a\n", "# A\n* [ ] a\n# B\n* [x] a\n",
                "# A\n- [ ] a\n# B\n- [x] a\n"
            ),
            (
                "# A\n- [x] a\n# B\n- [ ] a\n", "# A\n- [ ] a\n\n# B\n- [x] a\n",
                "# A\n- [ ] a\n# B\n- [x] a\n"
            ),
            (
                "# H0\n- [x] same\n# H1\n- [x] same\n", "# H0\n* [ ] same\n# H1\n* [x] same\n* [x] new\n",
                "# H0\n- [ ] same\n# H1\n- [x] same\n- [x] new\n"
            ),
            (
                "# H0\n- [x] a\n  - [ ] a\n", "# H0\n* [ ] a\n  * [ ] c\n",
                "# H0\n- [ ] a\n  - [ ] c\n"
            ),
        ])
    func sameNamesUnderTwoHeadings(existing: String, source: String, expected: String) throws {
        let written = Self.written(source, into: existing)
        #expect(written == expected)
        #expect(try TodoDocument(parsing: written).list == MarkdownSource(text: source, path: "new.md").list())
        // The whole list's update writes the same.
        var document = try TodoDocument(parsing: existing)
        try document.update(with: try MarkdownSource(text: source, path: "new.md").list())
        #expect(document.text == expected)
    }

    /// Items of one name moving across headings, children with them or not (hunt 96): the
    /// list is written, and reads back as the source's. (Pairing equal items within their
    /// section first, tried for the case above, refused the first and split the second's
    /// parent from its child.)
    @Test(
        "items of one name moved across headings are written and read back as the source's list",
        arguments: [
            (
                "1. [ ] Call mom\n   1. [x] d\n## Later\n1. [ ] b\n   1. [x] d\n   2. [x] d\n",
                "## Later\n1. [ ] Call mom\n   1. [x] d\n2. [ ] b\n   1. [x] d\n",
                "## Later\n1. [ ] Call mom\n   1. [x] d\n1. [ ] b\n   1. [x] d\n"
            ),
            (
                "## Home\n1. [ ] call mom\n2. [ ] call mom\n   1. [x] clean\n",
                "## Work\n- [ ] call mom\n## Home\n- [ ] call mom\n  - [x] clean\n- [x] clean\n",
                "## Work\n1. [ ] call mom\n## Home\n2. [ ] call mom\n   1. [x] clean\n3. [x] clean\n"
            ),
        ])
    func sameNamesAcrossHeadings(existing: String, source: String, expected: String) throws {
        let written = Self.written(source, into: existing)
        #expect(written == expected)
        #expect(try TodoDocument(parsing: written).list == MarkdownSource(text: source, path: "new.md").list())
    }

    /// The generated checklist `text` with other front matter: none, the same title
    /// changed, more lines, or in front of a file without; a byte order mark now and then.
    static func withOtherFrontMatter(_ text: String, _ random: inout SeededGenerator) -> String {
        var body = Substring(text)
        if text.hasPrefix("---\n"),
            let end = text.range(of: "\n---\n", range: text.index(text.startIndex, offsetBy: 3)..<text.endIndex)
        {
            body = text[end.upperBound...]
        }
        let fronts = [
            "", "---\ntitle: Changed\n---\n", "---\ntitle: A longer title\nowner: me\ntags: [a, b]\n---\n",
            "---\ntitle: List\n---\n",
        ]
        let front = fronts.randomElement(using: &random)!
        return (Int.random(in: 0..<6, using: &random) == 0 ? "\u{FEFF}" : "") + front + body
    }

    /// Checks off a few items of a generated checklist where they stand (same shape).
    static func checkedOff(_ text: String, _ random: inout SeededGenerator) -> String {
        var lines = text.components(separatedBy: "\n")
        for _ in 0..<Int.random(in: 0...3, using: &random) {
            let i = Int.random(in: 0..<lines.count, using: &random)
            if let box = lines[i].range(of: "[ ] ") { lines[i].replaceSubrange(box, with: "[x] ") }
        }
        return lines.joined(separator: "\n")
    }

    /// A source whose front matter differs goes in as if it had the file's, and the front
    /// matter then becomes its metadata's (where that differs), as the whole list's update
    /// writes it; the text reads as the source's list.
    @Test(
        "other front matter, with boxes checked or not: the body as with the file's front matter, then the source's metadata"
    )
    func otherFrontMatter() throws {
        var random = SeededGenerator(seed: 41)
        var failures = 0
        var compared = 0
        for seed in 0..<300 where failures < 3 {
            let existing = ChecklistGenerator.document(seed: UInt64(seed) &+ 4_000)
            guard existing.hasSuffix("\n"), !existing.contains("\r") else { continue }
            let document = try TodoDocument(parsing: existing)
            let source = Self.checkedOff(Self.withOtherFrontMatter(existing, &random), &random)
            let list = try MarkdownSource(text: source, path: "new.md").list()
            // The source with the file's front matter (and no byte order mark).
            let sourceStart = max(
                try TodoDocument(parsing: source).bodyStart, ByteOrderMark.length(in: Array(source.utf8)))
            let sameFront = String(
                decoding: Array(existing.utf8)[..<document.bodyStart] + Array(source.utf8)[sourceStart...],
                as: UTF8.self)
            var expected = Self.written(sameFront, into: existing)
            if list.metadata != document.metadata {
                expected = try TodoDocument.replacingFrontMatter(
                    of: expected, bodyStart: document.bodyStart, with: list.metadata, lineEnding: "\n")
            }
            compared += 1
            let written = Self.written(source, into: existing)
            if written != expected || (try? TodoDocument(parsing: written).list) != list {
                failures += 1
                Issue.record(
                    "seed \(seed)\n--- existing\n\(existing)--- source\n\(source)--- written\n\(written)\n--- expected\n\(expected)"
                )
            }
        }
        #expect(compared > 150)
    }

    @Test("a source with other front matter, not UTF-8 in its body: the error names the source's line")
    func otherFrontMatterError() throws {
        let directory = try TemporaryDirectory()
        let items = (0..<40).map { "- [ ] item \($0)" }.joined(separator: "\n") + "\n"
        let existing = "---\ntitle: x\n---\n" + items
        var bad = Data(("---\ntitle: y\nowner: z\nmore: 1\n---\n" + items).utf8)
        bad.replaceSubrange(bad.range(of: Data("item 20".utf8))!, with: Data("item 20 \u{E9}".utf8.dropLast()))
        try bad.write(to: URL(fileURLWithPath: directory.path("bad.md")))
        #expect {
            try ChecklistFileUpdate.update(
                Input(bytes: Array(existing.utf8), name: "old.md"),
                with: Input.reading(directory.path("bad.md"), name: "bad.md"))
        } throws: { "\($0)".hasPrefix("bad.md:26:") }
    }

    @Test("two files of the same bytes, or of boxes changed, that are not UTF-8: an error at the file's line")
    func notUTF8() {
        let bytes = Array("- [ ] a\n- [ ] b ".utf8) + [0xFF, 10]
        for source in [bytes, Array("- [x]".utf8) + bytes.dropFirst(5)] {
            #expect {
                try ChecklistFileUpdate.update(
                    Input(bytes: bytes, name: "old.md"), with: Input(bytes: source, name: "new.md"))
            } throws: { "\($0)".hasPrefix("old.md:2:9: error: invalid UTF-8") }
        }
    }

    /// Hunt 95: front matter taken away, where the text after it opens with a `---` block
    /// that would then read as front matter, is refused (nothing is written); a source that
    /// starts with a byte order mark, not UTF-8 on its first line, is an error at the column
    /// that counts the mark.
    @Test("front matter taken away before a '---' block is refused; a source's byte order mark counts in its errors")
    func frontMatterTakenAway() {
        for (existing, source) in [
            ("---\nt: 1\n---\n---\nfoo: bar\n---\n- [ ] a\n", "# foo: bar\n- [ ] a\n"),
            ("---\nt: 1\n---\n---\nk: v\n...\n- [ ] a\n", "- [x] a\n"),
        ] {
            #expect(Self.written(source, into: existing).hasPrefix("error: "), "\(existing)")
        }
        let bom = [0xEF, 0xBB, 0xBF] + Array("- [ ] ab".utf8) + [0xFF] + Array("c\n".utf8)
        #expect {
            try ChecklistFileUpdate.update(
                Input(bytes: Array("---\nt: 1\n---\n- [ ] q\n".utf8), name: "old.md"),
                with: Input(bytes: bom, name: "new.md"))
        } throws: { "\($0)".hasPrefix("new.md:1:10: error: invalid UTF-8") }
    }

    @Test(
        "a source file's changed part is read from the file: its own U+FFFD comes through, a byte not UTF-8 is an error at its line"
    )
    func changedPartReadFromFile() throws {
        let directory = try TemporaryDirectory()
        // Front matter and a section before the changed part: the error's line counts from the file's start.
        let existing =
            "---\ntitle: x\n---\n# A\n\ntext\n\n# B\n\n"
            + (0..<40).map { "- [ ] item \($0)" }.joined(separator: "\n") + "\n"
        let own = Data(existing.replacingOccurrences(of: "[ ] item 20", with: "[x] item 20 caf\u{E9} \u{FFFD}").utf8)
        var bad = Data(existing.utf8)
        bad.replaceSubrange(bad.range(of: Data("item 20".utf8))!, with: Data("item 20 \u{E9}".utf8.dropLast()))
        try own.write(to: URL(fileURLWithPath: directory.path("own.md")))
        try bad.write(to: URL(fileURLWithPath: directory.path("bad.md")))
        let old = Input(bytes: Array(existing.utf8), name: "old.md")
        let edit = try #require(try ChecklistFileUpdate.update(old, with: Input.reading(directory.path("own.md"))))
        var sink = ByteSink()
        try edit.write(to: &sink)
        #expect(try sink.finish(path: "old.md") == Array(own))
        #expect {
            try ChecklistFileUpdate.update(old, with: Input.reading(directory.path("bad.md"), name: "bad.md"))
        } throws: { "\($0)".hasPrefix("bad.md:30:15: error: invalid UTF-8") }
    }
}
