/// A 64-bit digest of bytes, eight bytes at a time: each word goes in through a
/// multiplication whose 128-bit product's halves are folded together, from a seed chosen
/// per process (as `Hasher`'s is). Two different texts share a digest by chance about once
/// in 2^64 comparisons. It tells equal items from changed ones in a diff, and places bytes
/// in hash tables whose keys are compared where digests meet (a binary property list's long
/// strings, a streamed update's items): not for tables facing hostile input, where
/// colliding keys would cost time.
struct ByteDigest {
    private static let seed = UInt64.random(in: .min ... .max)
    private var state = ByteDigest.seed

    @inline(__always)
    mutating func combine(_ word: UInt64) {
        let product = (state ^ word).multipliedFullWidth(by: 0x9E6C_63D0_676A_9A99)
        // The added constant keeps a zero product from zeroing what follows.
        state = (product.high ^ product.low) &+ 0x2545_F491_4F6C_DD1D
    }

    /// The bytes and their count (so that one text's end is not the next one's start).
    mutating func combine(bytes: UnsafeBufferPointer<UInt8>) {
        combine(UInt64(bytes.count))
        guard let base = bytes.baseAddress else { return }
        let raw = UnsafeRawPointer(base)
        var i = 0
        while i + 8 <= bytes.count {
            combine(UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)))
            i += 8
        }
        guard i < bytes.count else { return }
        if i > 0 {
            // The last eight bytes, some of them again: one load, where the bytes one at a
            // time were a quarter of a digest of a name (the count tells the overlap).
            combine(UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: bytes.count - 8, as: UInt64.self)))
            return
        }
        var tail: UInt64 = 0
        for k in 0..<bytes.count { tail |= UInt64(base[k]) << (UInt64(k) * 8) }
        combine(tail)
    }

    /// The digest of `bytes` alone.
    static func of(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        var digest = ByteDigest()
        digest.combine(bytes: bytes)
        return digest.value
    }

    /// The digest of a text's NFC bytes: texts equal as strings have the same.
    static func ofNFC(_ text: Substring) -> Int {
        var text = text
        return text.withUTF8 { NFCCheck.withNFC($0, of) }
    }

    var value: Int {
        var mixed = self
        mixed.combine(0)
        return Int(truncatingIfNeeded: mixed.state)
    }
}

/// Names told apart as the alignment of items could not confuse them: each in Unicode's NFC
/// form (so that no two are the same name to Swift either), and of its own bytes, told by
/// their digests (two names of one digest count as one, which only errs on the safe side).
struct DistinctNames {
    /// The digests seen, in an open-addressed table of a power-of-two size at most a quarter
    /// full, a digest its own hash (its bits are already mixed), with a bit a slot telling
    /// which are taken. The bits stay in the cache where the table does not, so a new name
    /// mostly finds its slot free without reading the table. (A `Set<Int>` hashed each
    /// digest again through `Hasher`; a table read for every name waited on memory.)
    private var slots: [UInt64]
    private var taken: [UInt64]
    private var count = 0

    init(capacity: Int = 0) {
        var size = 64
        while size < 4 * capacity { size <<= 1 }
        slots = Array(repeating: 0, count: size)
        taken = Array(repeating: 0, count: size / 64)
    }

    /// False from the first name that is not NFC or was seen before.
    private(set) var allDistinct = true

    /// Notes the names at `ranges` of `text`; false where one makes the names no longer
    /// distinct.
    mutating func insert(_ ranges: [Range<Int>], of text: UnsafeBufferPointer<UInt8>) -> Bool {
        ranges.allSatisfy { insert(UnsafeBufferPointer(rebasing: text[$0])) }
    }

    /// Notes a name's UTF-8 bytes; false where it makes the names no longer distinct.
    @discardableResult
    mutating func insert(_ name: UnsafeBufferPointer<UInt8>) -> Bool {
        if allDistinct && !(NFCCheck.isNFC(name) && insert(digest: UInt64(bitPattern: Int64(ByteDigest.of(name))))) {
            allDistinct = false
        }
        return allDistinct
    }

    /// Adds a digest; false where it was there.
    private mutating func insert(digest: UInt64) -> Bool {
        if 4 * (count + 1) > slots.count { grow() }
        let mask = slots.count - 1
        let inserted = slots.withUnsafeMutableBufferPointer { slots in
            taken.withUnsafeMutableBufferPointer { taken in
                var i = Int(truncatingIfNeeded: digest) & mask
                while taken[i >> 6] & (1 << (i & 63)) != 0 {
                    if slots[i] == digest { return false }
                    i = (i + 1) & mask
                }
                taken[i >> 6] |= 1 << (i & 63)
                slots[i] = digest
                return true
            }
        }
        if inserted { count += 1 }
        return inserted
    }

    private mutating func grow() {
        let (oldSlots, oldTaken) = (slots, taken)
        slots = Array(repeating: 0, count: 2 * oldSlots.count)
        taken = Array(repeating: 0, count: 2 * oldTaken.count)
        count = 0
        for i in oldSlots.indices where oldTaken[i >> 6] & (1 << (i & 63)) != 0 { _ = insert(digest: oldSlots[i]) }
    }
}
