/// A shell todofmt prints a completion script for, made from the specs as help is: the
/// subcommands, each one's options, the words an option's value or an argument may be (format
/// names with their aliases after `--from` and `--to`), and files where a file goes.
enum Shell: String, CaseIterable, Sendable {
    case bash, zsh, fish

    /// The script that completes `tool`'s command lines.
    func script(for tool: CommandSpec) -> String {
        switch self {
        case .bash: BashCompletions.script(for: tool)
        case .zsh: ZshCompletions.script(for: tool)
        case .fish: FishCompletions.script(for: tool)
        }
    }

    /// A help text's first sentence, which is what a completion menu has room for.
    static func summary(_ help: String) -> String {
        var previous: Character?
        for index in help.indices {
            if help[index] == " " && previous == "." { return String(help[..<index]) }
            previous = help[index]
        }
        return help
    }

    /// `text` as one word in single quotes for bash and zsh: `'it'\''s'`.
    static func quoted(_ text: some StringProtocol) -> String {
        "'" + text.split(separator: "'", omittingEmptySubsequences: false).joined(separator: #"'\''"#) + "'"
    }

    /// A name usable in a shell function's name: `todofmt`, `todo_fmt`.
    static func identifier(_ name: String) -> String {
        String(name.map { $0.isLetter || $0.isNumber ? $0 : "_" })
    }
}
