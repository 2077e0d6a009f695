import Foundation
import Testing

/// A git repository in a temporary folder, with git's user configuration shut out so that
/// only what a test configures applies.
final class GitRepository {
    let url: URL
    let git: URL

    init() throws {
        git = try Tools.path(of: "git")
        url = FileManager.default.temporaryDirectory.appendingPathComponent("todofmt-git-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        try run("init", "-q", "-b", "main")
        try run("config", "user.name", "Test")
        try run("config", "user.email", "test@example.com")
        try run("config", "commit.gpgsign", "false")
        try run("config", "core.autocrlf", "false")
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    static let environment = [
        "GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": "/dev/null", "GIT_PAGER": "cat", "PAGER": "cat",
        "LC_ALL": "C", "GIT_TERMINAL_PROMPT": "0",
    ]

    /// Runs git in the repository; throws when it fails, unless `allowing` holds its status.
    @discardableResult
    func run(_ arguments: String..., allowing statuses: Set<Int32> = [0]) throws -> Run {
        try run(arguments, allowing: statuses)
    }

    @discardableResult
    func run(_ arguments: [String], allowing statuses: Set<Int32> = [0]) throws -> Run {
        let result = try Tools.run(git, arguments, in: url, environment: Self.environment)
        guard statuses.contains(result.status) else {
            throw GitFailure(arguments: arguments, run: result)
        }
        return result
    }

    func write(_ name: String, _ text: String) throws {
        try write(name, Data(text.utf8))
    }

    func write(_ name: String, _ data: Data) throws {
        let file = url.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try data.write(to: file)
    }

    func read(_ name: String) throws -> String {
        String(decoding: try Data(contentsOf: url.appendingPathComponent(name)), as: UTF8.self)
    }

    func path(_ name: String) -> String { url.appendingPathComponent(name).path }

    func commit(_ message: String) throws {
        try run("add", "-A")
        try run("commit", "-q", "-m", message)
    }

    /// The todofmt under test, as git's configuration names it.
    static var todofmt: String { Run.executable.path }
}

struct GitFailure: Error, CustomStringConvertible {
    var arguments: [String]
    var run: Run
    var description: String { "git \(arguments.joined(separator: " ")) exited \(run.status): \(run.stderr)\(run.stdout)" }
}

@Suite("todofmt with git: textconv, external diff, merge driver")
struct GitTextconvTests {
    static let samples = Tools.repository.appendingPathComponent("samples")

    /// A repository whose todo files git shows through `todofmt cat`.
    func textconvRepository() throws -> GitRepository {
        let repo = try GitRepository()
        try repo.write(".gitattributes", "*.plist diff=todofmt\n*.sqlite diff=todofmt\n")
        try repo.run("config", "diff.todofmt.textconv", "\(GitRepository.todofmt) cat")
        return repo
    }

    @Test("cat prints a checklist as it is and other formats as checklists")
    func cat() throws {
        let ws = try Workspace(["g.md": groceries, "t.json": #"[{"title": "Milk", "done": true}]"#])
        let md = try Run(["cat", "g.md"], in: ws.url)
        #expect(md.status == 0 && md.stdout == groceries && md.stderr.isEmpty)
        let json = try Run(["cat", "t.json"], in: ws.url)
        #expect(json.status == 0 && json.stdout == "- [x] Milk\n")
        let plist = try Run(["cat", Self.samples.appendingPathComponent("items.plist").path])
        #expect(plist.stdout == "- [ ] Milk\n- [x] Eggs\n- [ ] Bread from the bakery\n")
        let stdin = try Run(["cat", "-"], stdin: "- name: Milk\n")
        #expect(stdin.stdout == "- [ ] Milk\n")
    }

    @Test("git diff and git log -p of a committed binary property list show checklist lines")
    func binaryPropertyList() throws {
        let repo = try textconvRepository()
        try Run(["convert", "--to", "bplist", "-", repo.path("tasks.plist")], stdin: "- [ ] Milk\n- [ ] Eggs\n")
        #expect(try Data(contentsOf: repo.url.appendingPathComponent("tasks.plist")).starts(with: Array("bplist00".utf8)))
        try repo.commit("tasks")
        try Run(["convert", "-", repo.path("tasks.plist")], stdin: "- [x] Milk\n- [ ] Eggs\n- [ ] Bread\n")
        let diff = try repo.run("diff")
        #expect(diff.stdout.contains("\n-- [ ] Milk\n+- [x] Milk\n - [ ] Eggs\n+- [ ] Bread\n"), "\(diff.stdout)")
        #expect(!diff.stdout.contains("Binary files"))
        try repo.commit("milk")
        let log = try repo.run("log", "-p", "-1")
        #expect(log.stdout.contains("+- [x] Milk\n"), "\(log.stdout)")
    }

    @Test("git diff of a committed Core Data store shows checklist lines")
    func coreDataStore() throws {
        let repo = try textconvRepository()
        try repo.write("todo.sqlite", try Data(contentsOf: Self.samples.appendingPathComponent("TodoCoreData.sqlite")))
        try repo.commit("store")
        let list = try Run(["cat", repo.path("todo.sqlite")]).stdout
        let first = try #require(list.split(separator: "\n").first.map(String.init))
        let edited = list.replacingOccurrences(of: first, with: first.replacingOccurrences(of: "- [ ]", with: "- [x]"))
        #expect(edited != list)
        let write = try Run(["convert", "--from", "md", "-", repo.path("todo.sqlite")], stdin: edited)
        #expect(write.status == 0, "\(write.stderr)")
        let diff = try repo.run("diff")
        let checked = first.replacingOccurrences(of: "- [ ]", with: "- [x]")
        #expect(diff.stdout.contains("\n-\(first)\n+\(checked)\n"), "\(diff.stdout)")
    }
}

@Suite("todofmt diff, alone and as git's external diff")
struct DiffCommandTests {
    static let old = "# Today\n- [ ] Milk\n- [x] Eggs\n  - [ ] Brown ones\n- [ ] Bread [qty:: 2]\n- [ ] Jam\n"
    static let new = "# Today\n- [x] Milk\n- [ ] Jam\n- [x] Eggs\n  - [/] Brown ones\n- [ ] Bread loaf [qty:: 3]\n- [ ] Tea\n"
    static let changes = """
        checked 1: Milk
        moved 2 (was 4): Jam
        status 3.1: [/] Brown ones (was [ ])
        renamed 4: Bread loaf (was Bread)
        field 4 qty: 3 (was 2)
        added 5: [ ] Tea

        """

    @Test("one line a change; 0 the same, 1 different, 2 trouble")
    func statuses() throws {
        let ws = try Workspace(["a.md": Self.old, "b.md": Self.new])
        let different = try Run(["diff", "a.md", "b.md"], in: ws.url)
        #expect(different.status == 1 && different.stdout == Self.changes && different.stderr.isEmpty)
        let same = try Run(["diff", "a.md", "a.md"], in: ws.url)
        #expect(same.status == 0 && same.stdout.isEmpty)
        let missing = try Run(["diff", "a.md", "missing.md"], in: ws.url)
        #expect(missing.status == 2 && missing.stderr.contains("missing.md"))
        let usage = try Run(["diff", "a.md"], in: ws.url)
        #expect(usage.status == 64)
    }

    @Test("across formats: a property list against a checklist; /dev/null is an empty list")
    func acrossFormats() throws {
        let ws = try Workspace(["a.md": Self.old, "b.md": Self.new])
        #expect(try Run(["convert", "a.md", "a.plist"], in: ws.url).status == 0)
        let run = try Run(["diff", "a.plist", "b.md"], in: ws.url)
        #expect(run.status == 1 && run.stdout == Self.changes, "\(run.stdout)\(run.stderr)")
        let added = try Run(["diff", "/dev/null", "a.md"], in: ws.url)
        #expect(added.stdout.hasPrefix("added 1: [ ] Milk\nadded 2: [x] Eggs\nadded 2.1: [ ] Brown ones\n"))
    }

    @Test("git diff with diff.todofmt.command: by item, for changed, added and deleted files")
    func gitExternalDiff() throws {
        let repo = try GitRepository()
        try repo.write(".gitattributes", "*.md diff=todofmt\n*.plist diff=todofmt\n")
        try repo.write("TODO.md", Self.old)
        try repo.write("gone.md", "- [ ] Old\n")
        try Run(["convert", "--to", "bplist", "-", repo.path("tasks.plist")], stdin: Self.old)
        try repo.commit("lists")
        try repo.write("TODO.md", Self.new)
        try Run(["convert", "-", repo.path("tasks.plist")], stdin: Self.new)
        try repo.write("new.md", "- [ ] Fresh\n")
        try FileManager.default.removeItem(at: repo.url.appendingPathComponent("gone.md"))
        try repo.run("add", "-A")
        let diff = try repo.run("-c", "diff.todofmt.command=\(GitRepository.todofmt) diff", "diff", "--cached")
        #expect(
            diff.stdout == """
                todofmt diff a/TODO.md b/TODO.md
                \(Self.changes)todofmt diff a/gone.md b/gone.md
                removed 1: [ ] Old
                todofmt diff a/new.md b/new.md
                added 1: [ ] Fresh
                todofmt diff a/tasks.plist b/tasks.plist
                \(Self.changes)
                """, "\(diff.stdout)\(diff.stderr)")
    }
}
