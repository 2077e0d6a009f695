#if YAML
import Foundation
import Testing

@testable import TodoFormat

/// The line scan that finds a list's items without parsing, against libyaml: where it
/// answers, its items start where libyaml's do.
@Suite("Finding a YAML list's items by their lines")
struct YAMLItemLinesTests {
    static func starts(_ text: String) -> [Int]? {
        Array(text.utf8).withUnsafeBufferPointer { YAMLItemLines.starts(in: $0, from: 0) }
    }

    @Test("the items of lists it follows")
    func follows() {
        #expect(Self.starts("- name: a\n  checked: false\n- name: b\n") == [0, 27])
        #expect(Self.starts("- name: a\r\n  checked: false\r\n- name: b") == [0, 29])
        // Comments, blank lines, nested items, quoted keys and values closed on their line,
        // empty flow collections, colons and dashes and quotes inside plain text.
        let text =
            "- name: a # c\n# top\n\n  children:\n  - name: \"x: \\\" - y\"\n    tags: []\n    deep:\n    - - d\n"
            + "- 'key': 'it''s'\n  note: a \"quote - b\n  url: http://x:80\n- \"k\" : {}  # c\n"
        #expect(Self.starts(text) == [0, 88, 145])
        #expect(Self.starts("") == [])
    }

    @Test(
        "gives up on what it does not follow",
        arguments: [
            // A quoted scalar going on over lines: its `- ` line is text.
            "- name: \"a\n- b\"\n", "- name: 'a\n- b'\n", "- name: \"a\\\n- b\"\n",
            // Block scalars, flow collections with something in them.
            "- name: |\n    x\n", "- name: >-\n    x\n", "- name: [a,\n  b]\n", "- {name: a}\n",
            // Anchors, aliases, tags, merge keys, complex keys.
            "- name: &a x\n", "- name: *a\n", "- name: !!str x\n", "- <<: {}\n  name: a\n", "- ? name\n  : a\n",
            // Lines at the first column that are not items; items that are not mappings.
            "- name: a\n---\n", "- name: a\nkey: b\n", "- a\n", "-\n  name: a\n", "- - name: a\n", "- \"a\"\n",
            // A tab anywhere (after a key's colon libyaml takes it for a space: here the
            // quote opens, and its `- ` line is text); a plain value with a key in it.
            "- name: a\n  \tchecked: false\n", "- name: a\n  note:\t\"abc\n- name: hidden\"\n- name: b\n",
            "- name: a: b\n",
            // Line breaks other than LF and CR LF.
            "- name: a\r- name: b\n", "- name: a\u{85}- name: b\n", "- name: a\u{2028}- name: b\n",
        ])
    func givesUp(_ text: String) {
        #expect(Self.starts(text) == nil)
    }

    @Test("gives up on a list whose first dash follows a byte order mark")
    func byteOrderMark() {
        let text = Array("\u{FEFF}- name: a\n  note: x\n- name: b\n".utf8)
        #expect(text.withUnsafeBufferPointer { YAMLItemLines.starts(in: $0, from: 3) } == nil)
    }

