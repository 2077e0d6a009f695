import Foundation

/// Writes a new binary property list as the items arrive, with the bytes of the whole-list
/// write (`BinaryPropertyListWriter.write(_:layout:to:)` of the gathered list), without
/// gathering a large list.
///
/// An object is written after the objects it refers to, so an item's dictionary follows its
/// children's, and the root array comes last. An item's keys and values are written when the
/// next item shows whether it has children (whose key is among its keys); an item with
/// children waits for them on a stack. How many bytes a reference takes depends on how many
/// objects the whole file has, as plistlib sizes them: items are held until there are more
/// of them than two bytes reach (each is an object), which then holds for the whole list,
/// and written from then on; a smaller list is counted and written at its end.
struct BinaryListWriter: ListWriter {
    private var sink: ByteSink
    private let outputName: String
    private let layout: ItemLayout
    private let entryKeys: ItemLayout.EntryKeys
    /// Whether the layout is todofmt's own: items are then written without building their
    /// entries, plain ones from their name's bytes (`writeStandard`).
    private let isStandard: Bool
    private var warnings = WarningLog()
    private var positions = ItemPositions()

    /// An item held while the list may be small: plain (its name's bytes in `heldNames`), or
    /// whole.
    private enum Held {
        case plain(name: Range<Int>, status: TodoStatus, section: String?, depth: Int)
        case item(TodoItem, depth: Int)
    }
    /// The items not yet written while the list may be small.
    private var held: [Held] = []
    private var heldNames: [UInt8] = []
    /// The writer, once the references' size is known (`started`).
    private var writer: BinaryPropertyListWriter
    private var started = false
    /// The last item given to `write`, written once the next shows whether it has children:
    /// `pendingItem`, or where that is nil a plain item of `pendingName`, `pendingStatus`
    /// and `pendingSection`; at `pendingDepth`, -1 when there is none.
    private var pendingDepth = -1
    private var pendingItem: TodoItem? = nil
    private var pendingName: [UInt8] = []
    private var pendingStatus = TodoStatus.open
    private var pendingSection: String? = nil
    /// The objects of the keys of todofmt's own layout (name, checked, status, section,
    /// children, fields), once written; the last section's object, when it is shared.
    private var roleKeys = [-1, -1, -1, -1, -1, -1]
    private var lastSection: (name: String, object: Int)? = nil
    /// Which fields go under `fields`.
    private var nesting: FieldNesting
    /// The items whose children are being written, by depth: where the references of each
    /// one's keys and values start in `openRefs`, and those of its children's dictionaries in
    /// `openChildren`. Only the deepest item's children are still coming, so both are
    /// stacks, the deepest item's last (an array of each for each item with children was a
    /// tenth of the writer's time, made, grown and freed).
    private var open: [(refs: Int, children: Int)] = []
    private var openRefs: [Int] = []
    private var openChildren: [Int] = []
    /// The top-level items' dictionaries.
    private var top: [Int] = []

    /// A writer into `sink` (`outputName` names it in errors) of items as `layout` (a new
    /// file's: no order of keys of its own) lays them out.
    init(into sink: ByteSink, outputName: String, layout: ItemLayout) {
        self.sink = sink
        self.outputName = outputName
        self.layout = layout
        entryKeys = layout.entryKeys
        isStandard = layout == ItemLayout()
        nesting = FieldNesting(layout)
        writer = BinaryPropertyListWriter(referenceSize: 4, layout: layout)
    }

    mutating func begin(metadata: [Field]) {
        if !metadata.isEmpty { warnings.append(contentsOf: [.metadataLeftOut(metadata, by: "a property list")]) }
    }

    mutating func item(_ item: TodoItem, depth: Int) {
        positions.advance(depth: depth)
        let positions = self.positions
        PropertyListFormat.noteLosses(of: item, binary: true, at: { positions.current }, in: &warnings)
        guard !started else { return write(item, depth: depth) }
        hold(.item(item, depth: depth))
    }

    /// Holds an item while the list may be small. Past 65,535 items the file has more objects
    /// than two bytes reach (the items' dictionaries and the root array): its references take
    /// four. (Counting the objects of each item held, through a writer into nothing, was a
    /// tenth of writing a million items.)
    private mutating func hold(_ item: Held) {
        held.append(item)
        if held.count >= 0xFFFF { start(referenceSize: 4) }
    }

    var takesPlainNames: Bool { isStandard }

    mutating func item(plainName: UnsafeBufferPointer<UInt8>, status: TodoStatus, section: String?, depth: Int) {
        let section = depth == 0 ? section : nil
        guard isStandard else {
            return item(TodoItem(plainName: plainName, status: status, section: section), depth: depth)
        }
        // A plain item has no fields: nothing a property list cannot hold.
        positions.advance(depth: depth)
        guard started else {
            heldNames.append(contentsOf: plainName)
            return hold(
                .plain(
                    name: (heldNames.count - plainName.count)..<heldNames.count, status: status, section: section,
                    depth: depth))
        }
        write(plainName: plainName, status: status, section: section, depth: depth)
    }

