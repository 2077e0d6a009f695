import Testing

@testable import TodoFormat

@Suite("A run split into pieces")
struct ListPiecesTests {
    /// Splits lists of lines, an item a line (their bytes one after the other in one buffer).
    private static func split(_ old: [String], _ new: [String]) -> [ListPieces.Piece]? {
        let bytes = Array((old + new).joined().utf8)
        var ranges: [Range<Int>] = []
        for line in old + new {
            ranges.append((ranges.last?.upperBound ?? 0)..<((ranges.last?.upperBound ?? 0) + line.utf8.count))
        }
        return bytes.withUnsafeBufferPointer { buffer in
            ListPieces.split(
                oldCount: old.count, newCount: new.count, old: { UnsafeBufferPointer(rebasing: buffer[ranges[$0]]) },
                new: { UnsafeBufferPointer(rebasing: buffer[ranges[old.count + $0]]) })
        }
    }

    @Test("changed items between unchanged ones are pieces; an unchanged item that moved splits nothing")
    func pieces() {
        let old = (0..<8).map { "item \($0)" }
        var new = old
        new[2] = "item 2 changed"
        new[5] = "item 5 changed"
        #expect(Self.split(old, new) == [.init(old: 2..<3, new: 2..<3), .init(old: 5..<6, new: 5..<6)])
        // Item 6 before item 1.
        var moved = old
        moved.insert(moved.remove(at: 6), at: 1)
        #expect(Self.split(old, moved) == nil)
    }

    @Test("a name on the file's side of one piece and the new side of another crosses, in any Unicode spelling")
    func namesCross() {
        func name(_ piece: Int, _ isNew: Bool, _ text: String) -> ListPieces.Name {
            ListPieces.Name(piece: piece, isNew: isNew, name: Substring(text))
        }
        // An item's name before and after its change, in one piece: no crossing.
        #expect(!ListPieces.namesCross([name(0, false, "café"), name(0, true, "café"), name(1, false, "tea")]))
        // Moved from piece 0 to piece 1, its name written decomposed there.
        #expect(ListPieces.namesCross([name(0, false, "caf\u{E9}"), name(1, true, "cafe\u{301}")]))
        // Only on the file's side, in two pieces.
        #expect(!ListPieces.namesCross([name(0, false, "café"), name(1, false, "café")]))
    }
}
