import Foundation
import Testing

@testable import TodoFormat

/// `ByteComparison` and the sink that feeds it: where a writer's bytes first differ from a
/// file's, what it wrote after, and how much of both ends the same.
@Suite("Byte comparison")
struct ByteComparisonTests {
    /// Writes `output` through a sink into `comparison`, `piece` bytes at a time.
    static func write(_ output: [UInt8], to comparison: ByteComparison, piece: Int) throws {
        var sink = ByteSink(comparingWith: comparison)
        var i = 0
        while i < output.count {
            output[i..<min(i + piece, output.count)].withUnsafeBufferPointer { sink.write($0) }
            i += piece
        }
        let kept = try sink.finish(path: "x")
        #expect(kept.isEmpty)
    }

    /// Writes `output` through a comparing sink in pieces of `piece` bytes against `old`.
    static func compare(
        _ output: [UInt8], with old: [UInt8], piece: Int, resolver: ByteComparison.Resolver? = nil
    ) throws -> (matched: Int, rest: [UInt8], same: Bool, suffix: Int) {
        try old.withUnsafeBufferPointer { old throws -> (matched: Int, rest: [UInt8], same: Bool, suffix: Int) in
            let comparison = ByteComparison(old)
            comparison.resolver = resolver
            try Self.write(output, to: comparison, piece: piece)
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

    @Test("output that runs on as the old bytes after a change is found there, not kept, and reads the same")
    func followsTheOldBytes() throws {
        var random = SeededGenerator(seed: 41)
        // Text with repeats, as a list's is: lines drawn from a small set, with numbers.
        var old: [UInt8] = []
        while old.count < 700_000 {
            let k = Int.random(in: 0..<5000, using: &random)
            old += Array("- name: item \(k % 40) of \(k)\n  done: \(k % 3 == 0)\n".utf8)
        }
        for round in 0..<60 {
            var output = old
            // One to three edits: a byte changed, bytes put in or taken out, or the end cut.
            for _ in 0..<Int.random(in: 1...3, using: &random) {
                let at = Int.random(in: 0..<output.count, using: &random)
                switch Int.random(in: 0..<5, using: &random) {
                case 0: output[at] &+= 1
                case 1:
                    output.insert(
                        contentsOf: Array(repeating: 65, count: Int.random(in: 1...70_000, using: &random)), at: at)
                case 2: output.removeSubrange(at..<min(output.count, at + Int.random(in: 1...300, using: &random)))
                case 3: output.removeSubrange(at...)
                default: output += Array(output[at..<min(output.count, at + 500)])
                }
            }
            let comparison = old.withUnsafeBufferPointer { ByteComparison($0) }
            var i = 0
            while i < output.count {
                let n = Int.random(in: 1...150_000, using: &random)
                output[i..<min(i + n, output.count)].withUnsafeBufferPointer { comparison.take($0) }
                i += n
            }
            let matched = zip(output, old).prefix { $0 == $1 }.count
            let limit = min(old.count - matched, output.count - matched)
            let suffix = zip(output.reversed(), old.reversed()).prefix(limit).prefix { $0 == $1 }.count
            #expect(comparison.matched == matched, "round \(round)")
            #expect(comparison.outputCount == output.count, "round \(round)")
            let restIsTheOutput = comparison.rest == Array(output[matched...])
            #expect(restIsTheOutput, "round \(round)")
            for _ in 0..<20 where !output.isEmpty {
                let k = Int.random(in: 0..<output.count, using: &random)
                #expect(comparison.outputByte(at: k) == output[k], "round \(round)")
                let end = Int.random(in: k...output.count, using: &random)
                let piece = comparison.output(k..<end) == Array(output[k..<end])
                #expect(piece, "round \(round)")
            }
            #expect(comparison.commonSuffix() == suffix, "round \(round)")
            let taken = max(0, matched - 10)..<max(matched, output.count - suffix / 2)
            let takenIsTheOutput = comparison.takeOutput(taken) == Array(output[taken])
            #expect(takenIsTheOutput, "round \(round)")
        }

        // One change early in the file: what is kept is the change's neighbourhood, not the
        // rest of the file.
        var changed = old
        changed.replaceSubrange(1000..<1010, with: Array("renamed, longer".utf8))
        let comparison = old.withUnsafeBufferPointer { ByteComparison($0) }
        changed.withUnsafeBufferPointer { comparison.take($0) }
        #expect(comparison.keptCount < 200_000)
        #expect(comparison.outputCount == changed.count)
        #expect(comparison.commonSuffix() == old.count - 1010)

        // Markup that every item repeats, and a box ticked (one byte shorter): the place the
        // output runs on from is the nearest, not the first in reach.
        var plist: [UInt8] = []
        for k in 0..<20_000 {
            plist += Array("\t<dict>\n\t\t<key>done</key>\n\t\t<\(k == 70 ? "false" : "true")/>\n".utf8)
            plist += Array("\t\t<key>name</key>\n\t\t<string>item \(k)</string>\n\t</dict>\n".utf8)
        }
        var ticked = plist
        let box = Array("<false/>".utf8)
        let place = (0..<plist.count - 8).first { plist[$0..<$0 + 8].elementsEqual(box) }!
        ticked.replaceSubrange(place..<place + 8, with: Array("<true/>".utf8))
        let boxes = plist.withUnsafeBufferPointer { ByteComparison($0) }
        var i = 0
        while i < ticked.count {
            ticked[i..<min(i + (1 << 20), ticked.count)].withUnsafeBufferPointer { boxes.take($0) }
            i += 1 << 20
        }
        #expect(boxes.keptCount < 200_000)
        #expect(boxes.matched == place + 1)
        let restIsTheOutput = boxes.rest == Array(ticked[(place + 1)...])
        #expect(restIsTheOutput)
        // `e/>` and all after.
        #expect(boxes.commonSuffix() == plist.count - place - 5)

        // Of the places the output's end is in the old bytes, the one nearest to where it would
        // be is taken.
        let needle = Array("</dict>".utf8)
        let markup = Array("<dict>x</dict>----".utf8) + Array("<dict>y</dict>----".utf8) + Array("<dict>z</dict>".utf8)
        for (offset, nearest) in [(0, 7), (20, 25), (26, 25), (36, 43), (100, 43)] {
            let found = needle.withUnsafeBufferPointer { n in
                markup.withUnsafeBufferPointer { ByteComparison.nearest(n, to: offset, in: $0) }
            }
            #expect(found == nearest, "offset \(offset)")
        }

        // Names of a thousand `Z`s: the needle is everywhere, and the place at the offset is
        // found first, within a budget of comparisons a search from the start would spend long
        // before reaching it.
        let run = [UInt8](repeating: UInt8(ascii: "Z"), count: 1 << 17)
        let zs = [UInt8](repeating: UInt8(ascii: "Z"), count: 1024)
        for offset in [0, 1000, 65_536, (1 << 17) - 1024] {
            let found = zs.withUnsafeBufferPointer { n in
                run.withUnsafeBufferPointer { ByteComparison.nearest(n, to: offset, in: $0, budget: 1 << 16) }
            }
            #expect(found == offset)
        }
    }

    /// A JSON file as the new writer writes it: an item a line, each box as `boxes` gives
    /// it (` `, `x`, or a custom status), the fourth item with a child whose box is the last.
    static func json(_ boxes: [Character]) -> [UInt8] {
        func members(_ box: Character) -> String {
            switch box {
            case " ": #""checked": false"#
            case "x": #""checked": true"#
            default: #""checked": false, "status": "\#(box)""#
            }
        }
        var lines: [String] = []
        for i in 0..<boxes.count - 1 {
            let item = #"  {"name": "Item \#(i) 日本", \#(members(boxes[i])), "section": "S""#
            lines.append(
                i == 3
                    ? item + ", \"children\": [\n    {\"name\": \"Child\", \(members(boxes.last!))}\n  ]}" : item + "}")
        }
        return Array(("[\n" + lines.joined(separator: ",\n") + "\n]\n").utf8)
    }

    /// The changes a comparison that resolves statuses (as a streamed update into a JSON
    /// file does) finds between `old` and `output`, written in pieces of `piece` bytes; nil
    /// where a difference is no status change. The comparison reads as one without a
    /// resolver either way (`compare`).
    static func statusChanges(_ output: [UInt8], from old: [UInt8], piece: Int) throws -> [(Range<Int>, [UInt8])]? {
        let resolver = StreamedUpdate<JSONListSyntax>.statusResolver(schema: ItemSchema())
        let plain = try Self.compare(output, with: old, piece: piece)
        #expect(try Self.compare(output, with: old, piece: piece, resolver: resolver) == plain)
        return try old.withUnsafeBufferPointer { old in
            let comparison = ByteComparison(old)
            comparison.resolver = resolver
            try Self.write(output, to: comparison, piece: piece)
            guard let changes = comparison.statusChanges() else { return nil }
            return changes.ranges.indices.map { (changes.ranges[$0].old, Array(changes.new($0))) }
        }
    }

    @Test(
        "boxes changed all through, custom statuses given and taken away, a child's: each a change of status members, in pieces of any size",
        arguments: [1, 2, 5, 13, 64, 1 << 20])
    func statusChanges(piece: Int) throws {
        let old = Self.json(Array(" x/ x- x  x/"))
        let new = Self.json(Array("xx x/-  x x "))
        let changes = try #require(try Self.statusChanges(new, from: old, piece: piece))
        #expect(changes.count == 7)
        // Each the item's `checked` and `status`, on both sides.
        for (range, bytes) in changes {
            for text in [String(decoding: old[range], as: UTF8.self), String(decoding: bytes, as: UTF8.self)] {
                #expect(text.hasPrefix(#" "checked": "#) && !text.contains("section"), "\(text)")
            }
        }
        var made: [UInt8] = []
        var at = 0
        for (range, bytes) in changes {
            made += old[at..<range.lowerBound] + bytes
            at = range.upperBound
        }
        #expect(made + old[at...] == new)
        // The same list: no difference, nothing resolved.
        #expect(try Self.compare(old, with: old, piece: piece, resolver: { _, _, _, _, _ in .none }).same)
    }

    @Test(
        "a difference that is no status change, before, between or after status changes: none taken, the output kept from the first difference",
        arguments: [1, 7, 64, 1 << 20])
    func otherDifferences(piece: Int) throws {
        let old = Self.json(Array(" x/ x- x  x/"))
        let new = Self.json(Array("xx x/-  x x "))
        func replacing(_ text: [UInt8], _ from: String, _ to: String) -> [UInt8] {
            Array(String(decoding: text, as: UTF8.self).replacingOccurrences(of: from, with: to).utf8)
        }
        for output in [
            replacing(new, "Item 0 ", "Item 0a "), replacing(new, "Item 5 ", "Item 5a "),
            replacing(new, "Item 10 ", "Item 10a "), replacing(new, #""S"}"#, #""S", "n": 1}"#),
            replacing(new, "Child", "Kid"), Array(new.dropLast(3)), new + Array("x".utf8),
            replacing(new, #""checked": true, "section""#, #""checked": 1, "section""#),
            // A status taken away, and a key of the same first letters put in its place.
            replacing(
                new, #""Item 2 日本", "checked": false, "section""#,
                #""Item 2 日本", "checked": false, "stuff": 1, "section""#),
        ] {
            #expect(try Self.statusChanges(output, from: old, piece: piece) == nil)
        }
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

    @Test(
        "a file sink writes pieces gathered a thousand at a time in order, empty ones too; a memory sink as it writes each"
    )
    func gatheredPieces() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("out")
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        #expect(fd >= 0)
        defer { close(fd) }
        // Pieces of one buffer, of 0 to 36 bytes.
        let sizes = (0..<2500).map { $0 % 5 == 0 ? 0 : $0 % 37 }
        let bytes = (0..<sizes.reduce(0, +)).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        var ranges: [Range<Int>] = []
        for size in sizes { ranges.append((ranges.last?.upperBound ?? 0)..<(ranges.last?.upperBound ?? 0) + size) }
        var sink = ByteSink(descriptor: fd)
        sink.write("head,")
        bytes.withUnsafeBufferPointer { all in
            sink.write(pieces: ranges.count) { UnsafeBufferPointer(rebasing: all[ranges[$0]]) }
        }
        sink.write(",tail")
        _ = try sink.finish(path: path)
        #expect(
            Array(try Data(contentsOf: URL(fileURLWithPath: path))) == Array("head,".utf8) + bytes + Array(",tail".utf8)
        )
        var memory = ByteSink()
        bytes.withUnsafeBufferPointer { all in
            memory.write(pieces: ranges.count) { UnsafeBufferPointer(rebasing: all[ranges[$0]]) }
        }
        #expect(try memory.finish(path: "x") == bytes)
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
