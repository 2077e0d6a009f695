import Foundation
import Testing

@testable import TodoFormat

/// `ByteComparison` and the sink that feeds it: where a writer's bytes first differ from a
/// file's, what it wrote after, and how much of both ends the same.
@Suite("Byte comparison")
struct ByteComparisonTests {
    /// Writes `output` through a comparing sink in pieces of `piece` bytes against `old`.
    static func compare(_ output: [UInt8], with old: [UInt8], piece: Int) throws
        -> (matched: Int, rest: [UInt8], same: Bool, suffix: Int)
    {
        try old.withUnsafeBufferPointer { old throws -> (matched: Int, rest: [UInt8], same: Bool, suffix: Int) in
            let comparison = ByteComparison(old)
            var sink = ByteSink(comparingWith: comparison)
            var i = 0
            while i < output.count {
                output[i..<min(i + piece, output.count)].withUnsafeBufferPointer { sink.write($0) }
                i += piece
            }
            let kept = try sink.finish(path: "x")
            #expect(kept.isEmpty)
            #expect(comparison.outputCount == output.count)
            for k in [0, comparison.matched / 2, comparison.matched, output.count - 1] where k >= 0 && k < output.count
            {
                #expect(comparison.outputByte(at: k) == output[k])
            }
            let middle = max(0, comparison.matched - 3)..<min(output.count, comparison.matched + 5)
            #expect(comparison.output(middle) == Array(output[middle]))
            let result = (comparison.matched, comparison.rest, comparison.isSame, comparison.commonSuffix())
            // The output taken from the rest's storage is the output, from before the first
            // difference to near the end.
            let taken = max(0, comparison.matched - 10)..<max(comparison.matched, output.count - 3)
            #expect(comparison.takeOutput(taken) == Array(output[taken]))
            return result
        }
    }

    @Test(
        "the first difference, the rest after it and the common end, whatever the pieces",
        arguments: [7, 4096, 1 << 21])
    func differences(piece: Int) throws {
        let old = Array((0..<3_000_000).map { UInt8(truncatingIfNeeded: $0 &* 31 >> 3) })
        var changed = old
        changed[1_234_567] &+= 1
        var r = try Self.compare(changed, with: old, piece: piece)
        #expect(r.matched == 1_234_567)
        #expect(r.rest == Array(changed[1_234_567...]))
        #expect(!r.same)
        #expect(r.suffix == old.count - 1_234_568)

        // Bytes inserted: the common end does not reach into what matched at the start.
        var inserted = old
        inserted.insert(contentsOf: [1, 2, 3], at: 2_000_001)
        r = try Self.compare(inserted, with: old, piece: piece)
        #expect(r.matched <= 2_000_001 && r.matched >= 2_000_000)
        #expect(r.matched + r.suffix <= old.count)
        #expect(r.matched + r.suffix >= old.count - 3)

        r = try Self.compare(old, with: old, piece: piece)
        #expect(r.same && r.rest.isEmpty && r.suffix == 0 && r.matched == old.count)

        // Output longer or shorter than the file.
        r = try Self.compare(old + [9], with: old, piece: piece)
        #expect(!r.same && r.matched == old.count && r.rest == [9])
        r = try Self.compare(Array(old.dropLast()), with: old, piece: piece)
        #expect(!r.same && r.matched == old.count - 1 && r.rest.isEmpty)
    }

    /// Writes `output` through a comparing sink that keeps only the differing bytes, in
    /// pieces of `piece` bytes against `old`.
    static func differences(_ output: [UInt8], from old: [UInt8], piece: Int) throws -> ByteComparison {
        try old.withUnsafeBufferPointer { old in
            let comparison = ByteComparison(old, keepingRest: false)
            var sink = ByteSink(comparingWith: comparison)
            var i = 0
            while i < output.count {
                output[i..<min(i + piece, output.count)].withUnsafeBufferPointer { sink.write($0) }
                i += piece
            }
            _ = try sink.finish(path: "x")
            #expect(comparison.rest.isEmpty)
            return comparison
        }
    }

