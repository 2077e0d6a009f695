import Testing

@testable import TodoFormat

@Suite("Byte counts, U+FFFD and SQL's specials")
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
}
