/// A subcommand: what it accepts, as data, how that becomes checked options, and what it
/// does with them.
///
/// `CLI` parses the command line by `spec` and calls `options(from:)` before `run`, so a
/// mistake in any option is a usage error before any file is read or written.
protocol Command: SendableMetatype {
    /// Everything the command needs from its command line, checked.
    associatedtype Options

    /// The command's name, help, arguments and options.
    static var spec: CommandSpec { get }

    /// Turns a parsed command line into options, refusing any value the command cannot use.
    static func options(from arguments: Arguments) throws(UsageError) -> Options

    /// Does the command's work; the status is 0 or 1 (usage errors are found before).
    static func run(_ options: Options, terminal: Terminal) throws -> ExitCode

    /// The status when `run` throws (the extension's default: 1).
    static var errorStatus: ExitCode { get }
}

extension Command {
    /// The status when `run` throws: 1, or 2 for commands whose 1 means something else
    /// (diff: the files differ; merge: conflicts).
    static var errorStatus: ExitCode { .failure }
}
