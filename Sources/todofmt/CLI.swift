import Foundation
import TodoFormat

/// How the process ends: 0 success, 1 failure, 64 a bad command line (sysexits' EX_USAGE).
enum ExitCode: Int32 {
    case success = 0
    case failure = 1
    case usage = 64
}

/// Where a command's output goes; tests pass the descriptors of temporary files.
struct Terminal {
    var out: Int32 = 1
    var err: Int32 = 2

    func print(_ text: String) { write(text + "\n", to: out) }
    func printError(_ text: String) { write(text + "\n", to: err) }

    private func write(_ text: String, to fd: Int32) {
        var text = text
        text.withUTF8 { bytes in
            var done = 0
            while done < bytes.count {
                let n = Foundation.write(fd, bytes.baseAddress! + done, bytes.count - done)
                if n <= 0 { return }
                done += n
            }
        }
    }

    /// Reports an error: `path:line:col: error: message` when it has a place, else `todofmt: error: message`.
    func report(_ error: Error) {
        if let error = error as? ParseError {
            printError(error.description)
        } else if let error = error as? StoreError, let line = error.location?.line, line > 0 {
            // A dump's statement has a line: the description starts with it.
            printError(error.description)
        } else if let error = error as? ConversionError {
            printError("todofmt: error: \(error.description)")
        } else {
            printError("todofmt: error: \(error.localizedDescription)")
        }
    }

    func warn(_ message: String) { printError("todofmt: warning: \(message)") }
}

/// A command-line mistake, reported with the command's usage line.
struct UsageError: Error {
    var message: String
}

/// The arguments of one command: options may stand before or after the files.
struct Arguments {
    var positionals: [String] = []
    var values: [String: String] = [:]
    /// Every value of each valued option, for options that may repeat (`--field`).
    var allValues: [String: [String]] = [:]
    var flags: Set<String> = []

    /// Splits `arguments` by the command's options; `--` ends the options, `-` is a file.
    init(_ arguments: [String], valued: Set<String>, flags known: Set<String>) throws(UsageError) {
        var i = 0
        var onlyFiles = false
        while i < arguments.count {
            let argument = arguments[i]
            i += 1
            if onlyFiles || argument == "-" || !argument.hasPrefix("-") {
                positionals.append(argument)
                continue
            }
            if argument == "--" {
                onlyFiles = true
                continue
            }
            var name = argument
            var inlineValue: String? = nil
            if let equals = argument.firstIndex(of: "=") {
                name = String(argument[..<equals])
                inlineValue = String(argument[argument.index(after: equals)...])
            }
            if valued.contains(name) {
                let value: String
                if let inlineValue {
                    value = inlineValue
                } else {
                    guard i < arguments.count else { throw UsageError(message: "missing value for '\(name)'") }
                    value = arguments[i]
                    i += 1
                }
                values[name] = value
                allValues[name, default: []].append(value)
            } else if known.contains(name) && inlineValue == nil {
                flags.insert(name)
            } else {
                throw UsageError(message: "unknown option '\(argument)'")
            }
        }
    }
}

extension Arguments {
    /// `--key` and `--field ROLE=KEY` as list options.
    func listOptions() throws(UsageError) -> ListOptions {
        var roles: [ItemRole: String] = [:]
        for spec in allValues["--field"] ?? [] {
            let parts = spec.split(separator: "=", maxSplits: 1).map(String.init)
            let known = ItemRole.allCases.map(\.rawValue).joined(separator: ", ")
            guard parts.count == 2, let role = ItemRole(rawValue: parts[0].lowercased()), !parts[1].isEmpty else {
                throw UsageError(message: "--field takes ROLE=KEY with a role among \(known), not '\(spec)'")
            }
            roles[role] = parts[1]
        }
        return ListOptions(
            key: values["--key"], schema: roles.isEmpty ? .standard : ItemSchema(naming: roles), table: values["--table"])
    }

    /// The help lines of `--key` and `--field`.
    static let listOptionsHelp = """
          --key <key>             The key of a dictionary root (a UserDefaults file, a JSON
                                  object) that holds the list. Default: the one key that does.
          --table <table>         The table of a database that holds the list. Default:
                                  todofmt's own, else the one with a name column.
          --field <role>=<key>    The key (or column) that plays a role in items, for
                                  schemas todofmt does not know (roles: name, checked,
                                  status, section, children, fields, order). May repeat.
        """
}

/// A subcommand: its help text and what it does.
protocol Command: SendableMetatype {
    static var name: String { get }
    static var summary: String { get }
    static var usage: String { get }
    /// The ARGUMENTS and OPTIONS sections of its help.
    static var details: String { get }
    static var valuedOptions: Set<String> { get }
    static var flagOptions: Set<String> { get }
    static func run(_ arguments: Arguments, terminal: Terminal) throws -> ExitCode
}

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
