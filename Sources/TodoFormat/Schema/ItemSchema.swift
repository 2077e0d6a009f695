import Foundation

/// What a key of an item object (JSON, YAML, property list) means.
public enum ItemRole: String, CaseIterable, Hashable, Sendable {
    case name, checked, status, section, children, fields
    /// An order number (`orderID`, `position`…): kept as a field, and used to order the items.
    case order
}

/// Which keys of item objects hold the name, the checked flag and the rest, for reading
/// (by synonym, ignoring case, or as the user named them) and for writing (the keys a file
/// already uses, else todofmt's own). FORMAT.md, section 7.1.
public struct ItemSchema: Hashable, Sendable {
    /// The keys each role is known by, in lower case.
    public static let synonyms: [ItemRole: [String]] = [
        .name: ["name", "title", "content", "text", "task"],
        .checked: ["checked", "done", "completed", "complete", "isdone", "iscompleted", "iscomplete"],
        .status: ["status"],
        .section: ["section"],
        .children: ["children", "subtasks"],
        .fields: ["fields"],
        .order: ["orderid", "order", "position", "sortorder", "displayorder"],
    ]

    private static let synonymRoles: [String: ItemRole] = {
        var roles: [String: ItemRole] = [:]
        for (role, keys) in synonyms { for key in keys { roles[key] = role } }
        return roles
    }()

    /// The key written for each role.
    public var keys: [ItemRole: String] = [
        .name: "name", .checked: "checked", .status: "status", .section: "section", .children: "children",
        .fields: "fields",
    ]
    /// Keys the user named for roles, in lower case; they win over synonyms.
    private var named: [String: ItemRole] = [:]
    /// Items whose checked flag this file writes as 0 or 1 rather than true or false.
    var integerChecked: Set<String> = []
    var booleanChecked: Set<String> = []
    var checkedIsIntegerByDefault = false
    /// Where each key stands in the file's items, so written items keep the file's key
    /// order: per item (by name) where the item was there, else across all items.
    var keyOrder: [String: Int] = [:]
    var keyOrderByName: [String: [String: Int]] = [:]

    /// todofmt's own keys: `name`, `checked`, `status`, `section`, `children`, `fields`.
    public static let standard = ItemSchema()

    /// todofmt's own keys, with every synonym recognised.
    public init() {}

    /// A schema where the user names the key of some roles (`--field name=ToDo`); those keys
    /// are read and written for those roles.
    public init(naming roles: [ItemRole: String]) {
        for (role, key) in roles {
            named[key.lowercased()] = role
            keys[role] = key
        }
    }

    /// Whether the user named no keys: todofmt's own keys then always mean their roles.
    var namesNoKeys: Bool { named.isEmpty }

    /// The role of one of todofmt's own keys, compared as bytes (this runs for every key
    /// of every item); nil for any other key.
    static func ownRole(of key: UnsafeBufferPointer<UInt8>) -> ItemRole? {
        func equals(_ word: StaticString) -> Bool {
            key.count == word.utf8CodeUnitCount && memcmp(key.baseAddress!, word.utf8Start, key.count) == 0
        }
        switch key.count {
        case 4 where equals("name"): return .name
        case 6 where equals("status"): return .status
        case 6 where equals("fields"): return .fields
        case 7 where equals("checked"): return .checked
        case 7 where equals("section"): return .section
        case 8 where equals("children"): return .children
        default: return nil
        }
    }

    /// Whether the user named this key for a role.
    func isNamed(_ key: String) -> Bool { !named.isEmpty && named[key.lowercased()] != nil }

    /// The role of a key, or nil for an ordinary field.
    func role(of key: String) -> ItemRole? {
        if !named.isEmpty, let role = named[key.lowercased()] { return role }
        // todofmt's own keys without hashing: most files use them.
        if let own = key.utf8.withContiguousStorageIfAvailable(Self.ownRole), let own { return own }
        // Most keys are already lower case and short: look up as they are first.
        if let role = Self.synonymRoles[key] { return role }
        let lower = key.lowercased()
        return lower == key ? nil : Self.synonymRoles[lower]
    }

    /// Whether a field must be written under the `fields` key: its key would be read back as
    /// a role that is not written before it (status, section, children, fields), or as the
    /// name or checked flag when the schema writes those under other keys.
    func mustNest(_ key: String) -> Bool {
        guard let role = role(of: key) else { return false }
        switch role {
        case .order: return false
        case .name, .checked: return keys[role] == nil
        default: return true
        }
    }

    /// The key/value pairs an item is written as, in order: name, checked, status, section,
    /// fields, nested fields, children.
    func entries(of item: TodoItem) -> [OutputEntry] {
        var entries: [OutputEntry] = []
        entries.reserveCapacity(3 + item.fields.count)
        entries.append(OutputEntry(keys[.name] ?? "name", .value(.string(item.name))))
        if let key = keys[.checked] ?? (item.isChecked ? "checked" : nil) {
            let integer =
                integerChecked.contains(item.name) || (checkedIsIntegerByDefault && !booleanChecked.contains(item.name))
            entries.append(OutputEntry(key, .value(integer ? .integer(item.isChecked ? 1 : 0) : .bool(item.isChecked))))
        }
        if case .custom(let scalar) = item.status {
            entries.append(OutputEntry(keys[.status] ?? "status", .value(.string(String(scalar)))))
        }
        if let section = item.section {
            entries.append(OutputEntry(keys[.section] ?? "section", .value(.string(section))))
        }
        var nested: [Field] = []
        for field in item.fields {
            // Property lists have no null: such a field is left out of them (see FORMAT.md).
            if mustNest(field.key) {
                nested.append(field)
            } else {
                entries.append(OutputEntry(field.key, .value(field.value)))
            }
        }
        if !nested.isEmpty { entries.append(OutputEntry(keys[.fields] ?? "fields", .value(.dictionary(nested)))) }
        if !item.children.isEmpty { entries.append(OutputEntry(keys[.children] ?? "children", .items(item.children))) }
        if !keyOrder.isEmpty {
            // Keys the file knows in its order; new ones after them, in todofmt's order.
            let order = keyOrderByName[item.name] ?? keyOrder
            let ranked = entries.enumerated().map { (rank: order[$0.element.key] ?? 1_000_000 + $0.offset, entry: $0.element) }
            entries = ranked.sorted { $0.rank < $1.rank }.map(\.entry)
        }
        return entries
    }

