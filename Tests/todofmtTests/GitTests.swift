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
    var description: String {
        "git \(arguments.joined(separator: " ")) exited \(run.status): \(run.stderr)\(run.stdout)"
    }
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

    @Test("cat prints a checklist as it is and other formats as checklists", .needsYAML)
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
        // A UserDefaults file's other settings are not the list cat shows: no warning of
        // them on every git diff (convert names them).
        let defaults = Self.samples.appendingPathComponent("userdefaults-tasks.plist").path
        let view = try Run(["cat", defaults])
        #expect(view.status == 0 && view.stderr.isEmpty && view.stdout.hasPrefix("- ["))
        let converted = try Run(["convert", defaults, "--to", "md"])
        #expect(converted.stdout == view.stdout && converted.stderr.contains("'launchCount'"))
    }

    @Test("git diff and git log -p of a committed binary property list show checklist lines")
    func binaryPropertyList() throws {
        let repo = try textconvRepository()
        try Run(["convert", "--to", "bplist", "-", repo.path("tasks.plist")], stdin: "- [ ] Milk\n- [ ] Eggs\n")
        #expect(
            try Data(contentsOf: repo.url.appendingPathComponent("tasks.plist")).starts(with: Array("bplist00".utf8)))
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
    static let new =
        "# Today\n- [x] Milk\n- [ ] Jam\n- [x] Eggs\n  - [/] Brown ones\n- [ ] Bread loaf [qty:: 3]\n- [ ] Tea\n"
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
        // A renamed file: git passes nine arguments; the header names both paths.
        try repo.commit("changed")
        try repo.run("mv", "TODO.md", "DONE.md")
        try repo.write("DONE.md", Self.new + "- [ ] Extra\n")
        try repo.run("add", "-A")
        let renamed = try repo.run(
            "-c", "diff.todofmt.command=\(GitRepository.todofmt) diff", "diff", "--cached", "-M", "--", "DONE.md",
            "TODO.md")
        #expect(renamed.stdout.hasPrefix("todofmt diff a/TODO.md b/DONE.md\n"), "\(renamed.stdout)\(renamed.stderr)")
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

/// A concurrent edit: the base, what each branch made of it, what the merge driver makes of
/// both, and whether plain git's line merge stops at a conflict.
struct MergeCase: CustomTestStringConvertible, Sendable {
    var name: String
    var base: String
    var ours: String
    var theirs: String
    var merged: String
    /// The driver's exit status: 0 clean, 1 conflicts.
    var status: Int32 = 0
    var plainGitConflicts: Bool
    var file = "TODO.md"
    var testDescription: String { name }
}

