/// The todofmt command: its subcommands, and how a command line reaches one of them.
enum CLI {
    static let name = "todofmt"
    /// Every subcommand, in the order help lists them.
    static let commands: [any Command.Type] = [
        ConvertCommand.self, FmtCommand.self, CheckCommand.self, ListCommand.self,
        AddCommand.self, DoneCommand.self, UndoCommand.self, ToggleCommand.self, RenameCommand.self, RemoveCommand.self,
        MoveCommand.self, SetCommand.self, UnsetCommand.self,
        CatCommand.self, DiffCommand.self, MergeCommand.self,
        CompletionsCommand.self, HelpCommand.self,
    ]
    /// todofmt itself as data: its options and its subcommands'.
    static let spec = CommandSpec(
        name: name,
        abstract: "Read, write and convert todo lists kept as Markdown checklists.",
        discussion: [
            "Options may stand before or after the files; after -- every argument is a file. "
                + "A file named - is standard input or output."
        ],
        options: [.version],
        subcommands: commands.map { $0.spec })

    static func command(named name: String) -> (any Command.Type)? {
        commands.first { $0.spec.name == name }
    }

    /// Runs a command line (without the program's name) and says how the process should end.
    static func run(_ arguments: [String], terminal: Terminal = Terminal()) -> ExitCode {
        guard let first = arguments.first else {
            return usageError(UsageError("missing command"), terminal: terminal)
        }
        if first.hasPrefix("-") && first != "-" {
            return runOwnOptions(arguments, terminal: terminal)
        }
        guard let command = command(named: first) else {
            return usageError(UsageError("unknown command '\(first)'"), terminal: terminal)
        }
        return run(command, Array(arguments.dropFirst()), terminal: terminal)
    }

    /// Parses and checks the whole command line, then runs the command.
    private static func run<C: Command>(_ command: C.Type, _ arguments: [String], terminal: Terminal) -> ExitCode {
        let options: C.Options
        do throws(UsageError) {
            let parsed = try Arguments(parsing: arguments, for: C.spec)
            if parsed.wantsHelp {
                terminal.print(Help.text(for: C.spec, under: spec))
                return .success
            }
            options = try C.options(from: parsed)
        } catch {
            terminal.reportUsage(error, usage: Help.usage(of: C.spec, under: spec))
            return .usage
        }
        do {
            return try C.run(options, terminal: terminal)
        } catch {
            terminal.report(error)
            return C.errorStatus
        }
    }

    /// `todofmt --help`, `todofmt --version`.
    private static func runOwnOptions(_ arguments: [String], terminal: Terminal) -> ExitCode {
        let parsed: Arguments
        do throws(UsageError) {
            parsed = try Arguments(parsing: arguments, for: spec)
        } catch {
            return usageError(error, terminal: terminal)
        }
        if parsed.wantsHelp {
            terminal.print(Help.text(for: spec, under: nil))
        } else if parsed.isSet(.version) {
            terminal.print("\(name) \(version)")
        } else {
            return usageError(UsageError("missing command"), terminal: terminal)
        }
        return .success
    }

    /// A mistake before any subcommand: the usage line, and where to read more.
    private static func usageError(_ error: UsageError, terminal: Terminal) -> ExitCode {
        terminal.reportUsage(error, usage: Help.usage(of: spec, under: nil))
        terminal.printError("See '\(name) --help'.")
        return .usage
    }
}
