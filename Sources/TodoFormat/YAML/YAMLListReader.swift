#if YAML
import Foundation

/// Reads todofmt's YAML form: an optional metadata mapping document, and a
/// document holding the list of item mappings (FORMAT.md, section 7.3).
enum YAMLListReader {
    /// Reads the list and hands it to `sink` one top-level item (with its children) at a
    /// time. The list is a document that is a sequence of items, or the place `ListPlace`
    /// finds (or `key` names) in a document that is a mapping; another document before or
    /// after it that is a mapping is the metadata (FORMAT.md, section 7.3). When the list
    /// comes before a metadata document, it is held until the end.
    static func read<S: ItemSink>(
        _ bytes: UnsafeBufferPointer<UInt8>, path: String, schema: ItemSchema, key: String? = nil, into sink: inout S
    ) throws {
        if bytes.count >= 1 << 22, Processors.available >= 2,
            let (metadata, halves) = readInParallel(bytes, path: path, schema: schema)
        {
            try sink.begin(metadata: metadata)
            for half in halves {
                for item in half { try sink.itemTree(item, depth: 0) }
            }
            try sink.end()
            return
        }
        let parser = YAMLParser(bytes: bytes, file: path)
        let anchors = YAMLAnchors(limitFor: bytes.count)
        let reader = ItemReader(parser: parser, schema: schema, anchors: anchors, merges: mayMerge(bytes))
        /// The documents that are mappings, with where each starts.
        var mappings: [([Field], YAMLEvent)] = []
        var held: [TodoItem] = []
        var began = false
        var sawList = false
        while true {
            let event = try parser.next()
            switch event.kind {
            case .streamEnd:
                var metadata: [Field] = []
                if !sawList {
                    guard let (root, start) = mappings.last else {
                        if bytes.contains(where: { $0 > 32 }) {
                            throw ParseError(
                                "expected a YAML list of items", at: SourceLocation(file: path, line: 1, column: 1))
                        }
                        try sink.begin(metadata: [])
                        try sink.end()
                        return
                    }
                    // A mapping holds the list; a mapping document before it is the metadata.
                    if mappings.count == 2 { metadata = mappings[0].0 }
                    let (found, values) = try ListPlace.locate(in: root, key: key, schema: schema, path: path)
                    let place = parser.location(of: start)
                    var items: [TodoItem]
                    do {
                        items = try schema.items(from: values, depth: 0) { ParseError($0, at: place) }
                    } catch {
                        // Values are typed and carry no places: the list is read again from its
                        // events, as a list at the root is (a name is its scalar's text), which
                        // also says where a bad item stands.
                        guard case .key(let keys) = found,
                            let streamed = try readList(
                                bytes, path: path, document: mappings.count - 1, keys: keys, schema: schema)
                        else { throw error }
                        items = streamed
                    }
                    try sink.leaveOutKeys(beside: found, in: root, file: path)
                    try sink.begin(metadata: metadata)
                    for item in items { try sink.itemTree(item, depth: 0) }
                    try sink.end()
                    return
                }
                if !began { try sink.begin(metadata: mappings.first?.0 ?? []) }
                for item in held { try sink.itemTree(item, depth: 0) }
                try sink.end()
                return
            case .sequenceStart(let properties):
                guard !sawList else { throw parser.error("a second list of items; todofmt reads one", at: event) }
                sawList = true
                if mappings.count > 1 { throw parser.error("a second metadata mapping; todofmt reads one", at: event) }
                if !properties.isEmpty {
                    // An anchored or tagged list: read whole as a value.
                    let value = try YAMLValue.read(from: parser, startingWith: event, anchors: anchors)
                    guard case .array(let values) = value else { continue }
                    let place = parser.location(of: event)
                    held = try schema.items(from: values, depth: 0) { ParseError($0, at: place) }
                    continue
                }
                // Stream when the metadata is known: it came first, or no other document follows.
                let stream = !mappings.isEmpty || !hasLaterDocument(bytes, after: parser.byteOffset(of: event))
                if stream {
                    try sink.begin(metadata: mappings.first?.0 ?? [])
                    began = true
                }
                try reader.readItems(depth: 0) { item in
                    if stream { try sink.itemTree(item, depth: 0) } else { held.append(item) }
                }
            case .mappingStart:
                if mappings.count == (sawList ? 1 : 2) {
                    throw parser.error("a second metadata mapping; todofmt reads one", at: event)
                }
                if case .dictionary(let fields) = try YAMLValue.read(
                    from: parser, startingWith: event, anchors: anchors)
                {
                    mappings.append((fields, event))
                }
            case .scalar(let scalar):
                if case .null = YAMLValue.resolve(scalar) { continue }
                throw parser.error("expected a YAML list of items, found a single value", at: event)
            case .alias:
                throw parser.error("expected a YAML list of items, found an alias", at: event)
            default:
                continue
            }
        }
    }

