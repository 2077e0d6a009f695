import Foundation

/// `TodoMerge.quickMerge` on files, read in blocks rather than whole: a million-item merge
/// whose sides changed far-apart items reads each file once and holds a block of each.
enum QuickFileMerge {
    private static let block = 1 << 20

    /// The merge written into `ours` when the quick merge applies (true), else nothing (false).
    static func merge(base: Input, ours: Input, theirs: Input) throws -> Bool {
        let b = try ByteReader(base)
        let o = try ByteReader(ours)
        let t = try ByteReader(theirs)
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
        var firstSide = o
        var secondSide = t
        if first.start > second.start {
            swap(&first, &second)
            swap(&firstSide, &secondSide)
        }
        guard first.baseEnd <= second.start, second.start > 0 else { return false }
        guard try taskLine(in: b, first.baseEnd..<second.start) else { return false }
        if first.start == 0, try b.readBytes(0..<min(3, b.count)) == Array("---".utf8) { return false }
        if try changed(o, t) == nil { return true }
        // Both wrote the same line (the same item added at two places): the merge by item.
        let limit = 1 << 24
        guard first.otherEnd - first.start <= limit, second.otherEnd - second.start <= limit,
            try !TodoMerge.sharesLine(
                ArraySlice(firstSide.readBytes(first.start..<first.otherEnd)),
                ArraySlice(secondSide.readBytes(second.start..<second.otherEnd)))
        else { return false }
        try write(
            ours.path!,
            [
                (b, 0..<first.start), (firstSide, first.start..<first.otherEnd), (b, first.baseEnd..<second.start),
                (secondSide, second.start..<second.otherEnd), (b, second.baseEnd..<b.count),
            ])
        return true
    }

    /// When the quick merge does not apply (the sides changed lines near each other), the
    /// merge by item of only the part of the files from the top-level task line at or before
    /// the first change to the one after the last, put back between the base's start and end
    /// as they are. Nil when the part starts the file (front matter) or the base has a fenced
    /// code block or HTML (where a task line may be none); the whole files are merged then.
    static func windowed(base: Input, ours: Input, theirs: Input, path: String) throws -> TodoMerge.Result? {
        let b = try ByteReader(base)
        let o = try ByteReader(ours)
        let t = try ByteReader(theirs)
        defer {
            b.close()
            o.close()
            t.close()
        }
        guard let first = try changed(b, o), let second = try changed(b, t) else { return nil }
        // The window starts at the top-level item before the first change: lines inserted
        // just before a top-level item may be nested in the one before it (indented four
        // spaces or a tab, they would read as code in a window that starts with them).
        guard let start = try taskLine(in: b, atOrBefore: max(0, min(first.start, second.start) - 1)), start > 0,
            let end = try taskLine(in: b, after: max(first.baseEnd, second.baseEnd)),
            try start >= frontMatterEnd(b), try !hasFenceOrHTML(b)
        else { return nil }
        let oursEnd = end + o.count - b.count
        let theirsEnd = end + t.count - b.count
        guard oursEnd >= start, theirsEnd >= start else { return nil }
        let texts = [
            try b.readBytes(start..<end), try o.readBytes(start..<oursEnd), try t.readBytes(start..<theirsEnd),
        ]
        let strings = texts.compactMap { UTF8Validation.string($0) }
        guard strings.count == 3 else { return nil }
        var result = try TodoMerge.checklists(base: strings[0], ours: strings[1], theirs: strings[2], path: path)
        try write(ours.path!, [.file(b, 0..<start), .bytes(result.bytes), .file(b, end..<b.count)])
        result.bytes = []
        return result
    }

    /// The start of the nearest line at or before `offset` (a line's start) that starts a
    /// top-level task item; nil when there is none.
    private static func taskLine(in reader: ByteReader, atOrBefore offset: Int) throws -> Int? {
        var lineStart = offset
        while true {
            if lineStart < reader.count, try isTaskLine(reader, lineStart) { return lineStart }
            if lineStart == 0 { return nil }
            // The start of the line before.
            var k = lineStart - 1
            var found = false
            while k > 0 && !found {
                let from = max(0, k - 4096)
                let chunk = try reader.readBytes(from..<k)
                if let newline = chunk.lastIndex(of: 10) {
                    k = from + newline + 1
                    found = true
                } else {
                    k = from
                }
            }
            lineStart = found ? k : 0
        }
    }

