import Foundation

/// A writer's bytes compared with an existing file's as they are written
/// (`ByteSink(comparingWith:)`): how far from the start they agree, and what the writer
/// wrote after the first difference. A write into an existing file that is mostly what the
/// writer would write anyway learns this way where the change is, without building the
/// list or keeping the bytes that agree.
///
/// A comparison made `keepingRest: false` keeps instead only the bytes that differ from
/// the old ones at the same offsets (`differences`): for a file whose every byte stays in
/// place when the list changes a little (a binary property list whose item now refers to
/// another object already in it).
final class ByteComparison {
    /// Bytes of the output that differ from the old bytes at the same offsets.
    struct Difference: Equatable {
        let offset: Int
        let bytes: [UInt8]
    }

    /// The existing file's bytes.
    let old: UnsafeBufferPointer<UInt8>
    /// How many bytes at the start of the output are the old bytes' start.
    private(set) var matched = 0
    /// The output after `matched`, as kept: empty until the first difference, and in a
    /// comparison that does not keep it. The output after it is `old[tail]`.
    private var kept: [UInt8] = []
    /// Where the output after `kept` has been the old bytes again, byte for byte as taken
    /// (the file after a change that is only in one place): those bytes are not kept twice.
    /// Nil while the output is kept.
    private var tail: Range<Int>?
    /// The size `kept` is to reach before the output is looked for in the old bytes again.
    private var nextSearch = 0
    private var searches = 0
    /// Whether the output has differed from the old bytes (or run past them).
    private(set) var differs = false
    private let keepsRest: Bool
    /// Where the output differs from the old bytes at the same offsets, in order (a
    /// comparison that keeps no rest).
    private(set) var differences: [Difference] = []
    /// Whether more than `maxDifferentBytes` bytes differ, or the output ran past the old
    /// bytes' end (a comparison that keeps no rest): `differences` is then empty.
    private(set) var tooDifferent = false
    /// How many bytes of the output a comparison that keeps no rest has taken.
    private var taken = 0
    private var differentBytes = 0
    /// At most this many differing bytes are kept.
    static let maxDifferentBytes = 4096

    /// Tells what a difference is (`StatusChange`): the file's bytes, where they first
    /// differ from the output since the last change (the bytes from the floor to there are
    /// the output's too), the floor, and the output from there (all of its rest, where said).
    typealias Resolver = (
        _ old: UnsafeBufferPointer<UInt8>, _ at: Int, _ floor: Int, _ output: UnsafeBufferPointer<UInt8>,
        _ isWhole: Bool
    ) -> StatusChange
    /// Where given, each difference is first asked of it: while each is a change of an
    /// item's status members, the comparison goes on past it (`statusChanges`) instead of
    /// keeping the output. Once one is not, the output from the first difference is kept
    /// after all (`settle`), as without it.
    var resolver: Resolver?
    /// The changes found so far, in order, while the comparison goes on past them.
    private var changes = StatusChanges()
    /// Whether differences are being resolved: the output so far is the old bytes with
    /// `changes`, and its next byte stands for the old byte at `oldAt`.
    private var resolving = false
    private var oldAt = 0
    /// The output taken but not yet resolved: a change that may go on past it.
    private var pending: [UInt8] = []

    /// A comparison with `old` that keeps the output after the first difference
    /// (`keepingRest`), or only where it differs from the old bytes at the same offsets.
    init(_ old: UnsafeBufferPointer<UInt8>, keepingRest: Bool = true) {
        self.old = old
        self.keepsRest = keepingRest
    }

    /// The output after `matched` (a copy).
    var rest: [UInt8] { output(matched..<outputCount) }

    /// How many bytes of the output are kept in memory.
    var keptCount: Int {
        settle()
        return kept.count
    }

