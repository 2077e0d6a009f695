import Foundation
import Testing

@testable import TodoFormat

/// `fmt` computes the canonical form in one pass of the parser (`ChecklistFormatting`, through
/// `CanonicalFormWriter`), keeping the bytes of lines already canonical and writing no item it
/// need not make. These tests hold it to the canonical form as a document computed it before,
/// from all of its items (`ReferenceCanonicalForm`, the earlier code kept here).
@Suite("Canonical form in one pass")
struct CanonicalFormWriterTests {
    static let cases: [String] = [
        "",
        "text only\n",
        "- [ ] a\n- [x] b\n",
        "* [ ] a\n* [X] b\n",
        "* [ ] a\r\n  * [x] b\r\n",
        "1. [ ] a\n2) [-] b\n",
        "- [ ] a\n\n- [ ] b\n",
        "* [ ] a\n\n+ [x] b\n\n\n* [ ] c\n",
        "* [ ] a\n\nText\n\n+ [x] b\n",
        "\u{FEFF}* [ ] a\n",
        "\u{FEFF}1. [ ] a\r\n2. [x] b",
        "- [ ] no final newline",
        "* [ ] no final newline",
        "---\ntitle: T\n---\n* [ ] a\n   - [ ] b\n",
        "---\n---\n* [ ] a\n",
        "---\nnot: [yaml\n---\n* [ ] a\n",
        "- [ ] trailing  \n- [ ]\tTab\n-  [ ] two spaces\n",
        "- [ ] a\n    - [ ] four\n        - [ ] eight\n",
        "- [ ] name [due:: 2024-01-01]\n- [ ] esc \\[x] & \\\\ &amp;\n",
        "- [ ] [link](http://x) and [ref]\n- [ ] [label]: def\n- [ ] text]\n",
        "- [ ] multi\n  line\n  name\n- [x] b\n",
        "- [ ] a\n  para\n\n  more\n",
        "- [ ] a\n  ```\n  code\n  ```\n",
        "> - [ ] quoted\n- [ ] after\n",
        "> * [ ] quoted\n* [ ] after\n",
        "- [ ] a\n    indented text\n",
        "* [ ] a\n\n  indented after\n",
        " * [ ] a\n\n * [ ] b\n\n    code\n",
        " * [ ] a\n\n + [ ] b\n",
        "  * [ ] a\n\n  + [ ] b\n\n  - [ ] c\n",
        "* [ ] a\n\n  + [ ] b\n",
        "- plain\n- [ ] task\n",
        "# H\n* [ ] a\n# I\n+ [ ] b\n",
        "Setext\n* [ ] a\n===\n",
        "- [é] custom\n- [🎉] emoji\n- [/] slash\n",
        "- [ ] ünïcödé ¿ © nbsp\u{00A0}x\n",
        "- [ ] a\r\n- [ ] b\n* [ ] c\r\n",
        "- [ ] a\n- - [ ] nested marker\n",
        "1. [ ] a\n1. [ ] b\n\n3. [ ] c\n",
        "* [ ]\n* [x] \n",
        "- [ ] &#10; reference\n- [ ] a\\\nb\n",
        "<div>\n* [ ] html\n</div>\n\n* [ ] a\n",
        "* [ ] a\n\n    - [ ] deep\n",
        "\n\n* [ ] a\n\n\n",
        "* [ ] a\n \t \n* [ ] b\n",
        "* [ ] a\n  \r\n  b\n",
        "- [ ] a\n\n # heading\n* [ ] b\n",
        " * [ ] a\n\n  + [ ] b\n\n # h\n* [ ] c\n",
        " * [ ] a\n\n  + [ ] b\n\n- x\n\n* [ ] c\n",
    ]

    @Test("the one pass gives the canonical form a document gave", arguments: Self.cases)
    func givenCases(text: String) throws {
        try expectSameForm(text)
    }

    @Test(
        "the one pass gives the canonical form a document gave, on fixtures", arguments: Fixture.files(in: "markdown"))
    func fixtures(name: String) throws {
        try expectSameForm(Fixture.text(name))
    }

    @Test("the one pass gives the canonical form a document gave, on generated documents")
    func generated() throws {
        var failures: [String] = []
        for seed in 0..<1500 {
            let text = MarkdownGenerator.document(seed: UInt64(seed) &+ 90_000, lines: 40)
            if let failure = try difference(text) { failures.append("seed \(seed): \(failure)") }
        }
        #expect(failures.isEmpty, "\(failures.count) documents:\n\(failures.prefix(3).joined(separator: "\n\n"))")
    }

