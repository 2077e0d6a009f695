import Foundation

/// One editing command's change of a list (`todofmt add`, `done`, `mv`…), in terms of
/// items as `todofmt list` shows them. `apply(to:)` makes it on a checklist's document
/// (changing only the lines it must) or on any other file's list (written back by the
/// file's minimal-change update); `FileEdit` does either on a file.
public enum Edit: Hashable, Sendable {
    /// A new open item named `name`: under `under` (nil: at the top level) at `at`, which
    /// is, under an item, the child's number (`[2]`: its second child), else the whole
    /// position the item gets (`[3, 1]`: the first child of item 3); nil: after the last.
    case add(name: String, under: ItemAddress?, at: [Int]?)
    /// The items become done (`[x]`).
    case check([ItemAddress])
    /// The items become open (`[ ]`), from done or any custom status.
    case uncheck([ItemAddress])
    /// Done items become open, any other (open or custom) done.
    case toggle([ItemAddress])
    /// The item's name becomes `to`; its status, fields and children stay.
    case rename(ItemAddress, to: String)
    /// The items go, with the items nested in them.
    case remove([ItemAddress])
    /// The item, with the items nested in it, moves to where `list` then shows it at `to`.
    case move(ItemAddress, to: [Int])
    /// Fields set on the item: a key it has keeps its place and takes the value, a new key
    /// is added after its fields.
    case set(ItemAddress, [Field])
    /// The item's fields with these keys go (a key it does not have is no error).
    case unset(ItemAddress, [String])

    /// Makes the edit on `outline`; `file` names the file in errors. Every item is found
    /// before anything changes; an item that is not there, or a name that several items
    /// have, is an error and nothing changes.
    func apply<O: ItemOutline>(to outline: inout O, file: String) throws {
        switch self {
        case .add(let name, let under, let at):
            let parent: Int?
            var position: Int?
            if let under {
                parent = try outline.resolve(under, in: file)
                position = try at.map { path in
                    guard path.count == 1 else {
                        throw EditError("--at under an item is the child's number (1, 2…), not \(Self.text(path))")
                    }
                    return path[0] - 1
                }
            } else if let at {
                (parent, position) = try Self.place(at, in: outline, skipping: 0..<0, file: file)
            } else {
                parent = nil
            }
            if let p = position, p >= outline.children(of: parent).count { position = nil }
            try outline.insertItem(TodoItem(name: name), under: parent, at: position)
        case .check(let addresses):
            try Self.setStatus(addresses, in: &outline, file: file) { _ in .done }
        case .uncheck(let addresses):
            try Self.setStatus(addresses, in: &outline, file: file) { _ in .open }
        case .toggle(let addresses):
            try Self.setStatus(addresses, in: &outline, file: file) { $0 == .done ? .open : .done }
        case .rename(let address, let name):
            let index = try outline.resolve(address, in: file)
            try outline.changeItem(at: index) { $0.name = name }
        case .remove(let addresses):
            let indexes = Set(try addresses.map { try outline.resolve($0, in: file) }).sorted()
            // From the last, so that earlier indexes stay (an item inside another goes first).
            for index in indexes.reversed() { try outline.removeItem(at: index) }
        case .move(let address, let to):
            let index = try outline.resolve(address, in: file)
            let end = outline.subtreeEnd(of: index)
            let (parent, position) = try Self.place(to, in: outline, skipping: index..<end, file: file)
            try outline.moveItem(at: index, under: parent, at: position)
        case .set(let address, let fields):
            let index = try outline.resolve(address, in: file)
            for field in fields { try Self.checkField(field.key, nested: outline.depth(at: index) > 0) }
            try outline.changeItem(at: index) { item in
                for field in fields {
                    if let k = item.fields.firstIndex(where: { $0.key == field.key }) {
                        item.fields[k].value = field.value
                    } else {
                        item.fields.append(field)
                    }
                }
            }
        case .unset(let address, let keys):
            let index = try outline.resolve(address, in: file)
            try outline.changeItem(at: index) { item in item.fields.removeAll { keys.contains($0.key) } }
        }
    }

