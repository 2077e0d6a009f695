#if YAML
import Foundation

/// What an item with merge keys (`<<: *defaults`) is made of, for writing it back: its own
/// keys (the members its `SpannedItem` has, read as an item of their own), the keys it
/// inherits, and where its merge keys stand.
struct YAMLMergedItem {
    /// The item the item's own keys make (nil when they make no item: the name is inherited).
    var own: TodoItem?
    /// The keys its merge keys bring, in the order `YAMLValue.merge` takes them.
    var sources: [Field]
    /// The item's own keys and values (children as arrays of mappings).
    var ownFields: [Field]
    /// Each merge key with its value (`<<: *a`), and the number of own members before it.
    var merges: [(before: Int, span: Range<Int>)]
}

/// Reads item mappings from a parser's events keeping where every key and value stands
/// (`SpannedItem`), for writing into the file with as little change as possible.
/// Offsets are bytes of the file: the parser may read a piece of it placed at `shift`.
final class YAMLSpanReader {
    let parser: YAMLParser
    /// The file's bytes (not the parser's piece).
    let file: UnsafeBufferPointer<UInt8>
    let shift: Int
    let schema: ItemSchema
    let anchors: YAMLAnchors
    var arrayIDs = 0
    /// Items read with merge keys, by their `SpannedItem`.
    var merged: [ObjectIdentifier: YAMLMergedItem] = [:]
    /// Whether any node read has an anchor.
    var sawAnchor = false

    init(parser: YAMLParser, file: UnsafeBufferPointer<UInt8>, shift: Int, schema: ItemSchema, anchors: YAMLAnchors) {
        self.parser = parser
        self.file = file
        self.shift = shift
        self.schema = schema
        self.anchors = anchors
    }

    /// Where an event starts in the file.
    func start(of event: YAMLEvent) -> Int { parser.offset(of: event) + shift }

    /// Where the node read last ends in the file: after its last character, white space
    /// (the line breaks a block scalar takes in) left out.
    func contentEnd() -> Int {
        var end = parser.lastContentEndOffset + shift
        while end > 0, [32, 9, 10, 13].contains(file[end - 1]) { end -= 1 }
        return end
    }

    /// An item's end taken on over comments that belong to it: the rest of its last line
    /// when that is a comment, and the comment lines after it indented past the dash of its
    /// sequence (`dashColumn`, counted from 0).
    func extendedOverComments(_ end: Int, dashColumn: Int) -> Int {
        var end = end
        var i = end
        while i < file.count && (file[i] == 32 || file[i] == 9) { i += 1 }
        if i < file.count && file[i] == UInt8(ascii: "#") && i > end {
            while i < file.count && file[i] != 10 && file[i] != 13 { i += 1 }
            end = i
        }
        while true {
            // The next line: its indentation, and whether it is a comment.
            var j = end
            if j < file.count && file[j] == 13 { j += 1 }
            guard j < file.count && file[j] == 10 else { return end }
            j += 1
            var indent = 0
            while j < file.count && file[j] == 32 {
                j += 1
                indent += 1
            }
            guard indent > dashColumn, j < file.count, file[j] == UInt8(ascii: "#") else { return end }
            while j < file.count && file[j] != 10 && file[j] != 13 { j += 1 }
            end = j
        }
    }

