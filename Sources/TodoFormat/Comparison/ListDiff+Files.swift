import Foundation

extension ListDiff {
    /// The changes from the list in the file `old` to the list in the file `new` (any formats,
    /// told by `format`, else by each file's content and extension; `/dev/null` or an empty
    /// file is an empty list), the same as `ListDiff(from:to:)` of the two lists.
    ///
    /// Neither list is built: each file is read once into a digest of every item (its depth
    /// and a hash of it), the equal items at the start and at the end are told from those,
    /// and only the items between (from a top-level item on) are read again to be compared.
    /// A million-item file with a few changes is so compared in little memory.
    public init(old: URL, new: URL, format: DocumentFormat? = nil, options: ListOptions = ListOptions()) throws {
        try self.init(old: old, new: new, format: format, options: options, boxesAtMost: ItemDigests.boxesAtMost)
    }

    /// `init(old:new:format:options:)`, keeping at most `boxesAtMost` items whose boxes
    /// alone changed while the new file is digested (a test keeps none, so that they are read
    /// again); `byBytes` false digests two checklists that differ only in their boxes'
    /// bytes too (a test, to compare the two ways).
    init(
        old: URL, new: URL, format: DocumentFormat?, options: ListOptions, boxesAtMost: Int, byBytes: Bool = true
    ) throws {
        let inputs = [try Input.reading(old.filePath), try Input.reading(new.filePath)]
        // Two checklists whose bytes differ only in some boxes: the old one is read alone.
        // (Their bytes are compared there: the same bytes are no changes. A file whose format
        // is not told is left to the reading below, which says why.)
        let byBytes = byBytes && inputs.allSatisfy { (try? Self.reader($0, format)) is MarkdownFormat }
        if byBytes, let changes = try Self.boxChanges(old: inputs[0], new: inputs[1]) {
            self.changes = changes
            return
        }
        // The same bytes: the same list.
        if !byBytes, try Self.sameBytes(inputs[0], inputs[1]) {
            changes = []
            return
        }
        var digests: [ItemDigests] = []
        for input in inputs {
            var sink = ItemDigests()
            // The new list keeps its items from where it first differs from the old one.
            sink.reference = digests.first?.hashes
            sink.referenceStatuses = digests.first?.statuses
            sink.boxesAtMost = boxesAtMost
            if let reader = try Self.reader(input, format) {
                sink.notesLines = reader is MarkdownFormat
                try reader.read(input, options: options, plainNamesInto: &sink)
            }
            digests.append(sink)
        }
        let (a, b) = (digests[0], digests[1])
        var prefix = 0
        while prefix < a.hashes.count && prefix < b.hashes.count && a.hashes[prefix] == b.hashes[prefix] { prefix += 1 }
        var suffix = 0
        while suffix < a.hashes.count - prefix && suffix < b.hashes.count - prefix
            && a.hashes[a.hashes.count - 1 - suffix] == b.hashes[b.hashes.count - 1 - suffix]
        {
            suffix += 1
        }
        // Whole top-level items: back to one at the start, on to one at the end.
        while prefix > 0
            && ((prefix < a.depths.count && a.depths[prefix] > 0) || (prefix < b.depths.count && b.depths[prefix] > 0))
        {
            prefix -= 1
        }
        while suffix > 0 && a.depths[a.depths.count - suffix] > 0 { suffix -= 1 }
        changes = Self.fieldChanges(a.metadata, b.metadata).map { key, before, after in
            var change = Change(.metadata, "", nil)
            change.key = key
            change.oldValue = before
            change.newValue = after
            return change
        }
        let oldRange = prefix..<(a.hashes.count - suffix)
        let newRange = prefix..<(b.hashes.count - suffix)
        guard !oldRange.isEmpty || !newRange.isEmpty else { return }
        // Only boxes changed between the equal ends: the items pair in place (as
        // `ItemPairing` pairs them), and only the changed items are read again.
        if oldRange == newRange && oldRange.allSatisfy({ a.shape(at: $0) == b.shape(at: $0) }) {
            let changed = newRange.filter { a.hashes[$0] != b.hashes[$0] }
            var picker = ItemPicker(changed, from: digests[1].start(before: changed.first ?? 0))
            if !b.pick(&picker) { try Self.read(inputs[1], format, options, resume: picker.resume, into: &picker) }
            // (Every item found, as the digests said: else the items are read and paired.)
            if picker.items.count == changed.count {
                let positions = PositionTable(depths: b.depths.lazy.map(Int.init), sorted: changed)
                for (i, item) in zip(changed, picker.items) {
                    let before = TodoStatus(marker: Unicode.Scalar(a.statuses[i]) ?? " ")
                    if let change = Self.statusChange(from: before, of: item, at: positions[i]) {
                        changes.append(change)
                    }
                }
                return
            }
        }
        var middles: [[ItemAlignment.Entry]] = []
        for (input, range) in zip(inputs, [oldRange, newRange]) {
            if !middles.isEmpty, let kept = b.window(range, common: middles[0], from: prefix) {
                middles.append(kept)
                break
            }
            let resume = digests[middles.count].start(before: range.lowerBound)
            var window = ItemWindow(range: range, from: resume?.index ?? 0)
            if !range.isEmpty { try Self.read(input, format, options, resume: resume, into: &window) }
            middles.append(window.entries)
        }
        let read = (old: Self.makeComparable(&middles[0]), new: Self.makeComparable(&middles[1]))
        let pairing = ItemPairing(old: middles[0], new: middles[1])
        middles = []
        changes += Self.itemChanges(
            pairing, read: read, oldStart: prefix, newStart: prefix, oldDepths: a.depths, newDepths: b.depths)
    }

