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
    /// depth (a nested file, where an item at another depth stands in another array). With
    /// `stretches` (for each item the stretch it stands in, not decreasing in order), they
    /// pair only within a stretch: `ItemPairing` gives the items left around its common run
    /// the number of that run's items before each.
    ///
    /// Items are grouped by content through `EqualGroups`, each item hashed once: the
    /// standard library's dictionaries keyed by items hashed each item again at every use and
    /// compared whole items at every probe, most of a write of a million items, a tenth of
    /// them changed, into an existing file (12 s).
    init(
        old: [Entry], new: [Entry], identity: ((TodoItem) -> FieldValue?)? = nil, leftoversAtSameDepth: Bool = false,
        stretches: (old: [Int], new: [Int])? = nil
    ) throws(DuplicateIdentity) {
        // One item on each side, without identities or stretches (most pieces of a list
        // edited in many places): paired as the steps below pair them, without their tables:
        // always, but where leftovers pair only at their own depth, an item at another depth
        // only by its name (an item equal at another depth has it too).
        if old.count == 1 && new.count == 1 && identity == nil && stretches == nil {
            let same = old[0] == new[0]
            let pairs =
                same || !leftoversAtSameDepth || old[0].depth == new[0].depth
                || old[0].item.nameStorage == new[0].item.nameStorage
            source = [pairs ? 0 : nil]
            unchanged = [same]
            kept = [pairs]
            return
        }
        source = Array(repeating: nil, count: new.count)
        unchanged = Array(repeating: false, count: new.count)
        kept = Array(repeating: false, count: old.count)
        // The old item each new item pairs with by identity or content (-1: none), and
        // whether the pair is known to be equal.
        var pairedOld = [Int](repeating: -1, count: new.count)
        var isPaired = [Bool](repeating: false, count: old.count)
        var knownEqual = [Bool](repeating: false, count: new.count)
        var pairCount = 0
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
                    pairedOld[i] = o
                    isPaired[o] = true
                    pairCount += 1
                }
            }
        }
        // Equal content, paired in order within each group of equal items; then equal
        // content at another depth: an item moved out of or into another item (`todofmt mv
        // 1.1 3`) continues its old self, whose lines then move along.
        for atAnyDepth in [false, true] where pairCount < new.count && pairCount < old.count {
            func digest(_ entry: Entry) -> Int { atAnyDepth ? entry.item.hashValue : entry.hashValue }
            func equal(_ a: Entry, _ b: Entry) -> Bool { atAnyDepth ? a.item == b.item : a == b }
            var groups = EqualGroups(
                old.indices.filter { !isPaired[$0] }, digest: { digest(old[$0]) }, equal: { equal(old[$0], old[$1]) })
            for i in new.indices where pairedOld[i] < 0 {
                guard let group = groups.group(digest: digest(new[i]), where: { equal(old[$0], new[i]) }),
                    let o = groups.takeFirst(of: group)
                else { continue }
                pairedOld[i] = o
                isPaired[o] = true
                knownEqual[i] = !atAnyDepth
                pairCount += 1
            }
        }
        var pairs: [(new: Int, old: Int)] = []
        pairs.reserveCapacity(pairCount)
        for i in new.indices where pairedOld[i] >= 0 { pairs.append((i, pairedOld[i])) }
        // Pairs in order are anchors; the rest moved. Between anchors, leftovers pair in order.
        let anchors = longestIncreasingRun(pairs.map { Optional($0.old) })
        var anchorPairs: [(new: Int, old: Int)] = []
        for (k, pair) in pairs.enumerated() {
            source[pair.new] = pair.old
            kept[pair.old] = true
            if anchors[k] { anchorPairs.append(pair) }
        }
        var previous = (new: -1, old: -1)
        for anchor in anchorPairs + [(new.count, old.count)] {
            defer { previous = anchor }
            // (Most anchors follow the one before on both sides: nothing between to pair.)
            guard anchor.new > previous.new + 1 && anchor.old > previous.old + 1 else { continue }
            let freeNew = ((previous.new + 1)..<anchor.new).filter { pairedOld[$0] < 0 }
            let freeOld = ((previous.old + 1)..<anchor.old).filter { !isPaired[$0] }
            guard let stretches else {
                pairLeftovers(freeNew, freeOld, new: new, old: old, leftoversAtSameDepth: leftoversAtSameDepth)
                continue
            }
            // Only within a stretch: runs of the same stretch on both sides.
            var a = 0
            var b = 0
            while a < freeNew.count && b < freeOld.count {
                let stretch = stretches.new[freeNew[a]]
                if stretch < stretches.old[freeOld[b]] {
                    a += 1
                    continue
                }
                if stretch > stretches.old[freeOld[b]] {
                    b += 1
                    continue
                }
                var aEnd = a
                while aEnd < freeNew.count && stretches.new[freeNew[aEnd]] == stretch { aEnd += 1 }
                var bEnd = b
                while bEnd < freeOld.count && stretches.old[freeOld[bEnd]] == stretch { bEnd += 1 }
                pairLeftovers(
                    Array(freeNew[a..<aEnd]), Array(freeOld[b..<bEnd]), new: new, old: old,
                    leftoversAtSameDepth: leftoversAtSameDepth)
                a = aEnd
                b = bEnd
            }
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
            if let o = source[i] { unchanged[i] = knownEqual[i] || old[o] == new[i] }
        }
    }
}

extension ItemAlignment {
    /// Pairs the items `news` and `olds` left between two anchors: by a name each side has
    /// once, then in order (at each depth, with `leftoversAtSameDepth`).
    fileprivate mutating func pairLeftovers(
        _ news: [Int], _ olds: [Int], new: [Entry], old: [Entry], leftoversAtSameDepth: Bool
    ) {
        var freeNew = news
        var freeOld = olds
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
    }