let mergeCases: [MergeCase] = [
    MergeCase(
        name: "toggle vs add",
        base: "- [ ] Milk\n- [ ] Eggs\n- [ ] Bread\n",
        ours: "- [ ] Milk\n- [x] Eggs\n- [ ] Bread\n",
        theirs: "- [ ] Milk\n- [ ] Eggs\n- [ ] Jam\n- [ ] Bread\n",
        merged: "- [ ] Milk\n- [x] Eggs\n- [ ] Jam\n- [ ] Bread\n",
        plainGitConflicts: true),
    MergeCase(
        name: "rename vs move",
        base: "- [ ] Milk\n- [ ] Eggs\n- [ ] Bread\n- [ ] Jam\n",
        ours: "- [ ] Milk\n- [ ] Brown eggs\n- [ ] Bread\n- [ ] Jam\n",
        theirs: "- [ ] Milk\n- [ ] Bread\n- [ ] Jam\n- [ ] Eggs\n",
        merged: "- [ ] Milk\n- [ ] Bread\n- [ ] Jam\n- [ ] Brown eggs\n",
        plainGitConflicts: true),
    MergeCase(
        name: "reorder vs add",
        base: "- [ ] Milk\n- [ ] Eggs\n- [ ] Bread\n",
        ours: "- [ ] Bread\n- [ ] Milk\n- [ ] Eggs\n",
        theirs: "- [ ] Milk\n- [ ] Eggs\n- [ ] Butter\n- [ ] Bread\n",
        merged: "- [ ] Bread\n- [ ] Milk\n- [ ] Eggs\n- [ ] Butter\n",
        plainGitConflicts: true),
    MergeCase(
        name: "delete vs edit of another item",
        base: "- [ ] Milk\n- [ ] Eggs\n- [ ] Bread\n",
        ours: "- [ ] Milk\n- [ ] Bread\n",
        theirs: "- [ ] Milk\n- [ ] Eggs\n- [x] Bread\n",
        merged: "- [ ] Milk\n- [x] Bread\n",
        plainGitConflicts: true),
    MergeCase(
        name: "delete vs edit of the same item: a conflict around that item only",
        base: "- [ ] Milk\n- [ ] Eggs\n- [ ] Bread\n- [ ] Jam\n",
        ours: "- [ ] Milk\n- [ ] Bread\n- [x] Jam\n",
        theirs: "- [ ] Milk\n- [ ] Eggs [due:: 2026-12-01]\n- [ ] Bread\n- [ ] Jam\n",
        merged:
            "- [ ] Milk\n<<<<<<< ours\n=======\n- [ ] Eggs [due:: 2026-12-01]\n>>>>>>> theirs\n- [ ] Bread\n- [x] Jam\n",
        status: 1, plainGitConflicts: true),
    MergeCase(
        name: "both change the same item differently: a conflict around that item only",
        base: "- [ ] Milk\n- [ ] Eggs\n- [ ] Bread\n",
        ours: "- [ ] Milk\n- [x] Eggs\n- [ ] Bread\n- [ ] Tea\n",
        theirs: "- [ ] Milk\n- [ ] Brown eggs\n- [ ] Bread\n- [ ] Coffee\n",
        merged:
            "- [ ] Milk\n<<<<<<< ours\n- [x] Eggs\n=======\n- [ ] Brown eggs\n>>>>>>> theirs\n- [ ] Bread\n- [ ] Tea\n- [ ] Coffee\n",
        status: 1, plainGitConflicts: true),
    MergeCase(
        name: "both check the same item",
        base: "- [ ] Milk\n- [ ] Eggs\n",
        ours: "- [x] Milk\n- [ ] Eggs\n",
        theirs: "- [x] Milk\n- [ ] Eggs\n- [ ] Jam\n",
        merged: "- [x] Milk\n- [ ] Eggs\n- [ ] Jam\n",
        plainGitConflicts: false),
    MergeCase(
        name: "both append",
        base: "# Shopping\n- [ ] Milk\n",
        ours: "# Shopping\n- [ ] Milk\n- [ ] Eggs\n",
        theirs: "# Shopping\n- [ ] Milk\n- [ ] Bread\n- [ ] Jam\n",
        merged: "# Shopping\n- [ ] Milk\n- [ ] Eggs\n- [ ] Bread\n- [ ] Jam\n",
        plainGitConflicts: true),
    MergeCase(
        name: "CRLF file: toggle vs append, line endings kept",
        base: "- [ ] Milk\r\n- [ ] Eggs\r\n",
        ours: "- [ ] Milk\r\n- [x] Eggs\r\n",
        theirs: "- [ ] Milk\r\n- [ ] Eggs\r\n- [ ] Bread\r\n",
        merged: "- [ ] Milk\r\n- [x] Eggs\r\n- [ ] Bread\r\n",
        plainGitConflicts: true),
    MergeCase(
        name: "nested items: check a child vs add a child and indent an item",
        base: "- [ ] Party\n  - [ ] Cake\n  - [ ] Candles\n- [ ] Balloons\n",
        ours: "- [ ] Party\n  - [x] Cake\n  - [ ] Candles\n- [ ] Balloons\n",
        theirs: "- [ ] Party\n  - [ ] Cake\n  - [ ] Plates\n  - [ ] Candles\n  - [ ] Balloons\n",
        merged: "- [ ] Party\n  - [x] Cake\n  - [ ] Plates\n  - [ ] Candles\n  - [ ] Balloons\n",
        plainGitConflicts: true),
    MergeCase(
        name: "edits under different sections, and prose",
        base: "# Today\n- [ ] Milk\n\nSome notes.\n\n# Later\n- [ ] Paint\n",
        ours: "# Today\n- [ ] Milk\n- [ ] Eggs\n\nSome notes.\n\n# Later\n- [x] Paint\n",
        theirs: "# Today\n- [x] Milk\n\nSome notes, longer.\n\n# Later\n- [ ] Paint\n- [ ] Fix the door\n",
        merged: "# Today\n- [x] Milk\n- [ ] Eggs\n\nSome notes, longer.\n\n# Later\n- [x] Paint\n- [ ] Fix the door\n",
        plainGitConflicts: true),
    MergeCase(
        name: "front matter edits: different keys, and an item",
        base: "---\ntitle: Groceries\nowner: ann\n---\n- [ ] Milk\n",
        ours: "---\ntitle: Shopping\nowner: ann\n---\n- [ ] Milk\n",
        theirs: "---\ntitle: Groceries\nowner: bob\n---\n- [x] Milk\n",
        merged: "---\ntitle: Shopping\nowner: bob\n---\n- [x] Milk\n",
        plainGitConflicts: true),
    MergeCase(
        name: "a YAML list: toggle vs append",
        base: "- name: Milk\n  checked: false\n- name: Eggs\n  checked: false\n",
        ours: "- name: Milk\n  checked: false\n- name: Eggs\n  checked: true\n",
        theirs: "- name: Milk\n  checked: false\n- name: Eggs\n  checked: false\n- name: Bread\n  checked: false\n",
        merged: "- name: Milk\n  checked: false\n- name: Eggs\n  checked: true\n- name: Bread\n  checked: false\n",
        plainGitConflicts: true, file: "todo.yaml"),
    MergeCase(
        name: "a JSON list: both append, one checks",
        base: "[\n  {\"title\": \"Milk\", \"done\": false}\n]\n",
        ours: "[\n  {\"title\": \"Milk\", \"done\": true},\n  {\"title\": \"Eggs\", \"done\": false}\n]\n",
        theirs: "[\n  {\"title\": \"Milk\", \"done\": false},\n  {\"title\": \"Bread\", \"done\": false}\n]\n",
        merged:
            "[\n  {\"title\": \"Milk\", \"done\": true},\n  {\"title\": \"Eggs\", \"done\": false},\n  {\"title\": \"Bread\", \"done\": false}\n]\n",
        plainGitConflicts: true, file: "todo.json"),
    MergeCase(
        name: "a JSON list under a key: theirs changes another key",
        base: "{\"settings\": {\"theme\": \"dark\"}, \"todos\": [{\"title\": \"Milk\", \"done\": false}]}\n",
        ours: "{\"settings\": {\"theme\": \"dark\"}, \"todos\": [{\"title\": \"Milk\", \"done\": true}]}\n",
        theirs: "{\"settings\": {\"theme\": \"light\"}, \"todos\": [{\"title\": \"Milk\", \"done\": false}]}\n",
        merged: "{\"settings\": {\"theme\": \"light\"}, \"todos\": [{\"title\": \"Milk\", \"done\": true}]}\n",
        plainGitConflicts: true, file: "todo.json"),
    MergeCase(
        name: "a YAML list under a key: theirs edits comments and another key",
        base:
            "# my list\nsettings:\n  theme: dark\ntodos:\n  - title: Milk\n    done: false\n  - title: Eggs\n    done: false\n",
        ours:
            "# my list\nsettings:\n  theme: dark\ntodos:\n  - title: Milk\n    done: true\n  - title: Eggs\n    done: false\n",
        theirs:
            "# my list, edited\nsettings:\n  theme: light\ntodos:\n  - title: Milk\n    done: false\n  - title: Eggs  # important\n    done: false\n",
        merged:
            "# my list, edited\nsettings:\n  theme: light\ntodos:\n  - title: Milk\n    done: true\n  - title: Eggs  # important\n    done: false\n",
        plainGitConflicts: true, file: "todo.yaml"),
]

