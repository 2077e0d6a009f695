/// How an HTML block started: CommonMark's seven start conditions, each with its own end.
/// Nothing inside an HTML block is Markdown, so a task item written there is not one.
enum HTMLBlockCondition: UInt8 {
    /// 1: `<script`, `<pre` or `<style`; ends at `</script>`, `</pre>` or `</style>`.
    case rawText = 1
    /// 2: `<!--`; ends at `-->`.
    case comment
    /// 3: `<?`; ends at `?>`.
    case processingInstruction
    /// 4: `<!` and a letter; ends at `>`.
    case declaration
    /// 5: `<![CDATA[`; ends at `]]>`.
    case cdata
    /// 6: a block-level tag (`<div`, `</table>`, …); ends at a blank line.
    case blockTag
    /// 7: any other complete open or closing tag alone on its line; ends at a blank line.
    case completeTag

    /// Whether a blank line ends the block (conditions 6 and 7); the others end only at their
    /// end marker.
    var endsAtBlankLine: Bool { rawValue >= 6 }

    /// The condition of an HTML block that starts at `i` (a `<`) on `line`, if one does.
    /// Condition 7 cannot interrupt a paragraph, so `canBeCompleteTag` is false after one.
    static func start(at i: Int, in line: LineCursor, canBeCompleteTag: Bool) -> HTMLBlockCondition? {
        guard line.byte(i) == UInt8(ascii: "<") else { return nil }
        for tag in rawTextTags where line.hasPrefix(tag, at: i + 1, ignoringCase: true) {
            let next = line.byte(i + 1 + tag.count)
            if LineCursor.isSpaceOrTab(next) || next == UInt8(ascii: "\n") || next == UInt8(ascii: ">") {
                return .rawText
            }
        }
        if line.hasPrefix(commentStart, at: i, ignoringCase: false) { return .comment }
        if line.byte(i + 1) == UInt8(ascii: "?") { return .processingInstruction }
        if line.byte(i + 1) == UInt8(ascii: "!") && isLetter(line.byte(i + 2)) { return .declaration }
        if line.hasPrefix(cdataStart, at: i, ignoringCase: false) { return .cdata }
        if isBlockTag(at: i, in: line) { return .blockTag }
        if canBeCompleteTag, let end = completeTagEnd(at: i, in: line), line.isBlank(from: end) {
            return .completeTag
        }
        return nil
    }

    /// Whether `line`, from `i`, holds the end marker of a block that started this way.
    func ends(in line: LineCursor, from i: Int) -> Bool {
        let needles: [[UInt8]]
        switch self {
        case .rawText: needles = Self.rawTextEnds
        case .comment: needles = Self.commentEnds
        case .processingInstruction: needles = Self.processingInstructionEnds
        case .declaration: needles = Self.declarationEnds
        case .cdata: needles = Self.cdataEnds
        case .blockTag, .completeTag: return false
        }
        var j = i
        while j < line.end {
            for needle in needles where line.hasPrefix(needle, at: j, ignoringCase: true) { return true }
            j += 1
        }
        return false
    }

    // MARK: Tags and markers

    private static let rawTextTags = bytes(["script", "pre", "style"])
    private static let commentStart = Array("<!--".utf8)
    private static let cdataStart = Array("<![CDATA[".utf8)

    // End markers, by condition.
    private static let rawTextEnds = bytes(["</script>", "</pre>", "</style>"])
    private static let commentEnds = bytes(["-->"])
    private static let processingInstructionEnds = bytes(["?>"])
    private static let declarationEnds = bytes([">"])
    private static let cdataEnds = bytes(["]]>"])

    private static func bytes(_ strings: [String]) -> [[UInt8]] { strings.map { Array($0.utf8) } }

    /// The tag names of condition 6, lower case.
    private static let blockTags = bytes([
        "address", "article", "aside", "base", "basefont", "blockquote", "body", "caption", "center", "col",
        "colgroup", "dd", "details", "dialog", "dir", "div", "dl", "dt", "fieldset", "figcaption", "figure",
        "footer", "form", "frame", "frameset", "h1", "h2", "h3", "h4", "h5", "h6", "head", "header", "hr",
        "html", "iframe", "legend", "li", "link", "main", "menu", "menuitem", "nav", "noframes", "ol",
        "optgroup", "option", "p", "param", "section", "source", "summary", "table", "tbody", "td",
        "tfoot", "th", "thead", "title", "tr", "track", "ul",
    ])

