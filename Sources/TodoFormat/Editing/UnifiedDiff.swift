import Foundation

/// A unified diff of two texts, as `diff -u` and `git diff` print it: what a dry run shows.
///
/// The lines both texts start and end with are set aside first, so a one-line change in a
/// million-line file compares one line; the rest is compared line by line (Myers' algorithm,
/// fast when the texts differ in few places).
enum UnifiedDiff {
    /// The diff of `old` and `new`, labelled with `name`; empty when they are the same.
    static func text(old: String, new: String, name: String, context: Int = 3) -> String {
        text(old: Array(old.utf8), new: Array(new.utf8), name: name, context: context)
    }

    /// The diff of two files' bytes (bytes that are not UTF-8 shown as U+FFFD).
    static func text(old a: [UInt8], new b: [UInt8], name: String, context: Int = 3) -> String {
        if a == b { return "" }
        let aLines = ByteScan.lineRanges(a)
        let bLines = ByteScan.lineRanges(b)
        // The lines both start with and end with.
        var prefix = 0
        while prefix < aLines.count && prefix < bLines.count && a[aLines[prefix]].elementsEqual(b[bLines[prefix]]) {
            prefix += 1
        }
        var suffix = 0
        while suffix < aLines.count - prefix && suffix < bLines.count - prefix
            && a[aLines[aLines.count - 1 - suffix]].elementsEqual(b[bLines[bLines.count - 1 - suffix]])
        {
            suffix += 1
        }
        let aMiddle = Array(aLines[prefix..<(aLines.count - suffix)])
        let bMiddle = Array(bLines[prefix..<(bLines.count - suffix)])
        let hashesA = aMiddle.map { a[$0].hashValueOfBytes }
        let hashesB = bMiddle.map { b[$0].hashValueOfBytes }
        let script = myers(hashesA.count, hashesB.count) {
            hashesA[$0] == hashesB[$1] && a[aMiddle[$0]].elementsEqual(b[bMiddle[$1]])
        }
        // Operations over whole texts: equal runs, deletions and insertions, by line number.
        var ops: [(kind: UInt8, a: Int, b: Int)] = []  // kind: 0 same, 1 deleted, 2 inserted
        for i in 0..<prefix { ops.append((0, i, i)) }
        for op in script { ops.append((op.kind, op.a + prefix, op.b + prefix)) }
        for k in 0..<suffix { ops.append((0, aLines.count - suffix + k, bLines.count - suffix + k)) }
        return render(ops, a: a, aLines: aLines, b: b, bLines: bLines, name: name, context: context)
    }

    /// The most edits the shortest script is looked for with: its search keeps `2d + 1`
    /// numbers for each step `d`, 32 MB at this many. (A dry run of `rm 1` on a dump of
    /// 20,000 rows, whose every row's id moves, took 14 GB keeping the whole row of numbers
    /// at each step.)
    static let maxEdits = 2000

