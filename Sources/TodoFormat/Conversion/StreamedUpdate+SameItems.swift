import CPrefetch
import Foundation

/// A run of a streamed update whose items change only their boxes: as many items in the file
/// as in the output, and each item of the file that differs from the output's item in its
/// place one the new file's writer writes exactly as the file holds it, and that becomes
/// the output's item by its status alone (and its children's). The whole-list write then
/// changes only the `checked` and `status` keys of such an item, in the file's layout, which
/// is todofmt's (`writesStatusesAsTodofmt`): the output's bytes, which are taken as they are.
/// Each changed item of the file is read (by the format's list reader) and written again by
/// the new writer to show it. So is the output's item where the pair's window (`MemberWindow`:
/// the members that differ) is not one an earlier pair had: a checked box, or a status
/// given, is the same window wherever it stands, and was a few hundred windows in a list of
/// a million items.
///
/// Most changed items are not read at all: where a pair differs only in the status members
/// of its items (`TextListSyntax.statusMembers`, found in the new writer's text without
/// reading it), each changed from the same text to the same text as in an earlier pair that
/// was read, the file's item is the output's with texts shown to be statuses. Reading
/// and writing every changed item was three fifths of a write with every tenth box changed
/// into a JSON file, and two thirds into an XML property list.
///
/// A list with every tenth box changed (a hundred thousand pieces at a million items) was
/// read, aligned and patched a piece at a time: ten times a new file's write. The pieces
/// (`pieces(of:…)`) remain for runs where items were added, removed, moved or renamed, or
/// an item holds what the new writer would not write.
extension StreamedUpdate {
    /// Whether a file's layout writes a status as todofmt's layout for `schema` does: the
    /// same keys, in todofmt's order, `checked` as `true` or `false`, custom statuses in
    /// `status`.
    static func writesStatusesAsTodofmt(_ layout: ItemLayout, schema: ItemSchema) -> Bool {
        layout.schema == schema && layout.keyOrder.isEmpty && layout.keyOrderByName.isEmpty
            && !layout.checkedIsIntegerByDefault
            && layout.integerChecked.isEmpty && layout.statusWords == nil
            && (layout.checkedSpelling == nil || layout.checkedSpelling == .boolean)
    }

