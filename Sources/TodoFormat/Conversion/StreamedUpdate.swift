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
/// A run whose items only changed their boxes is the output's bytes (`sameItems`); a long
/// run of other scattered changes is written a piece at a time (`pieces(of:…)`).
///
/// Before all that, the comparison asks each difference of the syntax as the output streams
/// (`statusResolver`, `TextListSyntax.statusChange`): while each is one item's status
/// members changed, it notes the change and compares on past it, keeping nothing of the
/// output. Where every difference was such a change, the file is its own bytes with those
/// changes (`takes(_:in:…)` checks them as `sameItems` checks pairs); at the first that is
/// not, the output from the first difference is made from the changes, and the rest runs.
struct StreamedUpdate<Syntax: TextListSyntax> {
    /// How a top-level item's line starts in a new file.
    let marker: LineMarker

    init(marker: [UInt8], itemOffset: Int) {
        self.marker = LineMarker(bytes: marker, itemOffset: itemOffset)
    }

    /// Writes into the file at `path` (named `name` in messages; its bytes `old`) the list
    /// that `read` hands to `writer`, a new file's writer into the sink it is given; `patcher`
    /// makes the file's patcher, which learns the layout from the file's first items. The
    /// list is compared first, and the patcher made only where it differs, or where what the
    /// list holds could make the layout tell otherwise (`ComparedWriter.Noted`): a list
    /// written back unchanged needs no layout (reading a thousand items to learn it was a
    /// fifth of such a write). Nil, with nothing written and `read` perhaps called, where
    /// this does not apply (the caller builds the list and calls the whole-list write): the
    /// output differs before the file's first item, two items have one identity (the
    /// whole-list write reports them), a value the format cannot hold (the whole-list write
    /// warns of it only in the items it writes), the file has no patcher or its items an
    /// order of their own, the file is not well formed after the difference, or the patcher
    /// needs the whole list (`write(replacingElements:…)`).
    func write(
        into path: String, name: String, old: UnsafeBufferPointer<UInt8>,
        patcher makePatcher: () throws -> TextListPatcher<Syntax>?, format: DocumentFormat, schema: ItemSchema,
        writer: (ByteSink) -> any ListWriter, read: (inout any ListWriter) throws -> Void
    ) throws -> PendingWrite? {
        guard !Self.firstItemHasOrder(old, marker: marker, name: name, schema: schema),
            let (written, comparison, noted) = try ComparedWriter.compare(
                old, format: format, writer: writer, noting: schema,
                keepsItems: { marker.lastStart(before: $0, in: old) != nil },
                resolver: Self.statusResolver(schema: schema), read: read)
        else { return nil }
        if comparison.isSame && noted.isEmpty { return .unchanged(written.warnings) }
        guard var patcher = try makePatcher(), !patcher.layout.hasOrder,
            !noted.sharesIdentity(under: patcher.layout.identityKey)
        else { return nil }
        if comparison.isSame { return .unchanged(written.warnings) }
        if let changes = comparison.statusChanges(), Self.writesStatusesAsTodofmt(patcher.layout, schema: schema),
            takes(changes, in: old, syntax: patcher.syntax, layout: patcher.layout, writer: writer)
        {
            return try ComparedWriter.writeRun(into: path) { sink in
                // The file's bytes between the changes, and each change's.
                changes.bytes.withUnsafeBufferPointer { new in
                    let ranges = changes.ranges
                    sink.write(pieces: 2 * ranges.count + 1) { i in
                        let k = i / 2
                        if i % 2 == 1 { return UnsafeBufferPointer(rebasing: new[ranges[k].new]) }
                        let start = k == 0 ? 0 : ranges[k - 1].old.upperBound
                        let end = k == ranges.count ? old.count : ranges[k].old.lowerBound
                        return UnsafeBufferPointer(rebasing: old[start..<end])
                    }
                }
                return written.warnings
            }
        }
        guard let start = marker.lastStart(before: comparison.matched, in: old) else { return nil }
        let (oldEnd, runEnd) = self.runEnd(from: start, of: comparison)
        let run = comparison.takeOutput(start..<runEnd)
        if Self.writesStatusesAsTodofmt(patcher.layout, schema: schema),
            run.withUnsafeBufferPointer({
                sameItems(
                    UnsafeBufferPointer(rebasing: old[start..<oldEnd]), at: start, output: $0,
                    toEnd: oldEnd == old.count, syntax: patcher.syntax, layout: patcher.layout, writer: writer)
            })
        {
            return try ComparedWriter.writeRun(into: path) { sink in
                sink.write(UnsafeBufferPointer(rebasing: old[..<start]))
                run.withUnsafeBufferPointer { sink.write($0) }
                sink.write(UnsafeBufferPointer(rebasing: old[oldEnd...]))
                return written.warnings
            }
        }
        guard let spans = spans(from: start, to: oldEnd, in: old, syntax: patcher.syntax) else { return nil }
        let itemsBefore = { marker.starts(in: old, before: start).count }
        if spans.count > ListPieces.splitAbove,
            let (pieces, starts) = run.withUnsafeBufferPointer({
                self.pieces(of: spans, output: $0, oldEnd: oldEnd, in: old)
            }), pieces.count > 1,
            let read = try? run.withUnsafeBufferPointer({
                try self.read(
                    pieces, of: spans, output: $0, starts: starts, syntax: patcher.syntax, name: name, schema: schema)
            }), !Self.namesCross(read)
        {
            return try ComparedWriter.writeRun(into: path) { sink in
                try write(
                    pieces, read: read, of: spans, old: old, patcher: patcher, itemsBefore: itemsBefore, to: &sink
                ).map { written.warnings + $0 }
            }
        }
        guard let items = try? run.withUnsafeBufferPointer({ try self.items(in: $0, name: name, schema: schema) })
        else { return nil }

        return try ComparedWriter.writeRun(into: path) { sink in
            try patcher.write(replacingElements: spans, with: items, itemsBefore: itemsBefore, to: &sink).map {
                written.warnings + $0
            }
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
        let notes = ComparedWriter.Notes(schema: schema)
        notes.note(item.fields)
        return notes.noted.hasOrder
    }

    /// Where the run of items from the one at `start` (where the output first differs, or
    /// before) ends, in the file and in the output: at the first item past `start` that
    /// starts where the rest of the file is the rest of the output and the output has an item
    /// too; both ends where there is none (the file's list ends first).
    private func runEnd(from start: Int, of comparison: ByteComparison) -> (old: Int, output: Int) {
        let old = comparison.old
        let sameFrom = old.count - comparison.commonSuffix()
        let shift = comparison.outputCount - old.count
        // (Items that start before `sameFrom` are passed over: the search starts at the first
        // marker that could start one after. Going through every line from `start` to there
        // was a tenth of a write with every tenth box changed.)
        var line = max(start, sameFrom - marker.itemOffset)
        while let next = marker.nextStart(from: line, in: old) {
            let there = next + shift
            if next >= sameFrom, there > start,
                marker.isStart(there, count: comparison.outputCount, comparison.outputByte)
            {
                return (next, there)
            }
            line = next
        }
        return (old.count, comparison.outputCount)
    }

    /// The file's items from the one at `start` to `end` (where the run ends, or the file's
    /// end where its list ends first), as the syntax finds them. Nil where the file is not well
    /// formed there, or where its items do not end at `end` (a line in an item that looks like
    /// an item's start: the whole-list write decides).
    private func spans(from start: Int, to end: Int, in old: UnsafeBufferPointer<UInt8>, syntax: Syntax)
        -> [Range<Int>]?
    {
        var spans: [Range<Int>] = []
        var element = start
        do {
            while element < end {
                let elementEnd = try syntax.elementEnd(from: element)
                spans.append(element..<elementEnd)
                guard case .element(let next) = try syntax.element(after: elementEnd) else {
                    return end == old.count ? spans : nil
                }
                element = next
            }
            return element == end ? spans : nil
        } catch {
            return nil
        }
    }

    /// The top-level items of a run of a new file's output (from an item's start).
    func items(in run: UnsafeBufferPointer<UInt8>, name: String, schema: ItemSchema) throws -> [TodoItem] {
        let syntax = Syntax(bytes: run, path: name, schema: schema)
        var arrayIDs = 0
        return try marker.runStarts(in: run).map { try syntax.readItem(at: $0, depth: 0, arrayIDs: &arrayIDs).item }
    }
}

/// The writer of a streamed update: a new file's writer whose bytes go to a
/// `ByteComparison`, watched for what makes the update give up so that the caller writes
/// the whole list instead (`GivenUp`): a first difference before the file's first item,
/// where nothing of the file can be kept this way (another layout than the writer's). It
/// also notes what in the list's fields the file's layout, learned after, may tell apart
/// (`Noted`).
struct ComparedWriter: ListWriter {
    /// Thrown to stop the reader: the update gives up.
    struct GivenUp: Error {}

