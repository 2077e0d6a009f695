import Testing
import TodoFormat

@testable import todofmt

/// The specs are the one source for parsing, help, the man page and the shell completions:
/// these are the rules those rely on.
@Suite("The commands' specs")
struct CommandSpecTests {
    static let specs = [CLI.spec] + CLI.spec.subcommands

    @Test("todofmt's subcommands are the commands it runs, each name once")
    func subcommands() {
        let names = CLI.spec.subcommands.map(\.name)
        #expect(names == CLI.commands.map { $0.spec.name })
        #expect(Set(names).count == names.count)
        #expect(names == ValueKind.subcommand.allowedValues)
    }

    @Test("option names are --long or -x, placeholders <…>, no name twice in a command", arguments: specs.map(\.name))
    func options(command: String) throws {
        let spec = try #require(Self.specs.first { $0.name == command })
        let names = spec.allOptions.flatMap { [$0.name] + ($0.shortName.map { [$0] } ?? []) }
        #expect(Set(names).count == names.count)
        for option in spec.allOptions {
            #expect(option.name.hasPrefix("--") && option.name.count > 3 && !option.name.contains("="))
            if let short = option.shortName { #expect(short.count == 2 && short.hasPrefix("-") && short != "--") }
            if let value = option.value {
                #expect(value.placeholder.hasPrefix("<") && value.placeholder.hasSuffix(">"))
            }
            #expect(!option.repeats || option.value != nil, "a repeating flag means nothing")
            #expect(option.value?.placeholder != "<format>" || option.value?.kind == .format)
        }
    }

    @Test("every help is one sentence-ended paragraph", arguments: specs.map(\.name))
    func helpTexts(command: String) throws {
        let spec = try #require(Self.specs.first { $0.name == command })
        let texts = [spec.abstract] + spec.discussion + spec.allOptions.map(\.help) + spec.arguments.map(\.help)
        for text in texts {
            #expect(!text.isEmpty && !text.contains("\n") && !text.contains("  ") && text.hasSuffix("."), "\(text)")
        }
    }

    @Test(
        "arguments: required ones first, then at most one optional or repeating one, last", arguments: specs.map(\.name)
    )
    func arguments(command: String) throws {
        let spec = try #require(Self.specs.first { $0.name == command })
        let counts = spec.arguments.map(\.count)
        let required = counts.prefix { $0 == .one }.count
        #expect(counts.count - required <= 1, "\(counts)")
        #expect(spec.subcommands.isEmpty || spec.arguments.isEmpty)
    }

    @Test("format values are the formats' names, and every name parses")
    func formats() {
        #expect(ValueKind.format.allowedValues == DocumentFormat.allCases.map(\.rawValue))
        for name in ValueKind.format.allowedValues { #expect(throws: Never.self) { try ValueKind.format.check(name) } }
        #expect(throws: Never.self) { try ValueKind.format.check("markdown") }
        // What shells complete: every name and alias, each once.
        let completions = ValueKind.format.completions
        #expect(Set(completions).count == completions.count && completions.contains("yml"))
        for name in completions { #expect(DocumentFormat(name: name) != nil, "\(name)") }
    }
}
