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
        help: "The table of a database that holds the list (on a new database, the table it creates). "
            + "Default: todofmt's own, else the one with a name column.")

    static let entity = OptionSpec(
        name: "--entity", value: .init(placeholder: "<name>", kind: .text),
        help: "The Core Data entity whose rows are the list, by its name in the store (Note, TodoItem). "
            + "Default: the one entity with a name attribute.")

    static let field = OptionSpec(
        name: "--field", value: .init(placeholder: "<role>=<key>", kind: .text),
        help: "The key (or column) that plays a role in items, for schemas todofmt does not know "
            + "(roles: \(roles)). checked=<key>:<value> names the value that means done "
            + "(checked=status:3); status=<key>:<value>=<c> the value of custom status c (status=status:2=-).",
        repeats: true)

    /// `--key`, `--table`, `--entity` and `--field`, which find a list in any file.
    static let list = [key, table, entity, field]

    /// The roles `--field` can name, as help and its errors list them.
    static let roles = ItemRole.allCases.map(\.rawValue).joined(separator: ", ")
}

extension Arguments {
    /// The format a `.format` option names; parsing has refused unknown names.
    func format(of option: OptionSpec) -> DocumentFormat? {
        value(of: option).flatMap(DocumentFormat.init(name:))
    }

    /// `--key`, `--table`, `--entity` and every `--field` as list options: `ROLE=KEY`, and the value
    /// mappings `checked=KEY:DONE` and `status=KEY:VALUE=C`.
    /// `skipping` leaves out `--field` values that are something else (`list`'s field filters).
    func listOptions(skipping: (String) -> Bool = { _ in false }) throws(UsageError) -> ListOptions {
        var roles: [ItemRole: String] = [:]
        var mappings: [(key: String, value: String, status: TodoStatus)] = []
        for pair in values(of: SharedOptions.field) where !skipping(pair) {
            let parts = pair.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2, let role = ItemRole(rawValue: parts[0].lowercased()), !parts[1].isEmpty else {
                throw UsageError("--field takes <role>=<key>, not '\(pair)' (roles: \(SharedOptions.roles))")
            }
            guard let colon = parts[1].firstIndex(of: ":"), role == .checked || role == .status else {
                roles[role] = parts[1]
                continue
            }
            let key = String(parts[1][..<colon])
            let rest = String(parts[1][parts[1].index(after: colon)...])
            if role == .checked, !key.isEmpty, !rest.isEmpty {
                mappings.append((key, rest, .done))
                continue
            }
            let valueAndStatus = rest.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).map(
                String.init)
            guard role == .status, !key.isEmpty, valueAndStatus.count == 2, !valueAndStatus[0].isEmpty,
                valueAndStatus[1].unicodeScalars.count == 1, let scalar = valueAndStatus[1].unicodeScalars.first,
                scalar == " " || scalar == "x" || scalar == "X" || TodoStatus.isCustomMarker(scalar)
            else {
                throw UsageError(
                    "--field takes checked=<key>:<done value> or status=<key>:<value>=<c> (one character a checklist's box holds: not [, ], \\, white space or a control character), not '\(pair)'"
                )
            }
            mappings.append((key, valueAndStatus[0], TodoStatus(marker: scalar)))
        }
        var schema = roles.isEmpty ? ItemSchema.standard : ItemSchema(naming: roles)
        for mapping in mappings { schema.mapping(mapping.value, of: mapping.key, to: mapping.status) }
        return ListOptions(
            key: value(of: SharedOptions.key), schema: schema, table: value(of: SharedOptions.table),
            entity: value(of: SharedOptions.entity))
    }
}
