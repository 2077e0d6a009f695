/// Items' positions as `todofmt list` shows them (`1`, `2`, `2.1` for the first child of
/// item 2), followed in document order.
struct ItemPositions {
    /// A counter a level, in storage that grows but never shrinks, the first `levels` in
    /// use. (Dropping the deeper levels and adding them again, each counter changed through
    /// a check that the storage is not shared, was 2% of writing a checklist into an
    /// existing XML property list, whose writer moves on at every item.)
    private var counters: [Int] = []
    private var levels = 0

    /// The position of the next item, at `depth`.
    mutating func next(depth: Int) -> String {
        advance(depth: depth)
        return current
    }

    /// Moves on to the next item, at `depth`, without making its position's text: the
    /// levels below it end, and levels it skips count 0.
    mutating func advance(depth: Int) {
        if depth >= counters.count { counters += repeatElement(0, count: depth + 1 - counters.count) }
        var levels = self.levels
        counters.withUnsafeMutableBufferPointer { Self.advance($0, &levels, depth) }
        self.levels = levels
    }

    /// An item at `depth` among `counters` (which reach it), `levels` of them in use: the
    /// levels below it end, and levels it skips count 0. (Also the nesting guard's step, over
    /// counters of a fixed size.)
    @inline(__always)
    static func advance(_ counters: UnsafeMutableBufferPointer<Int>, _ levels: inout Int, _ depth: Int) {
        if depth < levels {
            counters[depth] += 1
        } else {
            for level in levels..<depth { counters[level] = 0 }
            counters[depth] = 1
        }
        levels = depth + 1
    }

    /// The position of the item `advance` last moved to.
    var current: String { counters[..<levels].map(String.init).joined(separator: ".") }

    /// The position and name of an item, as warnings name it: `2.1 Brown ones`.
    static func describe(_ position: String, _ item: TodoItem) -> String {
        position + " " + item.name.onOneLine
    }
}
