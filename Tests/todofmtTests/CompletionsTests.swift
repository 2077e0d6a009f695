import Foundation
import Testing

@testable import todofmt

/// The completion scripts loaded into real shells, which complete real command lines.
@Suite("Shell completions")
struct CompletionsTests {
    /// A folder with each script as `todofmt completions <shell>` prints it, under the name its
    /// shell looks for, and a folder of files to complete, where the shells run.
    final class Scripts {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "todofmt-completions-\(UUID().uuidString)")
        var work: URL { folder.appendingPathComponent("work") }
        static let files = ["a b.md", "list.json", "sub"]

        init() throws {
            try FileManager.default.createDirectory(
                at: work.appendingPathComponent("sub"), withIntermediateDirectories: true)
            for name in Self.files.dropLast() {
                _ = FileManager.default.createFile(atPath: work.appendingPathComponent(name).path, contents: nil)
            }
            for shell in Shell.allCases {
                let run = try Run(["completions", shell.rawValue])
                #expect(run.status == 0 && run.stderr.isEmpty, "\(shell)")
                #expect(run.stdout == shell.script(for: CLI.spec))
                try run.stdout.write(to: url(shell), atomically: false, encoding: .utf8)
            }
        }
        deinit { try? FileManager.default.removeItem(at: folder) }

