#if YAML
import Foundation

/// Where a YAML file keeps its list, and the items in it, as `YAMLListPatcher` found them.
struct YAMLListScan {
    /// The list's sequence: from its first dash or its `[` to the end of its last item or
    /// its `]`.
    var whole: Range<Int> = 0..<0
    var flow = false
    /// The column of a block list's dashes.
    var dashColumn = 0
    /// For a list under a key: the offset after the key's colon (where `[]` goes when it
    /// is emptied), and the key's column.
    var afterColon: Int? = nil
    var keyColumn = 0
    var elements: [Range<Int>] = []
    /// Each top-level item's hash, or (in a file with anchors or merge keys) the items.
    var hashes: [Int] = []
    var kept: [SpannedItem] = []
    /// The metadata document's mapping and its fields.
    var header: (span: Range<Int>, fields: [Field])? = nil
}

/// Writes a list into an existing YAML file changing only what changed (FORMAT.md, section
/// 7.6): every byte outside the changed items stays (comments, the header document, other
/// keys, the layout, quoting, the final newline); an unchanged item keeps its bytes and a
/// moved one moves them; a changed item changes value by value in the file's spelling
/// (`ItemPatch`); a new item is written like its siblings; a removed item goes with its
/// lines. Items are paired as `ListRewrite` and `ListPlan` pair them.
struct YAMLListPatcher {
    let bytes: UnsafeBufferPointer<UInt8>
    let path: String
    let options: ListOptions
    private var scan = YAMLListScan()
    /// Whether items are kept whole from the scan (a file with anchors or merge keys).
    private var keepsAll = false
    private var spanReader: YAMLSpanReader? = nil
    private var merged: [ObjectIdentifier: YAMLMergedItem] = [:]
    private var layout: ItemLayout
    private var style = YAMLWriteStyle()
    private var warnings = WarningLog()
    private var nextID: Int? = nil
    private let now = Clock.now
    private var plan: ListPlan<SpannedItem>? = nil
    private var arrayIDs = 0
    private var sawAnchor = false
    /// Whether an item of a block list is in flow style (`- {name: a}`): the write of such
    /// a file is read back before it is kept (an item given block items as children there
    /// was written as lines inside `[…]`, which do not read).
    private var sawFlowItem = false
    /// How many top-level items the list written has (the file likely has as many).
    private var expectedCount = 0
    /// The file, when it is mapped: pages are handed back as passes over them go on.
    private let mapped: MappedFile?
    private static var releaseEvery: Int { 4096 }
    /// How many of the list's first items teach the layout and the style.
    private static var sampleSize: Int { 1000 }
    /// For a patcher of a run of the list (`head(of:…)`): the list's first items, read where
    /// the file starts, the layout learnt from them so far, and how many items the list has
    /// before the run.
    private var headSample: [SpannedItem]? = nil
    private var headLearner: ItemLayout.Learner? = nil
    private var itemsBefore: () -> Int = { 0 }
    /// Whether the run (`readRun`) stops before the list's last item.
    private var runStopsShort = false

    init(bytes: UnsafeBufferPointer<UInt8>, path: String, options: ListOptions, mapped: MappedFile?) {
        self.bytes = bytes
        self.path = path
        self.options = options
        self.mapped = mapped
        layout = ItemLayout(options.schema)
    }

    /// Writes `list` into the file, into `sink`; returns what could not be written as asked.
    static func write(
        _ list: TodoList, into bytes: UnsafeBufferPointer<UInt8>, path: String, options: ListOptions,
        to sink: inout ByteSink,
        mapped: MappedFile? = nil
    ) throws -> [ConversionWarning] {
        var patcher = YAMLListPatcher(bytes: bytes, path: path, options: options, mapped: mapped)
        patcher.expectedCount = list.items.count
        try patcher.locate()
        let anchored = patcher.sawAnchor || patcher.keepsAll && !patcher.merged.isEmpty
        guard anchored || patcher.sawFlowItem else { return try patcher.write(list, to: &sink) }
        // Anchors, aliases and merge keys, items in flow style: what is written must read
        // back as the list.
        var memory = ByteSink()
        let warnings = try patcher.write(list, to: &memory)
        let written = try memory.finish(path: path)
        try check(written, reads: list, path: path, options: options, anchored: anchored)
        sink.write(bytes: written)
        return warnings
    }

    /// `ListFormat.updateItem` on the YAML text `bytes`, the file `file`: its top-level item
    /// `index` as `change` makes it, every other byte as it stands. This is what `write`
    /// writes for the list with that item changed (top-level items are compared in place,
    /// so the middle is that item), without reading the list a second time into items.
    /// Unsupported where the file has anchors, aliases or merge keys (what is written is
    /// read back as the whole list), or the plan needs the whole list.
    static func updateItem(
        at index: Int, in file: String, bytes: UnsafeBufferPointer<UInt8>, path: String, options: ListOptions,
        mapped: MappedFile?, change: (TodoItem) throws -> TodoItem?
    ) throws -> ItemUpdate {
        var patcher = YAMLListPatcher(bytes: bytes, path: path, options: options, mapped: mapped)
        try patcher.locate()
        guard !patcher.sawAnchor, !patcher.keepsAll, index < patcher.scan.elements.count else { return .unsupported }
        // Read again where the list is written: its arrays are numbered as `write` numbers them.
        let arrayIDs = patcher.arrayIDs
        let old = try patcher.readItem(index).item
        patcher.arrayIDs = arrayIDs
        guard let item = try change(old) else { return .unchanged }
        // The comparison is by hash: an item that hashes as the file's stays (rare: left to it).
        guard !patcher.isSame(index, item) else { return .unsupported }
        return try .rewriting(file) {
            try patcher.write(.item(index, item), metadata: patcher.scan.header?.fields ?? [], to: &$0)
        }
    }

    /// `updateItem` in a file laid out as a new file's writer lays one out (a file todofmt
    /// wrote, edited since), without parsing all of it (`updateItemsInRun` of that item).
    static func updateItemInRun(
        at index: Int, in file: String, bytes: UnsafeBufferPointer<UInt8>, path: String, options: ListOptions,
        mapped: MappedFile?, change: (TodoItem) throws -> TodoItem?
    ) throws -> ItemUpdate? {
        try updateItemsInRun(
            in: file, bytes: bytes, path: path, options: options, mapped: mapped, plainOnly: false,
            run: { count in index < count ? index..<index + 1 : nil },
            change: { items in try change(items[0]).map { [$0] } })
    }

    /// `ListFormat.updateItems` in a file laid out as a new file's writer lays one out
    /// (with `plainOnly`, without a blank or comment line among the items' lines: how the
    /// whole write places such gaps around added, removed and moved items is its own),
    /// without parsing all of it: the items' lines are found by `YAMLItemLines`, and only
    /// the list's first items (its layout, as `head(of:…)` reads them) and the run with one
    /// item on either side are read: what `write(run:…)` needs to write the run as `write`
    /// writes it. Nil, with nothing written, where this does not apply: the file does not
    /// start as a new file does, a line is not one the scan follows, the run does not read
    /// as its items, or the plan needs the whole list.
    static func updateItemsInRun(
        in file: String, bytes: UnsafeBufferPointer<UInt8>, path: String, options: ListOptions,
        mapped: MappedFile?, plainOnly: Bool = true, run: (Int) -> Range<Int>?,
        change: ([TodoItem]) throws -> [TodoItem]?
    ) throws -> ItemUpdate? {
        guard options.key == nil, let (head, listStart) = head(of: bytes, path: path, options: options, mapped: mapped),
            let starts = YAMLItemLines.starts(in: bytes, from: listStart, plainOnly: plainOnly),
            let range = run(starts.count),
            !range.isEmpty, range.upperBound <= starts.count
        else { return nil }
        var patcher = head
        let first = max(0, range.lowerBound - 1)
        let last = min(starts.count - 1, range.upperBound)
        let stopsShort = last + 1 < starts.count
        let end = stopsShort ? starts[last + 1] : bytes.count
        guard patcher.readRun(starts[first]..<end, count: last - first + 1, stopsShort: stopsShort) else {
            return nil
        }
        var items = patcher.scan.kept.map(\.item)
        let inner = (range.lowerBound - first)..<(range.upperBound - first)
        guard let changed = try change(Array(items[inner])) else { return .unchanged }
        items.replaceSubrange(inner, with: changed)
        let update = try ItemUpdate.rewriting(file) {
            try patcher.write(run: items, itemsBefore: { first }, to: &$0)
        }
        if case .unsupported = update { return nil }
        return update
    }

