import Foundation

/// An item dictionary of an existing binary property list: the item read from it, its keys'
/// and values' objects, and its children.
final class BinaryOldItem: PlannedOldItem {
    let object: Int
    let item: TodoItem
    let members: [ItemMember]
    let keyObjects: [Int]
    let valueObjects: [Int]
    let children: [BinaryOldItem]

    init(
        object: Int, item: TodoItem, members: [ItemMember], keyObjects: [Int], valueObjects: [Int],
        children: [BinaryOldItem]
    ) {
        self.object = object
        self.item = item
        self.members = members
        self.keyObjects = keyObjects
        self.valueObjects = valueObjects
        self.children = children
    }

    var fields: [Field] {
        members.map { member in
            guard member.role == .children else { return Field(member.key, member.value) }
            return Field(member.key, .array(children.map { .dictionary($0.fields) }))
        }
    }

    func flattened(into nodes: inout [BinaryOldItem]) {
        nodes.append(self)
        for child in children { child.flattened(into: &nodes) }
    }

    static func read(_ object: Int, reader: BinaryPropertyListReader, schema: ItemSchema, depth: Int) throws
        -> BinaryOldItem
    {
        let at = try reader.offset(of: object)
        guard depth < Limits.itemLevels else { throw reader.error(Limits.itemDepthMessage, at: at) }
        guard let entries = try reader.dictionaryEntries(object) else {
            throw reader.error("an item is not a dictionary of keys and values", at: at)
        }
        var members = MemberReader(schema: schema, depth: depth)
        var children: [BinaryOldItem] = []
        for (keyObject, valueObject) in entries {
            guard let key = try reader.string(keyObject) else {
                throw reader.error("dictionary key is not a string", at: try reader.offset(of: keyObject))
            }
            if children.isEmpty, members.takesChildren(key), let elements = try reader.arrayElements(valueObject),
                try elements.allSatisfy({ try reader.dictionaryEntries($0) != nil })
            {
                children = try elements.map { try read($0, reader: reader, schema: schema, depth: depth + 1) }
                members.addChildren(key, children.map(\.item))
                continue
            }
            if let message = members.add(key, try reader.value(valueObject, depth: depth + 1)) {
                throw reader.error(message, at: try reader.offset(of: valueObject))
            }
        }
        guard let item = members.build() else { throw reader.error(members.missingNameMessage, at: at) }
        return BinaryOldItem(
            object: object, item: item, members: members.members, keyObjects: entries.map(\.key),
            valueObjects: entries.map(\.value),
            children: children)
    }
}

/// Writes a list into an existing binary property list. The file is written anew, but every
/// object outside the list and every unchanged item is copied byte for byte (128-bit
/// integers, UIDs, dates, data, sets, shared objects stay exactly); a changed item changes
/// key by key (`ItemPatch`), a new item is written like its siblings; a list kept as JSON in
/// a data value changes only where the list did.
struct BinaryListRewriter {
    private let reader: BinaryPropertyListReader
    private let path: String
    private let schema: ItemSchema
    private var layout: ItemLayout
    private var writer: BinaryPropertyListWriter
    /// For each old object, its number in the new file once copied (-1 before). 32 bits
    /// are enough: a file of more objects than that would be over 4 GB, and each
    /// number takes half the memory (a million items make about 2.4 million objects).
    private var copied: [Int32]
    private var warnings = WarningLog()
    private var nextID: Int? = nil
    private let now = Clock.now
    private let listName: String

