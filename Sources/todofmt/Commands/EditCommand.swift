import Foundation
import TodoFormat

/// What the editing commands (`add`, `done`, `undo`, `toggle`, `rename`, `rm`, `mv`, `set`,
/// `unset`) share: the file, how items are named, `--dry-run`, the list options, and the run.
enum EditCommand {
    /// The options every editing command has, after its own edit is parsed.
    struct Options {
        var file: String
        var edit: Edit
        var list: ListOptions
        var dryRun: Bool
        var strict: Bool
    }

    static let file = ArgumentSpec(
        name: "file", kind: .file,
        help:
            "The todo list to edit, in any format todofmt reads (md, yaml, json, plist, bplist, sqlite, sql, a Core Data store). "
            + "It is written back in place, changing only the edited items.")

    static func item(_ name: String = "item", count: ArgumentSpec.Count = .one, help: String? = nil) -> ArgumentSpec {
        ArgumentSpec(
            name: name, kind: .text, count: count,
            help: help ?? "An item: its position as list prints it (3, 3.2), or its exact name. "
                + "A name that several items have is an error that lists them.")
    }

    static let dryRun = OptionSpec(
        name: "--dry-run",
        help: "Write nothing; print what would change: a unified diff for a text file, "
            + "the rows before (-) and after (+) for a database, the items as list prints them for a binary property list."
    )

    static let strict = OptionSpec(
        name: "--strict",
        help: "Fail, writing nothing, when the file cannot take the edit as the app would write it "
            + "(what would otherwise be a warning, such as a key todofmt had to choose).")

    /// `--dry-run`, `--strict` and the options that find a list in any file.
    static let options = [dryRun, strict] + SharedOptions.list

    /// How the editing commands' help ends: what their positions mean.
    static let positionsHelp =
        "An item is named by its position as list prints it (3, 3.2) or by its exact name; a text of digits and dots is always a position."

    /// The edit's common options.
    static func options(_ arguments: Arguments, _ edit: Edit) throws(UsageError) -> Options {
        Options(
            file: arguments.value(of: file), edit: edit, list: try arguments.listOptions(),
            dryRun: arguments.isSet(dryRun), strict: arguments.isSet(strict))
    }

    /// A position argument (`3`, `3.2`).
    static func position(_ text: String, of what: String) throws(UsageError) -> [Int] {
        guard let path = ItemAddress.path(text) else {
            throw UsageError("\(what) takes a position such as 3 or 3.2, not '\(text)'")
        }
        return path
    }

    static func run(_ options: Options, terminal: Terminal) throws -> ExitCode {
        guard options.file != "-" else { throw ConversionError.unsupported("an edit needs a file, not standard input") }
        var edit = FileEdit(
            file: URL(fileURLWithPath: options.file), edits: [options.edit], options: options.list,
            dryRun: options.dryRun)
        edit.strict = options.strict
        let result = try edit.run()
        for warning in result.warnings { terminal.warn(warning.description) }
        if options.dryRun && !result.changes.isEmpty { terminal.write(result.changes) }
        return .success
    }
}

enum AddCommand: Command {
    static let name = ArgumentSpec(
        name: "name", kind: .text, help: "The new item's name (taken as it is: brackets stay text).")
    static let under = OptionSpec(
        name: "--under", value: .init(placeholder: "<item>", kind: .text),
        help: "Add the item inside this item (a position or a name), as its last child unless --at.")
    static let at = OptionSpec(
        name: "--at", value: .init(placeholder: "<position>", kind: .text),
        help:
            "Where the new item goes: the position list then prints for it (1 is first, 2.1 the first child of item 2); "
            + "with --under, the child's number (1 is the first child). Default: after the last.")

    static let spec = CommandSpec(
        name: "add",
        abstract: "Add an item to a todo list.",
        discussion: ["The item is open and takes the style of its neighbours. " + EditCommand.positionsHelp],
        arguments: [EditCommand.file, name],
        options: [under, at] + EditCommand.options)

    static func options(from arguments: Arguments) throws(UsageError) -> EditCommand.Options {
        let position = try arguments.value(of: at).map { text throws(UsageError) in
            try EditCommand.position(text, of: "--at")
        }
        if arguments.isSet(under), let position, position.count != 1 {
            throw UsageError(
                "--at under an item takes the child's number (1, 2…), not '\(arguments.value(of: at) ?? "")'")
        }
        let edit = Edit.add(
            name: arguments.value(of: name), under: arguments.value(of: under).map(ItemAddress.init), at: position)
        return try EditCommand.options(arguments, edit)
    }

    static func run(_ options: EditCommand.Options, terminal: Terminal) throws -> ExitCode {
        try EditCommand.run(options, terminal: terminal)
    }
}

/// `done`, `undo` and `toggle`: the status of one or more items.
protocol StatusCommand: Command where Options == EditCommand.Options {
    static func edit(_ items: [ItemAddress]) -> Edit
}

extension StatusCommand {
    static var items: ArgumentSpec {
        EditCommand.item(
            "item", count: .oneOrMore, help: "The items: positions as list prints them (3, 3.2), or exact names.")
    }

    static func options(from arguments: Arguments) throws(UsageError) -> EditCommand.Options {
        try EditCommand.options(arguments, edit(arguments.values(of: items).map(ItemAddress.init)))
    }

    static func run(_ options: EditCommand.Options, terminal: Terminal) throws -> ExitCode {
        try EditCommand.run(options, terminal: terminal)
    }

    static func makeSpec(_ name: String, _ abstract: String, _ more: String) -> CommandSpec {
        CommandSpec(
            name: name, abstract: abstract, discussion: [more + " " + EditCommand.positionsHelp],
            arguments: [EditCommand.file, items], options: EditCommand.options)
    }
}

