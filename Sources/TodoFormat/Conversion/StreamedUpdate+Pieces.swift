import Foundation

/// A long run of a streamed update split into pieces: a list edited in many places (every
/// tenth box checked) is written a stretch of changed items at a time, each as the run of
/// a single change is, and the items between are copied as they stand.
extension StreamedUpdate {
    typealias Piece = ListPieces.Piece

    /// Where a run splits into stretches of changed items between items whose bytes are the
    /// same in the file and in the output and stand in the same order (`ListPieces.split`).
    /// The items' bytes are compared with the whitespace after them, so an unchanged item is
    /// one the new file's writer writes as the file holds it. `spans` are the file's items
    /// of the run, `output` the run's output (starting with an item) and `oldEnd` where the
    /// run ends in the file; also gives where the output's items start.
    func pieces(
        of spans: [Range<Int>], output run: UnsafeBufferPointer<UInt8>, oldEnd: Int, in old: UnsafeBufferPointer<UInt8>
    ) -> (pieces: [Piece], starts: [Int])? {
        let starts = marker.runStarts(in: run)
        let n = spans.count
        let m = starts.count
        let pieces = ListPieces.split(
            oldCount: n, newCount: m,
            old: { k in
                UnsafeBufferPointer(rebasing: old[spans[k].lowerBound..<(k + 1 < n ? spans[k + 1].lowerBound : oldEnd)])
            },
            new: { j in UnsafeBufferPointer(rebasing: run[starts[j]..<(j + 1 < m ? starts[j + 1] : run.count)]) })
        return pieces.map { ($0, starts) }
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
        // One reader of the output for every piece (one for each piece, with its own writer of
        // values, was a twentieth of such a write).
        let output = Syntax(bytes: run, path: name, schema: schema)
        return try pieces.map { piece in
            var outputIDs = 0
            return (
                try piece.new.map { try output.readItem(at: starts[$0], depth: 0, arrayIDs: &outputIDs).item },
                try spans[piece.old].map { span in
                    let read = try syntax.readItem(at: span.lowerBound, depth: 0, arrayIDs: &arrayIDs)
                    return (span, read.item, read.fields)
                }
            )
        }
    }

    /// Whether an item's name is on the file's side of one piece and on the output's side
    /// of another (`ListPieces.namesCross`).
    static func namesCross(_ read: PieceItems) -> Bool {
        var names: [ListPieces.Name] = []
        func add(_ items: [TodoItem], piece: Int, isNew: Bool) {
            for item in items {
                names.append(ListPieces.Name(piece: piece, isNew: isNew, name: item.nameStorage))
                add(item.children, piece: piece, isNew: isNew)
            }
        }
        for (piece, items) in read.enumerated() {
            add(items.new, piece: piece, isNew: true)
            add(items.old.map(\.item), piece: piece, isNew: false)
        }
        return ListPieces.namesCross(names)
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
