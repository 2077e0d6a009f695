/// How the items of one list continue the items of another, for comparing and merging
/// lists: `ItemAlignment` (identity, else equal content, the longest in-order run, moves),
/// run only on what lies between the lists' equal start and equal end. Lists that differ
/// only in their items' boxes pair in place.
struct ItemPairing {
    /// The items of both lists in document order, with their depths.
    let old: [ItemAlignment.Entry]
    let new: [ItemAlignment.Entry]
    /// For each new item, the old item it continues, or nil for an added item.
    private(set) var source: [Int?]
    /// For each old item, the new item that continues it, or nil for a removed item.
    private(set) var target: [Int?]
    /// For each new item, whether it stands in the longest run of continued items still in
    /// their old order (false for added items and for moved ones).
    private(set) var inOrder: [Bool]
    /// Each item's parent (an index of the same list), nil at the top level.
    let oldParent: [Int?]
    let newParent: [Int?]

    init(old: [TodoItem], new: [TodoItem]) {
        self.init(old: ItemAlignment.entries(of: old), new: ItemAlignment.entries(of: new))
    }

    init(old: [ItemAlignment.Entry], new: [ItemAlignment.Entry]) {
        self.old = old
        self.new = new
        source = Array(repeating: nil, count: new.count)
        target = Array(repeating: nil, count: old.count)
        inOrder = Array(repeating: false, count: new.count)
        oldParent = Self.parents(old)
        newParent = Self.parents(new)
        // Lists whose items are the same in the same places but for their boxes (the usual
        // edit: boxes checked) pair in place, items of the same text too: an item whose box
        // became that of another item with its text is not taken for the other, moved.
        if Self.differOnlyInStatus(old[...], new[...]) {
            for k in old.indices { pair(k, k) }
            return
        }
        // The equal start and the equal end pair as they stand; only the middle is aligned.
        var prefix = 0
        while prefix < old.count && prefix < new.count && old[prefix] == new[prefix] { prefix += 1 }
        var suffix = 0
        while suffix < old.count - prefix && suffix < new.count - prefix
            && old[old.count - 1 - suffix] == new[new.count - 1 - suffix]
        {
            suffix += 1
        }
        for k in 0..<prefix { pair(k, k) }
        for k in 0..<suffix { pair(new.count - 1 - k, old.count - 1 - k) }
        let oldMiddle = prefix..<(old.count - suffix)
        let newMiddle = prefix..<(new.count - suffix)
        guard !oldMiddle.isEmpty || !newMiddle.isEmpty else { return }
        // The longest common run of equal items (Myers' diff) stays in place; what is left
        // is aligned by `ItemAlignment`, comparing items by their text alone (or their
        // identity), whatever their depth, box and fields: an item checked and moved is still
        // the same item. Too many differences for Myers' diff: the items that come once on
        // each side stand for the common run (`uniqueRun`).
        var leftOld = Array(oldMiddle)
        var leftNew = Array(newMiddle)
        // Each item's digest, taken once: Myers' diff compares digests, and items only where
        // the digests are equal (numbering two million items in a table, after which the diff
        // gave up past its differences, was a quarter of such a `diff`).
        let oldDigests = old[oldMiddle].map(\.hashValue)
        let newDigests = new[newMiddle].map(\.hashValue)
        // (`start`, a constant: the closure captured the variable `prefix`, whose every read
        // then checked for a conflicting write, a twentieth of a `diff` Myers gives up on.)
        let start = prefix
        let same = { (o: Int, n: Int) in
            oldDigests[o] == newDigests[n] && old[start + o].isSame(as: new[start + n])
        }
        // (Myers' diff is not tried where the digests alone show more differences than it
        // looks through: giving up after 2,000 was a tenth of a `diff` of a list with every
        // tenth box checked.)
        // The table of digests is built once, for that bound and for the unique run.
        let maxDifferences = 2000
        let counts = DigestCounts(old: oldDigests, new: newDigests)
        let common =
            (counts.leastDifferences > maxDifferences
                ? nil : commonRun(oldMiddle.count, newMiddle.count, maxDifferences: maxDifferences, same: same))
            ?? Self.uniqueRun(old[oldMiddle], new[newMiddle], oldDigests, newDigests, counts: counts)
        var matchedOld = [Bool](repeating: false, count: old.count)
        var matchedNew = [Bool](repeating: false, count: new.count)
        for (o, n) in common {
            pair(prefix + n, prefix + o)
            matchedOld[prefix + o] = true
            matchedNew[prefix + n] = true
        }
        leftOld.removeAll { matchedOld[$0] }
        leftNew.removeAll { matchedNew[$0] }
        let key = Self.identityKey(old, leftOld, new, leftNew)
        func projected(_ entry: ItemAlignment.Entry) -> ItemAlignment.Entry {
            let fields = key.flatMap { key in entry.item.fields[key: key].map { [Field(key, $0)] } } ?? []
            return ItemAlignment.Entry(
                TodoItem(
                    nameStorage: entry.item.nameStorage, status: .open, fields: fields, children: [], section: nil),
                depth: 0)
        }
        let oldEntries = leftOld.map { projected(old[$0]) }
        let newEntries = leftNew.map { projected(new[$0]) }
        let identity = key.map { key in { (item: TodoItem) in item.fields[key: key] } }
        // The items left pair by text, or by identity, wherever they stand (a move); otherwise
        // only between the same items of the common run that stay in order among those pairs
        // (else a removed item and an added one far apart were taken for a rename, and an
        // unchanged item between them for a move). Those items are found from a first
        // alignment: the common run's pairs in the longest run in order with its equal pairs.
        let first =
            (try? ItemAlignment(old: oldEntries, new: newEntries, identity: identity))
            ?? (try! ItemAlignment(old: oldEntries, new: newEntries))
        var inRun: [(new: Int, old: Int, common: Bool)] = common.map { (prefix + $0.1, prefix + $0.0, true) }
        for n in newEntries.indices where first.isUnchanged(n) {
            if let o = first.oldIndex(of: n) { inRun.append((leftNew[n], leftOld[o], false)) }
        }
        inRun.sort { $0.new < $1.new }
        let kept = longestIncreasingRun(inRun.map { Optional($0.old) })
        var barrierOld = [Bool](repeating: false, count: old.count)
        var barrierNew = [Bool](repeating: false, count: new.count)
        // Whether each new item stays in order: at the equal ends, or in that run.
        var stays = [Bool](repeating: true, count: new.count)
        for n in newMiddle { stays[n] = false }
        for (k, pair) in inRun.enumerated() where kept[k] {
            stays[pair.new] = true
            if pair.common {
                barrierOld[pair.old] = true
                barrierNew[pair.new] = true
            }
        }
        func stretches(_ left: [Int], _ barrier: [Bool], _ middle: Range<Int>) -> [Int] {
            var before = 0
            var stretch = [Int](repeating: 0, count: middle.count)
            for i in middle {
                stretch[i - middle.lowerBound] = before
                if barrier[i] { before += 1 }
            }
            return left.map { stretch[$0 - middle.lowerBound] }
        }
        let around = (
            old: stretches(leftOld, barrierOld, oldMiddle), new: stretches(leftNew, barrierNew, newMiddle)
        )
        let alignment =
            (try? ItemAlignment(old: oldEntries, new: newEntries, identity: identity, stretches: around))
            ?? (try! ItemAlignment(old: oldEntries, new: newEntries, stretches: around))
        for n in newEntries.indices {
            if let o = alignment.oldIndex(of: n) { pair(leftNew[n], leftOld[o]) }
        }
        // Under a parent that moved (out of that run), the children still left pair in order,
        // as they stand among their siblings (a child renamed under a moved parent): the
        // common run between the parent's two places does not part them.
        var leftUnder: [Int: ArraySlice<Int>] = [:]
        for o in oldMiddle where target[o] == nil {
            if let parent = oldParent[o] { leftUnder[parent, default: []].append(o) }
        }
        for n in newMiddle where source[n] == nil {
            guard let parent = newParent[n], !stays[parent], let oldParentItem = source[parent],
                let o = leftUnder[oldParentItem]?.popFirst()
            else { continue }
            pair(n, o)
        }
        let run = longestIncreasingRun(newMiddle.map { source[$0] })
        for (k, n) in newMiddle.enumerated() { inOrder[n] = run[k] }
    }

