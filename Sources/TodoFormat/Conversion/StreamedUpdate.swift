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
                keepsItems: { marker.lastStart(before: $0, in: old) != nil }, read: read)
        else { return nil }
        if comparison.isSame && noted.isEmpty { return .unchanged(written.warnings) }
        guard var patcher = try makePatcher(), !patcher.layout.hasOrder,
            !noted.sharesIdentity(under: patcher.layout.identityKey)
        else { return nil }
        if comparison.isSame { return .unchanged(written.warnings) }
        guard let start = marker.lastStart(before: comparison.matched, in: old),
            let (spans, runEnd) = run(from: start, of: comparison, syntax: patcher.syntax)
        else { return nil }
        let run = comparison.output(start..<runEnd)
        let itemsBefore = { marker.starts(in: old, before: start).count }
        if spans.count > Self.splitAbove,
            let (pieces, starts) = run.withUnsafeBufferPointer({
                self.pieces(of: spans, output: $0, oldEnd: runEnd - (comparison.outputCount - old.count), in: old)
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

    /// A run of more items than this is split where items stand unchanged (`pieces`).
    static var splitAbove: Int { 16 }

    /// A stretch of a run written as a run of its own: the file's items there (places in
    /// the run's `spans`) and the output's (places among its item starts).
    struct Piece: Equatable {
        var old: Range<Int>
        var new: Range<Int>
    }

    /// Where a run splits into stretches of changed items between items whose bytes are the
    /// same in the file and in the output and stand in the same order (a list edited in many
    /// places: every tenth box checked): each piece is then written as the run of a single
    /// change is, and the items between are copied. Without it, the whole run was read into
    /// items from both sides and aligned, most of such a write (8 s and 1.6 GB for a
    /// million items). The items' bytes are compared with the whitespace after them, so
    /// an unchanged item is one the new file's writer writes as the file holds it. Nil
    /// where an unchanged item moved (the whole run is aligned, and the item pairs with its
    /// old self as a move), or where a piece could not be formed.
    ///
    /// A piece where items were only added or only removed takes the unchanged item after it
    /// (before it, at the run's end) too, as a run from the first difference does; pieces
    /// that then touch are one piece. `spans` are the file's items of the run, `output` the
    /// run's output (starting with an item) and `oldEnd` where the run ends in the file.
    func pieces(
        of spans: [Range<Int>], output run: UnsafeBufferPointer<UInt8>, oldEnd: Int, in old: UnsafeBufferPointer<UInt8>
    ) -> (pieces: [Piece], starts: [Int])? {
        let starts = [0] + marker.starts(in: run, before: run.count).filter { $0 > 0 }
        let n = spans.count
        let m = starts.count
        func oldItem(_ k: Int) -> UnsafeBufferPointer<UInt8> {
            UnsafeBufferPointer(rebasing: old[spans[k].lowerBound..<(k + 1 < n ? spans[k + 1].lowerBound : oldEnd)])
        }
        func newItem(_ j: Int) -> UnsafeBufferPointer<UInt8> {
            UnsafeBufferPointer(rebasing: run[starts[j]..<(j + 1 < m ? starts[j + 1] : run.count)])
        }
        func digest(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
            var digest = ByteDigest()
            digest.combine(bytes: bytes)
            return digest.value
        }
        func same(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Bool {
            a.count == b.count && (a.isEmpty || memcmp(a.baseAddress!, b.baseAddress!, a.count) == 0)
        }
        var groups = EqualGroups(
            Array(0..<n), digest: { digest(oldItem($0)) }, equal: { same(oldItem($0), oldItem($1)) })
        var pairs: [(new: Int, old: Int)] = []
        for j in 0..<m {
            let item = newItem(j)
            guard let group = groups.group(digest: digest(item), where: { same(oldItem($0), item) }),
                let k = groups.takeFirst(of: group)
            else { continue }
            pairs.append((j, k))
        }
        guard !longestIncreasingRun(pairs.map { Optional($0.old) }).contains(false) else { return nil }
        var pieces: [Piece] = []
        var previous = (new: -1, old: -1)
        for anchor in pairs + [(m, n)] {
            defer { previous = anchor }
            var piece = Piece(old: (previous.old + 1)..<anchor.old, new: (previous.new + 1)..<anchor.new)
            if piece.old.isEmpty && piece.new.isEmpty { continue }
            if piece.old.isEmpty || piece.new.isEmpty {
                if anchor.new < m {
                    piece = Piece(
                        old: piece.old.lowerBound..<(anchor.old + 1), new: piece.new.lowerBound..<(anchor.new + 1))
                } else if previous.new >= 0 {
                    piece = Piece(old: previous.old..<piece.old.upperBound, new: previous.new..<piece.new.upperBound)
                } else {
                    return nil
                }
            }
            if let last = pieces.last,
                piece.old.lowerBound <= last.old.upperBound || piece.new.lowerBound <= last.new.upperBound
            {
                pieces[pieces.count - 1] = Piece(
                    old: last.old.lowerBound..<max(last.old.upperBound, piece.old.upperBound),
                    new: last.new.lowerBound..<max(last.new.upperBound, piece.new.upperBound))
            } else {
                pieces.append(piece)
            }
        }
        return (pieces, starts)
    }

    /// The pieces' items: for each piece, the output's items and the file's (each with
    /// where it starts, and its keys and values as read, which teach the layout).
    typealias PieceItems = [(new: [TodoItem], old: [(span: Range<Int>, item: TodoItem, fields: [Field])])]

    /// Reads the items of each of `pieces` of a run: the output's from `run` (whose items
    /// start at `starts`), the file's at `spans` with `syntax`.
    private func read(
        _ pieces: [Piece], of spans: [Range<Int>], output run: UnsafeBufferPointer<UInt8>, starts: [Int],
        syntax: Syntax, name: String, schema: ItemSchema
    ) throws -> PieceItems {
        var arrayIDs = 0
        return try pieces.map { piece in
            let end = piece.new.upperBound < starts.count ? starts[piece.new.upperBound] : run.count
            let output = UnsafeBufferPointer(rebasing: run[starts[piece.new.lowerBound]..<end])
            return (
                try items(in: output, name: name, schema: schema),
                try spans[piece.old].map { span in
                    let read = try syntax.readItem(at: span.lowerBound, depth: 0, arrayIDs: &arrayIDs)
                    return (span, read.item, read.fields)
                }
            )
        }
    }

    /// Whether an item's name (at any depth) is on the file's side of one piece and on the
    /// output's side of another: an item that moved from one stretch to another, or changed
    /// places with an item of its name, which the whole run's alignment pairs with its old
    /// self (by content, or by a name no other leftover has) where the pieces would not.
    static func namesCross(_ read: PieceItems) -> Bool {
        var names: [(piece: Int, isNew: Bool, name: Substring)] = []
        func add(_ items: [TodoItem], piece: Int, isNew: Bool) {
            for item in items {
                names.append((piece, isNew, item.nameStorage))
                add(item.children, piece: piece, isNew: isNew)
            }
        }
        for (piece, items) in read.enumerated() {
            add(items.new, piece: piece, isNew: true)
            add(items.old.map(\.item), piece: piece, isNew: false)
        }
        func digest(_ name: Substring) -> Int {
            var hasher = Hasher()
            TodoItem.hashText(name, into: &hasher)
            return hasher.finalize()
        }
        let groups = EqualGroups(
            Array(names.indices), digest: { digest(names[$0].name) }, equal: { names[$0].name == names[$1].name }
        ).groupOf
        // For each group of a name: the piece it was first met in (-1: none yet), whether
        // it was met in another, on the file's side, on the output's.
        var piece = [Int](repeating: -1, count: groups.count == 0 ? 0 : Int(groups.max()!) + 1)
        var elsewhere = [Bool](repeating: false, count: piece.count)
        var onOld = elsewhere
        var onNew = elsewhere
        for (i, entry) in names.enumerated() {
            let g = Int(groups[i])
            if piece[g] < 0 { piece[g] = entry.piece } else if piece[g] != entry.piece { elsewhere[g] = true }
            if entry.isNew { onNew[g] = true } else { onOld[g] = true }
            if elsewhere[g] && onOld[g] && onNew[g] { return true }
        }
        return false
    }

    /// Writes the file `old` with each of `pieces` of a run (`pieces(of:…)`, their items
    /// `read`) written by a patcher of its own, as `patcher` is once it has learned the
    /// layout from the pieces' items (each piece as the run of a single change is), and
    /// every byte around them copied; the warnings, or nil where a piece needs the whole list.
    private func write(
        _ pieces: [Piece], read: PieceItems, of spans: [Range<Int>], old: UnsafeBufferPointer<UInt8>,
        patcher: TextListPatcher<Syntax>, itemsBefore: @escaping () -> Int, to sink: inout ByteSink
    ) throws -> [ConversionWarning]? {
        var warnings = WarningLog()
        var patcher = patcher
        patcher.learn(from: read.flatMap { $0.old.map { ($0.span, $0.fields) } })
        var copied = 0
        // (Counted once, where a warning names an item's position.)
        var before: Int? = nil
        for (piece, items) in zip(pieces, read) {
            let pieceSpans = Array(spans[piece.old])
            sink.write(UnsafeBufferPointer(rebasing: old[copied..<pieceSpans[0].lowerBound]))
            var piecePatcher = patcher
            let first = piece.new.lowerBound
            guard
                let written = try piecePatcher.write(
                    replacingElements: pieceSpans, with: items.new,
                    itemsBefore: {
                        if before == nil { before = itemsBefore() }
                        return before! + first
                    }, to: &sink, runOnly: true)
            else { return nil }
            warnings.append(contentsOf: written)
            copied = pieceSpans[pieceSpans.count - 1].upperBound
        }
        sink.write(UnsafeBufferPointer(rebasing: old[copied...]))
        return warnings.warnings
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
        /// The schema the fields' roles are told by.
        private let schema: ItemSchema
        private(set) var noted = Noted()
        /// The values met so far under keys named as identities are, by key.
        private var identities: [String: Set<FieldValue>] = [:]

        init(schema: ItemSchema) { self.schema = schema }

        /// Notes an item's fields: its value under each key named as identities are (as the
        /// item is read by that key: the first of repeated keys counts once), and a number
        /// under a key of the order role.
        func note(_ fields: [Field]) {
            for (i, field) in fields.enumerated() {
                let kind = kind(of: field.key)
                if kind.isOrder, !noted.hasOrder {
                    switch field.value {
                    case .integer, .double: noted.hasOrder = true
                    default: break
                    }
                }
                guard kind.isIdentity, !fields[..<i].contains(where: { $0.key == field.key }),
                    let value = fields[key: field.key], value != .null
                else { continue }
                if !identities[field.key, default: []].insert(value).inserted {
                    noted.sharedIdentities.insert(field.key)
                }
            }
        }

        /// The kinds of the keys met, in the order first met: a list's items have few keys, and
        /// comparing a short key is cheaper than hashing or normalizing it.
        private var kinds: [(key: String, isOrder: Bool, isIdentity: Bool)] = []

        /// Whether `key` is of the order role, and whether it is named as identities are (`id`,
        /// `uuid`, `guid`, in any case, with `_` or `-` anywhere).
        private func kind(of key: String) -> (isOrder: Bool, isIdentity: Bool) {
            if let known = kinds.first(where: { $0.key == key }) { return (known.isOrder, known.isIdentity) }
            let kind = (
                isOrder: schema.role(of: key) == .order,
                isIdentity: ItemLayout.Learner.identityKeys.contains(ItemSchema.normalizedKey(key))
            )
            if kinds.count < 32 { kinds.append((key, kind.isOrder, kind.isIdentity)) }
            return kind
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
        read: (inout any ListWriter) throws -> Void
    ) throws -> (written: Written, comparison: ByteComparison, noted: Noted)? {
        let comparison = ByteComparison(old, keepingRest: keepingRest)
        let notes = schema.map(Notes.init)
        var compared: any ListWriter = ComparedWriter(
            base: DepthLimitedWriter.guarding(try writer(ByteSink(comparingWith: comparison)), format: format),
            comparison: comparison, notes: notes, keepsItems: keepsItems)
        let written: Written
        do {
            try read(&compared)
            written = try compared.finish()
        } catch is GivenUp {
            return nil
        }
        if written.warnings.contains(where: { $0.firstItem != nil && $0.kind != .fields }) { return nil }
        return (written, comparison, notes?.noted ?? Noted())
    }
}
