/// What changed from one todo list to another, item by item: what `todofmt diff` prints.
///
/// Items are paired as a write-back pairs them (`ItemAlignment`): by an identity field
/// (`id`, `uuid`, `guid`) where every item has one, else by equal content, keeping the
/// longest run still in order; items out of that run moved, and between two items of the
/// run the remaining items pair in order as changed. The lists may come from any formats.
public struct ListDiff: Hashable, Sendable {
    /// One change, with the item's position as `todofmt list` prints it.
    public struct Change: Hashable, Sendable, CustomStringConvertible {
        /// What changed.
        public enum Kind: String, Hashable, Sendable, CaseIterable {
            /// A new item (`item` is it, without its nested items, which are changes of their own).
            case added
            /// An item that is gone; `position` is where it stood in the old list.
            case removed
            /// An item that became done.
            case checked
            /// A done item that is no longer done.
            case unchecked
            /// Any other change of the box (`[ ]` to `[/]`, `[-]` to `[x]`…): `oldStatus` to `item.status`.
            case status
            /// The item's text changed from `oldName`.
            case renamed
            /// The item stands elsewhere: `oldPosition` to `position` (its nested items go with it).
            case moved
            /// A field added, removed or changed: `key`, `oldValue` to `newValue` (nil: none).
            case field
            /// The item stands under another heading: `oldSection` to `item.section`.
            case section
            /// A field of the list's metadata (front matter): `key`, `oldValue` to `newValue`.
            case metadata
        }

        /// What changed.
        public var kind: Kind
        /// The item's position in the new list (in the old list for a removed item); empty for metadata.
        public var position: String
        /// The item as it is now (as it was, for a removed item), without nested items.
        public var item: TodoItem?
        /// For a move, its position in the old list.
        public var oldPosition: String?
        /// For a rename, the name it had.
        public var oldName: String?
        /// For a status change, the status it had.
        public var oldStatus: TodoStatus?
        /// For a section change, the section it was in.
        public var oldSection: String?
        /// The field's (or metadata's) key, and its values before and after (nil: not there).
        public var key: String?
        /// The value before (nil: the field was not there).
        public var oldValue: FieldValue?
        /// The value after (nil: the field is gone).
        public var newValue: FieldValue?

        init(_ kind: Kind, _ position: String, _ item: TodoItem?) {
            self.kind = kind
            self.position = position
            self.item = item
        }

        /// The change as one line (README, "diff"): `checked 2: Eggs`, `moved 1 (was 3): Milk`,
        /// `field 4 qty: 3 (was 2)`, `added 5: [ ] Bread`.
        public var description: String {
            let name = (item?.name ?? "").onOneLine
            func text(_ value: FieldValue?) -> String {
                value.map { $0.description.onOneLine } ?? "none"
            }
            switch kind {
            case .added, .removed: return "\(kind.rawValue) \(position): \(item?.checklistText ?? "")"
            case .checked, .unchecked: return "\(kind.rawValue) \(position): \(name)"
            case .status:
                let was = oldStatus.map { "[" + String($0.marker) + "]" } ?? "[ ]"
                return "status \(position): [\(String(item?.status.marker ?? " "))] \(name) (was \(was))"
            case .renamed:
                return "renamed \(position): \(name) (was \((oldName ?? "").onOneLine))"
            case .moved: return "moved \(position) (was \(oldPosition ?? "?")): \(name)"
            case .field: return "field \(position) \(key ?? ""): \(text(newValue)) (was \(text(oldValue)))"
            case .section: return "section \(position): \(item?.section ?? "none") (was \(oldSection ?? "none"))"
            case .metadata: return "metadata \(key ?? ""): \(text(newValue)) (was \(text(oldValue)))"
            }
        }
    }

    /// The changes: the metadata's first, then removed items in their old order, then the
    /// new list's items in order, each item's changes in the order of `Kind`.
    public var changes: [Change]

    /// Whether the lists hold the same items, in the same places, and the same metadata.
    public var isEmpty: Bool { changes.isEmpty }

    /// The changes that make `old` into `new`.
    public init(from old: TodoList, to new: TodoList) {
        changes = Self.fieldChanges(old.metadata, new.metadata).map { key, before, after in
            var change = Change(.metadata, "", nil)
            change.key = key
            change.oldValue = before
            change.newValue = after
            return change
        }
        var oldEntries = ItemAlignment.entries(of: old.items)
        var newEntries = ItemAlignment.entries(of: new.items)
        let read = (old: Self.makeComparable(&oldEntries), new: Self.makeComparable(&newEntries))
        let pairing = ItemPairing(old: oldEntries, new: newEntries)
        changes += Self.itemChanges(pairing, read: read)
    }

    /// Makes each entry as `comparable(_:)` makes it, in place; returns the items as read of
    /// those it changed, by place. (A comparable copy of every entry, beside the entries as
    /// read, was a fifth of a large `diff`'s memory.)
    static func makeComparable(_ entries: inout [ItemAlignment.Entry]) -> [Int: TodoItem] {
        var read: [Int: TodoItem] = [:]
        for i in entries.indices where hasDate(entries[i]) {
            read[i] = entries[i].item
            entries[i] = comparable(entries[i])
        }
        return read
    }

