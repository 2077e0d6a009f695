import Foundation

/// A list edited in many places (every tenth box checked), split into stretches of changed
/// items between items that stand unchanged: each stretch is then written as the run of a
/// single change is, and the items between are copied. Aligning the whole run at once was
/// most of such a write (seconds and gigabytes at a million items).
///
/// Used by the streamed updates of JSON files and XML property lists, and by a checklist
/// written into a checklist (FORMAT.md 7.6).
enum ListPieces {
    /// A run of more top-level items than this is split.
    static var splitAbove: Int { 16 }

    /// A stretch of changed items: the file's (places among its top-level items) and the
    /// new list's.
    struct Piece: Equatable {
        var old: Range<Int>
        var new: Range<Int>
    }

    /// Splits `oldCount` top-level items (whose bytes `old` gives) and `newCount` (`new`)
    /// into pieces. Items are the same where their bytes are; such items are paired in
    /// order, and the stretches between pairs are the pieces. Nil where an unchanged item
    /// moved (the whole run is aligned, and the item pairs with its old self as a move), or
    /// where a piece could not be formed.
    ///
    /// A piece where items were only added or only removed takes the unchanged item after it
    /// (before it, at the end), as a run from the first difference does; pieces that then
    /// touch are one piece.
    static func split(
        oldCount n: Int, newCount m: Int, old oldItem: (Int) -> UnsafeBufferPointer<UInt8>,
        new newItem: (Int) -> UnsafeBufferPointer<UInt8>
    ) -> [Piece]? {
        var groups = EqualGroups(
            Array(0..<n), digest: { ByteDigest.of(oldItem($0)) }, equal: { ByteScan.same(oldItem($0), oldItem($1)) })
        var pairs: [(new: Int, old: Int)] = []
        for j in 0..<m {
            let item = newItem(j)
            guard let group = groups.group(digest: ByteDigest.of(item), where: { ByteScan.same(oldItem($0), item) }),
                let k = groups.takeFirst(of: group)
            else { continue }
            pairs.append((j, k))
        }
        // Every pair in order: no unchanged item moved. (Told pair by pair: a longest run in
        // order, which is all of them exactly then, took a third of the split.)
        guard zip(pairs, pairs.dropFirst()).allSatisfy({ $0.old < $1.old }) else { return nil }
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
        return pieces
    }

    /// An item's name in a piece, on the file's side or the new list's.
    struct Name {
        var piece: Int
        var isNew: Bool
        var name: Substring
    }

    /// Whether a name (of an item at any depth) is on the file's side of one piece and on
    /// the new list's side of another: an item that moved from one stretch to another, or
    /// changed places with an item of its name, which the whole run's alignment pairs with
    /// its old self (by content, or by a name no other leftover has) where the pieces would
    /// not.
    static func namesCross(_ names: [Name]) -> Bool {
        // (By `ByteDigest`: the standard library's hasher took a fifth of a checklist's write
        // edited in ten thousand places.)
        let digests = names.map { ByteDigest.ofNFC($0.name) }
        // (The same bytes first: most names met twice are an item's before and after it changed.)
        func same(_ a: Substring, _ b: Substring) -> Bool { a.sameBytes(as: b) || a == b }
        let groups = EqualGroups(
            Array(names.indices), digest: { digests[$0] }, equal: { same(names[$0].name, names[$1].name) })
        // For each group of a name: the piece it was first met in (-1: none yet), whether
        // it was met in another, on the file's side, on the new list's.
        var piece = [Int](repeating: -1, count: groups.groupLimit)
        var elsewhere = [Bool](repeating: false, count: piece.count)
        var onOld = elsewhere
        var onNew = elsewhere
        for (i, entry) in names.enumerated() {
            let g = groups.group(digest: digests[i]) { same(names[$0].name, entry.name) }!
            if piece[g] < 0 { piece[g] = entry.piece } else if piece[g] != entry.piece { elsewhere[g] = true }
            if entry.isNew { onNew[g] = true } else { onOld[g] = true }
            if elsewhere[g] && onOld[g] && onNew[g] { return true }
        }
        return false
    }
}
