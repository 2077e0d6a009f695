/// Help text made from a `CommandSpec`, in swift-argument-parser's layout: OVERVIEW (the
/// abstract, then the discussion), USAGE, ARGUMENTS, OPTIONS, SUBCOMMANDS, and for a command
/// with subcommands "See '… help <subcommand>' for detailed help."
///
/// Every line fits in 80 columns, whatever the terminal, so the text is the same everywhere;
/// every description starts at column 26.
enum Help {
    /// The widest a line gets.
    static let width = 80
    /// The column where descriptions start in ARGUMENTS, OPTIONS and SUBCOMMANDS.
    static let descriptionColumn = 26

    /// The whole help of `spec`; `parent` is the command it is a subcommand of, if any.
    static func text(for spec: CommandSpec, under parent: CommandSpec?) -> String {
        var overview = wrap(words(spec.abstract), from: "OVERVIEW: ".count, indent: 0)
        for paragraph in spec.discussion {
            overview += "\n\n" + wrap(words(paragraph), from: 0, indent: 0)
        }
        var sections = ["OVERVIEW: " + overview, "USAGE: " + usage(of: spec, under: parent)]
        if !spec.arguments.isEmpty {
            sections.append(section("ARGUMENTS", spec.arguments.map { ($0.placeholder, description(of: $0)) }))
        }
        sections.append(section("OPTIONS", spec.allOptions.map { ($0.label, description(of: $0)) }))
        if !spec.subcommands.isEmpty {
            sections.append(section("SUBCOMMANDS", spec.subcommands.map { ($0.name, $0.abstract) }))
            sections.append("  See '\(spec.name) help <subcommand>' for detailed help.")
        }
        return sections.joined(separator: "\n\n")
    }

    /// The usage line of `spec` without `USAGE: `, wrapped under the first option:
    /// `todofmt list [--from <format>] … <file>`.
    static func usage(of spec: CommandSpec, under parent: CommandSpec?) -> String {
        let command = [parent?.name, spec.name].compactMap { $0 }.joined(separator: " ")
        let parts = usageParts(of: spec)
        guard !parts.isEmpty else { return command }
        let start = "USAGE: ".count + command.count + 1
        return command + " " + wrap(parts, from: start, indent: start)
    }

    /// What follows the command's name on its usage line: the options that do the command's
    /// job, the arguments, and `<subcommand>` if it has some. The man page's SYNOPSIS too.
    static func usageParts(of spec: CommandSpec) -> [String] {
        var parts = spec.options.filter { !$0.standsAlone }.map(\.synopsis) + spec.arguments.map(\.synopsis)
        if !spec.subcommands.isEmpty { parts.append("<subcommand>") }
        return parts
    }

    /// What help says about an option: its help, the values it takes, whether it repeats.
    static func description(of option: OptionSpec) -> String {
        var text = option.help
        if let allowed = option.value?.kind.allowedValues, !allowed.isEmpty {
            text += " (values: \(allowed.joined(separator: ", ")))"
        }
        if option.repeats { text += " May repeat." }
        return text
    }

    /// What help says about an argument: its help and the values it takes.
    static func description(of argument: ArgumentSpec) -> String {
        let allowed = argument.kind.allowedValues
        return allowed.isEmpty ? argument.help : argument.help + " (values: \(allowed.joined(separator: ", ")))"
    }

    /// A section: its title, then an entry a line, each description from column 26 (on the
    /// next line when the label reaches that far).
    private static func section(_ title: String, _ entries: [(label: String, description: String)]) -> String {
        var lines = [title + ":"]
        for (label, description) in entries {
            let label = "  " + label
            let wrapped = wrap(words(description), from: descriptionColumn, indent: descriptionColumn)
            if description.isEmpty {
                lines.append(label)
            } else if label.count < descriptionColumn {
                lines.append(label + indentation(descriptionColumn - label.count) + wrapped)
            } else {
                lines.append(label)
                lines.append(indentation(descriptionColumn) + wrapped)
            }
        }
        return lines.joined(separator: "\n")
    }

    /// `parts` joined by spaces into lines of at most `width` columns: the first starts at
    /// column `start` (after whatever precedes it), the others are indented by `indent`. A
    /// part wider than a line gets a line of its own.
    static func wrap(_ parts: [String], from start: Int, indent: Int) -> String {
        var text = ""
        var column = start
        var lineIsEmpty = true
        for part in parts {
            if !lineIsEmpty && column + 1 + part.count > width {
                text += "\n" + indentation(indent)
                column = indent
                lineIsEmpty = true
            }
            if !lineIsEmpty {
                text += " "
                column += 1
            }
            text += part
            column += part.count
            lineIsEmpty = false
        }
        return text
    }

    private static func words(_ text: String) -> [String] {
        text.split(separator: " ").map(String.init)
    }

    private static func indentation(_ columns: Int) -> String {
        String(repeating: " ", count: columns)
    }
}