    /// Whether the file's run `old` (its items starting at `start`, the first item's start
    /// there and each other's at a `marker`) and the output's run (starting with an item)
    /// pair item for item, each pair the same bytes, or the file's item as the new writer
    /// (`writer`) writes it and the output's item that item with other statuses. `syntax`
    /// reads the file, `schema` the output. `toEnd` says that both runs go to the files'
    /// ends (the list's last item, its end and what follows); otherwise each ends before an
    /// item.
    func sameItems(
        _ old: UnsafeBufferPointer<UInt8>, at start: Int, output run: UnsafeBufferPointer<UInt8>, toEnd: Bool,
        syntax: Syntax, layout: ItemLayout, writer: (ByteSink) -> any ListWriter, batchSize: Int = 4096
    ) -> Bool {
        guard let changed = marker.differingItems(old, run) else { return false }
        guard !changed.isEmpty else { return true }
        func item(_ range: Range<Int>, in bytes: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
            UnsafeBufferPointer(rebasing: bytes[range])
        }
        let output = Syntax(bytes: run, path: "", schema: layout.schema)
        let keyRanks = KeyRanks(layout)
        var names = DistinctNames()
        // The windows (`MemberWindow`) of the pairs so far.
        var windows = TextPairs()
        /// Pair `k`'s window where it is that of an earlier pair, whose output is checked.
        func sharedWindow(_ k: Int) -> MemberWindow? {
            let (a, b) = (item(changed[k].a, in: old), item(changed[k].b, in: run))
            guard let window = MemberWindow(old: a, new: b, layout: Syntax.members) else { return nil }
            let seen = windows.note(
                UnsafeBufferPointer(rebasing: a[window.old]), UnsafeBufferPointer(rebasing: b[window.new]))
            return seen == .again ? window : nil
        }
        // The texts an item's status members changed from and to, in the pairs so far.
        var statusTexts = TextPairs()
        var nameRanges: [Range<Int>] = []
        /// Whether pair `k` differs only in status members (`Syntax.statusMembers`), line by
        /// line, each from the one text to the other as an earlier pair's did, whose output
        /// is checked: the file's item is then the output's (the new writer's) with texts
        /// that pair showed to be statuses it writes so. `nameRanges` are then where the
        /// output's item's names stand. A pair of status members not seen before makes pair
        /// `k` the first of them (it is checked whole). Reading the file's item and writing
        /// it again to show the same was most of a write with every tenth box changed.
        func changesStatusesOnly(_ k: Int) -> Bool {
            let (a, b) = (item(changed[k].a, in: old), item(changed[k].b, in: run))
            guard Syntax.itemNames(in: b, into: &nameRanges) else { return false }
            var (i, j) = (0, 0)
            while true {
                let (x, y) = (UnsafeBufferPointer(rebasing: a[i...]), UnsafeBufferPointer(rebasing: b[j...]))
                let same = ByteComparison.commonPrefix(x, y)
                if same == x.count && same == y.count { return true }
                guard
                    let (s, t) = Syntax.statusMembers(
                        old: x, new: y, differingAt: same, follows: keyRanks.follows),
                    statusTexts.note(UnsafeBufferPointer(rebasing: x[s]), UnsafeBufferPointer(rebasing: y[t])) == .again
                else { return false }
                (i, j) = (i + s.upperBound, j + t.upperBound)
            }
        }
        // `batchSize` changed items at a time (all at once held a hundred thousand items of
        // each side, a tenth of the write's peak memory).
        for batchStart in stride(from: 0, to: changed.count, by: batchSize) {
            let batch = batchStart..<min(batchStart + batchSize, changed.count)
            // Each changed item of the file read, but those whose statuses alone changed;
            // for the pairs checked whole, the item as the output's statuses make it.
            var olds: [TodoItem] = []
            var news: [TodoItem] = []
            var oldPlaces: [Int] = []
            var newPlaces: [Int] = []
            olds.reserveCapacity(batch.count + 1)
            for k in batch {
                if changesStatusesOnly(k) {
                    guard names.insert(nameRanges, of: item(changed[k].b, in: run)) else { return false }
                    continue
                }
                let window = sharedWindow(k)
                guard let read = syntax.listItem(at: start + changed[k].a.lowerBound),
                    Self.addNames(of: read, to: &names)
                else {
                    return false
                }
                olds.append(read)
                oldPlaces.append(k)
                // A pair whose window is an earlier pair's: the file's item written as it
                // stands (below) shows the window's bytes stand where they stood in the
                // pair checked whole, members of an item's own, so that the output's item
                // is the file's with the statuses that pair's changed. Unless a field holds
                // an array or a dictionary, whose members could be the window's (a
                // dictionary with a `checked` key), or could place a status key otherwise
                // (`item(_:withStatusesOf:layout:)`). Reading and writing the output's items
                // too was most of a write with every tenth box changed.
                if window != nil && Self.fieldsAreScalars(ranking: keyRanks.statusRank, in: read, layout: layout) {
                    continue
                }
                guard let statuses = output.listItem(at: changed[k].b.lowerBound),
                    let made = Self.item(read, withStatusesOf: statuses, layout: layout)
                else { return false }
                news.append(made)
                newPlaces.append(k)
            }
            // Both written by a new writer, one item after another, and compared with their
            // text with what follows it: an item before another (the last is written twice
            // where it is before one in the run), or the list's last item with the list's end
            // and the file's.
            guard
                olds.isEmpty
                    || written(
                        olds, repeatingLast: !(toEnd && changed[oldPlaces.last!].isLast), writer: writer,
                        matches: { i, text in ByteScan.same(item(changed[oldPlaces[i]].a, in: old), text) }),
                news.isEmpty
                    || written(
                        news, repeatingLast: !(toEnd && changed[newPlaces.last!].isLast), writer: writer,
                        matches: { i, text in ByteScan.same(item(changed[newPlaces[i]].b, in: run), text) })
            else { return false }
        }
        return true
    }

    /// Pairs of texts seen (a window of a file's item and of the output's, or status members
    /// changed from one text to another), by their digest: a few hundred in a list of a
    /// million items, each kept as it was first seen.
    struct TextPairs {
        private var seen: [Int: (a: [UInt8], b: [UInt8])] = [:]

        enum Seen { case new, again, clash }

        /// Notes the pair `a`, `b`: whether it is `new` (noted now), seen `again`, or shares
        /// its digest with another pair (a `clash`, not noted).
        mutating func note(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Seen {
            var digest = ByteDigest()
            digest.combine(bytes: a)
            digest.combine(bytes: b)
            guard let first = seen[digest.value] else {
                seen[digest.value] = (Array(a), Array(b))
                return .new
            }
            let same =
                first.a.withUnsafeBufferPointer { ByteScan.same($0, a) }
                && first.b.withUnsafeBufferPointer { ByteScan.same($0, b) }
            return same ? .again : .clash
        }
    }

    /// Which keys come after the status's in a layout, by their bytes (a few keys, each
    /// worked out once).
    final class KeyRanks {
        private let layout: ItemLayout
        /// The status key's rank.
        let statusRank: Int
        private var known: [(key: [UInt8], follows: Bool)] = []

