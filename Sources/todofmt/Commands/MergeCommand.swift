import Foundation
import TodoFormat

/// `todofmt merge BASE OURS THEIRS`: git's merge driver for todo lists
/// (`merge.todofmt.driver = todofmt merge %O %A %B %P`), which merges by item, not by line.
enum MergeCommand: Command {
    struct Options {
        var base: String
        var ours: String
        var theirs: String
        /// The file's name in the repository (git's %P), for its format and messages.
        var path: String?
        var format: DocumentFormat?
        var list: ListOptions
    }

    static let base = ArgumentSpec(
        name: "base", kind: .file, help: "The common ancestor (git's %O); an empty file is an empty list.")
    static let ours = ArgumentSpec(
        name: "ours", kind: .file, help: "Our version (git's %A); the merged result is written into it.")
    static let theirs = ArgumentSpec(name: "theirs", kind: .file, help: "Their version (git's %B).")
    static let path = ArgumentSpec(
        name: "path", kind: .file, count: .optional,
        help: "The file's path in the repository (git's %P): its extension names the format when the "
            + "content does not, and messages name it.")
    static let from = SharedOptions.from(
        "The files' format. Default: the path's extension, else what ours' content is, else md.")

    static let spec = CommandSpec(
        name: "merge",
        abstract: "Merge two versions of a todo list by item: git's merge driver.",
        discussion: [
            "Changes both sides made to different items are all kept: one checks an item while the "
                + "other adds, removes, renames or moves others; both add items; both make the same change. "
                + "A checklist's text around its items (front matter, headings, prose) is merged by lines, "
                + "as git does. The result is written into ours, keeping its line endings.",
            "An item both sides changed in different ways (or one changed and the other removed) is a "
                + "conflict: that item alone stands between <<<<<<< ours, ======= and >>>>>>> theirs lines. "
                + "Exit status: 0 merged cleanly, 1 conflicts, 2 a file could not be read or written.",
        ],
        arguments: [base, ours, theirs, path],
        options: [from] + SharedOptions.list)

    static var errorStatus: ExitCode { .trouble }

    static func options(from arguments: Arguments) throws(UsageError) -> Options {
        for file in [arguments.value(of: base), arguments.value(of: ours), arguments.value(of: theirs)]
        where file == "-" {
            throw UsageError("merge reads and writes files, not standard input")
        }
        return Options(
            base: arguments.value(of: base), ours: arguments.value(of: ours), theirs: arguments.value(of: theirs),
            path: arguments.values(of: path).first, format: arguments.format(of: from),
            list: try arguments.listOptions())
    }

    static func run(_ options: Options, terminal: Terminal) throws -> ExitCode {
        let format = options.format ?? options.path.flatMap { DocumentFormat(path: $0) }
        let result = try TodoMerge.files(
            base: URL(fileURLWithPath: options.base), ours: URL(fileURLWithPath: options.ours),
            theirs: URL(fileURLWithPath: options.theirs), format: format, options: options.list)
        for warning in result.warnings { terminal.warn(warning.description) }
        guard result.conflicts == 0 else {
            let name = options.path ?? options.ours
            if let unmerged = result.unmerged {
                terminal.printError("todofmt: \(name): not merged: \(unmerged)")
            } else {
                terminal.printError(
                    "todofmt: \(name): \(result.conflicts) conflict\(result.conflicts == 1 ? "" : "s") left between markers"
                )
            }
            return .failure
        }
        return .success
    }
}