    private static func hasDate(_ entry: ItemAlignment.Entry) -> Bool {
        entry.item.fields.contains { if case .date = $0.value { true } else { false } }
    }

    /// An entry as lists of different formats are compared: a date and the same date written
    /// as text (a JSON or YAML string) are the same value.
    static func comparable(_ entry: ItemAlignment.Entry) -> ItemAlignment.Entry {
        guard hasDate(entry) else { return entry }
        var entry = entry
        entry.item.fields = entry.item.fields.map { Field($0.key, comparable($0.value)) }
        return entry
    }

    static func comparable(_ value: FieldValue) -> FieldValue {
        if case .date = value { return .string(value.description) }
        return value
    }

    /// The changes of the items `pairing` pairs: parts of longer lists (from `oldStart` and
    /// `newStart` on), whose items' depths are `oldDepths` and `newDepths` when given.
    /// `pairing` pairs the entries as `comparable` makes them; `read` holds the items as read
    /// of those it changed (`makeComparable`).
    static func itemChanges(
        _ pairing: ItemPairing, read: (old: [Int: TodoItem], new: [Int: TodoItem]), oldStart: Int = 0,
        newStart: Int = 0, oldDepths: [UInt8]? = nil, newDepths: [UInt8]? = nil
    ) -> [Change] {
        let old = { (o: Int) in read.old[o] ?? pairing.old[o].item }
        let new = { (n: Int) in read.new[n] ?? pairing.new[n].item }
        var changed: [(n: Int, moved: Bool)] = []
        var newIndexes = Set<Int>()
        var oldIndexes = Set<Int>()
        for n in pairing.new.indices {
            guard let o = pairing.source[n] else {
                changed.append((n, false))
                newIndexes.insert(n)
                continue
            }
            let moved = pairing.moved(n)
            if moved || pairing.old[o] != pairing.new[n] {
                changed.append((n, moved))
                newIndexes.insert(n)
                if moved { oldIndexes.insert(o) }
            }
        }
        let removed = pairing.old.indices.filter { pairing.target[$0] == nil }
        oldIndexes.formUnion(removed)
        func table(_ indexes: Set<Int>, _ start: Int, _ depths: [UInt8]?, _ entries: [ItemAlignment.Entry])
            -> PositionTable
        {
            guard let depths else { return PositionTable(entries, at: indexes) }
            return PositionTable(depths: depths.lazy.map(Int.init), sorted: indexes.map { $0 + start }.sorted())
        }
        let newPositions = table(newIndexes, newStart, newDepths, pairing.new)
        let oldPositions = table(oldIndexes, oldStart, oldDepths, pairing.old)
        let oldShift = oldDepths == nil ? 0 : oldStart
        let newShift = newDepths == nil ? 0 : newStart
        var changes: [Change] = removed.map { Change(.removed, oldPositions[$0 + oldShift], old($0)) }
        for (n, moved) in changed {
            let item = new(n)
            let position = newPositions[n + newShift]
            guard let o = pairing.source[n] else {
                changes.append(Change(.added, position, item))
                continue
            }
            let before = old(o)
            if moved {
                var change = Change(.moved, position, item)
                change.oldPosition = oldPositions[o + oldShift]
                changes.append(change)
            }
            if before.nameStorage != item.nameStorage {
                var change = Change(.renamed, position, item)
                change.oldName = before.name
                changes.append(change)
            }
            if let change = statusChange(from: before.status, of: item, at: position) { changes.append(change) }
            if before.section != item.section {
                var change = Change(.section, position, item)
                change.oldSection = before.section
                changes.append(change)
            }
            for (key, was, now) in fieldChanges(before.fields, item.fields) {
                var change = Change(.field, position, item)
                change.key = key
                change.oldValue = was
                change.newValue = now
                changes.append(change)
            }
        }
        return changes
    }

    /// The change of `item`'s status from `before`, at `position`; nil where it is the same.
    static func statusChange(from before: TodoStatus, of item: TodoItem, at position: String) -> Change? {
        guard before != item.status else { return nil }
        let kind: Change.Kind =
            item.status == .done && before == .open
            ? .checked : item.status == .open && before == .done ? .unchecked : .status
        var change = Change(kind, position, item)
        if kind == .status { change.oldStatus = before }
        return change
    }

    /// The keys whose values differ, in the new fields' order then the removed ones'.
    static func fieldChanges(_ old: [Field], _ new: [Field]) -> [(String, FieldValue?, FieldValue?)] {
        guard old != new else { return [] }
        var result: [(String, FieldValue?, FieldValue?)] = []
        var seen = Set<String>()
        for field in new where seen.insert(field.key).inserted {
            let was = old[key: field.key]
            if was.map(comparable) != comparable(field.value) { result.append((field.key, was, field.value)) }
        }
        for field in old where !seen.contains(field.key) && seen.insert(field.key).inserted {
            result.append((field.key, field.value, nil))
        }
        return result
    }
}
