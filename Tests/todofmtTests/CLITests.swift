import Foundation
import Testing

@testable import todofmt

/// Runs the built `todofmt` the way a user does and returns what it printed.
struct Run {
    var status: Int32
    var stdout: String
    var stderr: String

    static let executable: URL = {
        // The test runner sits in the build products directory, beside the todofmt binary.
        let runner = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        var directory = runner.deletingLastPathComponent()
        while !FileManager.default.isExecutableFile(atPath: directory.appendingPathComponent("todofmt").path),
            directory.path != "/"
        {
            directory = directory.deletingLastPathComponent()
        }
        return directory.appendingPathComponent("todofmt")
    }()

    /// Runs todofmt, or `program` when given.
    init(
        _ arguments: [String], stdin: String? = nil, in directory: URL? = nil, environment: [String: String] = [:],
        program: URL = Run.executable
    ) throws {
        let process = Process()
        process.executableURL = program
        process.arguments = arguments
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
        if let directory { process.currentDirectoryURL = directory }
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("todofmt-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let out = scratch.appendingPathComponent("out")
        let err = scratch.appendingPathComponent("err")
        _ = FileManager.default.createFile(atPath: out.path, contents: nil)
        _ = FileManager.default.createFile(atPath: err.path, contents: nil)
        process.standardOutput = try FileHandle(forWritingTo: out)
        process.standardError = try FileHandle(forWritingTo: err)
        if let stdin {
            let input = scratch.appendingPathComponent("in")
            try stdin.write(to: input, atomically: false, encoding: .utf8)
            process.standardInput = try FileHandle(forReadingFrom: input)
        } else {
            process.standardInput = FileHandle.nullDevice
        }
        try process.run()
        process.waitUntilExit()
        status = process.terminationStatus
        stdout = try String(contentsOf: out, encoding: .utf8)
        stderr = try String(contentsOf: err, encoding: .utf8)
    }
}

/// A scratch folder with files in it.
final class Workspace {
    let url: URL
    init(_ files: [String: String]) throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("todofmt-ws-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        for (name, text) in files {
            try text.write(to: url.appendingPathComponent(name), atomically: false, encoding: .utf8)
        }
    }
    deinit { try? FileManager.default.removeItem(at: url) }
    func read(_ name: String) throws -> String {
        try String(contentsOf: url.appendingPathComponent(name), encoding: .utf8)
    }
    func exists(_ name: String) -> Bool {
        FileManager.default.fileExists(atPath: url.appendingPathComponent(name).path)
    }
}

let groceries = """
    ---
    title: Groceries
    ---
    # Today
    - [ ] Milk
    - [x] Eggs
      - [ ] Brown ones

    """

@Suite("The todofmt command")
struct CLITests {
    @Test("an empty input file is an empty list in every format", arguments: ["md", "json", "plist", "sql", "db"])
    func emptyInput(_ ext: String) throws {
        let ws = try Workspace(["empty.\(ext)": ""])
        let run = try Run(["convert", "empty.\(ext)", "--to", "json"], in: ws.url)
        #expect(run.status == 0 && run.stderr.isEmpty, "\(run.stderr)")
        #expect(run.stdout.filter { !$0.isWhitespace } == "[]")
    }

    @Test("a database with no tables says so, not 'tables: .'")
    func noTables() throws {
        let ws = try Workspace(["n.sql": "-- nothing\n"])
        let run = try Run(["convert", "n.sql", "--to", "json"], in: ws.url)
        #expect(run.status != 0)
        #expect(run.stderr.contains("has no tables") && !run.stderr.contains("tables: ."), "\(run.stderr)")
    }