    /// The edit of one item reads the item's run only where the lines are followed, and
    /// leaves the file to the whole parse where they are not.
    @Test("an edit of one item takes the run where the lines are followed")
    func runTaken() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("todofmt-lines-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("t.yaml").path
        let long = try TodoList(items: (0..<1_500).map { TodoItem(name: "item \($0)") }).encoded(as: .yaml)
        let hidden = Array("- name: \"a\n- name: x\"\n- name: b\n- name: c\n".utf8)
        for (text, index, taken) in [(long, 1_200, true), (long, 0, true), (long, 1_499, true), (hidden, 1, false)] {
            var seen: String? = nil
            let update = try text.withUnsafeBufferPointer { buffer in
                try YAMLListPatcher.updateItemInRun(
                    at: index, in: file, bytes: buffer, path: "t.yaml", options: ListOptions(), mapped: nil
                ) { item in
                    seen = item.name
                    return TodoItem(name: item.name, status: .done)
                }
            }
            #expect((update != nil) == taken, "\(index)")
            if case .pending(let write) = update { write.discard() }
            if taken { #expect(seen == "item \(index)") }
        }
    }

    /// Random lists of lines made to trip it (quotes that run on, dashes, colons and hashes
    /// in text): wherever libyaml reads the list and the scan answers, the items start at the
    /// lines libyaml's items start on. The scan must answer for some of the lists, and give up
    /// on every list whose quoted scalar hides an item line.
    @Test("where it answers, libyaml's items", arguments: 0..<20)
    func matchesLibYAML(_ seed: Int) {
        var random = SeededGenerator(seed: UInt64(seed))
        let words = ["a", "b c", "x: y", "- z", "#h", " #c", "q\"", "'s", "[]", "ü", "✅", ":", "-", "x:y", "\\"]
        func text() -> String {
            (0..<Int.random(in: 1...3, using: &random)).map { _ in words.randomElement(using: &random)! }.joined()
        }
        // A key and a value: plain, quoted on the line or over lines (some going on in a
        // line like an item's), an empty collection, a comment after it.
        func member() -> String {
            let key = ["name", "note", "\"k\"", "'k'"].randomElement(using: &random)!
            let breakLine = ["\n- name: x", "\n  - y", "\n  z", "\n- "].randomElement(using: &random)!
            var value: String
            switch Int.random(in: 0..<8, using: &random) {
            case 0:
                value =
                    "\""
                    + text().replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
                    + "\""
            case 1: value = "'" + text().replacingOccurrences(of: "'", with: "''") + "'"
            case 2: value = "\"a" + breakLine + "\""
            case 3: value = "'a" + breakLine + "'"
            case 4: value = ["[]", "{}", ""].randomElement(using: &random)!
            default: value = text()
            }
            if Int.random(in: 0..<4, using: &random) == 0 { value += " # c" }
            return key + ": " + value
        }
        var answered = 0
        var hidden = 0
        for _ in 0..<300 {
            var lines: [String] = []
            for _ in 0..<Int.random(in: 1...6, using: &random) {
                lines.append("- " + member())
                for _ in 0..<Int.random(in: 0...3, using: &random) {
                    switch Int.random(in: 0..<10, using: &random) {
                    case 0: lines.append("# comment")
                    case 1: lines.append("")
                    case 2: lines.append("  " + text())
                    default: lines.append("  " + member())
                    }
                }
            }
            let text = Array(("- name: first\n" + lines.joined(separator: "\n") + "\n").utf8)
            guard let entries = Self.libyamlItemLines(text) else { continue }
            let answer = text.withUnsafeBufferPointer { YAMLItemLines.starts(in: $0, from: 0) }
            let itemLines = text.indices.filter {
                $0 == 0 || text[$0 - 1] == 10 && text[$0...].starts(with: Array("- ".utf8))
            }
            if itemLines.count != entries.count {
                hidden += 1
                #expect(answer == nil, "\(String(decoding: text, as: UTF8.self))")
            }
            guard let answer else { continue }
            answered += 1
            #expect(answer == entries, "\(String(decoding: text, as: UTF8.self))")
        }
        #expect(answered >= 10)
        #expect(hidden > 0)
    }

    /// Where libyaml's items start (each one's line), in a text it reads as a block list at
    /// the first column of mappings; nil where it reads it otherwise or not at all.
    static func libyamlItemLines(_ text: [UInt8]) -> [Int]? {
        text.withUnsafeBufferPointer { buffer -> [Int]? in
            let parser = YAMLParser(bytes: buffer, file: "t.yaml", scanning: false)
            var depth = 0
            var starts: [Int] = []
            do {
                while true {
                    let event = try parser.next()
                    switch event.kind {
                    case .streamEnd: return starts
                    case .sequenceStart, .mappingStart:
                        if depth == 0 {
                            guard case .sequenceStart = event.kind, !event.isFlow, event.column == 1 else { return nil }
                        } else if depth == 1 {
                            guard case .mappingStart = event.kind else { return nil }
                            var line = parser.offset(of: event)
                            while line > 0 && text[line - 1] != 10 { line -= 1 }
                            starts.append(line)
                        }
                        depth += 1
                    case .sequenceEnd, .mappingEnd: depth -= 1
                    case .scalar, .alias: if depth == 1 { return nil }
                    default: continue
                    }
                }
            } catch {
                return nil
            }
        }
    }
}
#endif
