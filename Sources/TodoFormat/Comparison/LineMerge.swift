/// A three-way merge of texts by lines, as `git merge-file` does it (diff3's algorithm on
/// Myers' diffs): a change made on one side is taken, the same change on both sides is
/// taken once, and different changes of the same lines are a conflict, written between
/// `<<<<<<< ours`, `=======` and `>>>>>>> theirs` lines. Lines keep their own endings; the
/// marker lines end as `lineEnding` says.
struct LineMerge {
    /// The merged text.
    private(set) var bytes: [UInt8] = []
    /// How many conflicts it holds.
    private(set) var conflicts = 0

    init(base: [UInt8], ours: [UInt8], theirs: [UInt8], lineEnding: [UInt8] = [10]) {
        let b = Lines(base)
        let o = Lines(ours)
        let t = Lines(theirs)
        let toOurs = Self.matches(b, o)
        let toTheirs = Self.matches(b, t)
        bytes.reserveCapacity(ours.count)
        var i = 0
        var x = 0
        var y = 0
        while i < b.count || x < o.count || y < t.count {
            // A line of the base matched on both sides where all three stand: it stays.
            if i < b.count, toOurs[i] == x, toTheirs[i] == y {
                bytes.append(contentsOf: b[i])
                i += 1
                x += 1
                y += 1
                continue
            }
            // The next base line matched on both sides ends the chunk that differs.
            var j = i
            while j < b.count && (toOurs[j] == nil || toTheirs[j] == nil) { j += 1 }
            let xEnd = j < b.count ? toOurs[j]! : o.count
            let yEnd = j < b.count ? toTheirs[j]! : t.count
            let baseChunk = b.range(i..<j)
            let oursChunk = o.range(x..<xEnd)
            let theirsChunk = t.range(y..<yEnd)
            if oursChunk.elementsEqual(baseChunk) {
                bytes.append(contentsOf: theirsChunk)
            } else if theirsChunk.elementsEqual(baseChunk) || oursChunk.elementsEqual(theirsChunk) {
                bytes.append(contentsOf: oursChunk)
            } else {
                conflicts += 1
                bytes.append(contentsOf: Array("<<<<<<< ours".utf8) + lineEnding)
                Self.appendLines(oursChunk, to: &bytes, lineEnding: lineEnding)
                bytes.append(contentsOf: Array("=======".utf8) + lineEnding)
                Self.appendLines(theirsChunk, to: &bytes, lineEnding: lineEnding)
                bytes.append(contentsOf: Array(">>>>>>> theirs".utf8) + lineEnding)
            }
            i = j
            x = xEnd
            y = yEnd
        }
    }

    /// A side's lines; a last line without its ending gets one before a marker line.
    private static func appendLines(_ chunk: ArraySlice<UInt8>, to bytes: inout [UInt8], lineEnding: [UInt8]) {
        bytes.append(contentsOf: chunk)
        if let last = chunk.last, last != 10 { bytes.append(contentsOf: lineEnding) }
    }

    /// For each base line, the line of `other` it is matched with, or nil.
    private static func matches(_ base: Lines, _ other: Lines) -> [Int?] {
        var result = [Int?](repeating: nil, count: base.count)
        var prefix = 0
        while prefix < base.count && prefix < other.count && base[prefix].elementsEqual(other[prefix]) {
            result[prefix] = prefix
            prefix += 1
        }
        var suffix = 0
        while suffix < base.count - prefix && suffix < other.count - prefix
            && base[base.count - 1 - suffix].elementsEqual(other[other.count - 1 - suffix])
        {
            result[base.count - 1 - suffix] = other.count - 1 - suffix
            suffix += 1
        }
        let baseMiddle = prefix..<(base.count - suffix)
        let otherMiddle = prefix..<(other.count - suffix)
        guard !baseMiddle.isEmpty && !otherMiddle.isEmpty else { return result }
        var ids: [ArraySlice<UInt8>: Int] = [:]
        func id(_ line: ArraySlice<UInt8>) -> Int {
            if let known = ids[line] { return known }
            ids[line] = ids.count
            return ids.count - 1
        }
        let a = baseMiddle.map { id(base[$0]) }
        let c = otherMiddle.map { id(other[$0]) }
        // Too different for a diff: the middles do not match at all, one conflict.
        for (p, q) in commonRun(a, c, maxDifferences: 20_000) ?? [] { result[prefix + p] = prefix + q }
        return result
    }

    /// A text's lines, each with its line ending.
    private struct Lines {
        let bytes: [UInt8]
        var starts: [Int] = [0]

        init(_ bytes: [UInt8]) {
            self.bytes = bytes
            for (k, byte) in bytes.enumerated() where byte == 10 { starts.append(k + 1) }
            if starts.last == bytes.count { starts.removeLast() }
            if bytes.isEmpty { starts = [] }
        }

        var count: Int { starts.count }
        subscript(_ k: Int) -> ArraySlice<UInt8> {
            bytes[starts[k]..<(k + 1 < starts.count ? starts[k + 1] : bytes.count)]
        }
        func range(_ lines: Range<Int>) -> ArraySlice<UInt8> {
            guard !lines.isEmpty else { return bytes[0..<0] }
            let end = lines.upperBound < starts.count ? starts[lines.upperBound] : bytes.count
            return bytes[starts[lines.lowerBound]..<end]
        }
    }
}