    /// Reads the list of `input` into `sink` until the sink throws `ItemWindow.Done`: a JSON
    /// list or a checklist from `resume` (the last top-level item its reading noted before
    /// the items wanted), others from the start.
    private static func read<S: PlainItemSink>(
        _ input: Input, _ format: DocumentFormat?, _ options: ListOptions, resume: ItemDigests.Start?,
        into sink: inout S
    ) throws {
        guard let reader = try Self.reader(input, format) else { return }
        do {
            if let resume, let json = reader as? JSONFormat {
                try json.read(input, options: options, from: resume.offset, plainNamesInto: &sink)
            } else if let resume, let checklist = reader as? MarkdownFormat {
                try checklist.read(input, from: resume.offset, section: resume.section, plainNamesInto: &sink)
            } else {
                try reader.read(input, options: options, plainNamesInto: &sink)
            }
        } catch is ItemWindow.Done {}
    }

    /// The reader for an input; nil for `/dev/null` or an empty file.
    private static func reader(_ input: Input, _ format: DocumentFormat?) throws -> (any ListFormat)? {
        let head = try input.head()
        if head.isEmpty { return nil }
        return try FormatRegistry.format(FormatRegistry.inputFormat(given: format, path: input.path, head: head))
    }

    private static func sameBytes(_ a: Input, _ b: Input) throws -> Bool {
        let x = try ByteReader(a)
        let y = try ByteReader(b)
        defer {
            x.close()
            y.close()
        }
        guard x.count == y.count else { return false }
        var at = 0
        while at < x.count {
            let range = at..<min(x.count, at + (1 << 20))
            if try x.readBytes(range) != y.readBytes(range) { return false }
            at = range.upperBound
        }
        return true
    }
}

