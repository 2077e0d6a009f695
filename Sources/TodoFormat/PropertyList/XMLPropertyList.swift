import Foundation

// XML property lists, read and written by todofmt itself: Foundation's parser takes 24.6 s
// on the 1,000,000-item list on Linux (Swift 6.3.1), where the goal is half of
// Python's plistlib (8.07 s). The reader takes the elements of Apple's DTD (plist, dict,
// key, array, string, integer, real, true, false, date, data) with XML's comments,
// processing instructions, DOCTYPE, CDATA and character references. Tests check both
// directions against plistlib, plistutil and Foundation.

struct XMLPropertyListReader {
    let bytes: UnsafeBufferPointer<UInt8>
    let path: String
    var position = 0

    init(bytes: UnsafeBufferPointer<UInt8>, path: String) {
        self.bytes = bytes
        self.path = path
        position = ByteOrderMark.length(in: bytes)
    }

    func error(_ message: String, at offset: Int? = nil) -> ParseError {
        ParseError(message, at: SourceLocation.of(offset: offset ?? position, in: bytes, file: path))
    }

    /// A tag: its name, whether it closes (`</x>`) or is empty (`<x/>`), and where it starts.
    struct Tag {
        /// The name's bytes in the file (not a copy: a scan makes a tag per element).
        var name: UnsafeBufferPointer<UInt8>
        var isClosing: Bool
        var isEmpty: Bool
        var offset: Int
        /// Whether the tag's name is `word` (compared in place, as `hasName`: the generic
        /// `elementsEqual` was a tenth of reading an item).
        func `is`(_ word: StaticString) -> Bool {
            hasName(UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount))
        }
        func isNamed(_ word: String) -> Bool {
            var word = word
            return word.withUTF8 { hasName($0) }
        }
        var text: String { String(decoding: name, as: UTF8.self) }
        /// Whether the tag's name is `other` (compared in place).
        func hasName(_ other: UnsafeBufferPointer<UInt8>) -> Bool {
            guard name.count == other.count else { return false }
            guard let a = name.baseAddress, let b = other.baseAddress else { return true }
            return ByteScan.same(a, b, count: name.count)
        }
    }

    private mutating func skipSpace() {
        // A space, tab, line feed or carriage return: one bit each of a word (the run between
        // two tags of an indented file, `\n\t\t`, is most of the bytes that are skipped).
        let spaces: UInt64 = 1 << 32 | 1 << 9 | 1 << 10 | 1 << 13
        while position < bytes.count {
            let c = bytes[position]
            guard c <= 32, spaces >> UInt64(c) & 1 != 0 else { return }
            position += 1
        }
    }

    private func starts(with word: StaticString, at i: Int) -> Bool { ByteScan.has(word, at: i, in: bytes) }

    /// Moves past `end`, or fails with `what`.
    private mutating func skip(past end: StaticString, what: String) throws(ParseError) {
        let start = position
        let first = end.utf8Start.pointee
        while position < bytes.count {
            if bytes[position] == first && starts(with: end, at: position) {
                position += end.utf8CodeUnitCount
                return
            }
            position += 1
        }
        throw error("unterminated \(what)", at: start)
    }

    /// The next tag, skipping white space, comments, processing instructions and the DOCTYPE.
    mutating func nextTag() throws(ParseError) -> Tag {
        while true {
            skipSpace()
            guard position < bytes.count else { throw error("unexpected end of the property list") }
            guard bytes[position] == UInt8(ascii: "<") else { throw error("unexpected text outside an element") }
            // Only `<!` and `<?` start what is not a tag (checked first: most are tags).
            let second = position + 1 < bytes.count ? bytes[position + 1] : 0
            if second != UInt8(ascii: "!") && second != UInt8(ascii: "?") {
                return try tag()
            } else if starts(with: "<!--", at: position) {
                try skip(past: "-->", what: "comment")
            } else if starts(with: "<?", at: position) {
                try skip(past: "?>", what: "processing instruction")
            } else if starts(with: "<!DOCTYPE", at: position) {
                try skip(past: ">", what: "DOCTYPE")
            } else {
                return try tag()
            }
        }
    }

    @inline(__always)
    private mutating func tag() throws(ParseError) -> Tag {
        let start = position
        let count = bytes.count
        let p = bytes.baseAddress!
        var i = start + 1
        let isClosing = i < count && p[i] == UInt8(ascii: "/")
        if isClosing { i += 1 }
        let nameStart = i
        // A name's letters are past `>`, the last byte that can end it: eight bytes at a
        // time, the first byte below `?` is found, then looked at.
        while i < count {
            if i + 8 <= count {
                let below = ByteScan.hasBelow(
                    UInt64(littleEndian: UnsafeRawPointer(p + i).loadUnaligned(as: UInt64.self)), 0x3F)
                if below == 0 {
                    i += 8
                    continue
                }
                i += below.trailingZeroBitCount >> 3
            } else if p[i] > UInt8(ascii: ">") {
                i += 1
                continue
            }
            let c = p[i]
            if c == UInt8(ascii: ">") || c == UInt8(ascii: "/") || c == 32 || c == 9 || c == 10 || c == 13 { break }
            i += 1
        }
        position = i
        let name = UnsafeBufferPointer(start: p + nameStart, count: i - nameStart)
        guard !name.isEmpty else { throw error("malformed tag", at: start) }
        // Most tags end with their name: `<key>`, `</key>`, `<true/>`.
        if i < count && p[i] == UInt8(ascii: ">") {
            position = i + 1
            return Tag(name: name, isClosing: isClosing, isEmpty: false, offset: start)
        }
        if i + 1 < count && p[i] == UInt8(ascii: "/") && p[i + 1] == UInt8(ascii: ">") {
            position = i + 2
            return Tag(name: name, isClosing: isClosing, isEmpty: !isClosing, offset: start)
        }
        // Attributes (plist's version) are skipped; quoted values may hold '>'.
        var quote: UInt8 = 0
        while position < bytes.count {
            let c = bytes[position]
            if quote != 0 {
                if c == quote { quote = 0 }
            } else if c == UInt8(ascii: "\"") || c == UInt8(ascii: "'") {
                quote = c
            } else if c == UInt8(ascii: ">") {
                break
            }
            position += 1
        }
        guard position < bytes.count else { throw error("unterminated tag", at: start) }
        let isEmpty = bytes[position - 1] == UInt8(ascii: "/") && !isClosing
        position += 1
        return Tag(name: name, isClosing: isClosing, isEmpty: isEmpty, offset: start)
    }

    /// The text up to the closing tag `name`, with references and CDATA resolved.
    private mutating func text(until name: String, opened: Tag) throws(ParseError) -> String {
        let start = position
        var out: [UInt8] = []
        var clean = true
        while position < bytes.count {
            let c = bytes[position]
            if c == UInt8(ascii: "<") {
                if starts(with: "<![CDATA[", at: position) {
                    if clean { out.append(contentsOf: bytes[start..<position]) }
                    clean = false
                    let cdataStart = position + 9
                    position = cdataStart
                    try skip(past: "]]>", what: "CDATA section")
                    Self.appendNormalizingLineEnds(bytes[cdataStart..<(position - 3)], to: &out)
                    continue
                }
                if starts(with: "<!--", at: position) {
                    if clean { out.append(contentsOf: bytes[start..<position]) }
                    clean = false
                    try skip(past: "-->", what: "comment")
                    continue
                }
                let close = try tag()
                guard close.isClosing && close.isNamed(name) else {
                    throw error(
                        "expected </\(name)>, found <\(close.isClosing ? "/" : "")\(close.text)>", at: close.offset)
                }
                let textEnd = close.offset
                if clean { return try decode(UnsafeBufferPointer(rebasing: bytes[start..<textEnd]), at: start) }
                guard let s = UTF8Validation.string(out) else { throw error("invalid UTF-8", at: start) }
                return s
            }
            if c == UInt8(ascii: "&") {
                if clean { out.append(contentsOf: bytes[start..<position]) }
                clean = false
                out.append(contentsOf: try reference())
                continue
            }
            if c == 13 {
                // A line break in the text is a line feed, whatever the file's line ends are
                // (XML 1.0, 2.11), as plistlib and Foundation read it; a carriage return of
                // the text is written `&#13;`.
                if clean { out.append(contentsOf: bytes[start..<position]) }
                clean = false
                position += 1
                if position >= bytes.count || bytes[position] != 10 { out.append(10) }
                continue
            }
            if !clean { out.append(c) }
            position += 1
        }
        throw error("<\(name)> is not closed", at: opened.offset)
    }

    /// Appends `text` with each carriage return and line feed, and each carriage return
    /// alone, as a line feed (XML 1.0, 2.11).
    private static func appendNormalizingLineEnds(_ text: Slice<UnsafeBufferPointer<UInt8>>, to out: inout [UInt8]) {
        var i = text.startIndex
        while i < text.endIndex {
            if text[i] == 13 {
                out.append(10)
                i += i + 1 < text.endIndex && text[i + 1] == 10 ? 2 : 1
                continue
            }
            out.append(text[i])
            i += 1
        }
    }

    private func decode(_ raw: UnsafeBufferPointer<UInt8>, at offset: Int) throws(ParseError) -> String {
        guard let s = UTF8Validation.string(raw) else { throw error("invalid UTF-8", at: offset) }
        return s
    }

    /// `&lt;` and the other four, and `&#…;` / `&#x…;`.
    private mutating func reference() throws(ParseError) -> [UInt8] {
        let start = position
        guard let semicolon = bytes[position..<min(bytes.count, position + 12)].firstIndex(of: UInt8(ascii: ";")) else {
            throw error("malformed entity reference", at: start)
        }
        let name = String(decoding: bytes[(position + 1)..<semicolon], as: UTF8.self)
        position = semicolon + 1
        switch name {
        case "lt": return [UInt8(ascii: "<")]
        case "gt": return [UInt8(ascii: ">")]
        case "amp": return [UInt8(ascii: "&")]
        case "quot": return [UInt8(ascii: "\"")]
        case "apos": return [UInt8(ascii: "'")]
        default:
            var value: UInt32? = nil
            if name.hasPrefix("#x") {
                value = UInt32(name.dropFirst(2), radix: 16)
            } else if name.hasPrefix("#") {
                value = UInt32(name.dropFirst())
            }
            guard let value, let scalar = Unicode.Scalar(value) else {
                throw error("unknown entity '&\(name);'", at: start)
            }
            return Array(String(scalar).utf8)
        }
    }

    /// The text of a `<key>` element whose opening tag was `tag`.
    mutating func keyText(_ tag: Tag) throws(ParseError) -> String {
        tag.isEmpty ? "" : try text(until: "key", opened: tag)
    }

    /// Moves past the text of a scalar element up to its closing tag `name`, without decoding it.
    mutating func skipText(until name: UnsafeBufferPointer<UInt8>, opened: Tag) throws(ParseError) {
        while position < bytes.count {
            // Text holds no `<` but where markup starts. The next one is found eight bytes at
            // a time in a text's first 32 bytes, by memchr past them: most texts are shorter,
            // and a call of memchr for each took 8% more time in `todofmt toggle` in a
            // million-item XML property list (though fewer instructions).
            guard let base = bytes.baseAddress else { break }
            var at = position
            while at + 8 <= bytes.count && at < position + 32 {
                let x = UInt64(littleEndian: UnsafeRawPointer(base + at).loadUnaligned(as: UInt64.self))
                let hit = ByteScan.has(x, UInt8(ascii: "<"))
                if hit != 0 {
                    at += hit.trailingZeroBitCount >> 3
                    break
                }
                at += 8
            }
            if at < bytes.count && base[at] == UInt8(ascii: "<") {
                position = at
            } else {
                guard let found = memchr(base + at, Int32(UInt8(ascii: "<")), bytes.count - at) else { break }
                position = UnsafeRawPointer(found).assumingMemoryBound(to: UInt8.self) - base
            }
            if bytes[position] == UInt8(ascii: "<") {
                // The closing tag itself, `</name>` (most texts have no markup), compared in
                // place; anything else is read as a tag.
                let end = position + 2 + name.count
                if end < bytes.count, bytes[position + 1] == UInt8(ascii: "/"), bytes[end] == UInt8(ascii: ">"),
                    ByteScan.same(base + position + 2, name.baseAddress!, count: name.count)
                {
                    position = end + 1
                    return
                }
                let second = position + 1 < bytes.count ? bytes[position + 1] : 0
                if second == UInt8(ascii: "!") && starts(with: "<![CDATA[", at: position) {
                    try skip(past: "]]>", what: "CDATA section")
                    continue
                }
                if second == UInt8(ascii: "!") && starts(with: "<!--", at: position) {
                    try skip(past: "-->", what: "comment")
                    continue
                }
                let close = try tag()
                guard close.isClosing && close.hasName(name) else {
                    throw error(
                        "expected </\(String(decoding: name, as: UTF8.self))>, found <\(close.isClosing ? "/" : "")\(close.text)>",
                        at: close.offset)
                }
                return
            }
            position += 1
        }
        throw error("<\(opened.text)> is not closed", at: opened.offset)
    }

    /// Moves past the value whose opening tag was `tag`, without building it.
    mutating func skipValue(_ tag: Tag) throws(ParseError) {
        guard !tag.isClosing else { throw error("unexpected </\(tag.text)>", at: tag.offset) }
        if tag.isEmpty { return }
        guard tag.is("array") || tag.is("dict") else { return try skipText(until: tag.name, opened: tag) }
        // The open containers, innermost last: whether each is a dict. Without an array
        // made for each value skipped (a scan skips every item of a list): the first 64
        // levels are bits of a word, deeper ones (rare) go to an array.
        var dicts: UInt64 = tag.is("dict") ? 1 : 0
        var deeper: [Bool] = []
        var depth = 1
        while depth > 0 {
            let next = try nextTag()
            if next.isClosing {
                let isDict = depth > 64 ? deeper[depth - 65] : dicts >> (depth - 1) & 1 == 1
                guard next.is(isDict ? "dict" : "array") else {
                    throw error("expected </\(isDict ? "dict" : "array")>, found </\(next.text)>", at: next.offset)
                }
                if depth > 64 { deeper.removeLast() } else { dicts &= ~(1 << (depth - 1)) }
                depth -= 1
            } else if next.isEmpty {
                continue
            } else if next.is("array") || next.is("dict") {
                guard depth < Limits.valueLevels else {
                    throw error("values nested too deep (\(Limits.valueLevels) levels at most)", at: next.offset)
                }
                depth += 1
                if depth > 64 {
                    deeper.append(next.is("dict"))
                } else if next.is("dict") {
                    dicts |= 1 << (depth - 1)
                }
            } else {
                try skipText(until: next.name, opened: next)
            }
        }
    }

    /// Skips to the `<plist>` element and returns the first tag inside it.
    mutating func openPlist() throws(ParseError) -> Tag {
        let first = try nextTag()
        guard first.is("plist"), !first.isClosing else {
            throw error("expected <plist>, found <\(first.text)>", at: first.offset)
        }
        return try nextTag()
    }

    /// Expects `</plist>` and nothing but white space and comments after it.
    mutating func closePlist() throws(ParseError) {
        let end = try nextTag()
        guard end.isClosing && end.is("plist") else { throw error("expected </plist>", at: end.offset) }
        while true {
            skipSpace()
            if position >= bytes.count { return }
            if starts(with: "<!--", at: position) {
                try skip(past: "-->", what: "comment")
            } else {
                throw error("unexpected content after </plist>")
            }
        }
    }

    /// The value whose opening tag was `tag`.
    mutating func value(_ tag: Tag, depth: Int = 0) throws(ParseError) -> FieldValue {
        guard !tag.isClosing else { throw error("unexpected </\(tag.text)>", at: tag.offset) }
        guard depth < Limits.valueLevels else {
            throw error("values nested too deep (\(Limits.valueLevels) levels at most)", at: tag.offset)
        }
        let name = tag.text
        switch name {
        case "true", "false":
            if !tag.isEmpty {
                let close = try nextTag()
                guard close.isClosing && close.isNamed(name) else {
                    throw error("expected </\(name)>", at: close.offset)
                }
            }
            return .bool(name == "true")
        case "string":
            return .string(tag.isEmpty ? "" : try text(until: name, opened: tag))
        case "key":
            throw error("a <key> outside a <dict>", at: tag.offset)
        case "integer":
            let text =
                tag.isEmpty ? "" : try text(until: name, opened: tag).trimmingCharacters(in: .whitespacesAndNewlines)
            if let v = Int(text) { return .integer(v) }
            if let big = NumberSyntax.integer(text) { return big }
            if text.hasPrefix("0x") || text.hasPrefix("-0x"),
                let v = Int(text.replacingOccurrences(of: "0x", with: ""), radix: 16)
            {
                return .integer(v)
            }
            throw error("'\(text)' is not an integer", at: tag.offset)
        case "real":
            let text =
                tag.isEmpty ? "" : try text(until: name, opened: tag).trimmingCharacters(in: .whitespacesAndNewlines)
            guard let v = Double(text) ?? Double(text.lowercased().replacingOccurrences(of: "infinity", with: "inf"))
            else {
                throw error("'\(text)' is not a real number", at: tag.offset)
            }
            return .double(v)
        case "date":
            let text =
                tag.isEmpty ? "" : try text(until: name, opened: tag).trimmingCharacters(in: .whitespacesAndNewlines)
            guard let date = ISO8601.parse(text.utf8) else { throw error("'\(text)' is not a date", at: tag.offset) }
            return .date(date)
        case "data":
            let text = tag.isEmpty ? "" : try text(until: name, opened: tag)
            guard let data = Data(base64Encoded: text.filter { !$0.isWhitespace }) else {
                throw error("<data> is not base64", at: tag.offset)
            }
            return .data(data)
        case "array":
            var values: [FieldValue] = []
            if tag.isEmpty { return .array(values) }
            while true {
                let next = try nextTag()
                if next.isClosing && next.is("array") { return .array(values) }
                values.append(try value(next, depth: depth + 1))
            }
        case "dict":
            var fields: [Field] = []
            if tag.isEmpty { return .dictionary(fields) }
            while true {
                let keyTag = try nextTag()
                if keyTag.isClosing && keyTag.is("dict") { return .dictionary(fields.lastOfEachKey()) }
                guard keyTag.is("key"), !keyTag.isClosing else {
                    throw error(
                        "expected <key> in <dict>, found <\(keyTag.isClosing ? "/" : "")\(keyTag.text)>",
                        at: keyTag.offset)
                }
                let key = keyTag.isEmpty ? "" : try text(until: "key", opened: keyTag)
                let valueTag = try nextTag()
                fields.append(Field(key, try value(valueTag, depth: depth + 1)))
            }
        default:
            throw error("unknown element <\(name)>", at: tag.offset)
        }
    }
}