    @Test("convert to JSON on standard output, options after the file", .needsYAML)
    func convertToStdout() throws {
        let ws = try Workspace(["g.md": groceries])
        let run = try Run(["convert", "g.md", "--to", "json"], in: ws.url)
        #expect(run.status == 0)
        #expect(
            run.stdout == """
                [
                  {"name": "Milk", "checked": false, "section": "Today"},
                  {"name": "Eggs", "checked": true, "section": "Today", "children": [
                    {"name": "Brown ones", "checked": false}
                  ]}
                ]

                """)
        #expect(
            run.stderr == "todofmt: warning: plain JSON has no place for the list's metadata (title); it was left out\n"
        )
    }

    @Test("convert reads standard input and detects YAML by content", .needsYAML)
    func convertStdin() throws {
        let run = try Run(["convert", "-", "--to=md"], stdin: "- name: Milk\n  checked: true\n")
        #expect(run.status == 0)
        #expect(run.stdout == "- [x] Milk\n")
    }

    @Test("convert to a file writes it whole and says nothing", .needsYAML)
    func convertToFile() throws {
        let ws = try Workspace(["g.md": groceries])
        let run = try Run(["convert", "--from", "md", "g.md", "g.yaml"], in: ws.url)
        #expect(run.status == 0 && run.stdout.isEmpty && run.stderr.isEmpty)
        let back = try Run(["convert", "g.yaml"], in: ws.url)
        #expect(back.stdout == groceries)
    }

    @Test(
        "--strict: what the output cannot hold is an error, and nothing is written, file or standard output", .needsYAML
    )
    func strict() throws {
        let ws = try Workspace(["g.md": groceries, "old.json": "[]\n"])
        let message = "plain JSON has no place for the list's metadata (title); it was left out"
        let warned = try Run(["convert", "g.md", "g.json"], in: ws.url)
        #expect(warned.status == 0 && warned.stderr == "todofmt: warning: \(message)\n")
        let new = try Run(["convert", "--strict", "g.md", "new.json"], in: ws.url)
        #expect(new.status == 1 && new.stderr == "todofmt: error: new.json: not written (--strict): \(message)\n")
        #expect(!FileManager.default.fileExists(atPath: ws.url.appendingPathComponent("new.json").path))
        // An empty list cannot tell its item keys either.
        let keys =
            "the list had no items to tell its item keys: new items were written with name, checked "
            + "(name them with --field name=KEY --field checked=KEY) (3 items, the first 1 Milk)"
        let existing = try Run(["convert", "g.md", "old.json", "--strict"], in: ws.url)
        #expect(
            existing.status == 1
                && existing.stderr == "todofmt: error: old.json: not written (--strict): \(message); \(keys)\n")
        #expect(try ws.read("old.json") == "[]\n")
        let stdout = try Run(["convert", "--strict", "g.md", "--to", "json"], in: ws.url)
        #expect(stdout.status == 1 && stdout.stdout.isEmpty)
        let lossless = try Run(["convert", "--strict", "g.md", "g.yaml"], in: ws.url)
        #expect(lossless.status == 0 && lossless.stderr.isEmpty)
    }

    @Test("an error with a place: file:line:column: error: message, exit 1, output untouched")
    func errorWithLocation() throws {
        let ws = try Workspace(["bad.json": "[\n  {\"name\": \"a\",}\n]\n", "out.md": "keep me\n"])
        let run = try Run(["convert", "bad.json", "out.md"], in: ws.url)
        #expect(run.status == 1)
        #expect(run.stderr == "bad.json:2:16: error: trailing comma\n")
        #expect(try ws.read("out.md") == "keep me\n")
    }

    @Test("an error without a place: todofmt: error: message, exit 1")
    func errorWithoutLocation() throws {
        let run = try Run(["list", "/no/such/file.md"])
        #expect(run.status == 1)
        #expect(run.stderr == "todofmt: error: /no/such/file.md: No such file or directory\n")
    }

    static let convertUsage = """
        USAGE: todofmt convert [--from <format>] [--to <format>] [--key <key>]
                               [--table <table>] [--entity <name>]
                               [--field <role>=<key> ...] [--strict] <input> [<output>]

        """
    static let checkUsage = """
        USAGE: todofmt check [--from <format>] [--key <key>] [--table <table>]
                             [--entity <name>] [--field <role>=<key> ...] <file> ...

        """
    static let listUsage = """
        USAGE: todofmt list [--from <format>] [--open] [--done] [--status <c> ...]
                            [--section <name>] [--grep <text>]
                            [--field <key>=<value> ...] [--limit <n>] [--offset <n>]
                            [--sort <keys>] [--format <text|json>] [--key <key>]
                            [--table <table>] [--entity <name>] <file>

        """
    static let fmtUsage = "USAGE: todofmt fmt [--check] <file> ...\n"
    static let rootUsage = "USAGE: todofmt <subcommand>\nSee 'todofmt --help'.\n"
    static let formats = "md, yaml, json, plist, bplist, sqlite, sql"
    static let roles = "name, checked, status, section, children, fields, order"

    @Test(
        "usage errors: the error line, then the usage, on standard error; exit 64",
        arguments: [
            (["convert"], "todofmt: error: missing argument '<input>'\n" + convertUsage),
            (["convert", "a.md", "b.md", "c.md"], "todofmt: error: unexpected argument 'c.md'\n" + convertUsage),
            (
                ["convert", "a.md", "--to", "csv"],
                "todofmt: error: unknown format 'csv' (known: \(formats))\n" + convertUsage
            ),
            (
                ["check", "--field", "bogus", "x.md"],
                "todofmt: error: --field takes <role>=<key>, not 'bogus' (roles: \(roles))\n" + checkUsage
            ),
            (["check"], "todofmt: error: missing argument '<file>'\n" + checkUsage),
            (["fmt", "--fast", "a.md"], "todofmt: error: unknown option '--fast'\n" + fmtUsage),
            (["fmt", "a.md", "--check=no"], "todofmt: error: option '--check' takes no value\n" + fmtUsage),
            (["list", "--from"], "todofmt: error: missing value for '--from'\n" + listUsage),
            (["list", "a.md", "b.md"], "todofmt: error: unexpected argument 'b.md'\n" + listUsage),
            (["list", "a.md", "--to", "json"], "todofmt: error: unknown option '--to'\n" + listUsage),
            (
                ["help", "frobnicate"],
                "todofmt: error: unknown command 'frobnicate'\nUSAGE: todofmt help [--man] [<subcommand>]\n"
            ),
            (["frobnicate"], "todofmt: error: unknown command 'frobnicate'\n" + rootUsage),
            (["--frobnicate"], "todofmt: error: unknown option '--frobnicate'\n" + rootUsage),
            (["--version", "convert"], "todofmt: error: unexpected argument 'convert'\n" + rootUsage),
            ([], "todofmt: error: missing command\n" + rootUsage),
        ])
    func usageErrors(arguments: [String], stderr: String) throws {
        let run = try Run(arguments)
        #expect(run.status == 64)
        #expect(run.stderr == stderr)
        #expect(run.stdout.isEmpty)
    }

    @Test("every option is checked before any file is read or written")
    func optionsBeforeFiles() throws {
        let ws = try Workspace(["g.md": groceries, "messy.md": "* [X] a\n"])
        // Without the check up front, check would first report the missing file.
        let check = try Run(["check", "missing.md", "g.md", "--field", "bogus"], in: ws.url)
        #expect(check.status == 64)
        #expect(
            check.stderr == "todofmt: error: --field takes <role>=<key>, not 'bogus' (roles: \(Self.roles))\n"
                + Self.checkUsage)
        let convert = try Run(["convert", "g.md", "out.json", "--field", "name"], in: ws.url)
        #expect(convert.status == 64 && !ws.exists("out.json"))
        let fmt = try Run(["fmt", "messy.md", "--fast"], in: ws.url)
        #expect(fmt.status == 64)
        #expect(try ws.read("messy.md") == "* [X] a\n")
        let list = try Run(["list", "g.md", "--from", "csv"], in: ws.url)
        #expect(list.status == 64 && list.stdout.isEmpty)
    }

    @Test("after --, every argument is a file: convert -- -h reads a file named -h")
    func doubleDash() throws {
        let ws = try Workspace(["-h": "- [ ] from a file named -h\n", "--from": "- [x] from a file named --from\n"])
        let convert = try Run(["convert", "--", "-h"], in: ws.url)
        #expect(convert.status == 0 && convert.stderr.isEmpty)
        #expect(convert.stdout == "- [ ] from a file named -h\n")
        let list = try Run(["list", "--from", "md", "--", "--from"], in: ws.url)
        #expect(list.stdout == "1 [x] from a file named --from\n")
        let check = try Run(["check", "--", "-h", "--from"], in: ws.url)
        #expect(check.status == 0 && check.stdout.isEmpty && check.stderr.isEmpty)
        let stdin = try Run(["convert", "--to", "json", "--", "-"], stdin: "- [ ] Milk\n")
        #expect(stdin.stdout == "[\n  {\"name\": \"Milk\", \"checked\": false}\n]\n")
    }

    /// Foundation's path splitting traps on Linux for a one-character path: every write into a
    /// file named `q` crashed (helper hunt 97).
    @Test("files with one-character names, and a link of one, are written")
    func oneCharacterNames() throws {
        let ws = try Workspace(["q": "- [ ] a\n", "j": #"[{"name": "b"}]"#, "d": ""])
        let add = try Run(["add", "q", "hello"], in: ws.url)
        #expect(add.status == 0 && add.stderr.isEmpty, "\(add.stderr)")
        #expect(try ws.read("q") == "- [ ] a\n- [ ] hello\n")
        let convert = try Run(["convert", "j", "q", "--from", "json"], in: ws.url)
        #expect(convert.status == 0 && convert.stderr.isEmpty, "\(convert.stderr)")
        #expect(try ws.read("q") == "- [ ] b\n")
        let dump = try Run(["convert", "q", "s", "--to", "sql"], in: ws.url)
        #expect(dump.status == 0 && dump.stderr.isEmpty && ws.exists("s"), "\(dump.stderr)")
        let again = try Run(["convert", "j", "s", "--from", "json"], in: ws.url)
        #expect(again.status == 0 && again.stderr.isEmpty, "\(again.stderr)")
        try FileManager.default.createSymbolicLink(
            atPath: ws.url.appendingPathComponent("l").path, withDestinationPath: "n")
        let link = try Run(["convert", "q", "l", "--to", "md"], in: ws.url)
        #expect(link.status == 0 && link.stderr.isEmpty, "\(link.stderr)")
        #expect(try ws.read("n") == "- [ ] b\n")
    }

    /// `URL` drops the last `/` of `q/`, and the file `q` was written or edited in its place
    /// (helper hunt 98). A path that ends in `/` names a folder, as it does to the system.
    @Test("a path ending in / is a folder: nothing is written, and the file without it stays")
    func folderNames() throws {
        let ws = try Workspace(["in.md": "- [ ] a\n", "q": "- [ ] b\n"])
        try FileManager.default.createDirectory(
            at: ws.url.appendingPathComponent("d"), withIntermediateDirectories: false)
        for args in [
            ["convert", "--to", "json", "in.md", "new/"], ["convert", "--to", "md", "in.md", "q/"],
            ["convert", "--to", "json", "in.md", "d/"], ["convert", "--to", "json", "in.md", "d"],
            ["add", "q/", "x"], ["done", "q/", "1"], ["list", "q/"],
        ] {
            let run = try Run(args, in: ws.url)
            #expect(run.status == 1 && run.stdout.isEmpty, "\(args)")
            #expect(
                run.stderr.hasPrefix("todofmt: error: \(args.last == "x" || args.last == "1" ? "q/" : args.last!)"),
                "\(args): \(run.stderr)")
        }
        // Said before the format is looked for (a new file's is told by its name).
        let named = try Run(["convert", "in.md", "new/"], in: ws.url)
        #expect(named.stderr == "todofmt: error: new/: names a folder, not a file\n")
        // A folder named without the slash is one too.
        let folder = try Run(["convert", "in.md", "d"], in: ws.url)
        #expect(folder.status == 1 && folder.stderr == "todofmt: error: d/: names a folder, not a file\n")
        #expect(try ws.read("q") == "- [ ] b\n")
        #expect(!ws.exists("new"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: ws.url.appendingPathComponent("d").path).isEmpty)
        #expect(try FileManager.default.contentsOfDirectory(atPath: ws.url.path).sorted() == ["d", "in.md", "q"])
    }

    /// fmt rewrote the files before the one it could not read, then failed (helper hunt 100),
    /// or the one it could not write.
    @Test("fmt of several files writes none when one cannot be read or written")
    func fmtSeveralFiles() throws {
        let messy = "* [ ] a\n*   [X] b\n"
        // A name that leaves no room for the temporary file's beside it: its new text cannot
        // be written.
        let long = String(repeating: "n", count: 240) + ".md"
        let ws = try Workspace(["a.md": messy, "b.md": messy, "x.json": "[]", long: messy])
        for (args, message) in [
            (["a.md", "missing.md", "b.md"], "missing.md: No such file or directory"),
            (["a.md", "x.json"], "x.json: fmt formats checklists, and this is json; convert it instead"),
        ] {
            let run = try Run(["fmt"] + args, in: ws.url)
            #expect(run.status == 1 && run.stderr == "todofmt: error: \(message)\n", "\(run.stderr)")
            #expect(try ws.read("a.md") == messy && ws.read("b.md") == messy)
        }
        // None is rewritten, not even the files before it.
        let unwritable = try Run(["fmt", "a.md", long, "b.md"], in: ws.url)
        #expect(
            unwritable.status == 1 && unwritable.stderr.hasSuffix(".md: File name too long\n"), "\(unwritable.stderr)")
        #expect(try ws.read("a.md") == messy && ws.read("b.md") == messy && ws.read(long) == messy)
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: ws.url.path).sorted() == [
                "a.md", "b.md", long, "x.json",
            ])
        let run = try Run(["fmt", "a.md", "b.md"], in: ws.url)
        #expect(run.status == 0 && run.stderr.isEmpty)
        #expect(try ws.read("a.md") == "- [ ] a\n- [x] b\n" && ws.read("b.md") == "- [ ] a\n- [x] b\n")
    }

    /// "(prose, headings that name no section, code: 1 block…)" read as if the file held
    /// code (helper hunt 100).
    @Test("the warning for a checklist's prose says how many blocks went, apart from their kinds")
    func proseLeftOut() throws {
        let one = try Run(["convert", "--to", "json", "-"], stdin: "Intro\n- [ ] a\n")
        #expect(
            one.stderr
                == "todofmt: warning: plain JSON has no place for the checklist's text that is not items (prose, "
                + "headings that name no section, code): 1 block, on line 1; it was left out\n")
        let two = try Run(["convert", "--to", "json", "-"], stdin: "- [ ] a\n\nOne\n\n    code\n")
        #expect(two.stderr.hasSuffix("code): 2 blocks, the first on line 3; it was left out\n"), "\(two.stderr)")
    }

    @Test("options after the files, and between them")
    func optionsAfterFiles() throws {
        let ws = try Workspace(["messy.md": "* [X] a\n", "clean.md": groceries])
        let check = try Run(["fmt", "clean.md", "--check", "messy.md"], in: ws.url)
        #expect(check.status == 1 && check.stdout == "messy.md\n")
        #expect(try ws.read("messy.md") == "* [X] a\n")
        let list = try Run(["list", "clean.md", "--from", "md"], in: ws.url)
        #expect(list.stdout == "1 [ ] Milk\n2 [x] Eggs\n2.1 [ ] Brown ones\n")
    }

    @Test("--version goes to standard output and exits 0")
    func version() throws {
        let run = try Run(["--version"])
        #expect(run.status == 0 && run.stderr.isEmpty)
        #expect(run.stdout == "todofmt \(CLI.version)\n")
    }

    @Test("list prints positions")
    func list() throws {
        let run = try Run(["list", "-"], stdin: groceries + "- [/] Bread [qty:: 2]\n")
        #expect(run.stdout == "1 [ ] Milk\n2 [x] Eggs\n2.1 [ ] Brown ones\n3 [/] Bread [qty:: 2]\n")
    }

    @Test("fmt --check names the files that are not canonical and changes nothing; fmt rewrites them")
    func fmt() throws {
        let messy = "* [X] a\n    + [ ] b\n"
        let ws = try Workspace(["messy.md": messy, "clean.md": groceries])
        let check = try Run(["fmt", "--check", "clean.md", "messy.md"], in: ws.url)
        #expect(check.status == 1)
        #expect(check.stdout == "messy.md\n")
        #expect(try ws.read("messy.md") == messy)
        let fix = try Run(["fmt", "messy.md", "clean.md"], in: ws.url)
        #expect(fix.status == 0 && fix.stdout.isEmpty)
        #expect(try ws.read("messy.md") == "- [x] a\n  - [ ] b\n")
        #expect(try ws.read("clean.md") == groceries)
        #expect(try Run(["fmt", "--check", "messy.md"], in: ws.url).status == 0)
        let json = try Run(["fmt", "list.json"], in: ws.url)
        #expect(
            json.status == 1
                && json.stderr
                    == "todofmt: error: list.json: fmt formats checklists, and this is json; convert it instead\n"
        )
    }

    @Test("check reports problems with places and exits 1; a clean file exits 0")
    func check() throws {
        let ws = try Workspace(["ok.md": groceries, "odd.md": "- [] missing space\n- [x]done\n- [ ] fine\r\n"])
        let clean = try Run(["check", "ok.md"], in: ws.url)
        #expect(clean.status == 0 && clean.stderr.isEmpty)
        let odd = try Run(["check", "odd.md"], in: ws.url)
        #expect(odd.status == 1)
        #expect(
            odd.stderr == """
                odd.md:1:3: warning: '[]' is not a checkbox; write '[ ]'
                odd.md:2:6: warning: a checkbox needs a space after ']' to make a task item
                odd.md:3:1: warning: mixed line endings (2 LF, 1 CRLF)

                """)
        // Classic Mac OS line endings end no line: the file is one item, and check says why.
        try "- [ ] a\r- [x] b\r".write(to: ws.url.appendingPathComponent("mac.md"), atomically: false, encoding: .utf8)
        let mac = try Run(["check", "mac.md"], in: ws.url)
        #expect(mac.status == 1)
        #expect(
            mac.stderr
                == "mac.md:1:8: warning: 2 carriage returns not followed by a line feed: todofmt ends lines at LF and CR LF only, so the text after one stays on its line (convert it to LF or CR LF)\n"
        )
    }

    @Test("run() in process gives the same exit codes")
    func inProcess() throws {
        let ws = try Workspace(["g.md": groceries])
        let out = open(ws.url.appendingPathComponent("out.txt").path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        let err = open(ws.url.appendingPathComponent("err.txt").path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        defer {
            close(out)
            close(err)
        }
        let terminal = Terminal(out: out, err: err)
        #expect(CLI.run(["list", ws.url.appendingPathComponent("g.md").path], terminal: terminal) == .success)
        #expect(CLI.run(["list"], terminal: terminal) == .usage)
        #expect(CLI.run(["list", "/nonexistent"], terminal: terminal) == .failure)
        #expect(try ws.read("out.txt") == "1 [ ] Milk\n2 [x] Eggs\n2.1 [ ] Brown ones\n")
    }
}

@Suite("todofmt with property lists and app files")
struct PropertyListCLITests {
    @Test("a new .plist is XML; --to bplist makes it binary; both read back")
    func newPlist() throws {
        let ws = try Workspace(["g.md": groceries])
        #expect(try Run(["convert", "g.md", "x.plist"], in: ws.url).status == 0)
        #expect(try ws.read("x.plist").hasPrefix("<?xml"))
        #expect(try Run(["convert", "--to", "bplist", "g.md", "b.plist"], in: ws.url).status == 0)
        let binary = try Data(contentsOf: ws.url.appendingPathComponent("b.plist"))
        #expect(binary.starts(with: Data("bplist00".utf8)))
        #expect(try Run(["list", "b.plist"], in: ws.url).stdout == "1 [ ] Milk\n2 [x] Eggs\n2.1 [ ] Brown ones\n")
        #expect(try Run(["list", "x.plist"], in: ws.url).stdout == "1 [ ] Milk\n2 [x] Eggs\n2.1 [ ] Brown ones\n")
    }

    @Test("--key picks a list, --field names a schema, and a missing list is a clear error")
    func keyAndField() throws {
        let ws = try Workspace([
            "two.json": "{\"a\": [{\"title\": \"A\"}], \"b\": [{\"text\": \"B\", \"done\": true}]}\n",
            "odd.json": "[{\"ToDo\": \"Call\", \"CheckBox\": 1}]\n",
        ])
        let both = try Run(["list", "two.json"], in: ws.url)
        #expect(both.status == 1)
        #expect(both.stderr == "todofmt: error: two.json: several keys hold todo lists (a, b); pick one with --key\n")
        #expect(try Run(["list", "two.json", "--key", "b"], in: ws.url).stdout == "1 [x] B\n")
        let odd = try Run(["list", "odd.json"], in: ws.url)
        #expect(odd.status == 1 && odd.stderr == "odd.json:1:2: error: item has no name (its keys: ToDo, CheckBox)\n")
        let named = try Run(["list", "--field", "name=ToDo", "--field=checked=CheckBox", "odd.json"], in: ws.url)
        #expect(named.stdout == "1 [x] Call\n")
        let bad = try Run(["convert", "--field", "colour=x", "odd.json"], in: ws.url)
        #expect(
            bad.status == 64
                && bad.stderr
                    == "todofmt: error: --field takes <role>=<key>, not 'colour=x' (roles: \(CLITests.roles))\n"
                    + CLITests.convertUsage
        )
        // In list, a key that is no role filters by a field.
        let filtered = try Run(
            ["list", "--field", "name=ToDo", "--field=checked=CheckBox", "--field", "colour=x", "odd.json"], in: ws.url)
        #expect(filtered.status == 0 && filtered.stdout.isEmpty)
    }

    @Test("a corrupt binary property list names the byte")
    func corrupt() throws {
        let ws = try Workspace([:])
        try Data(
            "bplist00".utf8 + [0x00, 0x01] + [UInt8](repeating: 0, count: 26) + [0, 0, 0, 0, 0, 0, 1, 1]
                + [UInt8](repeating: 0, count: 7) + [5] + [UInt8](repeating: 0, count: 16)
        ).write(to: ws.url.appendingPathComponent("bad.plist"))
        let run = try Run(["convert", "bad.plist"], in: ws.url)
        #expect(run.status == 1)
        // The trailer (the last 32 bytes) says the offset table is at 0, inside the header.
        #expect(run.stderr == "bad.plist: byte 44: error: corrupt trailer: 5 objects, top 0, table at 0\n")
        #expect(run.stdout.isEmpty)
    }
}