@Suite("todofmt merge as git's merge driver, beside plain git")
struct MergeDriverTests {
    /// Commits the base on main, theirs on a branch, ours on main, then merges the branch.
    static func merge(_ c: MergeCase, driver: Bool) throws -> (status: Int32, text: String) {
        let repo = try GitRepository()
        if driver {
            try repo.write(".gitattributes", "*.md merge=todofmt\n*.yaml merge=todofmt\n*.json merge=todofmt\n")
            try repo.run("config", "merge.todofmt.driver", "\(GitRepository.todofmt) merge %O %A %B %P")
        }
        try repo.write(c.file, c.base)
        try repo.commit("base")
        try repo.run("checkout", "-q", "-b", "theirs")
        try repo.write(c.file, c.theirs)
        try repo.commit("theirs")
        try repo.run("checkout", "-q", "main")
        try repo.write(c.file, c.ours)
        try repo.commit("ours")
        let run = try repo.run(["merge", "-q", "--no-edit", "theirs"], allowing: [0, 1])
        return (run.status, try repo.read(c.file))
    }

    @Test("the driver merges by item", .needsYAML, arguments: mergeCases)
    func driver(_ c: MergeCase) throws {
        let (status, text) = try Self.merge(c, driver: true)
        #expect(text == c.merged)
        #expect(status == (c.status == 0 ? 0 : 1))
    }

