import TodoFormat

/// What a value on the command line names: help lists the words it may be, parsing refuses
/// any other, and shell completions can offer files, format names or subcommands.
enum ValueKind: Hashable, Sendable, CaseIterable {
    /// A path; `-` stands for standard input or output.
    case file
    /// A format name, as `--from` and `--to` take.
    case format
    /// The name of one of todofmt's subcommands.
    case subcommand
    /// The name of a shell todofmt completes command lines in.
    case shell
    /// Any text, such as a key, a table or `ROLE=KEY`; the command checks it.
    case text

    /// The words a value may be, in the order help lists them; empty when any text goes.
    ///
    /// For formats these are the canonical names; parsing also takes the aliases
    /// `DocumentFormat(name:)` knows (`markdown`, `yml`…), which help leaves out.
    var allowedValues: [String] {
        switch self {
        case .format: DocumentFormat.allCases.map(\.rawValue)
        case .subcommand: CLI.commands.map { $0.spec.name }
        case .shell: Shell.allCases.map(\.rawValue)
        case .file, .text: []
        }
    }

    /// Every word a value may be, aliases too (`markdown`, `yml`…), as shells complete them.
    var completions: [String] {
        switch self {
        case .format: DocumentFormat.allCases.flatMap { [$0.rawValue] + $0.aliases }
        default: allowedValues
        }
    }

    /// Refuses a value that can never be of this kind, before any command runs.
    func check(_ value: String) throws(UsageError) {
        switch self {
        case .format where DocumentFormat(name: value) == nil:
            throw UsageError("unknown format '\(value)' (known: \(allowedValues.joined(separator: ", ")))")
        case .subcommand where CLI.command(named: value) == nil:
            throw UsageError("unknown command '\(value)'")
        case .shell where Shell(rawValue: value) == nil:
            throw UsageError("unknown shell '\(value)' (known: \(allowedValues.joined(separator: ", ")))")
        default:
            break
        }
    }
}
