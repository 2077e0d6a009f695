import Foundation
import Testing

@testable import TodoFormat

/// The JSON writer writes items in todofmt's own layout without building their entries
/// (`ItemLayout.entries(of:)`), and a checklist's plain names straight from its bytes; these
/// tests hold both to what the entries give.
@Suite("The JSON writer's shortcuts")
struct JSONWriterShortcutTests {
    /// The JSON of one item at the top of a list, by the entries of the standard layout.
    static func byEntries(_ item: TodoItem) -> String {
        var sink = ByteSink()
        sink.write("[\n  {")
        var first = true
        for entry in ItemLayout().entries(of: item) {
            guard case .value(let value) = entry.value else { continue }
            if !first { sink.write(", ") }
            first = false
            JSONText.writeString(Substring(entry.key), to: &sink)
            sink.write(": ")
            JSONText.writeValue(value, to: &sink)
        }
        sink.write("}\n]\n")
        return String(decoding: sink.buffer, as: UTF8.self)
    }

    /// The JSON the writer writes for one item, given whole or (`plain`) as a plain name
    /// (with its fields, if it has any).
    static func written(_ item: TodoItem, plain: Bool) throws -> String {
        try writtenWithWarnings(item, plain: plain).json
    }

    static func writtenWithWarnings(_ item: TodoItem, plain: Bool) throws -> (
        json: String, warnings: [ConversionWarning]
    ) {
        var writer = JSONListWriter(into: ByteSink(), outputName: "<memory>")
        writer.begin(metadata: [])
        if plain {
            var name = item.name
            name.withUTF8 {
                if item.fields.isEmpty {
                    writer.item(plainName: $0, status: item.status, section: item.section, depth: 0)
                } else {
                    writer.item(
                        plainName: $0, fields: item.fields, status: item.status, section: item.section, depth: 0)
                }
            }
        } else {
            writer.item(item, depth: 0)
        }
        writer.end()
        let written = try writer.finish()
        return (String(decoding: written.bytes, as: UTF8.self), written.warnings)
    }

    static let names = ["Milk", "", "café crème 日本語 🎉", "say \"hi\"", "tab\there", "back\\slash", "a\u{1}b"]
    static let statuses: [TodoStatus] = [.open, .done, .custom("/"), .custom("\""), .custom("\\"), .custom("✓")]
    static let fieldSets: [[Field]] = [
        [], [Field("id", .integer(42))],
        [Field("due", .date(Date(timeIntervalSince1970: 1_777_777_777.25))), Field("owner", .string("山田"))],
        [Field("name", .string("x")), Field("state", .string("s")), Field("title", .string("t"))],
        [Field("status", .string("s")), Field("section", .string("s")), Field("fields", .integer(1))],
        [Field("checked", .bool(true)), Field("done", .bool(false)), Field("position", .integer(3))],
        [Field("children", .array([.integer(1)])), Field("subtasks", .null), Field("x", .double(.nan))],
    ]

    @Test("items in the standard layout are written as their entries give them")
    func standardLayout() throws {
        for name in Self.names {
            for status in Self.statuses {
                for fields in Self.fieldSets {
                    for section in [nil, "Today", "Say \"when\""] as [String?] {
                        let item = TodoItem(name: name, status: status, fields: fields, section: section)
                        #expect(try Self.written(item, plain: false) == Self.byEntries(item), "\(item)")
                        // A plain name has nothing JSON escapes (`ListWriter.item(plainName:…)`);
                        // with fields, it is written as the item is, warnings too.
                        if !name.utf8.contains(where: { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C }) {
                            let plain = try Self.writtenWithWarnings(item, plain: true)
                            #expect(plain.json == Self.byEntries(item), "\(item)")
                            #expect(try plain.warnings == Self.writtenWithWarnings(item, plain: false).warnings)
                        }
                    }
                }
            }
        }
    }

    @Test("nested items close and open their children the same both ways")
    func nesting() throws {
        let depths = [0, 1, 2, 2, 1, 3, 0, 0, 1, 0]
        var whole = JSONListWriter(into: ByteSink(), outputName: "<memory>")
        var plain = JSONListWriter(into: ByteSink(), outputName: "<memory>")
        for (i, depth) in depths.enumerated() {
            let item = TodoItem(name: "item \(i)", status: i % 3 == 0 ? .done : .open, section: depth == 0 ? "S" : nil)
            var name = item.name
            whole.item(item, depth: depth)
            name.withUTF8 { plain.item(plainName: $0, status: item.status, section: item.section, depth: depth) }
        }
        whole.end()
        plain.end()
        let expected = try whole.finish().bytes
        #expect(try plain.finish().bytes == expected)
        // The same items as a run of plain items, their names in one text.
        var text: [UInt8] = []
        var run: [PlainItem] = []
        for (i, depth) in depths.enumerated() {
            let start = text.count
            text += Array("item \(i)".utf8)
            run.append(
                PlainItem(
                    nameStart: start, nameEnd: text.count, status: i % 3 == 0 ? .done : .open, depth: depth,
                    section: depth == 0 ? 0 : -1))
        }
        var batch = JSONListWriter(into: ByteSink(), outputName: "<memory>")
        text.withUnsafeBufferPointer { batch.items(plain: run[...], text: $0, sections: ["S"]) }
        batch.end()
        #expect(try batch.finish().bytes == expected)
    }
}

@Suite("Byte searches")
struct ByteScanTests {
    @Test("agree with a byte-by-byte search", arguments: 0..<200)
    func agree(seed: Int) {
        var rng = SeededGenerator(seed: UInt64(seed))
        let alphabet: [UInt8] =
            Array("abc xyz\u{E9}".utf8) + [
                0x22, 0x5C, 0x26, 0x09, 0x1F, 0x20, 0x7F, 0x80, 0xFF, 0x3C, 0x3E, 0xEF, 0xEE,
            ]
        let count = Int.random(in: 0..<40, using: &rng)
        var bytes = (0..<count).map { _ in UInt8.random(in: 0x61...0x7A, using: &rng) }
        for _ in 0..<Int.random(in: 0..<3, using: &rng) where !bytes.isEmpty {
            bytes[Int.random(in: 0..<bytes.count, using: &rng)] = alphabet.randomElement(using: &rng)!
        }
        bytes.withUnsafeBufferPointer { buffer in
            #expect(ByteScan.contains(buffer, 0x5C, 0x26) == bytes.contains { $0 == 0x5C || $0 == 0x26 })
            #expect(ByteScan.containsJSONEscape(buffer) == bytes.contains { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C })
            #expect(
                ByteScan.containsEscapeOrJSONEscape(buffer)
                    == bytes.contains { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C || $0 == 0x26 })
            #expect(
                ByteScan.containsXMLSpecial(buffer)
                    == bytes.contains { $0 == 0x3C || $0 == 0x3E || $0 == 0x26 || $0 == 0xEF })
            for start in 0...bytes.count {
                #expect(
                    ByteScan.firstJSONStringSpecial(buffer, from: start)
                        == (bytes[start...].firstIndex { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C } ?? bytes.count))
            }
        }
    }
}
