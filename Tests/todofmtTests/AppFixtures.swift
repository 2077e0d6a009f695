import Foundation
import Testing

/// The app fixtures (`Tests/TodoFormatTests/Fixtures/apps/`): files built the way real apps
/// and tools write their todo lists, each with the checklist todofmt reads from it and, for
/// many, the file after one edit of that checklist as the app's own writer would leave it.
/// Their README says what each mirrors; `manifest.json` says what to check. The tests run
/// the built `todofmt` on copies, as a user would.
struct AppFixture: Decodable, Sendable, CustomStringConvertible {
    struct Reading: Decodable, Sendable {
        var flags: [String]
        var expected: String
    }

    struct Edit: Decodable, Sendable {
        var checklist: String
        var result: String?
        /// Words the error must contain, for an edit that must fail.
        var error: [String]?
        /// Kinds of warning the edit must give (`order`, `done`, or keys todofmt had to leave out).
        var warnings: [String]
    }

    var file: String
    var format: String
    var flags: [String]
    var expected: String?
    var error: [String]?
    var readings: [Reading]
    var edits: [String: Edit]
    /// `bytes`, `plist-data` or `dump`: how a written file is compared with the expected one.
    var compare: String

    var description: String { file }

    private struct Manifest: Decodable {
        var now: String
        var fixtures: [AppFixture]
    }

    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("TodoFormatTests/Fixtures/apps")

    private static let manifest: Manifest = {
        let data = try! Data(contentsOf: folder.appendingPathComponent("manifest.json"))
        return try! JSONDecoder().decode(Manifest.self, from: data)
    }()

    /// The time every write of the fixtures is stamped with (`TODOFMT_NOW`).
    static var now: String { manifest.now }

    /// The fixtures of these formats (`json`, `yaml`, `plist`, `bplist`, `sqlite`, `sql`).
    static func fixtures(_ formats: Set<String>) -> [AppFixture] {
        manifest.fixtures.filter { formats.contains($0.format) }
    }

    /// Every edit of the fixtures of these formats, as (fixture, edit name) pairs.
    static func edits(_ formats: Set<String>) -> [EditCase] {
        fixtures(formats).flatMap { fixture in fixture.edits.keys.sorted().map { EditCase(fixture: fixture, name: $0) }
        }
    }

    struct EditCase: Sendable, CustomStringConvertible {
        var fixture: AppFixture
        var name: String
        var description: String { "\(fixture.file) \(name)" }
    }

    /// A copy of the fixture (with its `-wal`, if any) in a scratch folder.
    func copy(into workspace: Workspace) throws -> URL {
        let target = workspace.url.appendingPathComponent(file)
        for suffix in ["", "-wal"] {
            let source = Self.folder.appendingPathComponent(file + suffix)
            if FileManager.default.fileExists(atPath: source.path) {
                try FileManager.default.copyItem(at: source, to: URL(fileURLWithPath: target.path + suffix))
            }
        }
        return target
    }

    /// The text of a file of the fixtures' folder.
    static func text(_ name: String) throws -> String {
        try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
    }

    /// What a written file is compared as: its bytes, its property list data (through
    /// Python's plistlib, as the app reads it), or its `sqlite3 .dump` text.
    func snapshot(of url: URL) throws -> String {
        switch compare {
        case "dump": return try Self.tool(["sqlite3", url.path, ".dump"])
        case "plist-data":
            return try Self.tool([
                "python3", "-c", "import plistlib, sys; print(repr(plistlib.load(open(sys.argv[1], 'rb'))))", url.path,
            ])
        default: return try String(decoding: Data(contentsOf: url), as: UTF8.self)
        }
    }

    /// The expected snapshot of a result file of the folder.
    func expectedSnapshot(_ name: String) throws -> String {
        if compare == "dump" && name.hasSuffix(".dump") { return try Self.text(name) }
        return try snapshot(of: Self.folder.appendingPathComponent(name))
    }

    /// Runs a tool and returns its standard output.
    static func tool(_ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }

