/// Builds list items from item objects of JSON, YAML and property lists, by their keys'
/// roles (FORMAT.md, section 7.1).
struct ItemBuilder {
    let schema: ItemSchema
    /// How deep the item is: only a top-level item (0) has a section (FORMAT.md, section 7.1).
    let depth: Int
    private(set) var name: String?
    /// Done-ness from a checked key, and a status from a status key (which wins).
    private var checked: Bool?
    private var custom: TodoStatus?
    private var section: String?
    private var fields: [Field] = []
    private var children: [TodoItem] = []
    /// The roles already taken, one bit each (a Set costs an allocation per item).
    private var taken: UInt8 = 0
    /// The item's keys, for the error when it has no name.
    private(set) var keys: [String] = []

    init(schema: ItemSchema, depth: Int) {
        self.schema = schema
        self.depth = depth
    }

    /// The role the next key plays: the first key of a role takes it, a later one is a field.
    mutating func role(of key: String) -> ItemRole? {
        // Kept only while there is no name yet: most items start with theirs.
        if name == nil { keys.append(key) }
        guard let role = schema.role(of: key), role != .order, taken & Self.bit(role) == 0 else { return nil }
        return role
    }

    /// The role of a key whose role is already known: nil when a key before it took the role.
    mutating func claim(_ role: ItemRole, key: String) -> ItemRole? {
        if name == nil { keys.append(key) }
        return taken & Self.bit(role) == 0 ? role : nil
    }

    /// Takes a key's value; returns an error message when the value cannot play its role.
    mutating func set(_ role: ItemRole?, key: String, value: FieldValue) -> String? {
        guard let role else {
            fields.append(Field(key, value))
            return nil
        }
        taken |= Self.bit(role)
        if role == .checked || role == .status, let map = schema.statusMap(of: key) {
            // The user said what the key's values mean; any other value is open, but for a
            // status key whose values the user mapped to custom statuses alone (`--field
            // status=phase:2=/`): another value there is read as an unmapped key's would be
            // (`done` is done), and one that is no status says nothing of done-ness, which
            // the checked key tells.
            let status: TodoStatus
            if let mapped = map[value.description] {
                status = mapped
            } else if role == .status && map.namesCustomStatusesAlone {
                guard case .string(let s) = value, let word = Self.status(fromWord: s) else {
                    // No status. What writers give such a key for none (null, 0) says
                    // nothing; any other value (`idea`, 5) is a field under its key, as an
                    // unmapped key's would be, so that no format it goes to loses it.
                    if Self.saysNothing(value) { return nil }
                    taken &= ~Self.bit(role)
                    fields.append(Field(key, value))
                    return nil
                }
                status = word
            } else {
                status = .open
            }
            if status == .done || status == .open { checked = status == .done } else { custom = status }
            return nil
        }
        switch (role, value) {
        case (.name, .string(let s)): name = s
        case (.name, _): return "an item's name ('\(key)') must be text"
        case (.checked, .bool(let b)): checked = b
        case (.checked, .integer(let i)): checked = i != 0
        case (.checked, .null): checked = false
        case (.checked, .string(let s)) where Self.truth(of: s) != nil: checked = Self.truth(of: s)
        // A null status (JSON's `null`, YAML's empty value) says no status: open, unless the
        // checked key says done.
        case (.status, .null): break
        case (.status, .string(let s)) where Self.status(fromWord: s) != nil:
            let status = Self.status(fromWord: s)!
            if case .custom = status { custom = status } else { checked = status == .done }
        case (.section, .string(let s)) where depth == 0: section = s
        case (.fields, .dictionary(let nested)): fields.append(contentsOf: nested)
        default:
            // A value that cannot play the role stays an ordinary field.
            taken &= ~Self.bit(role)
            fields.append(Field(key, value))
        }
        return nil
    }

    /// Whether a value of a status key mapped to custom statuses alone that no code names
    /// says nothing (null, the integer 0: what writers give such a key for no status);
    /// any other such value is a field.
    static func saysNothing(_ value: FieldValue) -> Bool { value == .null || value == .integer(0) }

    /// A checked flag written as text: YAML 1.1's words and their kin (`yes`, `on`, `true`,
    /// `y` and their opposites, in any case); an empty string is open. Nil for other text.
    static func truth(of text: String) -> Bool? {
        switch text.lowercased() {
        case "true", "yes", "y", "on", "1": true
        case "false", "no", "n", "off", "0", "": false
        default: nil
        }
    }

