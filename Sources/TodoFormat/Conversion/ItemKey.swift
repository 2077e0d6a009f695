/// What a key of an item object (JSON, YAML, property list) means to todofmt.
enum ItemKey {
    case name, checked, status, section, children, fields
    /// Any other key: an item field.
    case other

    /// The keys todofmt writes; a field whose own key is one of these goes under `fields`.
    static let reserved: Set<String> = ["name", "checked", "status", "section", "children", "fields"]

    init<C: Collection>(_ key: C) where C.Element == UInt8 {
        // Compared as bytes: this runs for every key of every item.
        switch key.count {
        case 4 where key.elementsEqual("name".utf8): self = .name
        case 6 where key.elementsEqual("status".utf8): self = .status
        case 6 where key.elementsEqual("fields".utf8): self = .fields
        case 7 where key.elementsEqual("checked".utf8): self = .checked
        case 7 where key.elementsEqual("section".utf8): self = .section
        case 8 where key.elementsEqual("children".utf8): self = .children
        default: self = .other
        }
    }

    /// A status from its text form: one character, or nil.
    static func status(from text: String) -> TodoStatus? {
        var scalars = text.unicodeScalars.makeIterator()
        guard let scalar = scalars.next(), scalars.next() == nil else { return nil }
        return TodoStatus(marker: scalar)
    }

    /// The item's status from its `checked` flag and optional `status` character: a custom status wins.
    static func status(checked: Bool, custom: TodoStatus?) -> TodoStatus {
        if case .custom = custom { return custom! }
        return checked ? .done : .open
    }
}