    /// Takes the next bytes of the output.
    func take(_ bytes: UnsafeBufferPointer<UInt8>) {
        if resolving { return resolve(bytes, isWhole: false) }
        guard !differs else {
            if keepsRest { keep(bytes) } else { note(bytes) }
            return
        }
        let same = Self.commonPrefix(bytes, UnsafeBufferPointer(rebasing: old[matched...]))
        matched += same
        guard same < bytes.count else { return }
        differs = true
        guard keepsRest else {
            taken = matched
            return note(UnsafeBufferPointer(rebasing: bytes[same...]))
        }
        nextSearch = searchStep
        if resolver != nil {
            resolving = true
            oldAt = matched
            return resolve(UnsafeBufferPointer(rebasing: bytes[same...]), isWhole: false)
        }
        keep(UnsafeBufferPointer(rebasing: bytes[same...]))
    }

    /// The output's next bytes while differences are resolved: compared with the old bytes
    /// from `oldAt`, each difference resolved as a change, or held until more output comes;
    /// at a difference that is no change, the output is kept from the first one on.
    private func resolve(_ bytes: UnsafeBufferPointer<UInt8>, isWhole: Bool) {
        guard pending.isEmpty else {
            var joined = pending
            pending = []
            joined.append(contentsOf: bytes)
            return joined.withUnsafeBufferPointer { resolve($0, isWhole: isWhole) }
        }
        var i = 0
        while i < bytes.count || isWhole && oldAt < old.count {
            let same = Self.commonPrefix(
                UnsafeBufferPointer(rebasing: bytes[i...]), UnsafeBufferPointer(rebasing: old[oldAt...]))
            i += same
            oldAt += same
            if i == bytes.count && !isWhole { return }
            if i == bytes.count && oldAt == old.count { return }
            let floor = changes.ranges.last?.old.upperBound ?? 0
            switch resolver!(old, oldAt, floor, UnsafeBufferPointer(rebasing: bytes[i...]), isWhole) {
            case .replace(let range, _, let count) where count >= 0:
                changes.append(
                    range, UnsafeBufferPointer(rebasing: old[range.lowerBound..<oldAt]),
                    UnsafeBufferPointer(rebasing: bytes[i..<(i + count)]))
                oldAt = range.upperBound
                i += count
            case .replace(let range, let newCount, let count):
                // The output's members end before the difference: its bytes from their end
                // to the difference (the old bytes before it) go on as the old bytes after
                // the old members must.
                let back = -count
                guard range.upperBound + back <= old.count,
                    Self.same(
                        UnsafeBufferPointer(rebasing: old[(oldAt - back)..<oldAt]),
                        UnsafeBufferPointer(rebasing: old[range.upperBound..<(range.upperBound + back)]))
                else {
                    settle()
                    keep(UnsafeBufferPointer(rebasing: bytes[i...]))
                    return
                }
                changes.append(
                    range, UnsafeBufferPointer(rebasing: old[range.lowerBound..<(range.lowerBound + newCount)]),
                    UnsafeBufferPointer(start: nil, count: 0))
                oldAt = range.upperBound + back
            case .needMore:
                pending = Array(bytes[i...])
                return
            case .none:
                settle()
                keep(UnsafeBufferPointer(rebasing: bytes[i...]))
                return
            }
        }
    }

    /// The changes of items' status members that make the old bytes the whole output, where
    /// every difference was one (nil otherwise). To be asked once the output is all taken.
    func statusChanges() -> StatusChanges? {
        guard resolving else { return nil }
        resolve(UnsafeBufferPointer(start: nil, count: 0), isWhole: true)
        guard resolving, pending.isEmpty, oldAt == old.count else { return nil }
        return changes
    }

    /// Stops resolving differences: the output from the first difference, as far as it has
    /// come, is kept (as a comparison without a resolver keeps it).
    func settle() {
        guard resolving else { return }
        resolving = false
        // The output so far: the old bytes with the changes made, but its first `matched`
        // bytes (a change may start before the first difference: its bytes up to there are
        // the old ones).
        var output: [UInt8] = []
        output.reserveCapacity(oldAt - matched + pending.count + 4096)
        var skip = matched
        func add(_ piece: UnsafeBufferPointer<UInt8>) {
            if skip >= piece.count {
                skip -= piece.count
            } else {
                output.append(contentsOf: UnsafeBufferPointer(rebasing: piece[skip...]))
                skip = 0
            }
        }
        var at = 0
        for change in changes.ranges {
            add(UnsafeBufferPointer(rebasing: old[at..<change.old.lowerBound]))
            changes.bytes.withUnsafeBufferPointer { add(UnsafeBufferPointer(rebasing: $0[change.new])) }
            at = change.old.upperBound
        }
        add(UnsafeBufferPointer(rebasing: old[at..<oldAt]))
        output += pending
        changes = StatusChanges()
        pending = []
        kept = []
        output.withUnsafeBufferPointer { keep($0) }
    }

