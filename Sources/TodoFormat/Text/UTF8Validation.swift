/// UTF-8 text checks: every text format reads UTF-8, and names the first byte that is not.
enum UTF8Validation {
    /// The offset of the first byte that does not belong to well-formed UTF-8, or -1.
    static func firstInvalidOffset(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        var i = 0
        let n = bytes.count
        guard let base = bytes.baseAddress else { return -1 }
        let raw = UnsafeRawPointer(base)
        while i < n {
            // Eight ASCII bytes at a time.
            while i + 8 <= n && raw.loadUnaligned(fromByteOffset: i, as: UInt64.self) & 0x8080_8080_8080_8080 == 0 {
                i += 8
            }
            if i >= n { break }
            let b0 = bytes[i]
            if b0 < 0x80 {
                i += 1
                continue
            }
            func cont(_ k: Int) -> Bool { i + k < n && bytes[i + k] & 0xC0 == 0x80 }
            if b0 >= 0xC2 && b0 <= 0xDF {
                guard cont(1) else { return i }
                i += 2
            } else if b0 >= 0xE0 && b0 <= 0xEF {
                guard cont(1), cont(2) else { return i }
                let b1 = bytes[i + 1]
                if b0 == 0xE0 && b1 < 0xA0 { return i }  // overlong
                if b0 == 0xED && b1 >= 0xA0 { return i }  // surrogate
                i += 3
            } else if b0 >= 0xF0 && b0 <= 0xF4 {
                guard cont(1), cont(2), cont(3) else { return i }
                let b1 = bytes[i + 1]
                if b0 == 0xF0 && b1 < 0x90 { return i }
                if b0 == 0xF4 && b1 >= 0x90 { return i }
                i += 4
            } else {
                return i
            }
        }
        return -1
    }

    /// The text of UTF-8 bytes, or an error at the first byte that is not UTF-8.
    static func decode(_ bytes: [UInt8], path: String) throws(ParseError) -> String {
        if let text = String(validating: bytes, as: UTF8.self) { return text }
        var offset = 0
        var iterator = bytes.makeIterator()
        var decoder = UTF8()
        loop: while true {
            let before = offset
            switch decoder.decode(&iterator) {
            case .scalarValue(let s): offset += UTF8.width(s)
            case .emptyInput: break loop
            case .error:
                offset = before
                break loop
            }
        }
        let location = bytes.withUnsafeBufferPointer { SourceLocation.of(offset: offset, in: $0, file: path) }
        throw ParseError("invalid UTF-8 (byte 0x\(String(bytes[offset], radix: 16, uppercase: true)))", at: location)
    }
}
