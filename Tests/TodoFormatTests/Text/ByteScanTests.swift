import Testing

@testable import TodoFormat

@Suite("Byte counts, U+FFFD, and what SQL and JSON escape")
struct ByteScanCountTests {
    /// Random bytes drawn mostly from those the scans look for and their near neighbours
    /// (a byte off by one, or by the high bit, is what a word-wise test gets wrong).
    private static func bytes(_ rng: inout SeededGenerator) -> [UInt8] {
        let alphabet: [UInt8] = [
            10, 11, 9, 0x8A, 0x0B, 0xEF, 0xBF, 0xBD, 0xBE, 0xEE, 0x6F, 0x3D, 0, 0xFF, 0x7F, 0x80, 0x41,
        ]
        return (0..<Int.random(in: 0..<40, using: &rng)).map { _ in
            Int.random(in: 0..<4, using: &rng) == 0
                ? UInt8.random(in: 0...255, using: &rng) : alphabet.randomElement(using: &rng)!
        }
    }

    @Test("a byte's count, eight at a time, is the count byte by byte, in every slice", arguments: 0..<8)
    func count(seed: Int) {
        var rng = SeededGenerator(seed: UInt64(seed))
        for _ in 0..<500 {
            let bytes = Self.bytes(&rng)
            let c: UInt8 = [10, 0xEF, 0, 0xFF, 0x80][Int.random(in: 0..<5, using: &rng)]
            let lower = Int.random(in: 0...bytes.count, using: &rng)
            let upper = Int.random(in: lower...bytes.count, using: &rng)
            bytes.withUnsafeBufferPointer { buffer in
                #expect(ByteScan.count(of: c, in: buffer) == bytes.count { $0 == c }, "\(bytes)")
                #expect(ByteScan.count(of: c, in: buffer[lower..<upper]) == bytes[lower..<upper].count { $0 == c })
            }
        }
    }

    @Test(
        "a line's start, eight bytes at a time, is the one found byte by byte, from any offset and floor",
        arguments: 0..<8)
    func lineStart(seed: Int) {
        var rng = SeededGenerator(seed: UInt64(seed))
        for _ in 0..<500 {
            let bytes = Self.bytes(&rng)
            let floor = Int.random(in: 0...bytes.count, using: &rng)
            let offset = Int.random(in: floor...bytes.count, using: &rng)
            var expected = offset
            while expected > floor && bytes[expected - 1] != 10 { expected -= 1 }
            bytes.withUnsafeBufferPointer { buffer in
                #expect(ByteScan.lineStart(before: offset, floor: floor, in: buffer) == expected, "\(bytes) \(offset)")
            }
        }
    }

    @Test("a count over many words, of a byte in every place and in none, across the sums' blocks")
    func longCount() {
        for length in [0, 7, 8, 2040, 2047, 2048, 2049, 4080, 4081, 5000, 20_003] {
            let all = [UInt8](repeating: 10, count: length)
            let none = [UInt8](repeating: 11, count: length)
            let every3 = (0..<length).map { UInt8($0 % 3 == 0 ? 10 : 0x8A) }
            for bytes in [all, none, every3] {
                bytes.withUnsafeBufferPointer { buffer in
                    #expect(ByteScan.count(of: 10, in: buffer) == bytes.count { $0 == 10 }, "\(length)")
                }
            }
        }
    }

    @Test("U+FFFD is found wherever its three bytes stand, and only there", arguments: 0..<8)
    func replacementCharacter(seed: Int) {
        var rng = SeededGenerator(seed: UInt64(seed))
        for _ in 0..<500 {
            var bytes = Self.bytes(&rng)
            if Int.random(in: 0..<3, using: &rng) == 0 {
                bytes.insert(contentsOf: [0xEF, 0xBF, 0xBD], at: Int.random(in: 0...bytes.count, using: &rng))
            }
            let expected = bytes.indices.contains { bytes[$0...].starts(with: [0xEF, 0xBF, 0xBD]) }
            #expect(bytes.withUnsafeBufferPointer { ByteScan.containsReplacementCharacter($0) } == expected, "\(bytes)")
        }
    }

    @Test("what an SQL text literal cannot hold as it is is found wherever it stands", arguments: 0..<8)
    func sqlSpecial(seed: Int) {
        var rng = SeededGenerator(seed: UInt64(seed))
        for _ in 0..<500 {
            let bytes = Self.bytes(&rng)
            let expected = bytes.contains { $0 == 0x27 || $0 == 0 || $0 == 13 }
            #expect(bytes.withUnsafeBufferPointer { ByteScan.containsSQLSpecial($0) } == expected, "\(bytes)")
        }
    }

    /// Sixteen bytes at a time, the last sixteen overlapping those before; `<` and `>` are
    /// tested as one byte with a bit set, so the bytes a bit off must not match.
    @Test("what XML escapes is found wherever it stands, and only there")
    func xmlSpecial() {
        let filler = Array("aé日".utf8)
        for length in 1..<70 {
            let base = (0..<length).map { filler[$0 % filler.count] }
            base.withUnsafeBufferPointer { #expect(!ByteScan.containsXMLSpecial($0), "\(length)") }
            for position in 0..<length {
                for byte: UInt8 in [0x3C, 0x3E, 0x26, 0xEF, 0x3D, 0x3F, 0x3A, 0x36, 0x1C, 0xBC, 0x27, 0xEE, 0xFF, 0x6F]
                {
                    var bytes = base
                    bytes[position] = byte
                    let expected = byte == 0x3C || byte == 0x3E || byte == 0x26 || byte == 0xEF
                    bytes.withUnsafeBufferPointer {
                        #expect(ByteScan.containsXMLSpecial($0) == expected, "\(length) \(position) \(byte)")
                    }
                }
            }
        }
    }

    /// The word-wise tests share one mask and take `"` and `&` as one byte with a bit set: the
    /// bytes near them (a bit off, the high bit set, the edge of the controls) must not match.
    @Test("checklist and JSON escapes are found wherever they stand, and only there", arguments: 0..<8)
    func escapes(seed: Int) {
        var rng = SeededGenerator(seed: UInt64(seed))
        let alphabet: [UInt8] = [
            0x22, 0x26, 0x5C, 0x1F, 0x00, 0x20, 0x21, 0x23, 0x24, 0x25, 0x27, 0x2A, 0x2E, 0x02, 0x06, 0x5D, 0x58, 0x7C,
            0xA2, 0xA6, 0xDC, 0x9F, 0x80, 0xFF, 0x41, 0xE6, 0x97, 0xA5,
        ]
        for _ in 0..<1000 {
            let plain = alphabet.filter { $0 >= 0x20 && $0 != 0x22 && $0 != 0x26 && $0 != 0x5C }
            // Mostly texts with no escape at all, so that the words are tested through.
            let pool = Int.random(in: 0..<3, using: &rng) == 0 ? alphabet : plain
            var bytes = (0..<Int.random(in: 0..<40, using: &rng)).map { _ in pool.randomElement(using: &rng)! }
            if !bytes.isEmpty && Bool.random(using: &rng) {
                bytes[Int.random(in: 0..<bytes.count, using: &rng)] = alphabet.randomElement(using: &rng)!
            }
            let json = bytes.contains { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C }
            let either = json || bytes.contains(0x26)
            bytes.withUnsafeBufferPointer { buffer in
                #expect(ByteScan.containsJSONEscape(buffer) == json, "\(bytes)")
                #expect(ByteScan.containsEscapeOrJSONEscape(buffer) == either, "\(bytes)")
            }
        }
    }
}