        init(_ layout: ItemLayout) {
            self.layout = layout
            statusRank = layout.rank(of: layout.schema.keys[.status] ?? ItemRole.status.rawValue)
        }

        func follows(_ key: UnsafeBufferPointer<UInt8>) -> Bool {
            if let found = known.first(where: { $0.key.withUnsafeBufferPointer { ByteScan.same($0, key) } }) {
                return found.follows
            }
            let follows = layout.rank(of: String(decoding: key, as: UTF8.self)) > statusRank
            known.append((Array(key), follows))
            return follows
        }
    }

    /// What a streamed comparison asks of each difference (`ByteComparison.resolver`):
    /// whether it is a change of an item's status members as the new writer writes them,
    /// keys after them ranked as todofmt's layout for `schema` ranks them (the file's layout,
    /// learned after, must be that one: `writesStatusesAsTodofmt`).
    static func statusResolver(schema: ItemSchema) -> ByteComparison.Resolver {
        let follows = KeyRanks(ItemLayout(schema)).follows
        return { old, at, floor, output, isWhole in
            Syntax.statusChange(in: old, at: at, floor: floor, output: output, isWhole: isWhole, follows: follows)
        }
    }

    /// Whether the file `old` with `changes` made (each the status members of an item of
    /// the file, changed to the new writer's, as the comparison found them; in order) is what
    /// the whole-list write writes, as `sameItems` tells of pairs of items: the names of the
    /// items of every top-level item that changed all differ, and the first top-level item
    /// to change status members from one text to another is read and written again, its
    /// text and its changed text, to show that the texts are statuses the new writer writes
    /// so. The rest are not read.
    func takes(
        _ changes: ByteComparison.StatusChanges, in old: UnsafeBufferPointer<UInt8>, syntax: Syntax,
        layout: ItemLayout, writer: (ByteSink) -> any ListWriter
    ) -> Bool {
        var names = DistinctNames(capacity: 2 * changes.ranges.count)
        var nameRanges: [Range<Int>] = []
        var texts = TextPairs()
        // The top-level items to check whole, each with its first change: those in which
        // status members change from one text to another for the first time.
        var wholes: [(item: Range<Int>, first: Int)] = []
        var item = 0..<0
        var itemFirst = 0
        // The file's bytes were read as the output streamed, and are out of the cache by
        // now: the lines around each change are asked for a few changes before they are
        // looked at, so that finding items does not wait on memory for each one. (Those
        // waits were half of this loop at a million items with every tenth box changed.)
        let ahead = 4
        for (k, change) in changes.ranges.enumerated() {
            if k + ahead < changes.ranges.count {
                let at = changes.ranges[k + ahead].old.lowerBound
                for line in stride(from: max(0, at - 256), to: min(old.count, at + 256), by: 64) {
                    todofmt_prefetch(old.baseAddress! + line)
                }
            }
            if k == 0 || change.old.lowerBound >= item.upperBound {
                guard
                    let start = marker.lastStart(
                        before: change.old.lowerBound, in: old, from: max(0, item.upperBound - marker.itemOffset))
                else { return false }
                item = start..<(marker.nextStart(from: change.old.lowerBound, in: old) ?? old.count)
                itemFirst = k
                let text = UnsafeBufferPointer(rebasing: old[item])
                guard Syntax.itemNames(in: text, into: &nameRanges), names.insert(nameRanges, of: text) else {
                    return false
                }
            }
            guard change.old.upperBound <= item.upperBound else { return false }
            let seen = changes.bytes.withUnsafeBufferPointer {
                texts.note(
                    UnsafeBufferPointer(rebasing: old[change.old]), UnsafeBufferPointer(rebasing: $0[change.new]))
            }
            switch seen {
            case .again: continue
            case .clash: return false
            case .new: if wholes.last?.item != item { wholes.append((item, itemFirst)) }
            }
        }
        // Each item checked whole: the file's as read, written again; the changed text's
        // statuses given to it, written again as the changed text.
        for whole in wholes {
            let text = UnsafeBufferPointer(rebasing: old[whole.item])
            var changed: [UInt8] = []
            var at = whole.item.lowerBound
            var k = whole.first
            while k < changes.ranges.count && changes.ranges[k].old.lowerBound < whole.item.upperBound {
                changed += old[at..<changes.ranges[k].old.lowerBound]
                changed += changes.new(k)
                at = changes.ranges[k].old.upperBound
                k += 1
            }
            changed += old[at..<whole.item.upperBound]
            let repeatingLast = whole.item.upperBound != old.count
            guard let read = syntax.listItem(at: whole.item.lowerBound),
                written([read], repeatingLast: repeatingLast, writer: writer, matches: { ByteScan.same(text, $1) }),
                let made = changed.withUnsafeBufferPointer({ changed -> TodoItem? in
                    guard let statuses = Syntax(bytes: changed, path: "", schema: layout.schema).listItem(at: 0) else {
                        return nil
                    }
                    return Self.item(read, withStatusesOf: statuses, layout: layout)
                }),
                changed.withUnsafeBufferPointer({ changed in
                    written(
                        [made], repeatingLast: repeatingLast, writer: writer, matches: { ByteScan.same(changed, $1) })
                })
            else { return false }
        }
        return true
    }

