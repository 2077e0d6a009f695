import Testing

@testable import TodoFormat

/// Where items start in a file laid out as todofmt writes one (`LineMarker`), against a
/// search one place at a time.
@Suite("Line markers")
struct LineMarkerTests {
    /// Each place at or after `from` where all of `marker` lies in the first `end` bytes.
    private static func naive(_ marker: [UInt8], in text: [UInt8], from: Int = 0, before end: Int) -> [Int] {
        guard end >= marker.count else { return [] }
        return (from...max(from, end - marker.count)).filter {
            $0 + marker.count <= end && Array(text[$0..<($0 + marker.count)]) == marker
        }
    }

    @Test(
        "every marker, of every length, near others, at the ends and cut by the end",
        arguments: [
            "\n  {", "\n\t<dict>", "\nINSERT INTO \"t\" VALUES(", "\n- ", "x", "\n\n", "aa",
        ])
    func againstNaive(marker text: String) {
        let marker = Array(text.utf8)
        var rng = SeededGenerator(seed: UInt64(marker.count))
        // Texts of the marker's bytes and their neighbours, so that partial markers, markers
        // that overlap and ones flagged by borrows come often.
        let alphabet = Array(Set(marker + [0, 0x7F, 0x80, 0xFF, UInt8(ascii: "a"), marker[0] &+ 1, marker[0] &- 1]))
        for _ in 0..<300 {
            var bytes: [UInt8] = []
            while bytes.count < Int.random(in: 0...90, using: &rng) {
                if Int.random(in: 0..<4, using: &rng) == 0 {
                    bytes += marker.prefix(Int.random(in: 1...marker.count, using: &rng))
                } else {
                    bytes.append(alphabet.randomElement(using: &rng)!)
                }
            }
            let end = Int.random(in: 0...bytes.count, using: &rng)
            let line = LineMarker(bytes: marker, itemOffset: 1)
            let found = bytes.withUnsafeBufferPointer { line.starts(in: $0, before: end) }
            #expect(found == Self.naive(marker, in: bytes, before: end).map { $0 + 1 }, "\(bytes), \(end)")
            let from = Int.random(in: 0...bytes.count, using: &rng)
            let next = bytes.withUnsafeBufferPointer { line.nextStart(from: from, in: $0) }
            #expect(next == Self.naive(marker, in: bytes, from: from, before: bytes.count).first.map { $0 + 1 })
            let two = bytes.withUnsafeBufferPointer { line.starts(in: $0, before: bytes.count, limit: 2) }
            #expect(two == Array(Self.naive(marker, in: bytes, before: bytes.count).prefix(2).map { $0 + 1 }))
        }
    }
}
