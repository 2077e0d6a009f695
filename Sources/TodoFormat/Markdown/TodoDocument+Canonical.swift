import Foundation

extension TodoDocument {
    /// The text in canonical form: every top-level list made only of task items is
    /// rewritten with `- [ ]` markers and two spaces a level; everything else stays.
    public func canonicalMarkdown() -> String {
        if !listBlocks.contains(where: \.canonical) { return text }
        return text.withBytes { canonicalMarkdown(of: $0) }
    }

    private func canonicalMarkdown(of bytes: UnsafeBufferPointer<UInt8>) -> String {
        var lineStarts: [Int] = [0]
        for (i, b) in bytes.enumerated() where b == 10 { lineStarts.append(i + 1) }
        // The first line after `line` that is not blank, if any.
        func nextTextLine(after line: Int) -> (line: Int, indented: Bool)? {
            var n = line
            while n < lineStarts.count {
                var i = lineStarts[n]
                let end = n + 1 < lineStarts.count ? lineStarts[n + 1] : bytes.count
                while i < end && (bytes[i] == 32 || bytes[i] == 9) { i += 1 }
                if i < end && bytes[i] != 10 && bytes[i] != 13 { return (n + 1, i > lineStarts[n]) }
                n += 1
            }
            return nil
        }
        // Rewritten items take two spaces of content indentation, so an indented line after
        // a list could join its last item: such a list is left as it is. Whether the text after
        // a list is indented is decided on the output, where a rewritten list starts at the
        // margin: so from the last list to the first.
        let candidates = listBlocks.filter(\.canonical)
        var rewrite = [Bool](repeating: false, count: candidates.count)
        for k in candidates.indices.reversed() {
            guard let next = nextTextLine(after: candidates[k].last) else {
                rewrite[k] = true
                continue
            }
            let nextIsRewritten = k + 1 < candidates.count && rewrite[k + 1] && next.line == candidates[k + 1].first
            rewrite[k] = nextIsRewritten || !next.indented
        }
        let blocks = candidates.indices.filter { rewrite[$0] }.map { candidates[$0] }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var position = 0
        var entryIndex = 0
        var previousEnd: (line: Int, offset: Int)? = nil
        for block in blocks {
            var start = lineStarts[block.first - 1]
            // The byte order mark before a list on the first line stays.
            if block.first == 1 { start = ByteOrderMark.length(in: bytes) }
            let end = block.last < lineStarts.count ? lineStarts[block.last] : bytes.count
            // Two rewritten lists with only blank lines between them would read as one loose
            // list, which the next run would rewrite again: they become one list now.
            if let previous = previousEnd, previous.offset == position,
                nextTextLine(after: previous.line)?.line == block.first
            {
                position = start
            }
            out.append(contentsOf: bytes[position..<start])
            while entryIndex < records.count && Int(records[entryIndex].line) < block.first { entryIndex += 1 }
            var sink = ByteSink()
            while entryIndex < records.count && Int(records[entryIndex].line) <= block.last {
                MarkdownWriter.writeLine(
                    of: item(at: entryIndex, bytes: bytes), depth: records[entryIndex].depth, lineEnding: lineEnding,
                    to: &sink)
                entryIndex += 1
            }
            out.append(contentsOf: sink.buffer)
            // A list at the very end of a file without a final newline keeps it that way.
            if end == bytes.count && bytes.last != 10 { out.removeLast(lineEnding.utf8.count) }
            position = end
            previousEnd = (block.last, end)
        }
        out.append(contentsOf: bytes[position...])
        return String(decoding: out, as: UTF8.self)
    }
}