/// Each item's depth and a hash of it (with its depth), and the list's metadata.
///
/// Names and sections are hashed as their UTF-8 bytes, not as strings: a string's hash is
/// that of its normalized form, which took a quarter of a large diff's time; and by
/// `ByteDigest`, not the standard library's `Hasher` (SipHash, a byte at a time through
/// its buffer: an eighth of a diff's instructions). Names that are
/// equal as strings but not byte for byte (composed and decomposed accents) then hash apart,
/// which only leaves them to be compared as strings, among the items between the equal runs.
struct ItemDigests: PlainItemSink {
    var hashes: [Int] = []
    /// Each item's status's marker: with it, an item's digest gives its digest without the
    /// status (`shape(at:)`), which tells lists whose items differ only in their boxes.
    var statuses: [UInt32] = []
    var depths: [UInt8] = []
    var metadata: [Field] = []
    /// The other list's digests: from the first item that differs from them on, the items
    /// are kept (`keptAtMost` of them), so that a diff with few changes reads this file
    /// once (the items between the equal ends are otherwise read again).
    var reference: [Int]? = nil
    /// The index of the first item whose digest is not the reference's; nil while none.
    private(set) var firstDifference: Int? = nil
    private(set) var kept: [ItemAlignment.Entry] = []
    static let keptAtMost = 4096
    /// The reference's statuses, beside it.
    var referenceStatuses: [UInt32]? = nil
    /// The items (by index) that differ from the reference's item in their place only in
    /// their status, at most `boxesAtMost` of them (else none, and `boxesOverflowed`): those
    /// a diff of boxes changed reads (`pick(_:)`), without reading the file again.
    private var boxes: [(index: Int, item: TodoItem)] = []
    private var boxesOverflowed = false
    var boxesAtMost = Self.boxesAtMost
    static let boxesAtMost = 1 << 17
    /// Where some top-level items start in the file (an item's index, its offset, and for a
    /// checklist its section), one in every 64 items or more, from a reader that can start
    /// there again (JSON's, which tells them; a checklist's, from its plain items' lines).
    private var starts: [Start] = []
    typealias Start = (index: Int, offset: Int, section: String?)
    /// Whether the items are a checklist's, whose lines are noted.
    var notesLines = false

    mutating func nextTopLevelItem(at offset: Int, pending: Int) {
        let index = hashes.count + pending
        if starts.isEmpty || index - starts[starts.count - 1].index >= 64 { starts.append((index, offset, nil)) }
    }

    /// Notes where a plain top-level item's line starts (the item to come has the index
    /// `hashes.count`), where its marker and box stand in the first column (`- [`, `* [`,
    /// `+ [`): no block before it is open there (not a quote, a list, code), so a reading
    /// of the checklist from that line finds the same items.
    private mutating func noteLine(of entry: PlainItem, text: UnsafeBufferPointer<UInt8>, section: String?) {
        let index = hashes.count
        guard starts.isEmpty || index - starts[starts.count - 1].index >= 64 else { return }
        var start = entry.nameStart
        while start > 0 && text[start - 1] != 10 { start -= 1 }
        guard start + 3 <= entry.nameStart, text[start + 1] == 32, text[start + 2] == UInt8(ascii: "["),
            text[start] == UInt8(ascii: "-") || text[start] == UInt8(ascii: "*") || text[start] == UInt8(ascii: "+")
        else { return }
        starts.append((index, start, section))
    }

    /// The last top-level item noted at or before `index`.
    func start(before index: Int) -> Start? {
        var low = 0
        var high = starts.count
        while low < high {
            let mid = (low + high) / 2
            if starts[mid].index <= index { low = mid + 1 } else { high = mid }
        }
        return low == 0 ? nil : starts[low - 1]
    }

    /// The entries of the items in `range` when they were kept or are among the items
    /// before the first difference, which are those of `common` (the other list's window,
    /// which starts at `start`); nil when the window reaches past what was kept.
    func window(_ range: Range<Int>, common: [ItemAlignment.Entry], from start: Int) -> [ItemAlignment.Entry]? {
        guard reference != nil, range.lowerBound == start else { return nil }
        let first = firstDifference ?? hashes.count
        guard range.lowerBound <= first, first <= range.upperBound, range.upperBound <= first + kept.count,
            first - start <= common.count
        else { return nil }
        return Array(common[0..<(first - start)]) + kept[0..<(range.upperBound - first)]
    }