    /// The item whose node starts with `first`; `dashColumn` is the column of its
    /// sequence's dashes when the sequence is in block style.
    func item(startingWith first: YAMLEvent, depth: Int, dashColumn: Int?) throws -> SpannedItem {
        guard depth < Limits.itemLevels else { throw parser.error(Limits.itemDepthMessage, at: first) }
        let start = start(of: first)
        switch first.kind {
        case .alias(let anchor):
            // An alias of an item: no keys of its own; changed, it is written anew.
            let (value, _) = try anchors.expand(anchor, parser: parser, at: first)
            guard case .dictionary(let fields) = value else {
                throw parser.error("expected an item (a mapping with a name)", at: first)
            }
            let place = parser.location(of: first)
            let item = try schema.item(from: fields, depth: depth) { ParseError($0, at: place) }
            var end = contentEnd()
            if let dashColumn { end = extendedOverComments(end, dashColumn: dashColumn) }
            return SpannedItem(
                item: item, span: start..<end, inside: end..<end, members: [], keySpans: [], valueSpans: [],
                children: [],
                childrenArray: nil, childrenArrayID: -1)
        case .mappingStart(let properties):
            if !properties.isEmpty { sawAnchor = sawAnchor || properties.anchor != nil }
            return try mapping(first, start: start, depth: depth, dashColumn: dashColumn)
        default:
            throw parser.error("expected an item (a mapping with a name)", at: first)
        }
    }

