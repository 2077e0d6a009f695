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

    public init() {}

    /// A schema where the user names the key of some roles (`--field name=ToDo`); those keys
    /// are read and written for those roles.
    public init(naming roles: [ItemRole: String]) {
        for (role, key) in roles {
            named[key.lowercased()] = role
            keys[role] = key
        }
    }

    /// The role of a key, or nil for an ordinary field.
    func role(of key: String) -> ItemRole? {
        if !named.isEmpty, let role = named[key.lowercased()] { return role }
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

    /// The schema a file's existing items use: for each role the first key that holds it,
    /// and whether their checked flags are numbers. Keys the user named stay.
    func adopting(_ items: [FieldValue]) -> ItemSchema {
        var schema = self
        var seen: Set<ItemRole> = []
        var integers = 0, booleans = 0
        func visit(_ items: [FieldValue]) {
            for case .dictionary(let fields) in items {
                var name: String? = nil
                var checkedIsInteger: Bool? = nil
                for field in fields {
                    if schema.keyOrder[field.key] == nil { schema.keyOrder[field.key] = schema.keyOrder.count }
                    guard let role = role(of: field.key) else { continue }
                    if !seen.contains(role) {
                        seen.insert(role)
                        // A key the user named for the role stays the one written.
                        if !named.keys.contains(field.key.lowercased()) || schema.keys[role] == nil { schema.keys[role] = field.key }
                    }
                    switch (role, field.value) {
                    case (.name, .string(let s)): name = s
                    case (.checked, .integer): checkedIsInteger = true
                    case (.checked, .bool): checkedIsInteger = false
                    case (.children, .array(let children)): visit(children)
                    default: break
                    }
                }
                if let name, schema.keyOrderByName[name] == nil {
                    var order: [String: Int] = [:]
                    for (i, field) in fields.enumerated() where order[field.key] == nil { order[field.key] = i }
                    schema.keyOrderByName[name] = order
                }
                if let name, let checkedIsInteger {
                    if checkedIsInteger {
                        schema.integerChecked.insert(name)
                        integers += 1
                    } else {
                        schema.booleanChecked.insert(name)
                        booleans += 1
                    }
                }
            }
        }
        visit(items)
        // A file whose items have no checked key gets one only on done items.
        if !seen.contains(.checked) && !items.isEmpty { schema.keys[.checked] = nil }
        schema.checkedIsIntegerByDefault = integers > booleans
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
    func nodeCount(schema: ItemSchema) -> Int {
        switch self {
        case .value(let v): return v.nodeCount
        case .items(let items): return 1 + items.reduce(0) { $0 + Self.nodeCount(of: $1, schema: schema) }
        case .dictionary(let entries): return 1 + entries.reduce(0) { $0 + 1 + $1.value.nodeCount(schema: schema) }
        }
    }

    private static func nodeCount(of item: TodoItem, schema: ItemSchema) -> Int {
        // name, checked, status, section, fields, nested fields, children: keys and values.
        var count = 1 + 4 + 2 * item.fields.count
        if case .custom = item.status { count += 2 }
        if item.section != nil { count += 2 }
        for field in item.fields { count += field.value.nodeCount - 1 }
        count += 2  // a `fields` dictionary, when one is needed
        if !item.children.isEmpty {
            count += 2 + item.children.reduce(0) { $0 + nodeCount(of: $1, schema: schema) }
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
