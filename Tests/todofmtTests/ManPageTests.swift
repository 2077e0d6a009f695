import Foundation
import Testing

@testable import todofmt

@Suite("The man page")
struct ManPageTests {
    /// The page in a temporary folder, as the tools read it.
    static func pageFile() throws -> Workspace { try Workspace(["todofmt.1": ManPage.text()]) }

    /// The page as man shows it 80 columns wide, bold and underline taken out.
    static func rendered() throws -> Run {
        let page = try pageFile()
        var run = try Tools.run(
            try Tools.man(), ["-l", "-Tutf8", page.url.appendingPathComponent("todofmt.1").path],
            environment: ["MANWIDTH": "80"])
        var plain = ""
        for character in run.stdout {
            if character == "\u{8}" { _ = plain.popLast() } else { plain.append(character) }
        }
        run.stdout = plain
        return run
    }

    /// Runs of white space as one space, so text reads the same however it was filled.
    static func squeezed(_ text: some StringProtocol) -> String {
        text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    /// The entries of a help section (ARGUMENTS, OPTIONS) as help prints them: each label with
    /// its description unwrapped.
    static func helpEntries(_ section: String, of spec: CommandSpec) -> [(label: String, description: String)] {
        let text = Help.text(for: spec, under: spec.name == CLI.name ? nil : CLI.spec)
        guard let start = text.range(of: "\n\(section):\n") else { return [] }
        var entries: [(label: String, description: String)] = []
        for line in text[start.upperBound...].split(separator: "\n", omittingEmptySubsequences: false) {
            if line.isEmpty { break }
            if line.hasPrefix(String(repeating: " ", count: Help.descriptionColumn)) {
                entries[entries.count - 1].description += " " + line.trimmingCharacters(in: .whitespaces)
            } else {
                let label = line.dropFirst(2).components(separatedBy: "  ")[0]
                let description = line.dropFirst(2 + label.count).trimmingCharacters(in: .whitespaces)
                entries.append((label, description))
            }
        }
        return entries
    }

    /// The text of a man page section (`OPTIONS`) or of a subsection under COMMANDS (`convert`).
    static func part(_ name: String, of page: String, subsection: Bool) -> String? {
        let lines = page.split(separator: "\n", omittingEmptySubsequences: false)
        let heading = subsection ? "   " + name : name
        guard let start = lines.firstIndex(where: { $0 == heading }) else { return nil }
        let body = lines[(start + 1)...].prefix { line in
            let isSection = !line.isEmpty && line.first != " "
            let isSubsection = line.hasPrefix("   ") && !line.hasPrefix("    ")
            return !isSection && !(subsection && isSubsection)
        }
        return body.joined(separator: "\n")
    }

    @Test("groff finds nothing to warn about, with every warning on")
    func groffWarnings() throws {
        let page = try Self.pageFile()
        let run = try Tools.run(
            try Tools.path(of: "groff"), ["-ww", "-z", "-man", page.url.appendingPathComponent("todofmt.1").path])
        #expect(run.status == 0)
        #expect(run.stderr == "")
    }

    @Test("man -l renders it without a warning, every line within 80 columns, no word hyphenated")
    func renders() throws {
        let run = try Self.rendered()
        #expect(run.status == 0)
        #expect(run.stderr == "")
        let lines = run.stdout.split(separator: "\n")
        #expect(lines.first?.hasPrefix("TODOFMT(1)") == true)
        #expect(lines.last?.hasPrefix("todofmt \(CLI.version) ") == true)
        for line in lines { #expect(line.count <= 80, "\(line)") }
        #expect(!run.stdout.contains("\u{2010}"), "a hyphenated word")
        for section in [
            "NAME", "SYNOPSIS", "DESCRIPTION", "OPTIONS", "COMMANDS", "EXIT STATUS", "ENVIRONMENT", "EXAMPLES",
        ] {
            #expect(lines.contains { $0 == section }, "\(section)")
        }
    }

    @Test("each command's section has its overview, and every argument and option with the words help prints")
    func sameAsHelp() throws {
        let page = try Self.rendered().stdout
        for spec in [CLI.spec] + CLI.spec.subcommands {
            let isTool = spec.name == CLI.name
            let description = try #require(
                isTool
                    ? Self.part("DESCRIPTION", of: page, subsection: false)
                    : Self.part(spec.name, of: page, subsection: true),
                "\(spec.name)")
            let options = try #require(isTool ? Self.part("OPTIONS", of: page, subsection: false) : description)
            for paragraph in [spec.abstract] + spec.discussion {
                #expect(Self.squeezed(description).contains(Self.squeezed(paragraph)), "\(spec.name): \(paragraph)")
            }
            let arguments = Self.helpEntries("ARGUMENTS", of: spec)
            let optionEntries = Self.helpEntries("OPTIONS", of: spec)
            #expect(arguments.map(\.label) == spec.arguments.map(\.placeholder))
            #expect(optionEntries.map(\.label) == spec.allOptions.map(\.label))
            // The man page shows <placeholders> in italics, without their brackets.
            for (label, text) in arguments + optionEntries {
                let entry = Self.squeezed(label.filter { $0 != "<" && $0 != ">" } + " " + text)
                #expect(Self.squeezed(options).contains(entry), "\(spec.name): \(entry)")
            }
        }
    }

    @Test("SYNOPSIS has every command's usage line")
    func synopsis() throws {
        let page = try Self.rendered().stdout
        let synopsis = Self.squeezed(try #require(Self.part("SYNOPSIS", of: page, subsection: false)))
        for spec in CLI.spec.subcommands {
            let usage = Self.squeezed(Help.usage(of: spec, under: CLI.spec)).filter { $0 != "<" && $0 != ">" }
            #expect(synopsis.contains(usage), "\(usage)")
        }
        #expect(synopsis.contains("todofmt --version"))
    }

    @Test("EXIT STATUS has every exit code; ENVIRONMENT has TODOFMT_NOW")
    func exitStatusAndEnvironment() throws {
        let page = try Self.rendered().stdout
        let status = Self.squeezed(try #require(Self.part("EXIT STATUS", of: page, subsection: false)))
        for code in ExitCode.allCases { #expect(status.contains("\(code.rawValue) \(Self.squeezed(code.meaning))")) }
        let environment = try #require(Self.part("ENVIRONMENT", of: page, subsection: false))
        #expect(environment.contains("TODOFMT_NOW"))
    }

    @Test("every example is a command line todofmt accepts", arguments: ManPage.examples.map(\.command))
    func examples(command: String) throws {
        // The words up to a shell redirection: todofmt, a subcommand, its arguments.
        let words = command.split(separator: " ").map(String.init).prefix { !["<", ">", "|"].contains($0) }
        #expect(words.first == CLI.name)
        let subcommand = try #require(CLI.command(named: words.dropFirst().first ?? ""))
        #expect(throws: Never.self) { try Arguments(parsing: Array(words.dropFirst(2)), for: subcommand.spec) }
    }

    @Test("todofmt help --man prints the page; naming a subcommand too is a usage error")
    func command() throws {
        let run = try Run(["help", "--man"])
        #expect(run.status == 0 && run.stderr.isEmpty)
        #expect(run.stdout == ManPage.text())
        let wrong = try Run(["help", "--man", "convert"])
        #expect(wrong.status == 64 && wrong.stdout.isEmpty)
        #expect(
            wrong.stderr.hasPrefix(
                "todofmt: error: --man prints the whole manual; leave out 'convert'\nUSAGE: todofmt help"))
    }

    @Test("roff escapes: dashes and backslashes, a leading dot, option names bold and placeholders italic")
    func roff() {
        #expect(Roff.escaped(#"a-b \ c"#) == #"a\-b \e c"#)
        #expect(Roff.escaped(".plist files") == #"\&.plist files"#)
        #expect(Roff.escaped("'quoted'") == #"\&'quoted'"#)
        #expect(Roff.usage("[--field <role>=<key> ...]") == #"[\fB\-\-field\fR \fIrole\fR=\fIkey\fR ...]"#)
        #expect(Roff.usage("-h, --help") == #"\fB\-h\fR, \fB\-\-help\fR"#)
    }
}
