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
    /// at every level, ascending or (`descending`, as the file's values ran) descending.
    /// Values stay where the order did not change: the longest run of items already in
    /// order keeps its numbers. Integer orders give the others numbers between their
    /// neighbours, or, when there is no room, number every item again from the first value;
    /// orders with a real number give a moved or new item the midpoint of its neighbours,
    /// or one less than the first or one more than the last.
    /// Where a value of a moved item (`schema.moved`) or of a neighbour could change, the
    /// moved item's does.
    static func renumbered(_ items: [TodoItem], schema: ItemSchema, descending: Bool = false) -> [TodoItem] {
        renumbered(items, schema: schema, descending: descending, path: [])
    }

    private static func renumbered(_ items: [TodoItem], schema: ItemSchema, descending: Bool, path: [Int]) -> [TodoItem]
    {
        var items = items
        for i in items.indices where !items[i].children.isEmpty {
            items[i].children = renumbered(items[i].children, schema: schema, descending: descending, path: path + [i])
        }
        let moved = Set(
            schema.moved.lazy.filter { $0.count == path.count + 1 && $0.starts(with: path) }.map { $0[path.count] })
        let found = items.map { orderValue(of: $0, schema: schema) }
        guard found.contains(where: { $0 != nil }) else { return items }
        let integral = items.allSatisfy { item in
            guard let o = orderValue(of: item, schema: schema) else { return true }
            if case .integer = item.fields[o.index].value { return true }
            return false
        }
        let key =
            items.lazy.compactMap { item in
                orderValue(of: item, schema: schema).map { item.fields[$0.index].key }
            }.first ?? "order"
        let stores: [FieldValue?]
        if integral {
            // Integers stay integers (a Double holds only 53 bits of one); descending ones are
            // mirrored with `~`, which, unlike negation, has no value it cannot mirror.
            let values = found.indices.map { i -> Int? in
                guard let o = found[i], case .integer(let v) = items[i].fields[o.index].value else { return nil }
                return descending ? ~v : v
            }
            let renumbered = renumber(values, moved: moved)
            stores = items.indices.map { i in
                guard let value = renumbered[i], value != values[i] else { return nil }
                return .integer(descending ? ~value : value)
            }
        } else {
            let sign: Double = descending ? -1 : 1
            let values = found.map { $0.map { sign * $0.value } }
            let renumbered = renumber(reals: values, moved: moved)
            stores = items.indices.map { i in
                guard let value = renumbered[i], value != values[i] else { return nil }
                // `+ 0` turns the -0.0 of a mirrored zero into 0.
                return .double(sign * value + 0)
            }
        }
        for i in items.indices {
            guard let stored = stores[i] else { continue }
            if let o = found[i] {
                items[i].fields[o.index].value = stored
            } else if !items[i].fields.contains(where: { schema.role(of: $0.key) == .order }) {
                // An order that is no number (`{"k": 1}`, text) stays as it is: a second key
                // would hide it.
                items[i].fields.append(Field(key, stored))
            }
        }
        return items
    }

    /// Whether order values, in the order a file holds its items, run downwards: the
    /// longest decreasing run is longer than the longest increasing one.
    static func isDescending(_ values: [Double?]) -> Bool {
        let up = longestIncreasingRun(values).count { $0 }
        let down = longestIncreasingRun(values.map { $0.map { -$0 } }).count { $0 }
        return down > up
    }

    /// New real values for a sequence of order numbers (nil for items without one) so that
    /// they increase: a longest increasing run keeps its numbers; an item between two kept
    /// ones gets a share of the gap (the midpoint for one item), before the first kept one
    /// one less each, after the last one more each.
    /// Of the longest run and the longest run without the `moved` items, the one that
    /// changes fewest numbers, then fewest of items not moved.
    static func renumber(reals values: [Double?], moved: Set<Int> = []) -> [Double?] {
        var best: (result: [Double?], score: (Int, Int))? = nil
        for keep in keptRuns(values, moved: moved) {
            let result = fill(reals: values, keeping: keep)
            let counts = score(result, values, moved: moved)
            if best == nil || counts < best!.score { best = (result, counts) }
        }
        return best!.result
    }

    /// The runs of values renumbering may keep: a longest increasing run, and, when items
    /// moved, a longest one among the items that did not.
    private static func keptRuns<T: Comparable>(_ values: [T?], moved: Set<Int>) -> [[Bool]] {
        var runs = [longestIncreasingRun(values)]
        if !moved.isEmpty {
            runs.append(longestIncreasingRun(values.indices.map { moved.contains($0) ? nil : values[$0] }))
        }
        return runs
    }

    /// How many numbers a renumbering changes, and how many of items not moved.
    private static func score<T: Equatable>(_ result: [T?], _ values: [T?], moved: Set<Int>) -> (Int, Int) {
        var changed = 0
        var unmoved = 0
        for i in values.indices where result[i] != values[i] {
            changed += 1
            if !moved.contains(i) { unmoved += 1 }
        }
        return (changed, unmoved)
    }

    private static func fill(reals values: [Double?], keeping keep: [Bool]) -> [Double?] {
        var result: [Double?] = values.indices.map { keep[$0] ? values[$0] : nil }
        var i = 0
        while i < result.count {
            guard result[i] == nil else {
                i += 1
                continue
            }
            var j = i
            while j < result.count && result[j] == nil { j += 1 }
            let before = i > 0 ? result[i - 1] : nil
            let after = j < result.count ? result[j] : nil
            let count = j - i
            for k in i..<j {
                let step = Double(k - i + 1)
                switch (before, after) {
                case (let b?, let a?): result[k] = b + (a - b) * step / Double(count + 1)
                case (let b?, nil): result[k] = b + step
                case (nil, let a?): result[k] = a - Double(count) + step - 1
                case (nil, nil): result[k] = step - 1
                }
            }
            i = j
        }
        return result
    }

    /// New values for a sequence of order numbers (nil for items without one) so that they
    /// increase. The numbers of a longest increasing run are kept (of the two such runs tried,
    /// the one that changes fewest numbers, preferring none below the smallest there was); the
    /// other items get numbers between their neighbours', or everything is numbered again.
    /// Where items `moved`, a longest run among the others is tried too, and of results that
    /// change as many numbers the one changing fewest of items not moved wins.
    static func renumber(_ values: [Int?], moved: Set<Int> = []) -> [Int?] {
        let smallest = values.compactMap { $0 }.min() ?? 0
        var best: (result: [Int?], score: (Int, Int, Int))? = nil
        let runs =
            keptRuns(values, moved: moved) + [longestIncreasingRun(values.reversed().map { $0.map { ~$0 } }).reversed()]
        for keep in runs {
            guard let result = fill(values, keeping: keep) else { continue }
            let (changed, unmoved) = score(result, values, moved: moved)
            let below = result.contains { ($0 ?? smallest) < smallest } ? 1 : 0
            if best == nil || (changed, unmoved, below) < best!.score { best = (result, (changed, unmoved, below)) }
        }
        // Numbered again from the smallest value, or, where the last would not fit, so that
        // the last is the largest there is.
        let start = min(smallest, Int.max - max(values.count - 1, 0))
        return best?.result ?? values.indices.map { start + $0 }
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
            // The arithmetic cannot overflow: a gap too close to Int.min or Int.max has no room.
            let start: Int
            switch (before, after) {
            case (let b?, let a?):
                let (gap, overflow) = a.subtractingReportingOverflow(b)
                guard overflow || gap - 1 >= count else { return nil }
                start = b + 1
            case (let b?, nil):
                guard b <= Int.max - count else { return nil }
                start = b + 1
            case (nil, let a?):
                guard a >= Int.min + count else { return nil }
                start = a - count
            case (nil, nil):
                start = values.compactMap { $0 }.min() ?? 0
                guard start <= Int.max - (count - 1) else { return nil }
            }
            for k in i..<j { result[k] = start + (k - i) }
            i = j
        }
        return result
    }

    /// The indexes in document order (every item, nested ones after their parent) of the
    /// items at `paths`.
    static func flatIndexes(of paths: Set<[Int]>, in items: [TodoItem]) -> Set<Int> {
        guard !paths.isEmpty else { return [] }
        var found: Set<Int> = []
        var index = 0
        func walk(_ items: [TodoItem], _ path: [Int]) {
            for (i, item) in items.enumerated() {
                if paths.contains(path + [i]) { found.insert(index) }
                index += 1
                walk(item.children, path + [i])
            }
        }
        walk(items, [])
        return found
    }
}
