import Foundation
import Testing

@testable import TodoFormat

/// Readers take files from anywhere: damaged input must give an error, never a crash.
@Suite("Damaged input")
struct MutationTests {
    static func samples() throws -> [(DocumentFormat, [UInt8])] {
        let list = try TodoList(markdown: Fixture.text("markdown/fields.md") + Fixture.text("markdown/groceries.md"))
        return try [DocumentFormat.json, .yaml, .plist, .bplist, .markdown, .sql].map { ($0, try list.encoded(as: $0)) }
    }

    @Test("random byte changes give errors, not crashes", arguments: [DocumentFormat.json, .yaml, .plist, .bplist, .markdown, .sql])
    func mutations(format: DocumentFormat) throws {
        let original = try Self.samples().first { $0.0 == format }!.1
        var rng = SeededGenerator(seed: format.rawValue.utf8.reduce(7) { $0 &* 31 &+ UInt64($1) })
        let rounds = Int(ProcessInfo.processInfo.environment["TODOFMT_MUTATIONS"] ?? "") ?? 300
        var parsed = 0
        for round in 0..<rounds {
            var bytes = original
            for _ in 0..<(1 + round % 4) {
                let i = Int.random(in: 0..<bytes.count, using: &rng)
                switch Int.random(in: 0..<3, using: &rng) {
                case 0: bytes[i] = UInt8.random(in: 0...255, using: &rng)
                case 1: bytes.remove(at: i)
                default: bytes = Array(bytes.prefix(i))
                }
                if bytes.isEmpty { break }
            }
            if (try? TodoList(bytes: bytes, format: format, name: "damaged")) != nil { parsed += 1 }
        }
        #expect(parsed < rounds, "some damage must be noticed")
    }

    @Test("a binary property list whose objects refer to themselves is an error")
    func cycle() throws {
        // An array (object 0) whose one element is itself.
        var bytes = Array("bplist00".utf8) + [0xA1, 0x00]
        let table = bytes.count
        bytes += [0x08]
        bytes += [0, 0, 0, 0, 0, 0, 1, 1] + [0, 0, 0, 0, 0, 0, 0, 1] + [0, 0, 0, 0, 0, 0, 0, 0] + [0, 0, 0, 0, 0, 0, 0, UInt8(table)]
        #expect(throws: ParseError.self) { try TodoList(bytes: bytes, format: .bplist, name: "cycle.plist") }
    }
}
