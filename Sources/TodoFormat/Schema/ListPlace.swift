import Foundation

/// Where a JSON or property list file keeps its list (FORMAT.md, section 7.5).
enum ListPlace: Hashable {
    /// The root is the array of items.
    case root
    /// The root is a dictionary; the items are the array under this key.
    case key(String)
    /// The root is a dictionary; the value under this key is data holding a JSON array of
    /// items (UserDefaults with Codable, docs/APP-SHAPES.md section 1).
    case jsonData(key: String)

    /// Finds the list in a dictionary root: the one key whose value is an array of item
    /// dictionaries or data holding one, or `key` when the user named it.
    static func locate(
        in root: [Field], key: String?, schema: ItemSchema, path: String
    ) throws -> (place: ListPlace, items: [FieldValue]) {
        if let key {
            guard let value = root[key: key] else {
                throw ConversionError.noList(
                    path: path, reason: "there is no key '\(key)' (keys: \(root.map(\.key).joined(separator: ", ")))")
            }
            switch value {
            case .array(let items): return (.key(key), items)
            case .data(let data):
                guard let items = jsonItems(in: data) else {
                    throw ConversionError.noList(path: path, reason: "the data under '\(key)' is not a JSON array")
                }
                return (.jsonData(key: key), items)
            default:
                throw ConversionError.noList(path: path, reason: "the value under '\(key)' is not a list of items")
            }
        }
        var candidates: [(ListPlace, [FieldValue])] = []
        for field in root {
            switch field.value {
            case .array(let items) where isItemList(items, schema: schema):
                candidates.append((.key(field.key), items))
            case .data(let data):
                if let items = jsonItems(in: data), isItemList(items, schema: schema) {
                    candidates.append((.jsonData(key: field.key), items))
                }
            default: break
            }
        }
        if candidates.count == 1 { return candidates[0] }
        if candidates.isEmpty {
            let names = ItemSchema.synonyms[.name]!.joined(separator: ", ")
            throw ConversionError.noList(
                path: path,
                reason: "no todo list found: no key holds an array of items with a name (\(names)); "
                    + "keys: \(root.map(\.key).joined(separator: ", ")). Name the list with --key and the name field with --field name=KEY")
        }
        let keys = candidates.map { if case .key(let k) = $0.0 { k } else if case .jsonData(let k) = $0.0 { k } else { "" } }
        throw ConversionError.noList(
            path: path, reason: "several keys hold todo lists (\(keys.joined(separator: ", "))); pick one with --key")
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
        return .dictionary(
            fields.map { field in
                switch place {
                case .key(let key) where key == field.key: return OutputEntry(field.key, .items(items))
                case .jsonData(let key) where key == field.key:
                    guard let embedded, case .data(let old) = field.value else { return OutputEntry(field.key, .value(field.value)) }
                    return OutputEntry(field.key, .value(.data(Data(embedded.encode(items, layout: layout, like: Array(old))))))
                default: return OutputEntry(field.key, .value(field.value))
                }
            })
    }
}
