#if YAML
import Foundation
import Testing

@testable import TodoFormat

/// Inputs `scripts/fuzz.sh` found, kept so that what they showed stays true.
@Suite("Fuzzing's findings")
struct FuzzFindingTests {
    @Test("a YAML error's line counts a lone CR as a line break, as YAML does, so it lies inside the input")
    func loneCarriageReturns() throws {
        let input = Array(("# Chore" + String(repeating: "\r", count: 59)
            + "s for th task: Buy materialDs\n  description: >\n    Timber from the yard on Mill Road;\n    screws afd fely\n"
            + "    every: week\n    check\\d: off\n  monthly\n\ntodosl.:\n  - <t <f").utf8)
        let error = try #require(throws: ParseError.self) { try TodoList(bytes: input, format: .yaml, name: "chores.yaml") }
        #expect(error.location.line == 61 && error.location.column == 14, "\(error)")
        let lineBreaks = input.enumerated().filter { $0.element == 10 || ($0.element == 13 && input[$0.offset + 1] != 10) }.count
        #expect(error.location.line <= lineBreaks + 1)
    }
}
#endif
