import Testing

@testable import TodoFormat

@Suite("Source locations")
struct SourceLocationTests {
    static func location(of offset: Int, in text: String) -> TodoFormat.SourceLocation {
        Array(text.utf8).withUnsafeBufferPointer { SourceLocation.of(offset: offset, in: $0, file: "f.md") }
    }

    @Test(
        "a byte offset becomes a line and a column counted from 1",
        arguments: [
            ("abc", 0, 1, 1),
            ("abc", 2, 1, 3),
            ("abc", 3, 1, 4),
            ("ab\ncd\n", 2, 1, 3),  // the newline ends line 1
            ("ab\ncd\n", 3, 2, 1),
            ("ab\ncd\n", 4, 2, 2),
            ("ab\ncd\n", 6, 3, 1),  // after the last newline: an empty line 3
            ("\n\n\nx", 3, 4, 1),
            ("", 0, 1, 1),
        ])
    func lines(text: String, offset: Int, line: Int, column: Int) {
        #expect(Self.location(of: offset, in: text) == SourceLocation(file: "f.md", line: line, column: column))
    }

    @Test(
        "columns count Unicode scalars, not bytes or characters",
        arguments: [
            ("aé b", 4, 4),  // é is two bytes
            ("😀x", 4, 2),  // four bytes
            ("主线：x", 9, 4),  // three bytes each
            ("e\u{301}x", 3, 3),  // e and a combining accent: one character, two scalars
            ("🇫🇷x", 8, 3),  // a flag: one character, two scalars of four bytes
            ("aé", 2, 3),  // inside é: the column after its first byte
        ])
    func columns(text: String, offset: Int, column: Int) {
        #expect(Self.location(of: offset, in: text) == SourceLocation(file: "f.md", line: 1, column: column))
    }

    @Test(
        "with CRLF, the carriage return is the last column of its line",
        arguments: [
            ("a\r\nb\r\n", 1, 1, 2),
            ("a\r\nb\r\n", 2, 1, 3),
            ("a\r\nb\r\n", 3, 2, 1),
            ("a\r\nb\r\n", 4, 2, 2),
            ("a\rb", 2, 1, 3),  // a lone CR does not end a line
        ])
    func crlf(text: String, offset: Int, line: Int, column: Int) {
        #expect(Self.location(of: offset, in: text) == SourceLocation(file: "f.md", line: line, column: column))
    }

    @Test(
        "an offset past the end is the end of the text",
        arguments: [
            ("ab\ncd", 5, 2, 3),
            ("ab\ncd", 6, 2, 3),
            ("ab\ncd", 1000, 2, 3),
            ("ab\n", 99, 2, 1),
            ("", 5, 1, 1),
        ])
    func pastTheEnd(text: String, offset: Int, line: Int, column: Int) {
        #expect(Self.location(of: offset, in: text) == SourceLocation(file: "f.md", line: line, column: column))
    }

    @Test("the file is named as given")
    func file() {
        let location = Array("x\ny".utf8).withUnsafeBufferPointer {
            SourceLocation.of(offset: 2, in: $0, file: "<stdin>")
        }
        #expect(location.file == "<stdin>")
        #expect(location.byteOffset == nil)
    }

    @Test(
        "description: path:line:column in text, path: byte N in binary files",
        arguments: [
            (TodoFormat.SourceLocation(file: "list.md", line: 3, column: 7), "list.md:3:7"),
            (SourceLocation(file: "<stdin>", line: 1, column: 1), "<stdin>:1:1"),
            (SourceLocation(file: "dir with space/a.json", line: 12, column: 40), "dir with space/a.json:12:40"),
            (SourceLocation(file: "a.plist", byteOffset: 42), "a.plist: byte 42"),
            (SourceLocation(file: "a.plist", byteOffset: 0), "a.plist: byte 0"),
        ])
    func description(location: TodoFormat.SourceLocation, text: String) {
        #expect(location.description == text)
    }

    @Test("a byte offset place has no line or column")
    func byteOffsetPlace() {
        let location = SourceLocation(file: "a.plist", byteOffset: 42)
        #expect(location.line == 0 && location.column == 0 && location.byteOffset == 42)
    }
}
