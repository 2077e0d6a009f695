import Foundation

/// A write of a list into an existing text file laid out as todofmt writes a new one (a
/// file todofmt wrote, edited since), as the list streams: what the whole-list write
/// (`TextListPatcher.write(_:to:)`) writes, without building the list or writing each item
/// to compare it. JSON (`JSONFormat`) and XML property lists (`PropertyListFormat`) use it.
///
/// The list goes through a new file's writer whose bytes are compared with the file's as
/// they come (`ByteComparison`) instead of being written. Where they first differ, the file's
/// bytes before are that writer's, whose top-level items each start a line with the same
/// bytes (`marker`: `\n  {` in JSON), which nothing else in such a file has; so the item
/// there starts at the last marker. From there the file's items are scanned until one
/// starts where the rest of the file is the rest of the output and the output has an item
/// too: both parsers stand at the start of an item with the same bytes after, so the rest
/// is the same items. Only the run of items between is read, from both, and written by
/// `TextListPatcher.write(replacingElements:…)`; every other byte is copied as it stands.
struct StreamedUpdate<Syntax: TextListSyntax> {
    /// How a top-level item's line starts in a new file.
    let marker: LineMarker

    init(marker: [UInt8], itemOffset: Int) {
        self.marker = LineMarker(bytes: marker, itemOffset: itemOffset)
    }

    /// Writes into the file at `path` (named `name` in messages; its bytes `old`) the list
    /// that `read` hands to `writer`, a new file's writer into the sink it is given; `patcher`
    /// makes the file's patcher, which learns the layout from the file's first items, and is
    /// called only when the list is not the file's very bytes (a list written back unchanged
    /// needs no layout: a fifth of such a write was reading a thousand items to learn it).
    /// Nil, with nothing written and `read` perhaps called, where this does not apply (the
    /// caller builds the list and calls the whole-list write): the output differs before the
    /// file's first item, two items have one identity (the whole-list write reports them;
    /// any key named as identities are counts, since the file's is not yet known), a value
    /// the format cannot hold (the whole-list write warns of it only in the items it writes),
    /// the file has no patcher or its items an order of their own, the file is not well
    /// formed after the difference, or the patcher needs the whole list
    /// (`write(replacingElements:…)`).
    func write(
        into path: String, name: String, old: UnsafeBufferPointer<UInt8>,
        patcher makePatcher: () throws -> TextListPatcher<Syntax>?, format: DocumentFormat, schema: ItemSchema,
        writer: (ByteSink) -> any ListWriter, read: (inout any ListWriter) throws -> Void
    ) throws -> PendingWrite? {
        guard !Self.firstItemHasOrder(old, marker: marker, name: name, schema: schema),
            let (written, comparison) = try ComparedWriter.compare(
                old, format: format, writer: writer, identities: .named,
                keepsItems: { marker.lastStart(before: $0, in: old) != nil }, read: read)
        else { return nil }
        if comparison.isSame { return .unchanged(written.warnings) }
        guard var patcher = try makePatcher(), !patcher.layout.hasOrder,
            let start = marker.lastStart(before: comparison.matched, in: old),
            let (spans, runEnd) = run(from: start, of: comparison, syntax: patcher.syntax)
        else { return nil }
        let run = comparison.output(start..<runEnd)
        guard let items = try? run.withUnsafeBufferPointer({ try self.items(in: $0, name: name, schema: schema) })
        else { return nil }

        return try PendingWrite.file(path) { sink in
            try patcher.write(
                replacingElements: spans, with: items, itemsBefore: { marker.starts(in: old, before: start).count },
                to: &sink
            ).map { written.warnings + $0 }
        }
    }