    /// Nil, with nothing written, where the file holds the list as it is.
    static func write(
        _ items: [TodoItem], into bytes: UnsafeBufferPointer<UInt8>, path: String, options: ListOptions,
        embedded: (any EmbeddedListCodec)?, to sink: inout ByteSink
    ) throws -> [ConversionWarning]? {
        let (reader, route, place, listObject) = try locate(in: bytes, path: path, options: options)
        let name = place == .root ? "the list" : "the list under '\(place.keyPath)'"
        var rewriter = BinaryListRewriter(
            reader: reader, path: path, schema: options.schema, listName: name, extra: items)
        if case .jsonData = place {
            guard case .data(let old) = try reader.value(listObject) else { throw reader.error("expected data", at: 8) }
            guard let embedded else {
                throw ConversionError.unsupported("\(path): the list is kept as JSON, which this build cannot write")
            }
            let (json, warnings) = try embedded.update(
                Array(old), with: items, options: options, name: "\(path): the JSON data under '\(place.keyPath)'")
            if json == Array(old) {
                sink.write(bytes)
                return warnings
            }
            sink.write("bplist00")
            let top = try rewriter.copy(reader.topObject, replacing: route[...], to: &sink) { rewriter, sink in
                rewriter.writer.write(.data(Data(json)), to: &sink)
            }
            rewriter.writer.end(top: top, to: &sink)
            return warnings
        }
        try rewriter.learn(listObject)
        // An unchanged list leaves the file as it was (writing it anew would order its
        // objects as todofmt does, not as the app did).
        let rewrite = try rewriter.rewrite(items)
        if rewrite.prefix == rewrite.oldCount && rewrite.oldCount == rewrite.newCount { return nil }
        sink.write("bplist00")
        let top = try rewriter.copy(reader.topObject, replacing: route[...], to: &sink) { rewriter, sink in
            try rewriter.writeList(items, old: listObject, to: &sink)
        }
        rewriter.writer.end(top: top, to: &sink)
        return rewriter.warnings.warnings
    }

    /// The reader of the property list `bytes` (whose name is `path`), the dictionary
    /// entries (by index) that lead from its top object to the list, the list's place and
    /// its object.
    private static func locate(in bytes: UnsafeBufferPointer<UInt8>, path: String, options: ListOptions) throws
        -> (reader: BinaryPropertyListReader, route: [Int], place: ListPlace, list: Int)
    {
        let reader = try BinaryPropertyListReader(bytes: bytes, path: path)
        var route: [Int] = []  // the dictionary entries leading to the list, by index
        var place = ListPlace.root
        var listObject = reader.topObject
        if try reader.arrayElements(reader.topObject) == nil {
            guard case .dictionary(let fields) = try reader.value(reader.topObject) else {
                throw reader.error("the root is neither an array of items nor a dictionary holding one", at: 8)
            }
            try PropertyListReader.refuseKeyedArchive(fields, path: path)
            place = try ListPlace.locate(in: fields, key: options.key, schema: options.schema, path: path).place
            let keys: [String]
            switch place {
            case .root: keys = []
            case .key(let path), .jsonData(let path): keys = path
            }
            for key in keys {
                let entries = try reader.dictionaryEntries(listObject) ?? []
                guard let i = try entries.lastIndex(where: { try reader.string($0.key) == key }) else {
                    throw reader.error("there is no key '\(key)'", at: try reader.offset(of: listObject))
                }
                route.append(i)
                listObject = entries[i].value
            }
        }
        return (reader, route, place, listObject)
    }

    private init(
        reader: BinaryPropertyListReader, path: String, schema: ItemSchema, listName: String, extra: [TodoItem]
    ) {
        self.reader = reader
        self.path = path
        self.schema = schema
        self.listName = listName
        copied = Array(repeating: -1, count: reader.objectCount)
        layout = ItemLayout(schema)
        // Objects written: at most every old one, and every one of the new items.
        writer = BinaryPropertyListWriter(
            nodeCount: reader.objectCount + OutputValue.items(extra).nodeCount + 8, layout: layout)
    }

    private var elements: [Int] = []
    /// The dictionary entries (by index) that lead from the top object to the list.
    private var route: [Int] = []
    private var sampled: [BinaryOldItem] = []
    private var learner = ItemLayout.Learner(.standard)

    /// Learns the layout from the list's first items.
    private mutating func learn(_ list: Int) throws {
        guard let elements = try reader.arrayElements(list) else {
            throw reader.error("the list is not an array", at: try reader.offset(of: list))
        }
        self.elements = elements
        learner = ItemLayout.Learner(schema)
        for object in elements.prefix(1000) {
            let item = try BinaryOldItem.read(object, reader: reader, schema: schema, depth: 0)
            learner.adopt(item.fields)
            sampled.append(item)
        }
        layout = learner.finish()
        layout.dropsNulls = true
    }

