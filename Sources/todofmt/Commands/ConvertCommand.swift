import TodoFormat

enum ConvertCommand: Command {
    static let name = "convert"
    static let summary = "Convert a todo list from one format to another."
    static let usage = "todofmt convert [--from <format>] [--to <format>] <input> [<output>]"
    static var details: String {
        let formats = DocumentFormat.allCases.map(\.rawValue).joined(separator: ", ")
        return """
            ARGUMENTS:
              <input>                 The file to read, or - for standard input.
              <output>                The file to write, or - for standard output (the default).
                                      It is written to a temporary file and renamed into place.

            OPTIONS:
              --from <format>         The input's format (\(formats)).
                                      Default: from the extension, else from the content.
              --to <format>           The output's format. Default: an existing output file's,
                                      else the extension's, else md. A new .plist is XML
                                      unless --to bplist.
            \(Arguments.listOptionsHelp)

            Writing into an existing JSON or property list file replaces only the list:
            other keys, the file's format and its item keys stay.
            """
    }
    static let valuedOptions: Set<String> = ["--from", "--to", "--key", "--field", "--table"]
    static let flagOptions: Set<String> = []

    static func run(_ arguments: Arguments, terminal: Terminal) throws -> ExitCode {
        guard (1...2).contains(arguments.positionals.count) else {
            throw UsageError(message: arguments.positionals.isEmpty ? "missing input file" : "too many files")
        }
        var conversion = Conversion(
            input: arguments.positionals[0], output: arguments.positionals.count > 1 ? arguments.positionals[1] : "-",
            options: try arguments.listOptions())
        conversion.from = try format(arguments.values["--from"])
        conversion.to = try format(arguments.values["--to"])
        for warning in try conversion.run() { terminal.warn(warning) }
        return .success
    }

    static func format(_ name: String?) throws(UsageError) -> DocumentFormat? {
        guard let name else { return nil }
        guard let format = DocumentFormat(name: name) else {
            let known = DocumentFormat.allCases.map(\.rawValue).joined(separator: ", ")
            throw UsageError(message: "unknown format '\(name)' (known: \(known))")
        }
        return format
    }
}