    /// Whether the two runs of items have the same items in the same places but for their
    /// statuses (`ItemAlignment.Entry.isSameButForStatus`): they then pair in place.
    static func differOnlyInStatus(_ old: ArraySlice<ItemAlignment.Entry>, _ new: ArraySlice<ItemAlignment.Entry>)
        -> Bool
    {
        old.count == new.count && zip(old, new).allSatisfy { $0.isSameButForStatus(as: $1) }
    }

    /// At least how many insertions and deletions turn a sequence of items whose digests are
    /// `a` into one whose digests are `b` (`DigestCounts.leastDifferences`).
    static func leastDifferences(_ a: [Int], _ b: [Int]) -> Int {
        DigestCounts(old: a, new: b).leastDifferences
    }

    /// The pairs of items (places in `old` and `new`, whose digests are `oldDigests` and
    /// `newDigests`) whose content and depth come once on each side and that stand in the
    /// longest run in order: the common run where Myers' diff gives up (patience diff's
    /// anchors). Items that come more than once are left to the alignment by text, which
    /// pairs them in order, as it paired every item of the middle before: a million items
    /// with every tenth box checked were so aligned one by one, most of such a `diff`.
    ///
    /// Items are counted by digest in one table for both sides, each item looked up once
    /// (two tables grouping items by content, each item looked up in both, were a fifth of
    /// such a `diff`); a pair's items are then compared. Items of other contents whose
    /// digests are the same count as one content: they pair with neither.
    static func uniqueRun(
        _ old: ArraySlice<ItemAlignment.Entry>, _ new: ArraySlice<ItemAlignment.Entry>, _ oldDigests: [Int],
        _ newDigests: [Int], counts: DigestCounts? = nil
    ) -> [(Int, Int)] {
        let table = counts ?? DigestCounts(old: oldDigests, new: newDigests)
        // (Through the buffers: subscripts of the slices copied an entry at every comparison.)
        return old.withUnsafeBufferPointer { old in
            new.withUnsafeBufferPointer { new in
                var pairs: [(Int, Int)] = []
                for n in new.indices {
                    guard let o = table.onlyOld(newDigests[n], ifOnlyNewIs: n), old[o].isSame(as: new[n]) else {
                        continue
                    }
                    pairs.append((o, n))
                }
                let run = longestIncreasingRun(pairs.map { Optional($0.0) })
                return pairs.indices.filter { run[$0] }.map { pairs[$0] }
            }
        }
    }

