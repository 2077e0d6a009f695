/// The help texts of todofmt and its subcommands.
enum HelpText {
    static var overview: String {
        var text = """
            OVERVIEW: Read, write and convert todo lists kept as Markdown checklists.

            USAGE: todofmt <subcommand> [options] [files]

            OPTIONS:
              -h, --help              Show help information.
              --version               Show the version.

            SUBCOMMANDS:

            """
        for command in CLI.commands {
            text += "  " + command.name.padding(toLength: 22, withPad: " ", startingAt: 0) + command.summary + "\n"
        }
        text += "  " + "help".padding(toLength: 22, withPad: " ", startingAt: 0) + "Show help for a subcommand.\n"
        text += "\n  See 'todofmt help <subcommand>' for detailed help."
        return text
    }

    static func help(for command: any Command.Type) -> String {
        """
        OVERVIEW: \(command.summary)

        USAGE: \(command.usage)

        \(command.details)
          -h, --help              Show help information.
        """
    }

    static func run(_ arguments: [String], terminal: Terminal) -> ExitCode {
        guard let name = arguments.first else {
            terminal.print(overview)
            return .success
        }
        guard let command = CLI.command(named: name) else {
            terminal.printError("todofmt: error: unknown command '\(name)'")
            terminal.printError("USAGE: todofmt help <subcommand>")
            return .usage
        }
        terminal.print(help(for: command))
        return .success
    }
}