    /// Copies an object (and what it refers to) byte for byte, except the value at the end
    /// of `route` (entries of dictionaries by index), which `replacement` writes.
    private mutating func copy(
        _ object: Int, replacing route: ArraySlice<Int>, to sink: inout ByteSink,
        _ replacement: (inout BinaryListRewriter, inout ByteSink) throws -> Int
    ) throws -> Int {
        guard let step = route.first else { return try replacement(&self, &sink) }
        let entries = try reader.dictionaryEntries(object) ?? []
        var keys: [Int] = []
        var values: [Int] = []
        for (i, entry) in entries.enumerated() {
            keys.append(try copy(entry.key, depth: 0, to: &sink))
            values.append(
                i == step
                    ? try copy(entry.value, replacing: route.dropFirst(), to: &sink, replacement)
                    : try copy(entry.value, depth: 0, to: &sink))
        }
        return writer.container(0xD0, refs: keys + values, to: &sink)
    }

    /// Copies an object and what it refers to, byte for byte; an object referred to twice
    /// is copied once.
    private mutating func copy(_ object: Int, depth: Int, to sink: inout ByteSink) throws -> Int {
        if object >= 0 && object < copied.count && copied[object] >= 0 { return Int(copied[object]) }
        guard depth < Limits.valueLevels else {
            throw reader.error(
                "objects nested too deep (\(Limits.valueLevels) levels at most; a reference cycle?)",
                at: try reader.offset(of: object))
        }
        let h = try reader.header(of: object)
        let n: Int
        switch h.marker >> 4 {
        case 0xA, 0xC, 0xD:
            // What the references refer to is copied first; the container then refers to
            // the copies (each in range once copied).
            let count = h.marker >> 4 == 0xD ? 2 * h.count : h.count
            try reader.checkReferences(start: h.start, count: count, at: h.at)
            for i in 0..<count { _ = try copy(reader.reference(from: h.start, i), depth: depth + 1, to: &sink) }
            let reader = self.reader
            n = copied.withUnsafeBufferPointer { copied in
                writer.container(h.marker & 0xF0, count: count, to: &sink) {
                    Int(copied[reader.reference(from: h.start, $0)])
                }
            }
        default:
            n = writer.raw(UnsafeBufferPointer(rebasing: reader.bytes[try reader.scalarBytes(header: h)]), to: &sink)
        }
        if object >= 0 && object < copied.count { copied[object] = Int32(n) }
        return n
    }

    private typealias Placement = ItemPlacement<BinaryOldItem>

    /// The plan being written (for warnings' item positions).
    private var plan: ListPlan<BinaryOldItem>? = nil

    /// Which of the file's items the list's continue, unchanged at the start and end.
    private mutating func rewrite(_ given: [TodoItem]) throws -> ListRewrite {
        if let found = foundRewrite { return found }
        let sampled = self.sampled
        let reader = self.reader
        let schema = self.schema
        let elements = self.elements
        // Most items are the file's: compared in place first, read only where that fails.
        var fast = BinaryItems.reads(schema) ? BinaryItems(reader, schema: schema) : nil
        let found = try ListRewrite(oldCount: elements.count, new: given) { k, item in
            if fast?.matches(elements[k], item, depth: 0) == true { return true }
            return
                (k < sampled.count
                ? sampled[k] : try BinaryOldItem.read(elements[k], reader: reader, schema: schema, depth: 0)).item
                == item
        }
        foundRewrite = found
        return found
    }

    private var foundRewrite: ListRewrite? = nil

    /// The list's array: unchanged items copied, changed ones patched, new ones written.
    private mutating func writeList(_ given: [TodoItem], old list: Int, to sink: inout ByteSink) throws -> Int {
        let rewrite = try self.rewrite(given)
        let middle = try readMiddle(rewrite)
        let plan = try ListPlan(given, rewrite: rewrite, old: middle, layout: layout, path: path) { try node($0) }
        return try write(plan, to: &sink)
    }

    /// The file's top-level item `k`, read.
    private func node(_ k: Int) throws -> BinaryOldItem {
        k < sampled.count ? sampled[k] : try BinaryOldItem.read(elements[k], reader: reader, schema: schema, depth: 0)
    }

    /// The file's items in the middle of `rewrite`; the layout learns from those past the sample.
    private mutating func readMiddle(_ rewrite: ListRewrite) throws -> [BinaryOldItem] {
        var middle: [BinaryOldItem] = []
        for k in rewrite.oldMiddle {
            let item = try node(k)
            if k >= sampled.count { learner.adopt(item.fields) }
            middle.append(item)
        }
        if rewrite.oldMiddle.contains(where: { $0 >= sampled.count }) {
            layout = learner.finish()
            layout.dropsNulls = true
        }
        return middle
    }