    /// The list under `keys` of the `document`th mapping document, read item by item as a
    /// list at the root is read. Nil when the path is not found or reading it needs what
    /// stands outside it (an alias to an anchor elsewhere); the caller then keeps its error.
    private static func readList(
        _ bytes: UnsafeBufferPointer<UInt8>, path: String, document: Int, keys: [String], schema: ItemSchema
    ) throws -> [TodoItem]? {
        let parser = YAMLParser(bytes: bytes, file: path)
        let reader = ItemReader(
            parser: parser, schema: schema, anchors: YAMLAnchors(limitFor: bytes.count), merges: mayMerge(bytes))
        /// Moves past the node that starts with `event`.
        func skip(_ event: YAMLEvent) throws {
            var depth = 0
            var event = event
            while true {
                switch event.kind {
                case .mappingStart, .sequenceStart: depth += 1
                case .mappingEnd, .sequenceEnd: depth -= 1
                default: break
                }
                if depth == 0 { return }
                event = try parser.next()
            }
        }
        var mappings = 0
        // The document's root mapping.
        while true {
            let event = try parser.next()
            if case .streamEnd = event.kind { return nil }
            if case .mappingStart = event.kind {
                if mappings == document { break }
                mappings += 1
                try skip(event)
            }
        }
        // Down the key path: in each mapping, the value under the next key.
        for (i, key) in keys.enumerated() {
            var found = false
            while !found {
                let keyEvent = try parser.next()
                if case .mappingEnd = keyEvent.kind { return nil }
                let value = try parser.next()
                guard case .scalar(let scalar) = keyEvent.kind, YAMLValue.key(scalar) == key else {
                    if case .scalar = keyEvent.kind {} else { try skip(keyEvent) }
                    try skip(value)
                    continue
                }
                switch value.kind {
                case .mappingStart where i < keys.count - 1: found = true
                case .sequenceStart where i == keys.count - 1: found = true
                default: return nil
                }
            }
        }
        var items: [TodoItem] = []
        do {
            try reader.readItems(depth: 0) { items.append($0) }
        } catch let error as ParseError where error.message.hasPrefix("yaml: unknown alias") {
            return nil
        }
        return items
    }

    /// Whether the text may hold a merge key (`<<`): items are then read whole as values, so
    /// that merged keys come first.
    static func mayMerge(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = bytes.baseAddress else { return false }
        var i = 0
        while i + 1 < bytes.count, let found = memchr(base + i, 60, bytes.count - i - 1) {
            i = base.distance(to: found.assumingMemoryBound(to: UInt8.self)) + 1
            if bytes[i] == 60 { return true }
        }
        return false
    }

