/// The zsh completion script: `_arguments` specs for todofmt and for each subcommand, with each
/// option's summary, the words its value may be, and files for file arguments.
enum ZshCompletions {
    static func script(for tool: CommandSpec) -> String {
        let f = "_" + Shell.identifier(tool.name)
        var lines = [
            "#compdef \(tool.name)",
            "# zsh completion for \(tool.name), made by '\(tool.name) completions zsh' from its commands' specs.",
            "# Save it as \(f) in a folder of $fpath, or load it with: source <(\(tool.name) completions zsh)",
            "",
            "\(f)() {",
            "    local context state state_descr line ret=1",
            "    typeset -A opt_args",
            "    _arguments -C \\",
        ]
        lines += tool.allOptions.map { "        " + spec(of: $0) + " \\" }
        lines += [
            "        '1: :->subcommand' \\",
            "        '*:: :->argument' && ret=0",
            "    case $state in",
            "        subcommand)",
            "            local -a subcommands",
            "            subcommands=(",
        ]
        lines += tool.subcommands.map { "                " + Shell.quoted($0.name + ":" + Shell.summary($0.abstract)) }
        lines += [
            "            )",
            "            _describe -t subcommands '\(tool.name) subcommand' subcommands && ret=0",
            "            ;;",
            "        argument)",
            "            case $words[1] in",
        ]
        lines += tool.subcommands.map {
            "                \(Shell.quoted($0.name))) \(f)_\(Shell.identifier($0.name)) && ret=0 ;;"
        }
        lines += [
            "            esac",
            "            ;;",
            "    esac",
            "    return ret",
            "}",
        ]
        for command in tool.subcommands {
            lines += ["", "\(f)_\(Shell.identifier(command.name))() {", "    _arguments -S \\"]
            let specs = command.allOptions.map(spec(of:)) + command.arguments.map(spec(of:))
            for (index, spec) in specs.enumerated() {
                lines.append("        " + spec + (index < specs.count - 1 ? " \\" : ""))
            }
            lines.append("}")
        }
        lines += [
            "",
            // Autoloaded from $fpath, the file is the body of \(f): define, then complete.
            // Sourced, it registers the function.
            "if [ \"$funcstack[1]\" = \(f) ]; then",
            "    \(f) \"$@\"",
            "else",
            "    compdef \(f) \(tool.name)",
            "fi",
        ]
        return lines.joined(separator: "\n") + "\n"
    }

    /// An option as `_arguments` takes it: `'--from=[The input'\''s format.]:format:(md …)'`.
    private static func spec(of option: OptionSpec) -> String {
        let names = [option.shortName, option.name].compactMap { $0 }
        // A value follows the name in the same word (-o+, --to=) or in the next.
        let spelled = option.value == nil ? names : names.map { $0.hasPrefix("--") ? $0 + "=" : $0 + "+" }
        var rest = "[" + description(Shell.summary(option.help)) + "]"
        if let value = option.value { rest += ":" + message(value.placeholder) + ":" + action(value.kind) }
        let repeats = option.repeats ? "*" : ""
        if spelled.count == 1 { return Shell.quoted(repeats + spelled[0] + rest) }
        // Either name stands for the other: '(-h --help)'{-h,--help}'[…]'
        let exclusions = option.repeats ? "" : Shell.quoted("(" + names.joined(separator: " ") + ")")
        return exclusions + repeats + "{" + spelled.joined(separator: ",") + "}" + Shell.quoted(rest)
    }

    /// A positional argument: `':input:_files'`, `'::output:_files'`, `'*:file:_files'`.
    private static func spec(of argument: ArgumentSpec) -> String {
        let start =
            switch argument.count {
            case .one: ":"
            case .optional: "::"
            case .oneOrMore: "*:"
            }
        return Shell.quoted(start + message(argument.name) + ":" + action(argument.kind))
    }

    /// What completes a value of `kind`: files, a list of words, or nothing (a space).
    private static func action(_ kind: ValueKind) -> String {
        switch kind {
        case .file: "_files"
        case .text: " "
        default: "(" + kind.completions.joined(separator: " ") + ")"
        }
    }

    /// A placeholder as the message above the matches: `<role>=<key>` is `role=key`; a colon
    /// would end it, so it gets a backslash.
    private static func message(_ placeholder: String) -> String {
        var result = ""
        for character in placeholder where character != "<" && character != ">" {
            if character == ":" { result.append("\\") }
            result.append(character)
        }
        return result
    }

    /// Text between an option's brackets, where `[`, `]` and `\` need a backslash.
    private static func description(_ text: String) -> String {
        var result = ""
        for character in text {
            if character == "[" || character == "]" || character == "\\" { result.append("\\") }
            result.append(character)
        }
        return result
    }
}
