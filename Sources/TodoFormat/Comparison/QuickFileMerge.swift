import Foundation

/// `TodoMerge.quickMerge` on files, read in blocks rather than whole: a million-item merge
/// whose sides changed far-apart items reads each file once and holds a block of each.
enum QuickFileMerge {
    private static let block = 1 << 20

    /// The merge written into `ours` when the quick merge applies (true), else nothing (false).
    static func merge(base: Input, ours: Input, theirs: Input) throws -> Bool {
        let b = try ByteReader(base), o = try ByteReader(ours), t = try ByteReader(theirs)
        defer {
            b.close()
            o.close()
            t.close()
        }
        guard var first = try changed(b, o) else {
            // Ours is the base: theirs is the merge.
            if try changed(b, t) != nil { try write(ours.path!, [(t, 0..<t.count)]) }
            return true
        }
        guard var second = try changed(b, t) else { return true }  // theirs is the base: ours is the merge
        var firstSide = o, secondSide = t
        if first.start > second.start {
            swap(&first, &second)
            swap(&firstSide, &secondSide)
        }
        guard first.baseEnd <= second.start, second.start > 0 else { return false }
        guard try taskLine(in: b, first.baseEnd..<second.start) else { return false }
        if first.start == 0, try b.readBytes(0..<min(3, b.count)) == Array("---".utf8) { return false }
        if try changed(o, t) == nil { return true }
        try write(
            ours.path!,
            [
                (b, 0..<first.start), (firstSide, first.start..<first.otherEnd), (b, first.baseEnd..<second.start),
                (secondSide, second.start..<second.otherEnd), (b, second.baseEnd..<b.count),
            ])
        return true
    }

    /// The lines of `base` that `other` changed (whole lines: from a line's start to just
    /// after a line ending), and where they end in `other`; nil when the files are the same.
    static func changed(_ base: ByteReader, _ other: ByteReader) throws -> (start: Int, baseEnd: Int, otherEnd: Int)? {
        let shortest = min(base.count, other.count)
        var prefix = 0
        while prefix < shortest {
            let range = prefix..<min(shortest, prefix + block)
            let x = try base.readBytes(range), y = try other.readBytes(range)
            if x == y {
                prefix = range.upperBound
                continue
            }
            var i = 0
            while x[i] == y[i] { i += 1 }
            prefix += i
            break
        }
        if prefix == shortest && base.count == other.count { return nil }
        var suffix = 0
        while suffix < shortest - prefix {
            let length = min(block, shortest - prefix - suffix)
            let x = try base.readBytes((base.count - suffix - length)..<(base.count - suffix))
            let y = try other.readBytes((other.count - suffix - length)..<(other.count - suffix))
            var i = 0
            while i < length && x[length - 1 - i] == y[length - 1 - i] { i += 1 }
            suffix += i
            if i < length { break }
        }
        // Back to the start of the line, on to the end of a line.
        var start = prefix
        while start > 0 {
            let from = max(0, start - 4096)
            let chunk = try base.readBytes(from..<start)
            if let newline = chunk.lastIndex(of: 10) {
                start = from + newline + 1
                break
            }
            start = from
        }
        var baseEnd = base.count - suffix, otherEnd = other.count - suffix
        if baseEnd > 0, baseEnd < base.count, try base.readBytes((baseEnd - 1)..<baseEnd) != [10] {
            while baseEnd < base.count {
                let chunk = try base.readBytes(baseEnd..<min(base.count, baseEnd + 4096))
                if let newline = chunk.firstIndex(of: 10) {
                    otherEnd += newline + 1
                    baseEnd += newline + 1
                    break
                }
                otherEnd += chunk.count
                baseEnd += chunk.count
            }
        }
        return (start, baseEnd, otherEnd)
    }

    /// Whether a line in `range` (which starts at a line's start) starts a top-level task item.
    private static func taskLine(in reader: ByteReader, _ range: Range<Int>) throws -> Bool {
        var at = range.lowerBound
        var carry: [UInt8] = []
        var lineStart = true
        while at < range.upperBound {
            let chunk = try reader.readBytes(at..<min(range.upperBound, at + 65536))
            let bytes = carry + chunk
            var i = 0
            while i < bytes.count {
                if lineStart {
                    if bytes.count - i < 3 && at + chunk.count < range.upperBound { break }
                    if i + 3 <= bytes.count, [45, 42, 43].contains(bytes[i]), bytes[i + 1] == 32, bytes[i + 2] == 91 { return true }
                }
                lineStart = bytes[i] == 10
                i += 1
            }
            carry = Array(bytes[i...])
            at += chunk.count
        }
        return false
    }

    private static func write(_ path: String, _ pieces: [(ByteReader, Range<Int>)]) throws {
        let output = try Output.file(path)
        do {
            var sink = output.makeSink()
            for (reader, range) in pieces {
                var at = range.lowerBound
                while at < range.upperBound {
                    let chunk = try reader.readBytes(at..<min(range.upperBound, at + block))
                    chunk.withUnsafeBufferPointer { sink.write($0) }
                    at += chunk.count
                }
            }
            _ = try sink.finish(path: output.name)
            try output.commit()
        } catch {
            output.discard()
            throw error
        }
    }
}
