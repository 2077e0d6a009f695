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

    /// The items where two runs differ (`differingItems`), found by comparing the runs from
    /// their starts, are those that pairing every item of one with the item in its place in
    /// the other finds: runs of items with a few changed, added, removed or joined.
    @Test(
        "the items where two runs differ, against pairing every item found",
        arguments: ["\n  {", "\n\t<dict>", "\nINSERT INTO \"t\" VALUES("])
    func differingItems(marker text: String) {
        let marker = Array(text.utf8)
        let line = LineMarker(bytes: marker, itemOffset: marker.count - 1)
        var rng = SeededGenerator(seed: UInt64(marker.count) &+ 7)
        // Bodies of bytes that make up markers' beginnings, holding no whole marker.
        let alphabet = Array(Set(marker + [UInt8(ascii: "a"), UInt8(ascii: "x")]))
        func body() -> [UInt8] {
            while true {
                let bytes = (0..<Int.random(in: 0...12, using: &rng)).map { _ in alphabet.randomElement(using: &rng)! }
                let text = Array(marker.dropLast()) + bytes + marker
                if Self.naive(marker, in: text, before: text.count).count == 1 { return bytes }
            }
        }
        func run(_ items: [[UInt8]]) -> [UInt8] {
            items.enumerated().flatMap { k, item in (k == 0 ? [] : Array(marker.dropLast())) + [marker.last!] + item }
        }
        for _ in 0..<400 {
            let old = (0..<Int.random(in: 1...8, using: &rng)).map { _ in body() }
            var new = old
            for _ in 0..<Int.random(in: 0...3, using: &rng) {
                let k = Int.random(in: 0..<new.count, using: &rng)
                switch Int.random(in: 0..<5, using: &rng) {
                case 0: new[k] = body()
                case 1: new.insert(body(), at: Int.random(in: 0...new.count, using: &rng))
                case 2 where new.count > 1: new.remove(at: k)
                case 3 where k + 1 < new.count:
                    // The next item's marker taken away: the two are one.
                    new[k] += Array(marker.dropLast()) + new.remove(at: k + 1)
                default:
                    if !new[k].isEmpty { new[k][Int.random(in: 0..<new[k].count, using: &rng)] = UInt8(ascii: "x") }
                }
            }
            let (a, b) = (run(old), run(new))
            // Every item's start in both, paired in place where both have as many.
            let startsA = a.withUnsafeBufferPointer { line.runStarts(in: $0) }
            let startsB = b.withUnsafeBufferPointer { line.runStarts(in: $0) }
            var expected: [(Range<Int>, Range<Int>, Bool)]? = nil
            if startsA.count == startsB.count {
                let n = startsA.count
                expected = (0..<n).compactMap { k in
                    let ra = startsA[k]..<(k + 1 < n ? startsA[k + 1] : a.count)
                    let rb = startsB[k]..<(k + 1 < n ? startsB[k + 1] : b.count)
                    return a[ra] == b[rb] ? nil : (ra, rb, k == n - 1)
                }
            }
            let found = a.withUnsafeBufferPointer { a in b.withUnsafeBufferPointer { line.differingItems(a, $0) } }
            #expect(
                found.map { $0.map { "\($0.a) \($0.b) \($0.isLast)" } }
                    == expected.map { $0.map { "\($0.0) \($0.1) \($0.2)" } }, "\(old) → \(new)")
        }
    }
}
