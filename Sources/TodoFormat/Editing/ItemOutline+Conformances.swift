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
        guard item.status != old.status || item.nameStorage != old.nameStorage || item.fields != old.fields else {
            return false
        }
        item.detachName()
        let parsed = self.parsed(index)
        let (range, replacement) = text.withBytes {
            Self.rewrite(parsed, from: old, as: item, lineEnding: lineEnding, in: $0)
        }
        replace([(range, replacement)])
        return true
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

/// Any other file's list as the reader built it (a tree), edited where its items stand: the
/// items' depths in document order say where each is, so the list is not copied into a
/// flat array to be edited (a million items would be held twice).
struct TreeList: ItemOutline {
    var list: TodoList
    /// The depth of each item, in document order.
    private(set) var depths: [Int32] = []
    /// Whether an edit changed anything.
    private(set) var changed = false
    /// The path (child indexes from 0) of the item the last move placed, while no other
    /// edit changed where items stand: the item whose order number a write changes.
    private(set) var moved: [Int]? = nil

    init(_ list: TodoList) {
        self.list = list
        var depths: [Int32] = []
        func walk(_ items: [TodoItem], _ depth: Int32) {
            for item in items {
                depths.append(depth)
                if !item.children.isEmpty { walk(item.children, depth + 1) }
            }
        }
        walk(list.items, 0)
        self.depths = depths
    }

    var itemCount: Int { depths.count }
    func depth(at index: Int) -> Int { Int(depths[index]) }

    /// The path of child indexes (from 0) from the top to the item at `index`.
    func path(of index: Int) -> [Int] {
        var path: [Int] = []
        var i = index
        var depth = depths[index]
        var count = 0
        while i >= 0 {
            // Going back: siblings at `depth` until the parent (depth - 1).
            i -= 1
            if i < 0 || depths[i] < depth {
                path.append(count)
                count = 0
                if i < 0 { break }
                depth = depths[i]
                continue
            }
            if depths[i] == depth { count += 1 }
        }
        return path.reversed()
    }

    func item(at index: Int) -> TodoItem {
        let path = self.path(of: index)
        var items = list.items
        var item = items[path[0]]
        for k in path.dropFirst() {
            items = item.children
            item = items[k]
        }
        item.children = []
        return item
    }

    func indexes(named name: String) -> [Int] {
        var found: [Int] = []
        var index = 0
        func walk(_ items: [TodoItem]) {
            for item in items {
                if item.nameStorage == name[...] { found.append(index) }
                index += 1
                if !item.children.isEmpty { walk(item.children) }
            }
        }
        walk(list.items)
        return found
    }

    /// Runs `body` on the array that holds the item at `path` (all but its last step).
    private static func withSiblings<T>(
        _ items: inout [TodoItem], _ path: ArraySlice<Int>, _ body: (inout [TodoItem]) throws -> T
    ) rethrows -> T {
        guard path.count > 1 else { return try body(&items) }
        return try withSiblings(&items[path[path.startIndex]].children, path.dropFirst(), body)
    }

    mutating func changeItem(at index: Int, _ change: (inout TodoItem) throws -> Void) throws -> Bool {
        let path = self.path(of: index)
        let last = path[path.count - 1]
        let itemChanged = try Self.withSiblings(&list.items, path[...]) { siblings -> Bool in
            let children = siblings[last].children
            var item = siblings[last]
            item.children = []
            let old = item
            try change(&item)
            guard item != old else { return false }
            item.children = children
            siblings[last] = item
            return true
        }
        changed = changed || itemChanged
        return itemChanged
    }

    /// The place among `parent`'s children (nil: the top) a new child at `position` takes,
    /// and its index in document order.
    private func place(under parent: Int?, at position: Int?) -> (child: Int, index: Int) {
        let children = self.children(of: parent)
        if let position, position < children.count { return (max(0, position), children[max(0, position)]) }
        return (children.count, parent.map { subtreeEnd(of: $0) } ?? depths.count)
    }

    /// The depths of an item and the items nested in it, from `depth`.
    private static func depths(of item: TodoItem, from depth: Int32) -> [Int32] {
        var depths: [Int32] = [depth]
        for child in item.children { depths += Self.depths(of: child, from: depth + 1) }
        return depths
    }

    mutating func insertItem(_ item: TodoItem, under parent: Int?, at position: Int?) throws {
        let (child, index) = place(under: parent, at: position)
        var item = item
        let depth = parent.map { depths[$0] + 1 } ?? 0
        if depth == 0, item.section == nil { item.section = section(before: child) }
        if depth > 0 { item.section = nil }
        let inserted = item
        if let parent {
            let path = self.path(of: parent)
            Self.withSiblings(&list.items, path[...]) { $0[path[path.count - 1]].children.insert(inserted, at: child) }
        } else {
            list.items.insert(inserted, at: child)
        }
        depths.insert(contentsOf: Self.depths(of: inserted, from: depth), at: index)
        changed = true
        moved = nil
    }

    /// Takes the item at `index` out with its nested items.
    @discardableResult
    private mutating func take(at index: Int) -> TodoItem {
        let path = self.path(of: index)
        let item = Self.withSiblings(&list.items, path[...]) { $0.remove(at: path[path.count - 1]) }
        depths.removeSubrange(index..<subtreeEnd(of: index))
        return item
    }

    mutating func removeItem(at index: Int) throws {
        take(at: index)
        changed = true
        moved = nil
    }

    mutating func moveItem(at index: Int, under parent: Int?, at position: Int?) throws {
        let end = subtreeEnd(of: index)
        if let parent, parent >= index && parent < end {
            throw EditError("an item cannot move inside itself")
        }
        let oldDepth = depths[index]
        var item = take(at: index)
        let newParent = parent.map { $0 > index ? $0 - (end - index) : $0 }
        let depth = newParent.map { depths[$0] + 1 } ?? 0
        if depth > 0 { item.section = nil }
        if depth == 0 {
            // As in a checklist: the section where it lands, unless a neighbour there has its own.
            let child = place(under: nil, at: position).child
            let before = child > 0 ? list.items[child - 1].section : nil
            let after = child < list.items.count ? list.items[child].section : nil
            let own = oldDepth == 0 ? item.section : nil
            if own == nil || (own != before && own != after) || list.items.isEmpty {
                item.section = child > 0 ? before : after
                if list.items.isEmpty { item.section = own }
            }
        }
        let moved = item
        let (child, at) = place(under: newParent, at: position)
        if let newParent {
            let path = self.path(of: newParent)
            Self.withSiblings(&list.items, path[...]) { $0[path[path.count - 1]].children.insert(moved, at: child) }
        } else {
            list.items.insert(moved, at: child)
        }
        depths.insert(contentsOf: Self.depths(of: moved, from: depth), at: at)
        changed = true
        self.moved = path(of: at)
    }

    /// The section of the top-level item before top-level place `child`, else of the one at it.
    private func section(before child: Int) -> String? {
        if child > 0 { return list.items[child - 1].section }
        return list.items.first?.section
    }
}