enum DoneCommand: StatusCommand {
    typealias Options = EditCommand.Options
    static func edit(_ items: [ItemAddress]) -> Edit { .check(items) }
    static let spec = makeSpec(
        "done", "Check items: mark them done.", "In a checklist only each item's box changes ([ ] to [x]).")
}

enum UndoCommand: StatusCommand {
    typealias Options = EditCommand.Options
    static func edit(_ items: [ItemAddress]) -> Edit { .uncheck(items) }
    static let spec = makeSpec(
        "undo", "Uncheck items: mark them open.", "A done item or one of a custom status ([/]) becomes open ([ ]).")
}

enum ToggleCommand: StatusCommand {
    typealias Options = EditCommand.Options
    static func edit(_ items: [ItemAddress]) -> Edit { .toggle(items) }
    static let spec = makeSpec(
        "toggle", "Toggle items between done and open.",
        "A done item becomes open; an open one, or one of a custom status, done.")
}

enum RemoveCommand: StatusCommand {
    typealias Options = EditCommand.Options
    static func edit(_ items: [ItemAddress]) -> Edit { .remove(items) }
    static let spec = makeSpec(
        "rm", "Remove items, with the items nested in them.",
        "Every item is found before any goes, so positions name items as list printed them.")
}

enum RenameCommand: Command {
    static let name = ArgumentSpec(name: "name", kind: .text, help: "The item's new name.")
    static let item = EditCommand.item()
    static let spec = CommandSpec(
        name: "rename",
        abstract: "Rename an item.",
        discussion: ["Its status, fields and nested items stay. " + EditCommand.positionsHelp],
        arguments: [EditCommand.file, item, name],
        options: EditCommand.options)

    static func options(from arguments: Arguments) throws(UsageError) -> EditCommand.Options {
        try EditCommand.options(
            arguments, .rename(ItemAddress(arguments.value(of: item)), to: arguments.value(of: name)))
    }

    static func run(_ options: EditCommand.Options, terminal: Terminal) throws -> ExitCode {
        try EditCommand.run(options, terminal: terminal)
    }
}

enum MoveCommand: Command {
    static let item = EditCommand.item()
    static let position = ArgumentSpec(
        name: "position", kind: .text,
        help:
            "Where the item goes: the position list prints for it afterwards (1 is first; 2.1 makes it the first child of item 2, "
            + "counted without the moved item; one past the last child of an item appends to it).")
    static let spec = CommandSpec(
        name: "mv",
        abstract: "Move an item, with the items nested in it.",
        discussion: [
            "In a checklist the item's lines move (re-indented when its depth changes). " + EditCommand.positionsHelp
        ],
        arguments: [EditCommand.file, item, position],
        options: EditCommand.options)

    static func options(from arguments: Arguments) throws(UsageError) -> EditCommand.Options {
        let to = try EditCommand.position(arguments.value(of: position), of: "mv")
        return try EditCommand.options(arguments, .move(ItemAddress(arguments.value(of: item)), to: to))
    }

    static func run(_ options: EditCommand.Options, terminal: Terminal) throws -> ExitCode {
        try EditCommand.run(options, terminal: terminal)
    }
}

enum SetCommand: Command {
    static let item = EditCommand.item()
    static let pairs = ArgumentSpec(
        name: "key=value", kind: .text, count: .oneOrMore,
        help: "A field and its value, written as in a checklist's [key:: value]: 2 is an integer, true a boolean, "
            + "2024-06-01T09:00:00Z a date, \"7\" a string, [1, 2] an array; anything else is the text as it stands.")
    static let spec = CommandSpec(
        name: "set",
        abstract: "Set fields of an item.",
        discussion: [
            "A field the item has keeps its place and takes the new value; a new one is added after its fields. "
                + "The name and status are not fields: use rename, done and undo. " + EditCommand.positionsHelp
        ],
        arguments: [EditCommand.file, item, pairs],
        options: EditCommand.options)

    static func options(from arguments: Arguments) throws(UsageError) -> EditCommand.Options {
        var fields: [Field] = []
        for pair in arguments.values(of: pairs) {
            guard let equals = pair.firstIndex(of: "="), equals != pair.startIndex else {
                throw UsageError("set takes <key>=<value>, not '\(pair)'")
            }
            let key = String(pair[..<equals])
            let text = String(pair[pair.index(after: equals)...])
            do {
                // A section is checked once the item is known (a nested item's is a field).
                try Edit.checkField(key, nested: true)
                fields.append(Field(key, try Edit.fieldValue(text)))
            } catch {
                throw UsageError(String(describing: error))
            }
        }
        return try EditCommand.options(arguments, .set(ItemAddress(arguments.value(of: item)), fields))
    }

    static func run(_ options: EditCommand.Options, terminal: Terminal) throws -> ExitCode {
        try EditCommand.run(options, terminal: terminal)
    }
}

enum UnsetCommand: Command {
    static let item = EditCommand.item()
    static let keys = ArgumentSpec(
        name: "key", kind: .text, count: .oneOrMore, help: "The keys of the fields to remove.")
    static let spec = CommandSpec(
        name: "unset",
        abstract: "Remove fields of an item.",
        discussion: ["A key the item does not have is no error. " + EditCommand.positionsHelp],
        arguments: [EditCommand.file, item, keys],
        options: EditCommand.options)

    static func options(from arguments: Arguments) throws(UsageError) -> EditCommand.Options {
        try EditCommand.options(arguments, .unset(ItemAddress(arguments.value(of: item)), arguments.values(of: keys)))
    }

    static func run(_ options: EditCommand.Options, terminal: Terminal) throws -> ExitCode {
        try EditCommand.run(options, terminal: terminal)
    }
}
