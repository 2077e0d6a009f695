import Foundation

/// Which items of an existing file each top-level item of a list written into it continues,
/// found cheaply for the common case of a few changes in a long list: top-level items are
/// compared one by one from the start and from the end (each format compares them as
/// cheaply as it can), and only those between (the middle) go through `ItemAlignment`.
struct ListRewrite {
    let oldCount: Int
    let newCount: Int
    /// How many top-level items at the start, and at the end, are the file's items unchanged.
    private(set) var prefix = 0
    private(set) var suffix = 0

    /// Compares the list's top-level items with the file's: `isSame(k, item)` says whether
    /// the file's top-level item `k` (with its children) is `item`.
    init(oldCount: Int, new items: [TodoItem], isSame: (Int, TodoItem) throws -> Bool) rethrows {
        self.oldCount = oldCount
        newCount = items.count
        let shorter = min(oldCount, newCount)
        while prefix < shorter, try isSame(prefix, items[prefix]) { prefix += 1 }
        while suffix < shorter - prefix, try isSame(oldCount - 1 - suffix, items[newCount - 1 - suffix]) { suffix += 1 }
    }

    /// The same, with the unchanged start already found (`prefix` items).
    init(prefix: Int, oldCount: Int, new items: [TodoItem], isSame: (Int, TodoItem) throws -> Bool) rethrows {
        self.oldCount = oldCount
        newCount = items.count
        self.prefix = min(prefix, oldCount, newCount)
        let shorter = min(oldCount, newCount)
        while suffix < shorter - self.prefix, try isSame(oldCount - 1 - suffix, items[newCount - 1 - suffix]) {
            suffix += 1
        }
    }

    /// Counts found by the caller.
    init(prefix: Int, suffix: Int, oldCount: Int, newCount: Int) {
        self.oldCount = oldCount
        self.newCount = newCount
        self.prefix = prefix
        self.suffix = suffix
    }

    /// The file's top-level items between the unchanged start and end.
    var oldMiddle: Range<Int> { prefix..<(oldCount - suffix) }
    /// The list's top-level items between the unchanged start and end.
    var newMiddle: Range<Int> { prefix..<(newCount - suffix) }

    /// The file's top-level item that new top-level item `i` (outside the middle) continues.
    func oldIndex(ofOuter i: Int) -> Int { i < prefix ? i : i - newCount + oldCount }

    /// The list with order fields renumbered (FORMAT.md, section 7.6) in the direction the
    /// file's values run; nil when the file's items have no order field, or no item has one.
    static func renumbered(_ items: [TodoItem], layout: ItemLayout) -> [TodoItem]? {
        guard layout.hasOrder || layout.itemCount == 0 else { return nil }
        func hasOrder(_ items: [TodoItem]) -> Bool {
            items.contains { item in
                item.fields.contains { layout.schema.role(of: $0.key) == .order } || hasOrder(item.children)
            }
        }
        guard hasOrder(items) else { return nil }
        return Ordering.renumbered(items, schema: layout.schema, descending: layout.orderDescending)
    }

    /// Fails when two items carry the same identity (`key`): the checklist has an item twice
    /// (a line duplicated in an editor), and writing both would overwrite one with the other.
    /// The error (`DuplicateIdentity`) counts the items in document order, as the checklist's
    /// lines stand, so that the conversion can name both lines.
    static func checkIdentities(_ items: [TodoItem], key: String, path: String) throws {
        var seen: [FieldValue: Int] = [:]
        var index = 0
        func walk(_ items: [TodoItem]) throws {
            for item in items {
                if let value = item.fields[key: key], value != .null {
                    if let first = seen[value] {
                        throw DuplicateIdentity(identity: value, first: first, second: index, key: key)
                    }
                    seen[value] = index
                }
                index += 1
                try walk(item.children)
            }
        }
        try walk(items)
    }
}

/// The middle of a `ListRewrite`: the file's items there and the list's, in document order
/// with their depths, aligned (by `identityKey` where the file's items have one).
struct MiddleAlignment {
    let oldEntries: [ItemAlignment.Entry]
    let newEntries: [ItemAlignment.Entry]
    let alignment: ItemAlignment

    init(old: [TodoItem], new: [TodoItem], identityKey: String?) {
        oldEntries = ItemAlignment.entries(of: old)
        newEntries = ItemAlignment.entries(of: new)
        let identity: ((TodoItem) -> FieldValue?)? = identityKey.map { key in { $0.fields[key: key] } }
        // Duplicates were refused before (`ListRewrite.checkIdentities`); without an identity
        // nothing can throw.
        // Items at another depth stand in another array, at another indentation: a leftover
        // is a change of an item at its own depth only.
        alignment =
            (try? ItemAlignment(old: oldEntries, new: newEntries, identity: identity, leftoversAtSameDepth: true))
            ?? (try! ItemAlignment(old: oldEntries, new: newEntries, leftoversAtSameDepth: true))
    }
}
