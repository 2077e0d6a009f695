import Foundation
import Testing

/// A new SQL dump's rows wait in a temporary file until the table's columns are known
/// (`DumpWriter`); where none can be made they stay in memory, and the file never takes the
/// place of a closed standard stream.
@Suite("SQL dumps past the rows kept in memory")
struct DumpOutputTests {
    /// A list whose dump has more rows than the writer keeps in memory (about 6 MB).
    static let list =
        "["
        + (1...80_000).map { #"{"name": "item \#($0) with a longer name", "checked": \#($0 % 2 == 0)}"# }
        .joined(separator: ",") + "]"

    @Test("to standard output, with no temporary directory, it is the dump written to a file")
    func noTemporaryDirectory() throws {
        let workspace = try Workspace(["list.json": Self.list])
        let file = try Run(["convert", "list.json", "list.sql"], in: workspace.url)
        #expect(file.status == 0)
        let run = try Run(
            ["convert", "list.json", "-", "--to", "sql"], in: workspace.url, environment: ["TMPDIR": "/nonexistent"])
        #expect(run.status == 0)
        #expect(run.stderr == "")
        #expect(
            run.stdout == (try String(contentsOf: workspace.url.appendingPathComponent("list.sql"), encoding: .utf8)))
    }

    /// The rows go into the output after a header guessed once they are many: a write that
    /// fails there fails the conversion, naming the file, and leaves nothing beside it.
    @Test("a write into the file past the file size limit is an error, and no file is left")
    func fileSizeLimit() throws {
        let workspace = try Workspace(["list.json": Self.list])
        let run = try Run(
            ["-c", #"ulimit -f 4096; exec "$0" convert list.json list.sql"#, Run.executable.path], in: workspace.url,
            program: URL(fileURLWithPath: "/bin/sh"))
        #expect(run.status == 1)
        #expect(run.stderr.contains("list.sql: File too large (nothing was written; the file is as it was)"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: workspace.url.path).sorted() == ["list.json"])
    }

    @Test("with standard output closed, writing to it is an error")
    func closedOutput() throws {
        let workspace = try Workspace(["list.json": Self.list])
        let run = try Run(
            ["-c", #"exec "$0" convert list.json - --to sql >&-"#, Run.executable.path], in: workspace.url,
            program: URL(fileURLWithPath: "/bin/sh"))
        #expect(run.status == 1)
        #expect(run.stderr.contains("<stdout>"))
    }
}
