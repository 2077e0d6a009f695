/// A three-way merge of lists by item (FORMAT.md section 13): what each side did to the
/// base's items (checked, renamed, changed fields, moved, removed, added) is found with
/// `ItemPairing`, and both sides' changes are kept. An item both sides changed in different
/// ways, or one side changed and the other removed, is a conflict.
struct ListMerge {
    /// An item of the result, with the items it continues in each list.
    struct Node {
        var item: TodoItem
        var depth: Int
        var base: Int?
        var ours: Int?
        var theirs: Int?
        var conflict: Conflict?
    }

    enum Conflict: Hashable {
        /// Both changed the item, differently; the node holds ours.
        case changedOnBoth
        /// Ours removed it, theirs changed it; the node holds theirs.
        case removedByOurs
        /// Theirs removed it, ours changed it; the node holds ours.
        case removedByTheirs
    }

    let base: [ItemAlignment.Entry]
    let ours: [ItemAlignment.Entry]
    let theirs: [ItemAlignment.Entry]
    /// The result's items in document order, with their depths.
    private(set) var nodes: [Node] = []

    var conflicts: Int { nodes.count { $0.conflict != nil } }

    /// Whether two items say the same, apart from where they stand (their depth and section).
    static func sameContent(_ a: TodoItem, _ b: TodoItem) -> Bool {
        a.status == b.status && a.fields == b.fields && a.nameStorage == b.nameStorage
    }

    init(base: [TodoItem], ours: [TodoItem], theirs: [TodoItem]) {
        self.base = ItemAlignment.entries(of: base)
        self.ours = ItemAlignment.entries(of: ours)
        self.theirs = ItemAlignment.entries(of: theirs)
        let toOurs = ItemPairing(old: self.base, new: self.ours)
        let toTheirs = ItemPairing(old: self.base, new: self.theirs)
        // Ours as it stands, each item with theirs' change where only theirs changed it.
        // The depths of the items theirs removed above the current one: what ours nested in
        // them moves up as many levels.
        var removedAbove: [Int] = []
        for (o, entry) in self.ours.enumerated() {
            while let last = removedAbove.last, last >= entry.depth { removedAbove.removeLast() }
            var node = Node(item: entry.item, depth: entry.depth - removedAbove.count, base: toOurs.source[o], ours: o)
            if let b = node.base {
                let was = self.base[b].item
                let oursChanged = !Self.sameContent(entry.item, was)
                if let t = toTheirs.target[b] {
                    node.theirs = t
                    let now = self.theirs[t].item
                    if !Self.sameContent(now, was) {
                        if !oursChanged {
                            node.item.nameStorage = now.nameStorage
                            node.item.status = now.status
                            node.item.fields = now.fields
                        } else if !Self.sameContent(entry.item, now) {
                            node.conflict = .changedOnBoth
                        }
                    }
                    if entry.item.section == was.section && now.section != was.section && entry.depth == 0 {
                        node.item.section = now.section
                    }
                } else if oursChanged {
                    node.conflict = .removedByTheirs
                } else {
                    removedAbove.append(entry.depth)
                    continue  // removed by theirs
                }
            }
            nodes.append(node)
        }
        // Theirs' new items, and theirs' moves of items ours left in place, where theirs put them.
        for (t, entry) in self.theirs.enumerated() {
            guard let b = toTheirs.source[t] else {
                insert(Node(item: entry.item, depth: entry.depth, theirs: t), after: t)
                continue
            }
            guard let o = toOurs.target[b] else {
                if !Self.sameContent(entry.item, self.base[b].item) {
                    insert(Node(item: entry.item, depth: entry.depth, base: b, theirs: t, conflict: .removedByOurs), after: t)
                }
                continue
            }
            if toTheirs.moved(t) && !toOurs.moved(o), let k = nodes.firstIndex(where: { $0.theirs == t }) {
                move(k, after: t, depth: entry.depth)
            }
        }
        // Items whose parent went keep to the levels that can hold them.
        for k in nodes.indices {
            let deepest = k == 0 ? 0 : nodes[k - 1].depth + 1
            if nodes[k].depth > deepest { nodes[k].depth = deepest }
            if nodes[k].depth > 0 { nodes[k].item.section = nil }
        }
    }

    /// Where theirs' item `t` goes: after the node of the nearest item before it in theirs,
    /// past that node's nested items deeper than `t`, and past ours' new items there (both
    /// added at the same place: ours' come first).
    private func place(after t: Int, depth: Int) -> (index: Int, same: Int?) {
        var p = t - 1
        var index = 0
        while p >= 0 {
            if let k = nodes.firstIndex(where: { $0.theirs == p }) {
                index = k + 1
                break
            }
            p -= 1
        }
        while index < nodes.count && nodes[index].depth > depth { index += 1 }
        var same: Int? = nil
        while index < nodes.count && nodes[index].base == nil && nodes[index].theirs == nil && nodes[index].depth >= depth {
            if same == nil, nodes[index].depth == depth, nodes[index].item == theirs[t].item { same = index }
            index += 1
        }
        return (index, same)
    }

    private mutating func insert(_ node: Node, after t: Int) {
        let (index, same) = place(after: t, depth: node.depth)
        // The same item added on both sides at the same place is one item.
        if let same, node.base == nil {
            nodes[same].theirs = t
            return
        }
        nodes.insert(node, at: index)
    }

    /// Moves the node at `k`, with its nested items, to where theirs' item `t` stands.
    private mutating func move(_ k: Int, after t: Int, depth: Int) {
        var end = k + 1
        while end < nodes.count && nodes[end].depth > nodes[k].depth { end += 1 }
        var subtree = Array(nodes[k..<end])
        let delta = depth - nodes[k].depth
        nodes.removeSubrange(k..<end)
        let (index, _) = place(after: t, depth: depth)
        for j in subtree.indices { subtree[j].depth += delta }
        nodes.insert(contentsOf: subtree, at: index)
    }

    /// The merged items as a tree.
    var items: [TodoItem] {
        var builder = ListBuilder()
        builder.begin(metadata: [])
        for node in nodes { builder.item(node.item, depth: node.depth) }
        return builder.finish().items
    }
}
