enum HelpCommand: Command {
    struct Options {
        /// The subcommand to describe; nil for todofmt itself.
        var subcommand: CommandSpec?
        /// Whether to print the man page instead.
        var manual: Bool
    }

    static let subcommand = ArgumentSpec(
        name: "subcommand", kind: .subcommand, count: .optional,
        help: "The subcommand to describe; without it, todofmt's own help.")
    static let man = OptionSpec(
        name: "--man",
        help: "Print the man page todofmt(1), in roff, instead of help (read it with 'man -l -').")

    static let spec = CommandSpec(
        name: "help",
        abstract: "Show help for a subcommand.",
        arguments: [subcommand],
        options: [man])

    static func options(from arguments: Arguments) throws(UsageError) -> Options {
        // Parsing has refused names that are not subcommands.
        let subcommand = arguments.values(of: subcommand).first.flatMap { CLI.command(named: $0)?.spec }
        if arguments.isSet(man), let subcommand {
            throw UsageError("--man prints the whole manual; leave out '\(subcommand.name)'")
        }
        return Options(subcommand: subcommand, manual: arguments.isSet(man))
    }

    static func run(_ options: Options, terminal: Terminal) throws -> ExitCode {
        if options.manual {
            terminal.write(ManPage.text())
        } else if let subcommand = options.subcommand {
            terminal.print(Help.text(for: subcommand, under: CLI.spec))
        } else {
            terminal.print(Help.text(for: CLI.spec, under: nil))
        }
        return .success
    }
}
