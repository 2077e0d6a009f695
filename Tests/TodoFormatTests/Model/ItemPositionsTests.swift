import Testing

@testable import TodoFormat

@Suite("Items' positions")
struct ItemPositionsTests {
    /// Positions followed through walks that go deeper by one or several levels, come back
    /// up by any number and stay, against the positions worked out from the walk itself:
    /// an item's counter at its level counts the items since its parent, and a level skipped
    /// counts 0.
    @Test("positions follow walks up and down, levels skipped counting 0", arguments: 0..<20)
    func walks(seed: Int) {
        var rng = SeededGenerator(seed: UInt64(seed))
        var positions = ItemPositions()
        var model: [Int] = []
        var depth = 0
        for step in 0..<2_000 {
            depth = Int.random(in: 0...(depth + (step % 7 == 0 ? 4 : 1)), using: &rng)
            model = Array(model.prefix(depth + 1))
            while model.count < depth + 1 { model.append(0) }
            model[depth] += 1
            let expected = model.map(String.init).joined(separator: ".")
            if step % 2 == 0 {
                positions.advance(depth: depth)
                #expect(positions.current == expected)
            } else {
                #expect(positions.next(depth: depth) == expected)
            }
        }
    }

    @Test("a first item deeper than the top counts the levels above it 0")
    func deepFirst() {
        var positions = ItemPositions()
        #expect(positions.next(depth: 2) == "0.0.1")
        #expect(positions.next(depth: 0) == "1")
        #expect(positions.next(depth: 1) == "1.1")
        #expect(positions.next(depth: 3) == "1.1.0.1")
        #expect(positions.next(depth: 1) == "1.2")
    }
}
