/// Items' positions as `todofmt list` shows them (`1`, `2`, `2.1` for the first child of
/// item 2), followed in document order.
struct ItemPositions {
    private var counters: [Int] = []

    /// The position of the next item, at `depth`.
    mutating func next(depth: Int) -> String {
        if counters.count > depth + 1 { counters.removeLast(counters.count - depth - 1) }
        while counters.count < depth + 1 { counters.append(0) }
        counters[depth] += 1
        return counters.map(String.init).joined(separator: ".")
    }

    /// Moves on to the next item, at `depth`, without making its position's text.
    mutating func advance(depth: Int) {
        if counters.count > depth + 1 { counters.removeLast(counters.count - depth - 1) }
        while counters.count < depth + 1 { counters.append(0) }
        counters[depth] += 1
    }

    /// The position of the item `advance` last moved to.
    var current: String { counters.map(String.init).joined(separator: ".") }

    /// The position and name of an item, as warnings name it: `2.1 Brown ones`.
    static func describe(_ position: String, _ item: TodoItem) -> String {
        position + " " + item.name.onOneLine
    }
}
