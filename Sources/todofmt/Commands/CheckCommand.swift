import Foundation
import TodoFormat

enum CheckCommand: Command {
    struct Options {
        var files: [String]
        var format: DocumentFormat?
        var list: ListOptions
    }

    static let file = ArgumentSpec(
        name: "file", kind: .file, count: .oneOrMore,
        help: "A todo list in any format todofmt reads, or - for standard input.")
    static let from = SharedOptions.from("The files' format. Default: from each extension, else the content.")

    static let spec = CommandSpec(
        name: "check",
        abstract: "Validate todo list files and report problems.",
        discussion: [
            "Problems are printed as 'file:line:column: severity: message'. "
                + "The exit status is 1 when any file has a problem."
        ],
        arguments: [file],
        options: [from] + SharedOptions.list)

    static func options(from arguments: Arguments) throws(UsageError) -> Options {
        Options(
            files: arguments.values(of: file), format: arguments.format(of: from), list: try arguments.listOptions())
    }

    static func run(_ options: Options, terminal: Terminal) throws -> ExitCode {
        var result = ExitCode.success
        for path in options.files {
            do {
                let problems =
                    path == "-"
                    ? try TodoDocument.problems(
                        in: FileArguments.standardInput(), name: FileArguments.name(path), format: options.format,
                        options: options.list)
                    : try TodoDocument.problems(
                        inFileAt: URL(fileURLWithPath: path), format: options.format, options: options.list)
                for problem in problems {
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