    /// Hands `picker` the items it wants where they are those kept as differing from the
    /// reference's only in their status (`boxes`); false otherwise (more than were kept).
    /// (The items kept from the first difference on, at most 4,096, never hold them then:
    /// the boxes are kept up to 131,072.)
    func pick(_ picker: inout ItemPicker) -> Bool {
        guard !boxesOverflowed, boxes.count == picker.wanted.count,
            zip(boxes, picker.wanted).allSatisfy({ $0.index == $1 })
        else { return false }
        picker.items = boxes.map(\.item)
        return true
    }

    /// The digest of item `index` without its status: of its depth, text, fields and section.
    func shape(at index: Int) -> Int { hashes[index] &- Self.statusWord(statuses[index]) }

    /// A status's part of an item's digest, added to the rest so that it can be taken away
    /// again (`shape(at:)`): its marker times an odd constant, one word for each marker.
    private static func statusWord(_ marker: UInt32) -> Int {
        Int(bitPattern: UInt(marker) &* 0x9E37_79B9_7F4A_7C15)
    }

    /// Appends an item's digest (`shape`, its digest but for the status, with the status's
    /// word added), status and depth; keeps its entry (made by `entry`) from the first
    /// difference on.
    @inline(__always)
    private mutating func append(
        shape: ByteDigest, status: TodoStatus, depth: Int, entry: () -> ItemAlignment.Entry
    ) {
        let digest = shape.value &+ Self.statusWord(status.marker.value)
        statuses.append(status.marker.value)
        if let reference {
            let index = hashes.count
            let differs = index >= reference.count || reference[index] != digest
            if firstDifference == nil && differs { firstDifference = index }
            if firstDifference != nil && kept.count < Self.keptAtMost { kept.append(entry()) }
            if differs, !boxesOverflowed, let statuses = referenceStatuses, index < reference.count,
                reference[index] &- Self.statusWord(statuses[index]) == shape.value
            {
                if boxes.count < boxesAtMost {
                    boxes.append((index, entry().item))
                } else {
                    boxesOverflowed = true
                    boxes = []
                }
            }
        }
        hashes.append(digest)
        depths.append(UInt8(clamping: depth))
    }

    mutating func begin(metadata: [Field]) { self.metadata = metadata }

    mutating func item(_ item: TodoItem, depth: Int) {
        var digest = Self.digest(depth: depth, section: Self.word(of: item.section))
        let name = item.nameStorage
        if name.utf8.withContiguousStorageIfAvailable({ digest.combine(bytes: $0) }) == nil {
            Array(name.utf8).withUnsafeBufferPointer { digest.combine(bytes: $0) }
        }
        if !item.fields.isEmpty {
            var hasher = Hasher()
            for field in item.fields {
                hasher.combine(field.key)
                hasher.combine(ListDiff.comparable(field.value))
            }
            digest.combine(UInt64(UInt(bitPattern: hasher.finalize())))
        }
        append(shape: digest, status: item.status, depth: depth) { ItemWindow.entry(item, depth: depth) }
    }

    /// Plain items, hashed as `item(_:depth:)` hashes the same items (they have no fields).
    mutating func items(plain: ArraySlice<PlainItem>, text: UnsafeBufferPointer<UInt8>, sections: [String]) {
        // The last section's word, worked out once for its run of items (hashing the
        // section's bytes for each item was a sixth of a diff's digests).
        var last = (index: -1, word: Self.word(of: nil))
        for entry in plain {
            let section = entry.section(in: sections)
            if notesLines && entry.depth == 0 { noteLine(of: entry, text: text, section: section) }
            if entry.depth == 0 && entry.section != last.index {
                last = (entry.section, Self.word(of: section))
            }
            var digest = Self.digest(depth: entry.depth, section: entry.depth == 0 ? last.word : Self.word(of: nil))
            digest.combine(bytes: UnsafeBufferPointer(rebasing: text[entry.nameStart..<entry.nameEnd]))
            append(shape: digest, status: entry.status, depth: entry.depth) {
                ItemWindow.entry(ItemWindow.item(entry, text: text, section: section), depth: entry.depth)
            }
        }
    }

