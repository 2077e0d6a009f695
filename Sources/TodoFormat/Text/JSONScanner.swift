import Foundation

// A JSON reader over UTF-8 bytes (RFC 8259).
//
// Foundation's JSONSerialization takes 8.9 s to parse the 1,000,000-item list on
// Linux (Swift 6.3.1), where the goal is to beat Python's json.load
// (1.29 s), so todofmt reads JSON itself. The scanner is a cursor that the list
// reader drives: keys are compared as bytes and only values that are kept become
// Swift values. Tests check it against Foundation and Python on the same files.
struct JSONScanner {
    let bytes: UnsafeBufferPointer<UInt8>
    let path: String
    var position = 0

    init(bytes: UnsafeBufferPointer<UInt8>, path: String) {
        self.bytes = bytes
        self.path = path
        // A byte order mark is allowed before the text.
        position = ByteOrderMark.length(in: bytes)
    }

    func error(_ message: String, at offset: Int? = nil) -> ParseError {
        ParseError(message, at: SourceLocation.of(offset: offset ?? position, in: bytes, file: path))
    }

    @inline(__always)
    mutating func skipWhitespace() {
        while position < bytes.count {
            let c = bytes[position]
            guard c == 32 || c == 10 || c == 13 || c == 9 else { return }
            position += 1
        }
    }

    /// The next significant byte, or 0 at the end.
    @inline(__always)
    mutating func peek() -> UInt8 {
        skipWhitespace()
        return position < bytes.count ? bytes[position] : 0
    }

    mutating func expect(_ c: UInt8, _ what: String) throws(ParseError) {
        guard peek() == c else { throw unexpected(expecting: what) }
        position += 1
    }

    func unexpected(expecting what: String) -> ParseError {
        if position >= bytes.count { return error("unexpected end of JSON, expected \(what)") }
        let c = bytes[position]
        let shown = c >= 32 && c < 127 ? "'\(Character(Unicode.Scalar(c)))'" : "byte 0x\(String(c, radix: 16))"
        return error("unexpected \(shown), expected \(what)")
    }

    /// After `[` or `{` and each element: true when another element follows, false at the closing bracket.
    mutating func nextElement(close: UInt8, first: inout Bool) throws(ParseError) -> Bool {
        let c = peek()
        if c == close {
            position += 1
            return false
        }
        if !first {
            guard c == UInt8(ascii: ",") else {
                throw unexpected(expecting: close == UInt8(ascii: "]") ? "',' or ']'" : "',' or '}'")
            }
            position += 1
            if peek() == close { throw error("trailing comma") }
        }
        first = false
        return true
    }

    /// The raw bytes of a string without escapes, or nil when it has some (the caller then uses `string()`).
    mutating func rawString() throws(ParseError) -> UnsafeBufferPointer<UInt8>? {
        guard peek() == UInt8(ascii: "\"") else { throw unexpected(expecting: "a string") }
        let start = position + 1
        // Eight bytes at a time to the first quote, backslash or control character.
        let i = ByteScan.firstJSONStringSpecial(bytes, from: start)
        guard i < bytes.count else { throw error("unterminated string", at: position) }
        let c = bytes[i]
        if c == UInt8(ascii: "\"") {
            position = i + 1
            return UnsafeBufferPointer(rebasing: bytes[start..<i])
        }
        if c == UInt8(ascii: "\\") { return nil }
        throw error("control character in string", at: i)
    }

    /// A string value.
    mutating func string() throws(ParseError) -> String {
        let start = position
        if let raw = try rawString() {
            guard let s = UTF8Validation.string(raw) else {
                throw error("invalid UTF-8 in string", at: start)
            }
            return s
        }
        position += 1
        var out: [UInt8] = []
        while position < bytes.count {
            let c = bytes[position]
            position += 1
            if c == UInt8(ascii: "\"") {
                guard let s = UTF8Validation.string(out) else {
                    throw error("invalid UTF-8 in string", at: start)
                }
                return s
            }
            if c < 32 { throw error("control character in string", at: position - 1) }
            if c != UInt8(ascii: "\\") {
                out.append(c)
                continue
            }
            guard position < bytes.count else { break }
            let e = bytes[position]
            position += 1
            switch e {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(e)
            case UInt8(ascii: "n"): out.append(10)
            case UInt8(ascii: "t"): out.append(9)
            case UInt8(ascii: "r"): out.append(13)
            case UInt8(ascii: "b"): out.append(8)
            case UInt8(ascii: "f"): out.append(12)
            case UInt8(ascii: "u"):
                var value = UInt32(try hex4())
                if value >= 0xD800 && value < 0xDC00 {
                    guard position + 1 < bytes.count, bytes[position] == UInt8(ascii: "\\"),
                        bytes[position + 1] == UInt8(ascii: "u")
                    else { throw error("unpaired surrogate in \\u escape", at: position) }
                    position += 2
                    let low = UInt32(try hex4())
                    guard low >= 0xDC00 && low < 0xE000 else {
                        throw error("unpaired surrogate in \\u escape", at: position)
                    }
                    value = 0x10000 + ((value - 0xD800) << 10) + (low - 0xDC00)
                } else if value >= 0xDC00 && value < 0xE000 {
                    throw error("unpaired surrogate in \\u escape", at: position - 6)
                }
                out.append(contentsOf: String(Unicode.Scalar(value)!).utf8)
            default:
                throw error("invalid escape '\\\(Character(Unicode.Scalar(e)))'", at: position - 2)
            }
        }
        throw error("unterminated string", at: start)
    }

