import Foundation

/// What a text format (JSON, XML property lists) tells `TextListPatcher`: how to read an
/// item where it stands, how the file is laid out, and how to write keys, values and items
/// in that layout.
protocol TextListSyntax {
    /// The syntax of the text `bytes` (named `path` in messages), items read by `schema`.
    init(bytes: UnsafeBufferPointer<UInt8>, path: String, schema: ItemSchema)
    /// The item object whose text starts at `offset`, with where its keys and values stand;
    /// `arrayIDs` numbers the arrays of children it reads.
    func readItem(at offset: Int, depth: Int, arrayIDs: inout Int) throws -> SpannedItem
    /// Learns how the file is laid out from the list's array (its elements: those sampled;
    /// its end: the file's end while the rest is not scanned yet) and its first items.
    mutating func learn(sample: [SpannedItem], list: ArraySpan) throws

    /// Where the first element of an array starts, its inside starting at `offset` (or where
    /// the array closes); where the element after one ending at `end` starts; where an
    /// element starting at `start` ends.
    func firstElement(inside offset: Int) throws -> ElementStep
    func element(after end: Int) throws -> ElementStep
    func elementEnd(from start: Int) throws -> Int

    /// Arrays of items one item a line; item objects one key a line; one level of indentation.
    var arrayLines: Bool { get }
    var itemLines: Bool { get }
    var indent: [UInt8] { get }

    /// Takes the layout items are written in (`item(_:line:to:)`).
    mutating func use(_ layout: ItemLayout)
    /// An item with its children, as a new item of the file; `line` is its line's indentation.
    /// Returns whether the text holds the item exactly (nothing the format cannot hold).
    @discardableResult
    func item(_ item: TodoItem, line: [UInt8], to out: inout [UInt8]) -> Bool
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

    /// The item object at `offset`, with its children, as the format's list reader reads it
    /// (not where its keys stand, which `readItem` also tells, at several times the cost);
    /// nil where it does not read.
    func listItem(at offset: Int) -> TodoItem?

    /// How an item's members stand in a file laid out as todofmt writes it.
    static var members: MemberLayout { get }

    /// Where the names of the items of `new`, the new writer's text of an item with its
    /// children, stand (each its bytes, with no escape); false where a name has an escape, or
    /// where an item's text could hold another object that looks like an item (a field's
    /// dictionary, in a format that puts it on lines of its own). (What
    /// `StreamedUpdate.sameItems` needs to take an item whose statuses changed without
    /// reading it.)
    static func itemNames(in new: UnsafeBufferPointer<UInt8>, into names: inout [Range<Int>]) -> Bool
    /// Where the status members (`checked`, and `status` where there is one) of the item
    /// whose own members hold `offset` start, right after its name, laid out as the new
    /// writer lays them out from the item's start (at or after `floor`), with how deep their
    /// lines stand (where that tells them); nil where there are none (the syntax cannot tell).
    static func statusStart(in text: UnsafeBufferPointer<UInt8>, before offset: Int, floor: Int)
        -> (start: Int, depth: Int)?
    /// Where status members starting at `start` end.
    static func statusEnd(from start: Int, depth: Int, in text: UnsafeBufferPointer<UInt8>) -> Int?
    /// Whether each member after status members ending at `end`, to the children's array or
    /// the item's end, holds no array or dictionary, under a key `follows` takes.
    static func keysFollow(
        in text: UnsafeBufferPointer<UInt8>, from end: Int, depth: Int, _ follows: (UnsafeBufferPointer<UInt8>) -> Bool
    ) -> Bool
    /// How many bytes of output after a difference `statusChange` looks at.
    static var statusReach: Int { get }
}

extension TextListSyntax {
    static func itemNames(in new: UnsafeBufferPointer<UInt8>, into names: inout [Range<Int>]) -> Bool { false }
    static func statusStart(in text: UnsafeBufferPointer<UInt8>, before offset: Int, floor: Int)
        -> (start: Int, depth: Int)?
    { nil }
    static func statusEnd(from start: Int, depth: Int, in text: UnsafeBufferPointer<UInt8>) -> Int? { nil }
    static func keysFollow(
        in text: UnsafeBufferPointer<UInt8>, from end: Int, depth: Int, _ follows: (UnsafeBufferPointer<UInt8>) -> Bool
    ) -> Bool { false }
    static var statusReach: Int { 0 }

    /// Where the status members (`statusStart`) of the item of `itemNames`'s text `new` whose
    /// own members hold `offset` stand, and where they stand in `old`, a text with the same
    /// bytes before `offset`; nil where `offset` is not among them on either side, or where a
    /// key after them in `new` holds an array or a dictionary, or is one `follows` does not
    /// take (a key the status's does not come before).
    static func statusMembers(
        old: UnsafeBufferPointer<UInt8>, new: UnsafeBufferPointer<UInt8>, differingAt offset: Int,
        follows: (UnsafeBufferPointer<UInt8>) -> Bool
    ) -> (old: Range<Int>, new: Range<Int>)? {
        guard let (start, depth) = statusStart(in: new, before: offset, floor: 0),
            let newEnd = statusEnd(from: start, depth: depth, in: new),
            let oldEnd = statusEnd(from: start, depth: depth, in: old), offset < max(newEnd, oldEnd),
            keysFollow(in: new, from: newEnd, depth: depth, follows)
        else { return nil }
        return (start..<oldEnd, start..<newEnd)
    }

