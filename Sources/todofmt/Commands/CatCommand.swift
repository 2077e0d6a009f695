import TodoFormat

/// `todofmt cat FILE`: any todo list as a checklist on standard output, which is what git's
/// `textconv` needs to show a binary property list or a database as lines.
enum CatCommand: Command {
    struct Options {
        var file: String
        var format: DocumentFormat?
        var list: ListOptions
    }

    static let file = ArgumentSpec(
        name: "file", kind: .file, help: "A todo list in any format todofmt reads, or - for standard input.")
    static let from = SharedOptions.from("The file's format. Default: from the content, else the extension.")

    static let spec = CommandSpec(
        name: "cat",
        abstract: "Print a todo list in any format as a Markdown checklist.",
        discussion: [
            "A checklist is printed as it is, byte for byte; any other file as the checklist "
                + "convert would write. As git's textconv (diff.todofmt.textconv = todofmt cat), "
                + "git diff and git log -p show binary property lists and databases as checklist lines."
        ],
        arguments: [file],
        options: [from] + SharedOptions.list)

    static func options(from arguments: Arguments) throws(UsageError) -> Options {
        Options(file: arguments.value(of: file), format: arguments.format(of: from), list: try arguments.listOptions())
    }

    static func run(_ options: Options, terminal: Terminal) throws -> ExitCode {
        let warnings = try ChecklistText.print(
            FileArguments.source(options.file), format: options.format, options: options.list)
        for warning in warnings { terminal.warn(warning.description) }
        return .success
    }
}
