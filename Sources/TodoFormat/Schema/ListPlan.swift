/// An item of an existing file as a writer read it (with where it stands, its objects…).
protocol PlannedOldItem: AnyObject {
    var item: TodoItem { get }
    var children: [Self] { get }
}

/// Which item of a list written into a file a placement is, for warnings: an index into
/// the middle's items in document order, or a path of indexes (`[2, 0]` is item 3.1).
enum ItemAt {
    case middle(Int)
    case path([Int])
}

/// What an item of a list written into a file becomes.
enum ItemPlacement<Old: PlannedOldItem> {
    /// The old item as it is, children included.
    case kept(Old)
    /// The old item changed key by key, and its children's placements.
    case changed(Old, TodoItem, [ItemPlacement<Old>], ItemAt)
    /// A new item, and its children's placements (nil when they are all new too).
    case added(TodoItem, [ItemPlacement<Old>]?, ItemAt)

    /// Whether this is a new item whose children are all new too.
    var isNewTree: Bool {
        if case .added(_, nil, _) = self { return true }
        return false
    }

    var hasNew: Bool {
        switch self {
        case .kept: false
        case .added: true
        case .changed(_, _, let children, _): children.contains { $0.hasNew }
        }
    }
}

/// How a list is written into a file whose items a format has read (`ListRewrite` found
/// the unchanged start and end): the middle's items placed as kept, changed or new (aligned
/// by the file's identity key where it has one), order fields renumbered, and the items
/// outside the middle whose order numbers changed.
struct ListPlan<Old: PlannedOldItem> {
    let rewrite: ListRewrite
    /// The list as written: order fields renumbered. Empty in a plan of one item
    /// (`init(replacing:…)`), which never holds the whole list.
    let items: [TodoItem]
    /// The list's top-level items in the middle, as written.
    private let middleItems: [TodoItem]
    /// Placements of the middle's top-level items.
    let middle: [ItemPlacement<Old>]
    /// Placements of top-level items outside the middle whose order numbers changed.
    let outer: [Int: ItemPlacement<Old>]
    /// How many top-level items of the file stand before the plan's list, where it plans
    /// only a run of the file's items (`TextListPatcher.write(replacingElements:…)`): the
    /// positions warnings name count them. Worked out only when a warning needs it.
    var itemsBefore: () -> Int = { 0 }

    /// Plans the list `given`; `old` holds the file's items in the middle, `oldItem(k)` reads
    /// the file's top-level item `k`. Fails when two items share an identity. With
    /// `movesAcrossDepths`, an item moved to another depth continues its old self (a writer
    /// that re-indents its lines: YAML); else it is written anew there.
    init(
        _ given: [TodoItem], rewrite: ListRewrite, old: [Old], layout: ItemLayout, path: String,
        movesAcrossDepths: Bool = false, oldItem: (Int) throws -> Old
    ) throws {
        self.rewrite = rewrite
        if let key = layout.identityKey { try ListRewrite.checkIdentities(given, key: key, path: path) }
        let renumbered = ListRewrite.renumbered(given, layout: layout)
        let items = renumbered ?? given
        self.items = items
        middleItems = Array(items[rewrite.newMiddle])
        middle = Self.placements(
            of: items[rewrite.newMiddle], given: given[rewrite.newMiddle], old: old, layout: layout,
            movesAcrossDepths: movesAcrossDepths)
        var outer: [Int: ItemPlacement<Old>] = [:]
        if renumbered != nil {
            func zip(_ old: Old, _ item: TodoItem, _ before: TodoItem, _ path: [Int]) -> ItemPlacement<Old> {
                let children = item.children.indices.map {
                    zip(old.children[$0], item.children[$0], before.children[$0], path + [$0])
                }
                if item.fields == before.fields && Self.childrenKept(children, of: old) { return .kept(old) }
                return .changed(old, item, children, .path(path))
            }
            for i in items.indices where !rewrite.newMiddle.contains(i) && items[i] != given[i] {
                outer[i] = zip(try oldItem(rewrite.oldIndex(ofOuter: i)), items[i], given[i], [i])
            }
        }
        self.outer = outer
    }

    /// Plans a list that is the file's own but for its top-level item `index` (of
    /// `oldCount`), which becomes `item`: what `init(_:rewrite:…)` plans for that list, where
    /// the comparison found the middle to be that one item (`old` its file's item), without
    /// the whole list. Nil where the whole list is needed: identities to check or order
    /// fields to renumber across it.
    init?(
        replacing index: Int, of oldCount: Int, with item: TodoItem, old: Old, layout: ItemLayout,
        movesAcrossDepths: Bool = false
    ) {
        self.init(
            middle: [item],
            rewrite: ListRewrite(prefix: index, suffix: oldCount - index - 1, oldCount: oldCount, newCount: oldCount),
            old: [old], layout: layout, movesAcrossDepths: movesAcrossDepths)
    }

