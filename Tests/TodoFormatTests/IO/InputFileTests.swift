import Foundation
import Testing

@testable import TodoFormat

@Suite("Reading text files")
struct InputFileTests {
    @Test("a file's text reads back byte for byte, U+FFFD of its own included, with room to grow")
    func text() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("a.md")
        for content in [
            "", "- [ ] a\n", "- [ ] \u{FFFD} kept\n", "\u{FFFD}", "- [ ] 日本語 🚀 \u{FFFD}\u{FFFD}\n# x\n",
            "- [ ] a long enough name\n",
        ] {
            try Data(content.utf8).write(to: URL(fileURLWithPath: path))
            var text = try InputFile.readText(path, name: "a.md", room: 100)
            #expect(Array(text.utf8) == Array(content.utf8))
            // Room: a write of that many bytes more keeps the storage (no copy of a large file).
            let before = text.withUTF8 { $0.baseAddress }
            // (A text of up to 15 bytes is stored in the string's own value.)
            if content.utf8.count > 15 {
                text += String(repeating: "x", count: 100)
                #expect(text.withUTF8 { $0.baseAddress } == before)
            }
        }
    }

    @Test("bytes that are not UTF-8 are an error at the first of them, however they would be repaired")
    func invalid() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("bad.md")
        // Each broken sequence; a cut-off four-byte one is repaired into as many bytes as it had.
        let broken: [[UInt8]] = [[0xE9], [0xF0, 0x9F, 0x98], [0xED, 0xA0, 0x80], [0xC0, 0xAF], [0xFF], [0xBF]]
        for bad in broken {
            let bytes = Array("- [ ] ok\n- [ ] 日".utf8) + bad + Array(" \u{FFFD}\n".utf8)
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            let byte = String(bad[0], radix: 16, uppercase: true)
            #expect(
                throws: ParseError(
                    "invalid UTF-8 (byte 0x\(byte))", at: SourceLocation(file: "bad.md", line: 2, column: 8))
            ) {
                try InputFile.readText(path, name: "bad.md")
            }
        }
    }
}
