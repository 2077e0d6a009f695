import Foundation

/// One key of an item object in an existing file, and what it gave the item when read.
struct ItemMember {
    enum Role: Hashable {
        case name, checked, status, section, children
        /// A `fields` dictionary: the item's fields in this range came from it.
        case nestedFields(Range<Int>)
        /// An ordinary field: the item's field at this index.
        case field(Int)
    }

    var key: String
    var role: Role
    /// The value as read (`.null` for children, which are items of their own).
    var value: FieldValue
}

/// Reads an item object key by key, keeping what each key gave the item, for a writer that
/// changes an existing item key by key (`ItemPatch`).
struct MemberReader {
    private var builder: ItemBuilder
    private(set) var members: [ItemMember] = []

    init(schema: ItemSchema, depth: Int) {
        builder = ItemBuilder(schema: schema, depth: depth)
    }

    /// Whether a key's value, if it is an array of item objects, is the item's children.
    mutating func takesChildren(_ key: String) -> Bool {
        var probe = builder
        return probe.role(of: key) == .children
    }

    /// A key holding the item's children.
    mutating func addChildren(_ key: String, _ children: [TodoItem]) {
        _ = builder.role(of: key)
        builder.setChildren(children)
        members.append(ItemMember(key: key, role: .children, value: .null))
    }

    /// Any other key; returns an error message when its value cannot play its role.
    mutating func add(_ key: String, _ value: FieldValue) -> String? {
        let role = builder.role(of: key)
        let before = builder.fieldCount
        if let message = builder.set(role, key: key, value: value) { return message }
        let memberRole: ItemMember.Role
        if let role, builder.holds(role) {
            switch role {
            case .name: memberRole = .name
            case .checked: memberRole = .checked
            case .status: memberRole = .status
            case .section: memberRole = .section
            case .fields: memberRole = .nestedFields(before..<builder.fieldCount)
            case .children, .order: memberRole = .field(before)
            }
        } else {
            memberRole = .field(before)
        }
        members.append(ItemMember(key: key, role: memberRole, value: value))
        return nil
    }

    func build() -> TodoItem? { builder.build() }
    var missingNameMessage: String { builder.missingNameMessage }
}

/// How an item's keys change when an item of an existing file is written as a new one: the
/// keys that stay as they are, the values that change (spelled as the file spells them),
/// the keys that go and those that come (where the file's key order puts them).
enum MemberEdit {
    case keep(Int)
    case replace(Int, FieldValue)
    /// The member's value becomes the item's children, written again.
    case replaceChildren(Int)
    case remove(Int)
    case insert(String, FieldValue)
    case insertChildren(String)

    /// The key an insert adds.
    var insertedKey: String? {
        switch self {
        case .insert(let key, _), .insertChildren(let key): key
        default: nil
        }
    }
}

enum ItemPatch {
    /// The members `edits` remove, by key: where the edits put such a key in again, the
    /// member moved (and its comments go with it).
    static func removedMembers(_ edits: [MemberEdit], _ members: [ItemMember]) -> [String: Int] {
        var removed: [String: Int] = [:]
        for case .remove(let i) in edits { removed[members[i].key] = i }
        return removed
    }

