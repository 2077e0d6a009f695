import Foundation

/// Where a JSON, YAML or property list file keeps its list (FORMAT.md, section 7.5).
enum ListPlace: Hashable {
    /// The root is the array of items.
    case root
    /// The root is a dictionary; the items are the array at this key path (`["data",
    /// "todos"]` for `--key data.todos`).
    case key([String])
    /// The root is a dictionary; the value at this key path is data holding a JSON array
    /// of items (UserDefaults with Codable, docs/APP-SHAPES.md section 1).
    case jsonData([String])

    /// The key path, shown as the user writes it: `data.todos`.
    var keyPath: String {
        switch self {
        case .root: ""
        case .key(let path), .jsonData(let path): path.joined(separator: ".")
        }
    }

    /// The keys of a dictionary root beside the list at this place, as paths (`version`,
    /// `data.count`), in the file's order: what a conversion of the list leaves out.
    func keysBeside(in root: [Field]) -> [String] {
        let path: [String]
        switch self {
        case .root: return []
        case .key(let keys), .jsonData(let keys): path = keys
        }
        var beside: [String] = []
        var fields = root
        for (depth, key) in path.enumerated() {
            let prefix = path[..<depth].map { $0 + "." }.joined()
            for field in fields where field.key != key { beside.append(prefix + field.key) }
            guard depth + 1 < path.count, case .dictionary(let inner)? = fields.lastOfEachKey()[key: key] else { break }
            fields = inner
        }
        return beside
    }

    /// How deep the search for a list without `--key` goes into nested dictionaries.
    private static let searchDepth = 4

    /// Finds the list in a dictionary root: the one place (at the top, or in dictionaries
    /// nested up to four deep) whose value is an array of item dictionaries or data holding
    /// one, or the place `key` names: a key of the root, or a path of keys joined by `.`
    /// (`data.todos`) when no root key is spelled so.
    static func locate(
        in root: [Field], key: String?, schema: ItemSchema, path: String
    ) throws -> (place: ListPlace, items: [FieldValue]) {
        // A key given twice has its last value, as apps' readers take it.
        let root = root.lastOfEachKey()
        if let key {
            let keys =
                root[key: key] != nil
                ? [key] : key.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
            var fields = root
            for (i, component) in keys.enumerated() {
                guard let value = fields[key: component] else {
                    let at = i == 0 ? "" : " in '\(keys[..<i].joined(separator: "."))'"
                    throw ConversionError.noList(
                        path: path,
                        reason:
                            "there is no key '\(component)'\(at) (keys: \(fields.map(\.key).joined(separator: ", ")))")
                }
                if i < keys.count - 1 {
                    guard case .dictionary(let inner) = value else {
                        throw ConversionError.noList(
                            path: path,
                            reason: "the value under '\(keys[...i].joined(separator: "."))' is not a dictionary")
                    }
                    fields = inner.lastOfEachKey()
                    continue
                }
                switch value {
                case .array(let items): return (.key(keys), items)
                case .data(let data):
                    guard let items = jsonItems(in: data) else {
                        throw ConversionError.noList(path: path, reason: "the data under '\(key)' is not a JSON array")
                    }
                    return (.jsonData(keys), items)
                default: break
                }
            }
            throw ConversionError.noList(path: path, reason: "the value under '\(key)' is not a list of items")
        }
        var candidates: [(ListPlace, [FieldValue])] = []
        func search(_ fields: [Field], _ prefix: [String]) {
            for field in fields.lastOfEachKey() {
                let keys = prefix + [field.key]
                switch field.value {
                case .array(let items) where isItemList(items, schema: schema):
                    candidates.append((.key(keys), items))
                case .data(let data):
                    if let items = jsonItems(in: data), isItemList(items, schema: schema) {
                        candidates.append((.jsonData(keys), items))
                    }
                case .dictionary(let inner) where keys.count < searchDepth:
                    search(inner, keys)
                default: break
                }
            }
        }
        search(root, [])
        if candidates.count == 1 { return candidates[0] }
        if candidates.isEmpty, let emptied = emptyList(in: root) { return emptied }
        if candidates.isEmpty {
            let names = ItemSchema.synonyms[.name]!.joined(separator: ", ")
            throw ConversionError.noList(
                path: path,
                reason: "no todo list found: no key holds an array of items with a name (\(names)); "
                    + "keys: \(root.map(\.key).joined(separator: ", ")). Name the list with --key and the name field with --field name=KEY"
            )
        }
        throw ConversionError.noList(
            path: path,
            reason:
                "several keys hold todo lists (\(candidates.map(\.0.keyPath).joined(separator: ", "))); pick one with --key"
        )
    }

    /// A list emptied of its items (a UserDefaults `tasks` array after every task was
    /// deleted): the one place, searched as a list is, whose value is an empty array, or
    /// data holding one; nil when there is none or several.
    private static func emptyList(in root: [Field]) -> (place: ListPlace, items: [FieldValue])? {
        var found: [(ListPlace, [FieldValue])] = []
        func search(_ fields: [Field], _ prefix: [String]) {
            for field in fields.lastOfEachKey() {
                let keys = prefix + [field.key]
                switch field.value {
                case .array(let items) where items.isEmpty: found.append((.key(keys), []))
                case .data(let data) where data.count < 16:
                    if let items = jsonItems(in: data), items.isEmpty { found.append((.jsonData(keys), [])) }
                case .dictionary(let inner) where keys.count < searchDepth:
                    search(inner, keys)
                default: break
                }
            }
        }
        search(root, [])
        return found.count == 1 ? found[0] : nil
    }

    /// An array whose elements are all dictionaries, at least one with a name key.
    static func isItemList(_ values: [FieldValue], schema: ItemSchema) -> Bool {
        var named = false
        for value in values {
            guard case .dictionary(let fields) = value else { return false }
            if !named { named = fields.contains { schema.role(of: $0.key) == .name } }
        }
        return named
    }

    /// The array a data value holds as JSON, or nil.
    static func jsonItems(in data: Data) -> [FieldValue]? {
        guard case .array(let items)? = JSONScanner.wholeValue(of: Array(data)) else { return nil }
        return items
    }

}

/// A list kept as the text of another format inside a value: the JSON bytes of a Codable
/// array in a UserDefaults data value. The format that reads that text provides it.
protocol EmbeddedListCodec: Sendable {
    /// `old` (the text of a list) with `items` written into it, changing only what changed;
    /// `name` names the value in messages. Returns the text and what it could not hold.
    func update(_ old: [UInt8], with items: [TodoItem], options: ListOptions, name: String) throws
        -> (bytes: [UInt8], warnings: [ConversionWarning])
}
