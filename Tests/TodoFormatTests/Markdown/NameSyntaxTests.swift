import Foundation
import Testing

@testable import TodoFormat

/// Names keep every character through a checklist (FORMAT.md section 3.1): todofmt reads
/// back what it wrote, and so does cmark-gfm.
@Suite("Names in checklist text")
struct NameSyntaxTests {
    @Test(
        "how names are written",
        arguments: [
            ("Buy milk ", "Buy milk&#32;"),
            ("  Call mom\tafter work", "&#32;&#32;Call mom\tafter work"),
            ("\ttab ends\t", "&#9;tab ends&#9;"),
            ("Line one\nLine two", "Line one\n  Line two"),
            ("Ends with a newline\n", "Ends with a newline&#10;"),
            ("\nstarts with one", "&#10;starts with one"),
            ("two\n\nblank", "two&#10;\n  blank"),
            ("Carriage\r\nreturn", "Carriage&#13;\n  return"),
            ("NUL\u{0}bell\u{7}esc\u{1B}[1mDEL\u{7F}next\u{85}", "NUL&#0;bell&#7;esc&#27;[1mDEL&#127;next&#133;"),
            ("line\n  indented", "line\n  &#32;&#32;indented"),
            ("literal &#32; and &amp; and &#x41; stay", "literal \\&#32; and \\&amp; and \\&#x41; stay"),
            ("a backslash \\&#32; before one", "a backslash \\\\\\&#32; before one"),
            ("ends in a backslash \\ ", "ends in a backslash \\\\&#32;"),
            ("R&D; & co", "R\\&D; & co"),
            ("a\n___\nb", "a\n  \\___\n  b"),
            ("[foo]: /url", "\\[foo]: /url"),
            ("[x] done", "[x] done"),
            ("", ""),
            (" ", "&#32;"),
        ])
    func written(name: String, text: String) throws {
        #expect(NameSyntax.escape(Substring(name), continuation: "  ") == text)
        let read = try TodoList(markdown: "- [ ] " + text + "\n").items
        #expect(read.map(\.name) == [name], "\(text.debugDescription)")
    }

    @Test(
        "what is read as a character and what stays text",
        arguments: [
            ("&#32;a&#9;b&#0;&#10;&#13;&#127;&#159;", " a\tb\u{0}\n\r\u{7F}\u{9F}"),
            ("&#0000032;x", " x"),
            ("&#65;&#160;&#x20;&amp;&#32", "&#65;&#160;&#x20;&amp;&#32"),
            ("\\&#32;\\&amp;\\&x", "&#32;&amp;\\&x"),
            ("\\\\&#32;", "\\ "),
        ])
    func read(text: String, name: String) throws {
        #expect(try TodoList(markdown: "- [ ] x " + text + "\n").items.map(\.name) == ["x " + name])
    }

    @Test("a name with fields keeps its end spaces")
    func withFields() throws {
        let item = TodoItem(
            name: " padded \n", fields: [Field("id", .integer(1)), Field("note", .string("bell\u{7}\u{7F}\u{85}"))])
        let text = String(decoding: try TodoList(items: [item]).encoded(as: .markdown), as: UTF8.self)
        #expect(text == "- [ ] &#32;padded &#10; [id:: 1] [note:: \"bell\\u0007\\u007f\\u0085\"]\n")
        #expect(try TodoList(markdown: text).items == [item])
    }

    // MARK: Generated names, read by todofmt and by cmark-gfm

    /// Pieces of names: text cmark-gfm reads as plain text (no emphasis, code or links), white
    /// space, line breaks, control characters, character references and backslashes, and
    /// what would start a block at the start of a line.
    static let pieces: [String] = [
        "a", "b", "milk", "42", "café", "日本", " ", "  ", "\t", "\n", "\n", "\r", "\r\n", "\u{0}", "\u{1}", "\u{7}",
        "\u{B}",
        "\u{C}", "\u{1B}", "\u{7F}", "\u{85}", "\u{9F}", "\u{A0}", "&", "#", ";", "&#32;", "&#0;", "&#10;", "&#13;",
        "&amp;",
        "&#x41;", "&#65;", "&lt;", "&#", "\\a", "\\\\x", "\\[", "\\]", "\\&#32;", "[", "]", "[x:: 1]", "- ", "-", "+ ",
        "# ",
        "> ", "=", "===", "---", "1. ", "2) ", "12", ".", ")", "< ", "|", ":", "[ ] ", "[x] ",
    ]