    /// The start of the first line at or after `offset` (a line's start) that starts a
    /// top-level task item, or the end of the file.
    private static func taskLine(in reader: ByteReader, after offset: Int) throws -> Int? {
        var lineStart = offset
        while lineStart < reader.count {
            if try isTaskLine(reader, lineStart) { return lineStart }
            var k = lineStart
            var found = false
            while k < reader.count && !found {
                let chunk = try reader.readBytes(k..<min(reader.count, k + 4096))
                if let newline = chunk.firstIndex(of: 10) {
                    k += newline + 1
                    found = true
                } else {
                    k += chunk.count
                }
            }
            lineStart = k
        }
        return reader.count
    }

    /// Where the front matter ends: past its closing `---` line; 0 without front matter, and
    /// the file's size when its end is not found in the first 64 KiB.
    private static func frontMatterEnd(_ reader: ByteReader) throws -> Int {
        let head = try reader.readBytes(0..<min(reader.count, 1 << 16))
        guard head.starts(with: Array("---".utf8)) else { return 0 }
        var k = 0
        while let newline = head[k...].firstIndex(of: 10) {
            let line = head[(newline + 1)...].prefix(3)
            if newline > 0, Array(line) == Array("---".utf8) || Array(line) == Array("...".utf8) {
                return head[(newline + 1)...].firstIndex(of: 10).map { $0 + 1 } ?? reader.count
            }
            k = newline + 1
        }
        return reader.count
    }

    private static func isTaskLine(_ reader: ByteReader, _ lineStart: Int) throws -> Bool {
        let head = try reader.readBytes(lineStart..<min(reader.count, lineStart + 3))
        return head.count == 3 && [45, 42, 43].contains(head[0]) && head[1] == 32 && head[2] == 91
    }

    /// Whether a line starts (after up to three spaces) a code fence or an HTML block.
    private static func hasFenceOrHTML(_ reader: ByteReader) throws -> Bool {
        var at = 0
        var lineStart = true
        var spaces = 0
        var run: UInt8 = 0
        var runLength = 0
        while at < reader.count {
            let chunk = try reader.readBytes(at..<min(reader.count, at + block))
            for byte in chunk {
                if byte == 10 {
                    lineStart = true
                    spaces = 0
                    runLength = 0
                    continue
                }
                guard lineStart else { continue }
                if runLength > 0 {
                    if byte == run {
                        runLength += 1
                        if runLength == 3 { return true }
                        continue
                    }
                    lineStart = false
                    continue
                }
                switch byte {
                case 32 where spaces < 3: spaces += 1
                case 60: return true
                case 96, 126:
                    run = byte
                    runLength = 1
                default: lineStart = false
                }
            }
            at += chunk.count
        }
        return false
    }

    /// The lines of `base` that `other` changed (whole lines: from a line's start to just
    /// after a line ending), and where they end in `other`; nil when the files are the same.
    static func changed(_ base: ByteReader, _ other: ByteReader) throws -> (start: Int, baseEnd: Int, otherEnd: Int)? {
        let shortest = min(base.count, other.count)
        var prefix = 0
        while prefix < shortest {
            let range = prefix..<min(shortest, prefix + block)
            let x = try base.readBytes(range)
            let y = try other.readBytes(range)
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
        var baseEnd = base.count - suffix
        var otherEnd = other.count - suffix
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
                    if i + 3 <= bytes.count, [45, 42, 43].contains(bytes[i]), bytes[i + 1] == 32, bytes[i + 2] == 91 {
                        return true
                    }
                }
                lineStart = bytes[i] == 10
                i += 1
            }
            carry = Array(bytes[i...])
            at += chunk.count
        }
        return false
    }

    private enum Piece {
        case file(ByteReader, Range<Int>)
        case bytes([UInt8])
    }

    private static func write(_ path: String, _ pieces: [(ByteReader, Range<Int>)]) throws {
        try write(path, pieces.map { Piece.file($0.0, $0.1) })
    }

    private static func write(_ path: String, _ pieces: [Piece]) throws {
        let output = try Output.file(path)
        do {
            var sink = output.makeSink()
            for piece in pieces {
                guard case .file(let reader, let range) = piece else {
                    if case .bytes(let bytes) = piece { bytes.withUnsafeBufferPointer { sink.write($0) } }
                    continue
                }
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
