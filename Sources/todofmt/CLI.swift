/// The todofmt command: its subcommands and how a command line is dispatched to them.
enum CLI {
    static let version = "0.1.0"
    static let commands: [any Command.Type] = [ConvertCommand.self, FmtCommand.self, CheckCommand.self, ListCommand.self]

    static func command(named name: String) -> (any Command.Type)? {
        commands.first { $0.name == name }
    }

    static func run(_ arguments: [String], terminal: Terminal = Terminal()) -> ExitCode {
        guard let first = arguments.first else {
            terminal.printError("todofmt: error: missing command")
            terminal.printError("USAGE: todofmt <subcommand> [options] [files]")
            terminal.printError("See 'todofmt --help'.")
            return .usage
        }
        switch first {
        case "-h", "--help":
            terminal.print(HelpText.overview)
            return .success
        case "--version":
            terminal.print("todofmt \(version)")
            return .success
        case "help":
            return HelpText.run(Array(arguments.dropFirst()), terminal: terminal)
        default:
            break
        }
        guard let command = command(named: first) else {
            terminal.printError("todofmt: error: unknown command '\(first)'")
            terminal.printError("USAGE: todofmt <subcommand> [options] [files]")
            terminal.printError("See 'todofmt --help'.")
            return .usage
        }
        let rest = Array(arguments.dropFirst())
        if rest.contains("-h") || rest.contains("--help") {
            terminal.print(HelpText.help(for: command))
            return .success
        }
        do {
            let parsed = try Arguments(rest, valued: command.valuedOptions, flags: command.flagOptions)
            return try command.run(parsed, terminal: terminal)
        } catch let error as UsageError {
            terminal.printError("todofmt: error: \(error.message)")
            terminal.printError("USAGE: \(command.usage)")
            return .usage
        } catch {
            terminal.report(error)
            return .failure
        }
    }
}
