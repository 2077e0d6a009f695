/// How the items of a list written back into a file relate to the items the file holds:
/// which one each new item continues (unchanged, changed or moved), and which are gone.
///
/// Items are compared in document order with their depths. Where items carry an identity
/// (a key field, such as a database row's key or an `id`), that decides; otherwise items
/// with the same content are paired (in order when the same content comes more than once),
/// the longest run of pairs already in order stays where it is and the other pairs are
/// moves, and between two such anchors the remaining items are paired in order as changes.
struct ItemAlignment {
    /// For each new item, the old item it continues, or nil for a new item.
    private(set) var source: [Int?]
    /// For each new item, whether it is the old item unchanged (content and depth).
    private(set) var unchanged: [Bool]
    /// For each old item, whether a new item continues it.
    private(set) var kept: [Bool]

    /// An item with its depth, as the alignment compares them.
    struct Entry: Hashable {
        var item: TodoItem
        var depth: Int

        /// The item without children: they are entries of their own.
        init(_ item: TodoItem, depth: Int) {
            var item = item
            item.children = []
            self.item = item
            self.depth = depth
        }
    }

    /// The items of a list in document order, each with its depth.
    static func entries(of items: [TodoItem]) -> [Entry] {
        var entries: [Entry] = []
        func walk(_ items: [TodoItem], _ depth: Int) {
            for item in items {
                entries.append(Entry(item, depth: depth))
                walk(item.children, depth + 1)
            }
        }
        walk(items, 0)
        return entries
    }

    /// Aligns `new` with `old`. `identity` gives an item's identity when it has one; the
    /// same identity on two new items is an error naming both (by their indexes). With
    /// `leftoversAtSameDepth`, leftovers between anchors pair only with items of their own
    /// depth (a nested file, where an item at another depth stands in another array).
    init(
        old: [Entry], new: [Entry], identity: ((TodoItem) -> FieldValue?)? = nil, leftoversAtSameDepth: Bool = false
    ) throws(DuplicateIdentity) {
        source = Array(repeating: nil, count: new.count)
        unchanged = Array(repeating: false, count: new.count)
        kept = Array(repeating: false, count: old.count)
        var pairs: [(new: Int, old: Int)] = []
        var pendingNew = Set(new.indices)
        var pendingOld = Set(old.indices)
        if let identity {
            var oldByIdentity: [FieldValue: Int] = [:]
            for (i, entry) in old.enumerated() {
                if let key = identity(entry.item), oldByIdentity[key] == nil { oldByIdentity[key] = i }
            }
            var seen: [FieldValue: Int] = [:]
            for (i, entry) in new.enumerated() {
                guard let key = identity(entry.item) else { continue }
                if let first = seen[key] { throw DuplicateIdentity(identity: key, first: first, second: i) }
                seen[key] = i
                if let o = oldByIdentity[key] {
                    pairs.append((i, o))
                    pendingNew.remove(i)
                    pendingOld.remove(o)
                }
            }
        }
        // Equal content, paired in order within each group of equal items.
        var oldByContent: [Entry: [Int]] = [:]
        for o in old.indices where pendingOld.contains(o) { oldByContent[old[o], default: []].append(o) }
        var used: [Entry: Int] = [:]
        for i in new.indices where pendingNew.contains(i) {
            guard let candidates = oldByContent[new[i]] else { continue }
            let next = used[new[i], default: 0]
            guard next < candidates.count else { continue }
            used[new[i]] = next + 1
            pairs.append((i, candidates[next]))
            pendingNew.remove(i)
            pendingOld.remove(candidates[next])
        }
        if !pendingNew.isEmpty && !pendingOld.isEmpty {
            // Equal content at another depth: an item moved out of or into another item
            // (`todofmt mv 1.1 3`) continues its old self, whose lines then move along.
            var oldByItem: [TodoItem: [Int]] = [:]
            for o in old.indices where pendingOld.contains(o) { oldByItem[old[o].item, default: []].append(o) }
            var usedItem: [TodoItem: Int] = [:]
            for i in new.indices where pendingNew.contains(i) {
                guard let candidates = oldByItem[new[i].item] else { continue }
                let next = usedItem[new[i].item, default: 0]
                guard next < candidates.count else { continue }
                usedItem[new[i].item] = next + 1
                pairs.append((i, candidates[next]))
                pendingNew.remove(i)
                pendingOld.remove(candidates[next])
            }
        }
        pairs.sort { $0.new < $1.new }
        // Pairs in order are anchors; the rest moved. Between anchors, leftovers pair in order.
        let anchors = longestIncreasingRun(pairs.map(\.old))
        var anchorPairs: [(new: Int, old: Int)] = []
        for (k, pair) in pairs.enumerated() {
            source[pair.new] = pair.old
            kept[pair.old] = true
            if anchors[k] { anchorPairs.append(pair) }
        }
        var previous = (new: -1, old: -1)
        for anchor in anchorPairs + [(new.count, old.count)] {
            var freeNew = ((previous.new + 1)..<anchor.new).filter { pendingNew.contains($0) }
            var freeOld = ((previous.old + 1)..<anchor.old).filter { pendingOld.contains($0) }
            // An item changed where it stands keeps its name more often than not: such pairs
            // first, so that an item put in just before it does not take its place.
            pairByName(&freeNew, &freeOld, new: new, old: old)
            if leftoversAtSameDepth {
                var freeOldByDepth: [Int: ArraySlice<Int>] = [:]
                for o in freeOld { freeOldByDepth[old[o].depth, default: []].append(o) }
                for n in freeNew {
                    guard let o = freeOldByDepth[new[n].depth]?.popFirst() else { continue }
                    source[n] = o
                    kept[o] = true
                }
            } else {
                for (n, o) in zip(freeNew, freeOld) {
                    source[n] = o
                    kept[o] = true
                }
            }
            previous = anchor
        }
        // Left over on both sides with a name no other leftover has: an item that moved (to
        // any depth) and changed (checked, a field set), which then keeps its lines (its
        // comments, its quoting) instead of being written anew.
        var leftNew = new.indices.filter { source[$0] == nil }
        var leftOld = old.indices.filter { !kept[$0] }
        if !leftNew.isEmpty && !leftOld.isEmpty {
            pairByName(&leftNew, &leftOld, new: new, old: old, atAnyDepth: true)
        }
        for i in new.indices {
            if let o = source[i] { unchanged[i] = old[o] == new[i] }
        }
    }
}

