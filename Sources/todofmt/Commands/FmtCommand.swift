import Foundation
import TodoFormat

enum FmtCommand: Command {
    struct Options {
        var files: [String]
        var checkOnly: Bool
    }

    static let file = ArgumentSpec(
        name: "file", kind: .file, count: .oneOrMore,
        help: "A Markdown checklist, or - to format standard input to standard output.")
    static let check = OptionSpec(
        name: "--check",
        help: "Change nothing; print the files that are not in canonical form and exit 1 if there are any.")

    static let spec = CommandSpec(
        name: "fmt",
        abstract: "Rewrite checklists in canonical form.",
        arguments: [file],
        options: [check])

    static func options(from arguments: Arguments) throws(UsageError) -> Options {
        Options(files: arguments.values(of: file), checkOnly: arguments.isSet(check))
    }

    static func run(_ options: Options, terminal: Terminal) throws -> ExitCode {
        var result = ExitCode.success
        for path in options.files {
            if let format = DocumentFormat(path: path), format != .markdown {
                terminal.printError(
                    "todofmt: error: \(path): fmt formats checklists, and this is \(format.rawValue); convert it instead"
                )
                result = .failure
                continue
            }
            do {
                let document =
                    path == "-"
                    ? try TodoDocument(bytes: FileArguments.standardInput(), path: "<stdin>")
                    : try TodoDocument(contentsOf: URL(fileURLWithPath: path))
                let formatted = try document.formatted()
                if path == "-" && !options.checkOnly {
                    terminal.write(formatted.text)
                } else if formatted.text != document.text {
                    if options.checkOnly {
                        terminal.print(path)
                        result = .failure
                    } else {
                        try formatted.write(to: URL(fileURLWithPath: path))
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