    /// What the list's fields hold that the file's layout, learned after the comparison,
    /// may make matter: the caller learns it before leaving the file as it is.
    struct Noted {
        /// The keys named as identities are (`id`, `uuid`, `guid`, as the layout learns
        /// them) under which two items share a value: where one is the file's identity key,
        /// the whole-list write reports the two.
        var sharedIdentities: Set<String> = []
        /// Whether an item has a number under a key of the order role (`position`): where
        /// the file's items keep an order of their own, the whole-list write keeps it.
        var hasOrder = false

        var isEmpty: Bool { sharedIdentities.isEmpty && !hasOrder }

        /// Whether two items share a value under `key`, the file's identity key (nil: none).
        func sharesIdentity(under key: String?) -> Bool { key.map(sharedIdentities.contains) ?? false }
    }

    /// The list's fields noted as the list streams (a class: a reader may wrap the writer
    /// it is given, so the notes are not read back from it).
    final class Notes {
        /// All the notes' state, in one value: each access to a class's stored property is
        /// checked for exclusivity at run time, and several for each item with fields were
        /// four-fifths of noting them (noting was 4% of writing a list with one change into
        /// a YAML file).
        private var state: State

        init(schema: ItemSchema) { state = State(schema: schema) }

        var noted: Noted {
            state.checkIntegers()
            return state.noted
        }

