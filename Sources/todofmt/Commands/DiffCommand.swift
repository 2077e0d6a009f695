import Foundation
import TodoFormat

/// `todofmt diff OLD NEW`: what changed from one todo list to another, item by item; also
/// git's external diff (`diff.todofmt.command`), which git calls with seven arguments.
enum DiffCommand: Command {
    struct Options {
        /// The name a header shows, when git called (its `path`), else nil.
        var path: String?
        /// A renamed file's new name, when git gave one.
        var newPath: String? = nil
        var old: String
        var new: String
        var list: ListOptions
    }

    static let files = ArgumentSpec(
        name: "file", kind: .file, count: .oneOrMore,
        help: "The old and the new list, each in any format todofmt reads (- for standard input, "
            + "/dev/null for none); or the seven arguments git passes an external diff: path old-file "
            + "old-hex old-mode new-file new-hex new-mode (and for a renamed file new-path similarity).")

    static let spec = CommandSpec(
        name: "diff",
        abstract: "Show what changed between two todo lists, item by item.",
        discussion: [
            "One line a change, with the item's position as list prints it: added, removed (its old "
                + "position), checked, unchecked, status, renamed, moved, field, section, metadata. "
                + "Items are paired by an id field, else by content; the lists may be in different formats.",
            "The exit status is 0 when the lists are the same, 1 when they differ, 2 when a file cannot "
                + "be read. Called by git (seven arguments, nine for a renamed file) it prints a header line "
                + "and exits 0 when the lists differ, as git requires of an external diff.",
        ],
        arguments: [files],
        options: SharedOptions.list)

    static var errorStatus: ExitCode { .trouble }

    static func options(from arguments: Arguments) throws(UsageError) -> Options {
        let values = arguments.values(of: files)
        let list = try arguments.listOptions()
        switch values.count {
        case 2: return Options(path: nil, old: values[0], new: values[1], list: list)
        case 7: return Options(path: values[0], old: values[1], new: values[4], list: list)
        // A rename: the new path follows the seven arguments, then the similarity.
        case 9: return Options(path: values[0], newPath: values[7], old: values[1], new: values[4], list: list)
        default:
            throw UsageError(
                "diff takes two files, or the seven arguments git passes an external diff, not \(values.count)")
        }
    }

    static func run(_ options: Options, terminal: Terminal) throws -> ExitCode {
        let diff: ListDiff
        if options.old == "-" || options.new == "-" {
            diff = ListDiff(from: try read(options.old, options.list), to: try read(options.new, options.list))
        } else {
            diff = try ListDiff(
                old: URL(fileURLWithPath: options.old), new: URL(fileURLWithPath: options.new), options: options.list)
        }
        if let path = options.path {
            terminal.print("todofmt diff a/\(path) b/\(options.newPath ?? path)")
        }
        if !diff.isEmpty { terminal.print(diff.changes.map(\.description).joined(separator: "\n")) }
        return diff.isEmpty || options.path != nil ? .success : .failure
    }

    /// A list from a file argument; `/dev/null` (git's name for a file that is not there) is empty.
    static func read(_ path: String, _ options: ListOptions) throws -> TodoList {
        if path == "/dev/null" { return TodoList() }
        return try FileArguments.list(path, format: nil, options: options)
    }
}
