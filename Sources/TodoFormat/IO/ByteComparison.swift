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
    /// The output after `matched`: empty until the first difference, and in a comparison
    /// that does not keep it.
    private(set) var rest: [UInt8] = []
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

    /// A comparison with `old` that keeps the output after the first difference
    /// (`keepingRest`), or only where it differs from the old bytes at the same offsets.
    init(_ old: UnsafeBufferPointer<UInt8>, keepingRest: Bool = true) {
        self.old = old
        self.keepsRest = keepingRest
    }

    /// Takes the next bytes of the output.
    func take(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard !differs else {
            if keepsRest { rest.append(contentsOf: bytes) } else { note(bytes) }
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
        // The rest is about as long as what is left of the old bytes: room for it at once.
        rest.reserveCapacity(old.count - matched + (bytes.count - same) + 4096)
        rest.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[same...]))
    }

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
    var outputCount: Int { keepsRest || !differs ? matched + rest.count : taken }

    /// The output's byte at `offset`.
    func outputByte(at offset: Int) -> UInt8 { offset < matched ? old[offset] : rest[offset - matched] }

    /// The output's bytes in `range`.
    func output(_ range: Range<Int>) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(range.count)
        if range.lowerBound < matched { bytes += old[range.lowerBound..<min(range.upperBound, matched)] }
        if range.upperBound > matched {
            bytes += rest[max(range.lowerBound, matched) - matched..<range.upperBound - matched]
        }
        return bytes
    }

    /// The output's bytes in `range`, made of the kept rest's storage (not a copy of it,
    /// which for a change near the start of a large file was as large again): the
    /// comparison keeps no rest after, and says nothing more of the output.
    func takeOutput(_ range: Range<Int>) -> [UInt8] {
        guard keepsRest, range.lowerBound <= matched, range.upperBound >= matched else { return output(range) }
        var bytes: [UInt8] = []
        swap(&bytes, &rest)
        bytes.removeSubrange((range.upperBound - matched)...)
        bytes.insert(contentsOf: old[range.lowerBound..<matched], at: 0)
        return bytes
    }

    /// How many bytes at the end of the output are the old bytes' end, not counting any of
    /// the `matched` ones on either side.
    func commonSuffix() -> Int {
        let limit = min(old.count - matched, rest.count)
        return rest.withUnsafeBufferPointer { rest in
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
    }

    /// Whether two runs of bytes are the same.
    static func same(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Bool {
        a.count == b.count && commonPrefix(a, b) == a.count
    }

    /// How many bytes at the start of `a` and `b` are the same.
    static func commonPrefix(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Int {
        let n = min(a.count, b.count)
        guard n > 0 else { return 0 }
        if memcmp(a.baseAddress!, b.baseAddress!, n) == 0 { return n }
        var i = 0
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