    /// The edits that turn `old` (read from `members`) into `new`. `childrenChanged` says
    /// whether the children must be written again; `now` stamps a completion date.
    /// `displaced` are the fields of `new` whose key a role's value takes (below): the
    /// patched item does not hold them, and the caller warns of them.
    static func edits(
        old: TodoItem, members: [ItemMember], new: TodoItem, childrenChanged: Bool, layout: ItemLayout, now: Date
    ) -> (edits: [MemberEdit], displaced: [Field]) {
        var edits: [MemberEdit?] = members.indices.map { .keep($0) }
        var inserts: [(key: String, value: FieldValue?)] = []
        func index(_ role: ItemMember.Role) -> Int? { members.firstIndex { $0.role == role } }
        let nameIndex = index(.name)
        let checkedIndex = index(.checked)
        let statusIndex = index(.status)
        let sectionIndex = index(.section)
        let childrenIndex = index(.children)
        let nestedIndex = members.firstIndex { if case .nestedFields = $0.role { true } else { false } }

        if let i = nameIndex, old.name != new.name { edits[i] = .replace(i, .string(new.name)) }

        var newFields = new.fields
        if old.status != new.status {
            if let i = statusIndex {
                let oldValue = members[i].value
                let isWord: Bool = {
                    guard case .string(let s) = oldValue, let status = ItemBuilder.status(fromWord: s) else {
                        return false
                    }
                    if case .custom = status { return false }
                    return true
                }()
                let key = members[i].key
                let holdsDoneness = layout.holdsDoneness(key)
                let always =
                    isWord || layout.statusWords != nil || (checkedIndex == nil && holdsDoneness)
                    || layout.schema.statusMap(of: key) != nil
                // A value of a key mapped to custom statuses alone that names no status (`idea`,
                // an integer no code names) says nothing of done-ness either.
                var isWordOrCode = false
                if case .string(let s) = oldValue { isWordOrCode = ItemBuilder.status(fromWord: s) != nil }
                let namesNothing =
                    layout.schema.statusMap(of: key).map { map in
                        map.namesCustomStatusesAlone && map[oldValue.description] == nil
                            && !isWordOrCode
                    } ?? false
                if (oldValue == .null
                    && (new.status == .open || (new.status == .done && (checkedIndex != nil || !holdsDoneness))))
                    || (namesNothing && checkedIndex != nil && (new.status == .open || new.status == .done))
                {
                    // A null status already says open (where the checked key said done), and
                    // beside a checked key, which says done, it says nothing against it: it stays.
                } else if let value = layout.statusValue(new.status, key: key, like: oldValue, always: always) {
                    if value != oldValue { edits[i] = .replace(i, value) }
                } else {
                    edits[i] = .remove(i)
                }
            }
            if let i = checkedIndex {
                let value = layout.checkedValue(new.status, key: members[i].key, like: members[i].value)
                if value != members[i].value { edits[i] = .replace(i, value) }
            }
            if statusIndex == nil, case .custom = new.status {
                let key = layout.schema.keys[.status] ?? "status"
                // One key for both roles (Things' `status` with codes for done and cancelled):
                // the checked member already holds the status; the key is never written twice.
                let checkedKey = checkedIndex.map { members[$0].key }
                if checkedIndex == nil, let mapped = layout.schema.keys[.checked],
                    layout.checkedKeyHolds(new.status, key: mapped)
                {
                    // An item without the checked key, whose codes hold the status, gets that key.
                    inserts.append((mapped, layout.checkedValue(new.status, key: mapped)))
                } else if layout.writesStatusKey(new.status, key: key, checkedKey: checkedKey) {
                    inserts.append((key, layout.statusValue(new.status, key: key, like: nil, always: true)))
                }
            }
            // A status key mapped to custom statuses alone (`phase:2=/`) holds no done-ness:
            // the item keeps it as it would keep no key, in a checked key it gets.
            let statusHoldsDoneness = statusIndex.map { layout.holdsDoneness(members[$0].key) } ?? false
            if !statusHoldsDoneness && checkedIndex == nil {
                if let f = newFields.firstIndex(where: { ItemSchema.isCompletionDateKey($0.key) }),
                    old.fields.contains(where: { ItemSchema.isCompletionDateKey($0.key) })
                {
                    // Done-ness kept as a completion date: checking stamps it, unchecking clears it.
                    newFields[f].value =
                        new.status == .done
                        ? completionStamp(like: newFields[f].value, key: newFields[f].key, layout: layout, now: now)
                        : .null
                } else if new.status == .done {
                    if let key = layout.schema.keys[.checked] {
                        inserts.append((key, layout.checkedValue(.done, key: key)))
                    } else if statusIndex == nil, layout.statusWords != nil, let key = layout.schema.keys[.status] {
                        inserts.append((key, layout.statusValue(.done, key: key, like: nil, always: true)))
                    } else {
                        inserts.append((layout.addedCheckedKey, .bool(true)))
                    }
                }
            }
        }

        if old.section != new.section {
            if let i = sectionIndex {
                edits[i] = new.section.map { .replace(i, .string($0)) } ?? .remove(i)
            } else if let section = new.section {
                inserts.append((layout.schema.keys[.section] ?? "section", .string(section)))
            }
        }

        // A role key the item gains that it already has as a field (a `status` whose word
        // todofmt could not read, as todo.yaml's `status: idea`) takes the new value in its
        // place, rather than coming again with the old value moved into a `fields` object
        // the app's file never had. The field is then lost, with a warning.
        var displaced: [Field] = []
        inserts.removeAll { insert in
            guard let value = insert.value,
                let i = members.indices.first(where: { i in
                    if case .field(let f) = members[i].role, case .keep? = edits[i] {
                        return old.fields[f].key == insert.key
                    }
                    return false
                }),
                let f = newFields.firstIndex(where: { $0.key == insert.key && $0.value == members[i].value })
            else { return false }
            edits[i] = .replace(i, value)
            displaced.append(newFields.remove(at: f))
            return true
        }

        // Fields: matched by key, in order of occurrence.
        let roleKeys = Set(members.filter { if case .field = $0.role { false } else { true } }.map(\.key))
            .union(inserts.map(\.key))
        let fieldsKey = nestedIndex.map { members[$0].key } ?? layout.schema.keys[.fields] ?? "fields"
        // A field stays where the file has it: a key of the item object stays one (even a
        // key todofmt would nest, like a `status` it could not read as the status), a key of
        // the `fields` object stays there. Only fields new to the item go where todofmt puts them.
        var topSlots: [String: Int] = [:]
        var nestedSlots: [String: Int] = [:]
        for member in members {
            switch member.role {
            case .field(let f): topSlots[old.fields[f].key, default: 0] += 1
            case .nestedFields(let range): for field in old.fields[range] { nestedSlots[field.key, default: 0] += 1 }
            default: break
            }
        }
        var top: [Field] = []
        var nested: [Field] = []
        // Where each goes: under `fields` or not, by the field's place in the new item.
        var isNested: [Bool] = []
        for field in newFields {
            if nestedIndex == nil, !nested.isEmpty {
                // A new `fields` object holds every field from its first on, as a new file's
                // writer writes it: read back, they come in their order.
                nested.append(field)
                isNested.append(true)
            } else if !roleKeys.contains(field.key), let n = topSlots[field.key], n > 0 {
                topSlots[field.key] = n - 1
                top.append(field)
                isNested.append(false)
            } else if nestedIndex != nil, let n = nestedSlots[field.key], n > 0 {
                nestedSlots[field.key] = n - 1
                nested.append(field)
                isNested.append(true)
            } else if layout.mustNest(field.key, besides: roleKeys) || field.key == fieldsKey {
                nested.append(field)
                isNested.append(true)
            } else {
                top.append(field)
                isNested.append(false)
            }
        }
        // The item's `fields` object is read where it stands: a field between two of its
        // fields in the new order goes under it too, and each other field before it or after
        // it as the new order has it (`topBefore`).
        var topBefore: [Bool] = []
        if nestedIndex != nil, let first = isNested.firstIndex(of: true), let last = isNested.lastIndex(of: true) {
            top = []
            nested = []
            for (f, field) in newFields.enumerated() {
                if f >= first && f <= last {
                    nested.append(field)
                } else {
                    top.append(field)
                    topBefore.append(f < first)
                }
            }
        }
        var pending: [String: [Int]] = [:]
        for (j, field) in top.enumerated() { pending[field.key, default: []].append(j) }
        // Each field member's field in the new item, by key in order of occurrence.
        var pairs: [(member: Int, field: Int)] = []
        for (i, member) in members.enumerated() {
            guard case .field(let f) = member.role, case .keep? = edits[i] else { continue }
            let key = old.fields[f].key
            guard var queue = pending[key], !queue.isEmpty else {
                edits[i] = .remove(i)
                continue
            }
            pairs.append((i, queue.removeFirst()))
            pending[key] = queue
        }
        // Fields the new item has in another order than the file: the longest run in order
        // stays, the others go and come again where the new order puts them.
        var matched = Set<Int>()
        var stays: [(member: Int, field: Int)] = []
        /// Whether a member that holds the new item's top field `j` stands on the side of the
        /// `fields` object the new order puts the field.
        func onItsSide(_ i: Int, _ j: Int) -> Bool {
            guard let n = nestedIndex, !topBefore.isEmpty else { return true }
            return topBefore[j] ? i < n : i > n
        }
        for (pair, inOrder) in zip(pairs, longestIncreasingRun(pairs.map { Optional($0.field) })) {
            let (i, j) = pair
            guard inOrder, onItsSide(i, j) else {
                edits[i] = .remove(i)
                continue
            }
            matched.insert(j)
            stays.append(pair)
            if top[j].value != members[i].value {
                // Property lists have no null: a field that becomes null goes.
                edits[i] = top[j].value == .null && layout.dropsNulls ? .remove(i) : .replace(i, top[j].value)
            }
        }
        // Each field inserted (by its index in `inserts`) goes between the fields that stay
        // before and after it in the new order.
        var fieldBounds: [Int: (after: Int, before: Int)] = [:]
        for (j, field) in top.enumerated() where !matched.contains(j) {
            var bounds = (
                after: stays.last { $0.field < j }?.member ?? -1,
                before: stays.first { $0.field > j }?.member ?? members.count
            )
            if let n = nestedIndex, !topBefore.isEmpty {
                if topBefore[j] { bounds.before = min(bounds.before, n) } else { bounds.after = max(bounds.after, n) }
            }
            fieldBounds[inserts.count] = bounds
            inserts.append((field.key, field.value))
        }
        if let i = nestedIndex {
            guard case .nestedFields(let range) = members[i].role else { fatalError() }
            if Array(old.fields[range]) != nested {
                edits[i] = nested.isEmpty ? .remove(i) : .replace(i, .dictionary(nested))
            }
        } else if !nested.isEmpty {
            // After the fields that stay (which come before it in the new order).
            fieldBounds[inserts.count] = (stays.last?.member ?? -1, members.count)
            inserts.append((fieldsKey, .dictionary(nested)))
        }

        if let i = childrenIndex {
            if childrenChanged { edits[i] = .replaceChildren(i) }
        } else if !new.children.isEmpty {
            let key = layout.schema.keys[.children] ?? "children"
            if let i = members.indices.first(where: { members[$0].key == key && members[$0].value == .null }) {
                // An empty `children` (null, a field until now) takes the children in its
                // place: a second key of that name would make the file hold it twice.
                edits[i] = .replaceChildren(i)
            } else {
                inserts.append((key, nil))
            }
        }

        // Each new key goes after the last key that the file's key order puts before it; a
        // field also after the fields before it in the new order and before those after it.
        var placed: [[MemberEdit]] = Array(repeating: [], count: members.count + 1)
        var lastField = -1
        for (n, insert) in inserts.enumerated() {
            if insert.value == .null && layout.dropsNulls { continue }
            let rank = layout.rank(of: insert.key)
            var after = -1
            for (i, member) in members.enumerated() {
                if case .remove? = edits[i] { continue }
                if layout.rank(of: member.key) <= rank { after = i }
            }
            if let bounds = fieldBounds[n] {
                after = min(max(after, bounds.after, lastField), bounds.before - 1)
                lastField = after
            }
            let edit: MemberEdit = insert.value.map { .insert(insert.key, $0) } ?? .insertChildren(insert.key)
            placed[after + 1].append(edit)
        }
        var result = placed[0]
        for i in members.indices {
            result.append(edits[i]!)
            result += placed[i + 1]
        }
        return (result, displaced)
    }

    /// The time of the write as a completion date, spelled like the key's values.
    private static func completionStamp(like old: FieldValue, key: String, layout: ItemLayout, now: Date) -> FieldValue
    {
        if case .string(let text) = old, let spelling = DateSpelling(of: text) { return .string(spelling.format(now)) }
        if let spelling = layout.dateSpellings[key] { return .string(spelling.format(now)) }
        if case .date = old { return .date(now) }
        return layout.dropsNulls ? .date(now) : .string(ISO8601.format(now))
    }
}