    /// Whether the file's first top-level item has a value of the order role (`position`,
    /// `sortOrder`): the file's items then keep an order of their own, which a new file's
    /// writer does not write, so the streamed update does not apply. (The patcher learns it
    /// from the first thousand items; the first tells it without reading them, before the
    /// list is compared.)
    private static func firstItemHasOrder(
        _ old: UnsafeBufferPointer<UInt8>, marker: LineMarker, name: String, schema: ItemSchema
    ) -> Bool {
        let head = UnsafeBufferPointer(rebasing: old.prefix(1 << 16))
        guard let first = marker.starts(in: head, before: head.count, limit: 1).first else { return false }
        var arrayIDs = 0
        guard
            let item = try? Syntax(bytes: old, path: name, schema: schema).readItem(
                at: first, depth: 0, arrayIDs: &arrayIDs)
        else { return false }
        return item.fields.contains { field in
            guard schema.role(of: field.key) == .order else { return false }
            switch field.value {
            case .integer, .double: return true
            default: return false
            }
        }
    }

    /// The file's items from the one at `start` (where the output first differs, or before)
    /// to the first that starts where the rest of the file is the rest of the output and the
    /// output has an item too, past `start` (so that the run of new items is not empty); and
    /// where the run ends in the output (its end when the file's list ends first). Nil
    /// when the file is not well formed there.
    private func run(from start: Int, of comparison: ByteComparison, syntax: Syntax) -> ([Range<Int>], Int)? {
        let old = comparison.old
        let sameFrom = old.count - comparison.commonSuffix()
        let shift = comparison.outputCount - old.count
        var spans: [Range<Int>] = []
        var element = start
        do {
            while true {
                let end = try syntax.elementEnd(from: element)
                spans.append(element..<end)
                guard case .element(let next) = try syntax.element(after: end) else {
                    return (spans, comparison.outputCount)
                }
                let there = next + shift
                if next >= sameFrom, there > start,
                    marker.isStart(there, count: comparison.outputCount, comparison.outputByte)
                {
                    return (spans, there)
                }
                element = next
            }
        } catch {
            return nil
        }
    }

    /// The top-level items of a run of a new file's output (from an item's start).
    private func items(in run: UnsafeBufferPointer<UInt8>, name: String, schema: ItemSchema) throws -> [TodoItem] {
        let syntax = Syntax(bytes: run, path: name, schema: schema)
        var arrayIDs = 0
        var items = [try syntax.readItem(at: 0, depth: 0, arrayIDs: &arrayIDs).item]
        for start in marker.starts(in: run, before: run.count) where start > 0 {
            items.append(try syntax.readItem(at: start, depth: 0, arrayIDs: &arrayIDs).item)
        }
        return items
    }
}

/// The writer of a streamed update: a new file's writer whose bytes go to a
/// `ByteComparison`, watched for what makes the update give up so that the caller writes
/// the whole list instead (`GivenUp`): two items with the same identity (which the
/// whole-list write reports, naming both), or a first difference before the file's first
/// item, where nothing of the file can be kept this way (another layout than the writer's).
struct ComparedWriter: ListWriter {
    /// Thrown to stop the reader: the update gives up.
    struct GivenUp: Error {}

    private var base: any ListWriter
    private let comparison: ByteComparison
    /// Whether the file's bytes up to the first difference hold the start of an item.
    private let keepsItems: (Int) -> Bool
    private var checked = false
    private let identities: Identities
    /// The identities met so far, by key.
    private var seen: [String: Set<FieldValue>] = [:]

    /// Which of the list's fields are the items' identities, that no two items may share.
    enum Identities {
        /// None: nothing is checked.
        case none
        /// Any key named as identities are (`id`, `uuid`, `guid`, as the layout learns
        /// them): the file's identity key is learned after the comparison, so two items
        /// sharing a value under any of these give up, for the whole-list write to tell.
        case named
    }

    /// `keepsItems(offset)` says whether the first `offset` bytes of the file hold the start
    /// of one of its items; `identities` says which fields are the items' identities.
    init(
        base: any ListWriter, comparison: ByteComparison, identities: Identities, keepsItems: @escaping (Int) -> Bool
    ) {
        self.base = base
        self.comparison = comparison
        self.identities = identities
        self.keepsItems = keepsItems
    }

    /// Gives up where `item` shares an identity with an item before it.
    private mutating func checkIdentity(of item: TodoItem) throws {
        guard case .named = identities else { return }
        for field in item.fields where Self.isNamedAsIdentity(field.key) { try note(field.value, under: field.key) }
    }

