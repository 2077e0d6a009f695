import Foundation
import Testing

@testable import TodoFormat

#if YAML
/// Inputs `scripts/fuzz.sh` found, kept so that what they showed stays true.
@Suite("Fuzzing's findings")
struct FuzzFindingTests {
    @Test("a YAML error's line counts a lone CR as a line break, as YAML does, so it lies inside the input")
    func loneCarriageReturns() throws {
        let input = Array(
            ("# Chore" + String(repeating: "\r", count: 59)
                + "s for th task: Buy materialDs\n  description: >\n    Timber from the yard on Mill Road;\n    screws afd fely\n"
                + "    every: week\n    check\\d: off\n  monthly\n\ntodosl.:\n  - <t <f").utf8)
        let error = try #require(throws: ParseError.self) {
            try TodoList(bytes: input, format: .yaml, name: "chores.yaml")
        }
        #expect(error.location.line == 61 && error.location.column == 14, "\(error)")
        let lineBreaks = input.enumerated().filter {
            $0.element == 10 || ($0.element == 13 && input[$0.offset + 1] != 10)
        }.count
        #expect(error.location.line <= lineBreaks + 1)
    }
}
#endif

/// Findings that need no YAML.
@Suite("Fuzzing's findings in property lists")
struct PropertyListFuzzFindingTests {
    @Test("NUL bytes in an XML property list's string read as NUL; written again they become U+FFFD with a warning")
    func nulInXML() throws {
        let xml =
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\">\n<array>\n\t<dict>\n\t\t<key>title</key>\n"
            + "\t\t<string>Order c\0\0\u{4}[ompost</string>\n\t\t<key>isDone</key>\n\t\t<false/>\n\t</dict>\n</array>\n</plist>\n"
        let list = try TodoList(bytes: Array(xml.utf8), format: .plist, name: "found.plist")
        #expect(list.items.map(\.name) == ["Order c\0\0\u{4}[ompost"])
        var writer = try FormatRegistry.format(.plist).writer(to: .memory, options: ListOptions())
        try list.send(to: &writer)
        let written = try writer.finish()
        #expect(written.warnings.map(\.kind) == [.values])
        let back = try TodoList(bytes: written.bytes, format: .plist, name: "back.plist")
        #expect(back.items.map(\.name) == ["Order c\u{FFFD}\u{FFFD}\u{FFFD}[ompost"])
    }
}

/// A Core Data date no ISO 8601 text holds crashed the date writer (found in a dump).
@Suite("Fuzzing's findings in databases")
struct DatabaseFuzzFindingTests {
    @Test("a Core Data date past year 9999 reads as its number of seconds, and writes back as it was")
    func farDate() throws {
        let dump = """
            CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER);
            INSERT INTO Z_PRIMARYKEY VALUES(1,'Note',0,2);
            CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB);
            INSERT INTO Z_METADATA VALUES(1,'UUID',X'00');
            CREATE TABLE ZNOTE ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZTITLE VARCHAR, ZCREATIONDATE TIMESTAMP );
            INSERT INTO ZNOTE VALUES(1,1,1,'Far',1.0e300);
            INSERT INTO ZNOTE VALUES(2,1,1,'Near',738936000.5);

            """
        let list = try TodoList(bytes: Array(dump.utf8), format: .sql, name: "notes.sql")
        // Ordered by their creation dates: the far one last.
        #expect(
            list.items.map { $0[field: "ZCREATIONDATE"] } == [
                .date(Date(timeIntervalSinceReferenceDate: 738936000.5)), .double(1.0e300),
            ])
        let markdown = String(decoding: try list.encoded(as: .markdown), as: UTF8.self)
        #expect(
            markdown.contains("[ZCREATIONDATE:: 1e+300]")
                && markdown.contains("[ZCREATIONDATE:: 2024-06-01T12:00:00.5Z]"), "\(markdown)")
        let directory = try TemporaryDirectory()
        let path = directory.path("notes.sql")
        try dump.write(toFile: path, atomically: false, encoding: .utf8)
        try TodoList(markdown: markdown).write(to: URL(fileURLWithPath: path))
        #expect(try String(contentsOfFile: path, encoding: .utf8) == dump)
        #expect(ISO8601.format(Date(timeIntervalSince1970: 1e300)) == "9999-12-31T23:59:59Z")
    }
}

#if YAML
/// Mappings nested as keys of mappings took minutes (found by the fuzzer in 128 bytes).
@Suite("Fuzzing's findings in YAML keys")
struct YAMLKeyFuzzFindingTests {
    @Test("mappings nested as keys stop at the key length limit, quickly, with an error at a key")
    func nestedKeys() throws {
        let input = Array(
            (String(repeating: "{", count: 36) + String(repeating: "}", count: 70) + String(repeating: "{", count: 22))
                .utf8)
        #expect(throws: ParseError.self) { try TodoList(bytes: input, format: .yaml, name: "keys.yaml") }
        let nested = Array(
            (String(repeating: "{", count: 40) + "a: 1" + String(repeating: "}: 1", count: 40) + "\n").utf8)
        let error = try #require(throws: ParseError.self) {
            try TodoList(bytes: nested, format: .yaml, name: "keys.yaml")
        }
        #expect(error.message.contains("mapping key longer than \(Limits.keyBytes) bytes"), "\(error)")
    }
}
#endif