    /// What the output's first difference from the file's text `old` at `offset` is
    /// (`StatusChange`): the status members (`statusStart`) of an item of the file whose own
    /// members hold `offset` (the bytes from `floor` to `offset` the output's too), changed
    /// to those the output holds from there (`output`, all of the output's rest where
    /// `isWhole`); each key after them one `follows` takes, holding no array or dictionary.
    static func statusChange(
        in old: UnsafeBufferPointer<UInt8>, at offset: Int, floor: Int, output: UnsafeBufferPointer<UInt8>,
        isWhole: Bool, follows: (UnsafeBufferPointer<UInt8>) -> Bool
    ) -> StatusChange {
        guard let (start, depth) = statusStart(in: old, before: offset, floor: floor),
            let oldEnd = statusEnd(from: start, depth: depth, in: old),
            keysFollow(in: old, from: oldEnd, depth: depth, follows)
        else { return .none }
        return StatusChange.resolve(
            old: old, start: start, offset: offset, oldEnd: oldEnd, output: output, isWhole: isWhole,
            reach: statusReach
        ) { statusEnd(from: 0, depth: depth, in: $0) }
    }
}

/// A step of a scan over an array's elements.
enum ElementStep {
    case element(at: Int)
    /// The array closes: its closing token's place, and the end of the array.
    case end(closeAt: Int, arrayEnd: Int)
}

/// Where a list's array is: scanned already, or open at an offset (scanned as it is compared).
enum ListStart {
    case scanned(ArraySpan)
    /// The array's first byte, and the first byte inside it.
    case open(at: Int, inside: Int)
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
    /// The list's array in the file; its elements and end are found as the scan goes on.
    private var list: ArraySpan
    /// Where the scan over the list's elements stands: the next element, or nil when done.
    private var scan: ElementStep
    /// What the list is called in messages: `the list under 'data.todos'`, or `the list`.
    let listName: String
    private(set) var syntax: Syntax
    private(set) var layout: ItemLayout
    private var learner: ItemLayout.Learner
    /// How many top-level items the layout was learned from.
    private var sampled = 0
    /// The indentation of the list's items' lines.
    private var elementLine: [UInt8] = []
    /// Where a run of the list's elements is written (`write(replacingElements:…)`) that
    /// starts past the list's first element: the gap between the list's first two elements.
    private var runFirstGap: Range<Int>? = nil
    private var warnings = WarningLog()
    private var nextID: Int? = nil
    private let now = Clock.now
    private var scratch: [UInt8] = []
    /// Numbers for the arrays of children read, to tell them apart (0 is the list's).
    private var arrayIDs = 0
    /// The file, when it is mapped: pages are handed back as passes over them end.
    private let mapped: MappedFile?
    private static var releaseEvery: Int { 4096 }

    /// How many top-level items the layout and style are learned from, besides those that changed.
    static var sampleSize: Int { 1000 }

    /// Whether the file ends its lines with CR LF (its first line break says): what todofmt
    /// writes then ends its lines so too.
    private let crlf: Bool

    init(
        bytes: UnsafeBufferPointer<UInt8>, path: String, list start: ListStart, listName: String, schema: ItemSchema,
        syntax: Syntax, dropsNulls: Bool, mapped: MappedFile? = nil
    ) throws {
        self.mapped = mapped
        self.bytes = bytes
        if let lf = bytes.prefix(1 << 16).firstIndex(of: 10) {
            crlf = lf > 0 && bytes[lf - 1] == 13
        } else {
            crlf = false
        }
        self.path = path
        self.listName = listName
        self.schema = schema
        self.syntax = syntax
        switch start {
        case .scanned(let span):
            list = span
            scan = .end(closeAt: span.inside?.upperBound ?? span.whole.upperBound, arrayEnd: span.whole.upperBound)
        case .open(let at, let inside):
            list = ArraySpan(whole: at..<bytes.count, inside: inside..<bytes.count, elements: [])
            scan = try syntax.firstElement(inside: inside)
        }
        learner = ItemLayout.Learner(schema)
        layout = ItemLayout(schema)
        try scanElements(upTo: Self.sampleSize)
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
        self.syntax.use(layout)
        if let first = list.elements.first, let inside = list.inside {
            elementLine =
                indentAfterBreak(inside.lowerBound..<first.lowerBound) ?? lineIndent(at: list.whole.lowerBound)
        } else {
            elementLine = lineIndent(at: list.whole.lowerBound) + self.syntax.indent
        }
    }

    /// Scans elements until `count` are known (or all).
    private mutating func scanElements(upTo count: Int) throws {
        while list.elements.count < count, case .element(let start) = scan {
            let end = try syntax.elementEnd(from: start)
            record(start..<end)
        }
    }

    /// Takes an element found by the scan, and moves the scan on past it.
    private mutating func record(_ span: Range<Int>) {
        list.elements.append(span)
        if let mapped, list.elements.count % Self.releaseEvery == 0 { mapped.release(before: span.lowerBound) }
        do {
            scan = try syntax.element(after: span.upperBound)
        } catch {
            scanError = error
            scan = .end(closeAt: span.upperBound, arrayEnd: span.upperBound)
        }
        if case .end(let close, let end) = scan, scanError == nil {
            list.inside = list.inside.map { $0.lowerBound..<close }
            list.whole = list.whole.lowerBound..<end
        }
    }

    /// An error the scan met past an element, thrown when the scan is next needed.
    private var scanError: (any Error)? = nil

    /// Scans the rest of the list.
    private mutating func scanAll() throws {
        try scanElements(upTo: .max)
        if let scanError { throw scanError }
        if case .end(let close, let end) = scan {
            list.inside = list.inside.map { $0.lowerBound..<close }
            list.whole = list.whole.lowerBound..<end
        }
    }

