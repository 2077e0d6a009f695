import Testing
import TodoFormat

@testable import todofmt

/// The command line of `command` as `Arguments` parses it.
private func parse(_ command: String, _ arguments: [String]) throws(UsageError) -> Arguments {
    try Arguments(parsing: arguments, for: CLI.command(named: command)!.spec)
}

@Suite("Parsing a command line by a command's spec")
struct ArgumentsTests {
    @Test(
        "options stand before, between or after files; --name=value; a single option's last value wins; --field keeps all"
    )
    func optionsAnywhere() throws {
        let parsed = try parse(
            "convert",
            ["--from", "json", "a.json", "--field=name=ToDo", "b.md", "--field", "checked=Done", "--from=yml"])
        #expect(parsed.value(of: ConvertCommand.input) == "a.json")
        #expect(parsed.values(of: ConvertCommand.output) == ["b.md"])
        #expect(parsed.format(of: ConvertCommand.from) == .yaml)
        #expect(parsed.format(of: ConvertCommand.to) == nil)
        #expect(parsed.values(of: SharedOptions.field) == ["name=ToDo", "checked=Done"])
        #expect(!parsed.wantsHelp)
    }

    @Test("after --, every argument is a file, -h and -- included; - is a file anywhere")
    func terminator() throws {
        let convert = try parse("convert", ["--", "-h"])
        #expect(!convert.wantsHelp)
        #expect(convert.value(of: ConvertCommand.input) == "-h")
        let fmt = try parse("fmt", ["-", "--check", "--", "--check", "--", "-h"])
        #expect(fmt.isSet(FmtCommand.check))
        #expect(fmt.values(of: FmtCommand.file) == ["-", "--check", "--", "-h"])
        let unchecked = try parse("fmt", ["--", "--check"])
        #expect(!unchecked.isSet(FmtCommand.check))
    }

    @Test("-h or --help anywhere before -- asks for help, whatever else is wrong")
    func help() throws {
        #expect(try parse("list", ["--bogus", "--from", "csv", "--help"]).wantsHelp)
        #expect(try parse("convert", ["a", "b", "c", "-h"]).wantsHelp)
        #expect(try parse("fmt", ["-h", "--", "x"]).wantsHelp)
        #expect(throws: UsageError("unknown option '--bogus'")) { try parse("list", ["--bogus", "--", "-h"]) }
    }

    @Test(
        "mistakes, each reported by itself, the first one first",
        arguments: [
            ("convert", [], "missing argument '<input>'"),
            ("convert", ["a", "b", "c"], "unexpected argument 'c'"),
            ("list", ["a.md", "b.md"], "unexpected argument 'b.md'"),
            ("check", [], "missing argument '<file>'"),
            ("fmt", ["--check"], "missing argument '<file>'"),
            ("fmt", ["--fast", "a.md"], "unknown option '--fast'"),
            ("fmt", ["a.md", "-c"], "unknown option '-c'"),
            ("fmt", ["--check=yes", "a.md"], "option '--check' takes no value"),
            ("list", ["a.md", "--from"], "missing value for '--from'"),
            ("list", ["a.md", "--to", "json"], "unknown option '--to'"),
            (
                "convert", ["a.md", "--to", "csv"],
                "unknown format 'csv' (known: md, yaml, json, plist, bplist, sqlite, sql)"
            ),
            ("convert", ["a.md", "--to="], "unknown format '' (known: md, yaml, json, plist, bplist, sqlite, sql)"),
            (
                "check", ["--from", "csv", "--fast"],
                "unknown format 'csv' (known: md, yaml, json, plist, bplist, sqlite, sql)"
            ),
            ("check", ["--fast", "--from", "csv"], "unknown option '--fast'"),
            ("help", ["frob"], "unknown command 'frob'"),
            ("help", ["list", "fmt"], "unexpected argument 'fmt'"),
        ])
    func mistakes(command: String, arguments: [String], message: String) {
        #expect(throws: UsageError(message)) { try parse(command, arguments) }
    }

    @Test("--field ROLE=KEY becomes the schema; anything else is refused with the roles")
    func fields() throws {
        let options = try parse("list", ["a.json", "--field", "NAME=ToDo", "--field=checked=a=b"]).listOptions()
        #expect(options.schema == ItemSchema(naming: [.name: "ToDo", .checked: "a=b"]))
        let roles = "name, checked, status, section, children, fields, order"
        for bad in ["bogus", "name=", "=x", "colour=red"] {
            #expect(throws: UsageError("--field takes <role>=<key>, not '\(bad)' (roles: \(roles))")) {
                try parse("list", ["a.json", "--field", bad]).listOptions()
            }
        }
    }
}
