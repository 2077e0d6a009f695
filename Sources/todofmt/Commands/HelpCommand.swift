enum HelpCommand: Command {
    struct Options {
        /// The subcommand to describe; nil for todofmt itself.
        var subcommand: CommandSpec?
    }

    static let subcommand = ArgumentSpec(
        name: "subcommand", kind: .subcommand, count: .optional,
        help: "The subcommand to describe; without it, todofmt's own help.")

    static let spec = CommandSpec(
        name: "help",
        abstract: "Show help for a subcommand.",
        arguments: [subcommand])

    static func options(from arguments: Arguments) throws(UsageError) -> Options {
        // Parsing has refused names that are not subcommands.
        Options(subcommand: arguments.values(of: subcommand).first.flatMap { CLI.command(named: $0)?.spec })
    }

    static func run(_ options: Options, terminal: Terminal) throws -> ExitCode {
        if let subcommand = options.subcommand {
            terminal.print(Help.text(for: subcommand, under: CLI.spec))
        } else {
            terminal.print(Help.text(for: CLI.spec, under: nil))
        }
        return .success
    }
}