/// Writes an XML property list as Apple's tools do: the XML declaration and DOCTYPE, then
/// one element a line, indented with tabs.
struct XMLPropertyListWriter {
    private let layout: ItemLayout

    init(layout: ItemLayout) {
        self.layout = layout
    }

    static func write(_ root: OutputValue, layout: ItemLayout, to sink: inout ByteSink) {
        sink.write(static: header)
        let writer = XMLPropertyListWriter(layout: layout)
        writer.write(root, depth: 0, to: &sink)
        sink.write(static: footer)
    }

    /// What comes before the root, and after it.
    static let header: StaticString = """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">

        """
    static let footer: StaticString = "</plist>\n"

    /// `text` after `depth` tabs.
    func line(_ depth: Int, _ text: StaticString, to sink: inout ByteSink) {
        let tabs: StaticString = "\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t"
        var left = depth
        while left > 0 {
            let n = min(left, tabs.utf8CodeUnitCount)
            sink.write(UnsafeBufferPointer(start: tabs.utf8Start, count: n))
            left -= n
        }
        sink.write(static: text)
    }

    private func write(_ node: OutputValue, depth: Int, to sink: inout ByteSink) {
        switch node {
        case .value(let value): write(value, depth: depth, to: &sink)
        case .items(let items):
            if items.isEmpty {
                line(depth, "<array/>\n", to: &sink)
                return
            }
            line(depth, "<array>\n", to: &sink)
            for item in items { write(layout.entries(of: item), depth: depth + 1, to: &sink) }
            line(depth, "</array>\n", to: &sink)
        case .dictionary(let entries):
            write(entries, depth: depth, to: &sink)
        }
    }

