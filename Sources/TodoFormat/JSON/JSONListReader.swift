/// Reads the plain JSON shape: `[{"name": "…", "checked": false, "children": […]}, …]`.
enum JSONListReader {
    static func read(_ bytes: UnsafeBufferPointer<UInt8>, path: String) throws(ParseError) -> TodoList {
        try TreeBuilder.build { (tree, sink) throws(ParseError) in try read(bytes, path: path, to: &tree, sink: &sink) }
    }

    /// Reads the list and hands it to `writer` one top-level item (with its children) at a time.
    static func read<W: ListWriter>(
        _ bytes: UnsafeBufferPointer<UInt8>, path: String, to writer: inout W, sink: inout ByteSink
    ) throws(ParseError) {
        var scanner = JSONScanner(bytes: bytes, path: path)
        guard scanner.peek() == UInt8(ascii: "[") else {
            if scanner.peek() == 0 { throw scanner.error("empty file: expected a JSON array of items") }
            throw scanner.error("expected a JSON array of items")
        }
        writer.begin(metadata: [], to: &sink)
        scanner.position += 1
        var first = true
        while try scanner.nextElement(close: UInt8(ascii: "]"), first: &first) {
            writer.itemTree(try readItem(&scanner, depth: 0), depth: 0, to: &sink)
        }
        try scanner.expectEnd()
        writer.end(to: &sink)
    }

    /// An array of item objects.
    static func readItems(_ scanner: inout JSONScanner, depth: Int) throws(ParseError) -> [TodoItem] {
        guard depth < 256 else { throw scanner.error("items nested too deep") }
        try scanner.expect(UInt8(ascii: "["), "'['")
        var items: [TodoItem] = []
        var first = true
        while try scanner.nextElement(close: UInt8(ascii: "]"), first: &first) {
            items.append(try readItem(&scanner, depth: depth))
        }
        return items
    }

    static func readItem(_ scanner: inout JSONScanner, depth: Int) throws(ParseError) -> TodoItem {
        let start = scanner.position
        guard scanner.peek() == UInt8(ascii: "{") else { throw scanner.unexpected(expecting: "an item object") }
        scanner.position += 1
        var name: String? = nil
        var checked = false
        var custom: TodoStatus? = nil
        var section: String? = nil
        var fields: [Field] = []
        var children: [TodoItem] = []
        var first = true
        while try scanner.nextElement(close: UInt8(ascii: "}"), first: &first) {
            let keyStart = scanner.position
            let rawKey = try scanner.rawString()
            let kind: ItemKey
            var key: String
            if let rawKey {
                kind = ItemKey(rawKey)
                key = ""
                if kind == .other { key = String(decoding: rawKey, as: UTF8.self) }
            } else {
                scanner.position = keyStart
                key = try scanner.string()
                kind = ItemKey(key)
            }
            try scanner.expect(UInt8(ascii: ":"), "':'")
            scanner.skipWhitespace()
            let valueStart = scanner.position
            switch kind {
            case .name:
                guard scanner.peek() == UInt8(ascii: "\"") else { throw scanner.error("an item's name must be a string") }
                name = try scanner.string()
            case .checked:
                switch try scanner.value() {
                case .bool(let b): checked = b
                case .integer(let i): checked = i != 0
                case .null: checked = false
                default: throw scanner.error("'checked' must be true or false", at: valueStart)
                }
            case .status:
                let value = try scanner.value()
                if case .string(let s) = value, let status = ItemKey.status(from: s) {
                    custom = status
                } else {
                    fields.append(Field("status", value))
                }
            case .section:
                let value = try scanner.value()
                if case .string(let s) = value { section = s } else { fields.append(Field("section", value)) }
            case .children:
                if scanner.peek() == UInt8(ascii: "[") {
                    children = try readItems(&scanner, depth: depth + 1)
                } else {
                    fields.append(Field("children", try scanner.value()))
                }
            case .fields:
                let value = try scanner.value()
                if case .dictionary(let nested) = value { fields.append(contentsOf: nested) } else { fields.append(Field("fields", value)) }
            case .other:
                fields.append(Field(key, try scanner.value()))
            }
        }
        guard let name else {
            // Name the keys the item has: the file may use another schema.
            var again = scanner
            again.position = start
            var keys = ""
            if case .dictionary(let fields) = try again.value() { keys = fields.map(\.key).joined(separator: ", ") }
            throw scanner.error("item has no \"name\" (its keys: \(keys.isEmpty ? "none" : keys))", at: start)
        }
        return TodoItem(
            name: name, status: ItemKey.status(checked: checked, custom: custom), fields: fields,
            children: children, section: depth == 0 ? section : nil)
    }
}
