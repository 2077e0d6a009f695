import Foundation
import Testing

@testable import TodoFormat

#if YAML
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

/// Findings that need no YAML.
@Suite("Fuzzing's findings in property lists")
struct PropertyListFuzzFindingTests {
    @Test("NUL bytes in an XML property list's string read as NUL; written again they become U+FFFD with a warning")
    func nulInXML() throws {
        let xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\">\n<array>\n\t<dict>\n\t\t<key>title</key>\n"
            + "\t\t<string>Order c\0\0\u{4}[ompost</string>\n\t\t<key>isDone</key>\n\t\t<false/>\n\t</dict>\n</array>\n</plist>\n"
        let list = try TodoList(bytes: Array(xml.utf8), format: .plist, name: "found.plist")
        #expect(list.items.map(\.name) == ["Order c\0\0\u{4}[ompost"])
        var writer = try FormatRegistry.format(.plist).writer(to: .memory, options: ListOptions())
        try list.send(to: &writer)
        let written = try writer.finish()
        #expect(written.warnings.map(\.kind) == [.values])
        let back = try TodoList(bytes: written.bytes, format: .plist, name: "back.plist")
        #expect(back.items.map(\.name) == ["Order c\u{FFFD}\u{FFFD}\u{FFFD}[ompost"])
    }
}