@Suite("todofmt with databases")
struct DatabaseCLITests {
    @Test("a checklist to a new database, a dump, and back; errors name the file", .needsYAML)
    func roundTrip() throws {
        let ws = try Workspace(["g.md": groceries])
        #expect(
            try Run(["convert", "g.md", "g.sqlite"], in: ws.url).stderr
                == "todofmt: warning: an SQLite table has no place for the list's metadata (title); it was left out\n")
        #expect(try Run(["list", "g.sqlite"], in: ws.url).stdout == "1 [ ] Milk\n2 [x] Eggs\n2.1 [ ] Brown ones\n")
        #expect(
            try Run(["convert", "g.sqlite", "--to", "sql"], in: ws.url).stdout == """
                PRAGMA foreign_keys=OFF;
                BEGIN TRANSACTION;
                CREATE TABLE todo_items ("id" INTEGER PRIMARY KEY, "parent" INTEGER REFERENCES todo_items(id), "position" INTEGER NOT NULL, "name" TEXT NOT NULL, "checked" BOOLEAN NOT NULL, "status" TEXT, "section" TEXT);
                INSERT INTO todo_items VALUES(1,NULL,0,'Milk',0,NULL,'Today');
                INSERT INTO todo_items VALUES(2,NULL,1,'Eggs',1,NULL,'Today');
                INSERT INTO todo_items VALUES(3,2,0,'Brown ones',0,NULL,NULL);
                COMMIT;

                """)
        let stdout = try Run(["convert", "g.md", "--to", "sqlite"], in: ws.url)
        #expect(
            stdout.status == 1
                && stdout.stderr == "todofmt: error: a database cannot be written to standard output; name a file\n")
        let notADatabase = try Run(["list", "--from", "sqlite", "g.md"], in: ws.url)
        #expect(notADatabase.status == 1)
        #expect(
            notADatabase.stderr
                == "todofmt: error: g.md: file is not a database (while running `SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY rowid`)\n"
        )
        try "CREATE TABLE t(name TEXT);\nATTACH DATABASE 'x.db' AS x;\n".write(
            to: ws.url.appendingPathComponent("bad.sql"), atomically: false, encoding: .utf8)
        let dump = try Run(["list", "bad.sql"], in: ws.url)
        #expect(dump.status == 1)
        #expect(
            dump.stderr
                == "bad.sql:2:1: error: ATTACH and DETACH are not allowed in a dump (they touch other files) (while running `ATTACH DATABASE 'x.db' AS x;`)\n"
        )
    }
}