    @Test("a name written as it is is one that escaping leaves as it is")
    func writtenAsIs() {
        let names = [
            "plain", "with [brackets] inside", "[start", "end]", "a & b", "a \\ b", " lead", "trail ", "tab\tin",
            "ctl\u{7F}", "¿que?", "café", "[label]: x", "x [k:: v]", "", "🎉",
        ]
        for name in names {
            let asIs = Array(name.utf8).withUnsafeBufferPointer { NameSyntax.isWrittenAsIs($0) }
            if asIs { #expect(NameSyntax.escape(name[...], continuation: "  ") == name, "\(name)") }
        }
    }

    @Test("names are plain as a byte loop says, eight bytes at a time")
    func plainNames() {
        var rng = SeededGenerator(seed: 11)
        let alphabet: [UInt8] = [0x61, 0x20, 0x09, 0x0A, 0x5B, 0x5D, 0x5C, 0x26, 0x7F, 0xC2, 0xC3, 0x1F, 0x80, 0xFF]
        for _ in 0..<20_000 {
            let count = Int.random(in: 0..<24, using: &rng)
            let bytes = (0..<count).map { _ in
                Int.random(in: 0..<3, using: &rng) == 0 ? alphabet.randomElement(using: &rng)! : 0x61
            }
            for brackets in [false, true] {
                let bracket: UInt8 = brackets ? 0x5C : 0x5B
                let expected =
                    bytes.first.map { $0 != 32 && $0 != 9 } ?? true && bytes.last.map { $0 != 32 && $0 != 9 } ?? true
                    && !bytes.contains {
                        $0 < 0x20 || $0 == 0x5C || $0 == bracket || $0 == 0x26 || $0 == 0x7F || $0 == 0xC2
                    }
                let plain = bytes.withUnsafeBufferPointer { NameSyntax.isPlain($0, allowingBrackets: brackets) }
                #expect(plain == expected, "\(bytes)")
            }
        }
    }

    @Test("fmt --check compares up to the first difference; fmt writes only a file that changes")
    func files() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("fmt-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        for text in Self.cases {
            let url = directory.appendingPathComponent("list.md")
            try Data(text.utf8).write(to: url)
            let expected = try TodoDocument(parsing: text).canonicalMarkdown()
            let canonical = expected.utf8.elementsEqual(text.utf8)
            #expect(try ChecklistFormatting.isCanonical(contentsOf: url) == canonical, "\(text.debugDescription)")
            #expect(try ChecklistFormatting.format(contentsOf: url) == !canonical, "\(text.debugDescription)")
            #expect(try Data(contentsOf: url) == Data(expected.utf8), "\(text.debugDescription)")
            #expect(try ChecklistFormatting.isCanonical(contentsOf: url))
        }
    }

    @Test("texts of several megabytes: --check stops at a difference, fmt writes the equal part before it")
    func largeTexts() throws {
        let lines = (0..<60_000).map { "- [ ] item \($0) with some words\n" + ($0 % 7 == 0 ? "  - [x] nested\n" : "") }
        let canonical = "# Big\n" + lines.joined()
        let variants = [
            canonical, canonical.replacingOccurrences(of: "- [ ] item 59999", with: "* [ ] item 59999"),
            canonical.replacingOccurrences(of: "- [ ] item 1 ", with: "+ [ ] item 1 "),
            canonical.replacingOccurrences(of: "- [ ] item 30000", with: "-  [ ] item 30000"),
        ]
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("fmt-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        for (k, text) in variants.enumerated() {
            let url = directory.appendingPathComponent("big.md")
            try Data(text.utf8).write(to: url)
            #expect(try ChecklistFormatting.isCanonical(contentsOf: url) == (k == 0))
            #expect(try ChecklistFormatting.format(contentsOf: url) == (k != 0))
            #expect(try Data(contentsOf: url) == Data(canonical.utf8), "variant \(k)")
        }
    }

    @Test("a byte that is not UTF-8 is an error at its place")
    func invalidUTF8() {
        #expect(throws: ParseError.self) { try ChecklistFormatting.isCanonical([0x2D, 0x20, 0xFF], path: "x.md") }
    }

    private func expectSameForm(_ text: String) throws {
        let failure = try difference(text)
        #expect(failure == nil, "\(failure ?? "")")
    }

