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

    /// How deep the search for a list without `--key` goes into nested dictionaries.
    private static let searchDepth = 4

    /// Finds the list in a dictionary root: the one place (at the top, or in dictionaries
    /// nested up to four deep) whose value is an array of item dictionaries or data holding
    /// one, or the place `key` names: a key of the root, or a path of keys joined by `.`
    /// (`data.todos`) when no root key is spelled so.
    static func locate(
        in root: [Field], key: String?, schema: ItemSchema, path: String
    ) throws -> (place: ListPlace, items: [FieldValue]) {
        if let key {
            let keys = root[key: key] != nil ? [key] : key.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
            var fields = root
            for (i, component) in keys.enumerated() {
                guard let value = fields[key: component] else {
                    let at = i == 0 ? "" : " in '\(keys[..<i].joined(separator: "."))'"
                    throw ConversionError.noList(
                        path: path, reason: "there is no key '\(component)'\(at) (keys: \(fields.map(\.key).joined(separator: ", ")))")
                }
                if i < keys.count - 1 {
                    guard case .dictionary(let inner) = value else {
                        throw ConversionError.noList(
                            path: path, reason: "the value under '\(keys[...i].joined(separator: "."))' is not a dictionary")
                    }
                    fields = inner
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
            for field in fields {
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
        if candidates.isEmpty {
            let names = ItemSchema.synonyms[.name]!.joined(separator: ", ")
            throw ConversionError.noList(
                path: path,
                reason: "no todo list found: no key holds an array of items with a name (\(names)); "
                    + "keys: \(root.map(\.key).joined(separator: ", ")). Name the list with --key and the name field with --field name=KEY")
        }
        throw ConversionError.noList(
            path: path,
            reason: "several keys hold todo lists (\(candidates.map(\.0.keyPath).joined(separator: ", "))); pick one with --key")
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
        let bytes = Array(data)
        return bytes.withUnsafeBufferPointer { buffer -> [FieldValue]? in
            var scanner = JSONScanner(bytes: buffer, path: "")
            guard scanner.peek() == UInt8(ascii: "["), case .array(let items)? = try? scanner.value(),
                (try? scanner.expectEnd()) != nil
            else { return nil }
            return items
        }
    }
}

/// A list kept as the text of another format inside a value: the JSON bytes of a Codable
/// array in a UserDefaults data value. The format that reads that text provides it.
protocol EmbeddedListCodec: Sendable {
    /// The text of `items` (item values, with children), laid out like `old`.
    func encode(_ items: [TodoItem], layout: ItemLayout, like old: [UInt8]) -> [UInt8]

    /// `old` (the text of a list) with `items` written into it, changing only what changed;
    /// `name` names the value in messages. Returns the text and what it could not hold.
    func update(_ old: [UInt8], with items: [TodoItem], options: ListOptions, name: String) throws
        -> (bytes: [UInt8], warnings: [ConversionWarning])
}

/// A JSON or property list file's content around its list, to write a new list into.
struct ListContainer {
    /// The whole file as a value (an empty array when the root is the list).
    var root: FieldValue
    var place: ListPlace
    /// How its items are written.
    var layout: ItemLayout

    /// The container of a dictionary root, with the layout of the list found in it.
    init(dictionary fields: [Field], key: String?, schema: ItemSchema, path: String) throws {
        let (place, items) = try ListPlace.locate(in: fields, key: key, schema: schema, path: path)
        self.init(root: .dictionary(fields), place: place, layout: .learned(from: items, schema: schema))
    }

    init(root: FieldValue, place: ListPlace, layout: ItemLayout) {
        self.root = root
        self.place = place
        self.layout = layout
    }

    /// The file's content with the list in its place; a list kept as text is encoded by `embedded`.
    func replacing(with items: [TodoItem], embedded: EmbeddedListCodec?) -> OutputValue {
        guard case .dictionary(let fields) = root else { return .items(items) }
        let (keys, isData): ([String], Bool) =
            switch place {
            case .root: ([], false)
            case .key(let keys): (keys, false)
            case .jsonData(let keys): (keys, true)
            }
        func replace(_ fields: [Field], _ keys: ArraySlice<String>) -> OutputValue {
            .dictionary(
                fields.map { field in
                    guard field.key == keys.first else { return OutputEntry(field.key, .value(field.value)) }
                    if keys.count > 1, case .dictionary(let inner) = field.value {
                        return OutputEntry(field.key, replace(inner, keys.dropFirst()))
                    }
                    guard isData else { return OutputEntry(field.key, .items(items)) }
                    guard let embedded, case .data(let old) = field.value else { return OutputEntry(field.key, .value(field.value)) }
                    return OutputEntry(field.key, .value(.data(Data(embedded.encode(items, layout: layout, like: Array(old))))))
                })
        }
        return replace(fields, keys[...])
    }
}