    /// Plans a list that is the file's own but for the middle of `rewrite`, whose items
    /// become `newMiddle` (`old` the file's items there): what `init(_:rewrite:…)` plans for
    /// that list where the comparison found that middle, without the whole list. Nil where
    /// the whole list is needed: identities to check or order fields to renumber across it.
    init?(
        middle newMiddle: [TodoItem], rewrite: ListRewrite, old: [Old], layout: ItemLayout,
        movesAcrossDepths: Bool = false
    ) {
        // `ListRewrite.renumbered` renumbers where the layout has order fields (or no items).
        guard layout.identityKey == nil, !layout.hasOrder, layout.itemCount > 0 else { return nil }
        self.rewrite = rewrite
        items = []
        middleItems = newMiddle
        middle = Self.placements(
            of: newMiddle[...], given: newMiddle[...], old: old, layout: layout, movesAcrossDepths: movesAcrossDepths)
        outer = [:]
    }

    /// The placements of the middle's top-level items `items` (`given`: as given, before
    /// order fields were renumbered) over the file's items `old` there.
    private static func placements(
        of items: ArraySlice<TodoItem>, given: ArraySlice<TodoItem>, old: [Old], layout: ItemLayout,
        movesAcrossDepths: Bool
    ) -> [ItemPlacement<Old>] {
        let newMiddle = Array(given)
        var middle: [ItemPlacement<Old>] = []
        middle.reserveCapacity(newMiddle.count)
        if old.isEmpty || newMiddle.isEmpty {
            // Nothing to align: every item of the middle is new.
            var flat = 0
            for item in items {
                middle.append(.added(item, nil, .middle(flat)))
                flat += size(of: item)
            }
        } else {
            let alignment = MiddleAlignment(old: old.map(\.item), new: newMiddle, identityKey: layout.identityKey)
            var oldFlat: [Old] = []
            func flatten(_ item: Old) {
                oldFlat.append(item)
                item.children.forEach(flatten)
            }
            old.forEach(flatten)
            var flat = 0
            func place(_ item: TodoItem, _ before: TodoItem) -> ItemPlacement<Old> {
                let f = flat
                flat += 1
                let children = item.children.indices.map { place(item.children[$0], before.children[$0]) }
                // An item that moved to another depth is written anew there (its old bytes
                // stand at another indentation) unless the writer re-indents them.
                guard let o = alignment.alignment.oldIndex(of: f),
                    movesAcrossDepths || alignment.oldEntries[o].depth == alignment.newEntries[f].depth
                else {
                    return .added(item, children.allSatisfy(\.isNewTree) ? nil : children, .middle(f))
                }
                let old = oldFlat[o]
                if alignment.alignment.isUnchanged(f) && item.fields == before.fields
                    && childrenKept(children, of: old)
                {
                    return .kept(old)
                }
                return .changed(old, item, children, .middle(f))
            }
            for (item, before) in zip(items, given) { middle.append(place(item, before)) }
        }
        return middle
    }

    /// Whether any item is new (so new ids may be needed).
    var hasNew: Bool { middle.contains { $0.hasNew } }

    /// Whether children placements are the old item's children, unchanged and in order.
    static func childrenKept(_ children: [ItemPlacement<Old>], of old: Old) -> Bool {
        guard children.count == old.children.count else { return false }
        for (j, child) in children.enumerated() {
            guard case .kept(let kept) = child, kept === old.children[j] else { return false }
        }
        return true
    }

    /// How many items an item is, with its descendants.
    static func size(of item: TodoItem) -> Int { item.children.reduce(1) { $0 + size(of: $1) } }

    /// The placements of a new item's children, all new: `at` is the item's.
    func newChildren(of item: TodoItem, at: ItemAt) -> [ItemPlacement<Old>] {
        var placements: [ItemPlacement<Old>] = []
        placements.reserveCapacity(item.children.count)
        switch at {
        case .middle(let f):
            var next = f + 1
            for child in item.children {
                placements.append(.added(child, nil, .middle(next)))
                next += Self.size(of: child)
            }
        case .path(let path):
            for (j, child) in item.children.enumerated() { placements.append(.added(child, nil, .path(path + [j]))) }
        }
        return placements
    }

    /// The position (as `list` shows it) and the item a placement is, for warnings.
    func describe(_ at: ItemAt) -> String {
        switch at {
        case .path(let path):
            var items = self.items
            var item = items[path[0]]
            for j in path.dropFirst() {
                items = item.children
                item = items[j]
            }
            return ItemPositions.describe(Self.position(path), item)
        case .middle(let target):
            var flat = 0
            var found: ([Int], TodoItem)? = nil
            func walk(_ items: [TodoItem], _ path: [Int]) {
                for (j, item) in items.enumerated() where found == nil {
                    if flat == target {
                        found = (path + [j], item)
                        return
                    }
                    flat += 1
                    walk(item.children, path + [j])
                }
            }
            walk(middleItems, [])
            guard let (path, item) = found else { return "" }
            var full = path
            full[0] += rewrite.newMiddle.lowerBound + itemsBefore()
            return ItemPositions.describe(Self.position(full), item)
        }
    }

    /// A position as `list` shows it: `2.1` for indexes `[1, 0]`.
    static func position(_ path: [Int]) -> String { path.map { String($0 + 1) }.joined(separator: ".") }
}
