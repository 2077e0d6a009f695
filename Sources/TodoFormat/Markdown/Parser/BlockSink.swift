/// Receives what the block parser finds, in document order.
protocol BlockSink {
    mutating func item(_ item: ParsedItem)
    /// A heading at the top level of the document (not inside a list or quote).
    mutating func heading(text: String, level: Int, line: Int)
    /// A run of top-level list items from `firstLine` to `lastLine`; `canonicalizable` when it
    /// holds nothing but task items and their names.
    mutating func listBlock(firstLine: Int, lastLine: Int, canonicalizable: Bool)
    /// A line that looks like a task item but is not one, for `check`.
    mutating func nearMiss(line: Int, column: Int, message: String)
    /// A line of text inside the item that starts on `itemLine` that reads like a task item.
    mutating func taskLikeText(line: Int, column: Int, itemLine: Int, hasCheckedBox: Bool)
}

extension BlockSink {
    mutating func heading(text: String, level: Int, line: Int) {}
    mutating func listBlock(firstLine: Int, lastLine: Int, canonicalizable: Bool) {}
    mutating func nearMiss(line: Int, column: Int, message: String) {}
    mutating func taskLikeText(line: Int, column: Int, itemLine: Int, hasCheckedBox: Bool) {}
}
