/// Receives a list item by item in document order: each item, then its children one
/// level deeper. Every reader hands its list to a sink, and every writer is one, so a
/// list can go from one format to another without being built in memory.
///
/// Building the list in memory is just another sink (``ListBuilder``); an app can stream
/// a huge file into its own sink the same way.
public protocol ItemSink {
    /// The list's metadata, before the first item.
    mutating func begin(metadata: [Field]) throws
    /// An item at `depth` (0 for top level). Sinks ignore its `children`: they follow as
    /// items of their own, one level deeper.
    mutating func item(_ item: TodoItem, depth: Int) throws
    /// After the last item.
    mutating func end() throws
    /// What the reader leaves out of what it hands on: the keys beside the list in a
    /// dictionary root. A sink that writes a file passes it on as a warning; one that only
    /// looks at the items may ignore it (the default).
    mutating func leftOut(_ warning: ConversionWarning) throws
}

extension ItemSink {
    /// Ignores what the reader left out: a sink that does not write a file.
    public mutating func leftOut(_ warning: ConversionWarning) throws {}

    /// Tells the sink of the keys beside the list at `place` in the dictionary root `root`
    /// of the file `file`, when there are any (`ListPlace.keysBeside`).
    mutating func leaveOutKeys(beside place: ListPlace, in root: [Field], file: String) throws {
        let beside = place.keysBeside(in: root)
        if !beside.isEmpty { try leftOut(.keysBesideList(beside, place: place, file: file)) }
    }

    /// Sends an item and then its children, depth first.
    public mutating func itemTree(_ item: TodoItem, depth: Int) throws {
        try self.item(item, depth: depth)
        for child in item.children { try itemTree(child, depth: depth + 1) }
    }
}

extension TodoList {
    /// Hands the list to a sink: its metadata, then every item in document order.
    public func send<S: ItemSink>(to sink: inout S) throws {
        try sink.begin(metadata: metadata)
        for item in items { try sink.itemTree(item, depth: 0) }
        try sink.end()
    }
}

/// Builds a ``TodoList`` from items in document order: the sink that reads a list into memory.
public struct ListBuilder: ItemSink {
    // levels[d] holds the items at depth d whose parent is still being built.
    private var levels: [[TodoItem]] = [[]]
    private var metadata: [Field] = []
    /// What the reader left out (`leftOut(_:)`), for the write of the list to say.
    private(set) var warnings: [ConversionWarning] = []
    /// Whether names that are slices of a larger text get storage of their own.
    private let detachesNames: Bool

    /// An empty builder.
    public init() {
        detachesNames = true
    }

    /// A builder whose list lives only as long as the text it was read from (a writer
    /// that must see the whole list first): names stay slices of that text.
    init(keepingSlices: Void) {
        detachesNames = false
    }

    /// Room for `count` top-level items.
    public mutating func reserveCapacity(_ count: Int) {
        levels[0].reserveCapacity(count)
    }

    /// Keeps the list's metadata.
    public mutating func begin(metadata: [Field]) {
        self.metadata = metadata
    }

    /// An item at `depth`; a depth more than one below the item before (or below the top
    /// for the first item) is taken as one below it, so no item is lost.
    public mutating func item(_ item: TodoItem, depth: Int) {
        let deepest = levels[levels.count - 1].isEmpty ? levels.count - 1 : levels.count
        let depth = min(max(depth, 0), deepest)
        while levels.count > depth + 1 { fold() }
        while levels.count < depth + 1 { levels.append([]) }
        guard detachesNames || !item.children.isEmpty else { return levels[depth].append(item) }
        var item = item
        // A name read from a checklist is a slice of the whole file; the list keeps its own copy.
        if detachesNames { item.detachName() }
        if !item.children.isEmpty { item.children = [] }
        levels[depth].append(item)
    }

    /// Nothing to do: `finish()` makes the list.
    public mutating func end() {}

    /// Keeps what the reader left out, for the write of the list to say.
    public mutating func leftOut(_ warning: ConversionWarning) { warnings.append(warning) }

    private mutating func fold() {
        let children = levels.removeLast()
        let parentLevel = levels.count - 1
        if !children.isEmpty, !levels[parentLevel].isEmpty {
            levels[parentLevel][levels[parentLevel].count - 1].children = children
        }
    }

    /// The list built so far; the builder is empty afterwards.
    public mutating func finish() -> TodoList {
        while levels.count > 1 { fold() }
        defer {
            levels = [[]]
            metadata = []
        }
        return TodoList(metadata: metadata, items: levels[0])
    }
}

extension TodoList {
    /// A list read by `read`, which hands it to a sink.
    static func build(_ read: (inout ListBuilder) throws -> Void) rethrows -> TodoList {
        var builder = ListBuilder()
        try read(&builder)
        return builder.finish()
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
