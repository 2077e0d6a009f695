import Foundation

/// What a key of an item object (JSON, YAML, property list) means.
public enum ItemRole: String, CaseIterable, Hashable, Sendable {
    case name, checked, status, section, children, fields
    /// An order number (`orderID`, `position`…): kept as a field, and used to order the items.
    case order
}

/// Which keys of item objects hold the name, the checked flag and the rest, for reading
/// (by synonym, ignoring case, `_` and `-`, or as the user named them) and for writing (the
/// keys a file already uses, else todofmt's own). FORMAT.md, section 7.1.
public struct ItemSchema: Hashable, Sendable {
    /// The keys each role is known by, in the form `normalizedKey` gives (lower case,
    /// without `_` and `-`): `is_completed`, `isCompleted` and `IsCompleted` are one key.
    public static let synonyms: [ItemRole: [String]] = [
        .name: ["name", "title", "content", "text", "task"],
        .checked: [
            "checked", "done", "completed", "complete", "isdone", "iscompleted", "iscomplete", "finished", "isfinished",
        ],
        .status: ["status", "state"],
        .section: ["section"],
        .children: ["children", "subtasks"],
        .fields: ["fields"],
        .order: ["orderid", "order", "position", "sortorder", "displayorder", "sortindex"],
    ]

    /// Keys that hold when an item was completed: where an item has no checked or status
    /// key, a value under one of them (not null) means done. The key stays a field.
    static let completionDateKeys: Set<String> = [
        "completedat", "doneat", "finishedat", "completiondate", "datecompleted",
    ]

    /// A key as synonyms are compared: lower case, without `_` and `-`.
    static func normalizedKey(_ key: String) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(key.utf8.count)
        for b in key.utf8 where b != UInt8(ascii: "_") && b != UInt8(ascii: "-") {
            bytes.append(b >= 65 && b <= 90 ? b + 32 : b)
        }
        let ascii = String(decoding: bytes, as: UTF8.self)
        return key.utf8.allSatisfy { $0 < 0x80 } ? ascii : ascii.lowercased()
    }

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
    /// What the values of a key mean, where the user said (`--field checked=status:3`,
    /// `--field status=status:2=-`): by key in lower case, by value as text.
    private(set) var statusValues: [String: [String: TodoStatus]] = [:]
    /// Paths of child indexes (from 0) of the items an editing command moved (`todofmt mv`)
    /// in the list being written: renumbering order fields gives these items new numbers
    /// rather than their neighbours, where either would do (FORMAT.md, section 7.6).
    var moved: Set<[Int]> = []
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

    /// Says that `value` of `key` means `status`: `--field checked=status:3` is
    /// `mapping("3", of: "status", to: .done)`. Reading takes the value as that status, and
    /// writing an item of that status into the file writes the value. The key then plays the
    /// checked role (when one of its values means done) or the status role.
    public mutating func mapping(_ value: String, of key: String, to status: TodoStatus) {
        statusValues[key.lowercased(), default: [:]][value] = status
        let role: ItemRole = statusValues[key.lowercased()]!.values.contains(.done) ? .checked : .status
        for (other, r) in named where r == role && other != key.lowercased() { named[other] = nil }
        named[key.lowercased()] = role
        keys[role] = key
    }

    /// The statuses the user gave values of `key` (nil when none).
    /// Whether the user said what some key's values mean (`statusMap(of:)`).
    var mapsStatusValues: Bool { !statusValues.isEmpty }

    func statusMap(of key: String) -> [String: TodoStatus]? {
        statusValues.isEmpty ? nil : statusValues[key.lowercased()]
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

    /// The role of one of todofmt's own keys; nil for any other key.
    static func ownRole(of key: String) -> ItemRole? {
        // Keys are short: a small string's bytes are at hand without an allocation.
        key.utf8.withContiguousStorageIfAvailable { ownRole(of: $0) } ?? nil
    }

    /// Whether the user named this key for a role.
    func isNamed(_ key: String) -> Bool { !named.isEmpty && named[key.lowercased()] != nil }

    /// The role of a key, or nil for an ordinary field.
    func role(of key: String) -> ItemRole? {
        if !named.isEmpty, let role = named[key.lowercased()] { return role }
        // todofmt's own keys without hashing: most files use them.
        if let own = Self.ownRole(of: key) { return own }
        // Most keys are already lower case and short: look up as they are first.
        if let role = Self.synonymRoles[key] { return role }
        let normal = Self.normalizedKey(key)
        return normal == key ? nil : Self.synonymRoles[normal]
    }

    /// Whether a key holds a completion date (`completed_at`…).
    static func isCompletionDateKey(_ key: String) -> Bool {
        completionDateKeys.contains(normalizedKey(key))
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
}

extension Dictionary where Key == String, Value == TodoStatus {
    /// Whether a key's map (`ItemSchema.statusMap(of:)`) names custom statuses alone
    /// (`--field status=phase:2=/`): the key's other values then say nothing of done-ness
    /// but in words (`done`), as an unmapped key's.
    var namesCustomStatusesAlone: Bool { !values.contains { $0 == .done || $0 == .open } }
}
