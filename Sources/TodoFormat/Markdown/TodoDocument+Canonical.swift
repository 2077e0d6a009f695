import Foundation

extension TodoDocument {
    /// The text in canonical form: every top-level list made only of task items is
    /// rewritten with `- [ ]` markers and two spaces a level; everything else stays.
    public func canonicalMarkdown() -> String {
        if !listBlocks.contains(where: \.canonical) { return text }
        return text.withBytes { bytes in
            // The items and list blocks the document holds, handed to the writer as the parser
            // hands them (`ChecklistFormatting`): each list's items, then the list.
            var writer = CanonicalFormWriter(text: bytes, parsedFrom: 0, lineEnding: lineEnding, into: ByteSink())
            var index = 0
            for block in listBlocks {
                while index < records.count && Int(records[index].line) < block.first { index += 1 }
                while index < records.count && Int(records[index].line) <= block.last {
                    if block.canonical { writer.item(parsed(index)) }
                    index += 1
                }
                writer.listBlock(firstLine: block.first, lastLine: block.last, canonicalizable: block.canonical)
            }
            writer.finish()
            return writer.output.withBytes { String(decoding: $0, as: UTF8.self) }
        }
    }
}
