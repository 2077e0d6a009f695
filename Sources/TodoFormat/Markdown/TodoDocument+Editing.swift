import Foundation

/// Where an item stands among its siblings, and edits that add, remove or move one item
/// (with the items nested in it) or change the metadata: the primitives of the editing
/// commands. Each changes only the lines it must (FORMAT.md section 6), keeps the file's
/// style, and checks that the document then reads as it should; an edit that would change
/// the meaning of other text throws and changes nothing.
extension TodoDocument {
    /// The item that holds the item at `index`, nil for a top-level item.
    public func parentIndex(of index: Int) -> Int? {
        let depth = records[index].depth
        guard depth > 0 else { return nil }
        var i = index - 1
        while i >= 0 && records[i].depth >= depth { i -= 1 }
        return i >= 0 ? i : nil
    }

    /// The items directly inside `parent` (nil: the top-level items), in order.
    public func childIndexes(of parent: Int?) -> [Int] {
        var children: [Int] = []
        var i = parent.map { $0 + 1 } ?? 0
        let end = parent.map { subtreeEnd(of: $0) } ?? records.count
        let depth = parent.map { records[$0].depth + 1 } ?? 0
        while i < end {
            if records[i].depth == depth { children.append(i) }
            i += 1
        }
        return children
    }

    /// The index just past the last item nested in the item at `index`.
    public func subtreeEnd(of index: Int) -> Int {
        var end = index + 1
        while end < records.count && records[end].depth > records[index].depth { end += 1 }
        return end
    }

    /// Removes the item at `index` with the items nested in it: their lines go, with one
    /// blank line between items when the list has them.
    public mutating func removeItem(at index: Int) throws {
        let window = rootWindow(containing: index..<subtreeEnd(of: index))
        var new = entries(window)
        new.removeSubrange((index - window.lowerBound)..<(subtreeEnd(of: index) - window.lowerBound))
        try replaceItems(window, with: new)
    }

    /// Adds `item` (with its children) inside `parent` (nil: at the top) as its child at
    /// `position` (nil: after the last), in the style of its neighbours. A top-level item
    /// without a section goes into the section where it lands.
    public mutating func insertItem(_ item: TodoItem, under parent: Int?, at position: Int? = nil) throws {
        let place = insertionPoint(under: parent, at: position)
        var item = item
        if parent == nil, item.section == nil { item.section = sectionForTopLevelItem(at: place) }
        let window = rootWindow(containing: place..<place, inside: parent)
        var new = entries(window)
        let depth = parent.map { records[$0].depth + 1 } ?? 0
        new.insert(contentsOf: Self.entries(of: item, depth: depth), at: place - window.lowerBound)
        try replaceItems(window, with: new)
    }

    /// Moves the item at `index` with the items nested in it inside `parent` (nil: to the
    /// top) as its child at `position` among the other children (nil: after the last):
    /// its lines move, re-indented when its depth changes.
    public mutating func moveItem(at index: Int, under parent: Int?, at position: Int?) throws {
        let end = subtreeEnd(of: index)
        if let parent, parent >= index && parent < end {
            throw ConversionError.unsupported("\(path): an item cannot move inside itself")
        }
        let place = insertionPoint(under: parent, at: position, skipping: index..<end)
        let all = entries(index..<end)
        var moved = all
        let depth = parent.map { records[$0].depth + 1 } ?? 0
        let shift = depth - records[index].depth
        for k in moved.indices { moved[k].depth += shift }
        if parent == nil { moved[0].item.section = sectionForTopLevelItem(at: place, skipping: index..<end) }
        if shift != 0 || parent != nil { for k in moved.indices where moved[k].depth > 0 { moved[k].item.section = nil } }
        let window = rootWindow(containing: min(index, place)..<max(end, place), inside: parent)
        var new = entries(window)
        let removed = (index - window.lowerBound)..<(end - window.lowerBound)
        new.removeSubrange(removed)
        let at = place > index ? place - window.lowerBound - removed.count : place - window.lowerBound
        new.insert(contentsOf: moved, at: at)
        try replaceItems(window, with: new)
    }

    /// Sets the list's metadata: only the front matter changes (it is added, rewritten, or
    /// taken away when `metadata` is empty).
    public mutating func setMetadata(_ metadata: [Field]) throws {
        guard metadata != self.metadata else { return }
        self = try TodoDocument(
            parsing: Self.replacingFrontMatter(of: text, bodyStart: bodyStart, with: metadata, lineEnding: lineEnding), path: path)
    }

