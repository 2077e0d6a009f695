/// Compares a list, as a reader hands it over, with the list at the root of a binary
/// property list, item by item, without writing it: where the two differ at most in boxes
/// that a `checked` key holds (checked or not), the file is copied with those keys'
/// references changed to the file's own `true` or `false` object, every other byte as it
/// was.
///
/// Writing the list anew and comparing its bytes with the file's (`BinaryListWriter`
/// through a `ComparedWriter`) costs as much as a new file: each string is transcoded and
/// looked up among those written. Here each item's name is compared with the bytes stored
/// (`BinaryItems.compare`), and a file that holds the list as it is was not written at all.
/// A list that differs otherwise (a name, a status, an item added or moved, a value the
/// format cannot hold), a dictionary met twice, or a file whose box is told by a `status`
/// key stop the read (`Differs`): the caller then writes the list the general way.
struct BinaryListComparer: ListWriter {
    /// Thrown to stop the reader: the list differs from the file's in more than boxes.
    struct Differs: Error {}

    /// What the comparison found: the references to change (in the file's order), and the
    /// warnings of the list's write (a class: a reader may wrap the writer it is given).
    final class Outcome {
        var differences: [ByteComparison.Difference] = []
    }

    private let reader: BinaryPropertyListReader
    private var items: BinaryItems
    private let outcome: Outcome
    private var warnings = WarningLog()
    /// The arrays being walked, the root's first: where each one's references start, how
    /// many it has, and how many were taken.
    private var levels: [(start: Int, count: Int, next: Int)]
    /// The children of the last item taken; nil where it has no `children` key.
    private var lastChildren: (start: Int, count: Int)? = nil
    /// Each dictionary taken, one bit an object: a dictionary two items share would change
    /// with either.
    private var taken: [UInt64]
    /// The boxes to change: where each reference is, and whether it is to be checked.
    private var boxes: [(reference: Int, checked: Bool)] = []
    /// A `false` and a `true` object that items' `checked` keys refer to; -1 before one is met.
    private var booleans = [-1, -1]

    /// A comparer with the list at the root of `reader`'s file; nil where the root is not an
    /// array or the schema's items are not read straight from their objects.
    init?(_ reader: BinaryPropertyListReader, schema: ItemSchema, outcome: Outcome) {
        guard BinaryItems.reads(schema), let h = try? reader.header(of: reader.topObject), h.marker >> 4 == 0xA,
            reader.referencesFit(start: h.start, count: h.count)
        else { return nil }
        self.reader = reader
        self.outcome = outcome
        items = BinaryItems(reader, schema: schema)
        levels = [(h.start, h.count, 0)]
        taken = Array(repeating: 0, count: (reader.objectCount + 63) / 64)
    }

    var takesPlainNames: Bool { true }

    mutating func begin(metadata: [Field]) {
        if !metadata.isEmpty { warnings.append(contentsOf: [.metadataLeftOut(metadata, by: "a property list")]) }
    }

    mutating func item(plainName: UnsafeBufferPointer<UInt8>, status: TodoStatus, section: String?, depth: Int) throws {
        let object = try next(depth: depth)
        guard let found = items.compare(object, name: plainName, section: section, fields: [], depth: depth) else {
            throw Differs()
        }
        try take(found, status: status, fields: [])
    }

    mutating func item(_ item: TodoItem, depth: Int) throws {
        // A value the format cannot hold is not the file's.
        guard item.children.isEmpty, PropertyListFormat.lossesOfFields(item.fields, binary: true).isEmpty else {
            throw Differs()
        }
        let object = try next(depth: depth)
        var name = item.nameStorage
        guard
            let found = name.withUTF8({
                items.compare(object, name: $0, section: item.section, fields: item.fields, depth: depth)
            })
        else { throw Differs() }
        try take(found, status: item.status, fields: item.fields)
    }

    mutating func end() {}

