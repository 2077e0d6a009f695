import Foundation

@testable import TodoFormat

/// The alignment as it was first written, with the standard library's sets and dictionaries
/// keyed by whole items: the oracle `ItemAlignment`'s grouping by digests must agree with.
struct ReferenceAlignment {
    typealias Entry = ItemAlignment.Entry
    var source: [Int?]
    var unchanged: [Bool]
    var kept: [Bool]

    init(
        old: [Entry], new: [Entry], identity: ((TodoItem) -> FieldValue?)? = nil, leftoversAtSameDepth: Bool = false
    ) throws {
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

    /// Pairs the new items `news` with the old items `olds` (indexes of `new` and `old`)
    /// whose name, at their depth (or `atAnyDepth`, at any), no other of them has on either
    /// side, and takes the pairs out of both.
    mutating func pairByName(
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