    /// The top-level item (from 0) that holds every item the edits change, when each edit
    /// changes items where they stand (status, name, fields) and names them by position;
    /// with the edits made on that item alone (as item 1 of a list of it). Nil for edits
    /// that add, remove or move items, or name an item (every name must then be known).
    static func inOneTopLevelItem(_ edits: [Edit]) -> (index: Int, edits: [Edit])? {
        var index: Int? = nil
        func rebased(_ address: ItemAddress) -> ItemAddress? {
            guard case .position(let path) = address, index == nil || index == path[0] - 1 else { return nil }
            index = path[0] - 1
            return .position([1] + path.dropFirst())
        }
        func rebased(_ addresses: [ItemAddress]) -> [ItemAddress]? {
            let all = addresses.compactMap(rebased)
            return all.count == addresses.count ? all : nil
        }
        var made: [Edit] = []
        for edit in edits {
            let one: Edit?
            switch edit {
            case .check(let addresses): one = rebased(addresses).map(Edit.check)
            case .uncheck(let addresses): one = rebased(addresses).map(Edit.uncheck)
            case .toggle(let addresses): one = rebased(addresses).map(Edit.toggle)
            case .rename(let address, let name): one = rebased(address).map { .rename($0, to: name) }
            case .set(let address, let fields): one = rebased(address).map { .set($0, fields) }
            case .unset(let address, let keys): one = rebased(address).map { .unset($0, keys) }
            case .add, .remove, .move: one = nil
            }
            guard let one else { return nil }
            made.append(one)
        }
        return index.map { ($0, made) }
    }

    /// For one edit that adds, removes or moves an item named by position: given the
    /// list's count of top-level items, the run of them that holds every item the edit
    /// touches, with the item before the place an item goes to (whose section a top-level
    /// item takes) and one more item on either side (so that the run holds the gaps the
    /// file has between items, which a written item copies), and the edit made on that run
    /// alone (as a list of it, positions rebased). The run's items are then all that change
    /// (`ListFormat.updateItems`). Nil for anything else, and for a count the edit does not
    /// fit (the whole list is read then, and says the error as it says it).
    static func inTopLevelRun(_ edits: [Edit]) -> ((Int) -> (run: Range<Int>, edit: Edit)?)? {
        guard edits.count == 1 else { return nil }
        func path(_ address: ItemAddress?) -> [Int]? {
            guard case .position(let path)? = address, let first = path.first, first >= 1 else { return nil }
            return path
        }
        func rebased(_ path: [Int], by offset: Int) -> [Int] { [path[0] - offset] + path.dropFirst() }
        // The items the edit touches (from 0, `first...last`), and the edit on a run starting
        // at a given item; nil where the edit does not fit the count.
        let touched: (Int) -> (first: Int, last: Int, edit: (Int) -> Edit)?
        switch edits[0] {
        case .add(_, nil, nil):
            touched = { count in count > 0 ? (count - 1, count - 1, { _ in edits[0] }) : nil }
        case .add(let name, nil, let at?):
            guard let at = path(.position(at)) else { return nil }
            touched = { count in
                let k = at[0] - 1
                if k == count && at.count == 1 && count > 0 {
                    return (count - 1, count - 1, { _ in .add(name: name, under: nil, at: nil) })
                }
                guard k < count else { return nil }
                return (max(0, k - 1), k, { .add(name: name, under: nil, at: rebased(at, by: $0)) })
            }
        case .add(let name, let under?, let at):
            guard let under = path(under) else { return nil }
            touched = { count in
                let k = under[0] - 1
                guard k < count else { return nil }
                return (k, k, { .add(name: name, under: .position(rebased(under, by: $0)), at: at) })
            }
        case .remove(let addresses):
            guard addresses.count == 1, let item = path(addresses[0]) else { return nil }
            touched = { count in
                let k = item[0] - 1
                // A top-level item goes from a run that keeps another.
                guard k < count, item.count > 1 || count > 1 else { return nil }
                return (k, k, { .remove([.position(rebased(item, by: $0))]) })
            }
        case .move(let address, let to):
            guard let item = path(address), let to = path(.position(to)) else { return nil }
            touched = { count in
                let a = item[0] - 1
                let d = to[0] - 1
                guard a < count, d <= count else { return nil }
                // Position d counts the items without the moved one: moving down, it is the
                // item after d's in the list as it stands.
                return (
                    max(0, min(a, d) - 1), min(max(a, d + 1), count - 1),
                    { .move(.position(rebased(item, by: $0)), to: rebased(to, by: $0)) }
                )
            }
        default:
            return nil
        }
        return { count in
            guard let (first, last, edit) = touched(count) else { return nil }
            let lower = max(0, first - 1)
            return (lower..<min(count, last + 2), edit(lower))
        }
    }

