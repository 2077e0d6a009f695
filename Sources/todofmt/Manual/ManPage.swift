/// The man page todofmt(1), in roff, made from the specs help is made from, so the two cannot
/// drift: NAME and DESCRIPTION from todofmt's abstract and discussion, SYNOPSIS from the
/// usage lines, OPTIONS, and under COMMANDS a subsection per subcommand with everything its
/// help says about each argument and option (`Help.description`). What help has no place for
/// is here: EXIT STATUS (from `ExitCode`), ENVIRONMENT, DIAGNOSTICS and EXAMPLES.
///
/// The page has no date, so the same build always prints the same bytes; its footer carries
/// the version.
enum ManPage {
    /// An example command line and what it does.
    struct Example {
        var command: String
        var explanation: String
    }

    /// The environment variables todofmt reads, and what for.
    static let environment: [(name: String, meaning: String)] = [
        (
            "TODOFMT_NOW",
            "An ISO 8601 date and time (2026-12-01T09:00:00Z) that todofmt takes for the present "
                + "when it stamps what it writes, such as a new database row's creation date, so that "
                + "tests and reproducible builds write the same bytes every time."
        )
    ]

    /// Command lines a reader can copy; a test parses each by the specs, so they stay valid.
    static let examples: [Example] = [
        Example(
            command: "todofmt convert groceries.md groceries.json",
            explanation: "Convert a checklist to JSON; both formats come from the extensions."),
        Example(
            command: "todofmt convert --to yaml todos.json",
            explanation: "Print a JSON list as YAML on standard output."),
        Example(
            command: "todofmt convert tasks.md Preferences.plist",
            explanation: "Write an edited checklist back into the property list it came from: only the list "
                + "changes, and the file keeps its format, its other keys and its key names."),
        Example(
            command: "todofmt convert --field name=ToDo --field checked=Done list.plist",
            explanation: "Print as a checklist a property list whose items keep their text under ToDo and "
                + "whether they are done under Done."),
        Example(
            command: "todofmt convert TodoCoreData.sqlite todo.md",
            explanation: "Read the items of a Core Data store as a checklist; converting todo.md back into the "
                + "store then updates only the rows that changed, in one transaction."),
        Example(
            command: "todofmt fmt --check TODO.md notes.md",
            explanation: "Print the checklists that are not in canonical form, changing nothing."),
        Example(
            command: "todofmt check TODO.md list.json",
            explanation: "Report the problems of a checklist and a JSON list."),
        Example(
            command: "todofmt completions fish > ~/.config/fish/completions/todofmt.fish",
            explanation: "Install completions for fish for the current user."),
    ]

    /// The whole page.
    static func text(for tool: CommandSpec = CLI.spec, version: String = CLI.version) -> String {
        var lines = [
            #".\" todofmt(1), made by 'todofmt help --man' from the specs that help is made from."#,
            ".TH \(tool.name.uppercased()) 1 \"\" \"\(tool.name) \(version)\" \"User Commands\"",
            // No word is hyphenated, so no option or value is split across lines; groff's
            // macros turn hyphenation back on at each paragraph unless HY is 0.
            ".nr HY 0",
            ".nh",
            ".SH NAME",
            "\(tool.name) \\- " + Roff.escaped(lowercasedFirst(tool.abstract.dropLast())),
            ".SH SYNOPSIS",
        ]
        for command in tool.subcommands {
            lines.append(synopsis(command, under: tool))
        }
        lines.append(synopsis(tool, under: nil))
        for option in tool.allOptions where option.standsAlone {
            lines.append(".SY \(tool.name)\n" + Roff.usage(option.name) + "\n.YS")
        }

        lines += [".SH DESCRIPTION", Roff.escaped(tool.abstract)]
        lines += tool.discussion.flatMap { [".PP", Roff.escaped($0)] }
        lines.append(".SH OPTIONS")
        lines += tool.allOptions.flatMap(entry)

        lines.append(".SH COMMANDS")
        for command in tool.subcommands {
            lines += [".SS \(command.name)", Roff.escaped(command.abstract)]
            lines += command.discussion.flatMap { [".PP", Roff.escaped($0)] }
            lines += command.arguments.flatMap(entry)
            lines += command.allOptions.flatMap(entry)
        }

        lines.append(".SH EXIT STATUS")
        for code in ExitCode.allCases {
            lines += [".TP", ".B \(code.rawValue)", Roff.escaped(code.meaning)]
        }
        lines.append(".SH ENVIRONMENT")
        for (name, meaning) in environment {
            lines += [".TP", ".B \(name)", Roff.escaped(meaning)]
        }
        lines += [
            ".SH DIAGNOSTICS",
            "Errors go to standard error. One with a place in a file reads",
            ".IR file : line : column \": error: \" message",
            "as compilers print it, so editors can go to it; any other reads",
            ".RI \"\(tool.name): error: \" message .",
            "Warnings read the same with warning in place of error.",
            ".SH EXAMPLES",
        ]
        for example in examples {
            lines += [".PP", Roff.escaped(example.explanation), ".IP", ".EX", Roff.escaped(example.command), ".EE"]
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// A command's usage as a synopsis block: its name bold, its options and arguments after it.
    private static func synopsis(_ command: CommandSpec, under parent: CommandSpec?) -> String {
        let name = [parent?.name, command.name].compactMap { $0 }.joined(separator: " ")
        // A line breaks between the parts only, and they stand on one input line: one that
        // ended in "...]" would end a sentence, followed by two spaces.
        let parts = Help.usageParts(of: command).map { Roff.usage($0).split(separator: " ").joined(separator: "\\ ") }
        return ".SY \"\(name)\"\n" + parts.joined(separator: " ") + "\n.YS"
    }

    /// An argument as a tagged paragraph: its name italic, then what help says of it.
    private static func entry(_ argument: ArgumentSpec) -> [String] {
        [".TP", ".I \(argument.name)", Roff.escaped(Help.description(of: argument))]
    }

    /// An option as a tagged paragraph: its label, then what help says of it.
    private static func entry(_ option: OptionSpec) -> [String] {
        [".TP", Roff.usage(option.label), Roff.escaped(Help.description(of: option))]
    }

    private static func lowercasedFirst(_ text: Substring) -> String {
        text.prefix(1).lowercased() + text.dropFirst()
    }
}
