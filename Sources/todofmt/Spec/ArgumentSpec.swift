/// One positional argument of a command, as data, like `OptionSpec`.
struct ArgumentSpec: Hashable, Sendable {
    /// How many values the argument takes. Only the last argument of a command may take
    /// several, and an optional one comes after every required one.
    enum Count: Hashable, Sendable {
        case one
        case optional
        case oneOrMore
    }

    /// Its name, shown as `<name>`.
    var name: String
    var kind: ValueKind
    var count: Count = .one
    /// What it is, as one unwrapped paragraph; help wraps it.
    var help: String

    /// The argument as help shows it: `<input>`.
    var placeholder: String { "<\(name)>" }

    /// The argument as the usage line shows it: `<input>`, `[<output>]`, `<file> ...`.
    var synopsis: String {
        switch count {
        case .one: placeholder
        case .optional: "[\(placeholder)]"
        case .oneOrMore: placeholder + " ..."
        }
    }
}