    /// The list's array as `plan` plans it.
    private mutating func write(_ plan: ListPlan<BinaryOldItem>, to sink: inout ByteSink) throws -> Int {
        let rewrite = plan.rewrite
        self.plan = plan
        if let key = layout.integerID, plan.hasNew {
            var largest = layout.largestID
            func visit(_ item: TodoItem) {
                if case .integer(let v)? = item.fields[key: key] { largest = max(largest ?? v, v) }
                item.children.forEach(visit)
            }
            for k in elements.indices { visit(try node(k).item) }
            nextID = ItemLayout.id(after: largest)
        }
        var refs: [Int] = []
        refs.reserveCapacity(rewrite.newCount)
        for i in 0..<rewrite.newCount {
            if rewrite.newMiddle.contains(i) {
                refs.append(try write(plan.middle[i - rewrite.prefix], to: &sink))
            } else if let placed = plan.outer[i] {
                refs.append(try write(placed, to: &sink))
            } else {
                refs.append(try copy(elements[rewrite.oldIndex(ofOuter: i)], depth: 0, to: &sink))
            }
        }
        return writer.container(0xA0, refs: refs, to: &sink)
    }

    /// `ListFormat.updateItem` on the binary property list `bytes`, the file `file`: its
    /// top-level item `index` as `change` makes it, the rest copied. This is what `write`
    /// writes for the list with that item changed (top-level items are compared in place,
    /// so the middle is that item), found without reading every item twice. Unsupported
    /// where the plan needs the whole list (`ListPlan.init(replacing:…)`), and in a file of
    /// fewer objects than 2-byte references reach (the references' size then depends on how
    /// many objects the whole list makes).
    static func updateItem(
        at index: Int, in file: String, bytes: UnsafeBufferPointer<UInt8>, path: String, options: ListOptions,
        change: (TodoItem) throws -> TodoItem?
    ) throws -> ItemUpdate {
        guard var rewriter = try large(bytes, path: path, options: options) else { return .unsupported }
        let count = rewriter.elements.count
        guard index < count else { return .unsupported }
        let old = try rewriter.node(index)
        guard let item = try change(old.item) else { return .unchanged }
        guard item != old.item else { return .unsupported }
        let rewrite = ListRewrite(prefix: index, suffix: count - index - 1, oldCount: count, newCount: count)
        let middle = try rewriter.readMiddle(rewrite)
        guard let plan = ListPlan(replacing: index, of: count, with: item, old: middle[0], layout: rewriter.layout)
        else { return .unsupported }
        return try rewriter.rewriting(file) { rewriter, sink in try rewriter.write(plan, to: &sink) }
    }

    /// `ListFormat.updateItems` on the binary property list `bytes`, the file `file`: the run
    /// of top-level items `run` names (given the list's count) as `change` makes it, the
    /// rest copied. The run's own unchanged start and end are found as `write` finds the
    /// list's, so this writes what `write` writes for the list with that run changed,
    /// reading only the run's items. Unsupported as `updateItem` is.
    static func updateItems(
        in file: String, bytes: UnsafeBufferPointer<UInt8>, path: String, options: ListOptions,
        run: (Int) -> Range<Int>?, change: ([TodoItem]) throws -> [TodoItem]?
    ) throws -> ItemUpdate {
        guard var rewriter = try large(bytes, path: path, options: options) else { return .unsupported }
        let count = rewriter.elements.count
        guard let range = run(count), !range.isEmpty, range.upperBound <= count else { return .unsupported }
        let old = try range.map { try rewriter.node($0) }
        guard let items = try change(old.map(\.item)) else { return .unchanged }
        let inner = ListRewrite(oldCount: old.count, new: items) { old[$0].item == $1 }
        let rewrite = ListRewrite(
            prefix: range.lowerBound + inner.prefix, suffix: count - range.upperBound + inner.suffix,
            oldCount: count, newCount: count - old.count + items.count)
        let middle = try rewriter.readMiddle(rewrite)
        guard
            let plan = ListPlan(
                middle: Array(items[inner.prefix..<(items.count - inner.suffix)]), rewrite: rewrite, old: middle,
                layout: rewriter.layout)
        else { return .unsupported }
        return try rewriter.rewriting(file) { rewriter, sink in try rewriter.write(plan, to: &sink) }
    }

