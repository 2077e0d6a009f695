/// Receives what the block parser finds, in document order.
protocol BlockSink {
    mutating func item(_ item: ParsedItem)
    /// The task item reported last among those not yet ended has ended: its list item holds
    /// no line from `before` on (a byte offset of the text the parser reads: the start of the
    /// line that ended it, or the text's end).
    mutating func itemEnded(before: Int)
    /// A heading at the top level of the document (not inside a list or quote), from the line
    /// that starts at `start` to the line whose content ends at `end`.
    mutating func heading(text: String, level: Int, line: Int, start: Int, end: Int)
    /// A run of top-level list items from `firstLine` to `lastLine`; `canonicalizable` when it
    /// holds nothing but task items and their names.
    mutating func listBlock(firstLine: Int, lastLine: Int, canonicalizable: Bool)
    /// A line that looks like a task item but is not one, for `check`; `relatedLine` is the
    /// line the message names (as `{line}`), if any.
    mutating func nearMiss(line: Int, column: Int, message: String, relatedLine: Int?)
    /// A line of text inside the item that starts on `itemLine` that reads like a task item.
    mutating func taskLikeText(line: Int, column: Int, itemLine: Int, hasCheckedBox: Bool)
    /// A block of text that is no item and no top-level heading (a paragraph, code, HTML, a
    /// thematic break, a heading inside a list or quote), starting on `line`.
    mutating func textBlock(line: Int)
}

extension BlockSink {
    mutating func itemEnded(before: Int) {}
    mutating func heading(text: String, level: Int, line: Int, start: Int, end: Int) {}
    mutating func listBlock(firstLine: Int, lastLine: Int, canonicalizable: Bool) {}
    mutating func nearMiss(line: Int, column: Int, message: String, relatedLine: Int?) {}
    mutating func taskLikeText(line: Int, column: Int, itemLine: Int, hasCheckedBox: Bool) {}
    mutating func textBlock(line: Int) {}
}
