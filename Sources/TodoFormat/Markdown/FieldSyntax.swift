import Foundation

// Item fields in a checklist line: Dataview-style inline fields at the end of the
// item's text, `- [ ] Milk [id:: 42] [added:: 2024-05-01T09:30:00Z]`.
// FORMAT.md (section 4, "Item fields") is the specification of this file.
enum FieldSyntax {
    /// Splits an item's last name line into the name text and its trailing fields.
    /// Returns nil (quickly, for most lines) when the line carries no fields.
    static func splitFields(_ line: ArraySlice<UInt8>) -> (nameEnd: Int, fields: [Field])? {
        line.withUnsafeBufferPointer { split($0, keepingGroups: false) }.map {
            (line.startIndex + $0.nameEnd, $0.fields)
        }
    }

    /// `splitFields` over the line's bytes in place (`nameEnd` counts from their start).
    static func splitFields(_ line: UnsafeBufferPointer<UInt8>) -> (nameEnd: Int, fields: [Field])? {
        split(line, keepingGroups: false).map { ($0.nameEnd, $0.fields) }
    }

    /// `splitFields`, with the bytes of each field's `[key:: value]` group.
    static func splitFieldGroups(_ line: UnsafeBufferPointer<UInt8>) -> (
        nameEnd: Int, fields: [Field], groups: [Range<Int>]
    )? {
        split(line, keepingGroups: true)
    }

    /// The fields are read over the bytes where they are, by index: the same loops over an
    /// array slice cost several times as much (each access checks its bounds), and copying
    /// the line into an array first cost an allocation an item.
    private static func split(_ buffer: UnsafeBufferPointer<UInt8>, keepingGroups: Bool) -> (
        nameEnd: Int, fields: [Field], groups: [Range<Int>]
    )? {
        // Fast rejection: fields end the line with `]`, and contain `::`.
        guard let base = buffer.baseAddress, buffer.count >= 6, buffer[buffer.count - 1] == UInt8(ascii: "]") else {
            return nil
        }
        // Each `[` that follows white space may start the groups (memchr finds them).
        var k = 0
        while k < buffer.count, let hit = memchr(base + k, Int32(UInt8(ascii: "[")), buffer.count - k) {
            let j = base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
            k = j + 1
            guard j == 0 || buffer[j - 1] == 32 || buffer[j - 1] == 9, !isEscaped(buffer, j) else { continue }
            var cursor = Cursor(bytes: buffer, position: j, keepingGroups: keepingGroups)
            if let fields = cursor.parseGroups() {
                var nameEnd = j
                while nameEnd > 0 && (buffer[nameEnd - 1] == 32 || buffer[nameEnd - 1] == 9) { nameEnd -= 1 }
                return (nameEnd, fields, cursor.groups)
            }
        }
        return nil
    }

    private static func isEscaped(_ bytes: UnsafeBufferPointer<UInt8>, _ i: Int) -> Bool {
        var n = 0
        var j = i - 1
        while j >= 0 && bytes[j] == UInt8(ascii: "\\") {
            n += 1
            j -= 1
        }
        return n % 2 == 1
    }

    /// An item's text as written to Markdown: the escaped name (see ``NameSyntax``), then its
    /// fields. Line feeds in the name become continuation lines that start with `continuation`,
    /// each line but the last ending in `lineEnding`.
    /// `written` holds fields as the line had them, with their text: a field of `fields` equal
    /// to one of them (key and value, each used once) keeps that text (`1.10`, `1e400`, a
    /// date's zone), so that an edit of one field or of the name leaves the others as written.
    static func render(
        name: Substring, fields: [Field], continuation: String, lineEnding: String = "\n",
        written: [(field: Field, text: String)] = []
    ) -> String {
        var text = NameSyntax.escape(name, continuation: continuation, lineEnding: lineEnding)
        var unused = written
        for field in fields {
            if !text.isEmpty { text += " " }
            if let k = unused.firstIndex(where: { $0.field.key == field.key && $0.field.value == field.value }) {
                text += unused.remove(at: k).text
            } else {
                text += "[" + renderKey(field.key) + ":: " + renderValue(field.value, bare: true) + "]"
            }
        }
        return text
    }

    // MARK: Keys and values

    static func renderKey(_ key: String) -> String {
        isBareKey(key) ? key : quote(key)
    }