    /// Pairs the new items `news` with the old items `olds` (indexes of `new` and `old`)
    /// whose name, at their depth (or `atAnyDepth`, at any), no other of them has on either
    /// side, and takes the pairs out of both.
    fileprivate mutating func pairByName(
        _ news: inout [Int], _ olds: inout [Int], new: [Entry], old: [Entry], atAnyDepth: Bool = false
    ) {
        guard !news.isEmpty, !olds.isEmpty else { return }
        func sameKey(_ a: Entry, _ b: Entry) -> Bool {
            (atAnyDepth || a.depth == b.depth) && a.item.nameStorage == b.item.nameStorage
        }
        if news.count == 1 && olds.count == 1 {
            // One on each side, as between two anchors where one item changed: no group needed.
            guard sameKey(new[news[0]], old[olds[0]]) else { return }
            source[news[0]] = olds[0]
            kept[olds[0]] = true
            news = []
            olds = []
            return
        }
        func digest(_ entry: Entry) -> Int {
            var hasher = Hasher()
            TodoItem.hashText(entry.item.nameStorage, into: &hasher)
            if !atAnyDepth { hasher.combine(entry.depth) }
            return hasher.finalize()
        }
        let oldGroups = EqualGroups(olds, digest: { digest(old[$0]) }, equal: { sameKey(old[$0], old[$1]) })
        let newGroups = EqualGroups(news, digest: { digest(new[$0]) }, equal: { sameKey(new[$0], new[$1]) })
        var paired = false
        for n in newGroups.singles {
            guard let group = oldGroups.group(digest: digest(new[n]), where: { sameKey(old[$0], new[n]) }),
                let o = oldGroups.single(group)
            else { continue }
            source[n] = o
            kept[o] = true
            paired = true
        }
        guard paired else { return }
        news.removeAll { source[$0] != nil }
        olds.removeAll { kept[$0] }
    }
}

/// Indexes grouped by equal keys, each group's members in the order given: a hash table of
/// the keys' digests, one slot for each distinct key (keys whose digests collide are told
/// apart by `equal`), its members chained. Each index is hashed once.
struct EqualGroups {
    /// Sixteen bytes, so that a million keys' table (two slots a key) is 32 MB: the table is
    /// looked at once for each member, each time a miss of the cache.
    private struct Slot {
        /// The digest's high bits (its low bits chose the slot).
        var tag: UInt32 = 0
        /// Places in `members`: a member (-1: an empty slot), and the first not yet taken
        /// (-1: none).
        var first: Int32 = -1
        var head: Int32 = -1
        var count: Int32 = 0
    }

    private let members: [Int]
    private var slots: [Slot]
    /// For each place in `members`, the place of the next member of its group (-1: none).
    private var next: [Int32]
    private let mask: Int

    /// Groups `indexes` by the key of each, whose digest is `digest` and which `equal`
    /// compares.
    init(_ indexes: [Int], digest: (Int) -> Int, equal: (Int, Int) -> Bool) {
        members = indexes
        var size = 16
        while size < 2 * members.count { size *= 2 }
        mask = size - 1
        slots = Array(repeating: Slot(), count: size)
        next = Array(repeating: -1, count: members.count)
        // From the last member back, each put before its group's others: groups in order.
        for place in stride(from: members.count - 1, through: 0, by: -1) {
            let index = members[place]
            let d = digest(index)
            let tag = UInt32(truncatingIfNeeded: d >> 32)
            var s = d & mask
            while slots[s].first >= 0 && !(slots[s].tag == tag && equal(members[Int(slots[s].first)], index)) {
                s = (s + 1) & mask
            }
            if slots[s].first < 0 {
                slots[s].tag = tag
                slots[s].first = Int32(place)
            } else {
                next[place] = slots[s].head
            }
            slots[s].head = Int32(place)
            slots[s].count += 1
        }
    }

    /// The group whose key has digest `digest` and is the key of the members `matches`
    /// says it is (given one member); nil when there is none.
    func group(digest: Int, where matches: (Int) -> Bool) -> Int? {
        let tag = UInt32(truncatingIfNeeded: digest >> 32)
        var s = digest & mask
        while slots[s].first >= 0 {
            if slots[s].tag == tag && matches(members[Int(slots[s].first)]) { return s }
            s = (s + 1) & mask
        }
        return nil
    }

    /// Takes the group's first member not yet taken; nil when all are.
    mutating func takeFirst(of group: Int) -> Int? {
        let head = Int(slots[group].head)
        guard head >= 0 else { return nil }
        slots[group].head = next[head]
        return members[head]
    }

    /// The group's one member; nil when it has more.
    func single(_ group: Int) -> Int? { slots[group].count == 1 ? members[Int(slots[group].first)] : nil }

    /// Groups are numbered below this.
    var groupLimit: Int { slots.count }

    /// The members that are alone in their groups.
    var singles: [Int] { slots.filter { $0.count == 1 }.map { members[Int($0.first)] } }
}

extension ItemAlignment.Entry {
    /// `==`, with names compared by their bytes first: equal bytes are equal names, where
    /// `==` on text other than ASCII compares as it normalizes (most of comparing the equal
    /// items of two long lists).
    func isSame(as other: Self) -> Bool {
        item.status == other.item.status && isSameButForStatus(as: other)
    }

    /// `isSame(as:)` but for the items' statuses, which may differ.
    func isSameButForStatus(as other: Self) -> Bool {
        depth == other.depth
            && (item.nameStorage.sameBytes(as: other.item.nameStorage) || item.nameStorage == other.item.nameStorage)
            && item.fields == other.item.fields && item.section == other.item.section
            && item.children == other.item.children
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
