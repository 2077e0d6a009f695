import Testing

@testable import TodoFormat

@Suite("UTF-8 validation")
struct UTF8ValidationTests {
    /// The offset of the first byte of the first sequence that is not UTF-8, by the standard
    /// library's decoder; -1 for UTF-8.
    private func reference(_ bytes: [UInt8]) -> Int {
        var iterator = bytes.makeIterator()
        var decoder = UTF8()
        var offset = 0
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar): offset += UTF8.width(scalar)
            case .emptyInput: return -1
            case .error: return offset
            }
        }
    }

    /// Pieces that valid and broken text is made of: ASCII, each length of character, and
    /// each way a sequence goes wrong (overlong, surrogate, past U+10FFFF, a lone
    /// continuation byte, a sequence cut short, bytes never in UTF-8).
    private static let pieces: [[UInt8]] = [
        [0x61], [0x20, 0x62, 0x63], [0xC3, 0xA9], [0xD0, 0x9F], [0xDF, 0xBF], [0xE3, 0x81, 0x82],
        [0xE0, 0xA0, 0x80], [0xED, 0x9F, 0xBF], [0xEE, 0x80, 0x80], [0xEF, 0xBF, 0xBD],
        [0xF0, 0x9F, 0x98, 0x80], [0xF0, 0x90, 0x80, 0x80], [0xF4, 0x8F, 0xBF, 0xBF],
        [0xC0, 0xAF], [0xC1, 0xBF], [0xE0, 0x9F, 0xBF], [0xED, 0xA0, 0x80], [0xF0, 0x8F, 0xBF, 0xBF],
        [0xF4, 0x90, 0x80, 0x80], [0xF5, 0x80, 0x80, 0x80], [0xF8, 0x88, 0x80, 0x80], [0x80], [0xBF],
        [0xC3], [0xE3, 0x81], [0xF0, 0x9F, 0x98], [0xFE], [0xFF], [0xC3, 0x41], [0xE3, 0x41, 0x82],
        [0xF0, 0x9F, 0x41, 0x80],
    ]

    /// Whether `isValid` agrees with the decoder on `bytes`, and on the prefixes around the
    /// first bad byte: the text before it is UTF-8, the text through it is not.
    private func agrees(_ bytes: [UInt8]) -> Bool {
        func valid(_ count: Int) -> Bool {
            bytes.withUnsafeBufferPointer { UTF8Validation.isValid(.init(rebasing: $0[..<count])) }
        }
        let first = reference(bytes)
        guard first >= 0 else { return valid(bytes.count) }
        return !valid(bytes.count) && valid(first) && !valid(first + 1)
    }

    @Test("text is UTF-8 up to the byte Swift's decoder stops at, and not through it", arguments: 0..<40)
    func offsets(seed: Int) {
        var rng = SeededGenerator(seed: UInt64(seed))
        for _ in 0..<250 {
            var bytes: [UInt8] = []
            // Mostly valid pieces, so that the broken one comes after characters of each length.
            for _ in 0..<Int.random(in: 0..<12, using: &rng) {
                let valid = Int.random(in: 0..<10, using: &rng) < 8
                let piece =
                    valid ? Self.pieces[Int.random(in: 0..<13, using: &rng)] : Self.pieces.randomElement(using: &rng)!
                bytes += piece
            }
            #expect(agrees(bytes), "\(bytes.map { String($0, radix: 16) })")
        }
    }

    @Test("in long texts of every piece, and in random bytes, the same first bad byte", arguments: 0..<20)
    func longOffsets(seed: Int) {
        var rng = SeededGenerator(seed: UInt64(seed) &+ 1000)
        for _ in 0..<100 {
            var bytes: [UInt8] = []
            for _ in 0..<Int.random(in: 0..<80, using: &rng) {
                let valid = Int.random(in: 0..<40, using: &rng) > 0
                bytes +=
                    valid ? Self.pieces[Int.random(in: 0..<13, using: &rng)] : Self.pieces.randomElement(using: &rng)!
            }
            let random = (0..<Int.random(in: 0..<24, using: &rng)).map { _ in UInt8.random(in: 0...255, using: &rng) }
            for text in [bytes, random, bytes + random] {
                #expect(agrees(text), "\(text.map { String($0, radix: 16) })")
            }
        }
    }
}