    /// `ListFormat.moveItem` in a file laid out as a new file's writer lays one out: the
    /// lines of top-level item `from` (up to the next item's dash, its comments with them)
    /// moved before those of the item that will follow it, every other byte as it stands.
    /// The moved item is read, and its new neighbours for `place` (a move may change its
    /// section); where it changes, its lines are what `write(run:…)` writes for it. Nil,
    /// with nothing written, where this does not apply (as `updateItemsInRun`), or the
    /// items keep an order or an identity of their own.
    static func moveItemInRun(
        in file: String, bytes: UnsafeBufferPointer<UInt8>, path: String, options: ListOptions,
        mapped: MappedFile?, from: Int, to: Int, place: (TodoItem, TodoItem?, TodoItem?) throws -> TodoItem?
    ) throws -> ItemUpdate? {
        guard options.key == nil, let (head, listStart) = head(of: bytes, path: path, options: options, mapped: mapped),
            !head.layout.hasOrder, head.layout.identityKey == nil,
            let starts = YAMLItemLines.starts(in: bytes, from: listStart, plainOnly: true)
        else { return nil }
        let count = starts.count
        // Every item's lines end with a line break, so that any may come last or not.
        guard from != to, from < count, to < count, bytes.last == 10 else { return nil }
        func end(_ k: Int) -> Int { k + 1 < count ? starts[k + 1] : bytes.count }
        func read(_ k: Int) -> YAMLListPatcher? {
            var patcher = head
            return patcher.readRun(starts[k]..<end(k), count: 1, stopsShort: k + 1 < count) ? patcher : nil
        }
        let move = ItemMove(from: from, to: to)
        let moved = move.span
        guard var patcher = read(from) else { return nil }
        let old = patcher.scan.kept[0].item
        let (before, after) = move.neighbours(count: count)
        var neighbours: [TodoItem?] = []
        for k in [before, after] {
            guard let k else {
                neighbours.append(nil)
                continue
            }
            guard let neighbour = read(k) else { return nil }
            neighbours.append(neighbour.scan.kept[0].item)
        }
        guard let placed = try place(old, neighbours[0], neighbours[1]) else { return nil }
        var lines = Array(bytes[starts[from]..<end(from)])
        var warnings: [ConversionWarning] = []
        if placed != old {
            // The file with the item changed in place, in memory (room made at once: no
            // copy as it grows), from which its new lines are taken.
            var memory = ByteSink()
            memory.reserveCapacity(bytes.count + 4096)
            guard let written = try patcher.write(run: [placed], itemsBefore: { from }, to: &memory) else {
                return nil
            }
            warnings = written
            let length = memory.byteCount - bytes.count + lines.count
            lines = memory.withBytes { Array($0[starts[from]..<(starts[from] + length)]) }
        }
        return try .rewriting(file) { sink in
            sink.write(UnsafeBufferPointer(rebasing: bytes[0..<starts[moved.lowerBound]]))
            if from > to {
                sink.write(bytes: lines)
                sink.write(UnsafeBufferPointer(rebasing: bytes[starts[to]..<starts[from]]))
            } else {
                sink.write(UnsafeBufferPointer(rebasing: bytes[starts[from + 1]..<end(to)]))
                sink.write(bytes: lines)
            }
            sink.write(UnsafeBufferPointer(rebasing: bytes[end(moved.upperBound)...]))
            return warnings
        }
    }

    /// Fails when `written` does not read back as `list` (its names, statuses and fields).
    private static func check(
        _ written: [UInt8], reads list: TodoList, path: String, options: ListOptions, anchored: Bool = true
    ) throws {
        let read: TodoList
        do {
            read = try TodoList(bytes: written, format: .yaml, name: path, options: options)
        } catch {
            let what = anchored ? "the file's anchors and aliases" : "the file (an item in flow style, `{…}`)"
            throw ConversionError.unsupported(
                "\(path): writing this change would break \(what) (\(error)); nothing was written")
        }
        // NaN reads back as NaN, which `==` does not call equal to itself.
        func sameValue(_ a: FieldValue, _ b: FieldValue) -> Bool {
            switch (a, b) {
            case (.double(let x), .double(let y)): return x == y || (x.isNaN && y.isNaN)
            case (.array(let x), .array(let y)): return x.count == y.count && zip(x, y).allSatisfy { sameValue($0, $1) }
            case (.dictionary(let x), .dictionary(let y)):
                return x.count == y.count && zip(x, y).allSatisfy { $0.key == $1.key && sameValue($0.value, $1.value) }
            default: return a == b
            }
        }
        func same(_ a: [TodoItem], _ b: [TodoItem]) -> Bool {
            guard a.count == b.count else { return false }
            for (x, y) in zip(a, b) {
                guard x.name == y.name, x.status == y.status, same(x.children, y.children) else { return false }
                for field in x.fields where options.schema.role(of: field.key) != .order {
                    guard let value = y.fields[key: field.key], sameValue(value, field.value) else { return false }
                }
            }
            return true
        }
        guard same(list.items, read.items) else {
            guard anchored else {
                throw ConversionError.unsupported(
                    "\(path): writing this change would not read back as the list (an item in flow style, `{…}`); "
                        + "nothing was written")
            }
            throw ConversionError.unsupported(
                "\(path): this change touches a value that anchors share with other items (an anchored value, an alias, "
                    + "a merge key); todofmt cannot write it without changing those items: nothing was written")
        }
    }

    // MARK: Finding the list

