import Foundation
import Testing

@testable import TodoFormat

/// Writing a list's elements back (`TextListPatcher.emitArray`): a new element's lines are
/// indented from the gap written before it, which the writer works out only where an
/// element needs it.
@Suite("Elements written among a file's own")
struct TextListPatcherTests {
    /// Items on several lines, the first indented by four spaces, the second by two.
    static let json = """
        [
            {
                "name": "a",
                "checked": false
            },
          {
            "name": "b",
            "checked": false
          }
        ]

        """

    /// The new item `c` as written after a gap that indents by two spaces (its members
    /// four more, as the file's first item has them).
    static let new = """
          {
              "name": "c",
              "checked": false
          }
        """

    @Test("a new item is indented from the gap before it, not from the list's first item", arguments: [nil, 2])
    func indentOfGap(at place: Int?) throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("list.json")
        try Self.json.write(toFile: path, atomically: false, encoding: .utf8)
        _ = try FileEdit(
            file: URL(fileURLWithPath: path), edits: [.add(name: "c", under: nil, at: place.map { [$0] })]
        ).run()
        let (a, b) = (
            "    {\n        \"name\": \"a\",\n        \"checked\": false\n    }",
            "  {\n    \"name\": \"b\",\n    \"checked\": false\n  }"
        )
        let items = place == nil ? [a, b, Self.new] : [a, Self.new, b]
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "[\n" + items.joined(separator: ",\n") + "\n]\n")
    }
}
