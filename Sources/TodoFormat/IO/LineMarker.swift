import Foundation

/// The bytes every top-level item (or row) of a file laid out as todofmt writes one starts
/// its line with, and nothing else there has: a line break, the indentation, and the item's
/// first bytes (`\n  {` in JSON, `\n\t<dict>` in an XML property list, `\nINSERT INTO t
/// VALUES(` in an SQL dump). A write into such a file finds items from them
/// (`StreamedUpdate`, `DumpStreamedUpdate`).
struct LineMarker {
    let bytes: [UInt8]
    /// Where in `bytes` the item starts.
    let itemOffset: Int
    /// The marker's first eight bytes (or all, the rest zero) as one word is loaded, and the
    /// mask of the bytes it has. Each line break of a file is a place to look at, and one
    /// load and compare tells it (an XML property list has ten lines to an item: compared a
    /// byte at a time through the array, they were 78 M of the 1,010 M instructions of
    /// writing into one of 100,000 items with a tenth of its boxes changed).
    private let head: UInt64
    private let headMask: UInt64

    init(bytes: [UInt8], itemOffset: Int) {
        self.bytes = bytes
        self.itemOffset = itemOffset
        var head: UInt64 = 0
        var mask: UInt64 = 0
        for (i, b) in bytes.prefix(8).enumerated() {
            head |= UInt64(b) << (8 * i)
            mask |= 0xFF << (8 * i)
        }
        self.head = head
        headMask = mask
    }

    /// Whether the marker stands at `offset` (`byte` reads the text).
    @inline(__always)
    func isAt(_ offset: Int, _ byte: (Int) -> UInt8) -> Bool {
        for (i, b) in bytes.enumerated() where byte(offset + i) != b { return false }
        return true
    }

    /// Whether the marker stands at `offset` of `text`, which holds all of it there.
    @inline(__always)
    private func isAt(_ offset: Int, in text: UnsafeBufferPointer<UInt8>) -> Bool {
        guard offset + 8 <= text.count else { return isAt(offset) { text[$0] } }
        let word = UInt64(littleEndian: UnsafeRawPointer(text.baseAddress! + offset).loadUnaligned(as: UInt64.self))
        guard word & headMask == head else { return false }
        var i = 8
        while i < bytes.count {
            if text[offset + i] != bytes[i] { return false }
            i += 1
        }
        return true
    }

    /// Where the last item whose whole marker lies in the first `end` bytes of `text`, at or
    /// after `from`, starts.
    /// (Only the places of the marker's first byte are looked at, eight bytes at a time from
    /// the end: every place, a byte at a time, was a twentieth of a write with every tenth
    /// box changed.)
    func lastStart(before end: Int, in text: UnsafeBufferPointer<UInt8>, from: Int = 0) -> Int? {
        var i = min(end, text.count) - bytes.count
        while i >= from {
            if i - 7 >= from {
                // The last flagged byte of the eight ending at `i` may be a borrow's, not the
                // marker's: the marker is looked for there all the same.
                let word = UInt64(
                    littleEndian: UnsafeRawPointer(text.baseAddress! + i - 7).loadUnaligned(as: UInt64.self))
                let flags = ByteScan.has(word, bytes[0])
                guard flags != 0 else {
                    i -= 8
                    continue
                }
                i = i - 7 + (63 - flags.leadingZeroBitCount) >> 3
            }
            if isAt(i, in: text) { return i + itemOffset }
            i -= 1
        }
        return nil
    }

    /// Whether an item starts at `offset` of a text (`byte` reads it, `count` bytes long).
    func isStart(_ offset: Int, count: Int, _ byte: (Int) -> UInt8) -> Bool {
        offset >= itemOffset && offset - itemOffset + bytes.count <= count && isAt(offset - itemOffset, byte)
    }

    /// Where the first item whose marker starts at or after `offset` in `text` starts.
    func nextStart(from offset: Int, in text: UnsafeBufferPointer<UInt8>) -> Int? {
        var i = offset
        let last = text.count - bytes.count
        while i <= last, let found = memchr(text.baseAddress! + i, Int32(bytes[0]), last + 1 - i) {
            let at = text.baseAddress!.distance(to: found.assumingMemoryBound(to: UInt8.self))
            if isAt(at, in: text) { return at + itemOffset }
            i = at + 1
        }
        return nil
    }

    /// The items where two runs of items differ (each run starts with an item, whose marker
    /// lies before it), paired in order: the k-th item of one with the k-th of the other, as
    /// their ranges, and whether they are the runs' last. Nil where the runs have not as many
    /// items. The runs are compared from their starts, and only the lines of items that differ
    /// are looked at. (Finding every item's start in both runs, a line at a time, was a fifth
    /// of writing a million items with every tenth box changed into an XML property list.)
    func differingItems(
        _ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>
    ) -> [(a: Range<Int>, b: Range<Int>, isLast: Bool)]? {
        var pairs: [(a: Range<Int>, b: Range<Int>, isLast: Bool)] = []
        // The k-th items' starts: the bytes before are the same in both runs.
        var i = 0
        var j = 0
        while true {
            let same = ByteComparison.commonPrefix(
                UnsafeBufferPointer(rebasing: a[i...]), UnsafeBufferPointer(rebasing: b[j...]))
            if i + same == a.count && j + same == b.count { return pairs }
            // The item that holds the first difference: the last whose marker lies in the
            // bytes both share (its place the same in both), else the one at `i`. (Markers do
            // not overlap: none starts within the marker before the item at `i`.)
            let p = lastStart(before: i + same, in: a, from: i) ?? i
            let q = j + (p - i)
            let endA = nextStart(from: max(0, p - itemOffset + 1), in: a) ?? a.count
            let endB = nextStart(from: max(0, q - itemOffset + 1), in: b) ?? b.count
            let isLast = endA == a.count
            guard isLast == (endB == b.count) else { return nil }
            if !ByteScan.same(UnsafeBufferPointer(rebasing: a[p..<endA]), UnsafeBufferPointer(rebasing: b[q..<endB])) {
                pairs.append((p..<endA, q..<endB, isLast))
            }
            if isLast { return pairs }
            (i, j) = (endA, endB)
        }
    }

    /// Where the items of a run of a file start, in order: the first at the run's start (its
    /// marker lies before the run), the others at their markers.
    func runStarts(in run: UnsafeBufferPointer<UInt8>) -> [Int] {
        [0] + starts(in: run, before: run.count).filter { $0 > 0 }
    }

    /// Where the items whose markers lie in the first `end` bytes of `text` start, in order;
    /// the first `limit` of them.
    func starts(in text: UnsafeBufferPointer<UInt8>, before end: Int, limit: Int = .max) -> [Int] {
        var starts: [Int] = []
        var i = 0
        let last = end - bytes.count
        while i <= last, starts.count < limit,
            let found = memchr(text.baseAddress! + i, Int32(bytes[0]), last + 1 - i)
        {
            let at = text.baseAddress!.distance(to: found.assumingMemoryBound(to: UInt8.self))
            if isAt(at, in: text) { starts.append(at + itemOffset) }
            i = at + 1
        }
        return starts
    }
}
