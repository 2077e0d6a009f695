/// An ordered todo list with its metadata: what every format reads into and writes from.
public struct TodoList: Hashable, Sendable {
    /// List-level key/values (a Markdown file's front matter), in order.
    public var metadata: [Field]
    /// The top-level items in order; nested items are their `children`.
    public var items: [TodoItem]

    /// A list of items with optional metadata.
    public init(metadata: [Field] = [], items: [TodoItem] = []) {
        self.metadata = metadata
        self.items = items
    }

    /// Every item in document order, with its depth (0 for top-level items).
    public func flattened() -> [(item: TodoItem, depth: Int)] {
        var result: [(TodoItem, Int)] = []
        func walk(_ items: [TodoItem], _ depth: Int) {
            for item in items {
                result.append((item, depth))
                walk(item.children, depth + 1)
            }
        }
        walk(items, 0)
        return result
    }
}
