import Testing

@testable import TodoFormat

/// What `ItemLayout.Learner` makes of a file's items: the learner keeps work for the end
/// (the names behind the checked spelling, the key orders of items out of order) and
/// reuses what it learned from a shape of keys, so these pin what it must still tell.
@Suite("Learning a file's layout from its items")
struct ItemLayoutLearnerTests {
    static func item(_ name: String, checked: FieldValue, _ more: [Field] = []) -> [Field] {
        [Field("name", .string(name)), Field("checked", checked)] + more
    }

    static func learn(_ items: [[Field]]) -> ItemLayout {
        var learner = ItemLayout.Learner(ItemSchema())
        for fields in items { learner.adopt(fields) }
        return learner.finish()
    }

    @Test("the items that spell checked as the minority does are remembered by name, either way round")
    func minoritySpelling() {
        let mostlyBooleans = Self.learn(
            (0..<30).map { Self.item("b\($0)", checked: .bool($0 % 2 == 0)) }
                + (0..<5).map { Self.item("i\($0)", checked: .integer(1)) })
        #expect(!mostlyBooleans.checkedIsIntegerByDefault)
        #expect(mostlyBooleans.integerChecked == Set((0..<5).map { "i\($0)" }))
        #expect(mostlyBooleans.booleanChecked.isEmpty)

        let mostlyIntegers = Self.learn(
            (0..<3).map { Self.item("b\($0)", checked: .bool(true)) }
                + (0..<30).map { Self.item("i\($0)", checked: .integer(0)) })
        #expect(mostlyIntegers.checkedIsIntegerByDefault)
        #expect(mostlyIntegers.booleanChecked == ["b0", "b1", "b2"])
        #expect(mostlyIntegers.integerChecked.isEmpty)
    }

    @Test("past ten thousand, the first ten thousand distinct names of the minority are kept")
    func minorityLimit() {
        // 24,000 boolean items under 12,000 names (each twice), 25,000 integer ones, mixed.
        var items: [[Field]] = []
        for i in 0..<25_000 {
            items.append(Self.item("n\(i)", checked: .integer(i % 2)))
            if i < 24_000 { items.append(Self.item("b\(i / 2)", checked: .bool(true))) }
        }
        let layout = Self.learn(items)
        #expect(layout.checkedIsIntegerByDefault)
        #expect(layout.booleanChecked.count == 10_000)
        #expect(layout.booleanChecked.contains("b0") && layout.booleanChecked.contains("b9999"))
        #expect(!layout.booleanChecked.contains("b10000"))
    }

    @Test("an item's keys out of order are remembered by its name once any item breaks todofmt's order")
    func keyOrderByName() {
        let first = Self.item("a", checked: .bool(false), [Field("children", .array([]))])
        // Out of the order first seen (note after children), yet in todofmt's order.
        let outOfOrder = Self.item(
            "y", checked: .bool(false), [Field("note", .string("n")), Field("children", .array([]))])
        let canonical = Self.learn([first, outOfOrder])
        #expect(canonical.keyOrderByName.isEmpty && canonical.keyOrder.isEmpty)

        // An item later out of todofmt's order needs the earlier one's order too.
        let swapped = [Field("checked", .bool(true)), Field("name", .string("z"))]
        let layout = Self.learn([first, outOfOrder, first, swapped])
        #expect(layout.keyOrderByName["y"] == ["name": 0, "checked": 1, "note": 2, "children": 3])
        #expect(layout.keyOrderByName["z"] == ["checked": 0, "name": 1])
        #expect(layout.keyOrderByName["a"] == nil)
        #expect(layout.keyOrder["note"] == 3)

        // Also where the item that breaks todofmt's order keeps the order first seen.
        let late = Self.item("w", checked: .bool(false), [Field("children", .array([])), Field("note", .string("n"))])
        let lateLayout = Self.learn([first, outOfOrder, late])
        #expect(lateLayout.keyOrderByName["y"] == ["name": 0, "checked": 1, "note": 2, "children": 3])
        #expect(lateLayout.keyOrderByName["w"] == nil)
    }

    /// Keys count in the order first counted: a child's keys before its parent's keys that
    /// follow the children's key (helper hunt 56: the identity key, the creation date key and
    /// the keys new items leave out came out in another order, and a duplicate id went unseen).
    @Test("keys every item has are in the order first counted, a child's before its parent's later keys")
    func orderFirstCounted() {
        let child = [Field("name", .string("C")), Field("id", .integer(2)), Field("uuid", .string("b"))]
        let parent = [
            Field("name", .string("P")), Field("children", .array([.dictionary(child)])),
            Field("uuid", .string("a")), Field("id", .integer(1)),
        ]
        let layout = Self.learn([parent])
        #expect(layout.identityKey == "id")

        let dated = { (name: String, more: [Field]) in
            [Field("name", .string(name))] + more + [
                Field("added_at", .string("2026-01-02T10:00:00Z")),
                Field("created_at", .string("2026-01-01T10:00:00Z")),
            ]
        }
        let withDates = Self.learn([
            [Field("name", .string("P")), Field("children", .array([.dictionary(dated("C", []))]))]
                + [
                    Field("created_at", .string("2026-01-01T10:00:00Z")),
                    Field("added_at", .string("2026-01-02T10:00:00Z")),
                ]
        ])
        #expect(withDates.creationDate?.key == "added_at")
    }

    @Test("keys are counted through shapes that alternate, more of them than the learner recalls")
    func alternatingShapes() {
        // Ten shapes in turn (each an extra key of its own), an id on every item.
        let items = (0..<200).map { i in
            Self.item("t\(i)", checked: .bool(false), [Field("id", .integer(i * 3)), Field("k\(i % 10)", .integer(1))])
        }
        let layout = Self.learn(items)
        #expect(layout.integerID == "id")
        #expect(layout.largestID == 199 * 3)
        #expect(layout.identityKey == "id")
        #expect(layout.unfillableKeys.isEmpty)

        // A shape seen again after others, with a key every item has but one.
        var fewer = items
        fewer[150] = Self.item("t150", checked: .bool(false), [Field("k0", .integer(1))])
        let without = Self.learn(fewer)
        #expect(without.integerID == nil && without.identityKey == nil)
    }
}