extension ItemAlignment {
    /// Pairs the new items `news` with the old items `olds` (indexes of `new` and `old`)
    /// whose name, at their depth (or `atAnyDepth`, at any), no other of them has on either
    /// side, and takes the pairs out of both.
    fileprivate mutating func pairByName(
        _ news: inout [Int], _ olds: inout [Int], new: [Entry], old: [Entry], atAnyDepth: Bool = false
    ) {
        guard !news.isEmpty, !olds.isEmpty else { return }
        func key(_ entry: Entry) -> Entry {
            Entry(TodoItem(name: entry.item.name), depth: atAnyDepth ? 0 : entry.depth)
        }
        var oldByName: [Entry: (index: Int, count: Int)] = [:]
        for o in olds { oldByName[key(old[o]), default: (o, 0)].count += 1 }
        var newByName: [Entry: (index: Int, count: Int)] = [:]
        for i in news { newByName[key(new[i]), default: (i, 0)].count += 1 }
        var paired = false
        for (name, n) in newByName where n.count == 1 {
            guard let o = oldByName[name], o.count == 1 else { continue }
            source[n.index] = o.index
            kept[o.index] = true
            paired = true
        }
        guard paired else { return }
        news.removeAll { source[$0] != nil }
        olds.removeAll { kept[$0] }
    }
}

/// Two items written back with the same identity (a duplicated line in an editor).
struct DuplicateIdentity: Error, Hashable {
    var identity: FieldValue
    /// The two items, as indexes of the new entries.
    var first: Int
    var second: Int
    /// The key (or keys) the identity is the value of, for the message (`id`, `Z_PK`).
    var key: String? = nil
}

extension ItemAlignment {
    /// Whether new item `index` continues an old item unchanged.
    func isUnchanged(_ index: Int) -> Bool { unchanged[index] }
    /// The old item new item `index` continues, if any.
    func oldIndex(of index: Int) -> Int? { source[index] }
    /// Whether old item `index` is continued by a new item (else it was removed).
    func isKept(_ index: Int) -> Bool { kept[index] }
}
