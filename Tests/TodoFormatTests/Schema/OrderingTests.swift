import Testing

@testable import TodoFormat

@Suite("Renumbering order fields")
struct OrderingTests {
    @Test("renumber keeps a longest increasing run and fits the rest between it", arguments: [
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
            TodoItem(name: name, fields: [Field("note", .string(name))] + (order.map { [Field("position", .integer($0))] } ?? []), children: children)
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

    @Test("lists without integer order numbers are left alone")
    func leftAlone() {
        let none = [TodoItem(name: "a"), TodoItem(name: "b")]
        #expect(Ordering.renumbered(none, schema: ItemSchema()) == none)
        let doubles = [TodoItem(name: "a", fields: [Field("order", .double(2.5))]), TodoItem(name: "b", fields: [Field("order", .integer(1))])]
        #expect(Ordering.renumbered(doubles, schema: ItemSchema()) == doubles)
    }
}
