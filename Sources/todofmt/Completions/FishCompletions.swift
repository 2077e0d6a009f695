/// The fish completion script: one `complete` line per subcommand, option and argument kind,
/// each under a condition naming the subcommand the command line has (or has not yet).
enum FishCompletions {
    static func script(for tool: CommandSpec) -> String {
        let f = "__" + Shell.identifier(tool.name)
        let complete = "complete -c \(tool.name)"
        var lines = [
            "# fish completion for \(tool.name), made by '\(tool.name) completions fish' from its commands' specs.",
            "# Save it as \(tool.name).fish in a completions folder, or load it with: \(tool.name) completions fish | source",
            "",
            "# The subcommand on the command line: its first word after \(tool.name) that is not an option.",
            "function \(f)_command",
            "    set -l words (commandline -opc)",
            "    set -e words[1]",
            "    for word in $words",
            "        if not string match -q -- '-*' $word",
            "            echo $word",
            "            return 0",
            "        end",
            "    end",
            "    return 1",
            "end",
            "",
            "function \(f)_using -a name",
            "    set -l command (\(f)_command)",
            "    test \"$command\" = \"$name\"",
            "end",
            "",
            "# Files only where a file goes.",
            "\(complete) -f",
        ]
        let top = "-n 'not \(f)_command'"
        lines += tool.allOptions.map { "\(complete) \(top) \(flags(of: $0))" }
        lines += tool.subcommands.map {
            "\(complete) \(top) -a \(quoted($0.name)) -d \(quoted(Shell.summary($0.abstract)))"
        }
        for command in tool.subcommands {
            let using = "-n '\(f)_using \(command.name)'"
            lines.append("")
            lines += command.allOptions.map { "\(complete) \(using) \(flags(of: $0))" }
            // fish cannot tell the first argument from the second; each kind once is enough here.
            var kinds: [ValueKind] = []
            for argument in command.arguments where !kinds.contains(argument.kind) { kinds.append(argument.kind) }
            for kind in kinds {
                switch kind {
                case .file: lines.append("\(complete) \(using) -F")
                case .text: break
                default: lines.append("\(complete) \(using) -a \(quoted(kind.completions.joined(separator: " ")))")
                }
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// An option's names, what its value may be, and its summary: `-l to -x -a 'md …' -d '…'`.
    private static func flags(of option: OptionSpec) -> String {
        var flags: [String] = []
        if let short = option.shortName { flags += ["-s", String(short.dropFirst())] }
        flags += ["-l", String(option.name.dropFirst(2))]
        switch option.value?.kind {
        case nil: break
        case .file?: flags += ["-r", "-F"]
        case .text?: flags.append("-x")
        case let kind?: flags += ["-x", "-a", quoted(kind.completions.joined(separator: " "))]
        }
        flags += ["-d", quoted(Shell.summary(option.help))]
        return flags.joined(separator: " ")
    }

    /// `text` in fish's single quotes, where only `\` and `'` take a backslash.
    private static func quoted(_ text: String) -> String {
        var result = "'"
        for character in text {
            if character == "\\" || character == "'" { result.append("\\") }
            result.append(character)
        }
        return result + "'"
    }
}