    private func mapping(_ first: YAMLEvent, start: Int, depth: Int, dashColumn: Int?) throws -> SpannedItem {
        var reader = MemberReader(schema: schema, depth: depth)
        var keySpans: [Range<Int>] = []
        var valueSpans: [Range<Int>] = []
        var own: [Field] = []
        var children: [SpannedItem] = []
        var childrenArray: ArraySpan? = nil
        var childrenArrayID = -1
        var childrenEntry = -1
        var mergeSources: [Field] = []
        var merges: [(before: Int, span: Range<Int>)] = []
        var close = -1
        while true {
            let keyEvent = try parser.next()
            if case .mappingEnd = keyEvent.kind {
                if first.isFlow { close = parser.offset(of: keyEvent) + shift }
                break
            }
            guard case .scalar(let keyScalar) = keyEvent.kind else {
                throw parser.error("an item's keys must be plain text", at: keyEvent)
            }
            let keyStart = self.start(of: keyEvent)
            let keyEnd = contentEnd()
            let valueEvent = try parser.next()
            let valueStart = self.start(of: valueEvent)
            if valueEvent.anchor != nil { sawAnchor = true }
            if YAMLValue.isMergeKey(keyEvent) {
                let source = try YAMLValue.read(from: parser, startingWith: valueEvent, anchors: anchors)
                mergeSources += try YAMLValue.mergedFields(source, parser: parser, at: valueEvent)
                merges.append((keySpans.count, keyStart..<contentEnd()))
                continue
            }
            let key = YAMLValue.key(keyScalar)
            // The children key, or that key given again (its last value counts: the item is
            // read again without the earlier one below).
            if case .sequenceStart(let properties) = valueEvent.kind, properties.isEmpty,
                childrenArray == nil ? reader.takesChildren(key) : own[childrenEntry].key == key
            {
                guard depth + 1 < Limits.itemLevels else { throw parser.error(Limits.itemDepthMessage, at: valueEvent) }
                children = []
                arrayIDs += 1
                childrenArrayID = arrayIDs
                var elements: [Range<Int>] = []
                var end = -1
                while true {
                    let event = try parser.next()
                    if case .sequenceEnd = event.kind {
                        if valueEvent.isFlow { end = parser.endOffset(of: event) + shift }
                        break
                    }
                    let child = try item(
                        startingWith: event, depth: depth + 1,
                        dashColumn: valueEvent.isFlow ? nil : valueEvent.column - 1)
                    children.append(child)
                    elements.append(child.span)
                }
                if end < 0 { end = elements.last?.upperBound ?? contentEnd() }
                childrenArray = ArraySpan(
                    whole: valueStart..<end,
                    inside: valueEvent.isFlow ? (valueStart + 1)..<(end - 1) : valueStart..<end, elements: elements)
                reader.addChildren(key, children.map(\.item))
                childrenEntry = own.count
                own.append(Field(key, .array(children.map { .dictionary($0.fields) })))
                keySpans.append(keyStart..<keyEnd)
                valueSpans.append(valueStart..<end)
                continue
            }
            let value: FieldValue
            if case .scalar(let scalar) = valueEvent.kind, schema.role(of: key) == .name {
                // A name is its scalar's text, whatever it looks like (as the reader takes it).
                value = .string(scalar.text)
                if let anchor = scalar.anchor { anchors.define(anchor, YAMLValue.resolve(scalar), size: 1) }
            } else {
                value = try YAMLValue.read(from: parser, startingWith: valueEvent, anchors: anchors)
            }
            if let message = reader.add(key, value) { throw parser.error(message, at: valueEvent) }
            own.append(Field(key, value))
            keySpans.append(keyStart..<keyEnd)
            valueSpans.append(valueStart..<max(valueStart, contentEnd()))
        }
        let span: Range<Int>
        let inside: Range<Int>
        let firstEntry = min(keySpans.first?.lowerBound ?? .max, merges.first?.span.lowerBound ?? .max)
        if first.isFlow {
            // In a block list a flow item's line goes on to its comment, as a block item's does.
            span = start..<(dashColumn.map { extendedOverComments(close + 1, dashColumn: $0) } ?? close + 1)
            inside = (start + 1)..<close
        } else {
            let lastEnd = max(valueSpans.last?.upperBound ?? start, merges.last?.span.upperBound ?? start)
            let end = dashColumn.map { extendedOverComments(lastEnd, dashColumn: $0) } ?? lastEnd
            span = start..<end
            inside = min(firstEntry, end)..<end
        }
        if merges.isEmpty, let superseded = own.lazy.map(\.key).positionsGivenAgain() {
            // A key given again has its last value, as the reader takes it: the item is read
            // again without the earlier ones, which stay in the file untouched. (With merge
            // keys the item is read from its values, which `lastOfEachKey` settles.)
            reader = MemberReader(schema: schema, depth: depth)
            var kept = (own: [Field](), keys: [Range<Int>](), values: [Range<Int>]())
            for i in own.indices where !superseded.contains(i) {
                if i == childrenEntry {
                    reader.addChildren(own[i].key, children.map(\.item))
                } else if let message = reader.add(own[i].key, own[i].value) {
                    throw parser.error(message, at: first)
                }
                kept.own.append(own[i])
                kept.keys.append(keySpans[i])
                kept.values.append(valueSpans[i])
            }
            if superseded.contains(childrenEntry) {
                children = []
                childrenArray = nil
                childrenArrayID = -1
            }
            (own, keySpans, valueSpans) = kept
        }
        if case .mappingStart(let properties) = first.kind, let anchor = properties.anchor {
            // An anchored item: an alias of it later repeats it.
            let fields = own.lastOfEachKey()
            anchors.define(
                anchor, .dictionary(merges.isEmpty ? fields : YAMLValue.merge(mergeSources, fields)),
                size: fields.count + 1)
        }
        let ownItem = reader.build()
        let item: TodoItem
        if merges.isEmpty {
            guard let ownItem else { throw parser.error(reader.missingNameMessage, at: first) }
            item = ownItem
        } else {
            let place = parser.location(of: first)
            item = try schema.item(from: YAMLValue.merge(mergeSources, own.lastOfEachKey()), depth: depth) {
                ParseError($0, at: place)
            }
        }
        let spanned = SpannedItem(
            item: item, span: span, inside: flowInside(first, span: span, inside: inside), members: reader.members,
            keySpans: keySpans,
            valueSpans: valueSpans, children: children, childrenArray: childrenArray, childrenArrayID: childrenArrayID)
        if !merges.isEmpty {
            merged[ObjectIdentifier(spanned)] = YAMLMergedItem(
                own: ownItem, sources: mergeSources, ownFields: own, merges: merges)
        }
        return spanned
    }

    /// A flow mapping's inside starts after its `{` (which may follow an anchor or a tag).
    private func flowInside(_ first: YAMLEvent, span: Range<Int>, inside: Range<Int>) -> Range<Int> {
        guard first.isFlow else { return inside }
        var open = span.lowerBound
        while open < inside.upperBound && file[open] != UInt8(ascii: "{") { open += 1 }
        return min(open + 1, inside.upperBound)..<inside.upperBound
    }
}
#endif
