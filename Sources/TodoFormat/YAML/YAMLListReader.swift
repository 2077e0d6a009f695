/// Reads todofmt's YAML form: an optional metadata mapping document, and a
/// document holding the list of item mappings (FORMAT.md, "YAML").
enum YAMLListReader {
    static func read(_ bytes: UnsafeBufferPointer<UInt8>, path: String) throws(ParseError) -> TodoList {
        let parser = YAMLParser(bytes: bytes, file: path)
        var anchors: [String: FieldValue] = [:]
        var list = TodoList()
        var sawList = false
        var sawMetadata = false
        while true {
            let event = try parser.next()
            switch event.kind {
            case .streamEnd:
                if !sawList && !sawMetadata && bytes.contains(where: { $0 > 32 }) {
                    throw ParseError(
                        "expected a YAML list of items", at: SourceLocation(file: path, line: 1, column: 1))
                }
                return list
            case .sequenceStart:
                guard !sawList else { throw parser.error("a second list of items; todofmt reads one", at: event) }
                sawList = true
                list.items = try readItems(parser, depth: 0, anchors: &anchors)
            case .mappingStart:
                guard !sawMetadata else { throw parser.error("a second metadata mapping; todofmt reads one", at: event) }
                sawMetadata = true
                if case .dictionary(let fields) = try YAMLValue.read(from: parser, startingWith: event, anchors: &anchors) {
                    list.metadata = fields
                }
            case .scalar:
                if case .null = YAMLValue.resolve(event) { continue }
                throw parser.error("expected a YAML list of items, found a single value", at: event)
            case .alias:
                throw parser.error("expected a YAML list of items, found an alias", at: event)
            default:
                continue
            }
        }
    }

    private static func readItems(
        _ parser: YAMLParser, depth: Int, anchors: inout [String: FieldValue]
    ) throws(ParseError) -> [TodoItem] {
        guard depth < 256 else { throw ParseError("items nested too deep", at: SourceLocation(file: "", line: 0, column: 0)) }
        var items: [TodoItem] = []
        while true {
            let event = try parser.next()
            switch event.kind {
            case .sequenceEnd: return items
            case .mappingStart: items.append(try readItem(parser, start: event, depth: depth, anchors: &anchors))
            default: throw parser.error("expected an item (a mapping with a name)", at: event)
            }
        }
    }

    private static func readItem(
        _ parser: YAMLParser, start: YAMLEvent, depth: Int, anchors: inout [String: FieldValue]
    ) throws(ParseError) -> TodoItem {
        var name: String? = nil
        var checked = false
        var custom: TodoStatus? = nil
        var section: String? = nil
        var fields: [Field] = []
        var children: [TodoItem] = []
        var keys: [String] = []
        while true {
            let keyEvent = try parser.next()
            if keyEvent.kind == .mappingEnd { break }
            guard keyEvent.kind == .scalar else { throw parser.error("an item's keys must be plain text", at: keyEvent) }
            let kind = ItemKey(keyEvent.value)
            // The key's bytes live only until the next event.
            let key =
                switch kind {
                case .name, .checked: ""
                case .other: YAMLValue.keyText(YAMLValue.resolve(keyEvent))
                default: String(decoding: keyEvent.value, as: UTF8.self)
                }
            if name == nil && kind != .name { keys.append(kind == .other ? key : String(decoding: keyEvent.value, as: UTF8.self)) }
            let valueEvent = try parser.next()
            switch kind {
            case .name where valueEvent.kind == .scalar:
                name = String(decoding: valueEvent.value, as: UTF8.self)
            case .name:
                throw parser.error("an item's name must be text", at: valueEvent)
            case .checked:
                switch try YAMLValue.read(from: parser, startingWith: valueEvent, anchors: &anchors) {
                case .bool(let b): checked = b
                case .integer(let i): checked = i != 0
                case .null: checked = false
                default: throw parser.error("'checked' must be true or false", at: valueEvent)
                }
            case .status:
                let value = try YAMLValue.read(from: parser, startingWith: valueEvent, anchors: &anchors)
                if case .string(let s) = value, let status = ItemKey.status(from: s) {
                    custom = status
                } else {
                    fields.append(Field("status", value))
                }
            case .section:
                let value = try YAMLValue.read(from: parser, startingWith: valueEvent, anchors: &anchors)
                if case .string(let s) = value { section = s } else { fields.append(Field("section", value)) }
            case .children where valueEvent.kind == .sequenceStart:
                children = try readItems(parser, depth: depth + 1, anchors: &anchors)
            case .fields where valueEvent.kind == .mappingStart:
                if case .dictionary(let nested) = try YAMLValue.read(from: parser, startingWith: valueEvent, anchors: &anchors) {
                    fields.append(contentsOf: nested)
                }
            default:
                fields.append(Field(key, try YAMLValue.read(from: parser, startingWith: valueEvent, anchors: &anchors)))
            }
        }
        guard let name else {
            throw parser.error("item has no 'name' (its keys: \(keys.isEmpty ? "none" : keys.joined(separator: ", ")))", at: start)
        }
        return TodoItem(
            name: name, status: ItemKey.status(checked: checked, custom: custom), fields: fields,
            children: children, section: depth == 0 ? section : nil)
    }
}