    /// Takes the next item, a plain one, as `write(_:depth:)` does.
    private mutating func write(
        plainName: UnsafeBufferPointer<UInt8>, status: TodoStatus, section: String?, depth: Int
    ) {
        writePending(before: depth)
        pendingName.removeAll(keepingCapacity: true)
        pendingName.append(contentsOf: plainName)
        pendingStatus = status
        pendingSection = section
        pendingDepth = depth
    }

    /// Plain items in a row: each but the last is written from the text where it stands,
    /// the next showing whether it has children.
    mutating func items(plain: ArraySlice<PlainItem>, text: UnsafeBufferPointer<UInt8>, sections: [String]) {
        var i = plain.startIndex
        while i < plain.endIndex {
            let item = plain[i]
            let name = UnsafeBufferPointer(rebasing: text[item.nameStart..<item.nameEnd])
            let section = item.section < 0 ? nil : sections[item.section]
            guard isStandard, started, i + 1 < plain.endIndex else {
                self.item(plainName: name, status: item.status, section: section, depth: item.depth)
                i += 1
                continue
            }
            positions.advance(depth: item.depth)
            writePending(before: item.depth)
            writeStandard(
                name: name, status: item.status, section: item.depth == 0 ? section : nil, of: nil, depth: item.depth,
                hasChildren: plain[i + 1].depth > item.depth)
            i += 1
        }
    }

    mutating func end() {}

    mutating func finish() throws -> Written {
        if !started {
            // The objects of the list, counted by writing it into nothing with references of
            // four bytes (the root array, for an empty list).
            var count = 1
            if !held.isEmpty {
                var counting = BinaryListWriter(into: ByteSink(discarding: ()), outputName: "", layout: layout)
                counting.start(referenceSize: 4)
                for item in held {
                    switch item {
                    case .plain(let name, let status, let section, let depth):
                        heldNames[name].withUnsafeBufferPointer {
                            counting.item(plainName: $0, status: status, section: section, depth: depth)
                        }
                    case .item(let item, let depth): counting.item(item, depth: depth)
                    }
                }
                _ = try counting.finish()
                count = counting.writer.objectCount
            }
            start(referenceSize: BinaryPropertyListWriter.referenceSize(count: count))
        }
        writePending(before: 0)
        let root = writer.container(0xA0, refs: top, to: &sink)
        writer.end(top: root, to: &sink)
        return Written(warnings: warnings.warnings, bytes: try sink.finish(path: outputName))
    }

    /// Starts the file with references of `referenceSize` bytes, and writes the items held.
    private mutating func start(referenceSize: Int) {
        writer = BinaryPropertyListWriter(referenceSize: referenceSize, layout: layout)
        started = true
        sink.write("bplist00")
        let held = self.held
        let names = heldNames
        self.held = []
        heldNames = []
        for item in held {
            switch item {
            case .plain(let name, let status, let section, let depth):
                names[name].withUnsafeBufferPointer {
                    write(plainName: $0, status: status, section: section, depth: depth)
                }
            case .item(let item, let depth): write(item, depth: depth)
            }
        }
    }

    /// Takes the next item: the one before is written now that it is known whether this is
    /// its child, and the items it closes (those at its depth or deeper) are finished.
    private mutating func write(_ item: TodoItem, depth: Int) {
        writePending(before: depth)
        pendingItem = item
        pendingDepth = depth
    }

    /// Writes the pending item, followed by an item at `depth` (0 at the end), and finishes
    /// the items this closes.
    private mutating func writePending(before depth: Int) {
        let at = pendingDepth
        if at >= 0 {
            let hasChildren = depth > at
            if let item = pendingItem {
                pendingItem = nil
                if isStandard {
                    var name = item.nameStorage
                    name.withUTF8 {
                        writeStandard(
                            name: $0, status: item.status, section: item.section, of: item, depth: at,
                            hasChildren: hasChildren)
                    }
                } else {
                    writeItem(item, depth: at, hasChildren: hasChildren)
                }
            } else {
                let name = pendingName
                name.withUnsafeBufferPointer {
                    writeStandard(
                        name: $0, status: pendingStatus, section: pendingSection, of: nil, depth: at,
                        hasChildren: hasChildren)
                }
            }
            pendingDepth = -1
        }
        close(below: depth)
    }

