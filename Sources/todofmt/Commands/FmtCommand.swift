import TodoFormat

enum FmtCommand: Command {
    static let name = "fmt"
    static let summary = "Rewrite checklists in canonical form."
    static let usage = "todofmt fmt [--check] <file> ..."
    static let details = """
        ARGUMENTS:
          <file>                  A Markdown checklist, or - to format standard input to
                                  standard output.

        OPTIONS:
          --check                 Change nothing; print the files that are not in canonical
                                  form and exit 1 if there are any.
        """
    static let valuedOptions: Set<String> = []
    static let flagOptions: Set<String> = ["--check"]

    static func run(_ arguments: Arguments, terminal: Terminal) throws -> ExitCode {
        guard !arguments.positionals.isEmpty else { throw UsageError(message: "missing file") }
        let checkOnly = arguments.flags.contains("--check")
        var result = ExitCode.success
        for path in arguments.positionals {
            if let format = DocumentFormat(path: path), format != .markdown {
                terminal.printError("todofmt: error: \(path): fmt formats checklists, and this is \(format.rawValue); convert it instead")
                result = .failure
                continue
            }
            do {
                let document = try TodoDocument(contentsOf: path)
                let formatted = try document.formatted()
                if path == "-" && !checkOnly {
                    try formatted.write(to: "-")
                } else if formatted.text != document.text {
                    if checkOnly {
                        terminal.print(path)
                        result = .failure
                    } else {
                        try formatted.write(to: path)
                    }
                }
            } catch {
                terminal.report(error)
                result = .failure
            }
        }
        return result
    }
}
