import TodoFormat

enum ListCommand: Command {
    static let name = "list"
    static let summary = "Print the items of a todo list with their positions."
    static let usage = "todofmt list [--from <format>] <file>"
    static let details = """
        ARGUMENTS:
          <file>                  A todo list in any format todofmt reads, or - for standard input.

        OPTIONS:
          --from <format>         The file's format. Default: from the extension, else the content.
        \(Arguments.listOptionsHelp)

        Each line is a position (1, 2, 2.1 for the first child of item 2), the
        checkbox and the item's text with its fields, as in a checklist.
        """
    static let valuedOptions: Set<String> = ["--from", "--key", "--field", "--table"]
    static let flagOptions: Set<String> = []

    static func run(_ arguments: Arguments, terminal: Terminal) throws -> ExitCode {
        guard arguments.positionals.count == 1 else {
            throw UsageError(message: arguments.positionals.isEmpty ? "missing file" : "too many files")
        }
        let list = try TodoList(
            contentsOf: arguments.positionals[0], format: try ConvertCommand.format(arguments.values["--from"]),
            options: try arguments.listOptions())
        var lines: [String] = []
        func walk(_ items: [TodoItem], prefix: String) {
            for (index, item) in items.enumerated() {
                let position = prefix + String(index + 1)
                lines.append(position + " " + item.checklistText)
                walk(item.children, prefix: position + ".")
            }
        }
        walk(list.items, prefix: "")
        if !lines.isEmpty { terminal.print(lines.joined(separator: "\n")) }
        return .success
    }
}