    /// An item's digest so far: its depth and its section's word (`word(of:)`).
    private static func digest(depth: Int, section: UInt64) -> ByteDigest {
        var digest = ByteDigest()
        digest.combine(UInt64(UInt(bitPattern: depth)))
        digest.combine(section)
        return digest
    }

    /// A section as one word in an item's digest: the digest of its bytes; `UInt64.max` for none.
    private static func word(of section: String?) -> UInt64 {
        guard var section else { return .max }
        var digest = ByteDigest()
        section.withUTF8 { digest.combine(bytes: $0) }
        return UInt64(UInt(bitPattern: digest.value))
    }

    mutating func end() {}
}

/// The items whose indexes (in document order) fall in `range`, as alignment entries.
struct ItemWindow: PlainItemSink {
    /// Thrown past the window's last item, to stop reading.
    struct Done: Error {}

    let range: Range<Int>
    var entries: [ItemAlignment.Entry] = []
    private var index = 0

    /// The window `range` of a reading whose first item has the index `start`.
    init(range: Range<Int>, from start: Int = 0) {
        self.range = range
        index = start
        // (Grown by doubling, the entries of a million-item window took up to twice their
        // size, and both buffers while they were copied.)
        entries.reserveCapacity(range.count)
    }

    mutating func begin(metadata: [Field]) {}

    mutating func item(_ item: TodoItem, depth: Int) throws {
        defer { index += 1 }
        if index >= range.upperBound { throw Done() }
        guard index >= range.lowerBound else { return }
        entries.append(Self.entry(item, depth: depth))
    }

    /// An item as an entry that does not keep the file's text alive.
    static func entry(_ item: TodoItem, depth: Int) -> ItemAlignment.Entry {
        var item = item
        item.children = []
        item.detachName()
        return ItemAlignment.Entry(item, depth: depth)
    }

    /// A plain item as an item; `section` is its section (for a top-level item).
    static func item(_ entry: PlainItem, text: UnsafeBufferPointer<UInt8>, section: String?) -> TodoItem {
        let name = Substring(
            String(decoding: UnsafeBufferPointer(rebasing: text[entry.nameStart..<entry.nameEnd]), as: UTF8.self))
        return TodoItem(nameStorage: name, status: entry.status, fields: [], children: [], section: section)
    }

    /// Plain items: those before the window are only counted.
    mutating func items(plain: ArraySlice<PlainItem>, text: UnsafeBufferPointer<UInt8>, sections: [String]) throws {
        for entry in plain {
            guard index >= range.lowerBound else {
                index += 1
                continue
            }
            let section = entry.section(in: sections)
            try item(Self.item(entry, text: text, section: section), depth: entry.depth)
        }
    }

    mutating func end() {}
}

/// The items at some indexes of a list (in document order), as `ItemWindow` makes its
/// entries' items.
struct ItemPicker: PlainItemSink {
    /// The indexes, in order.
    let wanted: [Int]
    /// Where the reading starts (`ItemDigests.start(before:)`); nil: at the first item.
    let resume: ItemDigests.Start?
    var items: [TodoItem] = []
    private var index: Int
    private var next = 0

    init(_ wanted: [Int], from resume: ItemDigests.Start?) {
        self.wanted = wanted
        self.resume = resume
        index = resume?.index ?? 0
    }

    mutating func begin(metadata: [Field]) {}

    mutating func item(_ item: TodoItem, depth: Int) throws {
        guard next < wanted.count else { throw ItemWindow.Done() }
        if index == wanted[next] {
            items.append(ItemWindow.entry(item, depth: depth).item)
            next += 1
        }
        index += 1
    }

    mutating func items(plain: ArraySlice<PlainItem>, text: UnsafeBufferPointer<UInt8>, sections: [String]) throws {
        for entry in plain {
            guard next < wanted.count else { throw ItemWindow.Done() }
            if index == wanted[next] {
                let section = entry.section(in: sections)
                items.append(ItemWindow.item(entry, text: text, section: section))
                next += 1
            }
            index += 1
        }
    }

    mutating func end() {}
}
