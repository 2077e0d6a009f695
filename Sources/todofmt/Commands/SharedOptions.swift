import TodoFormat

/// The options several commands share: the input's format and where a list is in a file.
enum SharedOptions {
    /// `--from <format>`, with the command's own words for what it reads.
    static func from(_ help: String) -> OptionSpec {
        OptionSpec(name: "--from", value: .init(placeholder: "<format>", kind: .format), help: help)
    }

    static let key = OptionSpec(
        name: "--key", value: .init(placeholder: "<key>", kind: .text),
        help: "The key of a dictionary root (a UserDefaults file, a JSON object) that holds the list. "
            + "Default: the one key that does.")

    static let table = OptionSpec(
        name: "--table", value: .init(placeholder: "<table>", kind: .text),
        help: "The table of a database that holds the list. Default: todofmt's own, else the one with a name column.")

    static let field = OptionSpec(
        name: "--field", value: .init(placeholder: "<role>=<key>", kind: .text),
        help: "The key (or column) that plays a role in items, for schemas todofmt does not know "
            + "(roles: \(roles)).",
        repeats: true)

    /// `--key`, `--table` and `--field`, which find a list in any file.
    static let list = [key, table, field]

    /// The roles `--field` can name, as help and its errors list them.
    static let roles = ItemRole.allCases.map(\.rawValue).joined(separator: ", ")
}

extension Arguments {
    /// The format a `.format` option names; parsing has refused unknown names.
    func format(of option: OptionSpec) -> DocumentFormat? {
        value(of: option).flatMap(DocumentFormat.init(name:))
    }

    /// `--key`, `--table` and every `--field ROLE=KEY` as list options.
    func listOptions() throws(UsageError) -> ListOptions {
        var roles: [ItemRole: String] = [:]
        for pair in values(of: SharedOptions.field) {
            let parts = pair.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2, let role = ItemRole(rawValue: parts[0].lowercased()), !parts[1].isEmpty else {
                throw UsageError("--field takes <role>=<key>, not '\(pair)' (roles: \(SharedOptions.roles))")
            }
            roles[role] = parts[1]
        }
        return ListOptions(
            key: value(of: SharedOptions.key), schema: roles.isEmpty ? .standard : ItemSchema(naming: roles),
            table: value(of: SharedOptions.table))
    }
}