        /// Notes an item's fields: its value under each key named as identities are (as the
        /// item is read by that key: the first of repeated keys counts once), and a number
        /// under a key of the order role.
        func note(_ fields: [Field]) { state.note(fields) }

        private struct State {
            /// The schema the fields' roles are told by.
            let schema: ItemSchema
            var noted = Noted()
            /// The keys met, in the order first met (a list's items have few keys, and
            /// comparing a short key is cheaper than hashing or normalizing it), each with
            /// whether it is of the order role, and, if it is named as identities are, the
            /// values met under it: integers (most identities) in a list, checked for two
            /// alike once they are all there (`checkIntegers`), where hashing each into a set
            /// was most of noting them; other values in a set.
            var kinds: [Kind] = []
            /// The values met under keys named as identities are past the first 32 keys.
            var otherIdentities: [String: Set<FieldValue>] = [:]

            struct Kind {
                let key: String
                let isOrder: Bool
                let isIdentity: Bool
                var values: Set<FieldValue> = []
                var integers: [Int] = []
                /// How many of `integers` were checked (and sorted).
                var checked = 0
            }

            init(schema: ItemSchema) { self.schema = schema }

            mutating func note(_ fields: [Field]) {
                for i in fields.indices {
                    let field = fields[i]
                    let k = kind(of: field.key)
                    let (isOrder, isIdentity) =
                        k >= 0 ? (kinds[k].isOrder, kinds[k].isIdentity) : Self.kind(of: field.key, schema: schema)
                    if isOrder, !noted.hasOrder {
                        switch field.value {
                        case .integer, .double: noted.hasOrder = true
                        default: break
                        }
                    }
                    // (The first field of its key is the value the item is read by.)
                    guard isIdentity, field.value != .null, !fields[..<i].contains(where: { $0.key == field.key })
                    else { continue }
                    if k >= 0, case .integer(let n) = field.value {
                        kinds[k].integers.append(n)
                        continue
                    }
                    let inserted =
                        k >= 0
                        ? kinds[k].values.insert(field.value).inserted
                        : otherIdentities[field.key, default: []].insert(field.value).inserted
                    if !inserted { noted.sharedIdentities.insert(field.key) }
                }
            }

            /// Notes the keys under which two integers met are alike.
            mutating func checkIntegers() {
                for k in kinds.indices where kinds[k].checked < kinds[k].integers.count {
                    kinds[k].integers.sort()
                    kinds[k].checked = kinds[k].integers.count
                    let integers = kinds[k].integers
                    if zip(integers, integers.dropFirst()).contains(where: { $0 == $1 }) {
                        noted.sharedIdentities.insert(kinds[k].key)
                    }
                }
            }

            /// Where `key` is among `kinds`, added if there is room; -1 past the first 32.
            private mutating func kind(of key: String) -> Int {
                if let known = kinds.firstIndex(where: { $0.key == key }) { return known }
                guard kinds.count < 32 else { return -1 }
                let (isOrder, isIdentity) = Self.kind(of: key, schema: schema)
                kinds.append(Kind(key: key, isOrder: isOrder, isIdentity: isIdentity))
                return kinds.count - 1
            }

            /// Whether `key` is of the order role, and whether it is named as identities are
            /// (`id`, `uuid`, `guid`, in any case, with `_` or `-` anywhere).
            private static func kind(of key: String, schema: ItemSchema) -> (isOrder: Bool, isIdentity: Bool) {
                (
                    schema.role(of: key) == .order,
                    ItemLayout.Learner.identityKeys.contains(ItemSchema.normalizedKey(key))
                )
            }
        }
    }

