#if YAML
import Testing

@testable import TodoFormat

@Suite("YAML scalar types")
struct YAMLValueTests {
    @Test(
        "a string is quoted when some YAML reader would take its plain form for another type",
        arguments: [
            ("", true), ("yes", true), ("No", true), ("ON", true), ("off", true), ("y", true), ("N", true),
            ("null", true), ("NULL", true), ("~", true), ("=", true), ("<<", true), ("true", true),
            ("False", true), ("0x1F", true), ("0o17", true), ("1_000", true), ("1:20", true), (".inf", true),
            ("-.5", true), ("+1", true), ("2024-05-01", true), ("2024-05-01 09:30", true), ("a\tb", true),
            ("line\nbreak", true), ("Milk", false), ("nothing", false), ("Yesterday", false), ("often", false),
            ("offer", false), ("nullish", false), ("truest", false), ("=x", false), ("<", false),
            ("-", false), ("- done", false), ("x1", false), ("İyes", false), ("\u{212A}", false),
        ])
    func quoted(text: String, quoted: Bool) {
        #expect(YAMLValue.needsQuotes(text) == quoted)
    }

    @Test("the byte test agrees with the rule spelled out on every short text of the letters that matter")
    func agreesWithRule() {
        // Letters that start or make up YAML's typed words and numbers, and some that do not.
        let alphabet: [String] = [
            "y", "Y", "e", "s", "n", "N", "o", "O", "f", "F", "u", "l", "L", "t", "r", "a", "~", "=", "<", ".",
            "+", "-", "0", "1", "9", "x", "_", ":", "e", " ", "İ", "\u{212A}", "\u{0}",
        ]
        var generator = SeededGenerator(seed: 11)
        for _ in 0..<60_000 {
            let count = Int(generator.next() % 6)
            let text = (0..<count).map { _ in alphabet[Int(generator.next() % UInt64(alphabet.count))] }.joined()
            #expect(YAMLValue.needsQuotes(text) == Self.rule(text), "\(text.debugDescription)")
        }
    }

    @Test("a plain key reads as its scalar resolves (null, true, false in three casings), a quoted one as written")
    func keys() {
        let plain = { (text: String) in YAMLEvent.Scalar(text: text, style: .plain) }
        #expect(YAMLValue.key(plain("name")) == "name")
        #expect(YAMLValue.key(plain("TRUE")) == "true" && YAMLValue.key(plain("Null")) == "null")
        #expect(YAMLValue.key(plain("False")) == "false" && YAMLValue.key(plain("tRUE")) == "tRUE")
        #expect(YAMLValue.key(plain("1")) == "1" && YAMLValue.key(plain("0x1F")) == "31")
        #expect(YAMLValue.key(YAMLEvent.Scalar(text: "true", style: .singleQuoted)) == "true")
        #expect(YAMLValue.key(YAMLEvent.Scalar(text: "null", style: .doubleQuoted)) == "null")
        // An empty key is the empty text (as todofmt has always read it).
        #expect(YAMLValue.key(plain("")) == "")
        // Every other short text of these letters reads as resolving it reads.
        let alphabet: [String] = [
            "n", "N", "u", "l", "L", "t", "T", "r", "R", "e", "E", "f", "F", "a", "s", "_", "1", ".", "x",
        ]
        var generator = SeededGenerator(seed: 5)
        for _ in 0..<40_000 {
            let count = 1 + Int(generator.next() % 6)
            let text = (0..<count).map { _ in alphabet[Int(generator.next() % UInt64(alphabet.count))] }.joined()
            let expected = YAMLValue.keyText(YAMLValue.resolve(plain(text)))
            #expect(YAMLValue.key(plain(text)) == expected, "\(text.debugDescription)")
        }
    }

    /// FORMAT.md's rule as plainly as it reads: a YAML 1.2 typed value, a YAML 1.1 word
    /// (any case), or text made of what YAML 1.1 numbers and dates are made of.
    static func rule(_ s: String) -> Bool {
        if s.isEmpty || s.contains(where: { $0 == "\n" || $0 == "\r" || $0 == "\t" || $0 == "\r\n" }) { return true }
        if YAMLValue.resolvePlain(s) != nil { return true }
        if ["y", "n", "yes", "no", "on", "off", "=", "<<", "null", "~"].contains(s.lowercased()) { return true }
        var rest = Substring(s)
        if rest.first == "+" || rest.first == "-" { rest = rest.dropFirst() }
        guard let first = rest.first, first.isASCII && (first.isNumber || first == ".") else { return false }
        let b = Array(rest.utf8)
        if b.count >= 8, b[0..<4].allSatisfy({ $0 >= 48 && $0 <= 57 }), b[4] == UInt8(ascii: "-") { return true }
        return rest.contains(where: \.isNumber) && rest.allSatisfy { "0123456789abcdefABCDEFxXoO_:.+-".contains($0) }
    }
}
#endif
