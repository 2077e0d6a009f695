import Foundation

/// A long run of a streamed update split into pieces: a list edited in many places (every
/// tenth box checked) is written a stretch of changed items at a time, each as the run of
/// a single change is, and the items between are copied as they stand.
extension StreamedUpdate {
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
        func same(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Bool {
            a.count == b.count && (a.isEmpty || memcmp(a.baseAddress!, b.baseAddress!, a.count) == 0)
        }
        var groups = EqualGroups(
            Array(0..<n), digest: { ByteDigest.of(oldItem($0)) }, equal: { same(oldItem($0), oldItem($1)) })
        var pairs: [(new: Int, old: Int)] = []
        for j in 0..<m {
            let item = newItem(j)
            guard let group = groups.group(digest: ByteDigest.of(item), where: { same(oldItem($0), item) }),
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
    func read(
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
        let digests = names.map { entry in
            var hasher = Hasher()
            TodoItem.hashText(entry.name, into: &hasher)
            return hasher.finalize()
        }
        let groups = EqualGroups(
            Array(names.indices), digest: { digests[$0] }, equal: { names[$0].name == names[$1].name })
        // For each group of a name: the piece it was first met in (-1: none yet), whether
        // it was met in another, on the file's side, on the output's.
        var piece = [Int](repeating: -1, count: groups.groupLimit)
        var elsewhere = [Bool](repeating: false, count: piece.count)
        var onOld = elsewhere
        var onNew = elsewhere
        for (i, entry) in names.enumerated() {
            let g = groups.group(digest: digests[i]) { names[$0].name == entry.name }!
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
    func write(
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
}
