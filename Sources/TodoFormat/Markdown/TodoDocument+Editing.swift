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
        if try withFinalLineEnding({ try $0.removeItem(at: index) }) { return }
        let window = rootWindow(containing: index..<subtreeEnd(of: index))
        let (new, pairing) = edited(window, removing: index..<subtreeEnd(of: index))
        try replaceItems(window, with: new, pairing: pairing)
    }

    /// Adds `item` (with its children) inside `parent` (nil: at the top) as its child at
    /// `position` (nil: after the last), in the style of its neighbours. A top-level item
    /// without a section goes into the section where it lands.
    public mutating func insertItem(_ item: TodoItem, under parent: Int?, at position: Int? = nil) throws {
        if try withFinalLineEnding({ try $0.insertItem(item, under: parent, at: position) }) { return }
        let place = insertionPoint(under: parent, at: position)
        var item = item
        if parent == nil, item.section == nil { item.section = sectionForTopLevelItem(at: place) }
        let window = rootWindow(containing: place..<place, inside: parent)
        let depth = parent.map { records[$0].depth + 1 } ?? 0
        let (new, pairing) = edited(window, inserting: Self.entries(of: item, depth: depth), at: place)
        try replaceItems(window, with: new, pairing: pairing)
    }

    /// Moves the item at `index` with the items nested in it inside `parent` (nil: to the
    /// top) as its child at `position` among the other children (nil: after the last):
    /// its lines move, re-indented when its depth changes.
    public mutating func moveItem(at index: Int, under parent: Int?, at position: Int?) throws {
        if try withFinalLineEnding({ try $0.moveItem(at: index, under: parent, at: position) }) { return }
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
        if shift != 0 || parent != nil {
            for k in moved.indices where moved[k].depth > 0 { moved[k].item.section = nil }
        }
        // Far apart: the item's lines go from one window and come into another.
        let from = rootWindow(containing: index..<end)
        let to = rootWindow(containing: place..<place, inside: parent)
        let between =
            from.upperBound < to.lowerBound
            ? from.upperBound..<to.lowerBound
            : to.upperBound < from.lowerBound ? to.upperBound..<from.lowerBound : nil
        if let between, between.contains(where: { records[$0].depth == 0 }) {
            try moveApart(index..<end, from: from, moved: moved, to: to, at: place)
            return
        }
        let window = rootWindow(containing: min(index, place)..<max(end, place), inside: parent)
        let (new, pairing) = edited(window, removing: index..<end, inserting: moved, at: place)
        try replaceItems(window, with: new, pairing: pairing)
    }

    /// Sets the list's metadata: only the front matter changes (it is added, rewritten, or
    /// taken away when `metadata` is empty).
    public mutating func setMetadata(_ metadata: [Field]) throws {
        guard metadata != self.metadata else { return }
        self = try TodoDocument(
            parsing: try Self.replacingFrontMatter(
                of: text, bodyStart: bodyStart, with: metadata, lineEnding: lineEnding),
            path: path)
    }

    /// Moves the items `subtree` (from the window `from`) into the window `to` at item index
    /// `place`, as `moved`: two windows written at once, the moved lines taken from the first.
    private mutating func moveApart(
        _ subtree: Range<Int>, from: Range<Int>, moved: [ItemAlignment.Entry], to: Range<Int>, at place: Int
    ) throws {
        let (newFrom, fromPairing) = edited(from, removing: subtree)
        let (newTo, toPairing) = edited(to, inserting: moved, from: subtree, at: place)
        let removal = try splice(newFrom[...], over: from, pairing: fromPairing)
        let arrival = try splice(newTo[...], over: to, movingIn: subtree, pairing: toPairing)
        var edits = [removal, arrival].compactMap { $0 }.sorted { $0.range.lowerBound < $1.range.lowerBound }
        if edits.count == 2 && edits[0].range.upperBound > edits[1].range.lowerBound {
            // The windows' text meets: one window over both.
            let window = min(from.lowerBound, to.lowerBound)..<max(from.upperBound, to.upperBound)
            let (new, pairing) = edited(window, removing: subtree, inserting: moved, at: place)
            try replaceItems(window, with: new, pairing: pairing)
            return
        }
        guard !edits.isEmpty else { return }
        // Afterwards: each window's items where they now stand, the same number of items.
        let total = records.count
        let firstIsFrom = from.lowerBound < to.lowerBound
        let checks: [(first: Int, entries: [ItemAlignment.Entry], section: String?)] =
            firstIsFrom
            ? [(from.lowerBound, newFrom, sectionAt(from)), (to.lowerBound - subtree.count, newTo, sectionAt(to))]
            : [(to.lowerBound, newTo, sectionAt(to)), (from.lowerBound + moved.count, newFrom, sectionAt(from))]
        edits = edits.map { ($0.range, $0.bytes) }
        // Where the moved lines went from: the item before them (an item that comes in
        // is checked with its window's).
        let before = itemBefore(from, shift: firstIsFrom ? 0 : moved.count)
        try replaceChecked(edits) { document in
            for check in checks {
                try document.verify(reads: check.entries[...], from: check.first, section: check.section, total: total)
            }
            try before?(document, total)
        }
    }

    /// The section before the window of items `window`.
    private func sectionAt(_ window: Range<Int>) -> String? {
        var before = window.lowerBound - 1
        while before >= 0 && records[before].depth > 0 { before -= 1 }
        return before >= 0 ? section(before: records[before].extentEnd) : section(before: bodyStart)
    }

    // MARK: Helpers

    /// After a last line without a line ending, new lines need one: `edit` runs on the text
    /// with one, which is then taken away again. Returns false when the text has one already.
    private mutating func withFinalLineEnding(_ edit: (inout TodoDocument) throws -> Void) throws -> Bool {
        guard let last = text.utf8.last, last != 10 else { return false }
        var padded = try TodoDocument(parsing: text + lineEnding, path: path)
        try edit(&padded)
        var updated = padded.text
        if updated.utf8.last == 10 { updated.removeLast() }
        self = try TodoDocument(parsing: updated, path: path)
        return true
    }

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
            if (before >= 0 && own == previous) || (after < records.count && own == next)
                || (before < 0 && after == records.count)
            {
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
    /// Their names are strings of their own, so that the text they were read from is not
    /// held while the edit changes it (which would copy the whole text).
    private func entries(_ range: Range<Int>) -> [ItemAlignment.Entry] {
        text.withBytes { bytes in
            range.map {
                var item = item(at: $0, bytes: bytes)
                item.detachName()
                return ItemAlignment.Entry(item, depth: records[$0].depth)
            }
        }
    }

    /// The items of `window` with `removed` (items of it) taken out and `inserted` put in at
    /// item index `place` (counted before the removal), and the record each is: the
    /// pairing a splice takes, so that an item keeps its own lines where another has its
    /// name. `inserted` are the items `removed` where they move (`from` them elsewhere in
    /// the text, for a move between windows), else new.
    private func edited(
        _ window: Range<Int>, removing removed: Range<Int> = 0..<0, inserting inserted: [ItemAlignment.Entry] = [],
        from origin: Range<Int>? = nil, at place: Int = 0
    ) -> (entries: [ItemAlignment.Entry], pairing: [Int?]) {
        var new = entries(window)
        var pairing: [Int?] = Array(window)
        if !removed.isEmpty {
            let local = (removed.lowerBound - window.lowerBound)..<(removed.upperBound - window.lowerBound)
            new.removeSubrange(local)
            pairing.removeSubrange(local)
        }
        guard !inserted.isEmpty else { return (new, pairing) }
        let at = place - window.lowerBound - (place > removed.lowerBound ? removed.count : 0)
        new.insert(contentsOf: inserted, at: at)
        let records: [Int?] =
            (origin ?? (removed.isEmpty ? nil : removed)).map { Array($0) }
            ?? Array(repeating: nil, count: inserted.count)
        pairing.insert(contentsOf: records, at: at)
        return (new, pairing)
    }

    /// An item and its children as entries, from `depth`.
    private static func entries(of item: TodoItem, depth: Int) -> [ItemAlignment.Entry] {
        ItemAlignment.entries(of: [item]).map { ItemAlignment.Entry($0.item, depth: $0.depth + depth) }
    }

    /// Writes `new` in place of the items `window` (whole top-level items), and checks that
    /// the document reads so, with the items after the window as they were.
    private mutating func replaceItems(_ window: Range<Int>, with new: [ItemAlignment.Entry], pairing: [Int?]? = nil)
        throws
    {
        guard let splice = try splice(new[...], over: window, pairing: pairing) else { return }
        let following = entries(window.upperBound..<min(records.count, window.upperBound + 32))
        let section = self.section(before: splice.range.lowerBound)
        let total = records.count - window.count + new.count
        let before = itemBefore(window)
        try replaceChecked([splice]) { document in
            try document.verify(reads: (new + following)[...], from: window.lowerBound, section: section, total: total)
            try before?(document, total)
        }
    }

    /// A check that the item just before `window` (nested or not) reads as it did after the
    /// window's lines are replaced: text that followed lines that went can join its paragraph
    /// (`- [ ] a` and then `Prose`, where a removed item's code block had stood between
    /// them), and its name would take that text in (helper hunt 100).
    /// `shift` is how many items more stand before it after the edit.
    private func itemBefore(_ window: Range<Int>, shift: Int = 0) -> ((TodoDocument, Int) throws -> Void)? {
        guard window.lowerBound > 0 else { return nil }
        let index = window.lowerBound - 1
        let entry = entries(index..<window.lowerBound)
        let section = records[index].depth == 0 ? self.section(of: index) : nil
        return { document, total in
            try document.verify(reads: entry[...], from: index + shift, section: section, total: total)
        }
    }

    /// Replaces byte ranges of the text, then checks the document with `check`; when the check
    /// throws, the text goes back to what it was.
    mutating func replaceChecked(_ edits: [(range: Range<Int>, bytes: [UInt8])], check: (TodoDocument) throws -> Void)
        throws
    {
        var undo: [(range: Range<Int>, bytes: [UInt8])] = []
        var shift = 0
        text.withBytes { bytes in
            for edit in edits {
                undo.append(
                    (
                        (edit.range.lowerBound + shift)..<(edit.range.lowerBound + shift + edit.bytes.count),
                        Array(bytes[edit.range])
                    ))
                shift += edit.bytes.count - edit.range.count
            }
        }
        replace(edits)
        do {
            try check(self)
        } catch {
            replace(undo)
            throw error
        }
    }
}
