#if YAML
import Testing

@testable import TodoFormat

/// The scanner against libyaml: the same events with the same marks, or (past what the
/// scanner reads) libyaml's own events and errors after it hands over.
@Suite("YAML's block scanner and libyaml, event by event")
struct YAMLBlockScannerTests {
    /// What a parser gives for `text`: each event with the content end it leaves, then the
    /// error if one ends the stream; and whether the scanner gave every event.
    static func read(_ text: [UInt8], scanning: Bool, lineOffset: Int = 0) -> (events: [String], scannedAll: Bool) {
        text.withUnsafeBufferPointer { buffer in
            let parser = YAMLParser(bytes: buffer, file: "t.yaml", lineOffset: lineOffset, scanning: scanning)
            var events: [String] = []
            do {
                while true {
                    var event = try parser.next()
                    // The scanner's byte offsets are where libyaml's character offsets are.
                    if event.byteOffset >= 0 {
                        let start = byteOffset(text, character: event.characterOffset)
                        let end = byteOffset(text, character: event.endCharacterOffset)
                        #expect(event.byteOffset == start && event.endByteOffset == end, "\(event)")
                        #expect(parser.lastContentEndOffset == byteOffset(text, character: parser.lastContentEnd))
                    }
                    (event.byteOffset, event.endByteOffset) = (-1, -1)
                    events.append("\(event) end \(parser.lastContentEnd)")
                    if event.kind == .streamEnd { break }
                }
            } catch {
                events.append("error: \(error)")
            }
            return (events, parser.isScanning)
        }
    }

    /// The byte `character` characters after any byte order mark.
    static func byteOffset(_ text: [UInt8], character: Int) -> Int {
        var offset = text.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        var characters = 0
        while offset < text.count && characters < character {
            offset += 1
            while offset < text.count && text[offset] & 0xC0 == 0x80 { offset += 1 }
            characters += 1
        }
        return offset
    }

