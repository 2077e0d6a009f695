import Foundation
import Testing

@testable import TodoFormat

@Suite("Checklist lines as the writer writes them")
struct MarkdownWriterTests {
    @Test("a line with fields written in one go has the bytes of the escaped name and rendered fields")
    func fieldsAtOnce() {
        let names = [
            "Milk", "a", "Привет мир 🎉", "code `x`", "x [y]", "", " lead", "back\\slash", "a & b", "two\nlines",
            "[ticket](https://t.co/1)", "[a]: b", "n [k:: v]", "x]",
        ]
        let keys = [
            "id", "position", "due date", "stuId", "κλειδί", "a:b", "[k]", " k", "k ", "", "q\"", "c\u{85}", "t\u{1}",
        ]
        let values: [FieldValue] = [
            .integer(0), .integer(7), .integer(-42), .integer(.max), .integer(.min), .bool(true), .bool(false),
            .string("plain"), .string("with space"), .string("true"), .string("42"), .string(" lead"),
            .string("[x]"), .string("\"q\""), .string(""), .string("日本"), .string("c\u{9F}"), .double(1.5),
            .null, .string("2024-05-01"), .array([.integer(1)]),
            .date(Date(timeIntervalSinceReferenceDate: 812_345_678)),
            .date(Date(timeIntervalSinceReferenceDate: 0.5)), .date(Date(timeIntervalSinceReferenceDate: -1e13)),
        ]
        var generator = SeededGenerator(seed: 5)
        func pick<T>(_ choices: [T]) -> T { choices[Int(generator.next() % UInt64(choices.count))] }
        for n in 0..<4_000 {
            let fields = (0..<Int(generator.next() % 4)).map { _ in Field(pick(keys), pick(values)) }
            let status = pick([TodoStatus.open, .done, .custom("/"), .custom("é")])
            let item = TodoItem(name: pick(names), status: status, fields: fields)
            let depth = Int(generator.next() % 5)
            let lineEnding = n % 3 == 0 ? "\r\n" : n % 3 == 1 ? "\n" : "\r"
            var sink = ByteSink()
            MarkdownWriter.writeLine(of: item, depth: depth, lineEnding: lineEnding, to: &sink)
            let box: String =
                switch status {
                case .open: "[ ]"
                case .done: "[x]"
                case .custom(let scalar): "[\(scalar)]"
                }
            let expected =
                String(repeating: "  ", count: depth) + "- " + box + " "
                + FieldSyntax.render(
                    name: item.nameStorage, fields: fields, continuation: String(repeating: "  ", count: depth + 1),
                    lineEnding: lineEnding) + lineEnding
            #expect(String(decoding: sink.buffer, as: UTF8.self) == expected, "\(item)")
        }
    }

    @Test("items from their names' bytes give the checklist and warnings the items give", arguments: 0..<20)
    func plainNames(seed: Int) throws {
        var generator = SeededGenerator(seed: UInt64(seed))
        func pick<T>(_ choices: [T]) -> T { choices[Int(generator.next() % UInt64(choices.count))] }
        let names = ["Milk", "", "日本語 🎉", "x]", "[a]: b", "n [k:: v]", "# not a heading", "1. one", " lead", "a  b"]
        let sections: [String?] = [nil, nil, "Home", "Shop", "Shop"]
        // Half the items with fields: some written as they are, some not.
        let fieldSets: [[Field]] = [
            [], [], [Field("prio", .integer(2))],
            [Field("due", .date(Date(timeIntervalSinceReferenceDate: 812_345_678))), Field("ok", .bool(true))],
            [Field("due date", .string(" x")), Field("tags", .array([.string("a")]))],
        ]
        var whole = MarkdownWriter(into: ByteSink(), outputName: "t.md")
        var plain = MarkdownWriter(into: ByteSink(), outputName: "t.md")
        var depth = 0
        for _ in 0..<200 {
            depth = Int(generator.next() % UInt64(depth + 2))
            let status = pick([TodoStatus.open, .done, .custom("/")])
            var name = pick(names)
            let section = pick(sections)
            let fields = pick(fieldSets)
            whole.item(
                TodoItem(name: name, status: status, fields: fields, section: depth == 0 ? section : nil), depth: depth)
            name.withUTF8 {
                if fields.isEmpty {
                    plain.item(plainName: $0, status: status, section: section, depth: depth)
                } else {
                    plain.item(plainName: $0, fields: fields, status: status, section: section, depth: depth)
                }
            }
        }
        let (a, b) = (try whole.finish(), try plain.finish())
        #expect(String(decoding: b.bytes, as: UTF8.self) == String(decoding: a.bytes, as: UTF8.self))
        #expect(b.warnings.map(\.description) == a.warnings.map(\.description))
    }

    @Test("a section a heading cannot hold is warned of; every other reads back")
    func headings() throws {
        let sections = ["Home", "", " lead", "trail ", "a\nb", "A #", "#", "## ##", "C#", "a # b", "#tag", "x\t#"]
        let list = TodoList(items: sections.map { TodoItem(name: "item", section: $0) })
        var writer = MarkdownWriter(into: ByteSink(), outputName: "t.md")
        try list.send(to: &writer)
        let written = try writer.finish()
        let back = try TodoList(bytes: written.bytes, format: .markdown, name: "t.md")
        let kept = zip(sections, back.items).filter { $0.0 == $0.1.section }.map(\.0)
        #expect(kept == ["Home", "C#", "a # b", "#tag"])
        #expect(sections.filter(MarkdownWriter.headingHolds) == kept)
        #expect(
            written.warnings.map(\.description) == [
                MarkdownWriter.changedSection + " (8 items, the first 2 item)"
            ])
    }

    @Test(
        "a key is bare unless quotes keep it whole",
        arguments: [
            ("id", true), ("due date", true), ("κλειδί", true), ("", false), (" k", false), ("k ", false),
            ("a:b", false), ("[k]", false), ("q\"", false), ("b\\s", false), ("t\u{1}", false), ("d\u{7F}", false),
            ("c\u{85}", false), ("c\u{A0}", true),
        ])
    func bareKey(key: String, bare: Bool) {
        #expect(FieldSyntax.isBareKey(key) == bare)
        #expect((FieldSyntax.renderKey(key) == key) == bare)
    }
}
