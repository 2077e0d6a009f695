import Foundation
import Testing

@testable import todofmt

/// scripts/install.sh, given the todofmt these tests run (`--binary`), so no release build is
/// needed: the script's build step is the one thing left out.
@Suite("scripts/install.sh")
struct InstallTests {
    static let script = Tools.repository.appendingPathComponent("scripts/install.sh").path

    /// What the install puts under the prefix, beside its manifest.
    static let installed = [
        "bin/todofmt",
        "share/man/man1/todofmt.1",
        "share/bash-completion/completions/todofmt",
        "share/zsh/site-functions/_todofmt",
        "share/fish/vendor_completions.d/todofmt.fish",
    ]
    static let manifest = "share/todofmt/install-manifest"

    /// Every file and folder under `root`, relative to it, sorted; a file with its text, or
    /// its size when it is large (the binary).
    static func tree(_ root: URL) -> [String] {
        let paths = FileManager.default.subpaths(atPath: root.path) ?? []
        return paths.sorted().map { path in
            guard let contents = FileManager.default.contents(atPath: root.appendingPathComponent(path).path) else {
                return path
            }
            return path + ": "
                + (contents.count < 100_000 ? String(decoding: contents, as: UTF8.self) : "\(contents.count) bytes")
        }
    }

    /// A prefix that already holds someone else's files, in folders the install uses too.
    static func prefix(in ws: Workspace) throws -> URL {
        let prefix = ws.url.appendingPathComponent("prefix")
        for path in ["bin/other", "share/man/man1/other.1"] {
            let url = prefix.appendingPathComponent(path)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try "someone else's\n".write(to: url, atomically: false, encoding: .utf8)
        }
        return prefix
    }

    static func install(_ arguments: [String]) throws -> Run {
        try Tools.run(try Tools.path(of: "bash"), [script] + arguments)
    }