    @Test(
        "a comparison that keeps no rest keeps the bytes that differ in place, and gives up past 4,096 of them",
        arguments: [7, 4096, 1 << 21])
    func differencesInPlace(piece: Int) throws {
        let old = Array((0..<3_000_000).map { UInt8(truncatingIfNeeded: $0 &* 31 >> 3) })
        var changed = old
        for k in [17, 1_048_575, 1_048_576, 1_048_577, 2_999_999] { changed[k] &+= 1 }
        // A run that crosses a piece's end comes in two parts; patched, it is the output.
        let comparison = try Self.differences(changed, from: old, piece: piece)
        #expect(comparison.outputCount == old.count && !comparison.tooDifferent && !comparison.isSame)
        #expect(comparison.matched == 17)
        var patched = old
        for d in comparison.differences {
            patched.replaceSubrange(d.offset..<(d.offset + d.bytes.count), with: d.bytes)
        }
        #expect(patched == changed)
        #expect(comparison.differences.reduce(0) { $0 + $1.bytes.count } == 5)
        #expect(comparison.differences.map(\.offset) == comparison.differences.map(\.offset).sorted())

        let same = try Self.differences(old, from: old, piece: piece)
        #expect(same.isSame && same.differences.isEmpty)

        // Too many bytes differ, or the output runs past the file: nothing kept.
        var many = old
        for k in stride(from: 1000, to: 1000 + 2 * 4097, by: 2) { many[k] &+= 1 }
        let tooMany = try Self.differences(many, from: old, piece: piece)
        #expect(tooMany.tooDifferent && tooMany.differences.isEmpty)
        var exactly = old
        for k in stride(from: 1000, to: 1000 + 2 * 4096, by: 2) { exactly[k] &+= 1 }
        #expect(try !Self.differences(exactly, from: old, piece: piece).tooDifferent)
        var longer = changed
        longer.append(1)
        #expect(try Self.differences(longer, from: old, piece: piece).tooDifferent)
        let shorter = try Self.differences(Array(changed.dropLast(2)), from: old, piece: piece)
        #expect(shorter.outputCount == old.count - 2 && !shorter.tooDifferent)
    }

    @Test("the first differing byte is found in any of eight places of a word")
    func commonPrefix() {
        let a: [UInt8] = Array(0..<40)
        for k in 0..<40 {
            var b = a
            b[k] = 200
            let n = a.withUnsafeBufferPointer { a in b.withUnsafeBufferPointer { ByteComparison.commonPrefix(a, $0) } }
            #expect(n == k)
        }
    }

    @Test("a file sink writes a piece larger than its block as it is, in order with what came before")
    func largeWrite() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("out")
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        #expect(fd >= 0)
        var sink = ByteSink(descriptor: fd)
        let big = Array((0..<3_000_000).map { UInt8(truncatingIfNeeded: $0 % 251) })
        sink.write("head,")
        big.withUnsafeBufferPointer { sink.write($0) }
        sink.write(",tail")
        _ = try sink.finish(path: path)
        close(fd)
        let written = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        #expect(written == Array("head,".utf8) + big + Array(",tail".utf8))
    }

    /// Large pieces of a mapped file are copied by the system from the file (`MappedFile.copy`),
    /// from where they stand in it, in order with what the sink holds; a piece of a file no
    /// longer mapped is written from memory.
    @Test("a file sink copies large pieces of a mapped file from the file, in order")
    func mappedPieces() throws {
        let directory = try TemporaryDirectory()
        let source = directory.path("source")
        let big = (0..<5_000_000).map { UInt8(truncatingIfNeeded: $0 &* 7 % 253) }
        try Data(big).write(to: URL(fileURLWithPath: source))
        let path = directory.path("out")
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        #expect(fd >= 0)
        defer { close(fd) }
        var sink = ByteSink(descriptor: fd)
        var copy: [UInt8] = []
        weak var released: MappedFile?
        do {
            let mapped = try #require(MappedFile(path: source))
            released = mapped
            let tail = UnsafeBufferPointer(rebasing: mapped.bytes[3_000_000...])
            sink.write("a")
            sink.write(UnsafeBufferPointer(rebasing: mapped.bytes[1_000_001..<2_500_000]))
            sink.write(UnsafeBufferPointer(rebasing: mapped.bytes[10..<20]))
            sink.write(tail)
            copy = Array(tail)
        }
        // Mapped no more (nothing keeps the file: a list of the files mapped did, and each
        // stayed mapped, 44 MB more at a million items): the same bytes, now in memory.
        #expect(released == nil)
        copy.withUnsafeBufferPointer { sink.write($0) }
        _ = try sink.finish(path: path)
        let written = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        let expected = Array("a".utf8) + big[1_000_001..<2_500_000] + big[10..<20] + big[3_000_000...] + copy
        #expect(written == expected)
    }
}
