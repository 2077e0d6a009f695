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

    /// Whether the marker stands at `offset` (`byte` reads the text).
    @inline(__always)
    func isAt(_ offset: Int, _ byte: (Int) -> UInt8) -> Bool {
        for (i, b) in bytes.enumerated() where byte(offset + i) != b { return false }
        return true
    }

    /// Where the last item whose whole marker lies in the first `end` bytes of `text` starts.
    func lastStart(before end: Int, in text: UnsafeBufferPointer<UInt8>) -> Int? {
        var i = min(end, text.count) - bytes.count
        while i >= 0 {
            if isAt(i, { text[$0] }) { return i + itemOffset }
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
            if isAt(at, { text[$0] }) { return at + itemOffset }
            i = at + 1
        }
        return nil
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
            if isAt(at, { text[$0] }) { starts.append(at + itemOffset) }
            i = at + 1
        }
        return starts
    }
}
