import Foundation
import Testing

@testable import todofmt

@Suite("The version")
struct VersionTests {
    static let changelog = Tools.repository.appendingPathComponent("CHANGELOG.md")

    @Test("CHANGELOG.md's newest section is the version todofmt says, -dev while it is unreleased")
    func changelogMatches() throws {
        let text = try String(contentsOf: Self.changelog, encoding: .utf8)
        let heading = try #require(text.split(separator: "\n").first { $0.hasPrefix("## ") })
        let words = heading.dropFirst(3).split(separator: " ")
        let version = String(try #require(words.first))
        if heading.hasSuffix(" (unreleased)") {
            #expect(CLI.version == version + "-dev")
        } else {
            #expect(CLI.version == version)
        }
        // Semantic versioning's three numbers, then at most -dev.
        let numbers = CLI.version.split(separator: "-")[0].split(separator: ".", omittingEmptySubsequences: false)
        #expect(numbers.count == 3 && numbers.allSatisfy { !$0.isEmpty && $0.allSatisfy(\.isNumber) }, "\(CLI.version)")
    }
}
