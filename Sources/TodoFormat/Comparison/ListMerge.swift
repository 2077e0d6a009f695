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
        /// A nested item of the conflict before it that the other side removed with it: its
        /// lines stand in that conflict's side, between the markers.
        var inside = false
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

    // While merging, the nodes are a linked list (an insertion or a move costs the same in a
    // list of any length), found by theirs' index.
    private var pool: [Node] = []
    private var next: [Int] = []
    private var previous: [Int] = []
    private var linked: [Bool] = []
    private var head = -1
    private var tail = -1
    private var byTheirs: [Int: Int] = [:]

    var conflicts: Int { nodes.count { $0.conflict != nil } }

    /// Whether two items say the same, apart from where they stand (their depth and section).
    static func sameContent(_ a: TodoItem, _ b: TodoItem) -> Bool {
        a.status == b.status && a.fields == b.fields && a.nameStorage == b.nameStorage
    }

    /// `notes`, when given: for base, ours and theirs, a hash of each item's notes (text
    /// under it that is no item, `TodoDocument.noteHashes`), in document order. An item one
    /// side removed is kept in a conflict when the other changed its notes.
    init(base: [TodoItem], ours: [TodoItem], theirs: [TodoItem], notes: [[Int]]? = nil) {
        self.base = ItemAlignment.entries(of: base)
        self.ours = ItemAlignment.entries(of: ours)
        self.theirs = ItemAlignment.entries(of: theirs)
        let notes = notes.flatMap { notes in
            notes.count == 3 && notes[0].count == self.base.count && notes[1].count == self.ours.count
                && notes[2].count == self.theirs.count ? notes : nil
        }
        /// Whether a side's item `i` (side 1 ours, 2 theirs) has other notes than base's `b`.
        func notesChanged(_ side: Int, _ i: Int, from b: Int) -> Bool {
            guard let notes else { return false }
            return notes[side][i] != notes[0][b]
        }
        let toOurs = ItemPairing(old: self.base, new: self.ours)
        let toTheirs = ItemPairing(old: self.base, new: self.theirs)
        // The depths of the items theirs removed above the current one: what ours nested in
        // them moves up as many levels.
        var removedAbove: [Int] = []
        // The depth of an item ours changed and theirs removed: its nested items that theirs
        // removed with it stay with it, in the conflict.
        var conflictDepth: Int? = nil
        // Ours as it stands, each item with theirs' change where only theirs changed it.
        for (o, entry) in self.ours.enumerated() {
            while let last = removedAbove.last, last >= entry.depth { removedAbove.removeLast() }
            if let depth = conflictDepth, entry.depth <= depth { conflictDepth = nil }
            var node = Node(item: entry.item, depth: entry.depth - removedAbove.count, base: toOurs.source[o], ours: o)
            if conflictDepth != nil, node.base.map({ toTheirs.target[$0] == nil }) ?? true {
                node.inside = true
                link(add(node), after: tail)
                continue
            }
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
                } else if oursChanged || notesChanged(1, o, from: b) {
                    node.conflict = .removedByTheirs
                    conflictDepth = entry.depth
                } else {
                    removedAbove.append(entry.depth)
                    continue  // removed by theirs
                }
            }
            link(add(node), after: tail)
        }
        // Theirs' new items, and theirs' moves of items ours left in place, where theirs put them.
        conflictDepth = nil
        // Ours' new items by name: an item theirs added too, anywhere, is the same item.
        var added: [Substring: [Int]] = [:]
        for id in pool.indices where pool[id].base == nil && !pool[id].inside {
            added[pool[id].item.nameStorage, default: []].append(id)
        }
        for (t, entry) in self.theirs.enumerated() {
            if let depth = conflictDepth, entry.depth <= depth { conflictDepth = nil }
            if conflictDepth != nil, let b = toTheirs.source[t], toOurs.target[b] == nil {
                insert(Node(item: entry.item, depth: entry.depth, base: b, theirs: t, inside: true), after: t)
                continue
            }
            guard let b = toTheirs.source[t] else {
                if let id = added[entry.item.nameStorage]?.first(where: {
                    pool[$0].theirs == nil && Self.sameContent(pool[$0].item, entry.item)
                }) {
                    // Added by both: one item, where ours put it.
                    pool[id].theirs = t
                    byTheirs[t] = id
                    continue
                }
                insert(Node(item: entry.item, depth: entry.depth, theirs: t), after: t)
                continue
            }
            guard let o = toOurs.target[b] else {
                if !Self.sameContent(entry.item, self.base[b].item) || notesChanged(2, t, from: b) {
                    insert(
                        Node(item: entry.item, depth: entry.depth, base: b, theirs: t, conflict: .removedByOurs),
                        after: t)
                    conflictDepth = entry.depth
                }
                continue
            }
            if toTheirs.moved(t) && !toOurs.moved(o), let id = byTheirs[t], linked[id] {
                move(id, after: t, depth: entry.depth)
            }
        }
        var id = head
        while id >= 0 {
            nodes.append(pool[id])
            id = next[id]
        }
        // Items whose parent went keep to the levels that can hold them; one that comes up to
        // the top stays in the section around it (the top-level item's before it, else after).
        var movedUp: [Int] = []
        for k in nodes.indices {
            let deepest = k == 0 ? 0 : nodes[k - 1].depth + 1
            if nodes[k].depth > deepest {
                nodes[k].depth = deepest
                if deepest == 0 { movedUp.append(k) }
            }
            if nodes[k].depth > 0 { nodes[k].item.section = nil }
        }
        for k in movedUp where nodes[k].item.section == nil {
            let before = nodes[..<k].last { $0.depth == 0 }
            let after = nodes[(k + 1)...].first { $0.depth == 0 }
            nodes[k].item.section = before?.item.section ?? after?.item.section
        }
    }

    private mutating func add(_ node: Node) -> Int {
        pool.append(node)
        next.append(-1)
        previous.append(-1)
        linked.append(false)
        if let t = node.theirs { byTheirs[t] = pool.count - 1 }
        return pool.count - 1
    }

    /// Puts the unlinked nodes from `first` to `last` (linked among themselves) after `after`
    /// (-1: first of all).
    private mutating func link(_ first: Int, through last: Int? = nil, after: Int) {
        let last = last ?? first
        let following = after >= 0 ? next[after] : head
        previous[first] = after
        next[last] = following
        if after >= 0 { next[after] = first } else { head = first }
        if following >= 0 { previous[following] = last } else { tail = last }
        var id = first
        while true {
            linked[id] = true
            if id == last { break }
            id = next[id]
        }
    }

    /// Where theirs' item `t` goes: after the node of the nearest item before it in theirs,
    /// past that node's nested items deeper than `t`, and past ours' new items there (both
    /// added at the same place: ours' come first). The node to put it after (-1: first), and
    /// an ours' new item there equal to it.
    private func place(after t: Int, depth: Int) -> (after: Int, same: Int?) {
        var p = t - 1
        var after = -1
        while p >= 0 {
            if let id = byTheirs[p], linked[id] {
                after = id
                break
            }
            p -= 1
        }
        var candidate = after >= 0 ? next[after] : head
        while candidate >= 0 && pool[candidate].depth > depth {
            after = candidate
            candidate = next[candidate]
        }
        var same: Int? = nil
        while candidate >= 0 && pool[candidate].base == nil && pool[candidate].theirs == nil
            && pool[candidate].depth >= depth
        {
            if same == nil, pool[candidate].depth == depth, pool[candidate].item == theirs[t].item { same = candidate }
            after = candidate
            candidate = next[candidate]
        }
        return (after, same)
    }

    private mutating func insert(_ node: Node, after t: Int) {
        let (after, same) = place(after: t, depth: node.depth)
        // The same item added on both sides at the same place is one item.
        if let same, node.base == nil {
            pool[same].theirs = t
            byTheirs[t] = same
            return
        }
        link(add(node), after: after)
    }

    /// Moves the node `id`, with its nested items, to where theirs' item `t` stands.
    private mutating func move(_ id: Int, after t: Int, depth: Int) {
        var last = id
        while next[last] >= 0 && pool[next[last]].depth > pool[id].depth { last = next[last] }
        // Unlink the subtree.
        let before = previous[id]
        let following = next[last]
        if before >= 0 { next[before] = following } else { head = following }
        if following >= 0 { previous[following] = before } else { tail = before }
        var k = id
        let delta = depth - pool[id].depth
        while true {
            linked[k] = false
            pool[k].depth += delta
            if k == last { break }
            k = next[k]
        }
        let (after, _) = place(after: t, depth: depth)
        link(id, through: last, after: after)
    }

    /// The merged items as a tree.
    var items: [TodoItem] {
        var builder = ListBuilder()
        builder.begin(metadata: [])
        for node in nodes { builder.item(node.item, depth: node.depth) }
        return builder.finish().items
    }
}
