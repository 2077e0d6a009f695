import TodoFormat

/// A command-line mistake, reported with the command's usage line.
struct UsageError: Error {
    var message: String
}

/// The arguments of one command: options may stand before or after the files.
struct Arguments {
    var positionals: [String] = []
    var values: [String: String] = [:]
    /// Every value of each valued option, for options that may repeat (`--field`).
    var allValues: [String: [String]] = [:]
    var flags: Set<String> = []

    /// Splits `arguments` by the command's options; `--` ends the options, `-` is a file.
    init(_ arguments: [String], valued: Set<String>, flags known: Set<String>) throws(UsageError) {
        var i = 0
        var onlyFiles = false
        while i < arguments.count {
            let argument = arguments[i]
            i += 1
            if onlyFiles || argument == "-" || !argument.hasPrefix("-") {
                positionals.append(argument)
                continue
            }
            if argument == "--" {
                onlyFiles = true
                continue
            }
            var name = argument
            var inlineValue: String? = nil
            if let equals = argument.firstIndex(of: "=") {
                name = String(argument[..<equals])
                inlineValue = String(argument[argument.index(after: equals)...])
            }
            if valued.contains(name) {
                let value: String
                if let inlineValue {
                    value = inlineValue
                } else {
                    guard i < arguments.count else { throw UsageError(message: "missing value for '\(name)'") }
                    value = arguments[i]
                    i += 1
                }
                values[name] = value
                allValues[name, default: []].append(value)
            } else if known.contains(name) && inlineValue == nil {
                flags.insert(name)
            } else {
                throw UsageError(message: "unknown option '\(argument)'")
            }
        }
    }
}

extension Arguments {
    /// `--key` and `--field ROLE=KEY` as list options.
    func listOptions() throws(UsageError) -> ListOptions {
        var roles: [ItemRole: String] = [:]
        for spec in allValues["--field"] ?? [] {
            let parts = spec.split(separator: "=", maxSplits: 1).map(String.init)
            let known = ItemRole.allCases.map(\.rawValue).joined(separator: ", ")
            guard parts.count == 2, let role = ItemRole(rawValue: parts[0].lowercased()), !parts[1].isEmpty else {
                throw UsageError(message: "--field takes ROLE=KEY with a role among \(known), not '\(spec)'")
            }
            roles[role] = parts[1]
        }
        return ListOptions(
            key: values["--key"], schema: roles.isEmpty ? .standard : ItemSchema(naming: roles), table: values["--table"])
    }

    /// The help lines of `--key` and `--field`.
    static let listOptionsHelp = """
          --key <key>             The key of a dictionary root (a UserDefaults file, a JSON
                                  object) that holds the list. Default: the one key that does.
          --table <table>         The table of a database that holds the list. Default:
                                  todofmt's own, else the one with a name column.
          --field <role>=<key>    The key (or column) that plays a role in items, for
                                  schemas todofmt does not know (roles: name, checked,
                                  status, section, children, fields, order). May repeat.
        """
}
