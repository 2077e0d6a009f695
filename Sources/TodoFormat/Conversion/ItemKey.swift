import Foundation

/// What a key of an item object (JSON, YAML, property list) means to todofmt.
enum ItemKey {
    case name, checked, status, section, children, fields
    /// Any other key: an item field.
    case other

    /// The keys todofmt writes; a field whose own key is one of these goes under `fields`.
    static let reserved: Set<String> = ["name", "checked", "status", "section", "children", "fields"]

    init(_ key: UnsafeBufferPointer<UInt8>) {
        // Compared as bytes: this runs for every key of every item.
        func equals(_ word: StaticString) -> Bool {
            key.count == word.utf8CodeUnitCount && memcmp(key.baseAddress!, word.utf8Start, key.count) == 0
        }
        switch key.count {
        case 4 where equals("name"): self = .name
        case 6 where equals("status"): self = .status
        case 6 where equals("fields"): self = .fields
        case 7 where equals("checked"): self = .checked
        case 7 where equals("section"): self = .section
        case 8 where equals("children"): self = .children
        default: self = .other
        }
    }

    init(_ key: String) {
        var key = key
        self = key.withUTF8 { ItemKey($0) }
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