    /// Whether every field of `item`, its children and theirs, holds neither an array nor a
    /// dictionary (so that the item's members are the only ones its text has) and ranks after
    /// `rank` (the status key's) in `layout` (so that a status key given or taken goes where
    /// the new writer puts it).
    private static func fieldsAreScalars(ranking rank: Int, in item: TodoItem, layout: ItemLayout) -> Bool {
        item.fields.allSatisfy { field in
            switch field.value {
            case .array, .dictionary: return false
            default: return layout.rank(of: field.key) > rank
            }
        } && item.children.allSatisfy { fieldsAreScalars(ranking: rank, in: $0, layout: layout) }
    }

    /// Adds the names of `item`, its children and theirs to `seen`; false where one was
    /// there already. Names must all differ (the same bytes, each in Unicode's NFC form, so
    /// that no two are the same name to Swift either): the whole-list write pairs an item
    /// with the file's by its name or its content where it can, and with names that are all
    /// different it pairs each changed item with the file's item in its place, as this pairs
    /// them. (Two items of one name whose boxes changed places could pair across, and an item
    /// with children with one without: the file's empty `children` stays where the output
    /// has none.) Names are told apart by their digests: two names of one digest count as
    /// one, which only leaves the run to the pieces.
    private static func addNames(of item: TodoItem, to seen: inout DistinctNames) -> Bool {
        var name = item.nameStorage
        guard name.withUTF8({ seen.insert($0) }) else { return false }
        return item.children.allSatisfy { addNames(of: $0, to: &seen) }
    }

    /// `item` with the statuses of `other` (its own, and its children's), which has as many
    /// children at every level; nil where it has not, or where the whole-list write would put
    /// a `status` key that comes elsewhere than the new writer does: it goes after the last of
    /// the item's keys that `layout` ranks before it (`ItemPatch`), which is `checked` only
    /// where none of the item's fields ranks so (a field `done` or `completed` does, taken
    /// for the checked role's).
    private static func item(_ item: TodoItem, withStatusesOf other: TodoItem, layout: ItemLayout) -> TodoItem? {
        guard item.children.count == other.children.count else { return nil }
        if hasStatusKey(item.status) != hasStatusKey(other.status) {
            let status = layout.rank(of: layout.schema.keys[.status] ?? ItemRole.status.rawValue)
            guard item.fields.allSatisfy({ layout.rank(of: $0.key) > status }) else { return nil }
        }
        var item = item
        item.status = other.status
        for i in item.children.indices {
            guard let child = Self.item(item.children[i], withStatusesOf: other.children[i], layout: layout) else {
                return nil
            }
            item.children[i] = child
        }
        return item
    }

    /// Whether todofmt's layout writes a `status` key for the status (a custom one).
    private static func hasStatusKey(_ status: TodoStatus) -> Bool {
        if case .custom = status { return true }
        return false
    }

    /// Whether `items`, written as a new file's top-level items (the last twice where
    /// `repeatingLast`), each give the text `matches` takes for it (by index): from its
    /// start to the next item's, or to the file's end.
    private func written(
        _ items: [TodoItem], repeatingLast: Bool, writer: (ByteSink) -> any ListWriter,
        matches: (Int, UnsafeBufferPointer<UInt8>) -> Bool
    ) -> Bool {
        var rewriter = writer(ByteSink())
        do {
            try rewriter.begin(metadata: [])
            for item in items { try rewriter.itemTree(item, depth: 0) }
            if repeatingLast, let last = items.last { try rewriter.itemTree(last, depth: 0) }
            try rewriter.end()
        } catch {
            return false
        }
        guard let written = try? rewriter.finish(), written.warnings.isEmpty else { return false }
        return written.bytes.withUnsafeBufferPointer { text in
            let starts = marker.starts(in: text, before: text.count)
            guard starts.count == items.count + (repeatingLast ? 1 : 0) else { return false }
            for i in items.indices {
                let end = i + 1 < starts.count ? starts[i + 1] : text.count
                guard matches(i, UnsafeBufferPointer(rebasing: text[starts[i]..<end])) else { return false }
            }
            return true
        }
    }
}
