import Foundation

/// `list --grep`'s text, lowered once, and how names are searched for it ignoring case:
/// an ASCII needle byte by byte with ASCII letters folded (the only other characters that
/// lower to ASCII, the Kelvin sign and the dotted capital I, send the name the long way); a
/// needle without case (日本語) byte by byte as it is; any other with the name lowered too.
struct GrepNeedle: Sendable {
    /// The text, lowered.
    let text: String
    private let bytes: [UInt8]
    private let isASCII: Bool
    /// Whether no character of the needle changes when case mapped: it is looked for as it is.
    private let isCaseless: Bool

    init(_ grep: String) {
        text = grep.lowercased()
        bytes = Array(text.utf8)
        isASCII = !bytes.contains { $0 >= 0x80 }
        isCaseless = !text.unicodeScalars.contains { $0.properties.changesWhenCaseMapped }
    }

    /// Whether `name` contains the needle, ignoring case.
    func isFound(in name: Substring) -> Bool {
        if let found = name.utf8.withContiguousStorageIfAvailable({ isFound(inBytes: $0) }) ?? nil { return found }
        return name.lowercased().contains(text)
    }

    /// Whether a name given as its UTF-8 bytes contains the needle, ignoring case.
    func isFound(inUTF8 name: UnsafeBufferPointer<UInt8>) -> Bool {
        isFound(inBytes: name) ?? String(decoding: name, as: UTF8.self).lowercased().contains(text)
    }

    /// `isFound` byte by byte; nil when the name must be lowered to tell.
    private func isFound(inBytes hay: UnsafeBufferPointer<UInt8>) -> Bool? {
        if bytes.isEmpty { return true }
        guard hay.count >= bytes.count, let base = hay.baseAddress else {
            if isASCII { return Self.lowersToASCII(hay) ? nil : false }
            return isCaseless ? false : nil
        }
        if !isASCII {
            guard isCaseless else { return nil }
            // Each place the first byte is (memchr), compared whole (memcmp).
            return bytes.withUnsafeBufferPointer { pin in
                var start = 0
                let last = hay.count - pin.count
                while start <= last, let found = memchr(base + start, Int32(pin[0]), last - start + 1) {
                    let at = UnsafeRawPointer(base).distance(to: UnsafeRawPointer(found))
                    if memcmp(base + at, pin.baseAddress!, pin.count) == 0 { return true }
                    start = at + 1
                }
                return false
            }
        }
        let first = bytes[0]
        for start in 0...(hay.count - bytes.count) {
            var b = hay[start]
            if b >= 65 && b <= 90 { b += 32 }
            guard b == first else { continue }
            var k = 1
            while k < bytes.count {
                b = hay[start + k]
                if b >= 65 && b <= 90 { b += 32 }
                if b != bytes[k] { break }
                k += 1
            }
            if k == bytes.count { return true }
        }
        return Self.lowersToASCII(hay) ? nil : false
    }

    /// Whether the name holds U+212A KELVIN SIGN (E2 84 AA) or U+0130 (C4 B0), which lower to
    /// ASCII letters.
    private static func lowersToASCII(_ hay: UnsafeBufferPointer<UInt8>) -> Bool {
        for i in hay.indices where hay[i] == 0xC4 || hay[i] == 0xE2 {
            if hay[i] == 0xC4, i + 1 < hay.count, hay[i + 1] == 0xB0 { return true }
            if hay[i] == 0xE2, i + 2 < hay.count, hay[i + 1] == 0x84, hay[i + 2] == 0xAA { return true }
        }
        return false
    }
}
