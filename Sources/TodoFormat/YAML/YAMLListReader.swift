#if YAML
import Foundation

/// Reads todofmt's YAML form: an optional metadata mapping document, and a
/// document holding the list of item mappings (FORMAT.md, section 7.3).
enum YAMLListReader {
    /// Reads the list and hands it to `writer` one top-level item (with its children) at a
    /// time. When the list comes before a metadata document, it is held until the end.
    static func read<S: ItemSink>(
        _ bytes: UnsafeBufferPointer<UInt8>, path: String, schema: ItemSchema, into sink: inout S
    ) throws {
        if bytes.count >= 1 << 22, let (metadata, halves) = readInParallel(bytes, path: path, schema: schema) {
            try sink.begin(metadata: metadata)
            for half in halves {
                for item in half { try sink.itemTree(item, depth: 0) }
            }
            try sink.end()
            return
        }
        let parser = try YAMLParser(bytes: bytes, file: path)
        var anchors: [String: FieldValue] = [:]
        var metadata: [Field] = []
        var held: [TodoItem] = []
        var began = false
        var sawList = false
        var sawMetadata = false
        while true {
            let event = try parser.next()
            switch event.kind {
            case .streamEnd:
                if !sawList && !sawMetadata && bytes.contains(where: { $0 > 32 }) {
                    throw ParseError("expected a YAML list of items", at: SourceLocation(file: path, line: 1, column: 1))
                }
                if !began { try sink.begin(metadata: metadata) }
                for item in held { try sink.itemTree(item, depth: 0) }
                try sink.end()
                return
            case .sequenceStart:
                guard !sawList else { throw parser.error("a second list of items; todofmt reads one", at: event) }
                sawList = true
                // Stream when the metadata is known: it came first, or no other document follows.
                let stream = sawMetadata || !hasLaterDocument(bytes, after: parser.byteOffset(of: event))
                if stream {
                    try sink.begin(metadata: metadata)
                    began = true
                }
                try readItems(parser, schema: schema, depth: 0, anchors: &anchors) { item in
                    if stream { try sink.itemTree(item, depth: 0) } else { held.append(item) }
                }
            case .mappingStart:
                guard !sawMetadata else { throw parser.error("a second metadata mapping; todofmt reads one", at: event) }
                sawMetadata = true
                if case .dictionary(let fields) = try YAMLValue.read(from: parser, startingWith: event, anchors: &anchors) {
                    metadata = fields
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

    /// A large list in todofmt's own layout (a block sequence at column 0, after an
    /// optional metadata document) is cut at an item near its middle and the halves are
    /// parsed on two cores: libyaml's parse is most of the time a conversion takes.
    /// Nil when the file is not of that layout or either half fails; the caller then
    /// reads it whole, which also reports any error at its true place.
    private static func readInParallel(_ bytes: UnsafeBufferPointer<UInt8>, path: String, schema: ItemSchema) -> ([Field], [[TodoItem]])? {
        guard bytes.first != UInt8(ascii: "%") else { return nil }  // directives apply to the whole stream
        // Where the list starts, and the metadata before it.
        var anchors: [String: FieldValue] = [:]
        var metadata: [Field] = []
        var listStart = -1
        do {
            let parser = try YAMLParser(bytes: bytes, file: path)
            scan: while true {
                let event = try parser.next()
                switch event.kind {
                case .streamStart, .documentStart, .documentEnd: continue
                case .mappingStart where metadata.isEmpty:
                    guard case .dictionary(let fields) = try YAMLValue.read(from: parser, startingWith: event, anchors: &anchors)
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
        guard listStart >= 0, !hasLaterDocument(bytes, after: listStart), let base = bytes.baseAddress else { return nil }
        // An item boundary near the middle: a line that starts with `- ` or is `-`.
        var cut = listStart + (bytes.count - listStart) / 2
        while true {
            guard cut < bytes.count, let found = memchr(base + cut, 10, bytes.count - cut) else { return nil }
            cut = base.distance(to: found.assumingMemoryBound(to: UInt8.self)) + 1
            if cut + 1 < bytes.count && bytes[cut] == UInt8(ascii: "-") && (bytes[cut + 1] == 32 || bytes[cut + 1] == 10) {
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
    private static func readBareList(_ bytes: UnsafeBufferPointer<UInt8>, path: String, schema: ItemSchema) -> [TodoItem]? {
        var anchors: [String: FieldValue] = [:]
        var items: [TodoItem] = []
        do {
            let parser = try YAMLParser(bytes: bytes, file: path)
            var sawList = false
            while true {
                let event = try parser.next()
                switch event.kind {
                case .streamStart, .documentStart, .documentEnd: continue
                case .streamEnd: return sawList ? items : nil
                case .sequenceStart where !sawList:
                    sawList = true
                    try readItems(parser, schema: schema, depth: 0, anchors: &anchors) { items.append($0) }
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
                let a = bytes[next], b = bytes[next + 1], c = bytes[next + 2]
                if (a == 45 && b == 45 && c == 45) || (a == 46 && b == 46 && c == 46) { return true }
            }
            i = next
        }
        return false
    }

    /// Reads a sequence of items, handing each to `each` when it is complete.
    private static func readItems(
        _ parser: YAMLParser, schema: ItemSchema, depth: Int, anchors: inout [String: FieldValue],
        _ each: (TodoItem) throws -> Void
    ) throws {
        while true {
            let event = try parser.next()
            switch event.kind {
            case .sequenceEnd: return
            case .mappingStart: try each(try readItem(parser, start: event, schema: schema, depth: depth, anchors: &anchors))
            default: throw parser.error("expected an item (a mapping with a name)", at: event)
            }
        }
    }

    private static func readItem(
        _ parser: YAMLParser, start: YAMLEvent, schema: ItemSchema, depth: Int, anchors: inout [String: FieldValue]
    ) throws -> TodoItem {
        var builder = ItemBuilder(schema: schema)
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
                role = builder.claim(own, key: key)
            } else {
                key = YAMLValue.key(keyScalar)
                role = builder.role(of: key)
            }
            let valueEvent = try parser.next()
            // The common shapes take shortcuts; an anchor, a tag or an alias takes the long way.
            if role == .name, case .scalar(let value) = valueEvent.kind {
                // A name is its scalar's text, whatever it looks like.
                if !value.properties.isEmpty, let anchor = value.anchor { anchors[anchor] = YAMLValue.resolve(value) }
                _ = builder.set(.name, key: key, value: .string(value.text))
                continue
            }
            if role == .checked, case .scalar(let value) = valueEvent.kind, value.style == .plain, value.properties.isEmpty,
                value.text == "true" || value.text == "false"
            {
                _ = builder.set(.checked, key: key, value: .bool(value.text.utf8.count == 4))
                continue
            }
            if role == .children, case .sequenceStart(let properties) = valueEvent.kind, properties.isEmpty {
                guard depth + 1 < Limits.itemLevels else { throw parser.error(Limits.itemDepthMessage, at: valueEvent) }
                var children: [TodoItem] = []
                try readItems(parser, schema: schema, depth: depth + 1, anchors: &anchors) { children.append($0) }
                builder.setChildren(children)
                continue
            }
            let value = try YAMLValue.read(from: parser, startingWith: valueEvent, anchors: &anchors)
            if role == .children, case .array(let values) = value,
                values.allSatisfy({ if case .dictionary = $0 { true } else { false } })
            {
                let place = parser.location(of: valueEvent)
                builder.setChildren(try schema.items(from: values, depth: depth + 1) { ParseError($0, at: place) })
                continue
            }
            if let message = builder.set(role, key: key, value: value) { throw parser.error(message, at: valueEvent) }
        }
        guard let item = builder.build(depth: depth) else { throw parser.error(builder.missingNameMessage, at: start) }
        return item
    }
}
#endif
