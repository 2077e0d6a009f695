#if YAML
import Testing

@testable import TodoFormat

@Suite("libyaml's events as Swift values")
struct YAMLParserTests {
    /// Every event of `text`, read to the end before any is looked at.
    static func events(_ text: String, lineOffset: Int = 0) throws -> [YAMLEvent] {
        let bytes = Array(text.utf8)
        return try bytes.withUnsafeBufferPointer { buffer in
            let parser = try YAMLParser(bytes: buffer, file: "t.yaml", lineOffset: lineOffset)
            var events: [YAMLEvent] = []
            while true {
                events.append(try parser.next())
                if events.last?.kind == .streamEnd { return events }
            }
        }
    }

    @Test("events keep their text, style, tag and anchor after the parser has moved on")
    func kinds() throws {
        let text = """
            - name: Milk
              note: 'single'
              tag: !!str 12
              list: &l [a, "b"]
              again: *l
              block: |
                two
                lines
            """
        let kinds = try Self.events(text).map(\.kind)
        let str = "tag:yaml.org,2002:str"
        #expect(
            kinds == [
                .streamStart, .documentStart, .sequenceStart(YAMLEvent.Properties()),
                .mappingStart(YAMLEvent.Properties()),
                .scalar(YAMLEvent.Scalar(text: "name", style: .plain)),
                .scalar(YAMLEvent.Scalar(text: "Milk", style: .plain)),
                .scalar(YAMLEvent.Scalar(text: "note", style: .plain)),
                .scalar(YAMLEvent.Scalar(text: "single", style: .singleQuoted)),
                .scalar(YAMLEvent.Scalar(text: "tag", style: .plain)),
                .scalar(YAMLEvent.Scalar(text: "12", style: .plain, properties: YAMLEvent.Properties(tag: str))),
                .scalar(YAMLEvent.Scalar(text: "list", style: .plain)),
                .sequenceStart(YAMLEvent.Properties(anchor: "l")),
                .scalar(YAMLEvent.Scalar(text: "a", style: .plain)),
                .scalar(YAMLEvent.Scalar(text: "b", style: .doubleQuoted)),
                .sequenceEnd,
                .scalar(YAMLEvent.Scalar(text: "again", style: .plain)), .alias(anchor: "l"),
                .scalar(YAMLEvent.Scalar(text: "block", style: .plain)),
                .scalar(YAMLEvent.Scalar(text: "two\nlines", style: .literal)),
                .mappingEnd, .sequenceEnd, .documentEnd, .streamEnd,
            ])
    }

    @Test("a scalar's text is its bytes, for the words every item repeats and for those near them")
    func commonWords() throws {
        let words = ["name", "checked", "status", "section", "children", "true", "false"]
        // Each word, cut short, one letter longer, a letter changed, capitalized, quoted.
        var texts = ["", "n", "x", "12345678", "日本", "é", "🚀"]
        for word in words {
            texts += [word, String(word.dropLast()), word + "s", word.capitalized, "a" + word.dropFirst()]
            texts.append(String(word.dropLast()) + "é")
        }
        let list = texts.map { "- '\($0.replacingOccurrences(of: "'", with: "''"))'\n" }.joined()
        let scalars = try Self.events(list).compactMap { event -> String? in
            if case .scalar(let scalar) = event.kind { return scalar.text }
            return nil
        }
        #expect(scalars == texts)
        #expect(scalars.map { Array($0.utf8) } == texts.map { Array($0.utf8) })
    }

    @Test("a tag and an anchor on one node, and the anchor each node event defines")
    func properties() throws {
        let events = try Self.events("- &a !!int 1\n- &m {k: v}\n- *a\n")
        let scalar = try #require(events.first { if case .scalar = $0.kind { true } else { false } })
        guard case .scalar(let value) = scalar.kind else { return }
        #expect(value.tag == "tag:yaml.org,2002:int")
        #expect(value.anchor == "a")
        #expect(events.compactMap(\.anchor) == ["a", "m"], "aliases define no anchor")
    }

    @Test("positions count lines and columns from 1, below the front matter's offset")
    func positions() throws {
        let events = try Self.events("a: 1\nbé: [x]\n", lineOffset: 10)
        let x = try #require(events.first { $0.kind == .scalar(YAMLEvent.Scalar(text: "x", style: .plain)) })
        #expect((x.line, x.column) == (12, 6), "columns count characters")
    }

    @Test("libyaml counts characters; byteOffset(of:) finds the event's bytes", arguments: ["", "\u{FEFF}"])
    func byteOffset(bom: String) throws {
        let text = bom + "é: ü\r\n日本: [x, ✓]\n"
        let bytes = Array(text.utf8)
        try bytes.withUnsafeBufferPointer { buffer in
            let parser = try YAMLParser(bytes: buffer, file: "t.yaml")
            while true {
                let event = try parser.next()
                guard case .scalar(let scalar) = event.kind else {
                    if event.kind == .streamEnd { break }
                    continue
                }
                let offset = parser.byteOffset(of: event)
                #expect(
                    Array(bytes[offset...].prefix(scalar.text.utf8.count)) == Array(scalar.text.utf8), "\(scalar.text)")
            }
        }
    }

    @Test("libyaml's error, at its place")
    func error() throws {
        #expect(
            throws: ParseError(
                "yaml: did not find expected ',' or ']' while parsing a flow sequence",
                at: SourceLocation(file: "t.yaml", line: 2, column: 2))
        ) {
            try Self.events("a: [1, 2\nb: 3\n")
        }
    }

    @Test("a byte that is not UTF-8 is an error at its line and column (libyaml gives no mark)")
    func notUTF8() throws {
        let bytes = Array("- name: a\n  checked: false\n- name: bé".utf8) + [0xFF] + Array("\n".utf8)
        for lineOffset in [0, 3] {
            #expect(
                throws: ParseError(
                    "yaml: invalid leading UTF-8 octet (byte 0xFF)",
                    at: SourceLocation(file: "t.yaml", line: 3 + lineOffset, column: 11))
            ) {
                try bytes.withUnsafeBufferPointer { buffer in
                    let parser = try YAMLParser(bytes: buffer, file: "t.yaml", lineOffset: lineOffset)
                    while try parser.next().kind != .streamEnd {}
                }
            }
        }
    }
}
#endif