    /// Whether `key` is named as identities are (`id`, `uuid`, `guid`, in any case, with
    /// `_` or `-` anywhere). Each ends in `d`, which most keys do not: those are told without
    /// normalizing them.
    private static func isNamedAsIdentity(_ key: String) -> Bool {
        let last = key.utf8.last { $0 != UInt8(ascii: "_") && $0 != UInt8(ascii: "-") }
        guard last == UInt8(ascii: "d") || last == UInt8(ascii: "D") else { return false }
        return ItemLayout.Learner.identityKeys.contains(ItemSchema.normalizedKey(key))
    }

    private mutating func note(_ value: FieldValue, under key: String) throws {
        if value != .null, !seen[key, default: []].insert(value).inserted { throw GivenUp() }
    }

    /// Gives up once the output has differed before the file's first item.
    private mutating func check() throws {
        guard !checked, comparison.differs else { return }
        checked = true
        if !keepsItems(comparison.matched) { throw GivenUp() }
    }

    mutating func begin(metadata: [Field]) throws { try base.begin(metadata: metadata) }

    mutating func item(_ item: TodoItem, depth: Int) throws {
        if !item.fields.isEmpty { try checkIdentity(of: item) }
        try base.item(item, depth: depth)
        try check()
    }

    var takesPlainNames: Bool { base.takesPlainNames }

    mutating func item(plainName: UnsafeBufferPointer<UInt8>, status: TodoStatus, section: String?, depth: Int) throws {
        try base.item(plainName: plainName, status: status, section: section, depth: depth)
        try check()
    }

    mutating func items(plain: ArraySlice<PlainItem>, text: UnsafeBufferPointer<UInt8>, sections: [String]) throws {
        try base.items(plain: plain, text: text, sections: sections)
        try check()
    }

    mutating func leftOut(_ warning: ConversionWarning) throws { try base.leftOut(warning) }

    mutating func end() throws { try base.end() }

    mutating func finish() throws -> Written { try base.finish() }

    /// The file `old` left as it is, where `writer` (a new file's writer of `format` into the
    /// sink it is given) writes the list that `read` reads as the file's very bytes, compared
    /// as they stream: the file holds the list as todofmt writes it, so an update changes
    /// nothing. Nil at the first difference (`read` stops there) and where the list holds a
    /// value the format cannot hold (the file then holds something else); the caller writes
    /// the list its own way.
    static func unchanged(
        _ old: UnsafeBufferPointer<UInt8>, format: DocumentFormat, writer: (ByteSink) throws -> any ListWriter,
        read: (inout any ListWriter) throws -> Void
    ) throws -> PendingWrite? {
        guard
            let (written, comparison) = try compare(
                old, format: format, writer: writer, identities: .none, keepsItems: { _ in false }, read: read),
            comparison.isSame
        else { return nil }
        return .unchanged(written.warnings)
    }

    /// The list `read` reads through `writer` (a new file's writer of `format` into the sink
    /// it is given), its bytes compared with the file's `old` as they stream: what the writer
    /// wrote, and the comparison. Nil where the writer gave up (see `init`), and where the
    /// list holds a value the format cannot hold: the writer warns of it where an item is
    /// written, and a write of the items that changed would not (such values are rare;
    /// repeated field keys are warned of for the whole list either way).
    static func compare(
        _ old: UnsafeBufferPointer<UInt8>, format: DocumentFormat, writer: (ByteSink) throws -> any ListWriter,
        identities: Identities, keepsItems: @escaping (Int) -> Bool, read: (inout any ListWriter) throws -> Void
    ) throws -> (written: Written, comparison: ByteComparison)? {
        let comparison = ByteComparison(old)
        var compared: any ListWriter = ComparedWriter(
            base: DepthLimitedWriter.guarding(try writer(ByteSink(comparingWith: comparison)), format: format),
            comparison: comparison, identities: identities, keepsItems: keepsItems)
        let written: Written
        do {
            try read(&compared)
            written = try compared.finish()
        } catch is GivenUp {
            return nil
        }
        if written.warnings.contains(where: { $0.firstItem != nil && $0.kind != .fields }) { return nil }
        return (written, comparison)
    }
}