    /// How the one pass and the document's canonical form differ from the reference, if they do.
    private func difference(_ text: String) throws -> String? {
        let document = try TodoDocument(parsing: text)
        let reference = ReferenceCanonicalForm.text(of: document)
        let fast = try ChecklistFormatting.canonicalMarkdown(of: Array(text.utf8), path: "<input>")
        let check = try ChecklistFormatting.isCanonical(Array(text.utf8), path: "<input>")
        var failures: [String] = []
        if !fast.utf8.elementsEqual(reference.utf8) {
            failures.append("one pass:\n\(fast.debugDescription)\nreference:\n\(reference.debugDescription)")
        }
        if !document.canonicalMarkdown().utf8.elementsEqual(reference.utf8) {
            failures.append("document:\n\(document.canonicalMarkdown().debugDescription)")
        }
        if check != reference.utf8.elementsEqual(text.utf8) { failures.append("check says \(check)") }
        return failures.isEmpty ? nil : "\(text.debugDescription)\n" + failures.joined(separator: "\n")
    }
}

/// The canonical form as a document computed it from all of its items before fmt took one
/// pass (kept as the reference the one pass is held to).
enum ReferenceCanonicalForm {
    static func text(of document: TodoDocument) -> String {
        if !document.listBlocks.contains(where: \.canonical) { return document.text }
        return document.text.withBytes { text(of: document, bytes: $0) }
    }

    private static func text(of document: TodoDocument, bytes: UnsafeBufferPointer<UInt8>) -> String {
        let records = document.records
        var lineStarts: [Int] = [0]
        for (i, b) in bytes.enumerated() where b == 10 { lineStarts.append(i + 1) }
        func nextTextLine(after line: Int) -> (line: Int, indented: Bool)? {
            var n = line
            while n < lineStarts.count {
                var i = lineStarts[n]
                let end = n + 1 < lineStarts.count ? lineStarts[n + 1] : bytes.count
                while i < end && (bytes[i] == 32 || bytes[i] == 9) { i += 1 }
                if i < end && bytes[i] != 10 && bytes[i] != 13 { return (n + 1, i > lineStarts[n]) }
                n += 1
            }
            return nil
        }
        let candidates = document.listBlocks.filter(\.canonical)
        var rewrite = [Bool](repeating: false, count: candidates.count)
        for k in candidates.indices.reversed() {
            guard let next = nextTextLine(after: candidates[k].last) else {
                rewrite[k] = true
                continue
            }
            let nextIsRewritten = k + 1 < candidates.count && rewrite[k + 1] && next.line == candidates[k + 1].first
            rewrite[k] = nextIsRewritten || !next.indented
        }
        let blocks = candidates.indices.filter { rewrite[$0] }.map { candidates[$0] }
        var out: [UInt8] = []
        var position = 0
        var entryIndex = 0
        var previousEnd: (line: Int, offset: Int)? = nil
        for block in blocks {
            var start = lineStarts[block.first - 1]
            if block.first == 1 { start = ByteOrderMark.length(in: bytes) }
            let end = block.last < lineStarts.count ? lineStarts[block.last] : bytes.count
            if let previous = previousEnd, previous.offset == position,
                nextTextLine(after: previous.line)?.line == block.first
            {
                position = start
            }
            out.append(contentsOf: bytes[position..<start])
            while entryIndex < records.count && Int(records[entryIndex].line) < block.first { entryIndex += 1 }
            var sink = ByteSink()
            while entryIndex < records.count && Int(records[entryIndex].line) <= block.last {
                writeLine(
                    of: document.item(at: entryIndex, bytes: bytes), depth: records[entryIndex].depth,
                    lineEnding: document.lineEnding, to: &sink)
                entryIndex += 1
            }
            out.append(contentsOf: sink.buffer)
            if end == bytes.count && bytes.last != 10 { out.removeLast(document.lineEnding.utf8.count) }
            position = end
            previousEnd = (block.last, end)
        }
        out.append(contentsOf: bytes[position...])
        return String(decoding: out, as: UTF8.self)
    }

    /// `MarkdownWriter.writeLine` as it was: the name escaped unless `NameSyntax.isPlain`.
    private static func writeLine(of item: TodoItem, depth: Int, lineEnding: String, to sink: inout ByteSink) {
        sink.write(Indentation.twoSpaces(depth))
        switch item.status {
        case .open: sink.write("- [ ] ")
        case .done: sink.write("- [x] ")
        case .custom(let scalar): sink.write("- [" + String(scalar) + "] ")
        }
        let plain =
            item.fields.isEmpty
            && item.nameStorage.utf8.withContiguousStorageIfAvailable { bytes -> Bool in
                guard NameSyntax.isPlain(bytes) else { return false }
                sink.write(bytes)
                return true
            } == true
        if !plain {
            sink.write(
                FieldSyntax.render(
                    name: item.nameStorage, fields: item.fields, continuation: Indentation.twoSpaces(depth + 1),
                    lineEnding: lineEnding))
        }
        sink.write(lineEnding)
    }
}
