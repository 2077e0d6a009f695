/// A checklist is edited through its document: each edit changes only the lines it must.
extension TodoDocument: ItemOutline {
    var itemCount: Int { records.count }
    func depth(at index: Int) -> Int { records[index].depth }
    func item(at index: Int) -> TodoItem { entries[index].item }

    func indexes(named name: String) -> [Int] {
        var found: [Int] = []
        let wanted = Array(name.utf8)
        text.withBytes { bytes in
            for index in records.indices {
                let item = self.item(at: index, bytes: bytes)
                if item.nameStorage.utf8.elementsEqual(wanted) { found.append(index) }
            }
        }
        return found
    }

    /// Like `updateItem(at:_:)`, with the text changed in place: a million-item file is not
    /// copied for one changed item.
    mutating func changeItem(at index: Int, _ change: (inout TodoItem) throws -> Void) throws -> Bool {
        // Names of their own: a name that is a slice of the text would make the edit copy it.
        var old = entries[index].item
        old.detachName()
        var item = old
        try change(&item)
        guard item.status != old.status || item.nameStorage != old.nameStorage || item.fields != old.fields else { return false }
        item.detachName()
        let parsed = self.parsed(index)
        let (range, replacement) = text.withBytes { Self.rewrite(parsed, as: item, lineEnding: lineEnding, in: $0) }
        replace([(range, replacement)])
        return true
    }
}

/// Any other file's list, as its items in document order with their depths; made back
/// into a `TodoList` for the file's own write-back.
struct FlatList: ItemOutline, ItemSink {
    var metadata: [Field] = []
    var entries: [ItemAlignment.Entry] = []
    /// Whether an edit changed anything.
    private(set) var changed = false

    init() {}

    init(_ list: TodoList) {
        metadata = list.metadata
        entries = ItemAlignment.entries(of: list.items)
    }

    mutating func begin(metadata: [Field]) { self.metadata = metadata }

    /// An item at `depth`; a depth more than one below the item before is taken as one below it,
    /// as `ListBuilder` does.
    mutating func item(_ item: TodoItem, depth: Int) {
        let deepest = entries.last.map { $0.depth + 1 } ?? 0
        entries.append(ItemAlignment.Entry(item, depth: min(max(depth, 0), deepest)))
    }

    mutating func end() {}

    var list: TodoList {
        var builder = ListBuilder(keepingSlices: ())
        builder.begin(metadata: metadata)
        for entry in entries { builder.item(entry.item, depth: entry.depth) }
        return builder.finish()
    }

    var itemCount: Int { entries.count }
    func depth(at index: Int) -> Int { entries[index].depth }
    func item(at index: Int) -> TodoItem { entries[index].item }

    func indexes(named name: String) -> [Int] {
        entries.indices.filter { entries[$0].item.nameStorage == name[...] }
    }

    mutating func changeItem(at index: Int, _ change: (inout TodoItem) throws -> Void) throws -> Bool {
        var item = entries[index].item
        try change(&item)
        guard item != entries[index].item else { return false }
        entries[index].item = item
        changed = true
        return true
    }

    mutating func insertItem(_ item: TodoItem, under parent: Int?, at position: Int?) throws {
        let place = insertionPoint(under: parent, at: position)
        var item = item
        let depth = parent.map { entries[$0].depth + 1 } ?? 0
        if depth == 0, item.section == nil { item.section = section(before: place) }
        if depth > 0 { item.section = nil }
        entries.insert(ItemAlignment.Entry(item, depth: depth), at: place)
        changed = true
    }

    mutating func removeItem(at index: Int) throws {
        entries.removeSubrange(index..<subtreeEnd(of: index))
        changed = true
    }

    mutating func moveItem(at index: Int, under parent: Int?, at position: Int?) throws {
        let end = subtreeEnd(of: index)
        if let parent, parent >= index && parent < end {
            throw EditError("an item cannot move inside itself")
        }
        var moved = Array(entries[index..<end])
        let depth = parent.map { entries[$0].depth + 1 } ?? 0
        let shift = depth - moved[0].depth
        for k in moved.indices { moved[k].depth += shift }
        if depth > 0 { moved[0].item.section = nil }
        // The parent's index once the item is out.
        let newParent = parent.map { $0 > index ? $0 - (end - index) : $0 }
        entries.removeSubrange(index..<end)
        let place = insertionPoint(under: newParent, at: position)
        if depth == 0, moved[0].item.section == nil || shift != 0 { moved[0].item.section = section(before: place) }
        entries.insert(contentsOf: moved, at: place)
        changed = true
    }

    /// The index a new child of `parent` at `position` (0-based; nil: last) gets.
    private func insertionPoint(under parent: Int?, at position: Int?) -> Int {
        let children = self.children(of: parent)
        if let position, position < children.count { return children[max(0, position)] }
        return parent.map { subtreeEnd(of: $0) } ?? entries.count
    }

    /// The section of the top-level item before `place`, else of the one at it.
    private func section(before place: Int) -> String? {
        var i = place - 1
        while i >= 0 && entries[i].depth > 0 { i -= 1 }
        if i >= 0 { return entries[i].item.section }
        return place < entries.count ? entries[place].item.section : nil
    }
}

/// A document being edited, and whether an edit changed it.
struct EditedDocument: ItemOutline {
    var document: TodoDocument
    private(set) var changed = false

    init(document: TodoDocument) { self.document = document }

    var itemCount: Int { document.itemCount }
    func depth(at index: Int) -> Int { document.depth(at: index) }
    func item(at index: Int) -> TodoItem { document.item(at: index) }
    func indexes(named name: String) -> [Int] { document.indexes(named: name) }
    func subtreeEnd(of index: Int) -> Int { document.subtreeEnd(of: index) }

    mutating func changeItem(at index: Int, _ change: (inout TodoItem) throws -> Void) throws -> Bool {
        let itemChanged = try document.changeItem(at: index, change)
        changed = changed || itemChanged
        return itemChanged
    }

    mutating func insertItem(_ item: TodoItem, under parent: Int?, at position: Int?) throws {
        try document.insertItem(item, under: parent, at: position)
        changed = true
    }

    mutating func removeItem(at index: Int) throws {
        try document.removeItem(at: index)
        changed = true
    }

    mutating func moveItem(at index: Int, under parent: Int?, at position: Int?) throws {
        try document.moveItem(at: index, under: parent, at: position)
        changed = true
    }
}
