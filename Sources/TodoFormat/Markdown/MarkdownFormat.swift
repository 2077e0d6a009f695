extension DocumentFormat {
    /// A Markdown checklist (`.md`, `.markdown`).
    public static let markdown = DocumentFormat(rawValue: "md")
}

/// Markdown checklists, todofmt's own format (FORMAT.md, sections 1 to 6 and 10).
struct MarkdownFormat: ListFormat {
    var id: DocumentFormat { .markdown }
    var aliases: [String] { ["markdown"] }
    var extensions: [String] { ["md", "markdown"] }

    /// A task line in the first 200 lines; otherwise Markdown is what text falls back to.
    func recognition(of head: UnsafeBufferPointer<UInt8>) -> Recognition {
        let text = String(decoding: head, as: UTF8.self)
        for line in text.split(separator: "\n", maxSplits: 200).prefix(200) where Self.isTaskLine(line.drop { $0 == " " || $0 == "\t" }) {
            return .likely
        }
        return .fallback
    }

    func read<S: ItemSink>(_ input: Input, options: ListOptions, into sink: inout S) throws {
        try MarkdownSource(text: input.text(), path: input.name).stream(into: &sink)
    }

    func writer(to output: Output, options: ListOptions) throws -> any ListWriter {
        MarkdownWriter(into: output.makeSink(), outputName: output.name)
    }

    /// A line that starts like a task item: a list marker, white space, `[c]` and white space.
    private static func isTaskLine(_ line: Substring) -> Bool {
        var rest = line
        if let first = rest.first, "-*+".contains(first) {
            rest = rest.dropFirst()
        } else {
            let digits = rest.prefix { $0.isASCII && $0.isNumber }
            guard !digits.isEmpty else { return false }
            rest = rest.dropFirst(digits.count)
            guard let d = rest.first, d == "." || d == ")" else { return false }
            rest = rest.dropFirst()
        }
        guard rest.first == " " || rest.first == "\t" else { return false }
        rest = rest.drop { $0 == " " || $0 == "\t" }
        let chars = Array(rest.prefix(4))
        return chars.count >= 4 && chars[0] == "[" && chars[2] == "]" && (chars[3] == " " || chars[3] == "\t")
    }
}
