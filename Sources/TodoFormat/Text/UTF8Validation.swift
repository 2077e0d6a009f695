import Foundation

/// UTF-8 text checks: every text format reads UTF-8, and names the first byte that is not.
enum UTF8Validation {
    /// Whether the bytes are well-formed UTF-8 (where they are not, `decode` names the first
    /// byte that is not).
    ///
    /// Eight bytes at a time while they are ASCII. A word that holds a byte of 0x80 or more,
    /// or that a character started before, goes through the state machine `transitions`, a
    /// byte at a time with no branch: three instructions a byte. (Checking each character by
    /// its length, with a branch for each kind of lead byte, was about 25 instructions a
    /// character, and text in other scripts is most of some lists.)
    static func isValid(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let p = bytes.baseAddress else { return true }
        let n = bytes.count
        let raw = UnsafeRawPointer(p)
        return transitions.withUnsafeBufferPointer { table in
            let t = table.baseAddress!
            // The state is a row offset: only its low six bits count (a shift by it uses no
            // more), so the other states' columns shifted down with it are never cleared.
            var state: UInt64 = 0
            @inline(__always) func step(_ b: UInt8) { state = t[Int(b)] &>> state }
            var i = 0
            while i + 8 <= n {
                if state & 63 == 0 && raw.loadUnaligned(fromByteOffset: i, as: UInt64.self) & 0x8080_8080_8080_8080 == 0
                {
                    i += 8
                    continue
                }
                step(p[i])
                step(p[i + 1])
                step(p[i + 2])
                step(p[i + 3])
                step(p[i + 4])
                step(p[i + 5])
                step(p[i + 6])
                step(p[i + 7])
                i += 8
            }
            while i < n {
                step(p[i])
                i += 1
            }
            return state & 63 == 0
        }
    }

    /// The UTF-8 state machine (RFC 3629's grammar), one row a byte. A state is the offset of
    /// its six-bit column in a row, and a byte's row holds in each state's column the offset
    /// of the state that byte leads to: the next state is the row shifted right by the state.
    /// States: 0 between characters; 6 an error (kept whatever follows); 12, 18 and 24 one,
    /// two and three continuation bytes to come (80–BF); 30 after E0 (A0–BF next, not
    /// overlong), 36 after ED (80–9F, not a surrogate), 42 after F0 (90–BF, not overlong),
    /// 48 after F4 (80–8F, not past U+10FFFF).
    private static let transitions: [UInt64] = (0...255).map { byte -> UInt64 in
        let (accept, error, one, two, three, e0, ed, f0, f4):
            (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) =
                (0, 6, 12, 18, 24, 30, 36, 42, 48)
        // What the byte leads to from each state, in order of the states' offsets.
        var next = [UInt64](repeating: error, count: 9)
        switch byte {
        case 0x00...0x7F: next[0] = accept
        case 0xC2...0xDF: next[0] = one
        case 0xE0: next[0] = e0
        case 0xE1...0xEC, 0xEE...0xEF: next[0] = two
        case 0xED: next[0] = ed
        case 0xF0: next[0] = f0
        case 0xF1...0xF3: next[0] = three
        case 0xF4: next[0] = f4
        case 0x80...0xBF:
            next[Int(one / 6)] = accept
            next[Int(two / 6)] = one
            next[Int(three / 6)] = two
            if byte >= 0xA0 { next[Int(e0 / 6)] = one } else { next[Int(ed / 6)] = one }
            if byte >= 0x90 { next[Int(f0 / 6)] = two } else { next[Int(f4 / 6)] = two }
        default: break  // C0, C1 and F5–FF are never UTF-8.
        }
        return next.enumerated().reduce(0) { row, column in row | column.element << UInt64(column.offset * 6) }
    }

    /// The bytes as a string, or nil when they are not UTF-8. (The standard library's
    /// `String(validating:as:)` is generic over the encoding and on Linux looks up type
    /// metadata on every call: over a thousand instructions for a short name, a fifth of
    /// reading a JSON list.)
    ///
    /// Decoding checks the bytes already, and puts U+FFFD in place of what is not UTF-8:
    /// the text comes back with the same bytes exactly when it was UTF-8 (the first repair
    /// writes U+FFFD's three bytes where the bytes held a sequence that was not U+FFFD).
    /// Comparing the bytes costs a tenth of checking them a second time.
    static func string(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return "" }
        var text = String(decoding: bytes, as: UTF8.self)
        guard text.utf8.count == bytes.count else { return nil }
        return text.withUTF8 { memcmp($0.baseAddress!, base, bytes.count) == 0 } ? text : nil
    }

    /// A text read straight into a string's storage (one copy of it in memory, not two):
    /// `fill` puts its `count` bytes there and says how many it put; the storage has `room`
    /// bytes more, for an edit to make the text longer in place. Fails at the first byte that
    /// is not UTF-8, naming `path` and its line (the text's first is line `firstLine`).
    ///
    /// The standard library checks the bytes as it makes the string (it cannot be told not
    /// to) and puts U+FFFD where they are not UTF-8; checking them before as well was an
    /// eighth of `todofmt done` on a large checklist. So only a text that then holds U+FFFD
    /// is read again (`again`) and checked, to tell a repair from a U+FFFD of its own.
    static func text(
        count: Int, room: Int = 0, path: String, firstLine: Int = 1,
        fill: (UnsafeMutableBufferPointer<UInt8>) throws -> Int, again: () throws -> [UInt8]
    ) throws -> String {
        let text = try String(unsafeUninitializedCapacity: count + room) { buffer in
            try fill(UnsafeMutableBufferPointer(rebasing: buffer[..<count]))
        }
        guard text.withBytes({ ByteScan.containsReplacementCharacter($0) }) else { return text }
        let bytes = try again()
        if text.withBytes({ text in bytes.withUnsafeBufferPointer { ByteScan.same(text, $0) } }) { return text }
        do {
            return try decode(bytes, path: path)
        } catch {
            var error = error
            error.location.line += firstLine - 1
            throw error
        }
    }

    /// The bytes as a string, or nil when they are not UTF-8.
    static func string(_ bytes: [UInt8]) -> String? {
        bytes.withUnsafeBufferPointer { string($0) }
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