    private func slice(_ range: Range<Int>) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(rebasing: bytes[range])
    }

    /// The old item at a top-level index, read with where everything stands.
    private mutating func readItem(_ k: Int) throws -> SpannedItem {
        if let last = lastRead, last.index == k, last.span.lowerBound == list.elements[k].lowerBound { return last }
        let item = try syntax.readItem(at: list.elements[k].lowerBound, depth: 0, arrayIDs: &arrayIDs)
        item.arrayID = 0
        item.index = k
        lastRead = item
        return item
    }

    /// The item `readItem` read last: a changed item is read to compare it from the start,
    /// again from the end, and again to place it.
    private var lastRead: SpannedItem? = nil

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

    /// The spaces and tabs after the last line break of a gap (the next line's
    /// indentation: not a comment that stands on that line before the element), or nil.
    func indentAfterBreak(_ gap: Range<Int>) -> [UInt8]? {
        Self.indentAfterBreak(in: bytes, gap)
    }

    static func indentAfterBreak(in bytes: UnsafeBufferPointer<UInt8>, _ gap: Range<Int>) -> [UInt8]? {
        indentRangeAfterBreak(in: bytes, gap).map { Array(bytes[$0]) }
    }

    /// Where `indentAfterBreak(in:_:)` is in `bytes`.
    static func indentRangeAfterBreak(in bytes: UnsafeBufferPointer<UInt8>, _ gap: Range<Int>) -> Range<Int>? {
        var i = gap.upperBound
        while i > gap.lowerBound {
            if bytes[i - 1] == 10 {
                var end = i
                while end < gap.upperBound && (bytes[end] == 32 || bytes[end] == 9) { end += 1 }
                return i..<end
            }
            i -= 1
        }
        return nil
    }

    // MARK: Writing

    private typealias Placement = ItemPlacement<SpannedItem>

    /// Whether the file's top-level item `k` (scanned) is `item`: its bytes are what todofmt
    /// would write for it, or it reads as it.
    private mutating func isSame(_ k: Int, _ item: TodoItem) throws -> Bool {
        if let mapped, k % Self.releaseEvery == 0 {
            // The end of the list is compared from the end: what lies behind goes.
            mapped.release(list.elements[k].upperBound..<bytes.count)
        }
        let span = list.elements[k]
        if try rendersAs(item, at: span.lowerBound) == span.count { return true }
        return try readItem(k).item == item
    }

    /// The length of `item` as todofmt writes it when the file has those bytes at `offset`.
    private mutating func rendersAs(_ item: TodoItem, at offset: Int) throws -> Int? {
        scratch.removeAll(keepingCapacity: true)
        // Text that cannot hold the item says nothing about whether the file's item is it.
        guard syntax.item(item, line: elementLine, to: &scratch), offset + scratch.count <= bytes.count else {
            return nil
        }
        let equal = scratch.withUnsafeBufferPointer {
            memcmp($0.baseAddress!, bytes.baseAddress! + offset, $0.count) == 0
        }
        return equal ? scratch.count : nil
    }

    /// Whether the file's top-level item `k` is `item`, scanning it first when the scan has
    /// not reached it: an item whose bytes are what todofmt writes for it ends where those
    /// bytes end (a JSON value or an XML element closes itself), so most items are never
    /// scanned on their own. Nil when the file has no item `k`.
    private mutating func matches(_ k: Int, _ item: TodoItem) throws -> Bool? {
        if k < list.elements.count { return try isSame(k, item) }
        try scanElements(upTo: k)
        guard k == list.elements.count, case .element(let start) = scan else { return nil }
        if let length = try rendersAs(item, at: start) {
            record(start..<(start + length))
            return true
        }
        record(start..<(try syntax.elementEnd(from: start)))
        return try readItem(k).item == item
    }

    /// Whether the file has a top-level item `k` (scanning up to it).
    private mutating func hasItem(_ k: Int) throws -> Bool {
        try scanElements(upTo: k + 1)
        return k < list.elements.count
    }

    /// The unchanged start and end of the list. The start is compared scanning forward;
    /// after the first difference the comparison takes up again a few items on (an item
    /// changed, added or removed) and goes on to the end. When that fails, the rest of the
    /// file is scanned and the end is compared from the end.
    private mutating func unchangedEnds(_ given: [TodoItem]) throws -> ListRewrite {
        var prefix = 0
        var differs = false
        while prefix < given.count, let same = try matches(prefix, given[prefix]) {
            guard same else {
                differs = true
                break
            }
            prefix += 1
        }
        if differs {
            // Old items skipped and new items inserted before the two sides meet again.
            let steps = [(0, 1), (1, 0), (1, 1), (0, 2), (2, 0), (1, 2), (2, 1), (2, 2)]
            for (skipped, inserted) in steps where prefix + inserted < given.count {
                guard let same = try matches(prefix + skipped, given[prefix + inserted]) else { continue }
                guard same else { continue }
                var old = prefix + skipped + 1
                var new = prefix + inserted + 1
                while new < given.count, try matches(old, given[new]) == true {
                    old += 1
                    new += 1
                }
                if new == given.count, try !hasItem(old), scanError == nil {
                    try scanAll()
                    return ListRewrite(
                        prefix: prefix, suffix: list.elements.count - prefix - skipped, oldCount: list.elements.count,
                        newCount: given.count)
                }
                break
            }
        }
        try scanAll()
        return try ListRewrite(prefix: prefix, oldCount: list.elements.count, new: given) { try isSame($0, $1) }
    }

    /// Writes the file with `given` as its list into `sink`; returns what it could not hold.
    mutating func write(_ given: [TodoItem], to sink: inout ByteSink) throws -> [ConversionWarning] {
        let rewrite = try unchangedEnds(given)
        let middle = try readMiddle(rewrite)
        let plan = try ListPlan(given, rewrite: rewrite, old: middle, layout: layout, path: path) { try readItem($0) }
        return try write(plan, to: &sink)
    }

    /// The file's top-level item `k` as it reads where it stands (with its children), the
    /// scan going up to it; nil when the list has no item `k`.
    mutating func topLevelItem(_ k: Int) throws -> TodoItem? {
        guard try hasItem(k) else { return nil }
        return try readItem(k).item
    }

    /// `ListFormat.updateItem` on the file at `file`, which this patcher reads: the top-level
    /// item `index` as `change` makes it, written into a new file that replaces `file` when
    /// committed.
    mutating func updateItem(at index: Int, in file: String, change: (TodoItem) throws -> TodoItem?) throws
        -> ItemUpdate
    {
        guard let old = try topLevelItem(index) else { return .unsupported }
        guard let item = try change(old) else { return .unchanged }
        return try .rewriting(file) { try write(replacing: index, with: item, to: &$0) }
    }

    /// `ListFormat.updateItems` on the file at `file`, which this patcher reads: the run of
    /// top-level items `run` names (given the list's count) replaced by what `change` makes
    /// of them, written by `write(replacingElements:…)` into a new file that replaces `file`
    /// when committed. The run's own unchanged start and end are found as the whole-list
    /// write finds them, so this writes what that write writes for the edited list.
    mutating func updateItems(
        in file: String, run: (Int) -> Range<Int>?, change: ([TodoItem]) throws -> [TodoItem]?
    ) throws -> ItemUpdate {
        try scanAll()
        let count = list.elements.count
        guard let range = run(count), !range.isEmpty, range.upperBound <= count else { return .unsupported }
        let old = try range.map { try readItem($0).item }
        guard let items = try change(old) else { return .unchanged }
        let spans = Array(list.elements[range])
        return try .rewriting(file) {
            try write(replacingElements: spans, with: items, itemsBefore: { range.lowerBound }, to: &$0)
        }
    }

    /// `ListFormat.moveItem` on the file at `file`, which this patcher reads: top-level item
    /// `from` moved to be item `to` (both from 0) as `place` makes it there (given it and its
    /// new neighbours before and after: a move can change its section), into a new file that
    /// replaces `file` when committed. Every other element's bytes stand as they are, and
    /// the gaps between elements are placed as the whole-list write places them for a list
    /// whose items it keeps (`emitArray`: a gap goes with the element before it); the moved
    /// item is kept, or changed key by key as the whole-list write changes it. Only the
    /// moved item and its neighbours are read: `todofmt mv` in a million-item file scans it
    /// once. `.unsupported` where the file's items keep an order of their own (order fields
    /// to renumber) or an identity, or `to` is past the end.
    mutating func moveItem(
        from: Int, to: Int, in file: String,
        place: (_ item: TodoItem, _ before: TodoItem?, _ after: TodoItem?) throws -> TodoItem?
    ) throws -> ItemUpdate {
        try scanAll()
        let count = list.elements.count
        guard !layout.hasOrder, from != to, from < count, to < count else { return .unsupported }
        let move = ItemMove(from: from, to: to)
        let old = try readItem(from)
        let (before, after) = move.neighbours(count: count)
        guard
            let placed = try place(
                old.item, try before.map { try readItem($0).item }, try after.map { try readItem($0).item })
        else { return .unsupported }
        var placement: Placement? = nil
        if placed != old.item {
            guard let plan = ListPlan(replacing: from, of: count, with: placed, old: old, layout: layout) else {
                return .unsupported
            }
            self.plan = plan
            placement = plan.middle[0]
        }
        let elements = list.elements
        let mapped = self.mapped
        return try .rewriting(file) { sink in
            sink.write(slice(0..<list.whole.lowerBound))
            try emitArray(
                count: count, old: list, arrayID: 0, line: lineIndent(at: list.whole.lowerBound), to: &sink
            ) { i in
                let k = move.origin(i)
                if let placement, i == to { return (placement, nil) }
                if let mapped, !move.span.contains(i), i % Self.releaseEvery == 0 {
                    mapped.release(before: elements[k].lowerBound)
                }
                return (nil, ItemOrigin(arrayID: 0, index: k, span: elements[k]))
            }
            sink.write(slice(list.whole.upperBound..<bytes.count))
            return warnings.warnings
        }
    }

    /// Writes the file with its top-level item `k` replaced by `item` and every other item
    /// as it stands, into `sink`; returns what it could not hold. This is what
    /// `write(_:to:)` writes for that list, found without the list: an editing command that
    /// changes one item of a long file reads only that item (and the layout's sample)
    /// instead of building every item and comparing it. Nil, with nothing written, where
    /// the comparison could find another middle (the item equals a neighbour) or the plan
    /// needs the whole list (`ListPlan.init(replacing:…)`): the caller writes the whole
    /// list then.
    mutating func write(replacing k: Int, with item: TodoItem, to sink: inout ByteSink) throws
        -> [ConversionWarning]?
    {
        try scanAll()
        let count = list.elements.count
        // An item the comparison takes for the file's (its bytes are what todofmt writes for
        // it) is rare enough to be left to it.
        guard k < count, try !isSame(k, item) else { return nil }
        // After the first difference `unchangedEnds` tries the old item against the next
        // new one and the new item against the next old one before taking them as one
        // changed item: where either is the same, it would align them otherwise.
        if k + 1 < count, try isSame(k, readItem(k + 1).item) || isSame(k + 1, item) { return nil }
        let rewrite = ListRewrite(prefix: k, suffix: count - k - 1, oldCount: count, newCount: count)
        let middle = try readMiddle(rewrite)
        guard let plan = ListPlan(replacing: k, of: count, with: item, old: middle[0], layout: layout) else {
            return nil
        }
        return try write(plan, to: &sink)
    }

    /// Writes the file with its top-level items at `spans` (a run of the list's elements,
    /// each found where the one before ends) replaced by `items`, and every other byte as
    /// it stands, into `sink`; returns what it could not hold. This is what `write(_:to:)`
    /// writes where the comparison finds that middle, for a caller that compared the rest
    /// itself (`JSONFormat.update(_:options:streaming:)`), and so has no list of the items
    /// before and after it. `itemsBefore` counts the list's items before the run (for the
    /// positions warnings name). Nil, with nothing written, where the plan needs the whole
    /// list: order fields to renumber, or new integer ids to number after the largest.
    /// Identities are the caller's to check across the whole list.
    ///
    /// With `runOnly`, only the run is written (the caller copies the file's bytes around it).
    mutating func write(
        replacingElements spans: [Range<Int>], with items: [TodoItem], itemsBefore: @escaping () -> Int,
        to sink: inout ByteSink, runOnly: Bool = false
    ) throws -> [ConversionWarning]? {
        guard !layout.hasOrder, let first = spans.first, let last = spans.last, !items.isEmpty else { return nil }
        // The run stands for the list: an array without brackets, whose elements' gaps are
        // the file's; what is before and after it is copied as it stands.
        if learnsFromRuns {
            // Items of the run past the sample teach the layout, as in `readMiddle`.
            let firstIndex = list.elements.firstIndex { $0.lowerBound == first.lowerBound } ?? sampled
            sampled = max(0, sampled - firstIndex)
        }
        if list.elements.count >= 2, first.lowerBound > list.elements[0].lowerBound {
            runFirstGap = list.elements[0].upperBound..<list.elements[1].lowerBound
        }
        list = ArraySpan(
            whole: first.lowerBound..<last.upperBound, inside: first.lowerBound..<last.upperBound, elements: spans)
        scan = .end(closeAt: last.upperBound, arrayEnd: last.upperBound)
        // The run is compared as `write(_:to:)` compares a list: its own unchanged start and
        // end (where an item was inserted before an equal one, say) stay as they are. One item
        // for one (most pieces of a list edited in many places) has no ends to find: the plan
        // keeps it where it is unchanged (rendering it to compare took a tenth of such a write).
        let rewrite: ListRewrite
        if spans.count == 1 && items.count == 1 {
            try scanAll()
            rewrite = ListRewrite(prefix: 0, suffix: 0, oldCount: 1, newCount: 1)
        } else {
            rewrite = try unchangedEnds(items)
        }
        let middle = try readMiddle(rewrite)
        var plan = try ListPlan(items, rewrite: rewrite, old: middle, layout: layout, path: path) { try readItem($0) }
        if layout.integerID != nil, plan.hasNew { return nil }
        plan.itemsBefore = itemsBefore
        return try write(plan, to: &sink, runOnly: runOnly)
    }

    /// The file's items in the middle of `rewrite`, read where they stand; the layout learns
    /// from those past the sample.
    ///
    /// Where the list has no items in the middle, the file's are all removed: they are read
    /// only to teach the layout, and not kept (a list cut to its first tenth, written into
    /// a file of a million items, kept 900,000 of them: 950 MB).
    private mutating func readMiddle(_ rewrite: ListRewrite) throws -> [SpannedItem] {
        var middle: [SpannedItem] = []
        let keeps = !rewrite.newMiddle.isEmpty
        for k in rewrite.oldMiddle {
            let teaches = learnsFromRuns && k >= sampled
            guard keeps || teaches else { continue }
            let item = try readItem(k)
            if teaches { learner.adopt(item.fields) }
            if keeps { middle.append(item) }
        }
        if learnsFromRuns && rewrite.oldMiddle.contains(where: { $0 >= sampled }) { finishLearning() }
        return middle
    }

    private mutating func finishLearning() {
        let dropsNulls = layout.dropsNulls
        layout = learner.finish()
        layout.dropsNulls = dropsNulls
        syntax.use(layout)
    }

    /// Whether a run written (`write(replacingElements:…)`) teaches the layout its items past
    /// the sample; not after `learn(from:)`.
    private var learnsFromRuns = true

    /// Learns the layout from the file's items (their keys and values as read, where `span`
    /// starts) that are past the sample, once for several runs that copies of this patcher
    /// write (`StreamedUpdate`'s pieces), which then learn nothing more: each learning from
    /// its own run copied what the patcher had learned (the sample's ids, order values…)
    /// for every run, most of the time of a write of a hundred thousand runs.
    mutating func learn(from items: [(span: Range<Int>, fields: [Field])]) {
        let sample = Set(list.elements.prefix(sampled).map(\.lowerBound))
        var learned = false
        for (span, fields) in items where !sample.contains(span.lowerBound) {
            learner.adopt(fields)
            learned = true
        }
        if learned { finishLearning() }
        learnsFromRuns = false
    }

    /// Writes the file with the list `plan` plans into `sink`; returns what it could not hold.
    private mutating func write(_ plan: ListPlan<SpannedItem>, to sink: inout ByteSink, runOnly: Bool = false) throws
        -> [ConversionWarning]
    {
        let rewrite = plan.rewrite
        self.plan = plan
        if layout.integerID != nil, plan.hasNew { nextID = try ItemLayout.id(after: largestID()) }

        // The file up to the list, the list, the file after it.
        if !runOnly { sink.write(slice(0..<list.whole.lowerBound)) }
        let elements = list.elements
        let mapped = self.mapped
        try emitArray(
            count: rewrite.newCount, old: list, arrayID: 0, line: lineIndent(at: list.whole.lowerBound), to: &sink
        ) { i in
            if rewrite.newMiddle.contains(i) { return (plan.middle[i - rewrite.prefix], nil) }
            if let placed = plan.outer[i] { return (placed, nil) }
            let k = rewrite.oldIndex(ofOuter: i)
            if let mapped, i % Self.releaseEvery == 0 { mapped.release(before: elements[k].lowerBound) }
            return (nil, ItemOrigin(arrayID: 0, index: k, span: elements[k]))
        }
        if !runOnly { sink.write(slice(list.whole.upperBound..<bytes.count)) }
        return warnings.warnings
    }

    /// The plan being written (for warnings' item positions).
    private var plan: ListPlan<SpannedItem>? = nil

    /// The largest integer id of every item in the file, for new items' ids.
    private mutating func largestID() throws -> Int? {
        guard let key = layout.integerID else { return nil }
        var largest = layout.largestID
        func visit(_ item: TodoItem) {
            if case .integer(let v)? = item.fields[key: key] { largest = max(largest ?? v, v) }
            item.children.forEach(visit)
        }
        for k in list.elements.indices where k >= sampled { visit(try readItem(k).item) }
        return largest
    }

    /// Writes an array of items: its opening token, the elements with the gaps the old array
    /// had between them (or like them), its closing token. `old` is the array the elements
    /// replace; `line` the indentation of the line it opens on. `element(i)` is a placement,
    /// or an old item kept as it is (without building a placement for it).
    private mutating func emitArray(
        count: Int, old: ArraySpan?, arrayID: Int, line: [UInt8], to sink: inout ByteSink,
        _ element: (Int) -> (Placement?, ItemOrigin?)
    ) throws {
        let oldElements = old?.elements ?? []
        guard count > 0 else {
            // An emptied list stays, as an empty array; an empty one as it was; one whose
            // elements had comments between or after them keeps them, inside it as before.
            if let old, oldElements.isEmpty {
                sink.write(slice(old.whole))
            } else if let old, let inside = old.inside, let kept = keptComments(inside, elements: oldElements) {
                sink.write(slice(old.whole.lowerBound..<oldElements[0].lowerBound))
                put(kept, to: &sink)
                sink.write(slice(inside.upperBound..<old.whole.upperBound))
            } else {
                put(syntax.emptyArray, to: &sink)
            }
            return
        }
        let inner = syntax.arrayLines ? line + syntax.indent : line
        func hasComment(_ gap: Range<Int>) -> Bool {
            bytes[gap].contains { !($0 == 32 || $0 == 9 || $0 == 10 || $0 == 13 || $0 == 44) }
        }
        /// The old gap to write between two elements: the one after the old element before
        /// it, else before the old element after it, else the array's first (in a run of the
        /// list's elements that starts past its first, the list's first, as the whole list's
        /// write takes it: written there already, so not again where it holds a comment).
        func gap(after previous: Int?, before next: Int?) -> Range<Int>? {
            func between(_ k: Int) -> Range<Int> { oldElements[k].upperBound..<oldElements[k + 1].lowerBound }
            if let p = previous, p + 1 < oldElements.count { return between(p) }
            if let n = next, n > 0, n < oldElements.count { return between(n - 1) }
            if arrayID == 0, let first = runFirstGap { return hasComment(first) ? nil : first }
            return oldElements.count >= 2 ? between(0) : nil
        }
        // A gap that holds more than separators (a comment) is written once: where it serves
        // a second time (an element put in after the element before it, then the element
        // after it), the second gets a plain separator, not the comment again. (By where
        // the gap starts.)
        var writtenGaps = Set<Int>()
        var elementLine = inner
        if let old, let inside = old.inside {
            sink.write(slice(old.whole.lowerBound..<inside.lowerBound))
            if let first = oldElements.first {
                sink.write(slice(inside.lowerBound..<first.lowerBound))
                elementLine = indentAfterBreak(inside.lowerBound..<first.lowerBound) ?? line
            } else if syntax.arrayLines {
                put([10] + inner, to: &sink)
            }
        } else {
            put(syntax.arrayOpen, to: &sink)
            if syntax.arrayLines { put([10] + inner, to: &sink) }
        }
        var previous: Int? = nil
        // The last gap written, whose indentation `elementLine` is to take before it is next
        // used: worked out only then, not after every old element's gap (most elements of an
        // edited list are kept as they are, and need no line).
        var lineGap: Range<Int>? = nil
        func takeLine() {
            guard let gap = lineGap else { return }
            lineGap = nil
            // (Made again only where it changes: a new array for every element's gap was a
            // tenth of writing a long list.)
            if let indent = Self.indentRangeAfterBreak(in: bytes, gap), !elementLine.elementsEqual(bytes[indent]) {
                elementLine = Array(bytes[indent])
            }
        }
        for i in 0..<count {
            let (placement, kept) = element(i)
            let origin = kept ?? placement?.origin
            let here = origin.flatMap { $0.arrayID == arrayID ? $0.index : nil }
            if i > 0 {
                if let range = gap(after: previous, before: here),
                    writtenGaps.isEmpty || !writtenGaps.contains(range.lowerBound)
                {
                    if hasComment(range) { writtenGaps.insert(range.lowerBound) }
                    sink.write(slice(range))
                    lineGap = range
                } else {
                    takeLine()
                    put(syntax.elementSeparator(line: elementLine), to: &sink)
                }
            }
            if let placement {
                takeLine()
                try emit(placement, line: elementLine, to: &sink)
            } else if let kept {
                sink.write(slice(kept.span))
            }
            previous = here
        }
        // An element moved to the end keeps the comments of the gap that followed it (a gap
        // goes with the element before it, and none follows this one now).
        if let p = previous, p + 1 < oldElements.count, !writtenGaps.contains(oldElements[p].upperBound) {
            let range = oldElements[p].upperBound..<oldElements[p + 1].lowerBound
            if bytes[range].contains(where: { ![32, 9, 10, 13, 44].contains($0) }) {
                var end = range.upperBound
                while end > range.lowerBound && [32, 9, 10, 13].contains(bytes[end - 1]) { end -= 1 }
                sink.write(slice(range.lowerBound..<end))
            }
        }
        if let old, let inside = old.inside {
            if let last = oldElements.last {
                sink.write(slice(last.upperBound..<inside.upperBound))
            } else if syntax.arrayLines {
                put([10] + line, to: &sink)
            }
            sink.write(slice(inside.upperBound..<old.whole.upperBound))
        } else {
            if syntax.arrayLines { put([10] + line, to: &sink) }
            put(syntax.arrayClose, to: &sink)
        }
    }

    /// The comments of an array emptied of `elements` (the bytes between and after them that
    /// are more than separators), each from its first byte that is not white space, up to
    /// the inside's end; nil where there are none.
    private func keptComments(_ inside: Range<Int>, elements: [Range<Int>]) -> [UInt8]? {
        var kept: [UInt8] = []
        var lastKept = false
        for (k, element) in elements.enumerated() {
            let gap = element.upperBound..<(k + 1 < elements.count ? elements[k + 1].lowerBound : inside.upperBound)
            let start = bytes[gap].firstIndex { ![32, 9, 10, 13, 44].contains($0) }
            lastKept = start != nil
            if let start { kept += bytes[start..<gap.upperBound] }
        }
        guard !kept.isEmpty else { return nil }
        // The array's close stays on its own line where no comment followed the last element.
        if !lastKept, let last = elements.last {
            while let byte = kept.last, [32, 9, 10, 13].contains(byte) { kept.removeLast() }
            kept += bytes[last.upperBound..<inside.upperBound]
        }
        return kept
    }

    private mutating func emitArray(
        _ placements: [Placement], old: ArraySpan?, arrayID: Int, line: [UInt8], to sink: inout ByteSink
    ) throws {
        try emitArray(count: placements.count, old: old, arrayID: arrayID, line: line, to: &sink) {
            (placements[$0], nil)
        }
    }

    private mutating func emit(_ placement: Placement, line: [UInt8], to sink: inout ByteSink) throws {
        switch placement {
        case .kept(let old):
            sink.write(slice(old.span))
        case .changed(let old, let item, let children, let at):
            try emitPatched(old, item, children, at: at, line: line, to: &sink)
        case .added(let item, let children, let at):
            try emitFresh(item, children, at: at, line: line, to: &sink)
        }
    }

    /// An old item changed key by key (`ItemPatch`): untouched keys keep their bytes.
    private mutating func emitPatched(
        _ old: SpannedItem, _ item: TodoItem, _ children: [Placement], at: ItemAt, line: [UInt8],
        to sink: inout ByteSink
    ) throws {
        let (edits, displaced) = ItemPatch.edits(
            old: old.item, members: old.members, new: item,
            childrenChanged: !ListPlan<SpannedItem>.childrenKept(children, of: old),
            layout: layout, now: now)
        warnings.note(chosen: edits.lazy.compactMap(\.insertedKey), by: layout, item: plan?.describe(at) ?? "")
        warnings.note(displaced: displaced, item: plan?.describe(at) ?? "")
        // Where the format has no null (property lists), a null field is left out (or its key
        // goes), with a warning.
        if layout.dropsNulls, item.fields.contains(where: { $0.value == .null }) { note(.null, at: at) }
        let members = old.members.count
        let lead: Range<Int>? = members > 0 ? old.inside.lowerBound..<old.keySpans[0].lowerBound : nil
        let memberLine = lead.flatMap(indentAfterBreak) ?? (syntax.itemLines ? line + syntax.indent : line)
        let colon: [UInt8] =
            members > 0
            ? Array(bytes[old.keySpans[0].upperBound..<old.valueSpans[0].lowerBound]) : syntax.colon(line: memberLine)
        /// The bytes between two members, where they are only a separator: between members
        /// that are not next to each other they may also hold a key given again (JSON's
        /// reader passes over the earlier one), which only stays where it stands.
        func separator(before n: Int) -> [UInt8]? {
            let gap = bytes[old.valueSpans[n - 1].upperBound..<old.keySpans[n].lowerBound]
            guard gap.allSatisfy({ [32, 9, 10, 13, 44].contains($0) }), gap.count(where: { $0 == 44 }) <= 1 else {
                return nil
            }
            return Array(gap)
        }
        func gap(after previous: Int?, before next: Int?) -> [UInt8] {
            if let p = previous, next == p + 1 {
                return Array(bytes[old.valueSpans[p].upperBound..<old.keySpans[p + 1].lowerBound])
            }
            if let p = previous, p + 1 < members, let gap = separator(before: p + 1) { return gap }
            if let n = next, n > 0, n < members, let gap = separator(before: n) { return gap }
            if members >= 2, let gap = separator(before: 1) { return gap }
            return syntax.memberSeparator(line: memberLine)
        }
        /// The gap before member `n` where it holds comments (an XML property list's
        /// `<!-- … -->`) and white space only: it goes with the member, wherever the member
        /// is written (else a key put in before it, or keys written in another order, lost
        /// the comment).
        func commented(before n: Int) -> [UInt8]? {
            guard n > 0, n < members else { return nil }
            let gap = slice(old.valueSpans[n - 1].upperBound..<old.keySpans[n].lowerBound)
            var i = 0
            var sawComment = false
            while i < gap.count {
                if [32, 9, 10, 13].contains(gap[i]) {
                    i += 1
                    continue
                }
                guard gap[i...].starts(with: "<!--".utf8) else { return nil }
                i += 4
                while i + 3 <= gap.count && !gap[i..<(i + 3)].elementsEqual("-->".utf8) { i += 1 }
                guard i + 3 <= gap.count else { return nil }
                sawComment = true
                i += 3
            }
            return sawComment ? Array(gap) : nil
        }
        // Old members that the edits remove and put in again elsewhere (a moved key), by key.
        let moved = ItemPatch.removedMembers(edits, old.members)
        sink.write(slice(old.span.lowerBound..<old.inside.lowerBound))
        var previous: Int? = nil
        var first = true
        for edit in edits {
            let index: Int?
            let member: Int?
            switch edit {
            case .remove: continue
            case .keep(let i), .replace(let i, _), .replaceChildren(let i):
                index = i
                member = i
            case .insert(let key, let value):
                if value == .null && layout.dropsNulls { continue }
                index = nil
                member = moved[key]
            case .insertChildren(let key):
                index = nil
                member = moved[key]
            }
            if let n = member, previous.map({ $0 + 1 }) != n, let own = commented(before: n) {
                put(own, to: &sink)
            } else if first {
                if let lead {
                    sink.write(slice(lead))
                } else if syntax.itemLines {
                    put([10] + memberLine, to: &sink)
                }
            } else {
                put(gap(after: previous, before: index), to: &sink)
            }
            first = false
            previous = index
            switch edit {
            case .remove: break
            case .keep(let i):
                sink.write(slice(old.keySpans[i].lowerBound..<old.valueSpans[i].upperBound))
            case .replace(let i, let value):
                sink.write(slice(old.keySpans[i].lowerBound..<old.valueSpans[i].lowerBound))
                writeValue(value, line: memberLine, at: at, to: &sink)
            case .replaceChildren(let i):
                sink.write(slice(old.keySpans[i].lowerBound..<old.valueSpans[i].lowerBound))
                try emitArray(
                    children, old: old.childrenArray, arrayID: old.childrenArrayID, line: memberLine, to: &sink)
            case .insert(let key, let value):
                writeKey(key, colon: colon, at: at, to: &sink)
                writeValue(value, line: memberLine, at: at, to: &sink)
            case .insertChildren(let key):
                writeKey(key, colon: colon, at: at, to: &sink)
                try emitArray(children, old: nil, arrayID: -1, line: memberLine, to: &sink)
            }
        }
        if !first {
            if let last = old.valueSpans.last {
                sink.write(slice(last.upperBound..<old.inside.upperBound))
            } else if syntax.itemLines {
                put([10] + line, to: &sink)
            }
        }
        sink.write(slice(old.inside.upperBound..<old.span.upperBound))
    }

    /// A new item, written like the file's items: their keys in their order, an id and a
    /// creation date where every item has one. `children` nil: its children are all new.
    private mutating func emitFresh(
        _ item: TodoItem, _ children: [Placement]?, at: ItemAt, line: [UInt8], to sink: inout ByteSink
    ) throws {
        let item = layout.completing(item, nextID: &nextID, now: now)
        let plan = self.plan
        for (kind, message) in layout.newItemWarnings(for: item, listName: listName) {
            warnings.note(kind, message, item: plan?.describe(at) ?? "")
        }
        let entries = layout.entries(of: item)
        warnings.note(chosen: entries.lazy.map(\.key), by: layout, item: plan?.describe(at) ?? "")
        let inner = syntax.itemLines ? line + syntax.indent : line
        put(syntax.objectOpen, to: &sink)
        var first = true
        for entry in entries {
            if case .value(.null) = entry.value, layout.dropsNulls {
                note(.null, at: at)
                continue
            }
            if syntax.itemLines {
                put(first ? [10] + inner : syntax.memberSeparator(line: inner), to: &sink)
            } else if !first {
                put(syntax.memberSeparator(line: inner), to: &sink)
            }
            first = false
            writeKey(entry.key, colon: syntax.colon(line: inner), at: at, to: &sink)
            switch entry.value {
            case .value(let value):
                writeValue(value, line: inner, at: at, to: &sink)
            case .items:
                let placements = children ?? plan!.newChildren(of: item, at: at)
                try emitArray(placements, old: nil, arrayID: -1, line: inner, to: &sink)
            case .dictionary: break
            }
        }
        if syntax.itemLines && !first { put([10] + line, to: &sink) }
        put(syntax.objectClose, to: &sink)
    }

    /// Bytes todofmt makes (not the file's own), with the file's line breaks.
    private func put(_ made: [UInt8], to sink: inout ByteSink) {
        guard crlf, made.contains(10) else { return sink.write(bytes: made) }
        var text: [UInt8] = []
        text.reserveCapacity(made.count + 8)
        for (i, b) in made.enumerated() {
            if b == 10 && (i == 0 || made[i - 1] != 13) { text.append(13) }
            text.append(b)
        }
        sink.write(bytes: text)
    }

    private mutating func writeKey(_ key: String, colon: [UInt8], at: ItemAt, to sink: inout ByteSink) {
        // A key is text as a value is: what the format cannot hold of it is noted the same.
        note(.string(key), at: at)
        scratch.removeAll(keepingCapacity: true)
        syntax.key(key, to: &scratch)
        scratch += colon
        put(scratch, to: &sink)
    }

    private mutating func writeValue(_ value: FieldValue, line: [UInt8], at: ItemAt, to sink: inout ByteSink) {
        note(value, at: at)
        scratch.removeAll(keepingCapacity: true)
        syntax.value(value, line: line, to: &scratch)
        put(scratch, to: &sink)
    }

    /// Notes what the format cannot hold of a value written.
    private mutating func note(_ value: FieldValue, at: ItemAt) {
        let plan = self.plan
        for message in syntax.losses(in: value) {
            warnings.note(.values, message, item: plan?.describe(at) ?? "")
        }
    }
}
