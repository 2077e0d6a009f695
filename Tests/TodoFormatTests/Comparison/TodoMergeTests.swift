import Testing

@testable import TodoFormat

@Suite("Merging lists by item")
struct TodoMergeTests {
    static func merge(_ base: String, _ ours: String, _ theirs: String) throws -> (String, Int) {
        let result = try TodoMerge.checklists(base: base, ours: ours, theirs: theirs)
        return (String(decoding: result.bytes, as: UTF8.self), result.conflicts)
    }

    @Test("lines: one side's change, the same change on both, different changes are a conflict")
    func lines() {
        func merge(_ b: String, _ o: String, _ t: String) -> (String, Int) {
            let m = LineMerge(base: Array(b.utf8), ours: Array(o.utf8), theirs: Array(t.utf8))
            return (String(decoding: m.bytes, as: UTF8.self), m.conflicts)
        }
        #expect(merge("a\nb\nc\n", "a\nB\nc\n", "a\nb\nc\nd\n") == ("a\nB\nc\nd\n", 0))
        #expect(merge("a\nb\nc\n", "a\nB\nc\n", "a\nB\nc\n") == ("a\nB\nc\n", 0))
        #expect(merge("a\nb\nc\n", "a\nX\nc\n", "a\nY\nc\n") == ("a\n<<<<<<< ours\nX\n=======\nY\n>>>>>>> theirs\nc\n", 1))
        #expect(merge("", "a\n", "") == ("a\n", 0))
        #expect(merge("a", "b", "c") == ("<<<<<<< ours\nb\n=======\nc\n>>>>>>> theirs\n", 1))
    }

    @Test("a moved item takes its nested items; the same item added on both sides is one")
    func movesAndAdds() throws {
        let base = "- [ ] a\n- [ ] b\n  - [ ] b1\n- [ ] c\n"
        let ours = "- [x] a\n- [ ] b\n  - [ ] b1\n  - [ ] b2\n- [ ] c\n- [ ] d\n"
        let theirs = "- [ ] c\n- [ ] a\n- [ ] b\n  - [ ] b1\n- [ ] d\n"
        #expect(try Self.merge(base, ours, theirs) == ("- [ ] c\n- [x] a\n- [ ] b\n  - [ ] b1\n  - [ ] b2\n- [ ] d\n", 0))
        // Theirs moved c up (the fewest moves: b and b1 stay); ours added b2 under b, and d.
        let moved = "- [ ] a\n- [ ] c\n- [ ] b\n  - [ ] b1\n"
        #expect(try Self.merge(base, ours, moved) == ("- [x] a\n- [ ] c\n- [ ] b\n  - [ ] b1\n  - [ ] b2\n- [ ] d\n", 0))
        // Theirs moved b with b1 to the end: b2, which ours nested in b, goes along.
        let base2 = "- [ ] a\n- [ ] b\n  - [ ] b1\n- [ ] c\n- [ ] e\n"
        let ours2 = "- [ ] a\n- [ ] b\n  - [ ] b1\n  - [ ] b2\n- [ ] c\n- [ ] e\n"
        let theirs2 = "- [ ] a\n- [ ] c\n- [ ] e\n- [ ] b\n  - [ ] b1\n"
        #expect(try Self.merge(base2, ours2, theirs2) == ("- [ ] a\n- [ ] c\n- [ ] e\n- [ ] b\n  - [ ] b1\n  - [ ] b2\n", 0))
    }

    @Test("theirs removes an item whose nested item ours added: that item moves up")
    func orphan() throws {
        let base = "- [ ] a\n- [ ] b\n"
        #expect(try Self.merge(base, "- [ ] a\n- [ ] b\n  - [ ] b1\n", "- [ ] a\n") == ("- [ ] a\n- [ ] b1\n", 0))
    }

    @Test("the quick merge of far-apart changes is what the merge by item gives")
    func quick() throws {
        let items = (1...40).map { "- [ ] item \($0)\n" }
        let base = items.joined()
        var ours = items, theirs = items
        ours[5] = "- [x] item 6\n"
        ours.insert("- [ ] new\n", at: 7)
        theirs[30] = "- [ ] item 31 renamed\n"
        let quick = try #require(TodoMerge.quickMerge(base: Array(base.utf8), ours: Array(ours.joined().utf8), theirs: Array(theirs.joined().utf8)))
        let documents = try [base, ours.joined(), theirs.joined()].map { try TodoDocument(parsing: $0) }
        let merge = ListMerge(base: documents[0].list.items, ours: documents[1].list.items, theirs: documents[2].list.items)
        var written = documents[1]
        try written.update(with: TodoList(items: merge.items))
        #expect(String(decoding: quick, as: UTF8.self) == written.text)
        // Changes in the same item's lines are not quick.
        let twoLines = "- [ ] a\n- [ ] long\n  name\n- [ ] c\n"
        #expect(TodoMerge.quickMerge(base: Array(twoLines.utf8), ours: Array("- [x] a\n- [ ] long\n  name\n- [ ] c\n".utf8), theirs: Array("- [ ] a\n- [ ] long\n  name\n- [x] c\n".utf8)) != nil)
        #expect(TodoMerge.quickMerge(base: Array(twoLines.utf8), ours: Array("- [ ] a\n- [x] long\n  name\n- [ ] c\n".utf8), theirs: Array("- [ ] a\n- [ ] long\n  Name\n- [ ] c\n".utf8)) == nil)
    }
}
