/// An array's place in a text file (a JSON `[…]`, an XML `<array>…</array>`): its opening
/// and closing tokens and its elements.
struct ArraySpan {
    /// The whole array, from its opening token to the end of its closing one.
    var whole: Range<Int>
    /// Where the inside starts (after the opening token) and ends (at the closing token);
    /// nil for an array written as one empty token (`<array/>`).
    var inside: Range<Int>?
    var elements: [Range<Int>]
}

/// An item object of an existing text file, for writing it back with as little change as
/// possible: the item read from it, where it and each of its keys and values stand, and
/// its children.
final class SpannedItem: PlannedOldItem {
    let item: TodoItem
    /// The whole object, and its inside (between `{` and `}`, `<dict>` and `</dict>`).
    let span: Range<Int>
    let inside: Range<Int>
    let members: [ItemMember]
    /// Each key (with its quotes or tags), and each value.
    let keySpans: [Range<Int>]
    let valueSpans: [Range<Int>]
    let children: [SpannedItem]
    /// The value of the key that holds the children.
    let childrenArray: ArraySpan?
    /// The array that holds the item (a number that tells arrays apart) and its index there.
    var arrayID = 0
    var index = 0
    /// The number of the array that holds its children.
    let childrenArrayID: Int

    init(
        item: TodoItem, span: Range<Int>, inside: Range<Int>, members: [ItemMember], keySpans: [Range<Int>],
        valueSpans: [Range<Int>], children: [SpannedItem], childrenArray: ArraySpan?, childrenArrayID: Int
    ) {
        self.item = item
        self.span = span
        self.inside = inside
        self.members = members
        self.keySpans = keySpans
        self.valueSpans = valueSpans
        self.children = children
        self.childrenArray = childrenArray
        self.childrenArrayID = childrenArrayID
        for (i, child) in children.enumerated() {
            child.arrayID = childrenArrayID
            child.index = i
        }
    }

    /// The item's keys and values as read, children as arrays of theirs (for `ItemLayout.Learner`).
    var fields: [Field] {
        members.map { member in
            guard member.role == .children else { return Field(member.key, member.value) }
            return Field(member.key, .array(children.map { .dictionary($0.fields) }))
        }
    }

    /// The item and its descendants in document order.
    func flattened(into nodes: inout [SpannedItem]) {
        nodes.append(self)
        for child in children { child.flattened(into: &nodes) }
    }
}

/// Where an old item of a text file stood: its array, its index there, its bytes.
struct ItemOrigin {
    var arrayID: Int
    var index: Int
    var span: Range<Int>
}

extension ItemPlacement where Old == SpannedItem {
    /// Where the old item it continues stood; nil for a new item.
    var origin: ItemOrigin? {
        switch self {
        case .kept(let old), .changed(let old, _, _, _):
            ItemOrigin(arrayID: old.arrayID, index: old.index, span: old.span)
        case .added: nil
        }
    }
}
