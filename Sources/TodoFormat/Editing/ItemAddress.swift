import Foundation

/// How a command names an item: its position as `todofmt list` prints it (`3`, `3.2`), or
/// its exact name. A text of digits separated by dots is always a position.
public enum ItemAddress: Hashable, Sendable, CustomStringConvertible {
    /// 1-based numbers from the top level down: `[3, 2]` is the second child of item 3.
    case position([Int])
    /// The item's name, exactly.
    case name(String)

    /// `3.2` is a position, anything else a name.
    public init(_ text: String) {
        if let path = Self.path(text) { self = .position(path) } else { self = .name(text) }
    }

    /// The numbers of a position (`3.2`), or nil when `text` is not one.
    public static func path(_ text: String) -> [Int]? {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        var path: [Int] = []
        for part in parts {
            guard !part.isEmpty, part.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }), let n = Int(part), n >= 1 else {
                return nil
            }
            path.append(n)
        }
        return path.isEmpty ? nil : path
    }

    /// The address as it was given: a position (`3.2`) or a name.
    public var description: String {
        switch self {
        case .position(let path): path.map(String.init).joined(separator: ".")
        case .name(let name): "'\(name)'"
        }
    }
}

/// The items of a list in document order with their depths, as the editing commands see
/// them: a checklist's `TodoDocument`, or any other file's list.
protocol ItemOutline {
    var itemCount: Int { get }
    func depth(at index: Int) -> Int
    /// The item at `index`, without children.
    func item(at index: Int) -> TodoItem
    /// The indexes of the items whose name is `name`.
    func indexes(named name: String) -> [Int]
    /// Changes the item at `index`; returns whether it changed.
    @discardableResult
    mutating func changeItem(at index: Int, _ change: (inout TodoItem) throws -> Void) throws -> Bool
    mutating func insertItem(_ item: TodoItem, under parent: Int?, at position: Int?) throws
    mutating func removeItem(at index: Int) throws
    mutating func moveItem(at index: Int, under parent: Int?, at position: Int?) throws
}

extension ItemOutline {
    /// The index just past the last item nested in the item at `index`.
    func subtreeEnd(of index: Int) -> Int {
        let depth = self.depth(at: index)
        var end = index + 1
        while end < itemCount && self.depth(at: end) > depth { end += 1 }
        return end
    }

    /// The children of `parent` (nil: the top-level items), leaving out the items `skipping`;
    /// with `upTo`, only the first that many.
    func children(of parent: Int?, skipping: Range<Int> = 0..<0, upTo limit: Int = Int.max) -> [Int] {
        var found: [Int] = []
        let depth = parent.map { self.depth(at: $0) + 1 } ?? 0
        var i = parent.map { $0 + 1 } ?? 0
        while i < itemCount && found.count < limit {
            let d = self.depth(at: i)
            if d < depth { break }
            if skipping.contains(i) {
                i = skipping.upperBound
                continue
            }
            if d == depth { found.append(i) }
            i += 1
        }
        return found
    }

    /// The index of the item at `path`, leaving out the items `skipping` (a moved item).
    func index(at path: [Int], skipping: Range<Int> = 0..<0) -> Int? {
        var parent: Int? = nil
        for n in path {
            let children = self.children(of: parent, skipping: skipping, upTo: n)
            guard children.count == n else { return nil }
            parent = children[n - 1]
        }
        return parent
    }

    /// The position `list` prints for the item at `index`.
    func position(of index: Int) -> String {
        var path: [Int] = []
        var i = index
        while true {
            let depth = self.depth(at: i)
            var count = 1
            var j = i - 1
            var parent: Int? = nil
            while j >= 0 {
                let d = self.depth(at: j)
                if d < depth {
                    parent = j
                    break
                }
                if d == depth { count += 1 }
                j -= 1
            }
            path.append(count)
            guard let parent else { break }
            i = parent
        }
        return path.reversed().map(String.init).joined(separator: ".")
    }

    /// The one item `address` names.
    func resolve(_ address: ItemAddress, in file: String) throws -> Int {
        switch address {
        case .position(let path):
            guard let index = index(at: path) else {
                throw EditError("\(file): there is no item \(address) (the list has \(topLevelCount) top-level items)")
            }
            return index
        case .name(let name):
            let found = indexes(named: name)
            if found.count == 1 { return found[0] }
            if found.isEmpty { throw EditError("\(file): no item is named '\(name)'") }
            let listed = found.map { "  " + position(of: $0) + " " + item(at: $0).checklistText }.joined(
                separator: "\n")
            throw EditError("\(file): \(found.count) items are named '\(name)'; name one by its position:\n\(listed)")
        }
    }

    private var topLevelCount: Int {
        var n = 0
        for i in 0..<itemCount where depth(at: i) == 0 { n += 1 }
        return n
    }
}

/// An edit that cannot be made: the item is not there, a name is ambiguous, a position is
/// out of range. Nothing was written.
public struct EditError: Error, CustomStringConvertible, Sendable, LocalizedError {
    /// What is wrong, naming the items concerned with their positions.
    public var description: String
    init(_ description: String) { self.description = description }
    /// The description, for `localizedDescription`.
    public var errorDescription: String? { description }
}
