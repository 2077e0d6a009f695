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