    /// Finds the list and reads its items: a document that is a sequence, or the place a
    /// mapping document holds it (`ListPlace`, `--key`); a mapping document beside it is the
    /// metadata.
    private mutating func locate() throws {
        keepsAll = mayHoldAnchors()
        let parser = YAMLParser(bytes: bytes, file: path)
        let anchors = YAMLAnchors(limitFor: bytes.count)
        var mappings: [(span: Range<Int>, fields: [Field])] = []
        var found = false
        while true {
            let event = try parser.next()
            switch event.kind {
            case .streamEnd:
                if found {
                    if let header = mappings.first { scan.header = header }
                    return
                }
                guard let root = mappings.last else {
                    throw ConversionError.noList(path: path, reason: "the file holds no YAML list")
                }
                let (place, _) = try ListPlace.locate(
                    in: root.fields, key: options.key, schema: options.schema, path: path)
                guard case .key(let keys) = place else {
                    throw ConversionError.noList(path: path, reason: "the list is not a sequence")
                }
                if mappings.count == 2 { scan.header = mappings[0] }
                try locate(keys, inDocument: mappings.count - 1)
                return
            case .sequenceStart:
                guard !found else { throw parser.error("a second list of items; todofmt reads one", at: event) }
                found = true
                try readList(parser, start: event, anchors: anchors)
            case .mappingStart:
                let start = parser.offset(of: event)
                guard
                    case .dictionary(let fields) = try YAMLValue.read(
                        from: parser, startingWith: event, anchors: anchors)
                else { continue }
                mappings.append((start..<trimmed(parser.lastContentEndOffset), fields))
                if mappings.count > 2 || (found && mappings.count > 1) {
                    throw parser.error("a second metadata mapping; todofmt reads one", at: event)
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

    /// Whether the text may hold anchors (`&`) or merge keys (`<<`); looked at a piece at a
    /// time, each handed back to the system when the file is mapped.
    private func mayHoldAnchors() -> Bool {
        guard let base = bytes.baseAddress else { return false }
        let piece = 1 << 22
        var start = 0
        while start < bytes.count {
            let end = min(bytes.count, start + piece)
            // A piece and the byte after it, so a `<<` across the cut is seen.
            let window = UnsafeBufferPointer(start: base + start, count: min(bytes.count, end + 1) - start)
            if memchr(window.baseAddress!, Int32(UInt8(ascii: "&")), window.count) != nil
                || YAMLListReader.mayMerge(window)
            {
                return true
            }
            mapped?.release(before: end)
            start = end
        }
        return false
    }

    private func trimmed(_ end: Int) -> Int {
        var end = end
        while end > 0, [32, 9, 10, 13].contains(bytes[end - 1]) { end -= 1 }
        return end
    }

    /// Reads the list at a path of keys in the mapping of document `index` (from 0).
    private mutating func locate(_ keys: [String], inDocument index: Int) throws {
        let parser = YAMLParser(bytes: bytes, file: path)
        let anchors = YAMLAnchors(limitFor: bytes.count)
        var documents = -1
        while true {
            let event = try parser.next()
            switch event.kind {
            case .streamEnd:
                throw ConversionError.noList(
                    path: path, reason: "the list under '\(keys.joined(separator: "."))' was not found")
            case .mappingStart:
                documents += 1
                if documents < index {
                    _ = try YAMLValue.read(from: parser, startingWith: event, anchors: anchors)
                    continue
                }
                try descend(parser, keys: keys[...], anchors: anchors)
                // The rest of the stream, for its anchors' sake and to check it.
                while true {
                    let rest = try parser.next()
                    if case .streamEnd = rest.kind { return }
                }
            case .sequenceStart, .scalar, .alias:
                documents += 1
                _ = try YAMLValue.read(from: parser, startingWith: event, anchors: anchors)
            default: continue
            }
        }
    }

    /// Inside a mapping (its start read): finds `keys` and reads the list there; reads the
    /// rest of the mapping too.
    private mutating func descend(_ parser: YAMLParser, keys: ArraySlice<String>, anchors: YAMLAnchors) throws {
        var done = false
        while true {
            let keyEvent = try parser.next()
            if case .mappingEnd = keyEvent.kind { return }
            let key = try YAMLValue.read(from: parser, startingWith: keyEvent, anchors: anchors)
            let keyEnd = parser.lastContentEndOffset
            let valueEvent = try parser.next()
            if YAMLValue.keyText(key) == keys.first! {
                if done {
                    // Readers take the last one (the list read is there), while the earlier
                    // one is where the list was looked for: writing either would mislead.
                    throw parser.error(
                        "the key '\(keys.first!)' is given twice in one mapping; readers take the last one: "
                            + "remove the other before writing into the file", at: keyEvent)
                }
                done = true
                if keys.count == 1, case .sequenceStart = valueEvent.kind {
                    var colon = keyEnd
                    while colon < bytes.count && bytes[colon] != UInt8(ascii: ":") { colon += 1 }
                    scan.afterColon = colon + 1
                    scan.keyColumn = keyEvent.column - 1
                    try readList(parser, start: valueEvent, anchors: anchors)
                    continue
                }
                if keys.count > 1, case .mappingStart = valueEvent.kind {
                    try descend(parser, keys: keys.dropFirst(), anchors: anchors)
                    continue
                }
            }
            _ = try YAMLValue.read(from: parser, startingWith: valueEvent, anchors: anchors)
        }
    }

    /// Reads the list's sequence (its start read): where each item stands and what it is.
    private mutating func readList(_ parser: YAMLParser, start: YAMLEvent, anchors: YAMLAnchors) throws {
        scan.flow = start.isFlow
        scan.dashColumn = start.column - 1
        if !keepsAll {
            // As many items as the list written has, most likely: no growing copies.
            scan.elements.reserveCapacity(expectedCount + 16)
            scan.hashes.reserveCapacity(expectedCount + 16)
        }
        let first = parser.offset(of: start)
        let spans = YAMLSpanReader(parser: parser, file: bytes, shift: 0, schema: options.schema, anchors: anchors)
        let reader = ItemReader(parser: parser, schema: options.schema, anchors: anchors, merges: false)
        var end = first
        while true {
            let event = try parser.next()
            if case .sequenceEnd = event.kind {
                end =
                    start.isFlow
                    ? parser.endOffset(of: event) : (scan.elements.last?.upperBound ?? end)
                break
            }
            if event.isFlow && !start.isFlow { sawFlowItem = true }
            if keepsAll {
                let item = try spans.item(
                    startingWith: event, depth: 0, dashColumn: start.isFlow ? nil : scan.dashColumn)
                item.index = scan.kept.count
                scan.kept.append(item)
                scan.elements.append(item.span)
            } else {
                let itemStart = parser.offset(of: event)
                let item = try reader.item(startingWith: event, depth: 0)
                var itemEnd = spans.contentEnd()
                if !start.isFlow { itemEnd = spans.extendedOverComments(itemEnd, dashColumn: scan.dashColumn) }
                scan.hashes.append(item.hashValue)
                scan.elements.append(itemStart..<itemEnd)
                if let mapped, scan.elements.count % Self.releaseEvery == 0 { mapped.release(before: itemStart) }
            }
        }
        scan.whole = first..<end
        merged = spans.merged
        arrayIDs = spans.arrayIDs
        sawAnchor = spans.sawAnchor || !anchors.isEmpty
    }

    // MARK: Reading items where they stand

    /// The file's top-level item `k` with where its keys and values stand.
    private mutating func readItem(_ k: Int) throws -> SpannedItem {
        if keepsAll { return scan.kept[k] }
        // The item alone, its first line's start made spaces so its columns stay.
        let span = scan.elements[k]
        let lineStart = Self.lineStart(of: span.lowerBound, in: bytes)
        var piece = [UInt8](repeating: 32, count: span.lowerBound - lineStart)
        piece += bytes[span]
        let item = try piece.withUnsafeBufferPointer { buffer -> SpannedItem in
            let parser = YAMLParser(bytes: buffer, file: path)
            let reader = YAMLSpanReader(
                parser: parser, file: bytes, shift: lineStart, schema: options.schema,
                anchors: YAMLAnchors(limitFor: bytes.count))
            reader.arrayIDs = arrayIDs
            while true {
                let event = try parser.next()
                switch event.kind {
                case .streamStart, .documentStart: continue
                default:
                    let item = try reader.item(
                        startingWith: event, depth: 0, dashColumn: scan.flow ? nil : scan.dashColumn)
                    arrayIDs = reader.arrayIDs
                    return item
                }
            }
        }
        item.index = k
        return item
    }

    private func isSame(_ k: Int, _ item: TodoItem) -> Bool {
        keepsAll ? scan.kept[k].item == item : scan.hashes[k] == item.hashValue
    }

    // MARK: Writing

    private typealias Placement = ItemPlacement<SpannedItem>

    private mutating func write(_ list: TodoList, to sink: inout ByteSink) throws -> [ConversionWarning] {
        try write(.list(list.items), metadata: list.metadata, to: &sink)!
    }

    /// What is written into the file: a whole list, or the file's list with one top-level
    /// item changed.
    private enum Change {
        case list([TodoItem])
        case item(Int, TodoItem)
    }

    /// Writes the change into the file, into `sink`; returns what could not be written as
    /// asked. Nil, with nothing written, where one changed item needs the whole list
    /// (`ListPlan.init(replacing:…)`).
    private mutating func write(_ change: Change, metadata: [Field], to sink: inout ByteSink) throws
        -> [ConversionWarning]?
    {
        let count = scan.elements.count
        let rewrite: ListRewrite
        switch change {
        case .list(let given): rewrite = ListRewrite(oldCount: count, new: given) { isSame($0, $1) }
        case .item(let k, _): rewrite = ListRewrite(prefix: k, suffix: count - k - 1, oldCount: count, newCount: count)
        }
        // The layout and style: from the first items and those that changed.
        var learner = ItemLayout.Learner(options.schema)
        var sample: [SpannedItem] = []
        var middle: [SpannedItem] = []
        let sampled = min(count, Self.sampleSize)
        if let headSample, let headLearner {
            // A run: the list's first items were read, and taught the layout, with the file's
            // start; the run's items past them teach it too.
            for k in rewrite.oldMiddle { middle.append(try readItem(k)) }
            let lastSampled = headSample.last?.span.lowerBound ?? -1
            let past = middle.filter { $0.span.lowerBound > lastSampled }
            learner = headLearner
            for item in past { learner.adopt(item.fields) }
            sample = headSample + past
        } else {
            for k in 0..<sampled { sample.append(try readItem(k)) }
            for k in rewrite.oldMiddle { middle.append(k < sampled ? sample[k] : try readItem(k)) }
            sample += middle.filter { $0.index >= sampled }
            for item in sample { learner.adopt(item.fields) }
        }
        for item in sample {
            style.learn(item, bytes: bytes, schema: options.schema, merged: merged[ObjectIdentifier(item)])
        }
        layout = learner.finish()
        style.finish(list: scan, bytes: bytes)
        // Keys go where the file's items have theirs, also when those follow todofmt's order
        // of roles (a key added after the others stays after them).
        if layout.keyOrder.isEmpty { layout.keyOrder = style.keyOrder }
        // A run cannot renumber the list's order fields.
        if headSample != nil, layout.hasOrder { return nil }
        var plan: ListPlan<SpannedItem>
        switch change {
        case .list(let given):
            plan = try ListPlan(
                given, rewrite: rewrite, old: middle, layout: layout, path: path, movesAcrossDepths: true
            ) { try readItem($0) }
        case .item(let k, let item):
            guard
                let one = ListPlan(
                    replacing: k, of: count, with: item, old: middle[0], layout: layout, movesAcrossDepths: true)
            else { return nil }
            plan = one
        }
        if layout.integerID != nil, plan.hasNew {
            // New ids follow the largest in the list, which a run does not hold.
            if headSample != nil { return nil }
            nextID = try ItemLayout.id(after: largestID(sampled: sampled))
        }
        plan.itemsBefore = itemsBefore
        self.plan = plan

        // Metadata: a changed one replaces the header document's mapping.
        var from = 0
        if !metadata.isEmpty, metadata != scan.header?.fields {
            if let header = scan.header, header.span.upperBound <= scan.whole.lowerBound {
                sink.write(UnsafeBufferPointer(rebasing: bytes[0..<header.span.lowerBound]))
                sink.write(bytes: try Self.mapping(metadata))
                from = header.span.upperBound
            } else if scan.header == nil && scan.afterColon == nil && !startsWithDocument() {
                // After a byte order mark, which only the file's start may have.
                from = ByteOrderMark.length(in: bytes)
                sink.write(UnsafeBufferPointer(rebasing: bytes[0..<from]))
                sink.write(
                    bytes: lineBreaks(Array("---\n".utf8) + (try Self.mapping(metadata)) + Array("\n---\n".utf8)))
            } else {
                warnings.note(
                    .metadata, "the list's metadata (front matter) was not written: the file keeps its own", item: "")
            }
        }
        if rewrite.newCount == 0 {
            // An emptied list stays where it was, as an empty sequence.
            if count == 0 {
                sink.write(UnsafeBufferPointer(rebasing: bytes[from..<bytes.count]))
            } else if let colon = scan.afterColon, !scan.flow {
                sink.write(UnsafeBufferPointer(rebasing: bytes[from..<colon]))
                sink.write(bytes: Array(" []".utf8))
                sink.write(UnsafeBufferPointer(rebasing: bytes[scan.whole.upperBound..<bytes.count]))
            } else {
                sink.write(UnsafeBufferPointer(rebasing: bytes[from..<scan.whole.lowerBound]))
                sink.write(bytes: Array("[]".utf8))
                sink.write(UnsafeBufferPointer(rebasing: bytes[scan.whole.upperBound..<bytes.count]))
            }
            return warnings.warnings
        }
        var out: [UInt8] = []
        if count == 0 {
            // An empty `[]` gets a block list (a flow one inside flow).
            let dash = scan.afterColon != nil ? scan.keyColumn + style.sequenceIndent(under: scan.keyColumn) : 0
            let flowList = scan.flow && scan.afterColon == nil && scan.whole.count > 2
            if let colon = scan.afterColon {
                sink.write(UnsafeBufferPointer(rebasing: bytes[from..<(colon - 1)]))
                out += Array(":".utf8)
            } else {
                // A block list cannot go on after what shares its line (`--- []`, the line a
                // new file's empty list after front matter is on): it starts on the next line
                // (written on `---`'s line, the file was one libyaml refused; hunt 84).
                var end = scan.whole.lowerBound
                var lineStart = end
                while lineStart > 0 && bytes[lineStart - 1] != 10 && bytes[lineStart - 1] != 13 { lineStart -= 1 }
                let shared = !flowList && bytes[lineStart..<end].contains { $0 != 32 && $0 != 9 }
                if shared {
                    while end > max(from, lineStart) && (bytes[end - 1] == 32 || bytes[end - 1] == 9) { end -= 1 }
                }
                sink.write(UnsafeBufferPointer(rebasing: bytes[from..<end]))
                if shared { sink.write(bytes: lineBreaks([10])) }
            }
            try emitArray(
                plan.middle, old: nil, flow: flowList, dashColumn: dash, arrayID: -1, firstLine: scan.afterColon == nil,
                to: &out)
            sink.write(bytes: lineBreaks(out))
            sink.write(UnsafeBufferPointer(rebasing: bytes[scan.whole.upperBound..<bytes.count]))
            return warnings.warnings
        }
        sink.write(UnsafeBufferPointer(rebasing: bytes[from..<scan.whole.lowerBound]))
        let old = ArraySpan(
            whole: scan.whole,
            inside: scan.flow ? (scan.whole.lowerBound + 1)..<(scan.whole.upperBound - 1) : scan.whole,
            elements: scan.elements)
        let elements = scan.elements
        let mapped = self.mapped
        try emitArray(
            count: rewrite.newCount, old: old, flow: scan.flow, dashColumn: scan.dashColumn, arrayID: 0, to: &out,
            flush: &sink
        ) { i in
            if rewrite.newMiddle.contains(i) { return (plan.middle[i - rewrite.prefix], nil) }
            if let placed = plan.outer[i] { return (placed, nil) }
            let k = rewrite.oldIndex(ofOuter: i)
            if let mapped, i % Self.releaseEvery == 0 { mapped.release(before: elements[k].lowerBound) }
            return (nil, ItemOrigin(arrayID: 0, index: k, span: elements[k]))
        }
        sink.write(bytes: lineBreaks(out))
        sink.write(UnsafeBufferPointer(rebasing: bytes[scan.whole.upperBound..<bytes.count]))
        return warnings.warnings
    }

    // MARK: Writing a run of the list

    /// A patcher of a run of the list's items (`readRun`, `write(run:…)`) in a file that
    /// starts as a new file's writer starts one: at most one header document, then the
    /// list, a block sequence at the first column. It reads the header and the list's first
    /// items, which teach it the file's layout; the rest of the file is the caller's to
    /// vouch for. Nil where the file does not start so, its start does not read, or holds
    /// anchors or merge keys.
    static func head(of bytes: UnsafeBufferPointer<UInt8>, path: String, options: ListOptions, mapped: MappedFile?)
        -> (patcher: YAMLListPatcher, listStart: Int)?
    {
        var patcher = YAMLListPatcher(bytes: bytes, path: path, options: options, mapped: mapped)
        guard let listStart = try? patcher.readHead() else { return nil }
        return (patcher, listStart)
    }

    /// The key of the items' identities, as the list's first items show it.
    var identityKey: String? { layout.identityKey }

    /// Reads the header and the list's first items; returns where the list starts (its
    /// first dash). Nil where the file does not start as a new file does.
    private mutating func readHead() throws -> Int? {
        let parser = YAMLParser(bytes: bytes, file: path)
        let anchors = YAMLAnchors(limitFor: bytes.count)
        var listStart = 0
        events: while true {
            let event = try parser.next()
            switch event.kind {
            case .streamStart, .documentStart, .documentEnd: continue
            case .mappingStart:
                let start = parser.offset(of: event)
                guard scan.header == nil,
                    case .dictionary(let fields) = try YAMLValue.read(
                        from: parser, startingWith: event, anchors: anchors)
                else { return nil }
                scan.header = (start..<trimmed(parser.lastContentEndOffset), fields)
            case .sequenceStart:
                guard !event.isFlow, event.column == 1 else { return nil }
                listStart = parser.offset(of: event)
                break events
            default: return nil
            }
        }
        let spans = YAMLSpanReader(parser: parser, file: bytes, shift: 0, schema: options.schema, anchors: anchors)
        var sample: [SpannedItem] = []
        while sample.count < Self.sampleSize {
            let event = try parser.next()
            if case .sequenceEnd = event.kind { break }
            sample.append(try spans.item(startingWith: event, depth: 0, dashColumn: 0))
        }
        guard !sample.isEmpty, !spans.sawAnchor, spans.merged.isEmpty, anchors.isEmpty else { return nil }
        var learner = ItemLayout.Learner(options.schema)
        for item in sample { learner.adopt(item.fields) }
        layout = learner.finish()
        headLearner = learner
        headSample = sample
        return listStart
    }

    /// Takes the text in `range` (from an item's dash at the first column to the next's, or
    /// to the file's end) as the run of the list's items that `write(run:…)` replaces: it
    /// must read as `count` items of a block sequence at the first column and nothing else,
    /// without anchors or merge keys. False where it does not. `stopsShort` says that the
    /// list goes on after the run.
    mutating func readRun(_ range: Range<Int>, count: Int, stopsShort: Bool) -> Bool {
        let piece = UnsafeBufferPointer(rebasing: bytes[range])
        let parser = YAMLParser(bytes: piece, file: path)
        let anchors = YAMLAnchors(limitFor: piece.count)
        let spans = YAMLSpanReader(
            parser: parser, file: bytes, shift: range.lowerBound, schema: options.schema, anchors: anchors)
        var items: [SpannedItem] = []
        do {
            func expect(_ matches: (YAMLEvent) -> Bool) throws -> Bool { matches(try parser.next()) }
            guard try expect({ if case .streamStart = $0.kind { true } else { false } }),
                try expect({ if case .documentStart = $0.kind { true } else { false } }),
                try expect({ if case .sequenceStart = $0.kind { !$0.isFlow && $0.column == 1 } else { false } })
            else { return false }
            while true {
                let event = try parser.next()
                if case .sequenceEnd = event.kind { break }
                let item = try spans.item(startingWith: event, depth: 0, dashColumn: 0)
                item.index = items.count
                items.append(item)
            }
            guard try expect({ if case .documentEnd = $0.kind { true } else { false } }),
                try expect({ if case .streamEnd = $0.kind { true } else { false } })
            else { return false }
        } catch {
            return false
        }
        guard items.count == count, let last = items.last, !spans.sawAnchor, spans.merged.isEmpty, anchors.isEmpty
        else { return false }
        keepsAll = true
        runStopsShort = stopsShort
        scan.kept = items
        scan.elements = items.map(\.span)
        scan.whole = range.lowerBound..<last.span.upperBound
        scan.flow = false
        scan.dashColumn = 0
        arrayIDs = spans.arrayIDs
        return true
    }

    /// Writes the file with the run `readRun` took replaced by `items`, and every other
    /// byte as it stands, into `sink`; returns what could not be written as asked. This is
    /// what `write` writes for the list, where the rest of the file is the list's other
    /// items as a new file's writer writes them. `itemsBefore` counts the list's items before
    /// the run (for the positions warnings name). Nil, with nothing written, where the plan
    /// needs the whole list: order fields to renumber, new integer ids to number after the
    /// largest.
    mutating func write(run items: [TodoItem], itemsBefore: @escaping () -> Int, to sink: inout ByteSink) throws
        -> [ConversionWarning]?
    {
        self.itemsBefore = itemsBefore
        return try write(.list(items), metadata: [], to: &sink)
    }

    private func startsWithDocument() -> Bool {
        var i = ByteOrderMark.length(in: bytes)
        while i < bytes.count && bytes[i] == UInt8(ascii: "#") {
            while i < bytes.count && bytes[i] != 10 { i += 1 }
            i += 1
        }
        return i < bytes.count
            && (bytes[i] == UInt8(ascii: "%") || (i + 3 <= bytes.count && bytes[i..<(i + 3)].elementsEqual("---".utf8)))
    }

    /// A mapping in block style, without a final line break.
    static func mapping(_ fields: [Field]) throws -> [UInt8] {
        let emitter = try YAMLEmitter()
        try emitter.streamStart()
        try emitter.documentStart(implicit: true)
        try YAMLValue.emit(.dictionary(fields), to: emitter)
        try emitter.documentEnd()
        try emitter.streamEnd()
        var text = emitter.output
        if text.suffix(4).elementsEqual("...\n".utf8) { text.removeLast(4) }
        while text.last == 10 { text.removeLast() }
        return text
    }

    /// The largest integer id in the file, for new items' ids.
    private mutating func largestID(sampled: Int) throws -> Int? {
        guard let key = layout.integerID else { return nil }
        var largest = layout.largestID
        func visit(_ item: TodoItem) {
            if case .integer(let v) = item.fields[key: key] { largest = max(largest ?? v, v) }
            item.children.forEach(visit)
        }
        for k in scan.elements.indices where k >= sampled { visit(try readItem(k).item) }
        return largest
    }

    private func slice(_ range: Range<Int>) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(rebasing: bytes[range])
    }

    /// A gap between items (or between an item's keys) without its comment lines. A comment
    /// on the line the gap starts in (after the value before it) goes, but not the line
    /// break; a blank line that a comment stood between and another blank goes too, so that
    /// the gap keeps the blank lines it showed.
    static func withoutComments(_ gap: UnsafeBufferPointer<UInt8>) -> [UInt8] {
        var out: [UInt8] = []
        var lineStart = 0
        var lastKeptBlank = false
        var droppedComment = false
        var i = 0
        while i <= gap.count {
            if i == gap.count || gap[i] == 10 {
                let line = gap[lineStart..<i]
                let text = line.drop { $0 == 32 || $0 == 9 || $0 == 13 }
                let isComment = Self.isComment(line)
                let isLast = i == gap.count  // the indentation of the next line's start
                if isComment && lineStart == 0 {
                    if !isLast { out.append(10) }
                } else if isComment {
                    droppedComment = true
                } else if isLast || !(text.isEmpty && lastKeptBlank && droppedComment) {
                    out += line
                    if !isLast { out.append(10) }
                    lastKeptBlank = text.isEmpty
                    droppedComment = false
                }
                lineStart = i + 1
            }
            i += 1
        }
        return out
    }

    /// Whether the file ends its lines with CR LF (its first line does).
    private lazy var crlf: Bool = {
        guard let lf = bytes.firstIndex(of: 10) else { return false }
        return lf > 0 && bytes[lf - 1] == 13
    }()

    /// Text written for the file with its line breaks: in a CR LF file, a lone LF gets its CR.
    private mutating func lineBreaks(_ text: [UInt8]) -> [UInt8] {
        guard crlf, text.contains(10) else { return text }
        var out: [UInt8] = []
        out.reserveCapacity(text.count + 16)
        for (i, c) in text.enumerated() {
            if c == 10 && (i == 0 || text[i - 1] != 13) { out.append(13) }
            out.append(c)
        }
        return out
    }

    /// Writes a sequence of items: the old sequence's elements with the gaps it had between
    /// them (or like them), or a new sequence (block: each on its own line at `dashColumn`,
    /// starting with a line break unless `firstLine`; flow: `[…]`). `flush`, for the list
    /// itself, takes what `out` holds each time it passes 64 KB.
    private mutating func emitArray(
        count: Int, old: ArraySpan?, flow: Bool, dashColumn: Int, arrayID: Int, firstLine: Bool = false,
        to out: inout [UInt8],
        flush: UnsafeMutablePointer<ByteSink>?, _ element: (Int) -> (Placement?, ItemOrigin?)
    ) throws {
        let oldElements = old?.elements ?? []
        guard let old, !oldElements.isEmpty else {
            if flow { out += Array("[".utf8) }
            for i in 0..<count {
                if flow {
                    if i > 0 { out += Array(", ".utf8) }
                } else {
                    if i > 0 || !firstLine { out += [10] + Array(repeating: 32, count: dashColumn) }
                    out += Array("- ".utf8)
                }
                let (placement, kept) = element(i)
                if let placement {
                    try emit(placement, flow: flow, dashColumn: dashColumn, to: &out)
                } else if let kept {
                    out += slice(kept.span)
                }
            }
            if flow { out += Array("]".utf8) }
            return
        }
        // The gap that followed the item before or preceded this one, as it was; else one like
        // the others, without its comment lines (they belong where they were). A gap that
        // serves twice (an item put in after the one before it, then the one after it) has
        // its comment lines the first time only.
        var writtenGaps = Set<Int>()
        func gap(after previous: Int?, before next: Int?) -> [UInt8]? {
            func between(_ k: Int) -> [UInt8] {
                let range = oldElements[k].upperBound..<oldElements[k + 1].lowerBound
                return writtenGaps.insert(k).inserted ? Array(slice(range)) : Self.withoutComments(slice(range))
            }
            if let p = previous, p + 1 < oldElements.count { return between(p) }
            let n = oldElements.count
            if let k = next, k > 0, k < n { return between(k - 1) }
            // A run that stops before the list's end stands in a list whose last items are a
            // new file's, with a new file's gap: the one written for nil.
            if n >= 2, arrayID != 0 || !runStopsShort {
                return Self.withoutComments(slice(oldElements[n - 2].upperBound..<oldElements[n - 1].lowerBound))
            }
            return nil
        }
        let inside = old.inside ?? old.whole
        out += slice(old.whole.lowerBound..<inside.lowerBound)
        out += slice(inside.lowerBound..<oldElements[0].lowerBound)
        var previous: Int? = nil
        for i in 0..<count {
            let (placement, kept) = element(i)
            let origin = kept ?? placement?.origin
            let here = origin.flatMap { $0.arrayID == arrayID ? $0.index : nil }
            if i > 0 {
                if let gap = gap(after: previous, before: here) {
                    out += gap
                } else {
                    out += flow ? Array(", ".utf8) : [10] + Array(repeating: 32, count: dashColumn) + Array("- ".utf8)
                }
            }
            if let placement {
                try emit(placement, flow: flow, dashColumn: dashColumn, to: &out)
            } else if let kept {
                out += slice(kept.span)
            }
            previous = here
            if let sink = flush, out.count >= 1 << 16 {
                if out.last == 13 {
                    // Up to the CR at the end, which a LF in the next part must see (`lineBreaks`).
                    sink.pointee.write(bytes: lineBreaks(Array(out.dropLast())))
                    out.removeSubrange(..<(out.count - 1))
                } else {
                    sink.pointee.write(bytes: lineBreaks(out))
                    out.removeAll(keepingCapacity: true)
                }
            }
        }
        // An item moved to the end keeps the comment lines of the gap that followed it (the
        // gap stays with the item before it, and no item follows this one now).
        if !flow, let p = previous, p + 1 < oldElements.count, !writtenGaps.contains(p) {
            for line in Self.commentLines(slice(oldElements[p].upperBound..<oldElements[p + 1].lowerBound)) {
                out += [10] + line
            }
        }
        out += slice(oldElements[oldElements.count - 1].upperBound..<inside.upperBound)
        out += slice(inside.upperBound..<old.whole.upperBound)
    }

    /// Whether a line of a gap is a comment: its text (after spaces and tabs) starts with `#`.
    private static func isComment<Line: Collection<UInt8>>(_ line: Line) -> Bool {
        line.first { $0 != 32 && $0 != 9 } == UInt8(ascii: "#")
    }

    /// The comment lines of a gap (its lines after the first whose text starts with `#`), as
    /// they stand, without their line endings.
    static func commentLines(_ gap: UnsafeBufferPointer<UInt8>) -> [[UInt8]] {
        var lines: [[UInt8]] = []
        guard var start = gap.firstIndex(of: 10).map({ $0 + 1 }) else { return [] }
        while start < gap.count {
            let end = gap[start...].firstIndex(of: 10) ?? gap.count
            var line = Array(gap[start..<end])
            if line.last == 13 { line.removeLast() }
            if Self.isComment(line) { lines.append(line) }
            start = end + 1
        }
        return lines
    }

    private mutating func emitArray(
        _ placements: [Placement], old: ArraySpan?, flow: Bool, dashColumn: Int, arrayID: Int, firstLine: Bool = false,
        to out: inout [UInt8]
    ) throws {
        // Nested in an item that `out` holds the start of: nothing is flushed before it ends.
        try emitArray(
            count: placements.count, old: old, flow: flow, dashColumn: dashColumn, arrayID: arrayID,
            firstLine: firstLine, to: &out, flush: nil
        ) {
            (placements[$0], nil)
        }
    }

    private mutating func emit(_ placement: Placement, flow: Bool, dashColumn: Int, to out: inout [UInt8]) throws {
        // An old item that moves to another depth moves its lines to its new dash's column.
        if !flow, let origin = placement.origin,
            let oldDash = self.dashColumn(before: origin.span.lowerBound), oldDash != dashColumn
        {
            var moved: [UInt8] = []
            try emit(placement, flow: flow, dashColumn: oldDash, to: &moved)
            out += Self.reindented(moved, by: dashColumn - oldDash)
            return
        }
        switch placement {
        case .kept(let old):
            out += slice(old.span)
        case .changed(let old, let item, let children, let at):
            try emitPatched(old, item, children, at: at, flow: flow, dashColumn: dashColumn, to: &out)
        case .added(let item, let children, let at):
            try emitFresh(item, children, at: at, flow: flow, dashColumn: dashColumn, to: &out)
        }
    }

    /// The column of the dash before a block item starting at `offset`, if a dash is there.
    private func dashColumn(before offset: Int) -> Int? {
        var i = offset
        let lineStart = Self.lineStart(of: i, in: bytes)
        while i > lineStart && bytes[i - 1] == 32 { i -= 1 }
        guard i > lineStart && bytes[i - 1] == UInt8(ascii: "-") else { return nil }
        return i - 1 - lineStart
    }

    /// Where the line holding `offset` starts: after the line break before it, or after the
    /// file's byte order mark, which is no column.
    static func lineStart(of offset: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Int {
        var start = offset
        while start > 0 && bytes[start - 1] != 10 { start -= 1 }
        return start == 0 ? min(offset, ByteOrderMark.length(in: bytes)) : start
    }

    /// Text whose lines after the first are indented `delta` columns more (or less).
    private static func reindented(_ text: [UInt8], by delta: Int) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(text.count + 64)
        var i = 0
        while i < text.count {
            let c = text[i]
            out.append(c)
            i += 1
            guard c == 10 else { continue }
            if delta > 0 {
                out += Array(repeating: 32, count: delta)
            } else {
                var k = 0
                while k < -delta && i < text.count && text[i] == 32 {
                    i += 1
                    k += 1
                }
            }
        }
        return out
    }

    /// The column an old item's keys stand at (from its first key), else where new items' go.
    private func memberColumn(of old: SpannedItem?, dashColumn: Int) -> Int {
        if let first = old?.keySpans.first { return first.lowerBound - Self.lineStart(of: first.lowerBound, in: bytes) }
        return dashColumn + style.itemIndent
    }

    /// An old item changed key by key (`ItemPatch`): untouched keys keep their bytes.
    private mutating func emitPatched(
        _ old: SpannedItem, _ item: TodoItem, _ children: [Placement], at: ItemAt, flow: Bool, dashColumn: Int,
        to out: inout [UInt8]
    ) throws {
        // An item in flow style (`- {title: a}`) in a block list takes new keys in flow style.
        let flow = flow || (old.span.lowerBound < bytes.count && bytes[old.span.lowerBound] == UInt8(ascii: "{"))
        let childrenChanged = !ListPlan<SpannedItem>.childrenKept(children, of: old)
        var base = old.item
        var target = item
        let mergedItem = merged[ObjectIdentifier(old)]
        if old.members.isEmpty {
            // An alias of an item: written anew in its place.
            warnings.note(
                .values, "an item given by an alias was written out in full where it changed",
                item: plan?.describe(at) ?? "")
            return try emitFresh(
                item, childrenChanged ? children : nil, at: at, flow: flow, dashColumn: dashColumn, to: &out)
        }
        if let mergedItem {
            // Only the item's own keys change; merged values it keeps stay merged.
            guard let own = mergedItem.own else {
                return try rewriteMerged(item, children, at: at, flow: flow, dashColumn: dashColumn, to: &out)
            }
            base = own
            // A status or section that did not change stays where it comes from (a merged
            // `done: true` stays merged).
            if item.status == old.item.status { target.status = own.status }
            if item.section == old.item.section { target.section = own.section }
            let inherited = YAMLValue.merge(mergedItem.sources, []).filter { field in
                !mergedItem.ownFields.contains { $0.key == field.key }
            }
            target.fields = item.fields.filter { field in
                !inherited.contains(field) || own.fields.contains { $0.key == field.key }
            }
        }
        let (edits, displaced) = ItemPatch.edits(
            old: base, members: old.members, new: target, childrenChanged: childrenChanged, layout: layout, now: now)
        warnings.note(chosen: edits.lazy.compactMap(\.insertedKey), by: layout, item: plan?.describe(at) ?? "")
        warnings.note(displaced: displaced, item: plan?.describe(at) ?? "")
        if let mergedItem,
            !Self.merges(edits, members: old.members, own: mergedItem, into: item, schema: options.schema)
        {
            return try rewriteMerged(item, children, at: at, flow: flow, dashColumn: dashColumn, to: &out)
        }
        // Every key with its value, the merge keys among them, in file order.
        struct Entry {
            var member: Int?
            var span: Range<Int>
        }
        var entries: [Entry] = []
        var merges = mergedItem?.merges ?? []
        for m in old.members.indices {
            while let first = merges.first, first.before <= m {
                entries.append(Entry(member: nil, span: first.span))
                merges.removeFirst()
            }
            entries.append(Entry(member: m, span: old.keySpans[m].lowerBound..<old.valueSpans[m].upperBound))
        }
        entries += merges.map { Entry(member: nil, span: $0.span) }
        let memberColumn = memberColumn(of: old, dashColumn: dashColumn)
        let separator: [UInt8] = flow ? Array(", ".utf8) : [10] + Array(repeating: 32, count: memberColumn)
        // A gap is written whole only between the two keys it stood between. Elsewhere (a key
        // put in, keys in another order) it serves without its comments, which go back with
        // their keys at the end (`putComments`): a comment after a value with that value, the
        // comment lines before a key with that key.
        var writtenGaps = Set<Int>()
        func gap(after previous: Int?, before next: Int?) -> [UInt8] {
            func between(_ k: Int, whole: Bool) -> [UInt8] {
                let range = entries[k].span.upperBound..<entries[k + 1].span.lowerBound
                if whole && writtenGaps.insert(k).inserted { return Array(bytes[range]) }
                return Self.withoutComments(slice(range))
            }
            if let p = previous, p + 1 < entries.count { return between(p, whole: next == p + 1) }
            if let n = next, n > 0, n < entries.count { return between(n - 1, whole: false) }
            return separator
        }
        out += slice(old.span.lowerBound..<old.inside.lowerBound)
        // Keys given again later (whose earlier values the reader passes over) stay as they
        // are, also before the first key read.
        if let firstEntry = entries.first, firstEntry.span.lowerBound > old.inside.lowerBound {
            out += slice(old.inside.lowerBound..<firstEntry.span.lowerBound)
        }
        var previous: Int? = nil
        var first = true
        var pending = entries.indices.filter { entries[$0].member == nil }
        func entryIndex(ofMember m: Int) -> Int { entries.firstIndex { $0.member == m }! }
        // Where each entry's key was written in `out` and where its value ended (a moved key
        // under its old entry): a gap whose comments were not written goes there at the end.
        var keyAt: [Int: Int] = [:]
        var valueEnd: [Int: Int] = [:]
        let moved = ItemPatch.removedMembers(edits, old.members).mapValues(entryIndex)
        func write(_ index: Int?, entry: Int? = nil, _ body: (inout [UInt8]) throws -> Void) rethrows {
            // The first key written starts where the item's first key started.
            if !first { out += gap(after: previous, before: index) }
            first = false
            let entry = entry ?? index
            if let entry { keyAt[entry] = out.count }
            try body(&out)
            if let entry { valueEnd[entry] = out.count }
            previous = index
        }
        func flushMerges(upTo member: Int?) {
            while let e = pending.first, member == nil || e < entryIndex(ofMember: member!) {
                pending.removeFirst()
                write(e) { $0 += slice(entries[e].span) }
            }
        }
        for edit in edits {
            switch edit {
            case .remove(let i):
                flushMerges(upTo: i)
            case .keep(let i):
                flushMerges(upTo: i)
                write(entryIndex(ofMember: i)) { $0 += slice(entries[entryIndex(ofMember: i)].span) }
            case .replace(let i, let value):
                flushMerges(upTo: i)
                let e = entryIndex(ofMember: i)
                let plainWord = [.checked, .status].contains(old.members[i].role)
                write(e) { out in
                    let gap = slice(old.keySpans[i].lowerBound..<old.valueSpans[i].lowerBound)
                    // A string keeps the quotes its old value had.
                    let oldFirst = old.valueSpans[i].isEmpty ? nil : bytes[old.valueSpans[i].lowerBound]
                    let quote = oldFirst == UInt8(ascii: "'") || oldFirst == UInt8(ascii: "\"") ? oldFirst : nil
                    var written: [UInt8] = []
                    style.value(
                        value, key: old.members[i].key, column: memberColumn, flow: flow, plainWord: plainWord,
                        layout: layout, to: &written,
                        quote: quote)
                    if written.first == 10 {
                        // A block collection starts on the next line: the spaces (and the line
                        // break) before the old value go, comments after the key stay.
                        out += gap
                        while let last = out.last, last == 32 || last == 9 { out.removeLast() }
                        if out.last == 10 { out.removeLast() }
                        if out.last == 13 { out.removeLast() }
                    } else if let lineEnd = gap.firstIndex(of: 10) {
                        // A value on the key's line where a block collection started on the
                        // next: it goes after the colon, before a comment there.
                        var line = Array(gap[..<lineEnd])
                        if line.last == 13 { line.removeLast() }
                        let keyLength = old.keySpans[i].count
                        var comment: ArraySlice<UInt8> = []
                        if let hash = line.indices.first(where: {
                            $0 > keyLength && line[$0] == UInt8(ascii: "#") && (line[$0 - 1] == 32 || line[$0 - 1] == 9)
                        }) {
                            comment = line[hash...]
                            line.removeSubrange(hash...)
                        }
                        while let last = line.last, last == 32 || last == 9 { line.removeLast() }
                        out += line + (written.isEmpty ? [] : [32]) + written
                        if !comment.isEmpty { out += [32] + comment }
                        return
                    } else {
                        out += gap
                        // An empty value (`status:`, null) stands right after the colon: the
                        // new one needs the space a value after a colon takes. A null the file
                        // spells as nothing is written so, without the space before it.
                        if written.isEmpty {
                            while let last = out.last, last == 32 || last == 9 { out.removeLast() }
                        } else if gap.last == UInt8(ascii: ":") && written.first != 32 {
                            out.append(32)
                        }
                    }
                    out += written
                }
            case .replaceChildren(let i):
                flushMerges(upTo: i)
                let e = entryIndex(ofMember: i)
                if children.isEmpty {
                    // Emptied: the key stays, as `[]` (as JSON's `"subtasks": []`).
                    write(e) { out in
                        style.key(old.members[i].key, flow: flow, to: &out)
                        out += Array(": []".utf8)
                    }
                    continue
                }
                try write(e) { out in
                    if let array = old.childrenArray, !array.elements.isEmpty {
                        out += slice(old.keySpans[i].lowerBound..<old.valueSpans[i].lowerBound)
                        let childFlow = bytes[array.whole.lowerBound] == UInt8(ascii: "[")
                        let lineStart = Self.lineStart(of: array.elements[0].lowerBound, in: bytes)
                        let dash = childFlow ? memberColumn : max(0, array.whole.lowerBound - lineStart)
                        try emitArray(
                            children, old: array, flow: childFlow, dashColumn: dash, arrayID: old.childrenArrayID,
                            to: &out)
                    } else {
                        out += slice(old.keySpans[i])
                        out += Array(":".utf8)
                        try emitArray(
                            children, old: nil, flow: flow,
                            dashColumn: memberColumn + style.sequenceIndent(under: memberColumn), arrayID: -1,
                            to: &out)
                    }
                }
            case .insert(let key, let value):
                let plainWord = key == layout.keys[.checked] || key == layout.keys[.status]
                write(nil, entry: moved[key]) { out in
                    style.key(key, flow: flow, to: &out)
                    out += Array(":".utf8)
                    style.value(
                        value, key: key, column: memberColumn, flow: flow, plainWord: plainWord, layout: layout,
                        to: &out, space: true)
                }
            case .insertChildren(let key):
                try write(nil, entry: moved[key]) { out in
                    style.key(key, flow: flow, to: &out)
                    // `key: [` in flow style: a plain key right before `[` does not end.
                    out += Array((flow ? ": " : ":").utf8)
                    let placements = children.isEmpty ? plan!.newChildren(of: item, at: at) : children
                    try emitArray(
                        placements, old: nil, flow: flow,
                        dashColumn: memberColumn + style.sequenceIndent(under: memberColumn), arrayID: -1,
                        to: &out)
                }
            }
        }
        flushMerges(upTo: nil)
        let lastEnd = entries.last?.span.upperBound ?? old.inside.lowerBound
        var tail = slice(lastEnd..<old.span.upperBound)
        if !flow {
            var unwritten = entries.indices.dropLast().filter { !writtenGaps.contains($0) }
            // The rest of the item after its last key: a comment after that key's value goes
            // with the key where another key is written last, and with it where it is gone;
            // the comment lines stay last.
            let lastKey = entries.count - 1
            let afterLast = tail.firstIndex(of: 10) ?? tail.count
            if lastKey >= 0, previous != lastKey, Self.isComment(tail[..<afterLast]) {
                if valueEnd[lastKey] != nil { unwritten.append(lastKey) }
                tail = UnsafeBufferPointer(rebasing: tail[afterLast...])
            }
            Self.putComments(ofGaps: unwritten, memberColumn: memberColumn, to: &out) { k in
                if k == lastKey { return (slice(lastEnd..<(lastEnd + afterLast)), valueEnd[k], nil, nil) }
                // The comment lines before a key that is gone stay before the next key written.
                let next = ((k + 1)..<entries.count).first { keyAt[$0] != nil }
                return (
                    slice(entries[k].span.upperBound..<entries[k + 1].span.lowerBound), valueEnd[k],
                    next.flatMap { keyAt[$0] }, next.flatMap { valueEnd[$0] }
                )
            }
        }
        out += tail
    }

    /// Puts into `out` the comments of an item's gaps between keys that were not written
    /// whole (a key was put in between, or the keys around them moved apart): a comment after
    /// a value on its line goes after that key's value again, and the comment lines before a
    /// key go before it, at its indentation (after its value's line, at `memberColumn`,
    /// where the key comes first, after the item's dash). A key that is gone (removed) takes
    /// the comment after its value with it, but leaves the comment lines before it (as a
    /// removed item leaves the gap before it): they go before the next key written, or after
    /// the item's last key. `place(k)` gives gap `k`, where the value before it ended in
    /// `out`, and where the key written after it starts and its value ends.
    private static func putComments(
        ofGaps gaps: [Int], memberColumn: Int, to out: inout [UInt8],
        place: (Int) -> (gap: UnsafeBufferPointer<UInt8>, valueEnd: Int?, nextKey: Int?, nextValueEnd: Int?)
    ) {
        var insertions: [(at: Int, text: [UInt8])] = []
        let end = out.count
        for k in gaps {
            let (gap, valueEnd, nextKey, nextValueEnd) = place(k)
            var firstLine = Array(gap[..<(gap.firstIndex(of: 10) ?? gap.count)])
            if firstLine.last == 13 { firstLine.removeLast() }
            if isComment(firstLine), let valueEnd { insertions.append((valueEnd, firstLine)) }
            let lines = commentLines(gap).map { Array($0.drop { $0 == 32 || $0 == 9 }) }
            guard !lines.isEmpty else { continue }
            guard let key = nextKey else {
                // No key written after them: after the item's last key.
                let indent = [UInt8](repeating: 32, count: memberColumn)
                insertions.append((end, lines.flatMap { [10] + indent + $0 }))
                continue
            }
            var lineStart = key
            while lineStart > 0 && out[lineStart - 1] == 32 { lineStart -= 1 }
            if lineStart > 0 && out[lineStart - 1] == 10 {
                let indent = [UInt8](repeating: 32, count: key - lineStart)
                insertions.append((key, lines.flatMap { $0 + [10] + indent }))
            } else if let end = nextValueEnd {
                let indent = [UInt8](repeating: 32, count: memberColumn)
                insertions.append((end, lines.flatMap { [10] + indent + $0 }))
            }
        }
        // From the end, so that each place stays where it was; texts for one place in order.
        for (at, text) in insertions.enumerated().sorted(by: { ($0.element.at, $0.offset) > ($1.element.at, $1.offset) }
        )
        .map(\.element) {
            out.insert(contentsOf: text, at: at)
        }
    }

    /// Whether an item with merge keys, its own keys edited so, reads as `item`.
    private static func merges(
        _ edits: [MemberEdit], members: [ItemMember], own: YAMLMergedItem, into item: TodoItem, schema: ItemSchema
    ) -> Bool {
        var fields: [Field] = []
        for edit in edits {
            switch edit {
            case .keep(let i):
                if members[i].role != .children {
                    fields.append(
                        Field(
                            members[i].key, own.ownFields.first { $0.key == members[i].key }?.value ?? members[i].value)
                    )
                }
            case .replace(let i, let value): fields.append(Field(members[i].key, value))
            case .insert(let key, let value): fields.append(Field(key, value))
            case .remove, .replaceChildren, .insertChildren: break
            }
        }
        guard
            let read = try? schema.item(
                from: YAMLValue.merge(own.sources, fields), depth: 1,
                fail: { ParseError($0, at: SourceLocation(file: "", line: 1, column: 1)) })
        else {
            return false
        }
        return read.name == item.name && read.status == item.status && read.fields == item.fields
    }

    /// An item with merge keys whose change its own keys cannot make: written anew with
    /// every key, without the merge keys.
    private mutating func rewriteMerged(
        _ item: TodoItem, _ children: [Placement], at: ItemAt, flow: Bool, dashColumn: Int, to out: inout [UInt8]
    ) throws {
        warnings.note(
            .values,
            "an item with merge keys (<<) was written out in full, without them, since its change would touch the merged values",
            item: plan?.describe(at) ?? "")
        try emitFresh(item, children.isEmpty ? nil : children, at: at, flow: flow, dashColumn: dashColumn, to: &out)
    }

    /// A new item, written like the file's items: their keys in their order, an id and a
    /// creation date where every item has one. `children` nil: its children are all new.
    private mutating func emitFresh(
        _ item: TodoItem, _ children: [Placement]?, at: ItemAt, flow: Bool, dashColumn: Int, to out: inout [UInt8]
    ) throws {
        let ownFields = Set(item.fields.map(\.key))
        let item = layout.completing(item, nextID: &nextID, now: now)
        let plan = self.plan
        for (kind, message) in layout.newItemWarnings(for: item, listName: "the list") {
            warnings.note(kind, message, item: plan?.describe(at) ?? "")
        }
        let keys = layout.entryKeys
        var entries = layout.entries(of: item)
        warnings.note(chosen: entries.lazy.map(\.key), by: layout, item: plan?.describe(at) ?? "")
        if !style.keyOrder.isEmpty {
            // The keys in the order the file's items have them; others after, as they come.
            // The item's own fields keep their order in the places the sort gives them (as
            // `ItemLayout.entries` keeps them), so that it reads back with its fields in
            // order; those a new item gets (an id, a creation date) go where the file has them.
            let roleKeys =
                [keys.name, keys.status, keys.section, keys.fields, keys.children, keys.addedChecked]
                + (keys.checked.map { [$0] } ?? [])
            let given = entries
            entries = ItemLayout.ordered(given, by: style.keyOrder) { i in
                ownFields.contains(given[i].key) && !roleKeys.contains(given[i].key)
            }
        }
        if item.status == .open {
            // An open item gets no checked or status key where most open items have none.
            entries.removeAll { entry in
                (entry.key == keys.checked && style.openOmitsChecked)
                    || (entry.key == keys.status && style.openOmitsStatus)
            }
        }
        let memberColumn = dashColumn + style.itemIndent
        if flow { out += Array("{".utf8) }
        for (j, entry) in entries.enumerated() {
            if j > 0 { out += flow ? Array(", ".utf8) : [10] + Array(repeating: 32, count: memberColumn) }
            style.key(entry.key, flow: flow, to: &out)
            out += Array(":".utf8)
            switch entry.value {
            case .value(let value):
                let plainWord = entry.key == keys.checked || entry.key == keys.status
                style.value(
                    value, key: entry.key, column: memberColumn, flow: flow, plainWord: plainWord, layout: layout,
                    to: &out, space: true)
            case .items:
                if flow { out += [32] }
                let placements = children ?? plan!.newChildren(of: item, at: at)
                try emitArray(
                    placements, old: nil, flow: flow,
                    dashColumn: memberColumn + style.sequenceIndent(under: memberColumn), arrayID: -1,
                    to: &out)
            case .dictionary: break
            }
        }
        if flow { out += Array("}".utf8) }
    }
}
#endif
