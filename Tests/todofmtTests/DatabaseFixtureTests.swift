import Foundation
import Testing

/// The app fixtures of databases and dumps (`sqlite`, `sql`): each reads as its checklist,
/// the unchanged round trip leaves it as it was, and each edit gives the expected file.
@Suite("Database fixtures built like real apps' files")
struct DatabaseFixtureTests {
    @Test(
        "reads as its expected checklist, and reading changes nothing",
        arguments: AppFixture.fixtures(["sqlite", "sql"]))
    func reading(_ fixture: AppFixture) throws {
        try fixture.checkReading()
    }

    @Test("the unchanged round trip leaves it as it was", arguments: AppFixture.fixtures(["sqlite", "sql"]))
    func unchangedRoundTrip(_ fixture: AppFixture) throws {
        try fixture.checkUnchangedRoundTrip()
    }

    @Test("each edit gives the expected file", arguments: AppFixture.edits(["sqlite", "sql"]))
    func edit(_ c: AppFixture.EditCase) throws {
        try c.fixture.check(edit: c.name)
    }
}

/// Databases and dumps on the command line: standard input, the options that find a list,
/// and messages that name the user's file.
@Suite("Databases on the command line")
struct DatabaseCommandTests {
    /// Runs todofmt with a file's bytes (a database is not text) as standard input.
    static func run(_ arguments: [String], stdinFile: URL, in directory: URL) throws -> (
        status: Int32, stdout: String, stderr: String
    ) {
        let process = Process()
        process.executableURL = Run.executable
        process.arguments = arguments
        process.currentDirectoryURL = directory
        process.standardInput = try FileHandle(forReadingFrom: stdinFile)
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let output = out.fileHandleForReading.readDataToEndOfFile()
        let error = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (
            process.terminationStatus, String(decoding: output, as: UTF8.self), String(decoding: error, as: UTF8.self)
        )
    }

    @Test("--from sqlite - reads a database from standard input; its errors name <stdin>")
    func standardInput() throws {
        let ws = try Workspace([:])
        let fixture = AppFixture.folder.appendingPathComponent("tutorial-db.json")
        let run = try Self.run(["convert", "--from", "sqlite", "-", "--to", "md"], stdinFile: fixture, in: ws.url)
        let expected = try AppFixture.text("tutorial-db.expected.md")
        #expect(run.status == 0 && run.stdout == expected, "\(run.stderr)")
        let bad = ws.url.appendingPathComponent("bad")
        try Data("not a database, but long enough to be looked at as one……".utf8).write(to: bad)
        let failed = try Self.run(["convert", "--from", "sqlite", "-"], stdinFile: bad, in: ws.url)
        #expect(failed.status == 1)
        #expect(failed.stderr.hasPrefix("todofmt: error: <stdin>: file is not a database"), "\(failed.stderr)")
        #expect(!failed.stderr.contains("todofmt-"))
    }

    @Test("messages name the user's file: a new database in a missing folder, a dump's statement at its line")
    func messages() throws {
        let ws = try Workspace([
            "a.md": "- [ ] a\n", "bad.sql": "CREATE TABLE t(name TEXT);\nINSERT INTO t VALUES(1,2);\n",
        ])
        let missing = try Run(["convert", "a.md", "nodir/x.sqlite"], in: ws.url)
        #expect(missing.status == 1 && missing.stderr == "todofmt: error: nodir/x.sqlite: No such file or directory\n")
        let dump = try Run(["convert", "bad.sql"], in: ws.url)
        #expect(dump.status == 1)
        #expect(
            dump.stderr
                == "bad.sql:2:1: error: table t has 1 columns but 2 values were supplied (while running `INSERT INTO t VALUES(1,2);`)\n"
        )
        // Written into, the dump's errors name it too, not the database in memory.
        let into = try Run(["convert", "a.md", "bad.sql"], in: ws.url)
        #expect(
            into.status == 1 && into.stderr.hasPrefix("bad.sql:2:1: error:") && !into.stderr.contains(":memory:"),
            "\(into.stderr)")
    }

    @Test("issue 8's reproduction prints nothing: GORM's and Rails' dates keep their text")
    func reproduction() throws {
        let ws = try Workspace([:])
        let db = ws.url.appendingPathComponent("d.sqlite").path
        _ = try AppFixture.tool([
            "sqlite3", db,
            "create table items(id integer primary key,title text,done boolean,created_at datetime); "
                + "insert into items values(1,'a',0,'2024-05-01 09:30:00.123456'),(2,'b',0,'2025-10-01 13:33:10.6197688+03:30');",
        ])
        let before = try AppFixture.tool(["sqlite3", db, ".dump"])
        #expect(try Run(["convert", "d.sqlite", "d.md"], in: ws.url).status == 0)
        #expect(try Run(["convert", "d.md", "d.sqlite"], in: ws.url).status == 0)
        #expect(try AppFixture.tool(["sqlite3", db, ".dump"]) == before)
    }

    @Test("--entity picks a Core Data entity; several candidates name the entities")
    func entity() throws {
        let ws = try Workspace([:])
        let store = try AppFixture.fixtures(["sqlite"]).first { $0.file == "swiftdata-default.store" }!.copy(into: ws)
        let bare = try Run(["convert", store.lastPathComponent, "--to", "md"], in: ws.url)
        #expect(bare.status == 1)
        #expect(
            bare.stderr
                == "todofmt: error: swiftdata-default.store: several entities could be the list (Note in ZNOTE, Tag in ZTAG, TodoItem in ZTODOITEM, TodoList in ZTODOLIST); pick one with --entity\n"
        )
        let note = try Run(["list", "--entity", "Note", store.lastPathComponent], in: ws.url)
        #expect(note.status == 0 && note.stdout.hasPrefix("1 [ ] Gate code is 4711"), "\(note.stderr)")
    }
}