    /// Fails where the scanner's events differ from libyaml's for `text`; returns whether
    /// the scanner read it all.
    @discardableResult
    static func agree(_ text: [UInt8], lineOffset: Int = 0, sourceLocation: Testing.SourceLocation = #_sourceLocation)
        -> Bool
    {
        let libyaml = read(text, scanning: false, lineOffset: lineOffset)
        let scanned = read(text, scanning: true, lineOffset: lineOffset)
        let shown = String(decoding: text, as: UTF8.self).debugDescription
        // libyaml's reader checks a chunk of text before the parser reads from it, so it meets
        // a bad byte before the events ahead of it; the scanner meets it where it stands.
        if let error = libyaml.events.last, error.contains("yaml: invalid") || error.contains("control char"),
            scanned.events.last == error, scanned.events.starts(with: libyaml.events.dropLast())
        {
            return scanned.scannedAll
        }
        if let k = zip(libyaml.events, scanned.events).enumerated().first(where: { $1.0 != $1.1 })?.offset {
            Issue.record(
                "\(shown): event \(k) is\n  \(scanned.events[k])\nlibyaml:\n  \(libyaml.events[k])",
                sourceLocation: sourceLocation)
        } else if libyaml.events.count != scanned.events.count {
            Issue.record(
                "\(shown): \(scanned.events.count) events, libyaml \(libyaml.events.count)",
                sourceLocation: sourceLocation)
        }
        return scanned.scannedAll
    }

    @Test(
        "texts the scanner reads give libyaml's events",
        arguments: [
            "", "   ", "\n\n", "- a", "- a\n", "a: b", "a:  b  \n", "---\n", "---", "--- \n- a\n", "- \n", "-\n- a\n",
            "key:\n", "key:\n- a\n- b\nnext: 1\n", "key:\n  - a\n  -\nnext:\n", "- name: x\n  children:\n  - name: y\n",
            "- a\r\n- b\r\n", "a: []\nb: {}\n", "- 'it''s'\n- \"q \\\" \\\\ \\u00e9 \\U0001F389 \\x41\\t\"\n",
            "- -5\n- ?x\n- :x\n- a:b\n- http://x/y\n", "---\ntitle: T\n---\n- name: a\n", "\u{FEFF}- a\n",
            "- café\n- 日本\n- \"日本 \\U0001F1EF\"\n  \n", "- a long value with x#y and a:b then more text\n",
            "- trailing spaces after a long value      \r\n- next: 1234567890abcdef   ",
            "a:\n  b:\n    c: d\n  e: f\ng: h", "- x   \n\n   \n- y",
        ])
    func scanned(_ text: String) {
        #expect(Self.agree(Array(text.utf8)), "went to libyaml")
    }

    @Test(
        "texts past the scanner give libyaml's events and errors",
        arguments: [
            "# comment\n- a\n", "- a # note\n", "- a\n  b\n", "- &x a\n- *x\n", "- !!str 1\n", "- |\n  text\n",
            "- [a, b]\n", "- {a: 1}\n", "a: b: c\n", "- a\n b: c\n", "\t- a\n", "- a\tb\n", "...\n", "%YAML 1.1\n---\n",
            "- \"open\n  quote\"\n", "- x\u{2028}y\n", "- a\r- b\n", "? a\n: b\n", "- - a\n", "a: b\n  c: d\n",
            "- a\n-b\n", "key with space: 1\n", "- a long value then a comment # here\n",
            "- a long value ending in a colon:\n",
            "- a long value with a tab\there\n", "- \"\\q\"\n", "- \"\\uD800\"\n", "a:\n- b\n c\n", "- a\n - b\n",
        ])
    func pastTheScanner(_ text: String) {
        Self.agree(Array(text.utf8))
    }

    @Test("bytes that are not UTF-8 or are control characters give libyaml's error")
    func badBytes() {
        for bad: [UInt8] in [[0xFF], [0xC3], [0xED, 0xA0, 0x80], [0x01], [0x7F], [0xC2, 0x80], [0xEF, 0xBF, 0xBF]] {
            Self.agree(Array("- name: ok\n  checked: true\n- name: a".utf8) + bad + Array("b\n".utf8))
            Self.agree(Array("- \"a".utf8) + bad + Array("\"\n".utf8))
        }
    }

    @Test("front matter's lines are counted from where it starts")
    func lineOffset() {
        #expect(Self.agree(Array("title: T\ntags: []\n".utf8), lineOffset: 1))
    }

    @Test("generated lists: the scanner reads the block layout whole, and hands over mid-way to the same events")
    func generated() {
        var scannedAll = 0
        for seed in 0..<400 {
            var random = SeededGenerator(seed: UInt64(seed))
            let plain = seed % 4 != 3
            let text = Self.list(&random, outsideTheScanner: !plain)
            let whole = Self.agree(text)
            if plain {
                #expect(whole, "\(String(decoding: text, as: UTF8.self).debugDescription) went to libyaml")
            }
            if whole { scannedAll += 1 }
        }
        #expect(scannedAll >= 300)
    }

    /// A list like those todofmt and people write: a metadata document sometimes, items with
    /// names, statuses, fields and children; LF or CR LF; `outsideTheScanner` puts in
    /// one thing the scanner leaves to libyaml (or an error).
    static func list(_ random: inout SeededGenerator, outsideTheScanner: Bool) -> [UInt8] {
        let values = [
            "Milk", "two words", "'it''s'", "\"say \\\"hi\\\"\"", "café crème", "日本語のメモ", "\"party \\U0001F389\"",
            "true", "12", "-3.5", "2026-01-02", "null", "~", "[]", "{}", "''", "\"\"", "a:b", "x#y", "'#tag'",
            "\"\\t\\n\\u00e9\\0\\x7f\"", "'- dash'", "naïve résumé", "\"👩‍💻\"", "emoji 🚀 here",
        ]
        let keys = ["name", "checked", "status", "section", "due", "priority", "note.x", "a-b", "_k", "N9"]
        let outside = [
            "# comment", "  # indented comment", "- &anchor x", "\tname: tab", "name: |", "...", "name: [a]",
            "name: a # note", "? complex", "name: !!str x", "  continued plain", "name: \"open", "- *alias",
        ]
        let crlf = random.next() % 4 == 0
        var lines: [String] = []
        if random.next() % 3 == 0 {
            lines.append("---")
            for k in 0..<Int(random.next() % 3 + 1) {
                lines.append("\(keys[k + 3]): \(values.randomElement(using: &random)!)")
            }
            lines.append(random.next() % 2 == 0 ? "---" : "--- ")
        }
        func items(depth: Int, column: Int, count: Int) {
            for _ in 0..<count {
                let pad = String(repeating: " ", count: column)
                var first = true
                for key in keys.prefix(Int(random.next() % 5 + 1)) {
                    let dash = first ? "- " : "  "
                    first = false
                    if random.next() % 12 == 0 {
                        lines.append(pad + dash + key + ":")
                        let inner = String(repeating: " ", count: column + 4)
                        lines.append(inner + "x: \(values.randomElement(using: &random)!)")
                        lines.append(inner + "y:")
                    } else if random.next() % 15 == 0 {
                        lines.append(pad + dash + key + ":" + (random.next() % 2 == 0 ? "" : "  "))
                    } else {
                        let value = values.randomElement(using: &random)!
                        lines.append(pad + dash + key + ": " + value + (random.next() % 8 == 0 ? "  " : ""))
                    }
                }
                if random.next() % 10 == 0 { lines.append(random.next() % 2 == 0 ? "" : "   ") }
                if depth < 3 && random.next() % 3 == 0 {
                    let indentless = random.next() % 2 == 0
                    lines.append(pad + "  children:")
                    items(depth: depth + 1, column: column + (indentless ? 2 : 4), count: Int(random.next() % 3 + 1))
                }
            }
        }
        items(depth: 0, column: 0, count: Int(random.next() % 6 + 1))
        if outsideTheScanner, !lines.isEmpty {
            let at = Int(random.next() % UInt64(lines.count + 1))
            lines.insert(outside.randomElement(using: &random)!, at: at)
        }
        var text = lines.joined(separator: crlf ? "\r\n" : "\n")
        if random.next() % 5 != 0 { text += crlf ? "\r\n" : "\n" }
        return Array(text.utf8)
    }
}
#endif