    /// How many items of each side have each digest, and where the one is where there is
    /// one: an open-addressed table of sixteen-byte slots.
    struct DigestCounts {
        private struct Slot {
            var digest = 0
            /// The items with the digest: -1 none, the one's place, or minus their count.
            var old: Int32 = -1
            var new: Int32 = -1
        }

        private var slots: [Slot]
        private let mask: Int

        /// The table of two sequences' digests.
        init(old: [Int], new: [Int]) {
            var size = 16
            while size < 2 * (old.count + new.count) { size *= 2 }
            slots = Array(repeating: Slot(), count: size)
            mask = size - 1
            for o in old.indices { count(old[o], at: o, isNew: false) }
            for n in new.indices { count(new[n], at: n, isNew: true) }
        }

        /// The slot of `digest`: where it is, or the empty one where it goes.
        private func slot(of digest: Int) -> Int {
            var i = (digest ^ (digest >> 29)) & mask
            while slots[i].digest != digest && (slots[i].old != -1 || slots[i].new != -1) { i = (i + 1) & mask }
            return i
        }

        private mutating func count(_ digest: Int, at index: Int, isNew: Bool) {
            let i = slot(of: digest)
            slots[i].digest = digest
            if isNew { Self.add(index, to: &slots[i].new) } else { Self.add(index, to: &slots[i].old) }
        }