    private static func isLetter(_ b: UInt8) -> Bool {
        (b | 0x20) >= UInt8(ascii: "a") && (b | 0x20) <= UInt8(ascii: "z")
    }
    private static func isDigit(_ b: UInt8) -> Bool { b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9") }

    /// `<` or `</`, a block-level tag name, then white space, the line's end, `>` or `/>`.
    private static func isBlockTag(at i: Int, in line: LineCursor) -> Bool {
        var j = i + 1
        if line.byte(j) == UInt8(ascii: "/") { j += 1 }
        let nameStart = j
        // No tag name is longer than 12 characters.
        while j < line.end && (isLetter(line.text[j]) || isDigit(line.text[j])) && j - nameStart < 12 { j += 1 }
        guard j > nameStart, isLetter(line.text[nameStart]) else { return false }
        let length = j - nameStart
        guard blockTags.contains(where: { $0.count == length && line.hasPrefix($0, at: nameStart, ignoringCase: true) })
        else { return false }
        let next = line.byte(j)
        return LineCursor.isSpaceOrTab(next) || next == UInt8(ascii: "\n") || next == UInt8(ascii: ">")
            || (next == UInt8(ascii: "/") && line.byte(j + 1) == UInt8(ascii: ">"))
    }

    /// The end of a complete open or closing tag at `i` (condition 7).
    private static func completeTagEnd(at i: Int, in line: LineCursor) -> Int? {
        var j = i + 1
        let closing = line.byte(j) == UInt8(ascii: "/")
        if closing { j += 1 }
        guard isLetter(line.byte(j)) else { return nil }
        while isLetter(line.byte(j)) || isDigit(line.byte(j)) || line.byte(j) == UInt8(ascii: "-") { j += 1 }
        func skipSpace() -> Bool {
            let start = j
            while LineCursor.isSpaceOrTab(line.byte(j)) { j += 1 }
            return j > start
        }
        if closing {
            _ = skipSpace()
            return line.byte(j) == UInt8(ascii: ">") ? j + 1 : nil
        }
        while true {
            let hadSpace = skipSpace()
            let c = line.byte(j)
            if c == UInt8(ascii: ">") { return j + 1 }
            if c == UInt8(ascii: "/") { return line.byte(j + 1) == UInt8(ascii: ">") ? j + 2 : nil }
            // An attribute: its name, then perhaps `=` and a value.
            guard hadSpace, isLetter(c) || c == UInt8(ascii: "_") || c == UInt8(ascii: ":") else { return nil }
            while true {
                let b = line.byte(j)
                guard
                    isLetter(b) || isDigit(b) || b == UInt8(ascii: "_") || b == UInt8(ascii: ".")
                        || b == UInt8(ascii: ":") || b == UInt8(ascii: "-")
                else { break }
                j += 1
            }
            let save = j
            _ = skipSpace()
            guard line.byte(j) == UInt8(ascii: "=") else {
                j = save
                continue
            }
            j += 1
            _ = skipSpace()
            let q = line.byte(j)
            if q == UInt8(ascii: "\"") || q == UInt8(ascii: "'") {
                j += 1
                while j < line.end && line.text[j] != q { j += 1 }
                guard j < line.end else { return nil }
                j += 1
            } else {
                let start = j
                while j < line.end {
                    let b = line.text[j]
                    if LineCursor.isSpaceOrTab(b) || b == UInt8(ascii: "\"") || b == UInt8(ascii: "'")
                        || b == UInt8(ascii: "=") || b == UInt8(ascii: "<") || b == UInt8(ascii: ">")
                        || b == UInt8(ascii: "`")
                    {
                        break
                    }
                    j += 1
                }
                guard j > start else { return nil }
            }
        }
    }
}

extension LineCursor {
    /// Whether the line holds `prefix` at `i`; `ignoringCase` lowers ASCII letters of the line first.
    func hasPrefix(_ prefix: [UInt8], at i: Int, ignoringCase: Bool) -> Bool {
        guard i >= 0, prefix.count <= end - i else { return false }
        for (k, p) in prefix.enumerated() {
            var b = text[i + k]
            if ignoringCase && b >= UInt8(ascii: "A") && b <= UInt8(ascii: "Z") { b += 32 }
            if b != p { return false }
        }
        return true
    }
}
