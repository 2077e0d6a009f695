import Foundation

/// What a text format (JSON, XML property lists) tells `TextListPatcher`: how to read an
/// item where it stands, how the file is laid out, and how to write keys, values and items
/// in that layout.
protocol TextListSyntax {
    /// The item object whose text starts at `offset`, with where its keys and values stand;
    /// `arrayIDs` numbers the arrays of children it reads.
    func readItem(at offset: Int, depth: Int, arrayIDs: inout Int) throws -> SpannedItem
    /// Learns how the file is laid out from the list's array and its first items.
    mutating func learn(sample: [SpannedItem], list: ArraySpan) throws

    /// Arrays of items one item a line; item objects one key a line; one level of indentation.
    var arrayLines: Bool { get }
    var itemLines: Bool { get }
    var indent: [UInt8] { get }

    /// An item with its children, as a new item of the file; `line` is its line's indentation.
    func item(_ item: TodoItem, layout: ItemLayout, line: [UInt8], to out: inout [UInt8])
    func value(_ value: FieldValue, line: [UInt8], to out: inout [UInt8])
    func key(_ key: String, to out: inout [UInt8])
    /// What goes between a key and its value where the item has no other key to copy it from.
    func colon(line: [UInt8]) -> [UInt8]
    /// Separators where the file has none to copy: before a key (after the one before) and
    /// before an array element; `line` is the indentation of the next line.
    func memberSeparator(line: [UInt8]) -> [UInt8]
    func elementSeparator(line: [UInt8]) -> [UInt8]
    /// `[` and `]`, `<array>` and `</array>`; an empty array; the same for objects.
    var arrayOpen: [UInt8] { get }
    var arrayClose: [UInt8] { get }
    var emptyArray: [UInt8] { get }
    var objectOpen: [UInt8] { get }
    var objectClose: [UInt8] { get }

    /// What the format cannot hold of a value written, as warning messages.
    func losses(in value: FieldValue) -> [String]
}

/// Writes a list into a text file's list changing only what changed (FORMAT.md, section
/// 7.6): every byte outside the list and of an unchanged item stays; a changed item is
/// changed key by key (`ItemPatch`) in the file's spelling; a new item is written like its
/// siblings; a removed item goes with its separator; a moved item moves its bytes.
///
/// Top-level items that stay at the start and at the end are found by writing each list
/// item as the file would and comparing bytes (reading the file's item only where they
/// differ), so one change in a million items costs little more than copying the file.
struct TextListPatcher<Syntax: TextListSyntax> {
    let bytes: UnsafeBufferPointer<UInt8>
    let path: String
    let schema: ItemSchema
    /// The list's array in the file.
    let list: ArraySpan
    /// What the list is called in messages: `the list under 'data.todos'`, or `the list`.
    let listName: String
    private(set) var syntax: Syntax
    private(set) var layout: ItemLayout
    private var learner: ItemLayout.Learner
    /// How many top-level items the layout was learned from.
    private var sampled = 0
    /// The indentation of the list's items' lines.
    private var elementLine: [UInt8] = []
    private var warnings = WarningLog()
    private var nextID: Int? = nil
    private let now = Clock.now
    private var scratch: [UInt8] = []
    /// Numbers for the arrays of children read, to tell them apart (0 is the list's).
    private var arrayIDs = 0

    /// How many top-level items the layout and style are learned from, besides those that changed.
    static var sampleSize: Int { 1000 }

    init(
        bytes: UnsafeBufferPointer<UInt8>, path: String, list: ArraySpan, listName: String, schema: ItemSchema,
        syntax: Syntax, dropsNulls: Bool
    ) throws {
        self.bytes = bytes
        self.path = path
        self.list = list
        self.listName = listName
        self.schema = schema
        self.syntax = syntax
        learner = ItemLayout.Learner(schema)
        layout = ItemLayout(schema)
        sampled = min(list.elements.count, Self.sampleSize)
        var sample: [SpannedItem] = []
        for k in 0..<sampled {
            let item = try readItem(k)
            learner.adopt(item.fields)
            sample.append(item)
        }
        layout = learner.finish()
        layout.dropsNulls = dropsNulls
        try self.syntax.learn(sample: sample, list: list)
        if let first = list.elements.first, let inside = list.inside {
            elementLine = indentAfterBreak(inside.lowerBound..<first.lowerBound) ?? lineIndent(at: list.whole.lowerBound)
        } else {
            elementLine = lineIndent(at: list.whole.lowerBound) + self.syntax.indent
        }
    }

