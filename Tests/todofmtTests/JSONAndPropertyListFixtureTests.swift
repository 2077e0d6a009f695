import Foundation
import Testing

/// The app fixtures in JSON and property lists (XML and binary): each reads as its checklist,
/// comes back unchanged from an unchanged checklist, and after each edit is exactly the file
/// the app's own writer leaves (bytes for JSON and XML, plistlib's data for binary).
@Suite("App fixtures: JSON and property lists")
struct JSONAndPropertyListFixtureTests {
    static let formats: Set<String> = ["json", "plist", "bplist"]

    @Test("reads as its checklist", arguments: AppFixture.fixtures(formats))
    func reading(_ fixture: AppFixture) throws {
        try fixture.checkReading()
    }

    @Test("an unchanged checklist leaves the file as it was", arguments: AppFixture.fixtures(formats))
    func unchanged(_ fixture: AppFixture) throws {
        try fixture.checkUnchangedRoundTrip()
    }

    @Test("each edit gives the app's own file", arguments: AppFixture.edits(formats))
    func edit(_ c: AppFixture.EditCase) throws {
        try c.fixture.check(edit: c.name)
    }
}
