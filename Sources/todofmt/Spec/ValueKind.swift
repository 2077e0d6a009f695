import TodoFormat

/// What a value on the command line names: help lists the words it may be, parsing refuses
/// any other, and shell completions can offer files, format names or subcommands.
enum ValueKind: Hashable, Sendable {
    /// A path; `-` stands for standard input or output.
    case file
    /// A format name, as `--from` and `--to` take.
    case format
    /// The name of one of todofmt's subcommands.
    case subcommand
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
        case .file, .text: []
        }
    }

    /// Refuses a value that can never be of this kind, before any command runs.
    func check(_ value: String) throws(UsageError) {
        switch self {
        case .format where DocumentFormat(name: value) == nil:
            throw UsageError("unknown format '\(value)' (known: \(allowedValues.joined(separator: ", ")))")
        case .subcommand where CLI.command(named: value) == nil:
            throw UsageError("unknown command '\(value)'")
        default:
            break
        }
    }
}
