/// A command line split by a command's spec, with every value checked against its kind.
///
/// Options may stand before, between or after the positional arguments; `--` ends the
/// options, so everything after it is positional; `-` alone is positional (standard input
/// or output). A valued option takes `--name value` or `--name=value`.
struct Arguments {
    /// Whether `-h` or `--help` was given before any `--`; if so, nothing else was checked.
    private(set) var wantsHelp = false
    /// Every value given to each option, by the option's long name; a flag gets "" per use.
    private var optionValues: [String: [String]] = [:]
    /// The values of each positional argument, by its name.
    private var argumentValues: [String: [String]] = [:]

    /// Parses `arguments` (without the command's name) by `spec`.
    ///
    /// - Throws: The first mistake on the command line, unless help was asked for.
    init(parsing arguments: [String], for spec: CommandSpec) throws(UsageError) {
        var firstError: UsageError?
        var positionals: [String] = []
        var onlyPositionals = false
        var i = 0
        while i < arguments.count {
            let argument = arguments[i]
            i += 1
            if onlyPositionals || argument == "-" || !argument.hasPrefix("-") {
                positionals.append(argument)
                continue
            }
            if argument == "--" {
                onlyPositionals = true
                continue
            }
            var name = argument
            var inlineValue: String?
            if let equals = argument.firstIndex(of: "=") {
                name = String(argument[..<equals])
                inlineValue = String(argument[argument.index(after: equals)...])
            }
            do throws(UsageError) {
                guard let option = spec.option(named: name) else {
                    throw UsageError("unknown option '\(argument)'")
                }
                if let value = option.value {
                    let given: String
                    if let inlineValue {
                        given = inlineValue
                    } else if i < arguments.count {
                        given = arguments[i]
                        i += 1
                    } else {
                        throw UsageError("missing value for '\(name)'")
                    }
                    try value.kind.check(given)
                    optionValues[option.name, default: []].append(given)
                } else {
                    guard inlineValue == nil else { throw UsageError("option '\(name)' takes no value") }
                    if option == .help { wantsHelp = true }
                    optionValues[option.name, default: []].append("")
                }
            } catch {
                // Keep reading: a later -h still asks for help rather than an error.
                firstError = firstError ?? error
            }
        }
        if wantsHelp { return }
        if let firstError { throw firstError }

        var rest = positionals[...]
        for argument in spec.arguments {
            let values: [String]
            switch argument.count {
            case .one:
                guard let value = rest.popFirst() else {
                    throw UsageError("missing argument '\(argument.placeholder)'")
                }
                values = [value]
            case .optional:
                values = rest.popFirst().map { [$0] } ?? []
            case .oneOrMore:
                guard !rest.isEmpty else { throw UsageError("missing argument '\(argument.placeholder)'") }
                values = Array(rest)
                rest = []
            }
            for value in values { try argument.kind.check(value) }
            argumentValues[argument.name] = values
        }
        if let extra = rest.first { throw UsageError("unexpected argument '\(extra)'") }
    }

    /// The last value given to `option`, or nil if it was not given.
    func value(of option: OptionSpec) -> String? {
        optionValues[option.name]?.last
    }

    /// Every value given to `option`, in order.
    func values(of option: OptionSpec) -> [String] {
        optionValues[option.name] ?? []
    }

    /// Whether `option` was given.
    func isSet(_ option: OptionSpec) -> Bool {
        optionValues[option.name] != nil
    }

    /// The value of an argument that is always given (`count == .one`).
    func value(of argument: ArgumentSpec) -> String {
        guard argument.count == .one, let value = argumentValues[argument.name]?.first else {
            preconditionFailure("\(argument.placeholder) is not a required argument of this command")
        }
        return value
    }

    /// The values of `argument`: none, one or several, as its count allows.
    func values(of argument: ArgumentSpec) -> [String] {
        argumentValues[argument.name] ?? []
    }
}
