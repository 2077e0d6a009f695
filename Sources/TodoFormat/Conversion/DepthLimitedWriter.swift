/// A writer that refuses items nested deeper than todofmt reads (`Limits.itemLevels`), so
/// that it never writes a file it cannot read back; the refusal comes before anything is
/// committed.
struct DepthLimitedWriter: ListWriter {
    var base: any ListWriter

    mutating func begin(metadata: [Field]) throws { try base.begin(metadata: metadata) }

    mutating func item(_ item: TodoItem, depth: Int) throws {
        guard depth < Limits.itemLevels else { throw ConversionError.unsupported(Limits.itemDepthMessage) }
        try base.item(item, depth: depth)
    }

    mutating func end() throws { try base.end() }
    mutating func finish() throws -> Written { try base.finish() }
}

extension TodoList {
    /// Refuses a list nested deeper than todofmt reads.
    func checkDepth() throws {
        func check(_ items: [TodoItem], _ depth: Int) throws {
            for item in items where !item.children.isEmpty {
                guard depth + 1 < Limits.itemLevels else { throw ConversionError.unsupported(Limits.itemDepthMessage) }
                try check(item.children, depth + 1)
            }
        }
        try check(items, 0)
    }
}