    /// The shortest edit script from n lines to m lines (`same(i, j)`: line i of the first
    /// equals line j of the second), as operations in order; where it needs more than
    /// `maxEdits` edits, every line of the first deleted and every line of the second added
    /// (a longer diff, as true).
    private static func myers(_ n: Int, _ m: Int, same: (Int, Int) -> Bool) -> [(kind: UInt8, a: Int, b: Int)] {
        let max = n + m
        if max == 0 { return [] }
        var v = [Int](repeating: 0, count: 2 * max + 2)
        // Before each step d, the numbers of diagonals -d through d (all that step reads).
        var trace: [[Int]] = []
        let offset = max + 1
        var found = false
        for d in 0...Swift.min(max, maxEdits) {
            trace.append(Array(v[(offset - d)...(offset + d)]))
            var k = -d
            while k <= d {
                var x: Int
                if k == -d || (k != d && v[offset + k - 1] < v[offset + k + 1]) {
                    x = v[offset + k + 1]
                } else {
                    x = v[offset + k - 1] + 1
                }
                var y = x - k
                while x < n && y < m && same(x, y) {
                    x += 1
                    y += 1
                }
                v[offset + k] = x
                if x >= n && y >= m {
                    found = true
                    break
                }
                k += 2
            }
            if found { break }
        }
        guard found else { return (0..<n).map { (1, $0, 0) } + (0..<m).map { (2, n, $0) } }
        // Back through the trace.
        var ops: [(kind: UInt8, a: Int, b: Int)] = []
        var x = n
        var y = m
        for d in stride(from: trace.count - 1, through: 0, by: -1) {
            let v = trace[d]  // diagonal k at v[d + k]
            let k = x - y
            let prevK = (k == -d || (k != d && v[d + k - 1] < v[d + k + 1])) ? k + 1 : k - 1
            let prevX = d == 0 ? 0 : v[d + prevK]
            let prevY = prevX - prevK
            while x > prevX && y > prevY {
                x -= 1
                y -= 1
                ops.append((0, x, y))
            }
            if d > 0 {
                if x == prevX { ops.append((2, x, prevY)) } else { ops.append((1, prevX, y)) }
                x = prevX
                y = prevY
            }
        }
        return ops.reversed()
    }

    private static func render(
        _ ops: [(kind: UInt8, a: Int, b: Int)], a: [UInt8], aLines: [Range<Int>], b: [UInt8], bLines: [Range<Int>],
        name: String, context: Int
    ) -> String {
        var out = "--- a/\(name)\n+++ b/\(name)\n"
        var i = 0
        while i < ops.count {
            guard ops[i].kind != 0 else {
                i += 1
                continue
            }
            // A hunk: from `context` lines before this change to `context` lines after the last
            // change that is no more than 2 * context lines from the one before.
            let start = Swift.max(0, i - context)
            var end = i
            var j = i
            while j < ops.count {
                if ops[j].kind != 0 {
                    end = j
                    j += 1
                    continue
                }
                var run = j
                while run < ops.count && ops[run].kind == 0 { run += 1 }
                if run == ops.count || run - j > 2 * context { break }
                j = run
            }
            let stop = Swift.min(ops.count, end + context + 1)
            let hunk = ops[start..<stop]
            let first = hunk[hunk.startIndex]
            let aStart = hunk.first(where: { $0.kind != 2 }).map { $0.a } ?? first.a
            let bStart = hunk.first(where: { $0.kind != 1 }).map { $0.b } ?? first.b
            let aCount = hunk.count { $0.kind != 2 }
            let bCount = hunk.count { $0.kind != 1 }
            out += "@@ -\(range(aStart, aCount)) +\(range(bStart, bCount)) @@\n"
            for op in hunk {
                switch op.kind {
                case 0: out += " " + line(a, aLines[op.a])
                case 1: out += "-" + line(a, aLines[op.a])
                default: out += "+" + line(b, bLines[op.b])
                }
            }
            i = stop
        }
        return out
    }

    private static func range(_ start: Int, _ count: Int) -> String {
        count == 1 ? "\(start + 1)" : "\(count == 0 ? start : start + 1),\(count)"
    }

    private static func line(_ bytes: [UInt8], _ range: Range<Int>) -> String {
        // By the last byte: to Swift a line ending "\r\n" does not end with "\n".
        let text = String(decoding: bytes[range], as: UTF8.self)
        return bytes[range].last == 10 ? text : text + "\n\\ No newline at end of file\n"
    }
}

extension ArraySlice<UInt8> {
    /// A hash of the bytes, for comparing lines quickly.
    fileprivate var hashValueOfBytes: Int {
        var h: UInt64 = 14_695_981_039_346_656_037
        for b in self { h = (h ^ UInt64(b)) &* 1_099_511_628_211 }
        return Int(bitPattern: UInt(h))
    }
}