    /// The schema a file's existing items use (see `SchemaAdoption`).
    func adopting(_ items: [FieldValue]) -> ItemSchema {
        var adoption = SchemaAdoption(self)
        for case .dictionary(let fields) in items { adoption.adopt(fields) }
        return adoption.finish()
    }
}

/// Learns, item by item, the schema a file's existing items use: for each role the first
/// key that holds it, the order of keys, and whether checked flags are 0/1 or true/false.
/// Per-item details (an item whose key order or checked type differs from the file's) are
/// kept by name for up to `limit` items, so a huge file costs bounded memory.
struct SchemaAdoption {
    private(set) var schema: ItemSchema
    private var seen: Set<ItemRole> = []
    private var integers = 0, booleans = 0
    private var items = 0
    private let limit = 10_000

    init(_ base: ItemSchema) {
        schema = base
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
            previousRoles = previousKeys.map { schema.role(of: $0) }
            var lastRank = -1, lastClass = -1
            previousInOrder = true
            for (key, role) in zip(previousKeys, previousRoles) {
                let rank: Int
                if let known = schema.keyOrder[key] {
                    rank = known
                } else {
                    rank = schema.keyOrder.count
                    schema.keyOrder[key] = rank
                }
                if rank < lastRank { previousInOrder = false }
                lastRank = rank
                let kind = Self.classes[role] ?? 4
                if kind < lastClass { allCanonical = false }
                lastClass = kind
                if let role, !seen.contains(role) {
                    seen.insert(role)
                    // A key the user named for the role stays the one written.
                    if !schema.isNamed(key) || schema.keys[role] == nil { schema.keys[role] = key }
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
        if !previousInOrder && schema.keyOrderByName.count < limit && schema.keyOrderByName[name] == nil {
            var order: [String: Int] = [:]
            for (i, field) in fields.enumerated() where order[field.key] == nil { order[field.key] = i }
            schema.keyOrderByName[name] = order
        }
        switch checkedIsInteger {
        case true?:
            integers += 1
            if schema.integerChecked.count < limit { schema.integerChecked.insert(name) }
        case false?:
            booleans += 1
            if schema.booleanChecked.count < limit { schema.booleanChecked.insert(name) }
        case nil: break
        }
    }

    func finish() -> ItemSchema {
        var schema = self.schema
        // A file whose items have no checked key gets one only on done items.
        if !seen.contains(.checked) && items > 0 { schema.keys[.checked] = nil }
        schema.checkedIsIntegerByDefault = integers > booleans
        // Only the minority needs remembering.
        if schema.checkedIsIntegerByDefault { schema.integerChecked = [] } else { schema.booleanChecked = [] }
        // Keys already in the order todofmt writes them need no reordering.
        if allCanonical {
            schema.keyOrder = [:]
            schema.keyOrderByName = [:]
        }
        return schema
    }
}

/// A key and its value in an `OutputValue` dictionary.
struct OutputEntry {
    var key: String
    var value: OutputValue

    init(_ key: String, _ value: OutputValue) {
        self.key = key
        self.value = value
    }
}

/// What a writer writes: a value, or the list's items where they go in it.
indirect enum OutputValue {
    case value(FieldValue)
    case items([TodoItem])
    case dictionary([OutputEntry])

    /// How many objects the value holds, keys included: an upper bound for a binary
    /// property list's object count.
    var nodeCount: Int {
        switch self {
        case .value(let v): return v.nodeCount
        case .items(let items): return 1 + items.reduce(0) { $0 + Self.nodeCount(of: $1) }
        case .dictionary(let entries): return 1 + entries.reduce(0) { $0 + 1 + $1.value.nodeCount }
        }
    }

    private static func nodeCount(of item: TodoItem) -> Int {
        // name, checked, status, section, fields, nested fields, children: keys and values.
        var count = 1 + 4 + 2 * item.fields.count
        if case .custom = item.status { count += 2 }
        if item.section != nil { count += 2 }
        for field in item.fields { count += field.value.nodeCount - 1 }
        count += 2  // a `fields` dictionary, when one is needed
        if !item.children.isEmpty {
            count += 2 + item.children.reduce(0) { $0 + nodeCount(of: $1) }
        }
        return count
    }
}

extension FieldValue {
    /// How many property list objects the value is, keys included.
    var nodeCount: Int {
        switch self {
        case .array(let values): 1 + values.reduce(0) { $0 + $1.nodeCount }
        case .dictionary(let fields): 1 + fields.reduce(0) { $0 + 1 + $1.value.nodeCount }
        default: 1
        }
    }
}
