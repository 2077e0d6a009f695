import Testing

@testable import TodoFormat

@Suite("Renumbering order fields")
struct OrderingTests {
    @Test(
        "renumber keeps a longest increasing run and fits the rest between it",
        arguments: [
            // Nothing to do.
            ([], []),
            ([7], [7]),
            ([1, 2, 3], [1, 2, 3]),
            ([-5, 0, 100], [-5, 0, 100]),
            // Items without a number get the next ones after the item before them…
            ([10, 20, nil], [10, 20, 21]),
            ([1, nil, 3], [1, 2, 3]),
            ([1, nil, nil, 10], [1, 2, 3, 10]),
            // …or the ones just below the item after them, even below the smallest there was.
            ([nil, 10, 20], [9, 10, 20]),
            ([nil, nil, 5], [3, 4, 5]),
            // No numbers at all: counting from 0.
            ([nil], [0]),
            ([nil, nil, nil], [0, 1, 2]),
            // An item moved to the end, or to the front, is the one renumbered.
            ([1, 2, 3, 0], [1, 2, 3, 4]),
            ([5, 1, 2, 3], [0, 1, 2, 3]),
            // Of two runs as long, the one that changes fewest numbers; then the first found.
            ([10, 30, 20, 40], [10, 11, 20, 40]),
            // Descending input: keeping the first number beats going below the smallest.
            ([3, 2, 1], [3, 4, 5]),
            ([30, 20, 10, nil], [30, 31, 32, 33]),
            // Equal numbers are not increasing.
            ([1, 1, 1], [1, 2, 3]),
            // No room between the kept numbers: everything is numbered again from the smallest.
            ([1, nil, 2], [1, 2, 3]),
            ([1, nil, nil, 2], [1, 2, 3, 4]),
            ([1, 3, 2, 4], [1, 2, 3, 4]),
            ([5, nil, 6, 2], [2, 3, 4, 5]),
        ] as [([Int?], [Int?])])
    func renumber(values: [Int?], expected: [Int?]) {
        let result = Ordering.renumber(values)
        #expect(result == expected)
        // Whatever the case, the result increases strictly and has a number for every item.
        #expect(result.allSatisfy { $0 != nil })
        #expect(zip(result, result.dropFirst()).allSatisfy { $0! < $1! })
    }

    // Both levels are descending-then-missing, so both keep their first number.
    @Test("renumbered lists: integer order fields follow the list at every level, other fields stay")
    func renumbered() {
        func item(_ name: String, _ order: Int?, children: [TodoItem] = []) -> TodoItem {
            TodoItem(
                name: name,
                fields: [Field("note", .string(name))] + (order.map { [Field("position", .integer($0))] } ?? []),
                children: children)
        }
        let items = [
            item("b", 2, children: [item("b2", 20), item("b1", 10), item("b3", nil)]),
            item("a", 1),
            item("c", nil),
        ]
        let result = Ordering.renumbered(items, schema: ItemSchema())
        #expect(
            result == [
                item("b", 2, children: [item("b2", 20), item("b1", 21), item("b3", 22)]),
                item("a", 3),
                item("c", 4),
            ])
    }

    @Test("an order that is no number stays as it is, never hidden by a second order key")
    func orderThatIsNoNumber() throws {
        let odd = FieldValue.dictionary([Field("k", .integer(1))])
        let items = [
            TodoItem(name: "c", fields: [Field("order", .integer(3))]),
            TodoItem(name: "a", fields: [Field("order", .integer(1))]),
            TodoItem(name: "b", fields: [Field("order", odd)]),
        ]
        let renumbered = Ordering.renumbered(items, schema: ItemSchema())
        #expect(renumbered[2].fields == [Field("order", odd)])
        #expect(renumbered[1].fields.count == 1)
        // Through a JSON file: the value reads back.
        let directory = try TemporaryDirectory()
        let path = directory.path("o.json")
        try #"[{"name": "a", "order": 1}, {"name": "b", "order": {"k": 1}}, {"name": "c", "order": 3}]"#.write(
            toFile: path, atomically: false, encoding: .utf8)
        let checklist = directory.path("o.md")
        try "- [ ] c [order:: 3]\n- [ ] a [order:: 1]\n- [ ] b [order:: {\"k\": 1}]\n".write(
            toFile: checklist, atomically: false, encoding: .utf8)
        _ = try Conversion(input: .at(checklist), output: .at(path)).run()
        let read = try TodoList(contentsOf: .file(path))
        #expect(read.items.map(\.name) == ["c", "a", "b"])
        #expect(read.items[2].fields == [Field("order", odd)])
    }

    @Test("lists without order numbers are left alone")
    func leftAlone() {
        let none = [TodoItem(name: "a"), TodoItem(name: "b")]
        #expect(Ordering.renumbered(none, schema: ItemSchema()) == none)
    }

    @Test(
        "real orders: a moved or new item gets the midpoint of its neighbours, or one past the ends",
        arguments: [
            ([1.0, 1.5, 2.5, 4.0], [1.0, 1.5, 2.5, 4.0]),
            ([2.5, 1.0, 1.5, 4.0], [0.0, 1.0, 1.5, 4.0]),  // moved to the top
            ([1.0, 2.5, 1.5, 4.0], [1.0, 1.25, 1.5, 4.0]),  // one moved up (or the other down): one changes
            ([1.0, 1.5, 4.0, nil], [1.0, 1.5, 4.0, 5.0]),  // added at the end
            ([1.0, nil, nil, 4.0], [1.0, 2.0, 3.0, 4.0]),  // two between
            ([nil, 0.5], [-0.5, 0.5]),
        ] as [([Double?], [Double?])])
    func reals(values: [Double?], expected: [Double?]) {
        #expect(Ordering.renumber(reals: values) == expected)
    }

    @Test("a descending order stays descending: a moved or new item fits it going down")
    func descending() {
        func item(_ name: String, _ order: Double?) -> TodoItem {
            TodoItem(
                name: name,
                fields: order.map {
                    [Field("order", $0 == $0.rounded() && $0 != 4.5 ? .integer(Int($0)) : .double($0))]
                } ?? [])
        }
        // The file's values ran 4.5, 3, 2.5, 1: descending. Item 3 moved to the top, one added at the end.
        #expect(Ordering.isDescending([4.5, 3, 2.5, 1]) && Ordering.isDescending([2, 1]))
        #expect(
            !Ordering.isDescending([1, 2, 1.5]) && !Ordering.isDescending([1]) && !Ordering.isDescending([nil, 2]))
        let moved = [item("c", 2.5), item("a", 4.5), item("b", 3), item("d", 1), item("new", nil)]
        let result = Ordering.renumbered(moved, schema: ItemSchema(), descending: true)
        #expect(
            result.map { $0.fields.first?.value } == [.double(5.5), .double(4.5), .integer(3), .integer(1), .double(0)])
        // Integers only, descending: the same keeping of a run, going down.
        let integers = [
            TodoItem(name: "x", fields: [Field("order", .integer(1))]),
            TodoItem(name: "y", fields: [Field("order", .integer(3))]),
            TodoItem(name: "z", fields: [Field("order", .integer(2))]),
        ]
        #expect(
            Ordering.renumbered(integers, schema: ItemSchema(), descending: true).map { $0.fields[0].value } == [
                .integer(4), .integer(3), .integer(2),
            ])
    }
}
