import Foundation
import Testing

/// The app fixtures of databases and dumps (`sqlite`, `sql`): each reads as its checklist,
/// the unchanged round trip leaves it as it was, and each edit gives the expected file.
@Suite("Database fixtures built like real apps' files")
struct DatabaseFixtureTests {
    /// Checks that need a name with end spaces or control characters written in the
    /// checklist as character references (`Buy milk&#32;`, `NUL&#0;inside`) and read back:
    /// the checklist's side (issue 9's name escaping), not the database's, which
    /// `AppTableTests` checks with the references decoded. Known issues until the checklist
    /// writes such names; then these pass and the list goes.
    static let needNameEscaping: Set<String> = [
        "gorm-todos.db reading", "gorm-todos.db unchanged", "gorm-todos.db check", "gorm-todos.db add", "gorm-todos.db remove",
        "gorm-todos.db move", "uuid-tasks.sqlite reading", "uuid-tasks.sqlite unchanged", "uuid-tasks.sqlite check",
        "uuid-tasks.sqlite rename", "uuid-tasks.sqlite add", "uuid-tasks.sqlite remove", "uuid-tasks.sqlite move",
    ]

    static func check(_ name: String, _ body: () throws -> Void) rethrows {
        if needNameEscaping.contains(name) {
            withKnownIssue("names need the checklist's character references") { try body() }
        } else {
            try body()
        }
    }

    @Test("reads as its expected checklist, and reading changes nothing", arguments: AppFixture.fixtures(["sqlite", "sql"]))
    func reading(_ fixture: AppFixture) throws {
        try Self.check("\(fixture.file) reading") { try fixture.checkReading() }
    }

    @Test("the unchanged round trip leaves it as it was", arguments: AppFixture.fixtures(["sqlite", "sql"]))
    func unchangedRoundTrip(_ fixture: AppFixture) throws {
        try Self.check("\(fixture.file) unchanged") { try fixture.checkUnchangedRoundTrip() }
    }

    @Test("each edit gives the expected file", arguments: AppFixture.edits(["sqlite", "sql"]))
    func edit(_ c: AppFixture.EditCase) throws {
        try Self.check(c.description) { try c.fixture.check(edit: c.name) }
    }
}