    /// Whether a key is written without quotes: not empty, no space at either end, no
    /// control character and none of `[`, `]`, `:`, `"` and `\`.
    static func isBareKey(_ key: String) -> Bool {
        var previous: UInt8 = 0
        for b in key.utf8 {
            if b < 0x20 || b == 0x7F || b == UInt8(ascii: "[") || b == UInt8(ascii: "]") || b == UInt8(ascii: ":")
                || b == UInt8(ascii: "\"") || b == UInt8(ascii: "\\")
            {
                return false
            }
            // The C1 controls, U+0080 to U+009F.
            if previous == 0xC2 && b >= 0x80 && b <= 0x9F { return false }
            if previous == 0 && b == 32 { return false }
            previous = b
        }
        return previous != 0 && previous != 32
    }

    /// A value in its Markdown text form; `bare` allows an unquoted string.
    static func renderValue(_ value: FieldValue, bare: Bool) -> String {
        if case .string(let s) = value { return bare && isBareString(s) ? s : quote(s) }
        return escapingControls(value.text(quotingStrings: true))
    }

    /// Whether a string value is written without quotes: it would read back as this text.
    static func isBareString(_ s: String) -> Bool {
        let bytes = Array(s.utf8)
        guard let first = bytes.first, let last = bytes.last, first != 32, first != 9, last != 32, last != 9 else {
            return false
        }
        if first == UInt8(ascii: "\"") || first == UInt8(ascii: "[") || first == UInt8(ascii: "{")
            || first == UInt8(ascii: "<")
        {
            return false
        }
        // Control characters are quoted, never written raw.
        if NameSyntax.containsControl(bytes[...])
            || bytes.contains(where: { $0 == UInt8(ascii: "[") || $0 == UInt8(ascii: "]") })
        {
            return false
        }
        return bytes.withUnsafeBufferPointer { typedToken($0) } == nil
    }

    /// JSON string syntax, with DEL and the C1 controls escaped too (`\u007f`), so that no
    /// control character is written raw into a checklist.
    static func quote(_ s: String) -> String {
        escapingControls(JSONText.encode(.string(s)))
    }

