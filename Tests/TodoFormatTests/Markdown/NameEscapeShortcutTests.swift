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
    }
}
