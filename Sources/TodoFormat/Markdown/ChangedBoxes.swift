/// Two checklists of one length whose bytes differ only in the status characters of some
/// task boxes (`[ ]` to `[x]`, `[/]` to `[-]`): a file checked off in an editor, or by
/// `toggle`. The second is then the first with those items' statuses, which a read of the
/// first alone finds (`BoxPicker`): `diff` (`ListDiff.boxChanges`) and the write of one
/// checklist into another (`ChecklistFileUpdate`) so read one file, not both.
///
/// A box's status character, one printable ASCII character for another, changes nothing
/// else a checklist's reader finds: a line that opens a list item opens one whatever the
/// text after its marker, and no block starts with `[` (the parser has no tables, which
/// would count a `|`); the box is taken off before the name is read, so no inline of the
/// name holds it; and the line holds a name after the box, so the box is never the line's
/// only text (where a custom status makes a paragraph that `[ ]` does not). Both characters
/// must make a box (`TaskBox.status(of:)`), and every byte that differs must be the status
/// character of an item's box, found from the item's name.
enum ChangedBoxes {
    /// The offsets at which `a` and `b` (as long) differ, in order, and `b`'s bytes there,
    /// when each is a box's status character in `a` (`[c]` and white space) and both bytes
    /// there make a box's status; nil at the first that is not.
    static func differingStatuses(
        _ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>
    ) -> ([Int], [UInt8])? {
        let count = a.count
        func isStatus(_ i: Int) -> Bool {
            i >= 1 && i + 2 < count && a[i - 1] == UInt8(ascii: "[") && a[i + 1] == UInt8(ascii: "]")
                && (a[i + 2] == UInt8(ascii: " ") || a[i + 2] == UInt8(ascii: "\t"))
                && TaskBox.status(of: a[i]) != nil && TaskBox.status(of: b[i]) != nil
        }
        var offsets: [Int] = []
        var statuses: [UInt8] = []
        let same = ByteScan.forEachDifference(a, b) { at in
            guard isStatus(at) else { return false }
            offsets.append(at)
            statuses.append(b[at])
            return true
        }
        guard same else { return nil }
        return (offsets, statuses)
    }
}

/// The items of a checklist whose boxes' status characters stand at some offsets (in order),
/// with their positions (where it keeps them); an offset no item's box claims leaves
/// `claimed` short.
///
/// An item's box is found from its name's first byte in the text, back over spaces and tabs
/// on its line to `]`, its status character and `[`. Items made apart (a name with escapes,
/// or on several lines) have no place in the text here, so a box of theirs is not claimed;
/// nor is the box of an item without a name (`- [/] ` and nothing else: a custom status
/// makes it a paragraph that holds the lines after a blank one, where `[x]` would end the
/// item at the blank line: hunt 91).
struct BoxPicker: PlainItemSink {
    let offsets: [Int]
    let text: UnsafeBufferPointer<UInt8>
    /// Whether the items are kept (`picked`), or only counted.
    let keepsItems: Bool
    /// The items whose boxes are at `offsets`, as the old file has them, and their positions.
    var picked: [(position: String, item: TodoItem)] = []
    /// How many of `offsets` were claimed.
    var claimed: Int { next }
    /// Whether the names of the items from the first claimed to the last are noted.
    let notesNames: Bool
    /// Those names (`notesNames`).
    private(set) var names = DistinctNames()
    private var counter = PositionCounter()
    /// The offset the next box to claim stands at (`offsets.count`: all claimed).
    private var next = 0

    init(offsets: [Int], text: UnsafeBufferPointer<UInt8>, keepingItems: Bool = true, notingNames: Bool = false) {
        self.offsets = offsets
        self.text = text
        keepsItems = keepingItems
        notesNames = notingNames
        if keepingItems { picked.reserveCapacity(offsets.count) }
    }

    mutating func begin(metadata: [Field]) {}

    mutating func item(_ item: TodoItem, depth: Int) {
        counter.count(depth: depth)
        if notesNames && next > 0 && next < offsets.count {
            var name = item.nameStorage
            name.withUTF8 { _ = names.insert($0) }
        }
    }

    /// Notes the name of an item (that `claimed` says whether it claimed a box) where it is
    /// one of those from the first claimed to the last.
    private mutating func note(_ name: UnsafeBufferPointer<UInt8>, claimed: Bool) {
        if notesNames && (claimed || (next > 0 && next < offsets.count)) { names.insert(name) }
    }

    mutating func item(
        plainName: UnsafeBufferPointer<UInt8>, fields: [Field], status: TodoStatus, section: String?, depth: Int
    ) {
        counter.count(depth: depth)
        guard next < offsets.count, !plainName.isEmpty, let name = plainName.baseAddress else {
            return note(plainName, claimed: false)
        }
        let claimed = claims(nameAt: text.baseAddress!.distance(to: name), status: status)
        note(plainName, claimed: claimed)
        if claimed && keepsItems {
            let item = TodoItem(
                plainName: plainName, fields: fields, status: status, section: depth == 0 ? section : nil)
            picked.append((counter.position, ItemWindow.entry(item, depth: depth).item))
        }
    }

    mutating func items(plain: ArraySlice<PlainItem>, text: UnsafeBufferPointer<UInt8>, sections: [String]) {
        for entry in plain {
            counter.count(depth: entry.depth)
            let claimed =
                next < offsets.count && entry.nameEnd > entry.nameStart
                && claims(nameAt: entry.nameStart, status: entry.status)
            if notesNames {
                note(UnsafeBufferPointer(rebasing: text[entry.nameStart..<entry.nameEnd]), claimed: claimed)
            }
            if claimed && keepsItems {
                let item = ItemWindow.item(entry, text: text, section: entry.section(in: sections))
                picked.append((counter.position, item))
            }
        }
    }

    /// Whether the box before the name at `start`, of an item whose status the reader found
    /// to be `status`, is the next to claim (an offset passed over is never claimed, and so
    /// leaves `picked` short).
    private mutating func claims(nameAt start: Int, status: TodoStatus) -> Bool {
        var i = start - 1
        while i >= 0 && (text[i] == UInt8(ascii: " ") || text[i] == UInt8(ascii: "\t")) { i -= 1 }
        guard i < start - 1, i >= 2, text[i] == UInt8(ascii: "]"), text[i - 2] == UInt8(ascii: "["),
            TaskBox.status(of: text[i - 1]) == status
        else { return false }
        if i - 1 == offsets[next] {
            next += 1
            return true
        }
        return false
    }

    mutating func end() {}
}