        private static func add(_ index: Int, to items: inout Int32) {
            items = items == -1 ? Int32(index) : items >= 0 ? -2 : items - 1
        }

        private static func count(_ items: Int32) -> Int { items == -1 ? 0 : items >= 0 ? 1 : -Int(items) }

        /// The one old item with `digest` where the one new item with it is `n`.
        func onlyOld(_ digest: Int, ifOnlyNewIs n: Int) -> Int? {
            let slot = slots[slot(of: digest)]
            return slot.new == Int32(n) && slot.old >= 0 ? Int(slot.old) : nil
        }

        /// At least how many insertions and deletions turn the old sequence into the new:
        /// the items of each digest that one side has more of. (Equal items have equal
        /// digests, so no common run pairs more of them.)
        var leastDifferences: Int {
            slots.reduce(0) { $0 + abs(Self.count($1.old) - Self.count($1.new)) }
        }
    }

    private mutating func pair(_ n: Int, _ o: Int) {
        source[n] = o
        target[o] = n
        inOrder[n] = true
    }

    /// The key that identifies the items at `oldPlaces` of `old` and `newPlaces` of `new`
    /// (`id`, `uuid`, `guid`, in any case) when every one of them has it, else nil. (Looked
    /// up in place: copying the items out first was a twentieth of a `diff` with a hundred
    /// thousand changes.)
    static func identityKey(
        _ old: [ItemAlignment.Entry], _ oldPlaces: [Int], _ new: [ItemAlignment.Entry], _ newPlaces: [Int]
    ) -> String? {
        let keys: Set<String> = ["id", "uuid", "guid"]
        guard
            let first = oldPlaces.first.map({ old[$0] }) ?? newPlaces.first.map({ new[$0] }),
            let key = first.item.fields.first(where: { keys.contains(ItemSchema.normalizedKey($0.key)) })?.key
        else { return nil }
        for o in oldPlaces where old[o].item.fields[key: key] == nil { return nil }
        for n in newPlaces where new[n].item.fields[key: key] == nil { return nil }
        return key
    }

    static func parents(_ entries: [ItemAlignment.Entry]) -> [Int?] {
        var parents = [Int?](repeating: nil, count: entries.count)
        var stack: [Int] = []
        for (i, entry) in entries.enumerated() {
            while stack.count > entry.depth { stack.removeLast() }
            parents[i] = stack.last
            if stack.count == entry.depth { stack.append(i) }
        }
        return parents
    }

    /// Whether new item `n`, which continues an old item, moved: it left the in-order run, or
    /// went under another parent or to another depth. Nested items that went along with their
    /// moved parent did not move by themselves.
    func moved(_ n: Int) -> Bool {
        guard let o = source[n] else { return false }
        let sameParent =
            newParent[n].flatMap { source[$0] } == oldParent[o] && (newParent[n] == nil) == (oldParent[o] == nil)
        if !sameParent || new[n].depth != old[o].depth { return true }
        if inOrder[n] { return false }
        // Out of the run: it moved, unless its parent did and it kept its place among its siblings.
        guard let parent = newParent[n], moved(parent) else { return true }
        return !siblingOrderKept(n)
    }

    /// Whether new item `n` stands after the same continued sibling it stood after.
    private func siblingOrderKept(_ n: Int) -> Bool {
        guard let o = source[n] else { return false }
        func previousKept(_ i: Int, _ parent: [Int?], _ link: [Int?]) -> Int? {
            let floor = parent[i] ?? -1
            var k = i - 1
            while k > floor {
                if parent[k] == parent[i], link[k] != nil { return k }
                k -= 1
            }
            return nil
        }
        let before = previousKept(n, newParent, source)
        let oldBefore = previousKept(o, oldParent, target)
        return before.flatMap { source[$0] } == oldBefore
    }
}