    static func name(_ rng: inout SeededGenerator) -> String {
        var name = ""
        for _ in 0..<Int.random(in: 1...10, using: &rng) { name += pieces.randomElement(using: &rng)! }
        return name
    }

    /// The text of each task item's name paragraph in cmark-gfm's XML: text nodes and soft
    /// breaks (as line feeds). Nil where the paragraph holds anything else.
    static func cmarkNames(of markdown: String) throws -> [String?] {
        let result = try ExternalTool.run("cmark-gfm", ["-e", "tasklist", "-t", "xml"], stdin: Data(markdown.utf8))
        let xml = result.text
        var names: [String?] = []
        var rest = xml[...]
        while let item = rest.range(of: "<tasklist") {
            rest = rest[item.upperBound...]
            let end = rest.range(of: "</tasklist>")?.lowerBound ?? rest.endIndex
            guard let open = rest.range(of: "<paragraph>"), open.lowerBound < end,
                let close = rest.range(of: "</paragraph>")
            else {
                names.append("")
                continue
            }
            var inline = rest[open.upperBound..<close.lowerBound]
            var name: String? = ""
            while let tag = inline.firstIndex(of: "<") {
                let tagEnd = inline[tag...].firstIndex(of: ">")!
                let tagText = inline[tag...tagEnd]
                if tagText.hasPrefix("<text") {
                    let closeTag = inline.range(of: "</text>")!
                    name? += unescapeXML(String(inline[inline.index(after: tagEnd)..<closeTag.lowerBound]))
                    inline = inline[closeTag.upperBound...]
                    continue
                } else if tagText.hasPrefix("<softbreak") {
                    name? += "\n"
                } else {
                    name = nil
                }
                inline = inline[inline.index(after: tagEnd)...]
            }
            names.append(name)
            rest = rest[close.upperBound...]
        }
        return names
    }

    static func unescapeXML(_ text: String) -> String {
        text.replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
            .replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&amp;", with: "&")
    }

    @Test("generated names come back from todofmt and from cmark-gfm", arguments: 0..<25)
    func generated(seed: Int) throws {
        var rng = SeededGenerator(seed: UInt64(seed) &+ 90_000)
        let items = (0..<200).map { _ in
            TodoItem(name: Self.name(&rng), status: Bool.random(using: &rng) ? .done : .open)
        }
        let markdown = String(decoding: try TodoList(items: items).encoded(as: .markdown), as: UTF8.self)
        // todofmt reads every name back, and never finds a raw control character but a tab.
        #expect(try TodoList(markdown: markdown).items == items)
        #expect(!markdown.unicodeScalars.contains { NameSyntax.isControl($0.value) && $0 != "\t" && $0 != "\n" })
        // cmark-gfm too, except that it reads `&#0;` as U+FFFD (FORMAT.md section 5).
        let seen = try Self.cmarkNames(of: markdown)
        #expect(seen.count == items.count)
        for (item, cmarkName) in zip(items, seen) {
            let expected = item.name.replacingOccurrences(of: "\u{0}", with: "\u{FFFD}")
            #expect(
                cmarkName == expected,
                "\(item.name.debugDescription) as \(NameSyntax.escape(item.nameStorage, continuation: "  ").debugDescription)"
            )
        }
    }
}

extension NameSyntaxTests {
    @Test("an app's names with end spaces, line breaks and control characters: plist to checklist and back")
    func appNames() throws {
        let list = try TodoList(contentsOf: Fixture.url("apps/odd-names.plist"))
        let checklist = String(decoding: try list.encoded(as: .markdown), as: UTF8.self)
        #expect(checklist == (try Fixture.text("apps/odd-names.expected.md")))
        #expect(try TodoList(markdown: checklist) == list)
        #expect(list.items.map(\.name).contains("Buy milk "))
    }

    @Test(
        "a checklist written back into itself from its own list changes nothing",
        arguments: [
            "apps/odd-names.expected.md", "apps/uuid-tasks.expected.md", "apps/gorm-todos.expected.md",
        ])
    func appChecklists(name: String) throws {
        var document = try TodoDocument(parsing: Fixture.text(name))
        let before = document.text
        try document.update(with: document.list)
        #expect(document.text == before)
    }
}
