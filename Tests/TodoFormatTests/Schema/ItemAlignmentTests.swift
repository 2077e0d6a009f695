import Testing

@testable import TodoFormat

@Suite("Aligning a list written back with the items a file holds")
struct ItemAlignmentTests {
    static func entries(_ names: [String], checked: Set<String> = []) -> [ItemAlignment.Entry] {
        names.map { ItemAlignment.Entry(TodoItem(name: $0, status: checked.contains($0) ? .done : .open), depth: 0) }
    }

    /// For each new item: the old index it continues and whether unchanged ("=" unchanged,
    /// "~" changed, "+" new); and the old items removed.
    static func describe(_ a: ItemAlignment, old: Int, new: Int) -> (String, [Int]) {
        let text = (0..<new).map { i in
            guard let o = a.oldIndex(of: i) else { return "+" }
            return (a.isUnchanged(i) ? "=" : "~") + String(o)
        }.joined(separator: " ")
        return (text, (0..<old).filter { !a.isKept($0) })
    }

    struct Edit: Sendable, CustomStringConvertible {
        var old: [String]
        var new: [String]
        var checked: Set<String> = []
        var expected: String
        var removed: [Int] = []
        var description: String { "\(old) -> \(new)" }
    }

    static let cases: [Edit] = [
        Edit(old: ["a", "b", "c"], new: ["a", "b", "c"], expected: "=0 =1 =2"),
        Edit(old: ["a", "b", "c"], new: ["a", "b", "c"], checked: ["b"], expected: "=0 ~1 =2"),  // checked
        Edit(old: ["a", "b", "c"], new: ["a", "B", "c"], expected: "=0 ~1 =2"),  // renamed
        Edit(old: ["a", "b", "c"], new: ["a", "b", "c", "d"], expected: "=0 =1 =2 +"),  // added
        Edit(old: ["a", "b", "c"], new: ["a", "c"], expected: "=0 =2", removed: [1]),  // removed
        Edit(old: ["a", "b", "c"], new: ["c", "a", "b"], expected: "=2 =0 =1"),  // moved to the top
        Edit(old: ["a", "b", "c", "d"], new: ["a", "X", "Y", "d"], expected: "=0 ~1 ~2 =3"),  // two renamed
        Edit(old: ["a", "a", "b"], new: ["a", "b", "a"], expected: "=0 =2 =1"),  // duplicates pair in order
        Edit(old: ["a", "b"], new: [], expected: "", removed: [0, 1]),
        Edit(old: [], new: ["a"], expected: "+"),
        // Moved and checked: the same name, left over on both sides, pairs.
        Edit(old: ["a", "b"], new: ["b", "a"], checked: ["a"], expected: "=1 ~0"),
        Edit(old: ["a", "b", "c"], new: ["b", "c", "a"], checked: ["a"], expected: "=1 =2 ~0"),
        // An item put in just before a changed one: the changed one keeps its place.
        Edit(old: ["a", "b", "c"], new: ["a", "N", "b", "c"], checked: ["b"], expected: "=0 + ~1 =2"),
        Edit(old: ["a", "b", "c"], new: ["a", "N", "B", "c"], expected: "=0 ~1 + =2"),
        // A name two leftovers have on one side pairs with neither (which is which is unknown).
        Edit(old: ["a", "x", "a", "b"], new: ["b", "a"], checked: ["a"], expected: "=3 +", removed: [0, 1, 2]),
    ]

    @Test("edits a person makes in a checklist", arguments: cases)
    func edits(edit: Edit) throws {
        let alignment = try ItemAlignment(
            old: Self.entries(edit.old), new: Self.entries(edit.new, checked: edit.checked))
        let (text, gone) = Self.describe(alignment, old: edit.old.count, new: edit.new.count)
        #expect(text == edit.expected)
        #expect(gone == edit.removed)
    }

    @Test("identities decide where items have them; the same identity twice is an error naming both")
    func identities() throws {
        func item(_ name: String, _ id: Int) -> ItemAlignment.Entry {
            ItemAlignment.Entry(TodoItem(name: name, fields: [Field("id", .integer(id))]), depth: 0)
        }
        let identity: (TodoItem) -> FieldValue? = { $0[field: "id"] }
        let old = [item("a", 1), item("b", 2), item("c", 3)]
        let renamedAndMoved = try ItemAlignment(
            old: old, new: [item("c", 3), item("A", 1), item("b", 2)], identity: identity)
        #expect(Self.describe(renamedAndMoved, old: 3, new: 3).0 == "=2 ~0 =1")
        #expect(throws: DuplicateIdentity(identity: .integer(2), first: 1, second: 2)) {
            try ItemAlignment(old: old, new: [item("a", 1), item("b", 2), item("b", 2)], identity: identity)
        }
    }
}
