/// How a piece of JSON text is laid out, to write new JSON the way an app wrote the old:
/// JSON kept as data in a preferences file (docs/APP-SHAPES.md section 1) round-trips byte for byte.
struct JSONStyle: Equatable {
    enum Layout { case lines, compact, spaced }
    /// todofmt's one item a line; JSONEncoder's no spaces; Python's `json.dumps` with `, ` and `: `.
    var layout: Layout
    /// Non-ASCII characters as `\uXXXX` escapes (Python's default).
    var asciiOnly: Bool

    /// The style of existing JSON text.
    init(of json: [UInt8]) {
        var newline = false, space = false, nonASCII = false, escape = false
        var inString = false, escaped = false
        for (i, b) in json.enumerated() {
            if b >= 0x80 { nonASCII = true }
            if inString {
                if escaped {
                    escaped = false
                    if b == UInt8(ascii: "u") { escape = true }
                } else if b == UInt8(ascii: "\\") {
                    escaped = true
                } else if b == UInt8(ascii: "\"") {
                    inString = false
                }
            } else if b == UInt8(ascii: "\"") {
                inString = true
            } else if b == 10 {
                newline = true
            } else if b == 32, i > 0, json[i - 1] == UInt8(ascii: ",") || json[i - 1] == UInt8(ascii: ":") {
                space = true
            }
        }
        layout = newline ? .lines : space ? .spaced : .compact
        asciiOnly = escape && !nonASCII
    }

    /// todofmt's own text (one item a line) in this style.
    func apply(to json: [UInt8]) -> [UInt8] {
        if layout == .lines && !asciiOnly { return json }
        var out: [UInt8] = []
        out.reserveCapacity(json.count)
        var inString = false, escaped = false
        var i = 0
        while i < json.count {
            let b = json[i]
            if inString {
                if escaped {
                    escaped = false
                } else if b == UInt8(ascii: "\\") {
                    escaped = true
                } else if b == UInt8(ascii: "\"") {
                    inString = false
                } else if b >= 0x80 && asciiOnly {
                    // One scalar as \uXXXX, or a surrogate pair beyond the first plane.
                    var decoder = UTF8()
                    let length = b >= 0xF0 ? 4 : b >= 0xE0 ? 3 : 2
                    var iterator = json[i..<min(json.count, i + length)].makeIterator()
                    if case .scalarValue(let scalar) = decoder.decode(&iterator) {
                        for unit in String(scalar).utf16 {
                            let hex = String(unit, radix: 16)
                            out.append(contentsOf: Array(("\\u" + String(repeating: "0", count: 4 - hex.count) + hex).utf8))
                        }
                        i += length
                        continue
                    }
                }
                out.append(b)
            } else if b == UInt8(ascii: "\"") {
                inString = true
                out.append(b)
            } else if layout != .lines && (b == 32 || b == 10 || b == 13 || b == 9) {
                // White space between tokens goes; `spaced` puts its own back below.
            } else {
                out.append(b)
                if layout == .spaced && (b == UInt8(ascii: ",") || b == UInt8(ascii: ":")) { out.append(32) }
            }
            i += 1
        }
        return out
    }
}