/// The pairs of a longest common subsequence of `a` and `b` (Myers' O(ND) diff), in order;
/// nil when they differ in more than `maxDifferences` insertions and deletions.
func commonRun(_ a: [Int], _ b: [Int], maxDifferences: Int) -> [(Int, Int)]? {
    commonRun(a.count, b.count, maxDifferences: maxDifferences) { a[$0] == b[$1] }
}

/// `commonRun` of two sequences of `n` and `m` elements, which `same(i, j)` compares.
func commonRun(_ n: Int, _ m: Int, maxDifferences: Int, same: (Int, Int) -> Bool) -> [(Int, Int)]? {
    if n == 0 || m == 0 { return [] }
    let limit = min(n + m, maxDifferences)
    let offset = limit + 1
    var v = [Int](repeating: 0, count: 2 * limit + 3)
    // For each step, the furthest reaches it started from: only the diagonals -d-1...d+1 that
    // step reads (copying all of `v` at every step copied 64 MB before giving up at 2,000).
    var trace: [[Int]] = []
    for d in 0...limit {
        trace.append(Array(v[(offset - d - 1)...(offset + d + 1)]))
        for k in stride(from: -d, through: d, by: 2) {
            var x =
                k == -d || (k != d && v[offset + k - 1] < v[offset + k + 1]) ? v[offset + k + 1] : v[offset + k - 1] + 1
            var y = x - k
            while x < n && y < m && same(x, y) {
                x += 1
                y += 1
            }
            v[offset + k] = x
            guard x >= n && y >= m else { continue }
            // Back from the end along the trace, collecting the diagonal steps.
            var pairs: [(Int, Int)] = []
            var x0 = n
            var y0 = m
            for step in stride(from: d, through: 0, by: -1) {
                let w = trace[step]
                // (Diagonal k of the step's band is at k + step + 1.)
                let at = step + 1
                let k = x0 - y0
                let previousK = k == -step || (k != step && w[at + k - 1] < w[at + k + 1]) ? k + 1 : k - 1
                let previousX = w[at + previousK]
                let previousY = previousX - previousK
                while x0 > previousX && y0 > previousY {
                    x0 -= 1
                    y0 -= 1
                    pairs.append((x0, y0))
                }
                x0 = previousX
                y0 = previousY
            }
            return pairs.reversed()
        }
    }
    return nil
}

/// Positions as `todofmt list` prints them, for chosen items of a list in document order.
struct PositionTable {
    private var positions: [Int: String] = [:]

    /// The positions of the items at `indexes` of `entries` (depths in document order).
    init(_ entries: [ItemAlignment.Entry], at indexes: Set<Int>) {
        self.init(depths: entries.lazy.map(\.depth), sorted: indexes.sorted())
    }

    /// The positions of the items at `indexes` (in order, each once) of a list whose items
    /// have `depths`. (Each item's index looked up in a set, and each position made by
    /// joining an array of strings, were a twelfth of a `diff` with every tenth box changed.)
    init<S: Sequence<Int>>(depths: S, sorted indexes: [Int]) {
        guard let last = indexes.last else { return }
        positions.reserveCapacity(indexes.count)
        var counter = PositionCounter()
        var next = 0
        for (i, depth) in depths.enumerated() {
            if i > last { break }
            counter.count(depth: depth)
            guard i == indexes[next] else { continue }
            positions[i] = counter.position
            next += 1
        }
    }

    subscript(_ index: Int) -> String { positions[index] ?? "?" }
}

/// The position of each item of a list as its items come in document order (`3`, `3.1`):
/// one count for each level down to the current item's.
struct PositionCounter {
    private var counters: [Int] = []

    /// Counts the next item, at `depth`.
    @inline(__always)
    mutating func count(depth: Int) {
        if counters.count > depth + 1 { counters.removeLast(counters.count - depth - 1) }
        while counters.count < depth + 1 { counters.append(0) }
        counters[depth] += 1
    }

    /// The last item counted's position, as `todofmt list` prints it.
    var position: String {
        var text = String(counters[0])
        for n in counters.dropFirst() {
            text += "."
            text += String(n)
        }
        return text
    }
}
