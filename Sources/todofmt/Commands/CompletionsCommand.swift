enum CompletionsCommand: Command {
    struct Options {
        var shell: Shell
    }

    static let shell = ArgumentSpec(
        name: "shell", kind: .shell, help: "The shell to complete todofmt's command lines in.")

    static let spec = CommandSpec(
        name: "completions",
        abstract: "Print a completion script for bash, zsh or fish.",
        discussion: [
            "Load it into the running shell with 'source <(todofmt completions bash)' (zsh alike; fish: "
                + "'todofmt completions fish | source'), or save it where the shell looks for completions: "
                + "as todofmt in bash-completion's completions folder, as _todofmt in a folder of zsh's fpath, "
                + "as todofmt.fish in a fish completions folder."
        ],
        arguments: [shell])

    static func options(from arguments: Arguments) throws(UsageError) -> Options {
        // Parsing has refused names that are not shells.
        let name = arguments.value(of: shell)
        guard let shell = Shell(rawValue: name) else { throw UsageError("unknown shell '\(name)'") }
        return Options(shell: shell)
    }

    static func run(_ options: Options, terminal: Terminal) throws -> ExitCode {
        terminal.write(options.shell.script(for: CLI.spec))
        return .success
    }
}
