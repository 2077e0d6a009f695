import TodoFormat

enum ConvertCommand: Command {
    struct Options {
        var input: String
        var output: String
        var from: DocumentFormat?
        var to: DocumentFormat?
        var list: ListOptions
        var strict: Bool
    }

    static let input = ArgumentSpec(name: "input", kind: .file, help: "The file to read, or - for standard input.")
    static let output = ArgumentSpec(
        name: "output", kind: .file, count: .optional,
        help: "The file to write, or - for standard output (the default). "
            + "It is written to a temporary file and renamed into place.")
    static let from = SharedOptions.from("The input's format. Default: from the extension, else from the content.")
    static let to = OptionSpec(
        name: "--to", value: .init(placeholder: "<format>", kind: .format),
        help: "The output's format. Default: an existing output file's, else the extension's, else md. "
            + "A new .plist is XML unless --to bplist.")
    static let strict = OptionSpec(
        name: "--strict",
        help: "Fail, writing nothing, when the output cannot hold everything the input has "
            + "(what would otherwise be a warning).")

    static let spec = CommandSpec(
        name: "convert",
        abstract: "Convert a todo list from one format to another.",
        discussion: [
            "Writing into an existing JSON or property list file replaces only the list: "
                + "other keys, the file's format and its item keys stay."
        ],
        arguments: [input, output],
        options: [from, to] + SharedOptions.list + [strict])

    static func options(from arguments: Arguments) throws(UsageError) -> Options {
        Options(
            input: arguments.value(of: input), output: arguments.values(of: output).first ?? "-",
            from: arguments.format(of: from), to: arguments.format(of: to), list: try arguments.listOptions(),
            strict: arguments.isSet(strict))
    }

    static func run(_ options: Options, terminal: Terminal) throws -> ExitCode {
        let conversion = Conversion(
            input: FileArguments.source(options.input), output: FileArguments.destination(options.output),
            inputFormat: options.from, outputFormat: options.to, options: options.list, strict: options.strict)
        for warning in try conversion.run() { terminal.warn(warning.description) }
        return .success
    }
}
