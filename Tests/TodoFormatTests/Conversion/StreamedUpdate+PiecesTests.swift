import Foundation
import Testing

@testable import TodoFormat

/// A streamed write of a list edited in many places, a piece at a time
/// (`StreamedUpdate.pieces(of:…)`): the same bytes as the whole-list write, and where an
/// item moved between pieces, the whole run aligned at once.
@Suite("Streamed writes of a list edited in many places")
struct StreamedUpdatePiecesTests {
    @Test(
        "a list edited in many places gives the whole-list write's bytes, piece by piece",
        arguments: StreamedUpdateTests.formats)
    func editedInManyPlaces(format: DocumentFormat) throws {
        let directory = try TemporaryDirectory()
        var lines = (1...400).map { "- [ ] Item \($0) [n:: \($0)]" }
        for k in (1...8).map({ $0 * 40 }) { lines.insert("  - [ ] Child of \(k)", at: k) }
        let path = try StreamedUpdateTests.newFile(
            lines.joined(separator: "\n") + "\n", "list.\(format)", in: directory)
        // Every tenth box checked, an item renamed, one added, one removed, one added twice
        // in a row, a child removed, the last item removed: pieces of every kind.
        var edited = lines
        for i in stride(from: 9, to: edited.count, by: 10) where edited[i].hasPrefix("- [ ]") {
            edited[i] = edited[i].replacingOccurrences(of: "- [ ]", with: "- [x]")
        }
        edited[55] = "- [ ] Renamed [n:: 55]"
        edited.insert("- [ ] Added [n:: 0]", at: 120)
        edited.remove(at: 200)
        edited.insert(contentsOf: ["- [ ] Added again", "- [ ] And again"], at: 300)
        edited.removeAll { $0 == "  - [ ] Child of 240" }
        edited.removeLast()
        let checklist = try StreamedUpdateTests.checklist(edited.joined(separator: "\n") + "\n", in: directory)
        let whole = directory.path("whole.\(format)")
        try FileManager.default.copyItem(atPath: path, toPath: whole)
        #expect(try StreamedUpdateTests.streamed(checklist, into: path) != nil)
        try StreamedUpdateTests.whole(checklist, into: whole)
        #expect(try StreamedUpdateTests.bytes(path) == (try StreamedUpdateTests.bytes(whole)))
    }

    @Test(
        "an item an app wrote its own way, moved far in a list edited in many places, is paired as the whole-list write pairs it"
    )
    func movedAcrossPieces() throws {
        let directory = try TemporaryDirectory()
        let lines = (1...300).map { "- [ ] Item \($0) [prio:: 1] [color:: red]" }
        let path = try StreamedUpdateTests.newFile(lines.joined(separator: "\n") + "\n", "list.json", in: directory)
        // The app keeps item 6's keys in an order of its own.
        let text = try String(contentsOfFile: path, encoding: .utf8).replacingOccurrences(
            of: #"{"name": "Item 6", "checked": false, "prio": 1, "color": "red"}"#,
            with: #"{"color": "red", "name": "Item 6", "checked": false, "prio": 1}"#)
        try text.write(toFile: path, atomically: false, encoding: .utf8)
        var edited = lines
        for i in stride(from: 9, to: edited.count, by: 10) {
            edited[i] = edited[i].replacingOccurrences(of: "- [ ]", with: "- [x]")
        }
        edited.insert(edited.remove(at: 5), at: 250)
        let checklist = try StreamedUpdateTests.checklist(edited.joined(separator: "\n") + "\n", in: directory)
        let whole = directory.path("whole.json")
        try FileManager.default.copyItem(atPath: path, toPath: whole)
        #expect(try StreamedUpdateTests.streamed(checklist, into: path) != nil)
        try StreamedUpdateTests.whole(checklist, into: whole)
        #expect(try StreamedUpdateTests.bytes(path) == (try StreamedUpdateTests.bytes(whole)))
    }

    @Test("a run splits where items stand unchanged, in order; an unchanged item moved keeps it whole")
    func pieces() {
        let update = JSONFormat.streamedUpdate
        func file(_ names: [String]) -> [UInt8] {
            Array(("[\n" + names.map { "  {\"name\": \"\($0)\"}" }.joined(separator: ",\n") + "\n]\n").utf8)
        }
        let old = file(["a", "b", "c", "d", "e", "f", "g"])
        // Each item's object, and the run from the first item on.
        let spans = (0..<7).map { k in
            let start = old.indices.filter { old[$0] == UInt8(ascii: "{") }[k]
            return start..<(old[start...].firstIndex(of: UInt8(ascii: "}"))! + 1)
        }
        func pieces(_ names: [String]) -> [StreamedUpdate<JSONListSyntax>.Piece]? {
            let new = file(names)
            return old.withUnsafeBufferPointer { old in
                new.withUnsafeBufferPointer { new in
                    update.pieces(
                        of: spans, output: UnsafeBufferPointer(rebasing: new[2...]), oldEnd: old.count, in: old)?
                        .pieces
                }
            }
        }
        typealias Piece = StreamedUpdate<JSONListSyntax>.Piece
        #expect(
            pieces(["A", "b", "c", "D", "e", "f", "G"]) == [
                Piece(old: 0..<1, new: 0..<1), Piece(old: 3..<4, new: 3..<4), Piece(old: 6..<7, new: 6..<7),
            ])
        // Added: the piece takes the next item; removed at the end: the one before.
        #expect(
            pieces(["A", "b", "X", "c", "d", "e", "f"]) == [
                Piece(old: 0..<1, new: 0..<1), Piece(old: 2..<3, new: 2..<4), Piece(old: 5..<7, new: 6..<7),
            ])
        // Pieces that touch are one.
        #expect(
            pieces(["A", "b", "X", "c", "D", "e", "f", "g"]) == [
                Piece(old: 0..<1, new: 0..<1), Piece(old: 2..<4, new: 2..<5),
            ])
        // An unchanged item moved.
        #expect(pieces(["A", "c", "b", "d", "e", "f", "g"]) == nil)
    }
}