    /// `writeItem` for an item in todofmt's own layout, `item` (nil for a plain item, which
    /// has no fields): its name, `checked`, a custom status, a section, its fields but those
    /// that go under `fields` (`FieldNesting`), then those; as `ItemLayout.entries(of:keys:
    /// hasChildren:)` has them.
    private mutating func writeStandard(
        name: UnsafeBufferPointer<UInt8>, status: TodoStatus, section: String?, of item: TodoItem?, depth: Int,
        hasChildren: Bool
    ) {
        // The references on the stack: a list kept and emptied for each item spent more in
        // emptying it than in filling it. Six keys, five values and two a field at most.
        withUnsafeTemporaryAllocation(of: Int.self, capacity: 11 + 2 * (item?.fields.count ?? 0)) { refs in
            var n = 0
            func add(_ ref: Int) {
                refs[n] = ref
                n += 1
            }
            add(roleKey(0))
            add(roleKey(1))
            var custom: String? = nil
            if case .custom(let scalar) = status {
                custom = String(scalar)
                add(roleKey(2))
            }
            if section != nil { add(roleKey(3)) }
            var flat: [FieldValue] = []
            var nested: [Field] = []
            if let item, !item.fields.isEmpty {
                let cut = nesting.firstNested(in: item, hasChildren: hasChildren)
                // Property lists have no null: such fields are left out.
                for field in item.fields[..<cut] where field.value != .null {
                    add(writer.key(field.key, to: &sink))
                    flat.append(field.value)
                }
                nested = Array(item.fields[cut...])
                if !nested.isEmpty { add(roleKey(5)) }
            }
            if hasChildren { add(roleKey(4)) }
            add(writer.write(string: name, to: &sink))
            add(writer.boolean(status == .done, to: &sink))
            if let custom { add(writer.write(.string(custom), to: &sink)) }
            if let section {
                // A short section is one object, found again for each item of the section (by
                // its bytes: a section spelled with other code points is another string). A
                // longer one is looked up each time, as the whole list's writer does: once
                // that writer's table is full, it writes such a section anew.
                if let last = lastSection, last.name.sameBytes(as: section) {
                    add(last.object)
                } else {
                    let object = writer.write(.string(section), to: &sink)
                    if section.utf8.count <= ShortStringTable.longest { lastSection = (section, object) }
                    add(object)
                }
            }
            for value in flat { add(writer.write(value, to: &sink)) }
            if !nested.isEmpty { add(writer.write(.dictionary(nested), to: &sink)) }
            if hasChildren {
                open.append((openRefs.count, openChildren.count))
                openRefs.append(contentsOf: UnsafeBufferPointer(rebasing: refs[0..<n]))
            } else {
                finished(writer.container(0xD0, count: n, to: &sink) { refs[$0] }, depth: depth)
            }
        }
    }

    /// The object of the key of role `index` of `roleKeys` (name, checked, status, section,
    /// children, fields), written where first needed.
    private mutating func roleKey(_ index: Int) -> Int {
        let known = roleKeys[index]
        if known >= 0 { return known }
        let key =
            switch index {
            case 0: entryKeys.name
            case 1: entryKeys.checked ?? "checked"
            case 2: entryKeys.status
            case 3: entryKeys.section
            case 4: entryKeys.children
            default: entryKeys.fields
            }
        roleKeys[index] = writer.key(key, to: &sink)
        return roleKeys[index]
    }

    /// Writes an item's keys and values (not its children's); one without children is
    /// finished, one with them waits on `open`.
    private mutating func writeItem(_ item: TodoItem, depth: Int, hasChildren: Bool) {
        var entries = layout.entries(of: item, keys: entryKeys, hasChildren: hasChildren)
        // Property lists have no null: such fields are left out; children follow as items.
        entries.removeAll {
            switch $0.value {
            case .value(.null), .items: true
            default: false
            }
        }
        var refs: [Int] = []
        refs.reserveCapacity(2 * entries.count + 2)
        for entry in entries { refs.append(writer.key(entry.key, to: &sink)) }
        if hasChildren { refs.append(writer.key(entryKeys.children, to: &sink)) }
        for entry in entries {
            if case .value(let value) = entry.value { refs.append(writer.write(value, to: &sink)) }
        }
        if hasChildren {
            open.append((openRefs.count, openChildren.count))
            openRefs.append(contentsOf: refs)
        } else {
            finished(writer.container(0xD0, refs: refs, to: &sink), depth: depth)
        }
    }

    /// Finishes the items waiting for children deeper than `depth`: their children's array,
    /// then their dictionary.
    private mutating func close(below depth: Int) {
        guard open.count > depth else { return }
        // The stacks as locals while the writer writes from them (swapped, not copied).
        var refs: [Int] = []
        var children: [Int] = []
        swap(&refs, &openRefs)
        swap(&children, &openChildren)
        while open.count > depth {
            let (refsStart, childrenStart) = open.removeLast()
            let array = writer.container(0xA0, count: children.count - childrenStart, to: &sink) {
                children[childrenStart + $0]
            }
            children.removeLast(children.count - childrenStart)
            refs.append(array)
            let dictionary = writer.container(0xD0, count: refs.count - refsStart, to: &sink) { refs[refsStart + $0] }
            refs.removeLast(refs.count - refsStart)
            // Filed with its parent's children (`finished`), now the deepest's.
            if open.isEmpty { top.append(dictionary) } else { children.append(dictionary) }
        }
        swap(&refs, &openRefs)
        swap(&children, &openChildren)
    }

    /// Files a finished item's dictionary with its parent's children, or the top level's.
    /// Its parent is the deepest item waiting (`open`): an item comes at most one deeper
    /// than the one before, and the items at its depth or deeper were closed before it.
    private mutating func finished(_ object: Int, depth: Int) {
        assert(open.count == depth, "an item at depth \(depth) with \(open.count) items waiting for children")
        if depth == 0 {
            top.append(object)
        } else {
            openChildren.append(object)
        }
    }
}
