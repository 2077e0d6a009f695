import TodoFormat

enum CheckCommand: Command {
    static let name = "check"
    static let summary = "Validate todo list files and report problems."
    static let usage = "todofmt check [--from <format>] <file> ..."
    static let details = """
        ARGUMENTS:
          <file>                  A todo list in any format todofmt reads, or - for standard input.

        OPTIONS:
          --from <format>         The files' format. Default: from each extension, else the content.
        \(Arguments.listOptionsHelp)

        Problems are printed as 'file:line:column: severity: message'. The exit status
        is 1 when any file has a problem.
        """
    static let valuedOptions: Set<String> = ["--from", "--key", "--field", "--table"]
    static let flagOptions: Set<String> = []

    static func run(_ arguments: Arguments, terminal: Terminal) throws -> ExitCode {
        guard !arguments.positionals.isEmpty else { throw UsageError(message: "missing file") }
        let format = try ConvertCommand.format(arguments.values["--from"])
        var result = ExitCode.success
        for path in arguments.positionals {
            do {
                for problem in try TodoDocument.problems(inFileAt: path, format: format, options: try arguments.listOptions()) {
                    terminal.printError(problem.description)
                    result = .failure
                }
            } catch {
                terminal.report(error)
                result = .failure
            }
        }
        return result
    }
}
