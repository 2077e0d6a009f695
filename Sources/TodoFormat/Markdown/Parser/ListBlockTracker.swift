/// Follows the runs of top-level list items for `fmt`, which rewrites a list block in the
/// canonical form only when it holds nothing but task items and their names.
///
/// A list block is one CommonMark list at the top level of the document: a run of items
/// with the same bullet or ordered delimiter. The parser tells the tracker what it opens and
/// where; the tracker hands back each list block as it ends.
struct ListBlockTracker {
    /// A run of top-level list items, `firstLine...lastLine`.
    struct ListBlock {
        var firstLine: Int
        var lastLine: Int
        /// Nothing but task items and their name paragraphs.
        var canonicalizable: Bool
    }

    /// The list block so far; nil between list blocks.
    private var current: ListBlock?
    /// The bullet or delimiter of the current list block's items.
    private var listChar: UInt8 = 0

    /// Whether a list block is open.
    var isOpen: Bool { current != nil }

    /// A block opened on `line` as a child of the document (`atTopLevel`) or deeper; returns
    /// the list block that this ends, if any.
    mutating func opened(_ block: OpenBlock, atTopLevel: Bool, line: Int) -> ListBlock? {
        guard case .listItem(let item) = block else {
            if atTopLevel { return end() }
            current?.canonicalizable = false
            return nil
        }
        guard atTopLevel else {
            if !item.isTask { current?.canonicalizable = false }
            return nil
        }
        // Each list is its own block: another bullet or delimiter starts a new list.
        let ended = item.listChar != listChar ? end() : nil
        listChar = item.listChar
        if current == nil { current = ListBlock(firstLine: line, lastLine: line, canonicalizable: true) }
        if !item.isTask { current?.canonicalizable = false }
        return ended
    }

    /// A leaf block (a paragraph, heading or thematic break) added to the document
    /// (`atTopLevel`) or deeper; `isItemName` when it is the name paragraph of a task item
    /// opened on this line. Returns the list block that this ends, if any.
    mutating func addedLeaf(atTopLevel: Bool, isItemName: Bool) -> ListBlock? {
        if atTopLevel { return end() }
        // Anything but a name paragraph inside a top-level list.
        if !isItemName { current?.canonicalizable = false }
        return nil
    }

    /// A paragraph inside the document's blocks became a setext heading.
    mutating func paragraphBecameHeading() {
        current?.canonicalizable = false
    }

    /// Records `line`, which is not blank, as the list block's last line so far.
    mutating func noteContent(onLine line: Int) {
        current?.lastLine = line
    }

    /// Ends the list block, if one is open, and returns it.
    mutating func end() -> ListBlock? {
        defer { current = nil }
        return current
    }
}
