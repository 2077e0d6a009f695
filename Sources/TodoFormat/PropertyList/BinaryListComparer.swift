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
/// format cannot hold), a dictionary met twice, a file whose box is told by a `status` key,
/// or a changed item whose bytes the file holds another way too (`standAlone`) stop the
/// comparison (`ComparedWriter.GivenUp`, as the streamed updates give up): the caller then
/// writes the list the general way.
struct BinaryListComparer: ListWriter {
    /// What the comparison found: the references to change, in the file's order (a class: a
    /// reader may wrap the writer it is given, so the comparer is not read back).
    final class Outcome {
        var differences: [ByteComparison.Difference] = []
    }

    /// An array of items being walked: its object and the item it holds the children of (-1
    /// for the root), where its references start, how many it has, and how many were taken.
    private struct Level {
        let array: Int
        let parent: Int
        let start: Int
        let count: Int
        var next = 0
    }

    private let reader: BinaryPropertyListReader
    private var items: BinaryItems
    private let outcome: Outcome
    private var warnings = WarningLog()
    /// The arrays being walked, the root's first.
    private var levels: [Level]
    /// The children of the last item taken; nil where it has no `children` key.
    private var lastChildren: Level? = nil
    /// Each dictionary taken, one bit an object: a dictionary two items share would change
    /// with either.
    private var taken: [UInt64]
    /// The boxes to change: the dictionary, where its reference is, and whether it is to be
    /// checked.
    private var boxes: [(dictionary: Int, reference: Int, checked: Bool)] = []
    /// The children's arrays and the items' dictionaries that hold the boxes' dictionaries,
    /// each array once (a bit an object in `enclosed`).
    private var enclosing: [Int] = []
    private var enclosed: [UInt64]

    /// A comparer with the list at the root of `reader`'s file; nil where the root is not an
    /// array or the schema's items are not read straight from their objects.
    init?(_ reader: BinaryPropertyListReader, schema: ItemSchema, outcome: Outcome) {
        guard BinaryItems.reads(schema), let h = try? reader.header(of: reader.topObject), h.marker >> 4 == 0xA,
            reader.referencesFit(start: h.start, count: h.count)
        else { return nil }
        self.reader = reader
        self.outcome = outcome
        items = BinaryItems(reader, schema: schema)
        levels = [Level(array: reader.topObject, parent: -1, start: h.start, count: h.count)]
        taken = Array(repeating: 0, count: (reader.objectCount + 63) / 64)
        enclosed = taken
    }

    var takesPlainNames: Bool { true }

    mutating func begin(metadata: [Field]) {
        if !metadata.isEmpty { warnings.append(contentsOf: [.metadataLeftOut(metadata, by: "a property list")]) }
    }

    mutating func item(plainName: UnsafeBufferPointer<UInt8>, status: TodoStatus, section: String?, depth: Int) throws {
        try item(plainName: plainName, fields: [], status: status, section: section, depth: depth)
    }

    /// (Without an item made of it: an item with fields, a fourteenth of a large list, was a
    /// tenth of comparing it.)
    mutating func item(
        plainName: UnsafeBufferPointer<UInt8>, fields: [Field], status: TodoStatus, section: String?, depth: Int
    ) throws {
        // A value the format cannot hold is not the file's.
        guard fields.isEmpty || PropertyListFormat.lossesOfFields(fields, binary: true).isEmpty else {
            throw ComparedWriter.GivenUp()
        }
        try compare(name: plainName, fields: fields, status: status, section: depth == 0 ? section : nil, depth: depth)
    }

    mutating func item(_ item: TodoItem, depth: Int) throws {
        guard item.children.isEmpty, PropertyListFormat.lossesOfFields(item.fields, binary: true).isEmpty else {
            throw ComparedWriter.GivenUp()
        }
        var name = item.nameStorage
        try name.withUTF8 {
            try compare(name: $0, fields: item.fields, status: item.status, section: item.section, depth: depth)
        }
    }

    /// Compares the next item (named `name`, its UTF-8) with the file's next dictionary at
    /// `depth`: the same, or a box to change where its `checked` alone tells it.
    private mutating func compare(
        name: UnsafeBufferPointer<UInt8>, fields: [Field], status: TodoStatus, section: String?, depth: Int
    ) throws {
        let dictionary = try next(depth: depth)
        guard let found = items.compare(dictionary, name: name, section: section, fields: fields, depth: depth) else {
            throw ComparedWriter.GivenUp()
        }
        let doneness = found.doneness
        lastChildren = found.children.map {
            Level(array: $0.object, parent: dictionary, start: $0.start, count: $0.count)
        }
        let old = ItemBuilder.status(checked: doneness.checked, custom: doneness.custom, fields: fields)
        if old == status { return }
        guard doneness.checkedReference >= 0, !doneness.hasStatus, status == .open || status == .done else {
            throw ComparedWriter.GivenUp()
        }
        boxes.append((dictionary, doneness.checkedReference, status == .done))
        for level in levels.dropFirst() {
            let bit: UInt64 = 1 << UInt64(level.array & 63)
            guard enclosed[level.array >> 6] & bit == 0 else { continue }
            enclosed[level.array >> 6] |= bit
            enclosing.append(level.array)
            enclosing.append(level.parent)
        }
    }

