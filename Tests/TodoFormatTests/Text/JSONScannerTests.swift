import Testing

@testable import TodoFormat

@Suite("A text's one JSON value")
struct JSONScannerTests {
    /// The value the whole parse gives, without `wholeValue`'s look at the first bytes.
    private static func parsed(_ text: String) -> FieldValue? {
        Array(text.utf8).withUnsafeBufferPointer { buffer in
            var scanner = JSONScanner(bytes: buffer, path: "")
            guard let value = try? scanner.value(), (try? scanner.expectEnd()) != nil else { return nil }
            return value
        }
    }

    // Names, statuses and the starts of values: each cut where the look at the first bytes
    // decides, and past it.
    static let texts = [
        "", " ", "-", "- ", "--", "-1", "- 1", "-.5", "-e", "-x", "-1e3", "+1", "1", " 12 ", "1.5", "01", "1x", "t",
        "tru", "true", " true ", "truex", "true false", "f", "false", "fals", "n", "nul", "null", "naïve résumé",
        "null!", "fix the build", "done ✅", "/", "x", "\"a\"", "\"a", " \"b\" ", "[1, 2]", "[", "{\"a\": 1}", "{",
        "Infinity", "NaN", "日本語", "\u{FEFF}1", "\u{FEFF}true", "\t\n[]",
    ]

    @Test("looking at the first bytes gives what the whole parse gives", arguments: texts)
    func sameAsParse(text: String) {
        #expect(JSONScanner.wholeValue(of: Array(text.utf8)) == Self.parsed(text))
    }

    @Test("values, and texts that hold none")
    func values() {
        #expect(JSONScanner.wholeValue(of: Array("-1".utf8)) == .integer(-1))
        #expect(JSONScanner.wholeValue(of: Array(" true ".utf8)) == .bool(true))
        #expect(JSONScanner.wholeValue(of: Array("[1]".utf8)) == .array([.integer(1)]))
        for text in ["-", "naïve", "nul", "truex", "fix", "- 1"] {
            #expect(JSONScanner.wholeValue(of: Array(text.utf8)) == nil)
        }
    }
}