    /// A large list in todofmt's own layout (a block sequence at column 0, after an
    /// optional metadata document) is cut at an item near its middle and the halves are
    /// parsed on two cores, where the process has two: libyaml's parse is most of the time a
    /// conversion takes.
    /// Nil when the file is not of that layout or either half fails; the caller then
    /// reads it whole, which also reports any error at its true place.
    private static func readInParallel(_ bytes: UnsafeBufferPointer<UInt8>, path: String, schema: ItemSchema) -> (
        [Field], [[TodoItem]]
    )? {
        guard bytes.first != UInt8(ascii: "%") else { return nil }  // directives apply to the whole stream
        // Where the list starts, and the metadata before it.
        let anchors = YAMLAnchors(limitFor: bytes.count)
        var metadata: [Field] = []
        var listStart = -1
        do {
            let parser = YAMLParser(bytes: bytes, file: path)
            scan: while true {
                let event = try parser.next()
                switch event.kind {
                case .streamStart, .documentStart, .documentEnd: continue
                case .mappingStart where metadata.isEmpty:
                    guard
                        case .dictionary(let fields) = try YAMLValue.read(
                            from: parser, startingWith: event, anchors: anchors)
                    else { return nil }
                    metadata = fields
                case .sequenceStart(let properties) where event.column == 1 && properties.anchor == nil:
                    listStart = parser.byteOffset(of: event)
                    break scan
                default: return nil
                }
            }
        } catch {
            return nil
        }
        guard listStart >= 0, !mayMerge(bytes), !hasLaterDocument(bytes, after: listStart), let base = bytes.baseAddress
        else { return nil }
        // An item boundary near the middle: a line that starts with `- ` or is `-`.
        var cut = listStart + (bytes.count - listStart) / 2
        while true {
            guard cut < bytes.count, let found = memchr(base + cut, 10, bytes.count - cut) else { return nil }
            cut = base.distance(to: found.assumingMemoryBound(to: UInt8.self)) + 1
            if cut + 1 < bytes.count && bytes[cut] == UInt8(ascii: "-")
                && (bytes[cut + 1] == 32 || bytes[cut + 1] == 10)
            {
                break
            }
        }
        let halves = [listStart..<cut, cut..<bytes.count]
        nonisolated(unsafe) var results: [[TodoItem]?] = [nil, nil]
        nonisolated(unsafe) let input = bytes
        DispatchQueue.concurrentPerform(iterations: 2) { i in
            results[i] = readBareList(UnsafeBufferPointer(rebasing: input[halves[i]]), path: path, schema: schema)
        }
        guard let first = results[0], let second = results[1] else { return nil }
        return (metadata, [first, second])
    }

    /// The items of a stream that is one block sequence and nothing else; nil on any error.
    private static func readBareList(_ bytes: UnsafeBufferPointer<UInt8>, path: String, schema: ItemSchema)
        -> [TodoItem]?
    {
        var items: [TodoItem] = []
        do {
            let parser = YAMLParser(bytes: bytes, file: path)
            let reader = ItemReader(
                parser: parser, schema: schema, anchors: YAMLAnchors(limitFor: bytes.count), merges: false)
            var sawList = false
            while true {
                let event = try parser.next()
                switch event.kind {
                case .streamStart, .documentStart, .documentEnd: continue
                case .streamEnd: return sawList ? items : nil
                case .sequenceStart where !sawList:
                    sawList = true
                    try reader.readItems(depth: 0) { items.append($0) }
                default: return nil
                }
            }
        } catch {
            return nil
        }
    }

    /// Whether a `---` or `...` line (another document) follows `offset`. A false yes only
    /// costs streaming.
    private static func hasLaterDocument(_ bytes: UnsafeBufferPointer<UInt8>, after offset: Int) -> Bool {
        guard let base = bytes.baseAddress else { return false }
        var i = offset
        while i < bytes.count, let found = memchr(base + i, 10, bytes.count - i) {
            let next = base.distance(to: found.assumingMemoryBound(to: UInt8.self)) + 1
            if next + 3 <= bytes.count {
                let a = bytes[next]
                let b = bytes[next + 1]
                let c = bytes[next + 2]
                if (a == 45 && b == 45 && c == 45) || (a == 46 && b == 46 && c == 46) { return true }
            }
            i = next
        }
        return false
    }

}

/// Reads the items of a list from a parser's events, sharing the stream's anchors.
final class ItemReader {
    let parser: YAMLParser
    let schema: ItemSchema
    let anchors: YAMLAnchors
    /// Whether the text may hold merge keys: items are then read as values first.
    let merges: Bool

    init(parser: YAMLParser, schema: ItemSchema, anchors: YAMLAnchors, merges: Bool) {
        self.parser = parser
        self.schema = schema
        self.anchors = anchors
        self.merges = merges
    }

    /// Reads a sequence of items, handing each to `each` when it is complete.
    func readItems(depth: Int, _ each: (TodoItem) throws -> Void) throws {
        while true {
            let event = try parser.next()
            if case .sequenceEnd = event.kind { return }
            try each(try item(startingWith: event, depth: depth))
        }
    }

    /// The item whose node starts with `event`.
    func item(startingWith event: YAMLEvent, depth: Int) throws -> TodoItem {
        switch event.kind {
        case .mappingStart(let properties):
            if merges || !properties.isEmpty {
                return try itemValue(
                    YAMLValue.read(from: parser, startingWith: event, anchors: anchors), at: event, depth: depth)
            }
            return try readItem(start: event, depth: depth)
        case .alias(let anchor):
            // An alias of an item repeats it.
            let (value, _) = try anchors.expand(anchor, parser: parser, at: event)
            return try itemValue(value, at: event, depth: depth)
        default: throw parser.error("expected an item (a mapping with a name)", at: event)
        }
    }

