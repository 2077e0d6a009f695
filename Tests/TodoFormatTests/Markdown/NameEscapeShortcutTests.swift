import Foundation
import Testing

@testable import TodoFormat

@Suite("Escaping a one-line name without going scalar by scalar")
struct NameEscapeShortcutTests {
    static let pieces = [
        "milk", " ", "[", "]", "]:", "[ticket 🎫](https://example.com/t/1)", "[id:: 4]", "[a:: b]", "[x]", "::",
        "日本語", "café", "\\", "&", "&amp;", "\t", "\n", "£", "-", "#", "1.", "[label]: x",
    ]

    @Test("gives what the scalar-by-scalar escape gives", arguments: 0..<400)
    func agrees(seed: Int) {
        var rng = SeededGenerator(seed: UInt64(seed))
        let name = (0..<Int.random(in: 0...6, using: &rng)).map { _ in Self.pieces.randomElement(using: &rng)! }
            .joined(separator: Int.random(in: 0..<2, using: &rng) == 0 ? " " : "")
        #expect(
            NameSyntax.escape(Substring(name), continuation: "  ")
                == NameSyntax.escapeScalars(Substring(name), continuation: "  "), "\(name.debugDescription)")
        // `list` writes a name that is written as it is straight from its bytes.
        if Array(name.utf8).withUnsafeBufferPointer({ NameSyntax.isWrittenAsIs($0) }) {
            #expect(NameSyntax.escape(Substring(name), continuation: "  ") == name, "\(name.debugDescription)")
        }
    }

    @Test(
        "tells the names written as they are",
        arguments: [
            ("milk", true), ("[ticket 🎫](https://example.com/t/1)", true), ("a [x] b", true), ("日本語", true),
            ("[label]: x", false), ("has [a:: b]", false), ("R&D", false), ("a\\b", false), (" lead", false),
            ("line\nbreak", false),
        ])
    func writtenAsItIs(name: String, asItIs: Bool) {
        #expect(Array(name.utf8).withUnsafeBufferPointer { NameSyntax.isWrittenAsIs($0) } == asItIs)
        if asItIs { #expect(NameSyntax.escape(Substring(name), continuation: "  ") == name) }
    }
}
