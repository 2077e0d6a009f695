/// A file format todofmt reads and writes. The raw value is the command-line spelling.
public enum DocumentFormat: String, CaseIterable, Sendable {
    /// A Markdown checklist (`.md`, `.markdown`).
    case markdown = "md"
    /// todofmt's YAML list (`.yaml`, `.yml`).
    case yaml
    /// JSON: the Codable shape `[{"name": …, "checked": …}]`, or an object holding it (`.json`).
    case json
    /// An XML property list (`.plist`).
    case plist
    /// A binary property list (`.plist` with `--to bplist`, or any file starting `bplist00`).
    case bplist
    /// An SQLite database (`.sqlite`, `.sqlite3`, `.db`, `.store`, or any file starting `SQLite format 3`).
    case sqlite
    /// SQL text as `sqlite3 DB .dump` writes it (`.sql`).
    case sql

    /// A format from its command-line name; `markdown` and `yml` are accepted too.
    public init?(name: String) {
        switch name.lowercased() {
        case "md", "markdown": self = .markdown
        case "yaml", "yml": self = .yaml
        case "json": self = .json
        case "plist", "xml": self = .plist
        case "bplist", "binary": self = .bplist
        case "sqlite", "sqlite3", "db": self = .sqlite
        case "sql", "dump": self = .sql
        default: return nil
        }
    }

    /// The format a file name's extension stands for (`.plist` is XML; its content may say binary).
    public init?(path: String) {
        guard let dot = path.lastIndex(of: "."), !path[dot...].contains("/") else { return nil }
        switch path[path.index(after: dot)...].lowercased() {
        case "md", "markdown": self = .markdown
        case "yaml", "yml": self = .yaml
        case "json": self = .json
        case "plist": self = .plist
        case "sqlite", "sqlite3", "db", "store": self = .sqlite
        case "sql": self = .sql
        default: return nil
        }
    }

    /// Whether this is one of the two property list formats.
    var isPropertyList: Bool { self == .plist || self == .bplist }

    /// The format the content looks like: a binary property list by `bplist00`, an XML one by
    /// `<?xml … <plist`, JSON by its first character, a checklist by a task line, YAML by a
    /// leading `- name:` or `key: value`; nil for empty input.
    public init?(content bytes: [UInt8]) {
        var i = ByteOrderMark.length(in: bytes)
        while i < bytes.count && (bytes[i] == 32 || bytes[i] == 9 || bytes[i] == 10 || bytes[i] == 13) { i += 1 }
        guard i < bytes.count else { return nil }
        if bytes.starts(with: "bplist0".utf8) {
            self = .bplist
            return
        }
        if bytes.starts(with: "SQLite format 3\u{0}".utf8) {
            self = .sqlite
            return
        }
        if bytes[i] == UInt8(ascii: "<") {
            let head = String(decoding: bytes[i..<min(bytes.count, i + 512)], as: UTF8.self)
            if head.hasPrefix("<plist") || (head.hasPrefix("<?xml") && head.contains("<plist")) || head.contains("<!DOCTYPE plist") {
                self = .plist
                return
            }
        }
        if bytes[i] == UInt8(ascii: "{") {
            self = .json
            return
        }
        if bytes[i] == UInt8(ascii: "[") {
            var j = i + 1
            while j < bytes.count && (bytes[j] == 32 || bytes[j] == 9 || bytes[j] == 10 || bytes[j] == 13) { j += 1 }
            if j == bytes.count || "{[]\"-0123456789tfn".utf8.contains(bytes[j]) {
                self = .json
                return
            }
        }
        let head = String(decoding: bytes.prefix(64 * 1024), as: UTF8.self)
        // SQL: the first statement of a dump.
        for line in head.split(separator: "\n", maxSplits: 50).prefix(50) {
            let words = line.uppercased().split(separator: " ")
            guard let first = words.first, !first.hasPrefix("--") else { continue }
            if ["PRAGMA", "BEGIN", "CREATE", "INSERT"].contains(String(first)) && line.contains(";") {
                self = .sql
                return
            }
            break
        }
        var sawYAMLLine = false
        for line in head.split(separator: "\n", maxSplits: 200).prefix(200) {
            let trimmed = line.drop { $0 == " " || $0 == "\t" }
            if Self.isTaskLine(trimmed) {
                self = .markdown
                return
            }
            if trimmed.hasPrefix("- name:") || (line.first.map { $0.isLetter } == true && trimmed.contains(": ") && !trimmed.hasPrefix("#")) {
                sawYAMLLine = true
            }
        }
        self = sawYAMLLine ? .yaml : .markdown
    }

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