        func url(_ shell: Shell) -> URL {
            let name =
                switch shell {
                case .bash: "todofmt"
                case .zsh: "_todofmt"
                case .fish: "todofmt.fish"
                }
            return folder.appendingPathComponent(name)
        }
    }

    /// A command line with the cursor at its end, and the words a shell should offer there.
    struct Case: CustomStringConvertible {
        var line: String
        var expected: Set<String>
        var description: String { "'\(line)'" }
    }

    /// What every shell must complete: subcommands, options, format names, files.
    static let cases: [Case] = {
        let names = CLI.spec.subcommands.map(\.name)
        var cases = [
            Case(line: "todofmt con", expected: ["convert"]),
            Case(line: "todofmt ", expected: Set(names)),
            Case(line: "todofmt convert --to ", expected: Set(ValueKind.format.completions)),
            Case(line: "todofmt check --from y", expected: ["yaml", "yml"]),
            Case(line: "todofmt convert --key tasks ", expected: Set(Scripts.files)),
            Case(line: "todofmt convert --from md a ", expected: Set(Scripts.files)),
            Case(line: "todofmt help c", expected: Set(names.filter { $0.hasPrefix("c") })),
            Case(line: "todofmt completions ", expected: Set(Shell.allCases.map(\.rawValue))),
        ]
        // Each command's options, short and long, from its spec.
        for spec in [CLI.spec] + CLI.spec.subcommands {
            let command = spec.name == CLI.name ? "" : spec.name + " "
            cases.append(
                Case(
                    line: "todofmt \(command)-",
                    expected: Set(spec.allOptions.flatMap { [$0.shortName, $0.name].compactMap { $0 } })))
        }
        return cases
    }()

    /// Each case's line, then its matches, as the drivers print them.
    static func parse(_ output: String) -> [String: Set<String>] {
        var results: [String: Set<String>] = [:]
        var current: String?
        for line in output.split(separator: "\n") {
            if line.hasPrefix("<case>") {
                current = String(line.dropFirst(6))
                results[current!] = []
            } else if let current {
                // A folder comes back as sub/ from some shells.
                results[current]!.insert(line.hasSuffix("/") ? String(line.dropLast()) : String(line))
            }
        }
        return results
    }

    static func check(_ run: Run, shell: Shell, cases: [Case] = cases) {
        #expect(run.status == 0, "\(shell)")
        #expect(run.stderr == "", "\(shell)")
        let results = parse(run.stdout)
        for c in cases { #expect(results[c.line] == c.expected, "\(shell) \(c)") }
    }

    @Test("bash completes subcommands, each command's options, format names after --from and --to, files otherwise")
    func bash() throws {
        let scripts = try Scripts()
        // Drives the completion function as bash does: COMP_WORDS, COMP_CWORD, then COMPREPLY.
        var script = """
            set -u
            source \(Shell.quoted(scripts.url(.bash).path))
            complete -p todofmt
            drive() { COMP_WORDS=("$@"); COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); COMPREPLY=(); _todofmt; printf '%s\\n' "${COMPREPLY[@]}"; }

            """
        // bash splits the line into words by COMP_WORDBREAKS: --to= is --to and =.
        let equals = Case(line: "todofmt convert --to=", expected: Set(ValueKind.format.completions))
        for c in Self.cases + [equals] {
            var words = c.line.split(separator: " ", omittingEmptySubsequences: false).map(String.init)
            if words.last == "--to=" {
                words[words.count - 1] = "--to"
                words.append("=")
            }
            script +=
                "echo \(Shell.quoted("<case>" + c.line)); drive \(words.map(Shell.quoted).joined(separator: " "))\n"
        }
        let run = try Tools.run(try Tools.path(of: "bash"), ["--norc", "--noprofile", "-c", script], in: scripts.work)
        #expect(run.stdout.hasPrefix("complete -F _todofmt todofmt\n"))
        Self.check(run, shell: .bash, cases: Self.cases + [equals])
    }

    @Test("fish loads its file and completes the same")
    func fish() throws {
        let scripts = try Scripts()
        let fish = try Tools.path(of: "fish")
        let syntax = try Tools.run(fish, ["--no-execute", scripts.url(.fish).path])
        #expect(syntax.status == 0 && syntax.stderr == "")
        var script = "source \(Shell.quoted(scripts.url(.fish).path))\n"
        for c in Self.cases {
            // complete -C prints each match, then a tab and its description.
            script +=
                "echo \(Shell.quoted("<case>" + c.line)); complete -C \(Shell.quoted(c.line)) | string replace -r '\\t.*' ''\n"
        }
        Self.check(try Tools.run(fish, ["--no-config", "-c", script], in: scripts.work), shell: .fish)
    }

    @Test("zsh loads its file, sourced or from $fpath, and completes the same in a terminal")
    func zsh() throws {
        let scripts = try Scripts()
        let zsh = try Tools.path(of: "zsh")
        let syntax = try Tools.run(zsh, ["-n", scripts.url(.zsh).path])
        #expect(syntax.status == 0 && syntax.stderr == "")
        // Sourced, it registers its function; from $fpath, compinit finds it by its #compdef line.
        let loaded = try Tools.run(
            zsh,
            [
                "-f", "-c",
                """
                autoload -U compinit && compinit -u -D
                source \(Shell.quoted(scripts.url(.zsh).path)) && print sourced $_comps[todofmt]
                unset '_comps[todofmt]'; fpath=(\(Shell.quoted(scripts.folder.path)) $fpath); compinit -u -D
                print autoloaded $_comps[todofmt]
                """,
            ])
        #expect(loaded.status == 0 && loaded.stderr == "")
        #expect(loaded.stdout == "sourced _todofmt\nautoloaded _todofmt\n")
        let run = try Tools.run(
            zsh, ["-f", "-c", Self.zshDriver, "driver", scripts.folder.path] + Self.cases.map(\.line), in: scripts.work)
        Self.check(run, shell: .zsh)
    }

    /// Types each line and a tab into an interactive zsh in a pseudo-terminal, with compadd
    /// wrapped to print what completion offers; a key binding marks the end of each completion.
    static let zshDriver = #"""
        zmodload zsh/zpty
        zpty shell zsh -f -i
        zpty -w shell "PROMPT=; bindkey -e; fpath=(${(q)1} \$fpath); autoload -U compinit; compinit -u -D"
        zpty -w shell 'compadd () { local -a hits; builtin compadd -O hits "$@"; (( $#hits )) && print -l -- "<match>"${^hits}; builtin compadd "$@"; }'
        zpty -w shell 'complete-and-mark () { zle complete-word; print "<done>"; }; zle -N complete-and-mark; bindkey "^I" complete-and-mark; print "<ready>"'
        # The first <ready> is the command line echoed, the second its output.
        zpty -r shell output '*<ready>*'
        zpty -r shell output '*<ready>*'
        for line in "${@:2}"; do
            zpty -w -n shell "$line"$'\t'
            zpty -r shell output '*<done>*'
            print -r -- "<case>$line"
            print -r -- "${output//$'\r'/}" | grep -o '<match>.*' | sed 's/^<match>//' | sort -u
            zpty -w -n shell $'\C-u'
        done
        zpty -d shell
        """#

    @Test("completions takes bash, zsh or fish, and nothing else")
    func command() throws {
        let wrong = try Run(["completions", "tcsh"])
        #expect(wrong.status == 64 && wrong.stdout.isEmpty)
        #expect(
            wrong.stderr.hasPrefix(
                "todofmt: error: unknown shell 'tcsh' (known: bash, zsh, fish)\nUSAGE: todofmt completions <shell>\n"))
    }
}