    /// JSON text with DEL and the C1 controls (which JSON may leave raw, only inside strings)
    /// written as `\uXXXX` escapes.
    private static func escapingControls(_ json: String) -> String {
        guard json.unicodeScalars.contains(where: { $0.value >= 0x7F && NameSyntax.isControl($0.value) }) else {
            return json
        }
        var out = ""
        for scalar in json.unicodeScalars {
            if scalar.value >= 0x7F && NameSyntax.isControl(scalar.value) {
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// `true`, `false`, `null`, a number, `nan`, `inf` or a date-time; nil for anything else.
    static func typedToken(_ token: UnsafeBufferPointer<UInt8>) -> FieldValue? {
        guard let first = token.first else { return nil }
        switch first {
        case UInt8(ascii: "t"): return token.elementsEqual("true".utf8) ? .bool(true) : nil
        case UInt8(ascii: "f"): return token.elementsEqual("false".utf8) ? .bool(false) : nil
        case UInt8(ascii: "n"):
            if token.elementsEqual("null".utf8) { return .null }
            return token.elementsEqual("nan".utf8) ? .double(.nan) : nil
        case UInt8(ascii: "i"): return token.elementsEqual("inf".utf8) ? .double(.infinity) : nil
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            if token.elementsEqual("-inf".utf8) { return .double(-.infinity) }
            if let number = NumberSyntax.number(token) { return number }
            if let date = ISO8601.parse(token) { return .date(date) }
            return nil
        default: return nil
        }
    }

    /// Reads the value grammar of FORMAT.md over bytes.
    struct Cursor {
        let bytes: UnsafeBufferPointer<UInt8>
        var position: Int
        /// Whether `parseGroups` notes the bytes of each group it reads, in `groups`.
        var keepingGroups = false
        var groups: [Range<Int>] = []

        init(bytes: UnsafeBufferPointer<UInt8>, position: Int, keepingGroups: Bool = false) {
            self.bytes = bytes
            self.position = position
            self.keepingGroups = keepingGroups
        }

        private var current: UInt8? { position < bytes.count ? bytes[position] : nil }

        private mutating func skipSpaces() {
            while let c = current, c == 32 || c == 9 { position += 1 }
        }

        /// One or more `[key:: value]` groups separated by white space, to the end of the bytes.
        mutating func parseGroups() -> [Field]? {
            var fields: [Field] = []
            while position < bytes.count {
                let start = position
                guard current == UInt8(ascii: "["), let field = parseGroup() else { return nil }
                fields.append(field)
                if keepingGroups { groups.append(start..<position) }
                let before = position
                skipSpaces()
                if position < bytes.count && position == before { return nil }
            }
            return fields.isEmpty ? nil : fields
        }

        private mutating func parseGroup() -> Field? {
            position += 1  // [
            skipSpaces()
            let key: String
            if current == UInt8(ascii: "\"") {
                guard let s = parseString() else { return nil }
                key = s
            } else {
                let start = position
                while let c = current, c != UInt8(ascii: ":"), c != UInt8(ascii: "["), c != UInt8(ascii: "]"),
                    c != UInt8(ascii: "\""), c != UInt8(ascii: "\\")
                {
                    position += 1
                }
                var end = position
                while end > start && (bytes[end - 1] == 32 || bytes[end - 1] == 9) { end -= 1 }
                // Most `[` in a name start a link, not a field: no string for them.
                guard end > start, current == UInt8(ascii: ":") else { return nil }
                key = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
            }
            guard current == UInt8(ascii: ":"), position + 1 < bytes.count, bytes[position + 1] == UInt8(ascii: ":")
            else { return nil }
            position += 2
            skipSpaces()
            let value: FieldValue
            switch current {
            case UInt8(ascii: "\""), UInt8(ascii: "["), UInt8(ascii: "{"), UInt8(ascii: "<"):
                guard let v = parseValue() else { return nil }
                value = v
                skipSpaces()
            default:
                // A bare value runs to the closing bracket.
                let start = position
                while let c = current, c != UInt8(ascii: "]"), c != UInt8(ascii: "[") { position += 1 }
                var end = position
                while end > start && (bytes[end - 1] == 32 || bytes[end - 1] == 9) { end -= 1 }
                let token = UnsafeBufferPointer(rebasing: bytes[start..<end])
                if token.isEmpty { return nil }
                value = typedToken(token) ?? .string(String(decoding: token, as: UTF8.self))
            }
            guard current == UInt8(ascii: "]") else { return nil }
            position += 1
            return Field(key, value)
        }

        /// A quoted string, array, dictionary, data or typed token.
        mutating func parseValue() -> FieldValue? {
            switch current {
            case UInt8(ascii: "\""):
                return parseString().map { .string($0) }
            case UInt8(ascii: "["):
                position += 1
                var values: [FieldValue] = []
                skipSpaces()
                if current == UInt8(ascii: "]") {
                    position += 1
                    return .array([])
                }
                while true {
                    skipSpaces()
                    guard let v = parseValue() else { return nil }
                    values.append(v)
                    skipSpaces()
                    if current == UInt8(ascii: ",") {
                        position += 1
                    } else if current == UInt8(ascii: "]") {
                        position += 1
                        return .array(values)
                    } else {
                        return nil
                    }
                }
            case UInt8(ascii: "{"):
                position += 1
                var fields: [Field] = []
                skipSpaces()
                if current == UInt8(ascii: "}") {
                    position += 1
                    return .dictionary([])
                }
                while true {
                    skipSpaces()
                    guard current == UInt8(ascii: "\""), let key = parseString() else { return nil }
                    skipSpaces()
                    guard current == UInt8(ascii: ":") else { return nil }
                    position += 1
                    skipSpaces()
                    guard let v = parseValue() else { return nil }
                    fields.append(Field(key, v))
                    skipSpaces()
                    if current == UInt8(ascii: ",") {
                        position += 1
                    } else if current == UInt8(ascii: "}") {
                        position += 1
                        return .dictionary(fields)
                    } else {
                        return nil
                    }
                }
            case UInt8(ascii: "<"):
                position += 1
                var data = Data()
                var high: UInt8? = nil
                while let c = current, c != UInt8(ascii: ">") {
                    position += 1
                    if c == 32 { continue }
                    guard let nibble = hexValue(c) else { return nil }
                    if let h = high {
                        data.append(h << 4 | nibble)
                        high = nil
                    } else {
                        high = nibble
                    }
                }
                guard current == UInt8(ascii: ">"), high == nil else { return nil }
                position += 1
                return .data(data)
            default:
                let start = position
                while let c = current,
                    (c >= 48 && c <= 57) || (c | 0x20 >= 97 && c | 0x20 <= 122) || c == UInt8(ascii: "-")
                        || c == UInt8(ascii: "+") || c == UInt8(ascii: ".") || c == UInt8(ascii: ":")
                {
                    position += 1
                }
                return typedToken(UnsafeBufferPointer(rebasing: bytes[start..<position]))
            }
        }

        private func hexValue(_ c: UInt8) -> UInt8? {
            switch c {
            case 48...57: c - 48
            case 97...102: c - 87
            case 65...70: c - 55
            default: nil
            }
        }

        /// A JSON string starting at `"`, read by the JSON scanner.
        mutating func parseString() -> String? {
            var scanner = JSONScanner(bytes: bytes, path: "")
            scanner.position = position
            guard let string = try? scanner.string() else { return nil }
            position = scanner.position
            return string
        }
    }
}
