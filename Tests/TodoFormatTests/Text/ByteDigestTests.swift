import Testing

@testable import TodoFormat

@Suite("Digests of bytes")
struct ByteDigestTests {
    private static func digest(_ bytes: [UInt8]) -> Int {
        bytes.withUnsafeBufferPointer { ByteDigest.of($0) }
    }

    @Test("equal bytes have one digest, wherever they are")
    func equalBytes() {
        for count in 0...40 {
            let bytes = (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
            // The same bytes at another address, at every offset in a larger buffer.
            let padded = [0xEE, 0xEE, 0xEE] + bytes + [0xEE, 0xEE]
            let inPlace = padded.withUnsafeBufferPointer {
                ByteDigest.of(UnsafeBufferPointer(rebasing: $0[3..<(3 + count)]))
            }
            #expect(inPlace == Self.digest(bytes), "\(count) bytes")
        }
    }

    @Test("a change of any one byte, at any length, changes the digest")
    func everyByteCounts() {
        // Every byte goes in, the last few (read again with the word before) too.
        for count in 1...40 {
            let bytes = (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 91 &+ 5) }
            let digest = Self.digest(bytes)
            for i in 0..<count {
                for change: UInt8 in [1, 0x80, 0xFF] {
                    var changed = bytes
                    changed[i] ^= change
                    #expect(Self.digest(changed) != digest, "byte \(i) of \(count)")
                }
            }
        }
    }

    @Test("bytes of zeros of different counts differ, as do a text and its prefix")
    func countsDiffer() {
        let zeros = (0...40).map { Self.digest([UInt8](repeating: 0, count: $0)) }
        #expect(Set(zeros).count == zeros.count)
        let text = Array("renew passport 93 整理报告".utf8)
        let prefixes = (0...text.count).map { Self.digest(Array(text[..<$0])) }
        #expect(Set(prefixes).count == prefixes.count)
    }

    @Test("a text's NFC digest is the same for its composed and decomposed spellings, and differs from another's")
    func nfcDigest() {
        let composed = "caf\u{E9} 日本語"
        let decomposed = "cafe\u{301} 日本語"
        #expect(Array(composed.utf8) != Array(decomposed.utf8))
        #expect(ByteDigest.ofNFC(Substring(composed)) == ByteDigest.ofNFC(Substring(decomposed)))
        #expect(ByteDigest.ofNFC(Substring(composed)) == Array(composed.utf8).withUnsafeBufferPointer(ByteDigest.of))
        #expect(ByteDigest.ofNFC(Substring(composed)) != ByteDigest.ofNFC("cafe 日本語"))
    }

    @Test("distinct names: every new name is taken as the table grows, and the first repeat or non-NFC name ends it")
    func distinctNames() {
        func insert(_ name: String, into names: inout DistinctNames) -> Bool {
            Array(name.utf8).withUnsafeBufferPointer { names.insert($0) }
        }
        for capacity in [0, 10, 5_000] {
            var names = DistinctNames(capacity: capacity)
            // Far more names than the table first holds: each growth must keep what it had.
            let all = (0..<5_000).map { "item \($0) 整理报告" }
            for name in all { #expect(insert(name, into: &names), "\(name), capacity \(capacity)") }
            for name in ["item 0 整理报告", "item 2500 整理报告", "item 4999 整理报告"] {
                var again = names
                #expect(!insert(name, into: &again), "\(name) twice")
                #expect(!again.allDistinct)
                // Once not distinct, it stays so, whatever comes.
                #expect(!insert("item 5000 整理报告", into: &again))
            }
            var decomposed = names
            #expect(!insert("cafe\u{301}", into: &decomposed))
            #expect(insert("caf\u{E9}", into: &names))
            #expect(names.allDistinct)
        }
    }
}