/// Files that can be read only once, or that say they are empty: read whole, once.
@Suite("Inputs that are not regular files")
struct OnceReadInputTests {
    /// Runs a shell command line with todofmt as `$T` in `directory`.
    static func shell(_ line: String, in directory: URL) throws -> Run {
        try Run(
            ["-c", line], in: directory, environment: ["T": Run.executable.path],
            program: URL(fileURLWithPath: "/bin/sh"))
    }

    @Test("a checklist from a pipe through /dev/stdin, and from a named pipe, converts")
    func pipes() throws {
        let workspace = try Workspace([:])
        // Its start was read to tell the format, then the file opened again: a pipe read as
        // empty (`[]`), a named pipe waited for a writer that had gone.
        let piped = try Self.shell(
            #"printf -- '- [ ] Milk\n- [x] Eggs\n' | "$T" convert --from md /dev/stdin --to json -"#, in: workspace.url)
        #expect(piped.status == 0 && piped.stdout.contains("Milk") && piped.stdout.contains("Eggs"), "\(piped.stderr)")
        let fifo = try Self.shell(
            #"mkfifo list.md && (timeout 20 sh -c "printf -- '- [ ] Milk\n' > list.md" &) && timeout 20 "$T" convert list.md out.json && cat out.json"#,
            in: workspace.url)
        #expect(fifo.status == 0 && fifo.stdout.contains("Milk"), "\(fifo.stderr)")
        // An edit has nowhere to write back: an error, not a wait.
        let edit = try Self.shell(
            // (The pipe read after, so that its writer does not wait on; each writer gives up
            // after 20 s, so that a test that fails does not wait for it either.)
            #"mkfifo edit.md && (timeout 20 sh -c "printf -- '- [ ] Milk\n' > edit.md" &) && { timeout 20 "$T" done edit.md 1; s=$?; timeout 5 cat edit.md > /dev/null; exit $s; }"#,
            in: workspace.url)
        #expect(edit.status == 1 && edit.stderr.contains("not a regular file"), "\(edit.status) \(edit.stderr)")
    }

    #if os(Linux)
    @Test("a /proc file, whose size says 0, is read to its end")
    func procFile() throws {
        let version = try String(contentsOfFile: "/proc/version", encoding: .utf8)
        let run = try Run(["convert", "--from", "md", "/proc/version", "--to", "md", "-"])
        #expect(run.status == 0)
        #expect(run.stdout == version, "\(run.stderr)")
    }
    #endif
}