    private func slice(_ range: Range<Int>) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(rebasing: bytes[range])
    }

    /// The old item at a top-level index, read with where everything stands.
    private mutating func readItem(_ k: Int) throws -> SpannedItem {
        let item = try syntax.readItem(at: list.elements[k].lowerBound, depth: 0, arrayIDs: &arrayIDs)
        item.arrayID = 0
        item.index = k
        return item
    }

    /// The indentation of the line `offset` is on.
    func lineIndent(at offset: Int) -> [UInt8] {
        Self.lineIndent(in: bytes, at: offset)
    }

    static func lineIndent(in bytes: UnsafeBufferPointer<UInt8>, at offset: Int) -> [UInt8] {
        var start = offset
        while start > 0 && bytes[start - 1] != 10 { start -= 1 }
        var end = start
        while end < offset && (bytes[end] == 32 || bytes[end] == 9) { end += 1 }
        return Array(bytes[start..<end])
    }

    /// What follows the last line break of a gap (the next line's indentation), or nil.
    func indentAfterBreak(_ gap: Range<Int>) -> [UInt8]? {
        Self.indentAfterBreak(in: bytes, gap)
    }

    static func indentAfterBreak(in bytes: UnsafeBufferPointer<UInt8>, _ gap: Range<Int>) -> [UInt8]? {
        var i = gap.upperBound
        while i > gap.lowerBound {
            if bytes[i - 1] == 10 { return Array(bytes[i..<gap.upperBound]) }
            i -= 1
        }
        return nil
    }

    // MARK: Writing

    /// Where an old item stood: its array and its index there.
    private struct Origin: Equatable {
        var arrayID: Int
        var index: Int
    }

    /// What a list item becomes in the output.
    private enum Placement {
        /// An old item's bytes as they are.
        case verbatim(Range<Int>, Origin)
        /// An old item changed key by key; its children's placements; its position.
        case patched(SpannedItem, TodoItem, [Placement], [Int])
        /// A new item, written like its siblings.
        case fresh(TodoItem, [Placement], [Int])

        var origin: Origin? {
            switch self {
            case .verbatim(_, let origin): origin
            case .patched(let old, _, _, _): Origin(arrayID: old.arrayID, index: old.index)
            case .fresh: nil
            }
        }
    }

    /// Whether the file's top-level item `k` is `item`: its bytes are what todofmt would
    /// write for it, or it reads as it.
    private mutating func isSame(_ k: Int, _ item: TodoItem) throws -> Bool {
        scratch.removeAll(keepingCapacity: true)
        syntax.item(item, layout: layout, line: elementLine, to: &scratch)
        let span = list.elements[k]
        if scratch.count == span.count {
            let equal = scratch.withUnsafeBufferPointer { memcmp($0.baseAddress!, bytes.baseAddress! + span.lowerBound, span.count) == 0 }
            if equal { return true }
        }
        return try readItem(k).item == item
    }

    /// Writes the file with `given` as its list into `sink`; returns what it could not hold.
    mutating func write(_ given: [TodoItem], to sink: inout ByteSink) throws -> [ConversionWarning] {
        let rewrite = try ListRewrite(oldCount: list.elements.count, new: given) { try isSame($0, $1) }
        // The items between the unchanged start and end, read where they stand.
        var middle: [SpannedItem] = []
        for k in rewrite.oldMiddle {
            let item = try readItem(k)
            if k >= sampled { learner.adopt(item.fields) }
            middle.append(item)
        }
        if rewrite.oldMiddle.contains(where: { $0 >= sampled }) {
            let dropsNulls = layout.dropsNulls
            layout = learner.finish()
            layout.dropsNulls = dropsNulls
        }
        if let key = layout.identityKey { try ListRewrite.checkIdentities(given, key: key, path: path) }
        let alignment = MiddleAlignment(old: middle.map(\.item), new: Array(given[rewrite.newMiddle]), identityKey: layout.identityKey)
        var oldFlat: [SpannedItem] = []
        for item in middle { item.flattened(into: &oldFlat) }
        let renumbered = ListRewrite.renumbered(given, layout: layout)
        let items = renumbered ?? given

        // Placements of the middle's items.
        var flat = 0
        func place(_ item: TodoItem, _ before: TodoItem, _ path: [Int]) -> Placement {
            let f = flat
            flat += 1
            let children = item.children.indices.map { place(item.children[$0], before.children[$0], path + [$0]) }
            guard let o = alignment.alignment.oldIndex(of: f) else { return .fresh(item, children, path) }
            let old = oldFlat[o]
            if alignment.alignment.isUnchanged(f) && item.fields == before.fields && Self.childrenKept(children, of: old) {
                return .verbatim(old.span, Origin(arrayID: old.arrayID, index: old.index))
            }
            return .patched(old, item, children, path)
        }
        let middlePlacements = rewrite.newMiddle.map { place(items[$0], given[$0], [$0]) }
        if layout.integerID != nil, Self.hasFresh(middlePlacements) { nextID = try largestID().map { $0 + 1 } }
        // Items outside the middle whose order number changed.
        var outer: [Int: Placement] = [:]
        if renumbered != nil {
            for i in 0..<items.count where !rewrite.newMiddle.contains(i) && items[i] != given[i] {
                outer[i] = Self.zipPlace(try readItem(rewrite.oldIndex(ofOuter: i)), items[i], given[i], [i])
            }
        }

        // The file up to the list, the list, the file after it.
        sink.write(slice(0..<list.whole.lowerBound))
        let elements = list.elements
        try emitArray(count: items.count, old: list, arrayID: 0, line: lineIndent(at: list.whole.lowerBound), to: &sink) { i in
            if rewrite.newMiddle.contains(i) { return middlePlacements[i - rewrite.prefix] }
            if let placed = outer[i] { return placed }
            let k = rewrite.oldIndex(ofOuter: i)
            return .verbatim(elements[k], Origin(arrayID: 0, index: k))
        }
        sink.write(slice(list.whole.upperBound..<bytes.count))
        return warnings.warnings
    }

    /// The placement of an item outside the middle whose order number changed: the same
    /// tree as the old item, changed where the numbers did.
    private static func zipPlace(_ old: SpannedItem, _ item: TodoItem, _ before: TodoItem, _ path: [Int]) -> Placement {
        let children = item.children.indices.map { zipPlace(old.children[$0], item.children[$0], before.children[$0], path + [$0]) }
        if item.fields == before.fields && childrenKept(children, of: old) {
            return .verbatim(old.span, Origin(arrayID: old.arrayID, index: old.index))
        }
        return .patched(old, item, children, path)
    }

    /// Whether children placements are the old item's children, unchanged and in order.
    private static func childrenKept(_ children: [Placement], of old: SpannedItem) -> Bool {
        guard children.count == old.children.count else { return false }
        for (j, child) in children.enumerated() {
            guard case .verbatim(_, let origin) = child, origin == Origin(arrayID: old.childrenArrayID, index: j) else { return false }
        }
        return true
    }

    private static func hasFresh(_ placements: [Placement]) -> Bool {
        placements.contains { placement in
            switch placement {
            case .verbatim: false
            case .fresh: true
            case .patched(_, _, let children, _): hasFresh(children)
            }
        }
    }

    /// The largest integer id of every item in the file, for new items' ids.
    private mutating func largestID() throws -> Int? {
        guard let key = layout.integerID else { return nil }
        var largest = layout.largestID
        func visit(_ item: SpannedItem) {
            if case .integer(let v)? = item.item.fields[key: key] { largest = max(largest ?? v, v) }
            for child in item.children { visit(child) }
        }
        for k in list.elements.indices where k >= sampled { visit(try readItem(k)) }
        return largest
    }

    /// Writes an array of items: its opening token, the elements with the gaps the old array
    /// had between them (or like them), its closing token. `old` is the array the elements
    /// replace; `line` the indentation of the line it opens on.
    private mutating func emitArray(
        count: Int, old: ArraySpan?, arrayID: Int, line: [UInt8], to sink: inout ByteSink,
        _ element: (Int) -> Placement
    ) throws {
        let oldElements = old?.elements ?? []
        guard count > 0 else {
            // An emptied list stays, as an empty array; an empty one as it was.
            if let old, oldElements.isEmpty {
                sink.write(slice(old.whole))
            } else {
                sink.write(bytes: syntax.emptyArray)
            }
            return
        }
        let inner = syntax.arrayLines ? line + syntax.indent : line
        func gap(after previous: Int?, before next: Int?) -> Range<Int>? {
            if let p = previous, p + 1 < oldElements.count { return oldElements[p].upperBound..<oldElements[p + 1].lowerBound }
            if let n = next, n > 0, n < oldElements.count { return oldElements[n - 1].upperBound..<oldElements[n].lowerBound }
            if oldElements.count >= 2 { return oldElements[0].upperBound..<oldElements[1].lowerBound }
            return nil
        }
        var elementLine = inner
        if let old, let inside = old.inside {
            sink.write(slice(old.whole.lowerBound..<inside.lowerBound))
            if let first = oldElements.first {
                sink.write(slice(inside.lowerBound..<first.lowerBound))
                elementLine = indentAfterBreak(inside.lowerBound..<first.lowerBound) ?? line
            } else if syntax.arrayLines {
                sink.write(bytes: [10] + inner)
            }
        } else {
            sink.write(bytes: syntax.arrayOpen)
            if syntax.arrayLines { sink.write(bytes: [10] + inner) }
        }
        var previous: Int? = nil
        for i in 0..<count {
            let placement = element(i)
            let here = placement.origin.flatMap { $0.arrayID == arrayID ? $0.index : nil }
            if i > 0 {
                if let range = gap(after: previous, before: here) {
                    sink.write(slice(range))
                    elementLine = indentAfterBreak(range) ?? elementLine
                } else {
                    sink.write(bytes: syntax.elementSeparator(line: elementLine))
                }
            }
            try emit(placement, line: elementLine, to: &sink)
            previous = here
        }
        if let old, let inside = old.inside {
            if let last = oldElements.last {
                sink.write(slice(last.upperBound..<inside.upperBound))
            } else if syntax.arrayLines {
                sink.write(bytes: [10] + line)
            }
            sink.write(slice(inside.upperBound..<old.whole.upperBound))
        } else {
            if syntax.arrayLines { sink.write(bytes: [10] + line) }
            sink.write(bytes: syntax.arrayClose)
        }
    }

    private mutating func emit(_ placement: Placement, line: [UInt8], to sink: inout ByteSink) throws {
        switch placement {
        case .verbatim(let span, _):
            sink.write(slice(span))
        case .patched(let old, let item, let children, let path):
            try emitPatched(old, item, children, path: path, line: line, to: &sink)
        case .fresh(let item, let children, let path):
            try emitFresh(item, children, path: path, line: line, to: &sink)
        }
    }

    /// An old item changed key by key (`ItemPatch`): untouched keys keep their bytes.
    private mutating func emitPatched(
        _ old: SpannedItem, _ item: TodoItem, _ children: [Placement], path: [Int], line: [UInt8], to sink: inout ByteSink
    ) throws {
        let edits = ItemPatch.edits(
            old: old.item, members: old.members, new: item, childrenChanged: !Self.childrenKept(children, of: old),
            layout: layout, now: now)
        let members = old.members.count
        let lead: Range<Int>? = members > 0 ? old.inside.lowerBound..<old.keySpans[0].lowerBound : nil
        let memberLine = lead.flatMap(indentAfterBreak) ?? (syntax.itemLines ? line + syntax.indent : line)
        let colon: [UInt8] =
            members > 0 ? Array(bytes[old.keySpans[0].upperBound..<old.valueSpans[0].lowerBound]) : syntax.colon(line: memberLine)
        func gap(after previous: Int?, before next: Int?) -> [UInt8] {
            if let p = previous, p + 1 < members { return Array(bytes[old.valueSpans[p].upperBound..<old.keySpans[p + 1].lowerBound]) }
            if let n = next, n > 0, n < members { return Array(bytes[old.valueSpans[n - 1].upperBound..<old.keySpans[n].lowerBound]) }
            if members >= 2 { return Array(bytes[old.valueSpans[0].upperBound..<old.keySpans[1].lowerBound]) }
            return syntax.memberSeparator(line: memberLine)
        }
        sink.write(slice(old.span.lowerBound..<old.inside.lowerBound))
        var previous: Int? = nil
        var first = true
        for edit in edits {
            let index: Int?
            switch edit {
            case .remove: continue
            case .keep(let i), .replace(let i, _), .replaceChildren(let i): index = i
            case .insert(_, let value):
                if value == .null && layout.dropsNulls { continue }
                index = nil
            case .insertChildren: index = nil
            }
            if first {
                if let lead {
                    sink.write(slice(lead))
                } else if syntax.itemLines {
                    sink.write(bytes: [10] + memberLine)
                }
            } else {
                sink.write(bytes: gap(after: previous, before: index))
            }
            first = false
            previous = index
            switch edit {
            case .remove: break
            case .keep(let i):
                sink.write(slice(old.keySpans[i].lowerBound..<old.valueSpans[i].upperBound))
            case .replace(let i, let value):
                sink.write(slice(old.keySpans[i].lowerBound..<old.valueSpans[i].lowerBound))
                writeValue(value, line: memberLine, path: path, item: item, to: &sink)
            case .replaceChildren(let i):
                sink.write(slice(old.keySpans[i].lowerBound..<old.valueSpans[i].lowerBound))
                try emitArray(count: children.count, old: old.childrenArray, arrayID: old.childrenArrayID, line: memberLine, to: &sink) {
                    children[$0]
                }
            case .insert(let key, let value):
                writeKey(key, colon: colon, to: &sink)
                writeValue(value, line: memberLine, path: path, item: item, to: &sink)
            case .insertChildren(let key):
                writeKey(key, colon: colon, to: &sink)
                try emitArray(count: children.count, old: nil, arrayID: -1, line: memberLine, to: &sink) { children[$0] }
            }
        }
        if !first {
            if let last = old.valueSpans.last {
                sink.write(slice(last.upperBound..<old.inside.upperBound))
            } else if syntax.itemLines {
                sink.write(bytes: [10] + line)
            }
        }
        sink.write(slice(old.inside.upperBound..<old.span.upperBound))
    }

    /// A new item, written like the file's items: their keys in their order, an id and a
    /// creation date where every item has one.
    private mutating func emitFresh(_ item: TodoItem, _ children: [Placement], path: [Int], line: [UInt8], to sink: inout ByteSink) throws {
        let item = layout.completing(item, nextID: &nextID, now: now)
        let position = Self.position(path)
        for (kind, message) in layout.newItemWarnings(for: item, listName: listName) {
            warnings.note(kind, message, item: ItemPositions.describe(position, item))
        }
        let entries = layout.entries(of: item).filter { entry in
            guard case .value(.null) = entry.value, layout.dropsNulls else { return true }
            note(.null, path: path, item: item)
            return false
        }
        let inner = syntax.itemLines ? line + syntax.indent : line
        sink.write(bytes: syntax.objectOpen)
        for (i, entry) in entries.enumerated() {
            if syntax.itemLines {
                sink.write(bytes: i > 0 ? syntax.memberSeparator(line: inner) : [10] + inner)
            } else if i > 0 {
                sink.write(bytes: syntax.memberSeparator(line: inner))
            }
            writeKey(entry.key, colon: syntax.colon(line: inner), to: &sink)
            switch entry.value {
            case .value(let value):
                writeValue(value, line: inner, path: path, item: item, to: &sink)
            case .items:
                try emitArray(count: children.count, old: nil, arrayID: -1, line: inner, to: &sink) { children[$0] }
            case .dictionary: break
            }
        }
        if syntax.itemLines && !entries.isEmpty { sink.write(bytes: [10] + line) }
        sink.write(bytes: syntax.objectClose)
    }

    private mutating func writeKey(_ key: String, colon: [UInt8], to sink: inout ByteSink) {
        scratch.removeAll(keepingCapacity: true)
        syntax.key(key, to: &scratch)
        scratch += colon
        sink.write(bytes: scratch)
    }

    private mutating func writeValue(_ value: FieldValue, line: [UInt8], path: [Int], item: TodoItem, to sink: inout ByteSink) {
        note(value, path: path, item: item)
        scratch.removeAll(keepingCapacity: true)
        syntax.value(value, line: line, to: &scratch)
        sink.write(bytes: scratch)
    }

    /// Notes what the format cannot hold of a value written.
    private mutating func note(_ value: FieldValue, path: [Int], item: TodoItem) {
        for message in syntax.losses(in: value) {
            warnings.note(.values, message, item: ItemPositions.describe(Self.position(path), item))
        }
    }

    /// A position as `list` shows it: `2.1` for indexes `[1, 0]`.
    static func position(_ path: [Int]) -> String { path.map { String($0 + 1) }.joined(separator: ".") }
}
