/// How a file writes its items, learned from the items already in it: the key each role
/// uses, the order of keys, and whether checked flags are 0/1 or true/false. Writing into
/// that file follows it, so new and changed items look like the app's own.
struct ItemLayout: Hashable, Sendable {
    /// The roles' keys, as the user named them or as the file uses them.
    var schema: ItemSchema
    /// Items whose checked flag this file writes as 0 or 1 rather than true or false.
    var integerChecked: Set<String> = []
    var booleanChecked: Set<String> = []
    var checkedIsIntegerByDefault = false
    /// Where each key stands in the file's items, so written items keep the file's key
    /// order: per item (by name) where the item was there, else across all items.
    var keyOrder: [String: Int] = [:]
    var keyOrderByName: [String: [String: Int]] = [:]

    /// todofmt's own layout for a schema: its keys, true/false, todofmt's key order.
    init(_ schema: ItemSchema = .standard) {
        self.schema = schema
    }

    /// The key written for a role.
    var keys: [ItemRole: String] { schema.keys }

    /// The key/value pairs an item is written as, in order: name, checked, status, section,
    /// fields, nested fields, children.
    func entries(of item: TodoItem) -> [OutputEntry] {
        var entries: [OutputEntry] = []
        entries.reserveCapacity(3 + item.fields.count)
        entries.append(OutputEntry(schema.keys[.name] ?? "name", .value(.string(item.name))))
        if let key = schema.keys[.checked] ?? (item.isChecked ? "checked" : nil) {
            let integer =
                integerChecked.contains(item.name) || (checkedIsIntegerByDefault && !booleanChecked.contains(item.name))
            entries.append(OutputEntry(key, .value(integer ? .integer(item.isChecked ? 1 : 0) : .bool(item.isChecked))))
        }
        if case .custom(let scalar) = item.status {
            entries.append(OutputEntry(schema.keys[.status] ?? "status", .value(.string(String(scalar)))))
        }
        if let section = item.section {
            entries.append(OutputEntry(schema.keys[.section] ?? "section", .value(.string(section))))
        }
        var nested: [Field] = []
        for field in item.fields {
            // Property lists have no null: such a field is left out of them (see FORMAT.md).
            if schema.mustNest(field.key) {
                nested.append(field)
            } else {
                entries.append(OutputEntry(field.key, .value(field.value)))
            }
        }
        if !nested.isEmpty { entries.append(OutputEntry(schema.keys[.fields] ?? "fields", .value(.dictionary(nested)))) }
        if !item.children.isEmpty { entries.append(OutputEntry(schema.keys[.children] ?? "children", .items(item.children))) }
        if !keyOrder.isEmpty {
            // Keys the file knows in its order; new ones after them, in todofmt's order.
            let order = keyOrderByName[item.name] ?? keyOrder
            let ranked = entries.enumerated().map { (rank: order[$0.element.key] ?? 1_000_000 + $0.offset, entry: $0.element) }
            entries = ranked.sorted { $0.rank < $1.rank }.map(\.entry)
        }
        return entries
    }

    /// The layout a file's existing items use (see `Learner`).
    static func learned(from items: [FieldValue], schema: ItemSchema) -> ItemLayout {
        var learner = Learner(schema)
        for case .dictionary(let fields) in items { learner.adopt(fields) }
        return learner.finish()
    }
}

/// Learns, item by item, the layout a file's existing items use: for each role the first
/// key that holds it, the order of keys, and whether checked flags are 0/1 or true/false.
/// Per-item details (an item whose key order or checked type differs from the file's) are
/// kept by name for up to `limit` items, so a huge file costs bounded memory.
extension ItemLayout {
    struct Learner {
    private var layout: ItemLayout
    private var seen: Set<ItemRole> = []
    private var integers = 0, booleans = 0
    private var items = 0
    private let limit = 10_000

    init(_ schema: ItemSchema) {
        layout = ItemLayout(schema)
    }

    // Most items have the same keys as the one before: what was learned from it is reused.
    private var previousKeys: [String] = []
    private var previousRoles: [ItemRole?] = []
    private var previousInOrder = true
    /// Whether every item's keys stand in the order todofmt writes them.
    private var allCanonical = true
    private static let classes: [ItemRole?: Int] = [
        .name: 0, .checked: 1, .status: 2, .section: 3, nil: 4, .order: 4, .fields: 5, .children: 6,
    ]

    mutating func adopt(_ fields: [Field]) {
        items += 1
        if !(fields.count == previousKeys.count && zip(fields, previousKeys).allSatisfy { $0.key == $1 }) {
            previousKeys = fields.map(\.key)
            previousRoles = previousKeys.map { layout.schema.role(of: $0) }
            var lastRank = -1, lastClass = -1
            previousInOrder = true
            for (key, role) in zip(previousKeys, previousRoles) {
                let rank: Int
                if let known = layout.keyOrder[key] {
                    rank = known
                } else {
                    rank = layout.keyOrder.count
                    layout.keyOrder[key] = rank
                }
                if rank < lastRank { previousInOrder = false }
                lastRank = rank
                let kind = Self.classes[role] ?? 4
                if kind < lastClass { allCanonical = false }
                lastClass = kind
                if let role, !seen.contains(role) {
                    seen.insert(role)
                    // A key the user named for the role stays the one written.
                    if !layout.schema.isNamed(key) || layout.schema.keys[role] == nil { layout.schema.keys[role] = key }
                }
            }
        }
        var name: String? = nil
        var checkedIsInteger: Bool? = nil
        for (field, role) in zip(fields, previousRoles) {
            switch (role, field.value) {
            case (.name?, .string(let s)): name = s
            case (.checked?, .integer): checkedIsInteger = true
            case (.checked?, .bool): checkedIsInteger = false
            case (.children?, .array(let children)):
                let saved = (previousKeys, previousRoles, previousInOrder)
                for case .dictionary(let child) in children { adopt(child) }
                (previousKeys, previousRoles, previousInOrder) = saved
            default: break
            }
        }
        guard let name else { return }
        if !previousInOrder && layout.keyOrderByName.count < limit && layout.keyOrderByName[name] == nil {
            var order: [String: Int] = [:]
            for (i, field) in fields.enumerated() where order[field.key] == nil { order[field.key] = i }
            layout.keyOrderByName[name] = order
        }
        switch checkedIsInteger {
        case true?:
            integers += 1
            if layout.integerChecked.count < limit { layout.integerChecked.insert(name) }
        case false?:
            booleans += 1
            if layout.booleanChecked.count < limit { layout.booleanChecked.insert(name) }
        case nil: break
        }
    }

    func finish() -> ItemLayout {
        var layout = self.layout
        // A file whose items have no checked key gets one only on done items.
        if !seen.contains(.checked) && items > 0 { layout.schema.keys[.checked] = nil }
        layout.checkedIsIntegerByDefault = integers > booleans
        // Only the minority needs remembering.
        if layout.checkedIsIntegerByDefault { layout.integerChecked = [] } else { layout.booleanChecked = [] }
        // Keys already in the order todofmt writes them need no reordering.
        if allCanonical {
            layout.keyOrder = [:]
            layout.keyOrderByName = [:]
        }
        return layout
    }
}

}