    /// `ListFormat.moveItem` on the binary property list `bytes`, the file `file`: top-level
    /// item `from` moved to be item `to` (both from 0) as `place` makes it given its new
    /// neighbours, every other item copied: what `write` writes for the list with that item
    /// moved where it keeps every other item, reading only the moved item and its new
    /// neighbours. Unsupported as `updateItem` is.
    static func moveItem(
        in file: String, bytes: UnsafeBufferPointer<UInt8>, path: String, options: ListOptions, from: Int, to: Int,
        place: (TodoItem, TodoItem?, TodoItem?) throws -> TodoItem?
    ) throws -> ItemUpdate {
        guard var rewriter = try large(bytes, path: path, options: options) else { return .unsupported }
        let count = rewriter.elements.count
        guard !rewriter.layout.hasOrder, from != to, from < count, to < count else { return .unsupported }
        let move = ItemMove(from: from, to: to)
        let old = try rewriter.node(from)
        let (before, after) = move.neighbours(count: count)
        guard
            let placed = try place(
                old.item, try before.map { try rewriter.node($0).item }, try after.map { try rewriter.node($0).item })
        else { return .unsupported }
        var placement: Placement? = nil
        if placed != old.item {
            guard let plan = ListPlan(replacing: from, of: count, with: placed, old: old, layout: rewriter.layout)
            else { return .unsupported }
            rewriter.plan = plan
            placement = plan.middle[0]
        }
        return try rewriter.rewriting(file) { rewriter, sink in
            var refs: [Int] = []
            refs.reserveCapacity(count)
            for i in 0..<count {
                if let placement, i == to {
                    refs.append(try rewriter.write(placement, to: &sink))
                } else {
                    refs.append(try rewriter.copy(rewriter.elements[move.origin(i)], depth: 0, to: &sink))
                }
            }
            return rewriter.writer.container(0xA0, refs: refs, to: &sink)
        }
    }

    /// A rewriter of the list in a binary property list of more objects than 2-byte
    /// references reach, its layout learned; nil where the list is JSON data or the file
    /// is smaller (its references' size then depends on how many objects the whole list
    /// makes: the whole list is written).
    private static func large(_ bytes: UnsafeBufferPointer<UInt8>, path: String, options: ListOptions) throws
        -> BinaryListRewriter?
    {
        let (reader, route, place, listObject) = try locate(in: bytes, path: path, options: options)
        if case .jsonData = place { return nil }
        guard reader.objectCount + 8 > 0xFFFF else { return nil }
        let name = place == .root ? "the list" : "the list under '\(place.keyPath)'"
        var rewriter = BinaryListRewriter(reader: reader, path: path, schema: options.schema, listName: name, extra: [])
        rewriter.route = route
        try rewriter.learn(listObject)
        return rewriter
    }

    /// The file written anew into a temporary file beside `file`: its objects copied but
    /// for the list, which `list` writes (returning its object).
    private mutating func rewriting(
        _ file: String, list: (inout BinaryListRewriter, inout ByteSink) throws -> Int
    ) throws -> ItemUpdate {
        try .rewriting(file) { sink in
            sink.write("bplist00")
            let top = try copy(reader.topObject, replacing: route[...], to: &sink, list)
            writer.end(top: top, to: &sink)
            return warnings.warnings
        }
    }

    private mutating func write(_ placement: Placement, to sink: inout ByteSink) throws -> Int {
        switch placement {
        case .kept(let old): try copy(old.object, depth: 0, to: &sink)
        case .changed(let old, let item, let children, let at): try writePatched(old, item, children, at: at, to: &sink)
        case .added(let item, let children, let at): try writeFresh(item, children, at: at, to: &sink)
        }
    }

    private mutating func writeArray(_ placements: [Placement], to sink: inout ByteSink) throws -> Int {
        var refs: [Int] = []
        refs.reserveCapacity(placements.count)
        for placement in placements { refs.append(try write(placement, to: &sink)) }
        return writer.container(0xA0, refs: refs, to: &sink)
    }

