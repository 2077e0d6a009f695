/// A command as data: its name, what it does, and everything it accepts. `Arguments` parses
/// by it, `Help` prints it, and `ManPage` and the shell completions are made from it too.
struct CommandSpec: Sendable {
    /// The name it is called by: `convert`, or `todofmt` for the tool itself.
    var name: String
    /// What it does, in one sentence: the help's OVERVIEW and its line among SUBCOMMANDS.
    var abstract: String
    /// More about it, as unwrapped paragraphs printed after the abstract.
    var discussion: [String] = []
    /// Its positional arguments, in order.
    var arguments: [ArgumentSpec] = []
    /// Its options, in the order help lists them, without `-h, --help` (see `allOptions`).
    var options: [OptionSpec] = []
    /// The commands it leads to; only the tool itself has some.
    var subcommands: [CommandSpec] = []

    /// Its options with `-h, --help`, which every command takes, last as in ASP's help.
    var allOptions: [OptionSpec] { options + [.help] }

    /// The option that `argument` (without any `=value`) names.
    func option(named argument: String) -> OptionSpec? {
        allOptions.first { $0.isNamed(argument) }
    }
}