    private var base: any ListWriter
    private let comparison: ByteComparison
    /// Whether the file's bytes up to the first difference hold the start of an item.
    private let keepsItems: (Int) -> Bool
    private var checked = false
    /// Where the list's fields are noted, if they are.
    private let notes: Notes?

    /// `keepsItems(offset)` says whether the first `offset` bytes of the file hold the start
    /// of one of its items; the list's fields are noted into `notes`, if given.
    init(base: any ListWriter, comparison: ByteComparison, notes: Notes?, keepsItems: @escaping (Int) -> Bool) {
        self.base = base
        self.comparison = comparison
        self.notes = notes
        self.keepsItems = keepsItems
    }

    /// Gives up once the output has differed before the file's first item, or from too
    /// many of the file's bytes (`ByteComparison.tooDifferent`).
    private mutating func check() throws {
        if comparison.tooDifferent { throw GivenUp() }
        guard !checked, comparison.differs else { return }
        checked = true
        if !keepsItems(comparison.matched) { throw GivenUp() }
    }

    mutating func begin(metadata: [Field]) throws { try base.begin(metadata: metadata) }

    mutating func item(_ item: TodoItem, depth: Int) throws {
        if let notes, !item.fields.isEmpty { notes.note(item.fields) }
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

    mutating func item(
        plainName: UnsafeBufferPointer<UInt8>, fields: [Field], status: TodoStatus, section: String?, depth: Int
    ) throws {
        if let notes, !fields.isEmpty { notes.note(fields) }
        try base.item(plainName: plainName, fields: fields, status: status, section: section, depth: depth)
        try check()
    }

    mutating func leftOut(_ warning: ConversionWarning) throws { try base.leftOut(warning) }

    mutating func end() throws { try base.end() }

    mutating func finish() throws -> Written { try base.finish() }

    /// The write of a streamed update's run into the file at `path` (`PendingWrite.file`);
    /// nil where the run's items share an identity. They are read back from the output,
    /// where a key given twice in an item reads as its last value, not as the list holds it:
    /// the whole-list write decides, and where two items do share an identity it names both.
    static func writeRun(
        into path: String, _ write: (inout ByteSink) throws -> [ConversionWarning]?
    ) throws -> PendingWrite? {
        do {
            return try PendingWrite.file(path, write)
        } catch is DuplicateIdentity {
            return nil
        }
    }

    /// The list `read` reads through `writer` (a new file's writer of `format` into the sink
    /// it is given), its bytes compared with the file's `old` as they stream: what the writer
    /// wrote, the comparison (`keepingRest` as `ByteComparison` takes it), and what the
    /// fields hold (noted where `schema` is given, by its roles). Nil where the writer gave
    /// up (see `init`, and a comparison `tooDifferent`), and where the
    /// list holds a value the format cannot hold: the writer warns of it where an item is
    /// written, and a write of the items that changed would not (such values are rare;
    /// repeated field keys are warned of for the whole list either way).
    static func compare(
        _ old: UnsafeBufferPointer<UInt8>, format: DocumentFormat, writer: (ByteSink) throws -> any ListWriter,
        noting schema: ItemSchema?, keepingRest: Bool = true, keepsItems: @escaping (Int) -> Bool,
        resolver: ByteComparison.Resolver? = nil, read: (inout any ListWriter) throws -> Void
    ) throws -> (written: Written, comparison: ByteComparison, noted: Noted)? {
        let comparison = ByteComparison(old, keepingRest: keepingRest)
        comparison.resolver = resolver
        let notes = schema.map(Notes.init)
        let compared = ComparedWriter(
            base: DepthLimitedWriter.guarding(try writer(ByteSink(comparingWith: comparison)), format: format),
            comparison: comparison, notes: notes, keepsItems: keepsItems)
        guard let written = try run(compared, read: read) else { return nil }
        return (written, comparison, notes?.noted ?? Noted())
    }

    /// The list `read` hands over, written by `writer` (a writer that compares, and throws
    /// `GivenUp` where the update does not apply): its warnings, or nil where it gave up or
    /// warned of a value in an item (which the update, writing only the items that changed,
    /// would not warn of: the whole-list write does).
    static func run(_ writer: any ListWriter, read: (inout any ListWriter) throws -> Void) throws -> Written? {
        var writer = writer
        let written: Written
        do {
            try read(&writer)
            written = try writer.finish()
        } catch is GivenUp {
            return nil
        }
        if written.warnings.contains(where: { $0.firstItem != nil && $0.kind != .fields }) { return nil }
        return written
    }
}