    @Test("plain git merges the same edits by line", arguments: mergeCases)
    func plainGit(_ c: MergeCase) throws {
        let (status, text) = try Self.merge(c, driver: false)
        #expect((status != 0) == c.plainGitConflicts, "\(text)")
        if !c.plainGitConflicts { #expect(text == c.merged) }
    }

    @Test("a binary property list merges by item too, through its own write-back")
    func binaryPropertyList() throws {
        let repo = try GitRepository()
        try repo.write(".gitattributes", "*.plist merge=todofmt diff=todofmt\n")
        try repo.run("config", "merge.todofmt.driver", "\(GitRepository.todofmt) merge %O %A %B %P")
        try repo.run("config", "diff.todofmt.textconv", "\(GitRepository.todofmt) cat")
        func write(_ checklist: String) throws {
            let run = try Run(["convert", "--to", "bplist", "-", repo.path("tasks.plist")], stdin: checklist)
            #expect(run.status == 0, "\(run.stderr)")
        }
        try write("- [ ] Milk\n- [ ] Eggs\n")
        try repo.commit("base")
        try repo.run("checkout", "-q", "-b", "theirs")
        try write("- [ ] Milk\n- [ ] Eggs\n- [ ] Bread\n")
        try repo.commit("theirs")
        try repo.run("checkout", "-q", "main")
        try write("- [x] Milk\n- [ ] Eggs\n")
        try repo.commit("ours")
        let merge = try repo.run(["merge", "-q", "--no-edit", "theirs"], allowing: [0, 1])
        #expect(merge.status == 0, "\(merge.stdout)\(merge.stderr)")
        #expect(
            try Data(contentsOf: repo.url.appendingPathComponent("tasks.plist")).starts(with: Array("bplist00".utf8)))
        #expect(try Run(["cat", repo.path("tasks.plist")]).stdout == "- [x] Milk\n- [ ] Eggs\n- [ ] Bread\n")
    }

    @Test("todofmt merge alone: writes into ours atomically, exit 1 with conflicts, 2 for a missing file")
    func command() throws {
        let c = mergeCases[5]
        let ws = try Workspace(["base.md": c.base, "ours.md": c.ours, "theirs.md": c.theirs])
        let run = try Run(["merge", "base.md", "ours.md", "theirs.md"], in: ws.url)
        #expect(run.status == 1 && run.stdout.isEmpty)
        #expect(run.stderr == "todofmt: ours.md: 1 conflict left between markers\n")
        #expect(try ws.read("ours.md") == c.merged)
        #expect(try Run(["merge", "base.md", "ours.md", "missing.md"], in: ws.url).status == 2)
        let clean = mergeCases[0]
        let ws2 = try Workspace(["base.md": clean.base, "ours.md": clean.ours, "theirs.md": clean.theirs])
        #expect(try Run(["merge", "base.md", "ours.md", "theirs.md"], in: ws2.url).status == 0)
        #expect(try ws2.read("ours.md") == clean.merged)
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: ws2.url.path).sorted() == [
                "base.md", "ours.md", "theirs.md",
            ])
    }
}
