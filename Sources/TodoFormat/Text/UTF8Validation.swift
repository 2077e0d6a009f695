import Foundation

/// UTF-8 text checks: every text format reads UTF-8, and names the first byte that is not.
enum UTF8Validation {
    /// The offset of the first byte that does not belong to well-formed UTF-8, or -1.
    ///
    /// Eight bytes at a time while they are ASCII; a word with a byte of 0x80 or more skips
    /// to it, and the characters from there are checked one after another while they are not
    /// ASCII (text in other scripts is runs of them).
    static func firstInvalidOffset(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        firstInvalidOffset(in: bytes)
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

    @inline(__always)
    private static func firstInvalidOffset(in bytes: UnsafeBufferPointer<UInt8>) -> Int {
        guard let p = bytes.baseAddress else { return -1 }
        let n = bytes.count
        let raw = UnsafeRawPointer(p)
        var i = 0
        while i < n {
            if i + 8 <= n {
                let high =
                    UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)) & 0x8080_8080_8080_8080
                if high == 0 {
                    i += 8
                    continue
                }
                i += high.trailingZeroBitCount >> 3
            } else if p[i] < 0x80 {
                i += 1
                continue
            }
            // p[i] is 0x80 or more: characters that are not ASCII, while they last.
            repeat {
                let b0 = p[i]
                @inline(__always) func cont(_ k: Int) -> Bool { i + k < n && p[i + k] & 0xC0 == 0x80 }
                if b0 >= 0xC2 && b0 <= 0xDF {
                    guard cont(1) else { return i }
                    i += 2
                } else if b0 >= 0xE0 && b0 <= 0xEF {
                    guard cont(1), cont(2) else { return i }
                    let b1 = p[i + 1]
                    if b0 == 0xE0 && b1 < 0xA0 { return i }  // overlong
                    if b0 == 0xED && b1 >= 0xA0 { return i }  // surrogate
                    i += 3
                } else if b0 >= 0xF0 && b0 <= 0xF4 {
                    guard cont(1), cont(2), cont(3) else { return i }
                    let b1 = p[i + 1]
                    if b0 == 0xF0 && b1 < 0x90 { return i }
                    if b0 == 0xF4 && b1 >= 0x90 { return i }
                    i += 4
                } else {
                    return i
                }
            } while i < n && p[i] >= 0x80
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
