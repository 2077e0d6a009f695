extension String {
    /// The text with every `target` (an ASCII character) replaced by `replacement`,
    /// wherever it stands: byte by byte, fast when there is none.
    ///
    /// Foundation's `replacingOccurrences(of:with:)` is not used for this: on Linux it
    /// passes over a character that a combining mark follows (`'` then U+0301, a line feed
    /// then U+0301), which left an SQL quote unclosed or a line break in a one-line name,
    /// and it takes tens of thousands of instructions a call.
    func replacingEvery(_ target: Unicode.Scalar, with replacement: String) -> String {
        precondition(target.isASCII)
        let byte = UInt8(target.value)
        guard utf8.contains(byte) else { return self }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(utf8.count + 8)
        for b in utf8 {
            if b == byte { bytes.append(contentsOf: replacement.utf8) } else { bytes.append(b) }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The text on one line, as lists and reports show a name: each line break (a line
    /// feed, a carriage return, the two together) a space.
    var onOneLine: String {
        guard utf8.contains(where: { $0 == 10 || $0 == 13 }) else { return self }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(utf8.count)
        var afterCR = false
        for b in utf8 {
            if b == 10 && afterCR {
                afterCR = false
                continue  // the LF of a CRLF: its space is written
            }
            afterCR = b == 13
            bytes.append(b == 10 || b == 13 ? 32 : b)
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