    private func write(_ entries: [OutputEntry], depth: Int, to sink: inout ByteSink) {
        if writeOpen(entries, depth: depth, to: &sink) { line(depth, "</dict>\n", to: &sink) }
    }

    /// A dictionary without its end tag (`<dict/>` when it has no entries, and false).
    func writeOpen(_ entries: [OutputEntry], depth: Int, to sink: inout ByteSink) -> Bool {
        // Property lists have no null: such entries are left out.
        let entries = entries.filter { if case .value(.null) = $0.value { false } else { true } }
        if entries.isEmpty {
            line(depth, "<dict/>\n", to: &sink)
            return false
        }
        line(depth, "<dict>\n", to: &sink)
        for entry in entries {
            writeKey(entry.key, depth: depth + 1, to: &sink)
            write(entry.value, depth: depth + 1, to: &sink)
        }
        return true
    }

    /// `<key>…</key>` on a line.
    func writeKey(_ key: String, depth: Int, to sink: inout ByteSink) {
        line(depth, "<key>", to: &sink)
        escaped(key, to: &sink)
        sink.write(static: "</key>\n")
    }

    /// A value's element(s), the first after `depth` tabs (nothing for null).
    func write(_ value: FieldValue, depth: Int, to sink: inout ByteSink) {
        switch value {
        case .string(let s):
            line(depth, "<string>", to: &sink)
            escaped(s, to: &sink)
            sink.write(static: "</string>\n")
        case .integer(let i):
            line(depth, "<integer>", to: &sink)
            sink.write(String(i))
            sink.write(static: "</integer>\n")
        case .bigInteger(let digits):
            line(depth, "<integer>", to: &sink)
            sink.write(digits)
            sink.write(static: "</integer>\n")
        case .double(let d):
            let text = d.isNaN ? "nan" : d.isInfinite ? (d < 0 ? "-inf" : "inf") : String(d)
            line(depth, "<real>", to: &sink)
            sink.write(text)
            sink.write(static: "</real>\n")
        case .bool(let b): line(depth, b ? "<true/>\n" : "<false/>\n", to: &sink)
        case .date(let d):
            // XML property list dates are whole seconds (plistlib and Apple read no fraction).
            let whole = Date(timeIntervalSince1970: d.timeIntervalSince1970.rounded(.down))
            line(depth, "<date>", to: &sink)
            sink.write(ISO8601.format(whole))
            sink.write(static: "</date>\n")
        case .data(let d):
            line(depth, "<data>", to: &sink)
            sink.write(d.base64EncodedString())
            sink.write(static: "</data>\n")
        case .null: break
        case .array(let values):
            if values.isEmpty {
                line(depth, "<array/>\n", to: &sink)
                return
            }
            line(depth, "<array>\n", to: &sink)
            for v in values { write(v, depth: depth + 1, to: &sink) }
            line(depth, "</array>\n", to: &sink)
        case .dictionary(let fields):
            write(fields.map { OutputEntry($0.key, .value($0.value)) }, depth: depth, to: &sink)
        }
    }

    /// Text as element content (`XMLRenderer.text`): references for `&`, `<`, `>` and a
    /// carriage return; U+FFFD for what XML 1.0 cannot hold (`losses` warns of it).
    func escaped(_ s: String, to sink: inout ByteSink) {
        var s = s
        s.withUTF8 { escaped(utf8: $0, to: &sink) }
    }

    /// `escaped` for text given as its UTF-8 bytes.
    func escaped(utf8 bytes: UnsafeBufferPointer<UInt8>, to sink: inout ByteSink) {
        guard Self.isContent(bytes) else {
            var out: [UInt8] = []
            XMLRenderer().text(String(decoding: bytes, as: UTF8.self), to: &out)
            sink.write(bytes: out)
            return
        }
        sink.write(bytes)
    }

    /// Whether `escaped` writes the text as it is: no `&`, `<` or `>`, no control character
    /// but a tab and a line feed, no 0xEF (which starts U+FFFE and U+FFFF).
    static func isContent(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        !bytes.contains { b in
            b == UInt8(ascii: "<") || b == UInt8(ascii: ">") || b == UInt8(ascii: "&") || (b < 32 && b != 9 && b != 10)
                || b == 0xEF
        }
    }
}
