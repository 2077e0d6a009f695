import Foundation
import TodoFormat

enum ListCommand: Command {
    struct Options {
        var file: String
        var format: DocumentFormat?
        var list: ListOptions
        var query: ItemQuery
        var json: Bool
    }

    static let file = ArgumentSpec(
        name: "file", kind: .file, help: "A todo list in any format todofmt reads, or - for standard input.")
    static let from = SharedOptions.from("The file's format. Default: from the extension, else the content.")
    static let open = OptionSpec(name: "--open", help: "List open items ([ ]).")
    static let done = OptionSpec(name: "--done", help: "List done items ([x]).")
    static let status = OptionSpec(
        name: "--status", value: .init(placeholder: "<c>", kind: .text),
        help: "List items of this status, by its character: x, a space, / or any other. "
            + "--open, --done and --status together list items of any of their statuses.",
        repeats: true)
    static let section = OptionSpec(
        name: "--section", value: .init(placeholder: "<name>", kind: .text),
        help: "List the items of this section (the heading's text exactly), nested items too.")
    static let grep = OptionSpec(
        name: "--grep", value: .init(placeholder: "<text>", kind: .text),
        help: "List items whose name contains this text, ignoring case.")
    static let field = OptionSpec(
        name: "--field", value: .init(placeholder: "<key>=<value>", kind: .text),
        help:
            "List items whose field <key> has this value (written as set takes it: prio=2, due=2024-06-01T09:00:00Z). "
            + "A role name before = (\(SharedOptions.roles)) instead names the key that plays the role, "
            + "as in convert (--field name=ToDo).",
        repeats: true)
    static let limit = OptionSpec(
        name: "--limit", value: .init(placeholder: "<n>", kind: .text), help: "List at most n items.")
    static let offset = OptionSpec(
        name: "--offset", value: .init(placeholder: "<n>", kind: .text),
        help: "Skip the first n items the filters and the order give.")
    static let sort = OptionSpec(
        name: "--sort", value: .init(placeholder: "<keys>", kind: .text),
        help:
            "Order the items by keys, key[:desc],..., each ascending unless :desc: a field, or name, checked, status, position "
            + "(stuId:desc,name). Items without the field come last; ties keep document order. "
            + "Sorted items are listed flat, each with its own position.")
    static let format = OptionSpec(
        name: "--format", value: .init(placeholder: "<text|json>", kind: .text),
        help: "text (the default): a line an item; json: a JSON array of the items in the plain JSON shape, "
            + "each with its position under \"at\" and without its children.")

    static let spec = CommandSpec(
        name: "list",
        abstract: "Print the items of a todo list with their positions.",
        discussion: [
            "Each line is a position (1, 2, 2.1 for the first child of item 2), "
                + "the checkbox and the item's text with its fields, as in a checklist.",
            "Filters combine: an item is listed when it passes each one given. "
                + "A listed item keeps its position in the file, whatever is left out around it, "
                + "so it can be given to done, mv and the other editing commands.",
        ],
        arguments: [file],
        options: [from, open, done, status, section, grep, field, limit, offset, sort, format]
            + [SharedOptions.key, SharedOptions.table, SharedOptions.entity])

    /// A `--field` that names a role (`name=ToDo`) rather than filters (`prio=2`).
    static func isRole(_ pair: String) -> Bool {
        guard let equals = pair.firstIndex(of: "=") else { return true }
        return ItemRole(rawValue: pair[..<equals].lowercased()) != nil
    }

    static func options(from arguments: Arguments) throws(UsageError) -> Options {
        var query = ItemQuery()
        if arguments.isSet(open) { query.statuses.insert(.open) }
        if arguments.isSet(done) { query.statuses.insert(.done) }
        for c in arguments.values(of: status) {
            guard c.unicodeScalars.count == 1, let scalar = c.unicodeScalars.first else {
                throw UsageError("--status takes one character (x, /, -), not '\(c)'")
            }
            query.statuses.insert(TodoStatus(marker: scalar))
        }
        query.section = arguments.value(of: section)
        query.grep = arguments.value(of: grep)
        for pair in arguments.values(of: field) where !isRole(pair) {
            let equals = pair.firstIndex(of: "=")!
            query.fields.append((String(pair[..<equals]), String(pair[pair.index(after: equals)...])))
        }
        func count(_ option: OptionSpec) throws(UsageError) -> Int? {
            guard let text = arguments.value(of: option) else { return nil }
            guard let n = Int(text), n >= 0 else {
                throw UsageError("\(option.name) takes a number of items, not '\(text)'")
            }
            return n
        }
        query.limit = try count(limit)
        query.offset = try count(offset) ?? 0
        if let keys = arguments.value(of: sort) {
            for part in keys.split(separator: ",", omittingEmptySubsequences: false) {
                var key = String(part)
                var descending = false
                if key.hasSuffix(":desc") {
                    key.removeLast(5)
                    descending = true
                } else if key.hasSuffix(":asc") {
                    key.removeLast(4)
                }
                guard !key.isEmpty else { throw UsageError("--sort takes <key>[:desc],..., not '\(keys)'") }
                query.sort.append((key, descending))
            }
        }
        let json: Bool
        switch arguments.value(of: format) {
        case nil, "text"?: json = false
        case "json"?: json = true
        case let other?: throw UsageError("--format takes text or json, not '\(other)'")
        }
        return Options(
            file: arguments.value(of: file), format: arguments.format(of: from),
            list: try arguments.listOptions(skipping: { !isRole($0) }),
            query: query, json: json)
    }

    static func run(_ options: Options, terminal: Terminal) throws -> ExitCode {
        if options.file == "-" {
            try options.query.print(
                file: nil, bytes: FileArguments.standardInput(), format: options.format, options: options.list,
                json: options.json,
                to: terminal.out)
        } else {
            try options.query.print(
                file: URL(fileURLWithPath: options.file), format: options.format, options: options.list,
                json: options.json,
                to: terminal.out)
        }
        return .success
    }
}