    /// Output is looked for in the old bytes again after this many bytes kept; each time
    /// it is not found, after twice as many more.
    private static let firstSearchStep = 1 << 16
    private var searchStep = ByteComparison.firstSearchStep
    /// How many of the output's last bytes are looked for: enough to hold more than the
    /// markup every item repeats (an XML property list's is about 100 bytes an item).
    private static let needleCount = 1024
    /// How far from where the output would be in the old bytes, at the offset between them
    /// when last found, it is looked for the first time (twice as far each time after, up to
    /// 64 times as far).
    private static let searchReach = 1 << 16

    /// Keeps `bytes` after the first difference. A change in one place of a large file
    /// leaves the rest of the output the old bytes again at some offset: once the output's
    /// last bytes are found in the old bytes near where they would be, the output after is
    /// compared with the old bytes there instead of kept (a copy of the rest of a 100 MB
    /// file, faulted in page by page, was a tenth of writing one change into it).
    private func keep(_ bytes: UnsafeBufferPointer<UInt8>) {
        var bytes = bytes
        while !bytes.isEmpty {
            if let tail {
                let same = Self.commonPrefix(bytes, UnsafeBufferPointer(rebasing: old[tail.upperBound...]))
                if same == bytes.count {
                    self.tail = tail.lowerBound..<tail.upperBound + same
                    return
                }
                // The output leaves the old bytes: what it followed of them is kept after all.
                kept.append(contentsOf: UnsafeBufferPointer(rebasing: old[tail.lowerBound..<tail.upperBound + same]))
                self.tail = nil
                searchStep = Self.firstSearchStep
                nextSearch = kept.count + searchStep
                bytes = UnsafeBufferPointer(rebasing: bytes[same...])
                continue
            }
            // The rest is about as long as what is left of the old bytes: room for it at once
            // (pages not written to are never touched).
            if kept.isEmpty { kept.reserveCapacity(old.count - matched + bytes.count + 4096) }
            let n = min(bytes.count, max(1, nextSearch - kept.count))
            kept.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[..<n]))
            bytes = UnsafeBufferPointer(rebasing: bytes[n...])
            if kept.count >= nextSearch { searchOld() }
        }
    }

    /// Looks for the output's last bytes in the old bytes near where they would be at the
    /// offset the old bytes had when last found (the same place, at first), and farther
    /// each time they are not found; found, the output after is compared with the old bytes
    /// after the place nearest (`tail`).
    private func searchOld() {
        let n = Self.needleCount
        guard kept.count >= n, searches < 64 else {
            nextSearch = Int.max
            return
        }
        let reach = Self.searchReach << min(searches, 6)
        searches += 1
        searchStep *= 2
        nextSearch = kept.count + searchStep
        let outputEnd = matched + kept.count
        let expected = outputEnd - lastShift
        kept.withUnsafeBufferPointer { kept in
            let needle = UnsafeBufferPointer(rebasing: kept[(kept.count - n)...])
            let low = max(matched, expected - n - reach)
            let high = min(old.count, expected + reach)
            guard high - low >= n,
                let found = Self.nearest(
                    needle, to: expected - n - low, in: UnsafeBufferPointer(rebasing: old[low..<high]))
            else { return }
            let end = low + found + n
            tail = end..<end
            lastShift = outputEnd - end
        }
    }

    /// Where in `bytes` `needle` (not empty) is nearest to `offset` (the nearer before it
    /// on a tie), looked for outward from there: in text that repeats a long run (names of
    /// a thousand `Z`s) the needle is nearly everywhere, and a search from the window's
    /// start compared it whole at every place up to `offset` (seconds a search). At most
    /// `budget` bytes are compared in all; nil past them.
    static func nearest(
        _ needle: UnsafeBufferPointer<UInt8>, to offset: Int, in bytes: UnsafeBufferPointer<UInt8>,
        budget: Int = 1 << 23
    ) -> Int? {
        let n = needle.count
        let lastStart = bytes.count - n
        guard n > 0, lastStart >= 0, let base = bytes.baseAddress, let key = needle.baseAddress else { return nil }
        let center = min(max(offset, 0), lastStart)
        var budget = budget
        /// Whether the needle is at `i`, counting the comparison.
        func isAt(_ i: Int) -> Bool {
            budget -= n
            return memcmp(base + i, key, n) == 0
        }
        // After `center`: the first place from it.
        var after: Int? = nil
        var i = center
        while i <= lastStart && budget > 0 {
            guard let at = memchr(base + i, Int32(key[0]), lastStart + 1 - i) else { break }
            i = base.distance(to: at.assumingMemoryBound(to: UInt8.self))
            if isAt(i) {
                after = i
                break
            }
            i += 1
        }
        // Before it: blocks back from `center`, the last place in each, while one can be as
        // near as the place after.
        let reach = after.map { $0 - center } ?? center
        var blockEnd = center
        while blockEnd > 0 && center - blockEnd < reach && budget > 0 {
            let blockStart = max(0, blockEnd - 4096)
            var before: Int? = nil
            var j = blockStart
            while j < blockEnd && budget > 0 {
                guard let at = memchr(base + j, Int32(key[0]), blockEnd - j) else { break }
                j = base.distance(to: at.assumingMemoryBound(to: UInt8.self))
                if isAt(j) { before = j }
                j += 1
            }
            if let before, center - before <= reach { return before }
            blockEnd = blockStart
        }
        return after
    }

    /// The output's offset from the old bytes where its end was last found in them.
    private var lastShift = 0

    /// Compares output bytes, the next after `taken`, with the old bytes at the same offsets,
    /// and notes where they differ.
    private func note(_ bytes: UnsafeBufferPointer<UInt8>) {
        let at = taken
        taken += bytes.count
        guard !tooDifferent else { return }
        guard taken <= old.count else { return giveUp() }
        let old = UnsafeBufferPointer(rebasing: self.old[at..<taken])
        var i = 0
        while true {
            i += Self.commonPrefix(
                UnsafeBufferPointer(rebasing: bytes[i...]), UnsafeBufferPointer(rebasing: old[i...]))
            guard i < bytes.count else { return }
            var j = i + 1
            while j < bytes.count && bytes[j] != old[j] { j += 1 }
            differentBytes += j - i
            guard differentBytes <= Self.maxDifferentBytes else { return giveUp() }
            differences.append(Difference(offset: at + i, bytes: Array(bytes[i..<j])))
            i = j
        }
    }

    private func giveUp() {
        tooDifferent = true
        differences = []
    }

    /// Whether the output is the old bytes exactly.
    var isSame: Bool { !differs && matched == old.count }

    /// How many bytes the output has.
    var outputCount: Int {
        settle()
        return keepsRest || !differs ? keptEnd + (tail?.count ?? 0) : taken
    }

    /// Where the kept bytes end in the output.
    private var keptEnd: Int { matched + kept.count }

    /// The output's byte at `offset`.
    func outputByte(at offset: Int) -> UInt8 {
        settle()
        if offset < matched { return old[offset] }
        if offset < keptEnd { return kept[offset - matched] }
        return old[tail!.lowerBound + offset - keptEnd]
    }

    /// The output's bytes in `range`.
    func output(_ range: Range<Int>) -> [UInt8] {
        settle()
        var bytes: [UInt8] = []
        bytes.reserveCapacity(range.count)
        if range.lowerBound < matched { bytes += old[range.lowerBound..<min(range.upperBound, matched)] }
        if range.upperBound > matched && range.lowerBound < keptEnd {
            bytes += kept[max(range.lowerBound, matched) - matched..<min(range.upperBound, keptEnd) - matched]
        }
        if range.upperBound > keptEnd, let tail {
            let shift = tail.lowerBound - keptEnd
            bytes += old[max(range.lowerBound, keptEnd) + shift..<range.upperBound + shift]
        }
        return bytes
    }

    /// Changes of items' status members, in order: the old bytes' range of each, and the
    /// range of `bytes` it becomes.
    struct StatusChanges {
        private(set) var ranges: [(old: Range<Int>, new: Range<Int>)] = []
        private(set) var bytes: [UInt8] = []

        /// Notes that the old bytes at `old` become `first` then `second`.
        mutating func append(
            _ old: Range<Int>, _ first: UnsafeBufferPointer<UInt8>, _ second: UnsafeBufferPointer<UInt8>
        ) {
            let start = bytes.count
            bytes.append(contentsOf: first)
            bytes.append(contentsOf: second)
            ranges.append((old, start..<bytes.count))
        }

        /// The bytes the change at `index` makes.
        func new(_ index: Int) -> ArraySlice<UInt8> { bytes[ranges[index].new] }
    }

    /// The output's bytes in `range`, made of the kept rest's storage (not a copy of it,
    /// which for a change near the start of a large file was as large again): the
    /// comparison keeps no rest after, and says nothing more of the output.
    func takeOutput(_ range: Range<Int>) -> [UInt8] {
        settle()
        guard keepsRest, range.lowerBound <= matched, range.upperBound >= matched, range.upperBound <= keptEnd else {
            return output(range)
        }
        var bytes: [UInt8] = []
        swap(&bytes, &kept)
        tail = nil
        bytes.removeSubrange((range.upperBound - matched)...)
        bytes.insert(contentsOf: old[range.lowerBound..<matched], at: 0)
        return bytes
    }

    /// How many bytes at the end of the output are the old bytes' end, not counting any of
    /// the `matched` ones on either side.
    func commonSuffix() -> Int {
        settle()
        if let tail {
            // Output that ends as the old bytes do, where it was followed: those bytes and
            // then the kept ones before them.
            guard tail.upperBound == old.count else {
                kept += old[tail]
                self.tail = nil
                return commonSuffix()
            }
            let limit = min(tail.lowerBound - matched, kept.count)
            return tail.count
                + kept.withUnsafeBufferPointer {
                    Self.commonSuffix(UnsafeBufferPointer(rebasing: old[..<tail.lowerBound]), $0, limit: limit)
                }
        }
        let limit = min(old.count - matched, kept.count)
        return kept.withUnsafeBufferPointer { Self.commonSuffix(old, $0, limit: limit) }
    }

    /// How many bytes, at most `limit`, at the ends of `old` and `rest` are the same.
    static func commonSuffix(_ old: UnsafeBufferPointer<UInt8>, _ rest: UnsafeBufferPointer<UInt8>, limit: Int)
        -> Int
    {
        var n = 0
        // Eight bytes at a time from the end, then byte by byte.
        while n + 8 <= limit {
            let a = UnsafeRawPointer(old.baseAddress! + old.count - n - 8).loadUnaligned(as: UInt64.self)
            let b = UnsafeRawPointer(rest.baseAddress! + rest.count - n - 8).loadUnaligned(as: UInt64.self)
            guard a == b else { break }
            n += 8
        }
        while n < limit && old[old.count - 1 - n] == rest[rest.count - 1 - n] { n += 1 }
        return n
    }

    /// Whether two runs of bytes are the same.
    static func same(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Bool {
        a.count == b.count && commonPrefix(a, b) == a.count
    }

    /// How many bytes at the start of `a` and `b` are the same: `memcmp` a block at a time,
    /// then the words and bytes of the block where they differ. (One `memcmp` of both
    /// whole, then a word at a time from the start to the difference, read the bytes twice:
    /// most of a streamed update's search for the items that differ, two kilobytes apart.)
    static func commonPrefix(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Int {
        let n = min(a.count, b.count)
        guard n > 0 else { return 0 }
        var i = 0
        while i + 512 <= n && memcmp(a.baseAddress! + i, b.baseAddress! + i, 512) == 0 { i += 512 }
        while i + 8 <= n
            && UnsafeRawPointer(a.baseAddress! + i).loadUnaligned(as: UInt64.self)
                == UnsafeRawPointer(b.baseAddress! + i).loadUnaligned(as: UInt64.self)
        {
            i += 8
        }
        while i < n && a[i] == b[i] { i += 1 }
        return i
    }
}
