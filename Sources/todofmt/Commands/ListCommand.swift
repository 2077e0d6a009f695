import TodoFormat

enum ListCommand: Command {
    struct Options {
        var file: String
        var format: DocumentFormat?
        var list: ListOptions
    }

    static let file = ArgumentSpec(
        name: "file", kind: .file, help: "A todo list in any format todofmt reads, or - for standard input.")
    static let from = SharedOptions.from("The file's format. Default: from the extension, else the content.")

    static let spec = CommandSpec(
        name: "list",
        abstract: "Print the items of a todo list with their positions.",
        discussion: [
            "Each line is a position (1, 2, 2.1 for the first child of item 2), "
                + "the checkbox and the item's text with its fields, as in a checklist."
        ],
        arguments: [file],
        options: [from] + SharedOptions.list)

    static func options(from arguments: Arguments) throws(UsageError) -> Options {
        Options(file: arguments.value(of: file), format: arguments.format(of: from), list: try arguments.listOptions())
    }

    static func run(_ options: Options, terminal: Terminal) throws -> ExitCode {
        let list = try FileArguments.list(options.file, format: options.format, options: options.list)
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
