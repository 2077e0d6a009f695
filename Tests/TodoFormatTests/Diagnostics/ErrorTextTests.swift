import Foundation
import Testing

@testable import TodoFormat

/// The exact text of each error, as `todofmt` prints it after `todofmt: error: ` or alone.
@Suite("Error messages")
struct ErrorTextTests {
    @Test(
        "a parse error: the place, error:, the message",
        arguments: [
            (
                ParseError("trailing comma", at: SourceLocation(file: "bad.json", line: 2, column: 16)),
                "bad.json:2:16: error: trailing comma"
            ),
            (
                ParseError("corrupt trailer", at: SourceLocation(file: "x.plist", byteOffset: 40)),
                "x.plist: byte 40: error: corrupt trailer"
            ),
            (
                ParseError("invalid UTF-8 (byte 0xE9)", at: SourceLocation(file: "<stdin>", line: 1, column: 9)),
                "<stdin>:1:9: error: invalid UTF-8 (byte 0xE9)"
            ),
        ])
    func parseError(error: ParseError, text: String) {
        #expect(error.description == text)
        #expect(error.localizedDescription == text)
        #expect(error.errorDescription == text)
    }

    @Test("a parse error from a reader reads the same")
    func parseErrorFromReader() throws {
        do {
            _ = try TodoList(bytes: Array("[\n  {\"name\": \"a\",}\n]\n".utf8), format: .json, name: "bad.json")
            Issue.record("a trailing comma was read")
        } catch let error as ParseError {
            #expect(error.description == "bad.json:2:16: error: trailing comma")
        }
    }

    @Test(
        "a conversion error: the message alone, the file first when there is one",
        arguments: [
            (
                ConversionError.io(path: "/no/such.md", reason: "No such file or directory"),
                "/no/such.md: No such file or directory"
            ),
            (.unknownFormat("csv"), "unknown format 'csv'"),
            (.undetectableFormat(path: "notes"), "notes: cannot tell the format; name it with --from or --to"),
            (
                .unsupported("a database cannot be written to standard output; name a file"),
                "a database cannot be written to standard output; name a file"
            ),
            (
                .noList(path: "a.json", reason: "several keys hold todo lists (a, b); pick one with --key"),
                "a.json: several keys hold todo lists (a, b); pick one with --key"
            ),
            (.encoding("the list is too deep"), "the list is too deep"),
        ])
    func conversionError(error: ConversionError, text: String) {
        #expect(error.description == text)
        #expect(error.localizedDescription == text)
    }
}
