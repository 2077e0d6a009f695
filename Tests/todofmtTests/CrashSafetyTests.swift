import Foundation
import Testing

/// Writes into existing files of every format while things go wrong (Scripts/crash_writes.py
/// does the work with Python's json, plistlib, PyYAML and sqlite3 as the apps' readers): the
/// file is always the old one or the new one, byte for byte (a database: row for row).
@Suite("Writes that go wrong", .needsYAML)
struct CrashSafetyTests {
    static let script = Tools.repository.appendingPathComponent("Tests/todofmtTests/Scripts/crash_writes.py")

    /// Runs the script in `mode` in a scratch folder; returns its report, one line a format.
    static func run(_ mode: [String]) throws -> [String] {
        let folder = try Workspace([:])
        let run = try Tools.run(
            try Tools.path(of: "python3"), [script.path, Run.executable.path, folder.url.path] + mode)
        #expect(run.status == 0, "\(run.stderr)")
        return run.stdout.split(separator: "\n").map(String.init)
    }

    @Test(
        "killed at random moments while it converts into a file or edits it, the file is the old one or the new one, and one temporary file at most is left"
    )
    func killed() throws {
        let report = try Self.run(["kill", "24"])
        #expect(report.count == 7, "\(report)")
        // Both outcomes happen over the runs: the kills fall before and after the rename.
        let outcomes = report.map { line in line.contains(": 0 old") ? "new" : line.contains(" 0 new;") ? "old" : "both"
        }
        #expect(outcomes.contains("both") || Set(outcomes).count > 1, "\(report)")
    }

    @Test("a write past the file size limit (a full disk) is an error naming the file, and the file stays as it was")
    func full() throws {
        let report = try Self.run(["full"])
        #expect(report.count == 7, "\(report)")
    }

    @Test("writing through a symbolic link writes the file it points to, which may not exist yet")
    func symlinks() throws {
        let report = try Self.run(["symlink"])
        #expect(report.count == 7, "\(report)")
    }
}