    @Test(
        "installs todofmt, its man page and completions under a prefix; runs; uninstalls exactly what it put there",
        .needsYAML)
    func installRunUninstall() throws {
        let ws = try Workspace([:])
        let prefix = try Self.prefix(in: ws)
        let before = Self.tree(prefix)

        let install = try Self.install(["--binary", Run.executable.path, prefix.path])
        #expect(install.status == 0)
        #expect(install.stdout == Self.installed.map { "installed \(prefix.path)/\($0)\n" }.joined())
        #expect(install.stderr == "install.sh: \(prefix.path)/bin is not on PATH; add it to run todofmt by name\n")

        // The installed binary runs.
        let todofmt = prefix.appendingPathComponent("bin/todofmt")
        let version = try Tools.run(todofmt, ["--version"])
        #expect(version.status == 0 && version.stdout == "todofmt \(CLI.version)\n")
        let convert = try Tools.run(todofmt, ["convert", "--to", "yaml", "-"], stdin: "- [x] Milk\n")
        #expect(convert.status == 0 && convert.stdout == "- name: Milk\n  checked: true\n")

        // The page and the scripts are what todofmt prints, where man and the shells look.
        func read(_ path: String) throws -> String {
            try String(contentsOf: prefix.appendingPathComponent(path), encoding: .utf8)
        }
        #expect(try read(Self.installed[1]) == ManPage.text())
        for (shell, path) in zip([Shell.bash, .zsh, .fish], Self.installed[2...]) {
            #expect(try read(path) == shell.script(for: CLI.spec), "\(shell)")
        }
        let man = try Tools.run(
            try Tools.man(), ["-w", "todofmt"], environment: ["MANPATH": prefix.path + "/share/man"])
        #expect(man.stdout == prefix.path + "/share/man/man1/todofmt.1\n")
        // fish finds its script through XDG_DATA_DIRS (for a todofmt on PATH), zsh through fpath.
        let fish = try Tools.run(
            try Tools.path(of: "fish"), ["-c", "complete -C 'todofmt con'"],
            environment: [
                "XDG_DATA_DIRS": prefix.path + "/share",
                "PATH": prefix.path + "/bin:" + (ProcessInfo.processInfo.environment["PATH"] ?? ""),
                "XDG_CONFIG_HOME": ws.url.appendingPathComponent("config").path,
                "XDG_DATA_HOME": ws.url.appendingPathComponent("data").path,
            ])
        #expect(fish.stdout == "convert\tConvert a todo list from one format to another.\n" && fish.stderr == "")
        let zsh = try Tools.run(
            try Tools.path(of: "zsh"),
            [
                "-f", "-c",
                "fpath=(\(prefix.path)/share/zsh/site-functions $fpath); autoload -U compinit; compinit -u -D; print $_comps[todofmt]",
            ])
        #expect(zsh.stdout == "_todofmt\n" && zsh.stderr == "")

        // The manifest: each file with its checksum, then the folders the install made (not bin,
        // share, share/man nor share/man/man1, which were there).
        let manifest = try read(Self.manifest).split(separator: "\n")
        #expect(
            manifest.first
                == "# todofmt \(CLI.version) under \(prefix.path), by scripts/install.sh; 'scripts/install.sh --uninstall \(prefix.path)' removes it."
        )
        #expect(
            manifest.dropFirst().prefix(5).map { $0.split(separator: " ")[2] } == Self.installed.map { Substring($0) })
        #expect(
            manifest.dropFirst().prefix(5).allSatisfy {
                $0.hasPrefix("file ") && $0.split(separator: " ")[1].count == 64
            })
        #expect(
            Array(manifest.dropFirst(6)) == [
                "dir share/bash-completion", "dir share/bash-completion/completions", "dir share/zsh",
                "dir share/zsh/site-functions", "dir share/fish", "dir share/fish/vendor_completions.d",
                "dir share/todofmt",
            ])

        // Installing again replaces the same files and records the same.
        let installed = Self.tree(prefix)
        let again = try Self.install(["--binary", Run.executable.path, prefix.path])
        #expect(again.status == 0)
        #expect(Self.tree(prefix) == installed)

        let uninstall = try Self.install(["--uninstall", prefix.path])
        #expect(uninstall.status == 0 && uninstall.stderr == "")
        #expect(uninstall.stdout == Self.installed.map { "removed \(prefix.path)/\($0)\n" }.joined())
        #expect(Self.tree(prefix) == before)

        let nothing = try Self.install(["--uninstall", prefix.path])
        #expect(nothing.status == 1)
        #expect(nothing.stderr == "install.sh: nothing to uninstall: there is no \(prefix.path)/\(Self.manifest)\n")
    }

    @Test("a todofmt it did not install stops it before any change; uninstalling keeps a file changed since")
    func careful() throws {
        let ws = try Workspace([:])
        let prefix = try Self.prefix(in: ws)
        let theirs = prefix.appendingPathComponent("bin/todofmt")
        try "#!/bin/sh\n".write(to: theirs, atomically: false, encoding: .utf8)
        let before = Self.tree(prefix)
        let refused = try Self.install(["--binary", Run.executable.path, prefix.path])
        #expect(refused.status == 1 && refused.stdout == "")
        #expect(
            refused.stderr
                == "install.sh: \(theirs.path) is in the way: this script did not install it (remove it, or choose another prefix)\n"
        )
        #expect(Self.tree(prefix) == before)

        try FileManager.default.removeItem(at: theirs)
        #expect(try Self.install(["--binary", Run.executable.path, prefix.path]).status == 0)
        let page = prefix.appendingPathComponent(Self.installed[1])
        try "edited\n".write(to: page, atomically: false, encoding: .utf8)
        let uninstall = try Self.install(["--uninstall", prefix.path])
        #expect(uninstall.status == 0)
        #expect(uninstall.stderr == "install.sh: kept \(page.path): it changed since it was installed\n")
        #expect(
            Self.tree(prefix) == [
                "bin", "bin/other: someone else's\n", "share", "share/man", "share/man/man1",
                "share/man/man1/other.1: someone else's\n", "share/man/man1/todofmt.1: edited\n",
            ])
    }

    @Test("an unknown option is a usage error; --help prints the usage")
    func usage() throws {
        let wrong = try Self.install(["--bogus"])
        #expect(wrong.status == 64 && wrong.stdout == "")
        #expect(wrong.stderr.hasPrefix("install.sh: unknown option '--bogus'\nUsage: scripts/install.sh [PREFIX]"))
        let help = try Self.install(["--help"])
        #expect(
            help.status == 0 && help.stdout.hasPrefix("Usage: scripts/install.sh [PREFIX]")
                && help.stdout.contains("--uninstall"))
    }

    @Test("a prefix it made is removed with the rest")
    func newPrefix() throws {
        let ws = try Workspace([:])
        let prefix = ws.url.appendingPathComponent("new/prefix")
        #expect(try Self.install(["--binary", Run.executable.path, prefix.path]).status == 0)
        #expect(try Self.install(["--uninstall", prefix.path]).status == 0)
        #expect(Self.tree(ws.url) == ["new"])
    }
}
