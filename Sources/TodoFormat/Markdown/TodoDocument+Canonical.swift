import Foundation

extension TodoDocument {
    /// The text in canonical form: every top-level list made only of task items is
    /// rewritten with `- [ ]` markers and two spaces a level; everything else stays.
    public func canonicalMarkdown() -> String {
        if !listBlocks.contains(where: \.canonical) { return text }
        let entries = self.entries
        let bytes = Array(text.utf8)
        var lineStarts: [Int] = [0]
        for (i, b) in bytes.enumerated() where b == 10 { lineStarts.append(i + 1) }
        // Rewritten items take two spaces of content indentation, so an indented line after
        // a list could join its last item: such a list is left as it is.
        func nextTextIsIndented(after line: Int) -> Bool {
            var n = line
            while n < lineStarts.count {
                var i = lineStarts[n]
                let end = n + 1 < lineStarts.count ? lineStarts[n + 1] : bytes.count
                while i < end && (bytes[i] == 32 || bytes[i] == 9) { i += 1 }
                if i < end && bytes[i] != 10 && bytes[i] != 13 { return i > lineStarts[n] }
                n += 1
            }
            return false
        }
        let blocks = listBlocks.filter { $0.canonical && !nextTextIsIndented(after: $0.last) }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var position = 0
        var entryIndex = 0
        for block in blocks {
            let start = lineStarts[block.first - 1]
            let end = block.last < lineStarts.count ? lineStarts[block.last] : bytes.count
            out.append(contentsOf: bytes[position..<start])
            while entryIndex < entries.count && entries[entryIndex].line < block.first { entryIndex += 1 }
            var sink = ByteSink()
            while entryIndex < entries.count && entries[entryIndex].line <= block.last {
                let entry = entries[entryIndex]
                MarkdownWriter.writeLine(of: entry.item, depth: entry.depth, lineEnding: lineEnding, to: &sink)
                entryIndex += 1
            }
            out.append(contentsOf: sink.buffer)
            // A list at the very end of a file without a final newline keeps it that way.
            if end == bytes.count && bytes.last != 10 { out.removeLast(lineEnding.utf8.count) }
            position = end
        }
        out.append(contentsOf: bytes[position...])
        return String(decoding: out, as: UTF8.self)
    }
}