    private mutating func hex4() throws(ParseError) -> UInt16 {
        guard position + 4 <= bytes.count else { throw error("unterminated \\u escape") }
        var v: UInt16 = 0
        for _ in 0..<4 {
            let c = bytes[position]
            let d: UInt8
            switch c {
            case 48...57: d = c - 48
            case 97...102: d = c - 87
            case 65...70: d = c - 55
            default: throw error("invalid hex digit in \\u escape")
            }
            v = v << 4 | UInt16(d)
            position += 1
        }
        return v
    }

    /// `true` or `false`.
    mutating func bool() throws(ParseError) -> Bool? {
        if literal("true") { return true }
        if literal("false") { return false }
        return nil
    }

    mutating func literal(_ word: StaticString) -> Bool {
        let n = word.utf8CodeUnitCount
        guard position + n <= bytes.count else { return false }
        let w = UnsafeBufferPointer(start: word.utf8Start, count: n)
        for k in 0..<n where bytes[position + k] != w[k] { return false }
        position += n
        return true
    }

    /// Whether a text that holds a JSON value may start with `byte`: the value's first byte,
    /// white space, or a byte order mark's. (Inline: a dump's check asks it of every text.)
    @inline(__always)
    static func mayStart(with byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "{"), UInt8(ascii: "["), UInt8(ascii: "0")...UInt8(ascii: "9"),
            UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"), UInt8(ascii: "-"), 0x20, 0x09, 0x0A, 0x0D, 0xEF:
            true
        default: false
        }
    }

    /// Whether `text` may hold a JSON value: false where its first bytes start none (a
    /// name, a status such as `-`), which most texts asked about by `wholeValue` are, and
    /// whose parse would fail only after making an error message (most of its cost). Looked
    /// at without a scanner: a dump's check asks it of every text.
    static func mayHoldValue(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let first = text.first, mayStart(with: first) else { return false }
        var i = ByteOrderMark.length(in: text)
        while i < text.count, case let c = text[i], c == 32 || c == 10 || c == 13 || c == 9 { i += 1 }
        guard i < text.count else { return false }
        switch text[i] {
        case UInt8(ascii: "\""), UInt8(ascii: "{"), UInt8(ascii: "["), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        case UInt8(ascii: "t"): return ByteScan.has("true", at: i, in: text)
        case UInt8(ascii: "f"): return ByteScan.has("false", at: i, in: text)
        case UInt8(ascii: "n"): return ByteScan.has("null", at: i, in: text)
        case UInt8(ascii: "-"):
            // (`number` takes these bytes; `-` alone is no number.)
            guard i + 1 < text.count else { return false }
            switch text[i + 1] {
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."),
                UInt8(ascii: "e"), UInt8(ascii: "E"):
                return true
            default: return false
            }
        default: return false
        }
    }

    /// Any value; dates and data have no JSON form and come back as strings.
    mutating func value(depth: Int = 0) throws(ParseError) -> FieldValue {
        guard depth < Limits.valueLevels else {
            throw error("values nested too deep (\(Limits.valueLevels) levels at most)")
        }
        switch peek() {
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "{"):
            position += 1
            var fields: [Field] = []
            var first = true
            while try nextElement(close: UInt8(ascii: "}"), first: &first) {
                let key = try string()
                try expect(UInt8(ascii: ":"), "':'")
                fields.append(Field(key, try value(depth: depth + 1)))
            }
            return .dictionary(fields.lastOfEachKey())
        case UInt8(ascii: "["):
            position += 1
            var values: [FieldValue] = []
            var first = true
            while try nextElement(close: UInt8(ascii: "]"), first: &first) {
                values.append(try value(depth: depth + 1))
            }
            return .array(values)
        case UInt8(ascii: "t"), UInt8(ascii: "f"):
            if let b = try bool() { return .bool(b) }
        case UInt8(ascii: "n"):
            if literal("null") { return .null }
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return try number()
        default:
            break
        }
        throw unexpected(expecting: "a value")
    }

    mutating func number() throws(ParseError) -> FieldValue {
        let start = position
        while position < bytes.count {
            let c = bytes[position]
            guard
                (c >= 48 && c <= 57) || c == UInt8(ascii: "-") || c == UInt8(ascii: "+") || c == UInt8(ascii: ".")
                    || c == UInt8(ascii: "e") || c == UInt8(ascii: "E")
            else { break }
            position += 1
        }
        let token = UnsafeBufferPointer(rebasing: bytes[start..<position])
        guard let number = NumberSyntax.number(token) else { throw error("invalid number", at: start) }
        return number
    }

    /// Fails unless only white space is left.
    mutating func expectEnd() throws(ParseError) {
        if peek() != 0 || position < bytes.count { throw unexpected(expecting: "the end of the file") }
    }

    /// The one JSON value `bytes` hold (white space around it aside); nil when they hold
    /// none, or more.
    static func wholeValue(of bytes: [UInt8]) -> FieldValue? {
        bytes.withUnsafeBufferPointer { wholeValue(of: $0) }
    }

    static func wholeValue(of buffer: UnsafeBufferPointer<UInt8>) -> FieldValue? {
        guard mayHoldValue(buffer) else { return nil }
        var scanner = JSONScanner(bytes: buffer, path: "")
        guard let value = try? scanner.value(), (try? scanner.expectEnd()) != nil else { return nil }
        return value
    }
}
