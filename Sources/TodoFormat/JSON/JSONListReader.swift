/// Reads the plain JSON shape: `[{"name": "…", "checked": false, "children": […]}, …]`.
enum JSONListReader {
    /// Reads the list and hands it to `writer`: from an array root one top-level item (with
    /// its children) at a time, from an object root through `ListPlace`.
    static func read<S: ItemSink>(
        _ bytes: UnsafeBufferPointer<UInt8>, path: String, schema: ItemSchema, key: String?, into sink: inout S
    ) throws {
        try read(bytes, path: path, schema: schema, key: key, sink: &sink) { scanner, sink in
            try readArray(&scanner, schema: schema, into: &sink)
        }
    }

    /// `read(_:path:schema:key:into:)` for a sink that takes plain names: plain items
    /// (`JSONPlainItems`) come to it as byte ranges of the text, many at a call.
    static func read<S: PlainItemSink>(
        _ bytes: UnsafeBufferPointer<UInt8>, path: String, schema: ItemSchema, key: String?,
        plainNamesInto sink: inout S
    ) throws {
        try read(bytes, path: path, schema: schema, key: key, sink: &sink) { scanner, sink in
            try readArray(&scanner, schema: schema, plainNamesInto: &sink)
        }
    }

    private static func read<S: ItemSink>(
        _ bytes: UnsafeBufferPointer<UInt8>, path: String, schema: ItemSchema, key: String?, sink: inout S,
        array readArray: (inout JSONScanner, inout S) throws -> Void
    ) throws {
        var scanner = JSONScanner(bytes: bytes, path: path)
        switch scanner.peek() {
        case UInt8(ascii: "["):
            try sink.begin(metadata: [])
            try readArray(&scanner, &sink)
            try scanner.expectEnd()
            try sink.end()
        case UInt8(ascii: "{"):
            // Read the object once to find the list's place, then read its items again where
            // they stand, so that errors keep their lines.
            let start = scanner.position
            guard case .dictionary(let root) = try scanner.value() else { return }
            try scanner.expectEnd()
            let (place, _) = try ListPlace.locate(in: root, key: key, schema: schema, path: path)
            guard case .key(let keys) = place else { return }
            scanner.position = start
            try seek(keys, in: &scanner)
            try sink.leaveOutKeys(beside: place, in: root, file: path)
            try sink.begin(metadata: [])
            try readArray(&scanner, &sink)
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

    /// Items whose keys are todofmt's own go to the sink as plain items where they are
    /// (`JSONPlainItems`); an item that is not plain is read again as an item, after the plain
    /// items before it have gone.
    private static func readArray<S: PlainItemSink>(
        _ scanner: inout JSONScanner, schema: ItemSchema, plainNamesInto sink: inout S
    ) throws {
        guard schema.namesNoKeys && !schema.mapsStatusValues else {
            return try readArray(&scanner, schema: schema, into: &sink)
        }
        try scanner.expect(UInt8(ascii: "["), "'['")
        try readElements(&scanner, schema: schema, plainNamesInto: &sink)
    }

    /// `read(_:path:schema:key:plainNamesInto:)` from the top-level item at `offset` on, to
    /// the end of its array: where a reading of the whole file said one starts
    /// (`PlainItemSink.nextTopLevelItem(at:)`).
    static func read<S: PlainItemSink>(
        _ bytes: UnsafeBufferPointer<UInt8>, path: String, schema: ItemSchema, from offset: Int,
        plainNamesInto sink: inout S
    ) throws {
        var scanner = JSONScanner(bytes: bytes, path: path)
        scanner.position = offset
        try readElements(&scanner, schema: schema, plainNamesInto: &sink)
    }

    /// The array's items from the scanner on (after `[`, or at an item), through the
    /// closing `]`.
    private static func readElements<S: PlainItemSink>(
        _ scanner: inout JSONScanner, schema: ItemSchema, plainNamesInto sink: inout S
    ) throws {
        var plain = JSONPlainItems()
        var first = true
        while try scanner.nextElement(close: UInt8(ascii: "]"), first: &first) {
            let start = scanner.position
            sink.nextTopLevelItem(at: start, pending: plain.items.count)
            if plain.read(&scanner, depth: 0) {
                if plain.items.count >= 4096 { try plain.flush(into: &sink, text: scanner.bytes) }
                continue
            }
            try plain.flush(into: &sink, text: scanner.bytes)
            scanner.position = start
            try sink.itemTree(try readItem(&scanner, schema: schema, depth: 0), depth: 0)
        }
        try plain.flush(into: &sink, text: scanner.bytes)
    }

    /// An item object, its values read as they come.
    static func readItem(_ scanner: inout JSONScanner, schema: ItemSchema, depth: Int) throws(ParseError) -> TodoItem {
        let start = scanner.position
        guard depth < Limits.itemLevels else { throw scanner.error(Limits.itemDepthMessage) }
        guard scanner.peek() == UInt8(ascii: "{") else { throw scanner.unexpected(expecting: "an item object") }
        let open = scanner.position
        // A key given twice has its last value, as JSON.parse, Python's json and Foundation
        // read it: the object is read again without the earlier ones. The first reading
        // notes its keys in bits (todofmt's own keys) and a list of the others, so that an
        // item of own keys allocates nothing for them.
        var superseded: Set<Int> = []
        var builder: ItemBuilder
        pass: repeat {
            scanner.position = open + 1
            builder = ItemBuilder(schema: schema, depth: depth)
            var ownSeen: UInt8 = 0
            var others: [String] = []
            var repeated = false
            var index = -1
            var first = true
            while try scanner.nextElement(close: UInt8(ascii: "}"), first: &first) {
                index += 1
                let keyStart = scanner.position
                let key: String
                var role: ItemRole?
                let live = superseded.isEmpty || !superseded.contains(index)
                if schema.namesNoKeys, let raw = try scanner.rawString(), let own = ItemSchema.ownRole(of: raw) {
                    key = own.rawValue
                    role = nil
                    if superseded.isEmpty { repeated = noteKey(own, seen: &ownSeen) || repeated }
                    if live { role = builder.claim(own, key: key) }
                } else {
                    scanner.position = keyStart
                    key = try scanner.string()
                    role = nil
                    if superseded.isEmpty {
                        if let own = ItemSchema.ownRole(of: key) {
                            repeated = noteKey(own, seen: &ownSeen) || repeated
                        } else if others.contains(where: { $0.sameKey(as: key) }) {
                            repeated = true
                        } else {
                            others.append(key)
                        }
                    }
                    if live { role = builder.role(of: key) }
                }
                try scanner.expect(UInt8(ascii: ":"), "':'")
                scanner.skipWhitespace()
                if !live {
                    try scanner.skipValue()
                    continue
                }
                // An error in a value a later key replaces is no error: the object is read again
                // without it (`{"name": 5, "name": "a"}` is named `a`, as JSON's readers take it).
                do throws(ParseError) {
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
                } catch {
                    if superseded.isEmpty, let again = try? keys(of: open, in: &scanner).positionsGivenAgain(),
                        again.contains(index)
                    {
                        superseded = again
                        continue pass
                    }
                    throw error
                }
            }
            guard superseded.isEmpty, repeated, let again = try keys(of: open, in: &scanner).positionsGivenAgain()
            else { break }
            superseded = again
        } while true
        guard let item = builder.build() else { throw scanner.error(builder.missingNameMessage, at: start) }
        return item
    }

    /// Notes one of todofmt's own keys; true when the object gave it before.
    @inline(__always)
    private static func noteKey(_ role: ItemRole, seen: inout UInt8) -> Bool {
        let bit = ItemBuilder.bit(role)
        defer { seen |= bit }
        return seen & bit != 0
    }

    /// The keys of the object at `open`, in order (for an object that gives a key twice).
    private static func keys(of open: Int, in scanner: inout JSONScanner) throws(ParseError) -> [String] {
        scanner.position = open + 1
        var keys: [String] = []
        var first = true
        while try scanner.nextElement(close: UInt8(ascii: "}"), first: &first) {
            keys.append(try scanner.string())
            try scanner.expect(UInt8(ascii: ":"), "':'")
            try scanner.skipValue()
        }
        return keys
    }
}