    /// An item from a mapping read as a value.
    private func itemValue(_ value: FieldValue, at event: YAMLEvent, depth: Int) throws -> TodoItem {
        guard case .dictionary(let fields) = value else {
            throw parser.error("expected an item (a mapping with a name)", at: event)
        }
        let place = parser.location(of: event)
        return try schema.item(from: fields, depth: depth) { ParseError($0, at: place) }
    }

    private func readItem(start: YAMLEvent, depth: Int) throws -> TodoItem {
        guard depth < Limits.itemLevels else { throw parser.error(Limits.itemDepthMessage, at: start) }
        var builder = ItemBuilder(schema: schema, depth: depth)
        // The keys so far and the role each took (nil: a field): a key given again has its
        // last value, as PyYAML and JSON readers read it (FORMAT.md, section 7.3).
        var seen: [(key: String, role: ItemRole?)] = []
        seen.reserveCapacity(8)
        // A value that cannot play its key's role is an error unless the key is given again
        // (the last value is the one read): kept until the mapping ends.
        var wrong: [(key: String, error: ParseError)] = []
        keys: while true {
            let keyEvent = try parser.next()
            let keyScalar: YAMLEvent.Scalar
            switch keyEvent.kind {
            case .mappingEnd: break keys
            case .scalar(let scalar): keyScalar = scalar
            default: throw parser.error("an item's keys must be plain text", at: keyEvent)
            }
            let key: String
            let role: ItemRole?
            if schema.namesNoKeys, keyScalar.style == .plain, let own = ItemSchema.ownRole(of: keyScalar.text) {
                key = keyScalar.text
                if let i = seen.firstIndex(where: { $0.key.sameKey(as: key) }) {
                    builder.forget(key, role: seen.remove(at: i).role)
                    wrong.removeAll { $0.key.sameKey(as: key) }
                }
                role = builder.claim(own, key: key)
            } else {
                key = YAMLValue.key(keyScalar)
                if let i = seen.firstIndex(where: { $0.key.sameKey(as: key) }) {
                    builder.forget(key, role: seen.remove(at: i).role)
                    wrong.removeAll { $0.key.sameKey(as: key) }
                }
                role = builder.role(of: key)
            }
            defer { seen.append((key, role.flatMap { builder.holds($0) ? $0 : nil })) }
            let valueEvent = try parser.next()
            // The common shapes take shortcuts; an anchor, a tag or an alias takes the long way.
            if role == .name, case .scalar(let value) = valueEvent.kind {
                // A name is its scalar's text, whatever it looks like.
                if !value.properties.isEmpty, let anchor = value.anchor {
                    anchors.define(anchor, YAMLValue.resolve(value), size: 1)
                }
                _ = builder.set(.name, key: key, value: .string(value.text))
                continue
            }
            if role == .checked, case .scalar(let value) = valueEvent.kind, value.style == .plain,
                value.properties.isEmpty,
                value.text == "true" || value.text == "false"
            {
                _ = builder.set(.checked, key: key, value: .bool(value.text.utf8.count == 4))
                continue
            }
            if role == .children, case .sequenceStart(let properties) = valueEvent.kind, properties.isEmpty {
                guard depth + 1 < Limits.itemLevels else { throw parser.error(Limits.itemDepthMessage, at: valueEvent) }
                var children: [TodoItem] = []
                try readItems(depth: depth + 1) { children.append($0) }
                builder.setChildren(children)
                continue
            }
            let value = try YAMLValue.read(from: parser, startingWith: valueEvent, anchors: anchors)
            if role == .children, case .array(let values) = value,
                values.allSatisfy({ if case .dictionary = $0 { true } else { false } })
            {
                let place = parser.location(of: valueEvent)
                builder.setChildren(try schema.items(from: values, depth: depth + 1) { ParseError($0, at: place) })
                continue
            }
            if let message = builder.set(role, key: key, value: value) {
                wrong.append((key, parser.error(message, at: valueEvent)))
            }
        }
        if let first = wrong.first { throw first.error }
        guard let item = builder.build() else { throw parser.error(builder.missingNameMessage, at: start) }
        return item
    }
}
#endif
