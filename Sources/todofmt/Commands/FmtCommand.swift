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
        // Several files to rewrite: each is read first, and one that cannot be (missing, not
        // a checklist, not UTF-8) stops the command before any is written, as a failed
        // command leaves every file as it was. (Read, not parsed: one file is read once.)
        let files = options.files.filter { $0 != "-" }
        if !options.checkOnly && files.count > 1 {
            var readable = true
            for path in files {
                do {
                    try checkIsChecklist(path)
                    try ChecklistFormatting.validate(contentsOf: URL(fileURLWithPath: path))
                } catch {
                    terminal.report(error)
                    readable = false
                }
            }
            guard readable else { return .failure }
        }
        if !options.checkOnly && files.count > 1 && files.count == options.files.count {
            // Each new text written beside its file before any is put in place: one that
            // cannot be (a folder without write access, a full disk) leaves every file as it
            // was. (Each is closed once written: a thousand files keep none open.)
            var pending: [PendingFormat] = []
            for path in files {
                do {
                    if let formatted = try ChecklistFormatting.prepare(contentsOf: URL(fileURLWithPath: path)) {
                        pending.append(formatted)
                    }
                } catch {
                    terminal.report(error)
                    for formatted in pending { formatted.discard() }
                    return .failure
                }
            }
            var result = ExitCode.success
            for formatted in pending {
                do {
                    try formatted.commit()
                } catch {
                    terminal.report(error)
                    result = .failure
                }
            }
            return result
        }
        var result = ExitCode.success
        for path in options.files {
            do {
                try checkIsChecklist(path)
            } catch {
                terminal.report(error)
                result = .failure
                continue
            }
            do {
                // One pass of the parser over the bytes (ChecklistFormatting), no document: a
                // checklist of a million items formats in about the time it takes to convert.
                if path == "-" {
                    let bytes = FileArguments.standardInput()
                    if !options.checkOnly {
                        terminal.write(try ChecklistFormatting.canonicalMarkdown(of: bytes, path: "<stdin>"))
                    } else if try !ChecklistFormatting.isCanonical(bytes, path: "<stdin>") {
                        terminal.print(path)
                        result = .failure
                    }
                } else if options.checkOnly {
                    if try !ChecklistFormatting.isCanonical(contentsOf: URL(fileURLWithPath: path)) {
                        terminal.print(path)
                        result = .failure
                    }
                } else {
                    try ChecklistFormatting.format(contentsOf: URL(fileURLWithPath: path))
                }
            } catch {
                terminal.report(error)
                result = .failure
            }
        }
        return result
    }

    /// Throws for a file whose name says it holds another format.
    private static func checkIsChecklist(_ path: String) throws {
        if let format = DocumentFormat(path: path), format != .markdown {
            throw ConversionError.unsupported(
                "\(path): fmt formats checklists, and this is \(format.rawValue); convert it instead")
        }
    }
}
