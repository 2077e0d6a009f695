/// Order fields (`orderID`, `position`…): apps that keep one list their items sorted by it.
/// An array's order is the list's order; when todofmt writes a list into a file whose items
/// have an order field, it renumbers the field to follow the list.
enum Ordering {
    /// The field of an item that holds its order number, and the number.
    static func orderValue(of item: TodoItem, schema: ItemSchema) -> (index: Int, value: Double)? {
        for (i, field) in item.fields.enumerated() where schema.role(of: field.key) == .order {
            switch field.value {
            case .integer(let v): return (i, Double(v))
            case .double(let v) where v.isFinite: return (i, v)
            default: return nil
            }
        }
        return nil
    }

    /// The list with order fields renumbered so that sorting by them gives the list's order,
    /// at every level. Values stay where the order did not change: the longest run of items
    /// already in increasing order keeps its numbers, the others get numbers between their
    /// neighbours, or, when there is no room, every item is numbered again from the first value.
    static func renumbered(_ items: [TodoItem], schema: ItemSchema) -> [TodoItem] {
        var items = items
        for i in items.indices where !items[i].children.isEmpty {
            items[i].children = renumbered(items[i].children, schema: schema)
        }
        let found = items.map { orderValue(of: $0, schema: schema) }
        // Only lists whose items carry integer order numbers (all or some) are renumbered.
        guard found.contains(where: { $0 != nil }),
            items.allSatisfy({ item in
                guard let o = orderValue(of: item, schema: schema) else { return true }
                if case .integer = item.fields[o.index].value { return true }
                return false
            })
        else { return items }
        let values = found.map { $0.map { Int($0.value) } }
        let renumbered = renumber(values)
        if renumbered == values { return items }
        let key = items.lazy.compactMap { item in
            orderValue(of: item, schema: schema).map { item.fields[$0.index].key }
        }.first ?? "order"
        for i in items.indices {
            guard let value = renumbered[i], value != values[i] else { continue }
            if let o = found[i] {
                items[i].fields[o.index].value = .integer(value)
            } else {
                items[i].fields.append(Field(key, .integer(value)))
            }
        }
        return items
    }

    /// New values for a sequence of order numbers (nil for items without one) so that they
    /// increase. The numbers of a longest increasing run are kept (of the two such runs tried,
    /// the one that changes fewest numbers, preferring none below the smallest there was); the
    /// other items get numbers between their neighbours', or everything is numbered again.
    static func renumber(_ values: [Int?]) -> [Int?] {
        let smallest = values.compactMap { $0 }.min() ?? 0
        var best: (result: [Int?], score: (Int, Int))? = nil
        for keep in [longestIncreasingRun(values), longestIncreasingRun(values.reversed().map { $0.map { -$0 } }).reversed()] {
            guard let result = fill(values, keeping: keep) else { continue }
            let changed = zip(result, values).filter { $0 != $1 }.count
            let below = result.contains { ($0 ?? smallest) < smallest } ? 1 : 0
            if best == nil || (changed, below) < best!.score { best = (result, (changed, below)) }
        }
        return best?.result ?? values.indices.map { smallest + $0 }
    }

    /// The kept values, and numbers between them for the rest; nil when a gap has no room.
    private static func fill(_ values: [Int?], keeping keep: [Bool]) -> [Int?]? {
        let n = values.count
        var result: [Int?] = values.enumerated().map { keep[$0.offset] ? $0.element : nil }
        var i = 0
        while i < n {
            guard result[i] == nil else {
                i += 1
                continue
            }
            var j = i
            while j < n && result[j] == nil { j += 1 }
            let before = i > 0 ? result[i - 1] : nil
            let after = j < n ? result[j] : nil
            let count = j - i
            let start: Int
            switch (before, after) {
            case (let b?, let a?):
                guard a - b - 1 >= count else { return nil }
                start = b + 1
            case (let b?, nil): start = b + 1
            case (nil, let a?): start = a - count
            case (nil, nil): start = values.compactMap { $0 }.min() ?? 0
            }
            for k in i..<j { result[k] = start + (k - i) }
            i = j
        }
        return result
    }
}
