import Foundation

/// Where a JSON or property list file keeps its list (FORMAT.md, section 7.5).
enum ListPlace: Hashable {
    /// The root is the array of items.
    case root
    /// The root is a dictionary; the items are the array under this key.
    case key(String)
    /// The root is a dictionary; the value under this key is data holding a JSON array of
    /// items (UserDefaults with Codable, SHAPES.md section 1).
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

/// A JSON or property list file's content around its list, to write a new list into.
struct ListContainer {
    /// The whole file as a value.
    var root: FieldValue
    var place: ListPlace
    /// The format the file is in (a `.plist` may be XML or binary).
    var format: DocumentFormat
    /// The keys its items use.
    var schema: ItemSchema

    /// Reads an existing output file; nil when it holds no list todofmt can update in place.
    /// An array root is read one item at a time, only to learn its schema.
    static func read(_ path: String, key: String?, schema: ItemSchema) throws -> ListContainer? {
        let bytes = try InputFile.read(path)
        guard let format = DocumentFormat(content: bytes), format == .json || format.isPropertyList else { return nil }
        let arraySchema = try bytes.withUnsafeBufferPointer { buffer throws(ParseError) -> ItemSchema? in
            var adoption = SchemaAdoption(schema)
            func adopt(_ value: FieldValue) {
                if case .dictionary(let fields) = value { adoption.adopt(fields) }
            }
            switch format {
            case .json:
                var scanner = JSONScanner(bytes: buffer, path: path)
                guard scanner.peek() == UInt8(ascii: "[") else { return nil }
                scanner.position += 1
                var first = true
                while try scanner.nextElement(close: UInt8(ascii: "]"), first: &first) { adopt(try scanner.value()) }
                try scanner.expectEnd()
            case .bplist:
                let reader = try BinaryPropertyListReader(bytes: buffer, path: path)
                guard let elements = try reader.arrayElements(reader.topObject) else { return nil }
                for element in elements { adopt(try reader.value(element)) }
            default:
                var reader = XMLPropertyListReader(bytes: buffer, path: path)
                let tag = try reader.openPlist()
                guard tag.is("array") && !tag.isClosing else { return nil }
                if !tag.isEmpty {
                    while true {
                        let next = try reader.nextTag()
                        if next.isClosing && next.is("array") { break }
                        adopt(try reader.value(next))
                    }
                }
                try reader.closePlist()
            }
            return adoption.finish()
        }
        if let arraySchema {
            return ListContainer(root: .array([]), place: .root, format: format, schema: arraySchema)
        }
        let root = try PropertyListValue.read(bytes, format: format, path: path)
        guard case .dictionary(let fields) = root else { return nil }
        let (place, items) = try ListPlace.locate(in: fields, key: key, schema: schema, path: path)
        return ListContainer(root: root, place: place, format: format, schema: schema.adopting(items))
    }

    /// The file's content with the list in its place.
    func replacing(with items: [TodoItem]) -> OutputValue {
        guard case .dictionary(let fields) = root else { return .items(items) }
        return .dictionary(
            fields.map { field in
                switch place {
                case .key(let key) where key == field.key: return OutputEntry(field.key, .items(items))
                case .jsonData(let key) where key == field.key:
                    // The list as JSON bytes laid out as the app wrote them, with the keys its items use.
                    var sink = ByteSink()
                    var writer = JSONListWriter(schema: schema)
                    TodoList(items: items).write(to: &writer, sink: &sink)
                    var style = JSONStyle(of: [])
                    if case .data(let old) = field.value { style = JSONStyle(of: Array(old)) }
                    var json = style.apply(to: sink.buffer)
                    if style.layout != .lines, json.last == 10 { json.removeLast() }
                    return OutputEntry(field.key, .value(.data(Data(json))))
                default: return OutputEntry(field.key, .value(field.value))
                }
            })
    }
}

/// Whole JSON and property list files as values.
enum PropertyListValue {
    static func read(_ bytes: [UInt8], format: DocumentFormat, path: String) throws(ParseError) -> FieldValue {
        try bytes.withUnsafeBufferPointer { buffer throws(ParseError) -> FieldValue in
            switch format {
            case .bplist:
                let reader = try BinaryPropertyListReader(bytes: buffer, path: path)
                return try reader.value(reader.topObject)
            case .plist:
                var reader = XMLPropertyListReader(bytes: buffer, path: path)
                let value = try reader.value(try reader.openPlist())
                try reader.closePlist()
                return value
            default:
                var scanner = JSONScanner(bytes: buffer, path: path)
                if scanner.peek() == 0 { throw scanner.error("empty file: expected JSON") }
                let value = try scanner.value()
                try scanner.expectEnd()
                return value
            }
        }
    }
}
