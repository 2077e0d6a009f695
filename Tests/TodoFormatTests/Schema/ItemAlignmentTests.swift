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

    /// A random list of entries and an edit of it: names from a few (so that equal items
    /// recur), some spelled in two canonically equivalent ways, at depths 0 to 3; the edit
    /// moves, renames, checks, nests, adds, removes and duplicates items.
    static func randomEdit(_ random: inout SeededGenerator) -> (old: [ItemAlignment.Entry], new: [ItemAlignment.Entry])
    {
        let names = ["a", "b", "c", "caf\u{E9}", "cafe\u{301}", "日本", "x", "y", "long name here"]
        func entry(_ random: inout SeededGenerator) -> ItemAlignment.Entry {
            var fields: [Field] = []
            if Int.random(in: 0..<4, using: &random) == 0 {
                fields.append(Field("id", .integer(Int.random(in: 0..<30, using: &random))))
            }
            let item = TodoItem(
                name: names.randomElement(using: &random)!, status: Bool.random(using: &random) ? .done : .open,
                fields: fields)
            return ItemAlignment.Entry(item, depth: Int.random(in: 0..<4, using: &random))
        }
        let old = (0..<Int.random(in: 0..<40, using: &random)).map { _ in entry(&random) }
        var new = old
        for _ in 0..<Int.random(in: 0..<8, using: &random) {
            let at = new.isEmpty ? 0 : Int.random(in: 0..<new.count, using: &random)
            switch Int.random(in: 0..<7, using: &random) {
            case 0: new.insert(entry(&random), at: at)
            case 1 where !new.isEmpty: new.remove(at: at)
            case 2 where !new.isEmpty:
                let moved = new.remove(at: at)
                new.insert(moved, at: Int.random(in: 0...new.count, using: &random))
            case 3 where !new.isEmpty: new[at].item.isChecked.toggle()
            case 4 where !new.isEmpty: new[at].item.name = names.randomElement(using: &random)!
            case 5 where !new.isEmpty: new[at].depth = Int.random(in: 0..<4, using: &random)
            case 6 where !new.isEmpty: new.insert(new[at], at: at)
            default: break
            }
        }
        return (old, new)
    }

    @Test("grouping by digests pairs as grouping by whole items did, on 4,000 random edits")
    func agreesWithTheReference() throws {
        var random = SeededGenerator(seed: 11)
        let identity: (TodoItem) -> FieldValue? = { $0[field: "id"] }
        for _ in 0..<4000 {
            let (old, new) = Self.randomEdit(&random)
            let byIdentity = Bool.random(using: &random)
            let sameDepth = Bool.random(using: &random)
            let expected = Result {
                try ReferenceAlignment(
                    old: old, new: new, identity: byIdentity ? identity : nil, leftoversAtSameDepth: sameDepth)
            }
            let actual = Result {
                try ItemAlignment(
                    old: old, new: new, identity: byIdentity ? identity : nil, leftoversAtSameDepth: sameDepth)
            }
            switch (expected, actual) {
            case (.success(let e), .success(let a)):
                let got = (
                    new.indices.map { a.oldIndex(of: $0) }, new.indices.map { a.isUnchanged($0) },
                    old.indices.map { a.isKept($0) }
                )
                #expect(got.0 == e.source && got.1 == e.unchanged && got.2 == e.kept, "\(old) -> \(new)")
            case (.failure(let e), .failure(let a)):
                #expect(e as? DuplicateIdentity == a as? DuplicateIdentity)
            default:
                Issue.record("one failed, the other did not: \(old) -> \(new)")
            }
        }
    }

    @Test("one item on each side pairs as the reference pairs it, on 3,000 random pairs")
    func oneForOne() throws {
        var random = SeededGenerator(seed: 12)
        for _ in 0..<3000 {
            let (olds, news) = Self.randomEdit(&random)
            guard let o = olds.randomElement(using: &random), let n = news.randomElement(using: &random) else {
                continue
            }
            // Half of the time the same item, changed a little or not at all.
            let new = [Bool.random(using: &random) ? n : o]
            let sameDepth = Bool.random(using: &random)
            let expected = try ReferenceAlignment(old: [o], new: new, leftoversAtSameDepth: sameDepth)
            let actual = try ItemAlignment(old: [o], new: new, leftoversAtSameDepth: sameDepth)
            #expect(
                [actual.oldIndex(of: 0)] == expected.source && [actual.isUnchanged(0)] == expected.unchanged
                    && [actual.isKept(0)] == expected.kept, "\(o) -> \(new)")
        }
    }

    @Test("keys whose digests collide stay in groups of their own, members in the order given")
    func collidingDigests() {
        let keys = ["a", "b", "a", "c", "b", "a"]
        var groups = EqualGroups(Array(keys.indices), digest: { _ in 42 }, equal: { keys[$0] == keys[$1] })
        let a = groups.group(digest: 42) { keys[$0] == "a" }
        let c = groups.group(digest: 42) { keys[$0] == "c" }
        #expect(a != nil && c != nil && a != c)
        #expect(groups.group(digest: 42) { keys[$0] == "z" } == nil)
        #expect(groups.group(digest: 7) { keys[$0] == "a" } == nil)
        #expect(
            [groups.takeFirst(of: a!), groups.takeFirst(of: a!), groups.takeFirst(of: a!), groups.takeFirst(of: a!)]
                == [0, 2, 5, nil])
        #expect(groups.single(c!) == 3)
        #expect(groups.singles == [3])
    }
}