    /// Checks that todofmt reads the fixture as its expected checklist (or fails as
    /// expected) and that reading changes nothing.
    func checkReading() throws {
        let ws = try Workspace([:])
        let copy = try self.copy(into: ws)
        let before = try snapshot(of: copy)
        let readings = (expected.map { [Reading(flags: flags, expected: $0)] } ?? []) + readings
        for reading in readings {
            let run = try Run(["convert"] + reading.flags + [copy.path, "--to", "md"], in: ws.url)
            #expect(run.status == 0, "\(file) \(reading.flags): \(run.stderr)")
            #expect(run.stdout == (try Self.text(reading.expected)), "\(file) \(reading.flags)")
        }
        if let error {
            let run = try Run(["convert"] + flags + [copy.path, "--to", "md"], in: ws.url)
            #expect(run.status == 1 && error.allSatisfy(run.stderr.contains), "\(file): \(run.stderr)")
        }
        #expect(try snapshot(of: copy) == before, "reading \(file) changed it")
    }

    /// Checks that writing the expected checklist back into a copy changes nothing.
    func checkUnchangedRoundTrip() throws {
        guard let expected else { return }
        let ws = try Workspace([:])
        let copy = try self.copy(into: ws)
        let before = try snapshot(of: copy)
        let checklist = Self.folder.appendingPathComponent(expected).path
        let run = try Run(
            ["convert"] + flags + [checklist, copy.path], in: ws.url, environment: ["TODOFMT_NOW": Self.now])
        #expect(run.status == 0, "\(file): \(run.stderr)")
        #expect(try snapshot(of: copy) == before, "\(file): the unchanged round trip changed it")
    }

    /// Checks one edit: writing the edited checklist into a copy gives the expected file and
    /// warns of what the file could not hold (or fails, for a duplicated line).
    func check(edit name: String) throws {
        let edit = edits[name]!
        let ws = try Workspace([:])
        let copy = try self.copy(into: ws)
        let before = try snapshot(of: copy)
        let checklist = Self.folder.appendingPathComponent(edit.checklist).path
        let run = try Run(
            ["convert"] + flags + [checklist, copy.path], in: ws.url, environment: ["TODOFMT_NOW": Self.now])
        guard let result = edit.result else {
            // An edit with no result must fail, naming the lines, and write nothing.
            #expect(
                run.status == 1 && (edit.error ?? []).allSatisfy(run.stderr.contains), "\(file) \(name): \(run.stderr)")
            #expect(try snapshot(of: copy) == before, "\(file) \(name) changed the file")
            return
        }
        #expect(run.status == 0, "\(file) \(name): \(run.stderr)")
        #expect(try snapshot(of: copy) == (try expectedSnapshot(result)), "\(file) \(name)")
        #expect(try appReads(copy) == "ok", "\(file) \(name): the app's reader does not load the result")
        for kind in edit.warnings {
            #expect(
                run.stderr.contains("warning:") && run.stderr.contains(kind),
                "\(file) \(name): no warning about \(kind): \(run.stderr)")
        }
        if edit.warnings.isEmpty {
            #expect(!run.stderr.contains("warning:"), "\(file) \(name): \(run.stderr)")
            return
        }
        // What the file cannot hold stops a --strict write: exit 1, nothing written.
        let strictSpace = try Workspace([:])
        let strictCopy = try self.copy(into: strictSpace)
        let strict = try Run(
            ["convert", "--strict"] + flags + [checklist, strictCopy.path], in: strictSpace.url,
            environment: ["TODOFMT_NOW": Self.now])
        #expect(strict.status == 1 && strict.stderr.contains("error:"), "\(file) \(name) --strict: \(strict.stderr)")
        #expect(try snapshot(of: strictCopy) == before, "\(file) \(name) --strict changed the file")
    }

    /// `ok` when the reader the app would use loads a written file: Python's json and
    /// plistlib, PyYAML, SQLite's integrity check, the sqlite3 shell for a dump.
    func appReads(_ url: URL) throws -> String {
        let python: String
        switch format {
        case "json": python = "import json, sys; json.load(open(sys.argv[1], 'rb'))"
        case "plist", "bplist": python = "import plistlib, sys; plistlib.load(open(sys.argv[1], 'rb'))"
        case "yaml": python = "import yaml, sys; list(yaml.safe_load_all(open(sys.argv[1], 'rb')))"
        case "sqlite":
            python =
                "import sqlite3, sys; assert sqlite3.connect(sys.argv[1]).execute('pragma integrity_check').fetchone()[0] == 'ok'"
        case "sql":
            python =
                "import sqlite3, sys; sqlite3.connect(':memory:').executescript(open(sys.argv[1], encoding='utf-8').read())"
        default: return "ok"
        }
        return try Self.tool(["python3", "-c", python + "; print('ok', end='')", url.path])
    }
}
