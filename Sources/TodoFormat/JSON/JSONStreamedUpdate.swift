import Foundation

extension JSONFormat {
    /// `update(_:with:options:)` for a list that a reader hands to `read` as it reads it,
    /// into a file laid out as todofmt writes a new one (a file todofmt wrote, edited since):
    /// what `update` writes, without building the list or writing each item to compare it.
    ///
    /// The list goes through a new file's writer whose bytes are compared with the file's as
    /// they come (`ByteComparison`) instead of being written. Where they first differ, the
    /// file's bytes before are that writer's, one item object a line, so the top-level item
    /// there starts at the last line that opens one (`topLevelStart`); from there the file's
    /// items are scanned until one starts where the rest of the file is the rest of the
    /// output. Only the items between are read (from both) and written by
    /// `TextListPatcher.write(replacingElements:…)`, every other byte copied as it stands.
    ///
    /// Nil, with nothing written and `read` perhaps called, where this does not apply (the
    /// caller builds the list and calls `update`): a file that does not start its list as a
    /// new file does or whose items differ from the first, order fields, two items with one
    /// identity, new integer ids, a file that is not well formed after the change.
    func update(
        _ existing: Input, options: ListOptions, streaming read: (inout any ListWriter) throws -> Void
    ) throws -> PendingWrite? {
        guard let path = existing.path, let mapped = MappedFile(path: path) else { return nil }
        let old = mapped.bytes
        // A new file's writer starts the root array at the first byte.
        guard old.first == UInt8(ascii: "["),
            var patcher = try? JSONListPatcher.patcher(for: old, path: existing.name, options: options),
            !patcher.layout.hasOrder
        else { return nil }

        let comparison = ByteComparison(old)
        let writer = JSONListWriter(
            into: ByteSink(comparingWith: comparison), outputName: existing.name, layout: ItemLayout(options.schema))
        var compared: any ListWriter = ComparedWriter(
            base: DepthLimitedWriter.guarding(writer, format: .json), comparison: comparison,
            identityKey: patcher.layout.identityKey, keepsItems: { Self.topLevelStart(before: $0, in: old) != nil })
        let written: Written
        do {
            try read(&compared)
            written = try compared.finish()
        } catch is ComparedWriter.GivenUp {
            return nil
        }
        if comparison.isSame { return PendingWrite(warnings: written.warnings, commit: {}, discard: {}) }
        guard let start = Self.topLevelStart(before: comparison.matched, in: old) else { return nil }

        // The file's items from `start`, until one starts where the rest of the file is the
        // rest of the output and the output has a top-level item too (past `start`, so that
        // the run of new items is not empty). Both parsers stand at the start of a top-level
        // item there with the same bytes after: the rest is the same items.
        let suffix = comparison.commonSuffix()
        let shift = comparison.outputCount - old.count
        var spans: [Range<Int>] = []
        var runEnd = comparison.outputCount
        guard
            (try? {
                var element = start
                while true {
                    let end = try patcher.syntax.elementEnd(from: element)
                    spans.append(element..<end)
                    guard case .element(let next) = try patcher.syntax.element(after: end) else { return }
                    let there = next + shift
                    if next >= old.count - suffix, there > start, Self.isTopLevelStart(there, comparison.outputByte) {
                        runEnd = there
                        return
                    }
                    element = next
                }
            }()) != nil
        else { return nil }
        let run = comparison.output(start..<runEnd)
        guard
            let items = try? run.withUnsafeBufferPointer({
                try Self.topLevelItems(in: $0, path: existing.name, schema: options.schema)
            })
        else { return nil }

        let output = try Output.file(path)
        do {
            var sink = output.makeSink()
            guard
                let warnings = try patcher.write(
                    replacingElements: spans, with: items, itemsBefore: { Self.topLevelCount(before: start, in: old) },
                    to: &sink)
            else {
                output.discard()
                return nil
            }
            _ = try sink.finish(path: output.name)
            return PendingWrite(
                warnings: written.warnings + warnings, commit: output.commit, discard: output.discard)
        } catch {
            output.discard()
            throw error
        }
    }

    /// Where the last top-level item object that starts in the first `end` bytes of a new
    /// file's text starts: after the last line break followed by two spaces and `{` (a JSON
    /// string holds no line break, and deeper items and the list's brackets stand at other
    /// indentations). Nil when there is none.
    static func topLevelStart(before end: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        var i = end - 4
        while i >= 0 {
            if bytes[i] == 10 && bytes[i + 1] == 32 && bytes[i + 2] == 32 && bytes[i + 3] == UInt8(ascii: "{") {
                return i + 3
            }
            i -= 1
        }
        return nil
    }

    /// Whether a top-level item object starts at `offset` of a new file's text (`byte` reads it).
    static func isTopLevelStart(_ offset: Int, _ byte: (Int) -> UInt8) -> Bool {
        offset >= 3 && byte(offset) == UInt8(ascii: "{") && byte(offset - 1) == 32 && byte(offset - 2) == 32
            && byte(offset - 3) == 10
    }

    /// How many top-level items start in the first `end` bytes of a new file's text.
    static func topLevelCount(before end: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Int {
        var count = 0
        var i = 0
        while i + 3 < end, let found = memchr(bytes.baseAddress! + i, 10, end - 3 - i) {
            let at = bytes.baseAddress!.distance(to: found.assumingMemoryBound(to: UInt8.self))
            if bytes[at + 1] == 32 && bytes[at + 2] == 32 && bytes[at + 3] == UInt8(ascii: "{") { count += 1 }
            i = at + 1
        }
        return count
    }

    /// The top-level item objects of a run of a list's elements (`{…}, {…}`, perhaps
    /// followed by a separator or the list's end).
    static func topLevelItems(
        in bytes: UnsafeBufferPointer<UInt8>, path: String, schema: ItemSchema
    ) throws -> [TodoItem] {
        var scanner = JSONScanner(bytes: bytes, path: path)
        var items: [TodoItem] = []
        var arrayIDs = 0
        while true {
            scanner.skipWhitespace()
            guard scanner.position < bytes.count, scanner.peek() == UInt8(ascii: "{") else { break }
            items.append(try scanner.spannedItem(schema: schema, depth: 0, arrayIDs: &arrayIDs).item)
            scanner.skipWhitespace()
            guard scanner.position < bytes.count, scanner.peek() == UInt8(ascii: ",") else { break }
            scanner.position += 1
        }
        return items
    }
}
