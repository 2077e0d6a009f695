@testable import TodoFormat

extension TodoList {
    /// The list with every field value (at any depth, inside arrays and dictionaries)
    /// replaced by `transform`'s result; nil drops the value. For the "what this format
    /// keeps" views of round-trip tests.
    func mappingValues(_ transform: (FieldValue) -> FieldValue?) -> TodoList {
        func value(_ v: FieldValue) -> FieldValue? {
            switch v {
            case .array(let a): return transform(.array(a.compactMap(value)))
            case .dictionary(let f):
                return transform(.dictionary(f.compactMap { f in value(f.value).map { Field(f.key, $0) } }))
            default: return transform(v)
            }
        }
        func item(_ i: TodoItem) -> TodoItem {
            var i = i
            i.fields = i.fields.compactMap { f in value(f.value).map { Field(f.key, $0) } }
            i.children = i.children.map(item)
            return i
        }
        return TodoList(metadata: metadata, items: items.map(item))
    }
}