    mutating func end() {}

    /// The warnings of the list's write, once every item of the file was met; the
    /// references to change go to the outcome.
    mutating func finish() throws -> Written {
        try close(downTo: 0)
        guard levels[0].next == levels[0].count else { throw ComparedWriter.GivenUp() }
        guard boxes.isEmpty || Self.standAlone(boxes.map(\.dictionary), within: enclosing, in: reader) else {
            throw ComparedWriter.GivenUp()
        }
        let size = reader.referenceSize
        var differences: [ByteComparison.Difference] = []
        for box in boxes {
            guard let object = items.booleanObject(box.checked) else { throw ComparedWriter.GivenUp() }
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
            levels.append(children)
        } else {
            guard depth < levels.count else { throw ComparedWriter.GivenUp() }
            try close(downTo: depth)
        }
        lastChildren = nil
        let level = levels[depth]
        guard level.next < level.count else { throw ComparedWriter.GivenUp() }
        levels[depth].next += 1
        let object = reader.reference(from: level.start, level.next)
        guard object >= 0 && object < reader.objectCount else { throw ComparedWriter.GivenUp() }
        let bit: UInt64 = 1 << UInt64(object & 63)
        guard taken[object >> 6] & bit == 0 else { throw ComparedWriter.GivenUp() }
        taken[object >> 6] |= bit
        return object
    }

    /// Leaves the arrays below `depth`, each wholly taken (as the last item's children).
    private mutating func close(downTo depth: Int) throws {
        if let children = lastChildren, children.count > 0 { throw ComparedWriter.GivenUp() }
        lastChildren = nil
        while levels.count > depth + 1 {
            guard let level = levels.popLast(), level.next == level.count else { throw ComparedWriter.GivenUp() }
        }
    }

    /// Whether changing bytes of the dictionaries `dictionaries` changes nothing else: one
    /// reference in the whole file refers to each of them and of the arrays and items that
    /// hold them (`enclosing`), the one the list was followed by, and no other object's
    /// bytes overlap a dictionary's. A file may share an item's dictionary, or the array of
    /// its parent's children, with another item's field (plistlib writes one object for a
    /// value it is given twice), or, made by hand, point two objects at the same bytes or
    /// into a data value: each would change with the box. One pass over every object of the
    /// file.
    static func standAlone(
        _ dictionaries: [Int], within enclosing: [Int], in reader: BinaryPropertyListReader
    ) -> Bool {
        let size = reader.referenceSize
        // One bit an object: a pass over every reference looks each up.
        var marked = [UInt64](repeating: 0, count: (reader.objectCount + 63) / 64)
        func isMarked(_ object: Int) -> Bool { marked[object >> 6] & (1 << UInt64(object & 63)) != 0 }
        func mark(_ object: Int) { marked[object >> 6] |= 1 << UInt64(object & 63) }
        var spans: [(start: Int, end: Int, object: Int)] = []
        for object in dictionaries {
            guard !isMarked(object), let h = try? reader.header(of: object) else { return false }
            mark(object)
            spans.append((h.at, h.start + 2 * h.count * size, object))
        }
        var count = dictionaries.count
        for object in enclosing where !isMarked(object) {
            mark(object)
            count += 1
        }
        spans.sort { $0.start < $1.start }
        for (a, b) in zip(spans, spans.dropFirst()) where a.end > b.start { return false }
        // No object that starts past the last span can overlap one: only its references count,
        // and a scalar there is passed over on its marker. (The header of every object through
        // `header(of:)` was a tenth of writing one box into a file of a million items.)
        let last = spans.last?.end ?? 0
        var references = 0
        let apart = marked.withUnsafeBufferPointer { marked in
            for object in 0..<reader.objectCount {
                guard let at = reader.offsetInObjectArea(object) else { return false }
                let marker = reader.bytes[at]
                let kind = marker >> 4
                let isCollection = kind == 0xA || kind == 0xC || kind == 0xD
                guard isCollection || at < last else { continue }
                var h = (marker: marker, start: at + 1, count: Int(marker & 0x0F), at: at)
                if h.count == 0x0F && kind >= 4 && kind != 8 {
                    guard let header = try? reader.header(of: object) else { return false }
                    h = header
                }
                var end = 0
                if isCollection {
                    let count = kind == 0xD ? 2 * h.count : h.count
                    guard reader.referencesFit(start: h.start, count: count) else { return false }
                    references += reader.referencesMarked(from: h.start, count: count, in: marked)
                    end = h.start + count * size
                } else {
                    guard let bytes = try? reader.scalarBytes(header: h) else { return false }
                    end = bytes.upperBound
                }
                guard at < last else { continue }
                // The first span (they are apart, so their ends ascend) that ends after this
                // object starts must start at or past its end, or be its own.
                var low = 0
                var high = spans.count
                while low < high {
                    let middle = (low + high) / 2
                    if spans[middle].end <= at { low = middle + 1 } else { high = middle }
                }
                if low < spans.count, spans[low].object != object, spans[low].start < end { return false }
            }
            return true
        }
        guard apart else { return false }
        return references == count
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
        guard let written = try ComparedWriter.run(comparer, read: read) else { return nil }
        return (outcome.differences, written.warnings)
    }
}
