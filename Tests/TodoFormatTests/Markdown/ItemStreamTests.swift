import Foundation
import Testing

@testable import TodoFormat

/// A checklist read into a sink that takes plain names (`ItemQueue.drain(plainNamesInto:)`)
/// hands on plain items as byte ranges, items with fields whose names are plain as their
/// names' bytes and fields, and every other item whole; the list is the one the items give.
@Suite("A checklist's items handed on by kind")
struct ItemStreamTests {
    static func read(_ text: String) throws -> (streamed: TodoList, collector: PlainCollector, whole: TodoList) {
        let input = Input(bytes: Array(text.utf8), name: "t.md")
        var collector = PlainCollector()
        try MarkdownFormat().read(input, options: ListOptions(), plainNamesInto: &collector)
        var builder = ListBuilder()
        try MarkdownFormat().read(input, options: ListOptions(), into: &builder)
        return (collector.builder.finish(), collector, builder.finish())
    }

    @Test("plain names with fields come with their fields; other names with fields come whole")
    func kinds() throws {
        let text = """
            # Today
            - [ ] Milk
            - [x] Eggs [id:: 2] [due:: 2026-04-21T09:00:00Z]
              - [/] 日本語 🎉 [owner:: 山田] [prio:: 2]
              - [ ] say "hi" [id:: 4]
              - [ ] a \\[b\\] [id:: 5]
              - [ ] fish &amp; chips [id:: 6]
            - [ ] two
              lines [id:: 7]
            - [ ] see [the docs](https://example.com) [id:: 8]
            - [ ] [id:: 9]
            - [ ] not a field [x]

            ## Later
            - [-] Bread [tag:: a] [tag:: b]

            """
        let (streamed, collector, whole) = try Self.read(text)
        #expect(streamed == whole)
        #expect(whole.items.count == 7)
        // Milk; Eggs, 日本語, the link, the empty name and Bread. The rest come whole: a name
        // with `"` (which JSON escapes), `\` or `&`, on two lines, or ending in `]` unfielded.
        #expect(collector.plainCount == 1)
        #expect(collector.fieldedCount == 5)
        #expect(
            whole.items[1].fields == [
                Field("id", .integer(2)), Field("due", .date(Date(timeIntervalSince1970: 1_776_762_000))),
            ])
        #expect(whole.items[1].children.map(\.name) == ["日本語 🎉", "say \"hi\"", "a [b]", "fish &amp; chips"])
        #expect(whole.items[6].section == "Later")
    }

    @Test("generated checklists read the same both ways", arguments: 0..<40)
    func generated(seed: Int) throws {
        var random = SeededGenerator(seed: UInt64(seed))
        let names = ["Milk", "café", "a \"q\"", "b\\\\s", "x &amp; y", "日本語", "[l](u)", "", "ends ]"]
        let fields = [
            "[id:: 1]", "[due:: 2026-04-21T09:00:00.25+02:00]", "[n:: 1.10]", "[x:: nan]", "[tag:: a] [tag:: b]",
        ]
        var text = ""
        var depth = 0
        for i in 0..<40 {
            if random.next() % 10 == 0 {
                text += "\n## Section \(i)\n"
                depth = 0
                continue
            }
            depth = max(0, min(depth + Int(random.next() % 3) - 1, 3))
            text += String(repeating: "  ", count: depth) + (random.next() % 4 == 0 ? "- [x] " : "- [ ] ")
            text += names[Int(random.next() % UInt64(names.count))]
            for _ in 0..<Int(random.next() % 3) { text += " " + fields[Int(random.next() % UInt64(fields.count))] }
            text += "\n"
        }
        let (streamed, collector, whole) = try Self.read(text)
        #expect(streamed == whole, "\(text)")
        #expect(collector.plainCount + collector.fieldedCount > 0)
    }
}