    /// A status written as a word: `done`, `completed`, `closed` or one character `x` is
    /// done; `open`, `todo`, `active`, `pending` or empty is open; any other one character
    /// is a custom status. Nil for other words, which stay a field.
    static func status(fromWord text: String) -> TodoStatus? {
        // One character, the common case, is no word: no lower-casing and comparing.
        if text.utf8.count <= 4, let status = status(from: text) { return status }
        switch text.lowercased() {
        case "done", "completed", "complete", "closed", "finished", "resolved": return .done
        case "open", "todo", "to do", "active", "pending", "": return .open
        default: return status(from: text)
        }
    }

    /// A role's bit in `taken` (and in a reader's set of keys seen).
    static func bit(_ role: ItemRole) -> UInt8 {
        switch role {
        case .name: 1
        case .checked: 2
        case .status: 4
        case .section: 8
        case .children: 16
        case .fields: 32
        case .order: 64
        }
    }

    /// Whether a key holds `role` now: after `set`, false when its value could not play it.
    func holds(_ role: ItemRole) -> Bool { taken & Self.bit(role) != 0 }

    /// How many fields the item has so far (a writer that patches a file maps keys to fields).
    var fieldCount: Int { fields.count }

    /// Forgets what an earlier occurrence of a key gave, for a mapping that gives the key
    /// again (YAML; JSON's reader reads such an object again without it): the field it
    /// became goes, or the role it took (`role`) is free again for the key's last value.
    mutating func forget(_ key: String, role: ItemRole?) {
        guard let role else {
            if let i = fields.lastIndex(where: { $0.key.sameKey(as: key) }) { fields.remove(at: i) }
            return
        }
        taken &= ~Self.bit(role)
        switch role {
        case .name: name = nil
        case .checked: checked = nil
        case .status: custom = nil
        case .section: section = nil
        case .children: children = []
        case .fields, .order: break
        }
    }

    mutating func setChildren(_ items: [TodoItem]) {
        taken |= Self.bit(.children)
        children = items
    }

    /// The item, or nil when it has no name. An item without a checked or status key is done
    /// when it has a completion date (`completed_at`…).
    func build() -> TodoItem? {
        guard let name else { return nil }
        return TodoItem(
            name: name, status: Self.status(checked: checked, custom: custom, fields: fields), fields: fields,
            children: children, section: section)
    }

    /// An item's status from what its keys said: a custom status wins, else done-ness from a
    /// checked or status key (`checked`, nil when none said), else done when a completion
    /// date is among its fields.
    static func status(checked: Bool?, custom: TodoStatus?, fields: [Field]) -> TodoStatus {
        if let custom { return custom }
        let done = checked ?? fields.contains { ItemSchema.isCompletionDateKey($0.key) && $0.value != .null }
        return done ? .done : .open
    }

    var missingNameMessage: String {
        "item has no name (its keys: \(keys.isEmpty ? "none" : keys.joined(separator: ", ")))"
    }

    /// A status from its text form: one character a checklist's box holds (a space, `x`, `X`
    /// or a custom status, `TodoStatus.isCustomMarker`), or nil. Any other character (`[`, a
    /// tab, U+200B) would make a line that is no task item: it stays a field.
    static func status(from text: String) -> TodoStatus? {
        var scalars = text.unicodeScalars.makeIterator()
        guard let scalar = scalars.next(), scalars.next() == nil,
            scalar == " " || scalar == "x" || scalar == "X" || TodoStatus.isCustomMarker(scalar)
        else { return nil }
        return TodoStatus(marker: scalar)
    }
}

extension ItemSchema {
    /// An item from a dictionary value; `fail` makes the error for a message.
    func item(from fields: [Field], depth: Int, fail: (String) -> ParseError) throws(ParseError) -> TodoItem {
        guard depth < Limits.itemLevels else { throw fail(Limits.itemDepthMessage) }
        var builder = ItemBuilder(schema: self, depth: depth)
        for field in fields {
            let role = builder.role(of: field.key)
            if role == .children, case .array(let values) = field.value,
                values.allSatisfy({ if case .dictionary = $0 { true } else { false } })
            {
                builder.setChildren(try items(from: values, depth: depth + 1, fail: fail))
                continue
            }
            if let message = builder.set(role, key: field.key, value: field.value) { throw fail(message) }
        }
        guard let item = builder.build() else { throw fail(builder.missingNameMessage) }
        return item
    }

    /// Items from an array of dictionaries, in array order.
    func items(from values: [FieldValue], depth: Int, fail: (String) -> ParseError) throws(ParseError) -> [TodoItem] {
        var items: [TodoItem] = []
        items.reserveCapacity(values.count)
        for (index, value) in values.enumerated() {
            guard case .dictionary(let fields) = value else {
                throw fail("item \(index + 1) is not a dictionary of keys and values")
            }
            items.append(try item(from: fields, depth: depth, fail: fail))
        }
        return items
    }
}
