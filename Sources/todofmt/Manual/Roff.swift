/// Text for the man macros of roff (man(7)), which the man page is written in.
enum Roff {
    /// `text` as running text: a backslash as `\e`, a dash as `\-` (the dash options are
    /// typed with; a plain `-` may print as a hyphen), and `\&` before a leading `.` or `'`
    /// so the line is not read as a request.
    static func escaped(_ text: some StringProtocol) -> String {
        var result = ""
        for character in text { append(character, to: &result) }
        if result.hasPrefix(".") || result.hasPrefix("'") { result = "\\&" + result }
        return result
    }

    /// A usage line or an option's label as man pages show them: option names bold,
    /// `<placeholders>` italic without their brackets (`[\fB\-\-from\fR \fIformat\fR]`).
    static func usage(_ text: String) -> String {
        var result = ""
        var rest = text[...]
        var atWordStart = true
        while let character = rest.first {
            if character == "<", let close = rest.firstIndex(of: ">") {
                result += "\\fI" + escaped(rest.dropFirst().prefix { $0 != ">" }) + "\\fR"
                rest = rest[rest.index(after: close)...]
                atWordStart = false
            } else if character == "-" && atWordStart {
                let name = rest.prefix { $0 == "-" || $0.isLetter || $0.isNumber }
                result += "\\fB" + escaped(name) + "\\fR"
                rest = rest.dropFirst(name.count)
                atWordStart = false
            } else {
                append(character, to: &result)
                rest = rest.dropFirst()
                atWordStart = character == " " || character == "["
            }
        }
        return result
    }

    private static func append(_ character: Character, to result: inout String) {
        switch character {
        case "\\": result += "\\e"
        case "-": result += "\\-"
        default: result.append(character)
        }
    }
}