    // MARK: Helpers

    /// The index a new child of `parent` at `position` gets (among the children other than
    /// those in `skipping`).
    private func insertionPoint(under parent: Int?, at position: Int?, skipping moved: Range<Int> = 0..<0) -> Int {
        let children = childIndexes(of: parent).filter { !moved.contains($0) }
        if let position, position < children.count { return children[max(0, position)] }
        guard let parent else { return records.count }
        var end = subtreeEnd(of: parent)
        if moved.upperBound == end && moved.lowerBound > parent { end = moved.lowerBound }
        return end
    }

    /// The section a top-level item placed at `place` reads with: that of the top-level item
    /// before it, else of the one it goes before.
    /// Between two sections a moved item keeps its own when it is one of them.
    private func sectionForTopLevelItem(at place: Int, skipping moved: Range<Int> = 0..<0) -> String? {
        var before = place - 1
        while before >= 0 && (records[before].depth > 0 || moved.contains(before)) { before -= 1 }
        var after = place
        while after < records.count && (records[after].depth > 0 || moved.contains(after)) { after += 1 }
        let previous = before >= 0 ? section(of: before) : nil
        let next = after < records.count ? section(of: after) : nil
        if !moved.isEmpty, records[moved.lowerBound].depth == 0 {
            let own = section(of: moved.lowerBound)
            if (before >= 0 && own == previous) || (after < records.count && own == next) || (before < 0 && after == records.count) {
                return own
            }
        }
        if before < 0 && after == records.count { return section(before: text.utf8.count) }
        return before >= 0 ? previous : next
    }

    /// The items of whole top-level items around `range` (and `inside` an item): the window an
    /// edit rewrites.
    private func rootWindow(containing range: Range<Int>, inside parent: Int? = nil) -> Range<Int> {
        var start = min(range.lowerBound, parent ?? range.lowerBound)
        while start > 0 && start < records.count && records[start].depth > 0 { start -= 1 }
        if start == records.count, range.isEmpty, parent == nil { return start..<start }
        var end = max(range.upperBound, parent.map { subtreeEnd(of: $0) } ?? range.upperBound)
        while end < records.count && records[end].depth > 0 { end += 1 }
        return start..<end
    }

    /// The items of `range` with their depths.
    private func entries(_ range: Range<Int>) -> [ItemAlignment.Entry] {
        text.withBytes { bytes in range.map { ItemAlignment.Entry(item(at: $0, bytes: bytes), depth: records[$0].depth) } }
    }

    /// An item and its children as entries, from `depth`.
    private static func entries(of item: TodoItem, depth: Int) -> [ItemAlignment.Entry] {
        ItemAlignment.entries(of: [item]).map { ItemAlignment.Entry($0.item, depth: $0.depth + depth) }
    }

    /// Writes `new` in place of the items `window` (whole top-level items), and checks that
    /// the document reads so, with the items after the window as they were.
    private mutating func replaceItems(_ window: Range<Int>, with new: [ItemAlignment.Entry]) throws {
        if let last = text.utf8.last, last != 10 {
            var padded = try TodoDocument(parsing: text + lineEnding, path: path)
            try padded.replaceItems(window, with: new)
            var updated = padded.text
            if updated.utf8.last == 10 { updated.removeLast() }
            self = try TodoDocument(parsing: updated, path: path)
            return
        }
        guard let splice = try splice(new[...], over: window) else { return }
        let following = entries(window.upperBound..<min(records.count, window.upperBound + 32))
        let section = self.section(before: splice.range.lowerBound)
        let updated = text.withBytes { bytes in
            var out = [UInt8]()
            out.reserveCapacity(bytes.count + splice.bytes.count - splice.range.count)
            out.append(contentsOf: bytes[..<splice.range.lowerBound])
            out.append(contentsOf: splice.bytes)
            out.append(contentsOf: bytes[splice.range.upperBound...])
            return String(decoding: out, as: UTF8.self)
        }
        let document = try TodoDocument(parsing: updated, path: path)
        try document.verify(
            reads: (new + following)[...], from: window.lowerBound, section: section,
            total: records.count - window.count + new.count)
        self = document
    }
}