    private mutating func writePatched(
        _ old: BinaryOldItem, _ item: TodoItem, _ children: [Placement], at: ItemAt, to sink: inout ByteSink
    ) throws -> Int {
        let (edits, displaced) = ItemPatch.edits(
            old: old.item, members: old.members, new: item,
            childrenChanged: !ListPlan<BinaryOldItem>.childrenKept(children, of: old),
            layout: layout, now: now)
        warnings.note(chosen: edits.lazy.compactMap(\.insertedKey), by: layout, item: plan?.describe(at) ?? "")
        warnings.note(displaced: displaced, item: plan?.describe(at) ?? "")
        // A null field has no place: it is left out (or its key goes), with a warning.
        if item.fields.contains(where: { $0.value == .null }) { note(.null, at: at) }
        let moved = ItemPatch.removedMembers(edits, old.members)
        var keys: [Int] = []
        var values: [Int] = []
        for edit in edits {
            switch edit {
            case .remove: break
            case .keep(let i):
                keys.append(try copy(old.keyObjects[i], depth: 0, to: &sink))
                values.append(try copy(old.valueObjects[i], depth: 0, to: &sink))
            case .replace(let i, let value):
                keys.append(try copy(old.keyObjects[i], depth: 0, to: &sink))
                values.append(write(value, at: at, to: &sink))
            case .replaceChildren(let i):
                keys.append(try copy(old.keyObjects[i], depth: 0, to: &sink))
                values.append(try writeArray(children, to: &sink))
            case .insert(let key, let value):
                guard value != .null else { continue }
                // A field written again where the list's order puts it, its value unchanged,
                // keeps its objects: a UID, a 128-bit integer or a date's fraction, which the
                // value read does not tell apart, stays as the file has it.
                if let i = moved[key], old.members[i].value == value {
                    keys.append(try copy(old.keyObjects[i], depth: 0, to: &sink))
                    values.append(try copy(old.valueObjects[i], depth: 0, to: &sink))
                    continue
                }
                keys.append(writer.key(key, to: &sink))
                values.append(write(value, at: at, to: &sink))
            case .insertChildren(let key):
                keys.append(writer.key(key, to: &sink))
                values.append(try writeArray(children, to: &sink))
            }
        }
        return writer.container(0xD0, refs: keys + values, to: &sink)
    }

    private mutating func writeFresh(_ item: TodoItem, _ children: [Placement]?, at: ItemAt, to sink: inout ByteSink)
        throws -> Int
    {
        let item = layout.completing(item, nextID: &nextID, now: now)
        let plan = self.plan
        for (kind, message) in layout.newItemWarnings(for: item, listName: listName) {
            warnings.note(kind, message, item: plan?.describe(at) ?? "")
        }
        var keys: [Int] = []
        var values: [Int] = []
        let entries = layout.entries(of: item)
        warnings.note(chosen: entries.lazy.map(\.key), by: layout, item: plan?.describe(at) ?? "")
        for entry in entries {
            switch entry.value {
            case .value(.null):
                note(.null, at: at)
            case .value(let value):
                keys.append(writer.key(entry.key, to: &sink))
                values.append(write(value, at: at, to: &sink))
            case .items:
                keys.append(writer.key(entry.key, to: &sink))
                values.append(try writeArray(children ?? plan!.newChildren(of: item, at: at), to: &sink))
            case .dictionary: break
            }
        }
        return writer.container(0xD0, refs: keys + values, to: &sink)
    }

    private mutating func write(_ value: FieldValue, at: ItemAt, to sink: inout ByteSink) -> Int {
        note(value, at: at)
        return writer.write(value, to: &sink)
    }

    private mutating func note(_ value: FieldValue, at: ItemAt) {
        let plan = self.plan
        for message in Self.losses(in: value) {
            warnings.note(.values, message, item: plan?.describe(at) ?? "")
        }
    }

    /// What a binary property list cannot hold of a value, as warning messages.
    static func losses(in value: FieldValue) -> [String] {
        switch value {
        case .null: return [PropertyListLosses.null]
        case .bigInteger(let digits):
            guard let wide = WideInteger(digits: digits) else { return [PropertyListLosses.tooWide] }
            return wide.fits64Bits ? [] : [PropertyListLosses.wideIntegers]
        case .array(let values): return Array(Set(values.flatMap(losses))).sorted()
        case .dictionary(let fields): return Array(Set(fields.flatMap { losses(in: $0.value) })).sorted()
        default: return []
        }
    }
}
