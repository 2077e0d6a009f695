import Foundation
import Testing

@testable import TodoFormat

/// Two checklists whose bytes differ only in some boxes' status characters: the old one is
/// read alone (`ListDiff.boxChanges`), and the changes are those of the two lists.
@Suite("A diff of checklists whose boxes alone changed, from the old file's bytes")
struct ListDiffBoxesTests {
    /// A line of a generated checklist: its text with `S` where a status character stands,
    /// and whether that is an item's box the byte path claims (false: a box of an item made
    /// apart, or text that only looks like a box).
    private struct Line {
        var text: String
        var claimed: Bool
    }

    /// Lines of many kinds: items plain, nested, ordered, quoted, with a tab after the box,
    /// with fields (after the name, or before it), with a box in their names, with escapes
    /// or two lines (made apart); and
    /// boxes that are no item's: in code, in a paragraph, in the front matter.
    private static func lines(_ count: Int, using generator: inout SeededGenerator) -> [Line] {
        var lines = [
            Line(text: "---", claimed: false), Line(text: "title: \"[S] not an item\"", claimed: false),
            Line(text: "---", claimed: false), Line(text: "# Start", claimed: false),
        ]
        for k in 0..<count {
            switch Int.random(in: 0..<16, using: &generator) {
            case 0: lines.append(Line(text: "  - [S] child \(k)", claimed: true))
            case 1: lines.append(Line(text: "1. [S] ordered \(k)", claimed: true))
            case 2: lines.append(Line(text: "- [S]\ttabbed \(k)", claimed: true))
            case 3:
                lines.append(Line(text: "- [S] due \(k) [due:: 2026-01-0\(k % 9 + 1)] [n:: \(k % 3)]", claimed: true))
            case 4: lines.append(Line(text: "- [S]   [S] boxed name \(k)", claimed: true))
            case 5: lines.append(Line(text: "- [S] escaped \\* star \(k)", claimed: false))
            case 6:
                lines.append(Line(text: "- [S] two", claimed: false))
                lines.append(Line(text: "  lines \(k)", claimed: false))
            case 7:
                lines.append(Line(text: "```", claimed: false))
                lines.append(Line(text: "- [S] in code \(k)", claimed: false))
                lines.append(Line(text: "```", claimed: false))
            case 8:
                lines.append(Line(text: "", claimed: false))
                lines.append(Line(text: "Text with [S] a box \(k)", claimed: false))
                lines.append(Line(text: "", claimed: false))
            case 9: lines.append(Line(text: "> - [S] quoted \(k)", claimed: false))
            case 10: lines.append(Line(text: "## Part \(k)", claimed: false))
            case 11: lines.append(Line(text: "- [S] [due:: 2026-02-03] fields first \(k)", claimed: false))
            case 12:
                // No name: a custom status makes a paragraph that holds the child after the
                // blank line, `[ ]` and `[x]` an empty item that ends there.
                lines.append(Line(text: "- [S] ", claimed: false))
                lines.append(Line(text: "", claimed: false))
                lines.append(Line(text: "  - [S] after a blank \(k)", claimed: false))
            default: lines.append(Line(text: "- [S] item \(k % 41) café 🚀", claimed: true))
            }
        }
        return lines
    }

    /// The text of `lines` with each `S` the status character `statuses` gives for its line
    /// (by index, and by the `S`'s place in the line).
    private static func text(_ lines: [Line], _ statuses: [Int: [Character]]) -> String {
        var text = ""
        for (i, line) in lines.enumerated() {
            var n = 0
            for c in line.text {
                if c == "S" {
                    text.append(statuses[i]?[n] ?? " ")
                    n += 1
                } else {
                    text.append(c)
                }
            }
            text += "\n"
        }
        return text
    }

    private static let boxes: [Character] = [" ", "x", "X", "/", "-", "|", "<", ">", "`", "*", "#", "!", "?", "~"]

