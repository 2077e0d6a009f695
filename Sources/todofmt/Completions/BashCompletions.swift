/// The bash completion script: a function that walks the words before the cursor (the
/// subcommand, options and their values, arguments counted, `--`) and completes the word
/// under it from tables made of the specs. It needs neither bash-completion nor bash 4.
enum BashCompletions {
    static func script(for tool: CommandSpec) -> String {
        let f = "_" + Shell.identifier(tool.name)
        let commands = [tool] + tool.subcommands
        // Where a command's name goes in a case pattern; "" is todofmt itself.
        func key(_ command: CommandSpec) -> String { command.name == tool.name ? "''" : Shell.quoted(command.name) }

        var lines = [
            "# bash completion for \(tool.name), made by '\(tool.name) completions bash' from its commands' specs.",
            "# Load it with: source <(\(tool.name) completions bash)",
            "# or save it as \(tool.name) in bash-completion's completions folder.",
            "",
            "# \(f)_options COMMAND: the options of a subcommand, or of \(tool.name) itself for \"\".",
            "\(f)_options() {",
            "    case $1 in",
        ]
        for command in commands {
            let names = command.allOptions.flatMap { [$0.shortName, $0.name].compactMap { $0 } }
            lines.append("        \(key(command))) echo \(Shell.quoted(names.joined(separator: " "))) ;;")
        }
        lines += [
            "    esac",
            "}",
            "",
            "# \(f)_value COMMAND OPTION: what the option's value is; nothing for a flag.",
            "\(f)_value() {",
            "    case \"$1 $2\" in",
        ]
        var valued: [String: [String]] = [:]
        var kinds: [String] = []
        for command in commands {
            for option in command.allOptions {
                guard let kind = option.value?.kind else { continue }
                let prefix = command.name == tool.name ? "" : command.name
                let patterns = [option.shortName, option.name].compactMap { $0 }.map { Shell.quoted(prefix + " " + $0) }
                if valued["\(kind)"] == nil { kinds.append("\(kind)") }
                valued["\(kind)", default: []] += patterns
            }
        }
        for kind in kinds {
            lines.append("        \(valued[kind]!.joined(separator: "|"))) echo \(kind) ;;")
        }
        lines += [
            "    esac",
            "}",
            "",
            "# \(f)_argument COMMAND N: what the command's argument number N (from 0) is.",
            "\(f)_argument() {",
            "    case $1 in",
        ]
        for command in tool.subcommands where !command.arguments.isEmpty {
            let cases = command.arguments.enumerated().map { index, argument in
                let pattern = argument.count == .oneOrMore ? "*" : String(index)
                return "\(pattern)) echo \(argument.kind) ;;"
            }
            lines.append("        \(Shell.quoted(command.name))) case $2 in \(cases.joined(separator: " ")) esac ;;")
        }
        lines += [
            "    esac",
            "}",
            "",
            "# \(f)_complete KIND WORD: completes WORD as a file, or from the words KIND may be.",
            "\(f)_complete() {",
            "    local words",
            "    case $1 in",
            "        file)",
            "            compopt -o filenames 2>/dev/null",
            "            local IFS=$'\\n'",
            "            COMPREPLY=($(compgen -f -- \"$2\"))",
            "            return ;;",
        ]
        for kind in ValueKind.allCases where !kind.completions.isEmpty {
            lines.append("        \(kind)) words=\(Shell.quoted(kind.completions.joined(separator: " "))) ;;")
        }
        lines += [
            "        *) words= ;;",
            "    esac",
            "    COMPREPLY=($(compgen -W \"$words\" -- \"$2\"))",
            "}",
            "",
            "\(f)() {",
            "    local current=${COMP_WORDS[COMP_CWORD]} command= value= word count=0 index=1 arguments_only=",
            "    COMPREPLY=()",
            "    # bash splits --to=json into --to, = and json.",
            "    [ \"$current\" = = ] && current=",
            "    while [ \"$index\" -lt \"$COMP_CWORD\" ]; do",
            "        word=${COMP_WORDS[index]}",
            "        index=$((index + 1))",
            "        if [ -n \"$value\" ]; then",
            "            [ \"$word\" = = ] || value=",
            "        elif [ -z \"$arguments_only\" ] && [ \"$word\" = -- ]; then",
            "            arguments_only=1",
            "        elif [ -z \"$arguments_only\" ] && [[ $word == -?* ]]; then",
            "            value=$(\(f)_value \"$command\" \"$word\")",
            "        elif [ -z \"$command\" ]; then",
            "            command=$word",
            "        else",
            "            count=$((count + 1))",
            "        fi",
            "    done",
            "    if [ -n \"$value\" ]; then",
            "        \(f)_complete \"$value\" \"$current\"",
            "    elif [ -z \"$arguments_only\" ] && [[ $current == -* ]]; then",
            "        COMPREPLY=($(compgen -W \"$(\(f)_options \"$command\")\" -- \"$current\"))",
            "    elif [ -z \"$command\" ]; then",
            "        \(f)_complete subcommand \"$current\"",
            "    else",
            "        \(f)_complete \"$(\(f)_argument \"$command\" \"$count\")\" \"$current\"",
            "    fi",
            "}",
            "",
            "complete -F \(f) \(tool.name)",
        ]
        return lines.joined(separator: "\n") + "\n"
    }
}
