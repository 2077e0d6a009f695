/// Reads the plain JSON shape: `[{"name": "…", "checked": false, "children": […]}, …]`.
enum JSONListReader {
    /// Reads the list and hands it to `writer`: from an array root one top-level item (with
    /// its children) at a time, from an object root through `ListPlace`.
    static func read<S: ItemSink>(
        _ bytes: UnsafeBufferPointer<UInt8>, path: String, schema: ItemSchema, key: String?, into sink: inout S
    ) throws {
        var scanner = JSONScanner(bytes: bytes, path: path)
        switch scanner.peek() {
        case UInt8(ascii: "["):
            try sink.begin(metadata: [])
            try readArray(&scanner, schema: schema, into: &sink)
            try scanner.expectEnd()
            try sink.end()
        case UInt8(ascii: "{"):
            // Read the object once to find the list's place, then read its items again where
            // they stand, so that errors keep their lines.
            let start = scanner.position
            guard case .dictionary(let root) = try scanner.value() else { return }
            try scanner.expectEnd()
            guard case (.key(let keys), _) = try ListPlace.locate(in: root, key: key, schema: schema, path: path) else {
                return
            }
            scanner.position = start
            try seek(keys, in: &scanner)
            try sink.begin(metadata: [])
            try readArray(&scanner, schema: schema, into: &sink)
            try sink.end()
        case 0:
            throw scanner.error("empty file: expected a JSON array of items")
        default:
            throw scanner.error("expected a JSON array of items, or an object holding one")
        }
    }

    /// Moves the scanner from an object to the value at a path of keys (the last of a key's
    /// duplicates, as JSON's readers and `ListPlace` take it).
    private static func seek(_ keys: [String], in scanner: inout JSONScanner) throws(ParseError) {
        for key in keys {
            try scanner.expect(UInt8(ascii: "{"), "'{'")
            var found: Int? = nil
            var first = true
            while try scanner.nextElement(close: UInt8(ascii: "}"), first: &first) {
                let name = try scanner.string()
                try scanner.expect(UInt8(ascii: ":"), "':'")
                scanner.skipWhitespace()
                if name == key { found = scanner.position }
                _ = try scanner.value()
            }
            guard let found else { throw scanner.error("there is no key '\(key)'") }
            scanner.position = found
        }
    }

    private static func readArray<S: ItemSink>(
        _ scanner: inout JSONScanner, schema: ItemSchema, into sink: inout S
    ) throws {
        try scanner.expect(UInt8(ascii: "["), "'['")
        var first = true
        while try scanner.nextElement(close: UInt8(ascii: "]"), first: &first) {
            try sink.itemTree(try readItem(&scanner, schema: schema, depth: 0), depth: 0)
        }
    }

    /// An item object, its values read as they come.
    static func readItem(_ scanner: inout JSONScanner, schema: ItemSchema, depth: Int) throws(ParseError) -> TodoItem {
        let start = scanner.position
        guard depth < Limits.itemLevels else { throw scanner.error(Limits.itemDepthMessage) }
        guard scanner.peek() == UInt8(ascii: "{") else { throw scanner.unexpected(expecting: "an item object") }
        let open = scanner.position
        // A key given twice has its last value, as JSON.parse, Python's json and Foundation
        // read it: the object is read again without the earlier ones.
        var superseded: Set<Int> = []
        var builder: ItemBuilder
        repeat {
            scanner.position = open + 1
            builder = ItemBuilder(schema: schema, depth: depth)
            var keys: [String] = []
            var first = true
            while try scanner.nextElement(close: UInt8(ascii: "}"), first: &first) {
                let keyStart = scanner.position
                let key: String
                var role: ItemRole?
                if schema.namesNoKeys, let raw = try scanner.rawString(), let own = ItemSchema.ownRole(of: raw) {
                    key = own.rawValue
                    role = nil
                    keys.append(key)
                    if !superseded.contains(keys.count - 1) { role = builder.claim(own, key: key) }
                } else {
                    scanner.position = keyStart
                    key = try scanner.string()
                    keys.append(key)
                    role = nil
                    if !superseded.contains(keys.count - 1) { role = builder.role(of: key) }
                }
                try scanner.expect(UInt8(ascii: ":"), "':'")
                scanner.skipWhitespace()
                if superseded.contains(keys.count - 1) {
                    try scanner.skipValue()
                    continue
                }
                let valueStart = scanner.position
                if role == .children && scanner.peek() == UInt8(ascii: "[") {
                    // Children are item objects too; anything else under the key is a field.
                    var probe = scanner
                    probe.position += 1
                    if probe.peek() == UInt8(ascii: "{") || probe.peek() == UInt8(ascii: "]") {
                        scanner.position += 1
                        var children: [TodoItem] = []
                        var firstChild = true
                        while try scanner.nextElement(close: UInt8(ascii: "]"), first: &firstChild) {
                            children.append(try readItem(&scanner, schema: schema, depth: depth + 1))
                        }
                        builder.setChildren(children)
                        continue
                    }
                }
                let value = try scanner.value()
                if let message = builder.set(role, key: key, value: value) {
                    throw scanner.error(message, at: valueStart)
                }
            }
            guard superseded.isEmpty, let repeated = keys.positionsGivenAgain() else { break }
            superseded = repeated
        } while true
        guard let item = builder.build() else { throw scanner.error(builder.missingNameMessage, at: start) }
        return item
    }
}