    /// Files whose boxes changed as `edit` says (`claimed`: only boxes of items the byte path
    /// claims), diffed both ways: from the old file's bytes where the byte path applies, by
    /// digests otherwise, and as lists, all with the same changes.
    @Test("random boxes changed in varied checklists: the same changes as the lists' diff", arguments: 0..<16)
    func sameAsLists(seed: Int) throws {
        var generator = SeededGenerator(seed: UInt64(seed))
        let lines = Self.lines(400, using: &generator)
        var old: [Int: [Character]] = [:]
        for i in lines.indices where lines[i].text.contains("S") {
            let count = lines[i].text.filter { $0 == "S" }.count
            old[i] = (0..<count).map { _ in Self.boxes.randomElement(using: &generator)! }
        }
        var new = old
        // Even seeds change only claimed boxes; odd ones any (`S` in code, text, a name).
        let onlyClaimed = seed % 2 == 0
        let candidates = lines.indices.filter { lines[$0].text.contains("S") && (!onlyClaimed || lines[$0].claimed) }
        for _ in 0..<[1, 5, 60][seed % 3] {
            let i = candidates.randomElement(using: &generator)!
            new[i]![onlyClaimed ? 0 : Int.random(in: 0..<new[i]!.count, using: &generator)] =
                Self.boxes.randomElement(using: &generator)!
        }
        let folder = try TemporaryDirectory()
        let a = folder.url.appendingPathComponent("a.md")
        let b = folder.url.appendingPathComponent("b.md")
        try Data(Self.text(lines, old).utf8).write(to: a)
        try Data(Self.text(lines, new).utf8).write(to: b)
        for (x, y) in [(a, b), (b, a)] {
            let fromLists = ListDiff(from: try TodoList(contentsOf: x), to: try TodoList(contentsOf: y))
            let byBytes = try ListDiff(old: x, new: y)
            let byDigests = try ListDiff(
                old: x, new: y, format: nil, options: ListOptions(), boxesAtMost: ItemDigests.boxesAtMost,
                byBytes: false)
            #expect(byBytes.changes.map(\.description) == fromLists.changes.map(\.description))
            #expect(byBytes.changes == byDigests.changes)
            let bytes = try ListDiff.boxChanges(old: Input(file: x.path), new: Input(file: y.path))
            if onlyClaimed {
                #expect(bytes == byBytes.changes)
            }
        }
    }

    @Test("boxes of items made apart, and text that looks like a box, leave the diff to the digests")
    func unclaimed() throws {
        let folder = try TemporaryDirectory()
        let old =
            "---\nnote: \"[ ] x\"\n---\n- [ ] a\n- [ ] b \\*\n```\n- [ ] c\n```\nText [ ] d\n- [ ] e [ ] f\n"
            + "- [/] \n\n  - [ ] g\n"
        func changes(_ new: String) throws -> [ListDiff.Change]? {
            try old.write(toFile: folder.path("a.md"), atomically: false, encoding: .utf8)
            try new.write(toFile: folder.path("b.md"), atomically: false, encoding: .utf8)
            return try ListDiff.boxChanges(
                old: Input(file: folder.path("a.md")), new: Input(file: folder.path("b.md")))
        }
        let checked = try #require(try changes(old.replacingOccurrences(of: "- [ ] a", with: "- [x] a")))
        #expect(checked.map(\.description) == ["checked 1: a"])
        #expect(try changes(old)?.isEmpty == true)
        for (from, to) in [
            ("note: \"[ ]", "note: \"[x]"),  // the front matter
            ("- [ ] b", "- [x] b"),  // an item whose name has an escape
            ("- [ ] c", "- [x] c"),  // code
            ("Text [ ]", "Text [x]"),  // a paragraph
            ("e [ ] f", "e [x] f"),  // a name's text
            ("- [ ] a", "- [\\] a"),  // no box: the item is gone
            ("- [ ] a", "- [✅] a"),  // a status of more bytes
            ("- [/] \n", "- [x] \n"),  // no name: `g` is the item's child, then its own (hunt 91)
        ] {
            let new = old.replacingOccurrences(of: from, with: to)
            #expect(try changes(new) == nil, "\(from) → \(to)")
            try new.write(toFile: folder.path("b.md"), atomically: false, encoding: .utf8)
            let diff = try ListDiff(
                old: folder.url.appendingPathComponent("a.md"), new: folder.url.appendingPathComponent("b.md"))
            let lists = ListDiff(from: try TodoList(markdown: old), to: try TodoList(markdown: new))
            #expect(diff.changes.map(\.description) == lists.changes.map(\.description), "\(from) → \(to)")
        }
    }

    /// The old file is checked to be UTF-8 as any reading of it is: the same error, at the
    /// same place, as the digests' reading gives.
    @Test("an old file that is not UTF-8 is the same error")
    func invalidUTF8() throws {
        let folder = try TemporaryDirectory()
        var old = Array("- [ ] a\n- [ ] b \u{E9}\n".utf8)
        old[old.count - 3] = 0xFF
        var new = old
        new[3] = UInt8(ascii: "x")
        try Data(old).write(to: folder.url.appendingPathComponent("a.md"))
        try Data(new).write(to: folder.url.appendingPathComponent("b.md"))
        let (a, b) = (folder.url.appendingPathComponent("a.md"), folder.url.appendingPathComponent("b.md"))
        func message(_ body: () throws -> Any) -> String {
            do {
                _ = try body()
                return "no error"
            } catch {
                return "\(error)"
            }
        }
        let byBytes = message { try ListDiff(old: a, new: b) }
        let byDigests = message {
            try ListDiff(old: a, new: b, format: nil, options: ListOptions(), boxesAtMost: 0, byBytes: false)
        }
        #expect(byBytes.contains("a.md:2:"))
        #expect(byBytes == byDigests)
    }
}