    /// The warnings of the list's write, once every item of the file was met; the
    /// references to change go to the outcome.
    mutating func finish() throws -> Written {
        try close(downTo: 0)
        guard levels[0].next == levels[0].count else { throw Differs() }
        let size = reader.referenceSize
        var differences: [ByteComparison.Difference] = []
        for box in boxes {
            let object = booleans[box.checked ? 1 : 0]
            guard object >= 0 else { throw Differs() }
            differences.append(
                ByteComparison.Difference(
                    offset: box.reference,
                    bytes: (0..<size).map { UInt8(truncatingIfNeeded: object >> (8 * (size - 1 - $0))) }))
        }
        outcome.differences = differences.sorted { $0.offset < $1.offset }
        return Written(warnings: warnings.warnings)
    }

    /// The dictionary of the next item, at `depth`: the next of its array, once the arrays
    /// below are all taken (a first child's array is the last item's `children`).
    private mutating func next(depth: Int) throws -> Int {
        if depth == levels.count, let children = lastChildren {
            levels.append((children.start, children.count, 0))
        } else {
            guard depth < levels.count else { throw Differs() }
            try close(downTo: depth)
        }
        lastChildren = nil
        let level = levels[depth]
        guard level.next < level.count else { throw Differs() }
        levels[depth].next += 1
        let object = reader.reference(from: level.start, level.next)
        guard object >= 0 && object < reader.objectCount else { throw Differs() }
        let bit: UInt64 = 1 << UInt64(object & 63)
        guard taken[object >> 6] & bit == 0 else { throw Differs() }
        taken[object >> 6] |= bit
        return object
    }

    /// Leaves the arrays below `depth`, each wholly taken (as the last item's children).
    private mutating func close(downTo depth: Int) throws {
        if let children = lastChildren, children.count > 0 { throw Differs() }
        lastChildren = nil
        while levels.count > depth + 1 {
            guard let level = levels.popLast(), level.next == level.count else { throw Differs() }
        }
    }

    /// Takes a dictionary found to hold the item but for its doneness: the same, or a box
    /// to change where its `checked` alone tells it.
    private mutating func take(
        _ found: (doneness: BinaryItems.Doneness, children: (start: Int, count: Int)?), status: TodoStatus,
        fields: [Field]
    ) throws {
        let doneness = found.doneness
        lastChildren = found.children
        if let checked = doneness.checked, doneness.checkedObject >= 0 {
            booleans[checked ? 1 : 0] = doneness.checkedObject
        }
        let old = ItemBuilder.status(checked: doneness.checked, custom: doneness.custom, fields: fields)
        if old == status { return }
        guard doneness.checkedReference >= 0, !doneness.hasStatus, status == .open || status == .done else {
            throw Differs()
        }
        boxes.append((doneness.checkedReference, status == .done))
    }

    /// Compares the list `read` hands over with the one at the root of `old` (named
    /// `name`): the differences that turn the file into one holding the list (none where it
    /// holds it), and the list's warnings; nil where it differs in more than boxes.
    static func compare(
        _ old: UnsafeBufferPointer<UInt8>, name: String, schema: ItemSchema,
        read: (inout any ListWriter) throws -> Void
    ) throws -> (differences: [ByteComparison.Difference], warnings: [ConversionWarning])? {
        let outcome = Outcome()
        guard let reader = try? BinaryPropertyListReader(bytes: old, path: name),
            let comparer = BinaryListComparer(reader, schema: schema, outcome: outcome)
        else { return nil }
        var writer: any ListWriter = comparer
        let written: Written
        do {
            try read(&writer)
            written = try writer.finish()
        } catch is Differs {
            return nil
        }
        // (As `ComparedWriter.compare`: an item's warning is the whole-list write's to give.)
        if written.warnings.contains(where: { $0.firstItem != nil && $0.kind != .fields }) { return nil }
        return (outcome.differences, written.warnings)
    }
}