    /// Sets the status of each item (once, however often it is named).
    private static func setStatus<O: ItemOutline>(
        _ addresses: [ItemAddress], in outline: inout O, file: String, _ status: (TodoStatus) -> TodoStatus
    ) throws {
        let indexes = Set(try addresses.map { try outline.resolve($0, in: file) }).sorted()
        for index in indexes {
            try outline.changeItem(at: index) { $0.status = status($0.status) }
        }
    }

    /// The parent and the 0-based place among its children (nil: last) of position `path`,
    /// the items `skipping` (a moved item) left out.
    private static func place<O: ItemOutline>(
        _ path: [Int], in outline: O, skipping: Range<Int>, file: String
    ) throws -> (parent: Int?, position: Int?) {
        var parent: Int? = nil
        if path.count > 1 {
            guard let found = outline.index(at: Array(path.dropLast()), skipping: skipping) else {
                throw EditError("\(file): there is no item \(text(path.dropLast())) to put an item under")
            }
            parent = found
        }
        let count = outline.children(of: parent, skipping: skipping).count
        let n = path[path.count - 1]
        guard n >= 1, n <= count + 1 else {
            let under = parent == nil ? "at the top level" : "under item \(text(path.dropLast()))"
            throw EditError(
                "\(file): position \(text(path)) is beyond the end: there are \(count) items \(under), so at most \(text(path.dropLast() + [count + 1]))"
            )
        }
        return (parent, n - 1 == count ? nil : n - 1)
    }

    static func text<C: Collection<Int>>(_ path: C) -> String { path.map(String.init).joined(separator: ".") }

    /// `set` changes fields: the keys that are the item's name, status or nesting are refused,
    /// and a section unless the item is `nested` (only top-level items have sections; a
    /// nested item's `section` is a field).
    public static func checkField(_ key: String, nested: Bool) throws {
        guard !key.isEmpty else { throw EditError("a field needs a key") }
        switch ItemSchema.standard.role(of: key) {
        case .name?: throw EditError("'\(key)' is the item's name: use rename")
        case .checked?, .status?: throw EditError("'\(key)' is the item's status: use done, undo or toggle")
        case .children?, .fields?: throw EditError("'\(key)' is not a field todofmt sets")
        case .section? where !nested:
            throw EditError("'\(key)' is a top-level item's section, not a field todofmt sets")
        default: break
        }
    }

    /// A field's value written as in a checklist (FORMAT.md section 4.2): `2` an integer,
    /// `true` a boolean, `2024-06-01T09:00:00Z` a date, `"7"` (JSON string syntax) a string,
    /// `[1, 2]` an array, `{"a": 1}` a dictionary, `<00ff>` data; anything else is the string
    /// as it stands (empty too).
    public static func fieldValue(_ text: String) throws -> FieldValue {
        let bytes = Array(text.utf8)
        guard let first = bytes.first else { return .string("") }
        switch first {
        case UInt8(ascii: "\""), UInt8(ascii: "["), UInt8(ascii: "{"), UInt8(ascii: "<"):
            let parsed = bytes.withUnsafeBufferPointer { bytes -> FieldValue? in
                var cursor = FieldSyntax.Cursor(bytes: bytes, position: 0)
                guard let value = cursor.parseValue(), cursor.position == bytes.count else { return nil }
                return value
            }
            guard let value = parsed else {
                throw EditError(
                    "'\(text)' is not a value: a value starting with \(Character(Unicode.Scalar(first))) is written as in a checklist (FORMAT.md section 4.2)"
                )
            }
            return value
        default:
            return bytes.withUnsafeBufferPointer { FieldSyntax.typedToken($0) } ?? .string(text)
        }
    }
}
