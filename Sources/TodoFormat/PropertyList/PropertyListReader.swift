/// Reads a todo list from a property list (XML or binary): from an array root one item at a
/// time, from a dictionary root (a UserDefaults file) through `ListPlace`.
enum PropertyListReader {
    static func read<S: ItemSink>(
        _ bytes: UnsafeBufferPointer<UInt8>, binary: Bool, path: String, schema: ItemSchema, key: String?,
        into sink: inout S
    ) throws {
        if binary {
            let reader = try BinaryPropertyListReader(bytes: bytes, path: path)
            if let elements = try reader.arrayElements(reader.topObject) {
                try sink.begin(metadata: [])
                var items = BinaryItems.reads(schema) ? BinaryItems(reader, schema: schema) : nil
                for (i, element) in elements.enumerated() {
                    try send(element, at: i, of: reader, &items, schema: schema, into: &sink)
                }
                try sink.end()
            } else {
                let root = try reader.value(reader.topObject)
                try readDictionary(root, path: path, schema: schema, key: key, into: &sink) {
                    reader.error($0, at: 8)
                }
            }
            return
        }
        var reader = XMLPropertyListReader(bytes: bytes, path: path)
        let rootTag = try reader.openPlist()
        if rootTag.is("array") && !rootTag.isClosing {
            try sink.begin(metadata: [])
            if !rootTag.isEmpty {
                while true {
                    let tag = try reader.nextTag()
                    if tag.isClosing && tag.is("array") { break }
                    let element = try reader.value(tag)
                    try sink.itemTree(try item(element, schema: schema) { reader.error($0, at: tag.offset) }, depth: 0)
                }
            }
            try reader.closePlist()
            try sink.end()
        } else {
            let root = try reader.value(rootTag)
            try reader.closePlist()
            try readDictionary(root, path: path, schema: schema, key: key, into: &sink) {
                reader.error($0, at: rootTag.offset)
            }
        }
    }

    /// `read` into a sink that takes plain items: a binary list's plain items
    /// (`BinaryItems.appendPlain`) reach it as bytes, many at a call, without a string or an
    /// item made of each; every other item, and every other file, is read as `read` reads it.
    static func read<S: PlainItemSink>(
        _ bytes: UnsafeBufferPointer<UInt8>, binary: Bool, path: String, schema: ItemSchema, key: String?,
        plainNamesInto sink: inout S
    ) throws {
        guard binary, BinaryItems.reads(schema) else {
            return try read(bytes, binary: binary, path: path, schema: schema, key: key, into: &sink)
        }
        let reader = try BinaryPropertyListReader(bytes: bytes, path: path)
        guard let elements = try reader.arrayElements(reader.topObject) else {
            return try read(bytes, binary: binary, path: path, schema: schema, key: key, into: &sink)
        }
        try sink.begin(metadata: [])
        var items: BinaryItems? = BinaryItems(reader, schema: schema)
        var batch = BinaryItems.PlainBatch()
        for (i, element) in elements.enumerated() {
            if items?.appendPlain(element, to: &batch) == true {
                if batch.items.count >= 4096 { try batch.send(into: &sink) }
                continue
            }
            if !batch.items.isEmpty { try batch.send(into: &sink) }
            try send(element, at: i, of: reader, &items, schema: schema, into: &sink)
        }
        if !batch.items.isEmpty { try batch.send(into: &sink) }
        try sink.end()
    }

    /// Hands the binary list's element `index` (object `element`) to the sink as an item
    /// tree: read straight from its objects by `items` where it can, else from its value,
    /// which reports what is wrong with it.
    private static func send<S: ItemSink>(
        _ element: Int, at index: Int, of reader: BinaryPropertyListReader, _ items: inout BinaryItems?,
        schema: ItemSchema, into sink: inout S
    ) throws {
        if let item = items?.item(element, depth: 0) { return try sink.itemTree(item, depth: 0) }
        let at = try reader.offset(of: element)
        let value: FieldValue
        do {
            value = try reader.value(element)
        } catch {
            throw BinaryPropertyListReader.within("[\(index)]", error)
        }
        try sink.itemTree(try item(value, schema: schema) { reader.error($0, at: at) }, depth: 0)
    }

    private static func item(_ value: FieldValue, schema: ItemSchema, fail: (String) -> ParseError) throws(ParseError)
        -> TodoItem
    {
        guard case .dictionary(let fields) = value else { throw fail("an item is not a dictionary of keys and values") }
        return try schema.item(from: fields, depth: 0, fail: fail)
    }

    private static func readDictionary<S: ItemSink>(
        _ root: FieldValue, path: String, schema: ItemSchema, key: String?, into sink: inout S,
        fail: (String) -> ParseError
    ) throws {
        guard case .dictionary(let fields) = root else {
            throw fail("the root is neither an array of items nor a dictionary holding one")
        }
        try refuseKeyedArchive(fields, path: path)
        let (place, values) = try ListPlace.locate(in: fields, key: key, schema: schema, path: path)
        try sink.leaveOutKeys(beside: place, in: fields, file: path)
        let items = try schema.items(from: values, depth: 0) { message in
            if case .jsonData(let key) = place {
                return fail("in the JSON data under '\(key)': \(message)")
            }
            return fail(message)
        }
        try sink.begin(metadata: [])
        for item in items { try sink.itemTree(item, depth: 0) }
        try sink.end()
    }

    /// A keyed archive (`NSKeyedArchiver`: `$archiver`, `$objects`, `$top`) holds archived
    /// objects that refer to each other by UID, not a list of item dictionaries.
    static func refuseKeyedArchive(_ root: [Field], path: String) throws {
        guard root[key: "$archiver"] != nil, root[key: "$objects"] != nil else { return }
        throw ConversionError.noList(
            path: path,
            reason:
                "a keyed archive (NSKeyedArchiver) holds archived objects, not a todo list todofmt reads; its keys: "
                + root.map(\.key).joined(separator: ", "))
    }
}
