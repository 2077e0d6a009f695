/// Receives a list item by item in document order (each item, then its children
/// one level deeper): what every format writer implements, so a list can go from
/// a reader to a writer without a tree in between.
protocol ListWriter: SendableMetatype {
    mutating func begin(metadata: [Field], to sink: inout ByteSink)
    /// An item at `depth` (0 for top level); its `children` are ignored, they follow as items.
    mutating func item(_ item: TodoItem, depth: Int, to sink: inout ByteSink)
    mutating func end(to sink: inout ByteSink)
}

extension ListWriter {
    /// Writes an item and then its children, depth first.
    mutating func itemTree(_ item: TodoItem, depth: Int, to sink: inout ByteSink) {
        self.item(item, depth: depth, to: &sink)
        for child in item.children { itemTree(child, depth: depth + 1, to: &sink) }
    }
}

extension TodoList {
    /// Hands the list to a writer in document order.
    func write<W: ListWriter>(to writer: inout W, sink: inout ByteSink) {
        writer.begin(metadata: metadata, to: &sink)
        for item in items { writer.itemTree(item, depth: 0, to: &sink) }
        writer.end(to: &sink)
    }
}

/// Builds the item tree from items in document order with their depths.
struct TreeBuilder: ListWriter {
    // levels[d] holds the items at depth d whose parent is still being built.
    private var levels: [[TodoItem]] = [[]]
    private var metadata: [Field] = []

    mutating func reserveCapacity(_ n: Int) {
        levels[0].reserveCapacity(n)
    }

    mutating func begin(metadata: [Field], to sink: inout ByteSink) {
        self.metadata = metadata
    }

    mutating func item(_ item: TodoItem, depth: Int, to sink: inout ByteSink) {
        add(item, depth: depth)
    }

    mutating func end(to sink: inout ByteSink) {}

    mutating func add(_ item: TodoItem, depth: Int) {
        while levels.count > depth + 1 { fold() }
        while levels.count < depth + 1 { levels.append([]) }
        levels[depth].append(item)
    }

    private mutating func fold() {
        let children = levels.removeLast()
        let parentLevel = levels.count - 1
        if !children.isEmpty, !levels[parentLevel].isEmpty {
            levels[parentLevel][levels[parentLevel].count - 1].children = children
        }
    }

    /// A list from a reader that writes to a `ListWriter`.
    static func build<E: Error>(_ read: (inout TreeBuilder, inout ByteSink) throws(E) -> Void) throws(E) -> TodoList {
        var tree = TreeBuilder()
        var sink = ByteSink()
        try read(&tree, &sink)
        return tree.finish()
    }

    /// The finished list.
    mutating func finish() -> TodoList {
        while levels.count > 1 { fold() }
        return TodoList(metadata: metadata, items: levels[0])
    }
}

/// Which depths have an open item whose children may still come: the bookkeeping a
/// streaming writer of a nested format (JSON, YAML) needs.
struct OpenItems {
    /// Depth of the last item written, or -1 before the first.
    private(set) var lastDepth = -1

    /// How many nested levels to close before an item at `depth`, and whether it opens
    /// the previous item's children.
    mutating func advance(to depth: Int) -> (opensChildren: Bool, closes: Int) {
        defer { lastDepth = depth }
        if lastDepth < 0 { return (false, 0) }
        if depth > lastDepth { return (true, 0) }
        return (false, lastDepth - depth)
    }
}

/// Keeps items with their depths, for a writer to take later.
struct ItemCollector: ListWriter {
    var items: [(TodoItem, Int)] = []
    mutating func begin(metadata: [Field], to sink: inout ByteSink) {}
    mutating func item(_ item: TodoItem, depth: Int, to sink: inout ByteSink) { items.append((item, depth)) }
    mutating func end(to sink: inout ByteSink) {}
}
