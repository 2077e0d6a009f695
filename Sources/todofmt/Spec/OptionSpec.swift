/// One option of a command, as data: parsing, help, the man page and the shell completions
/// are all made from it, so they cannot disagree.
struct OptionSpec: Hashable, Sendable {
    /// What a valued option takes: how help shows it, and what kind of thing it names.
    struct Value: Hashable, Sendable {
        /// The value as usage and help show it: `<format>`, `<role>=<key>`.
        var placeholder: String
        var kind: ValueKind
    }

    /// The long name, dashes included: `--from`.
    var name: String
    /// The one-letter name, dash included, if there is one: `-h`.
    var shortName: String? = nil
    /// What the option takes; nil for a flag.
    var value: Value? = nil
    /// What it does, as one unwrapped paragraph; help wraps it.
    var help: String
    /// Whether it may be given more than once, every value kept (`--field`). Any other
    /// option given twice keeps its last value, so a shell alias can be overridden.
    var repeats = false
    /// Whether it does a job instead of the command's (`--help`, `--version`); the usage
    /// line leaves it out.
    var standsAlone = false

    /// Both names and the placeholder, as the OPTIONS section shows them: `-h, --help`.
    var label: String {
        let names = [shortName, name].compactMap { $0 }.joined(separator: ", ")
        return value.map { names + " " + $0.placeholder } ?? names
    }

    /// The option as the usage line shows it: `[--field <role>=<key> ...]`.
    var synopsis: String {
        var synopsis = name
        if let value { synopsis += " " + value.placeholder }
        if repeats { synopsis += " ..." }
        return "[" + synopsis + "]"
    }

    /// Whether `argument` (without any `=value`) names this option.
    func isNamed(_ argument: String) -> Bool {
        argument == name || argument == shortName
    }

    /// `-h, --help`, which every command takes.
    static let help = OptionSpec(name: "--help", shortName: "-h", help: "Show help information.", standsAlone: true)
    /// `--version`, which todofmt takes before any subcommand.
    static let version = OptionSpec(name: "--version", help: "Show the version.", standsAlone: true)
}
