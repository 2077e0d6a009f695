/// A writer that refuses items nested deeper than todofmt reads (`Limits.itemLevels`), so
/// that it never writes a file it cannot read back; the refusal comes before anything is
/// committed. Into a format of keyed values (every one but a checklist) it also notes an
/// item that gives a field key twice with different values (`[tag:: a] [tag:: b]`): read
/// back from such a file, the item has one of them. What the reader left out
/// (`ItemSink.leftOut`) joins the warnings too: every new file's writer is behind this one.
struct DepthLimitedWriter: ListWriter {
    var base: any ListWriter
    /// Whether the output keeps an item's fields by key (not a checklist).
    let keysFields: Bool
    private var positions = PositionCounters()
    private var warnings = WarningLog()

    init(base: any ListWriter, keysFields: Bool) {
        self.base = base
        self.keysFields = keysFields
    }

    mutating func begin(metadata: [Field]) throws { try base.begin(metadata: metadata) }

    mutating func item(_ item: TodoItem, depth: Int) throws {
        guard depth < Limits.itemLevels else { throw ConversionError.unsupported(Limits.itemDepthMessage) }
        if keysFields {
            positions.advance(depth: depth)
            if item.fields.count > 1 { warnings.noteRepeatedKeys(of: item, at: positions.current) }
        }
        try base.item(item, depth: depth)
    }

    var takesPlainNames: Bool { base.takesPlainNames }

    mutating func item(plainName: UnsafeBufferPointer<UInt8>, status: TodoStatus, section: String?, depth: Int) throws {
        guard depth < Limits.itemLevels else { throw ConversionError.unsupported(Limits.itemDepthMessage) }
        if keysFields { positions.advance(depth: depth) }
        try base.item(plainName: plainName, status: status, section: section, depth: depth)
    }

    mutating func item(
        plainName: UnsafeBufferPointer<UInt8>, fields: [Field], status: TodoStatus, section: String?, depth: Int
    ) throws {
        guard depth < Limits.itemLevels else { throw ConversionError.unsupported(Limits.itemDepthMessage) }
        if keysFields {
            positions.advance(depth: depth)
            if fields.count > 1, !Self.repeatedKeys(in: fields).isEmpty {
                let item = TodoItem(plainName: plainName, fields: fields, status: status, section: section)
                warnings.noteRepeatedKeys(of: item, at: positions.current)
            }
        }
        try base.item(plainName: plainName, fields: fields, status: status, section: section, depth: depth)
    }

    mutating func items(plain: ArraySlice<PlainItem>, text: UnsafeBufferPointer<UInt8>, sections: [String]) throws {
        // One pass: each depth is checked, and followed where a warning may name a position.
        guard keysFields ? positions.advance(over: plain) : !plain.contains(where: { $0.depth >= Limits.itemLevels })
        else { throw ConversionError.unsupported(Limits.itemDepthMessage) }
        try base.items(plain: plain, text: text, sections: sections)
    }

    mutating func end() throws { try base.end() }
    mutating func leftOut(_ warning: ConversionWarning) { warnings.append(contentsOf: [warning]) }

    mutating func finish() throws -> Written {
        var written = try base.finish()
        written.warnings += warnings.warnings
        return written
    }

    /// The keys `fields` gives more than once with different values, each once, in order:
    /// a value given again as it was loses nothing.
    static func repeatedKeys(in fields: [Field]) -> [String] {
        var keys: [String] = []
        for i in fields.indices.dropFirst() where !keys.contains(fields[i].key) {
            if fields[..<i].contains(where: { $0.key == fields[i].key && $0.value != fields[i].value }) {
                keys.append(fields[i].key)
            }
        }
        return keys
    }
}

/// Items' positions as `ItemPositions` follows them, at a few instructions an item for a
/// run of plain items (a checklist's, into JSON: every item of a large list): one counter
/// a level todofmt reads, in storage that never grows, and how many levels are in use.
/// Storage of a fixed size holds only behind the depth check `DepthLimitedWriter` makes
/// first; `ItemPositions` grows for callers that make none.
private struct PositionCounters {
    private var counters = [Int](repeating: 0, count: Limits.itemLevels + 1)
    private var levels = 0

    mutating func advance(depth: Int) {
        var levels = self.levels
        counters.withUnsafeMutableBufferPointer { ItemPositions.advance($0, &levels, depth) }
        self.levels = levels
    }

    /// Moves over a run of items; false, at the first, when one is deeper than todofmt reads.
    mutating func advance(over items: ArraySlice<PlainItem>) -> Bool {
        var levels = self.levels
        let limit = Limits.itemLevels
        let fits = counters.withUnsafeMutableBufferPointer { counters in
            for item in items {
                guard item.depth < limit else { return false }
                ItemPositions.advance(counters, &levels, item.depth)
            }
            return true
        }
        self.levels = levels
        return fits
    }

    /// The position of the item `advance` last moved to (`2.1`).
    var current: String { counters[..<levels].map(String.init).joined(separator: ".") }
}

extension WarningLog {
    /// Notes each field key `item` (at the position `position`) gives more than once with
    /// different values. The position's text is made only for such an item: it cost more
    /// than the rest of writing an item with fields.
    mutating func noteRepeatedKeys(of item: TodoItem, at position: @autoclosure () -> String) {
        let keys = DepthLimitedWriter.repeatedKeys(in: item.fields)
        guard !keys.isEmpty else { return }
        let described = ItemPositions.describe(position(), item)
        for key in keys { note(.fields, ConversionWarning.repeatedKeyMessage(key), item: described) }
    }
}

extension TodoList {
    /// The warnings `DepthLimitedWriter` gives for the items that give a field key twice,
    /// for a write of the whole list into an existing file.
    func repeatedKeyWarnings() -> [ConversionWarning] {
        var positions = ItemPositions()
        var log = WarningLog()
        // Items are visited where they stand (by index, their fields and children read in
        // place): a loop over copies retained and released each item's storage.
        func visit(_ items: [TodoItem], _ depth: Int) {
            for i in items.indices {
                positions.advance(depth: depth)
                if items[i].fields.count > 1 { log.noteRepeatedKeys(of: items[i], at: positions.current) }
                if !items[i].children.isEmpty { visit(items[i].children, depth + 1) }
            }
        }
        visit(items, 0)
        return log.warnings
    }

    /// Refuses a list nested deeper than todofmt reads.
    func checkDepth() throws {
        func check(_ items: [TodoItem], _ depth: Int) throws {
            for i in items.indices where !items[i].children.isEmpty {
                guard depth + 1 < Limits.itemLevels else { throw ConversionError.unsupported(Limits.itemDepthMessage) }
                try check(items[i].children, depth + 1)
            }
        }
        try check(items, 0)
    }
}

extension DepthLimitedWriter {
    /// `writer` behind the checks every new file gets: the nesting limit, and in a build
    /// without YAML, raw front matter left out of formats other than a checklist.
    static func guarding(_ writer: any ListWriter, format: DocumentFormat) -> any ListWriter {
        #if YAML
        return DepthLimitedWriter(base: writer, keysFields: format != .markdown)
        #else
        let limited = DepthLimitedWriter(base: writer, keysFields: format != .markdown)
        return format == .markdown ? limited : RawFrontMatterDroppingWriter(base: limited)
        #endif
    }
}

#if !YAML
/// In a build without YAML a checklist's front matter is raw text (`FrontMatter.rawKey`),
/// which only a checklist can hold: other formats get the list without it, and a warning.
struct RawFrontMatterDroppingWriter: ListWriter {
    var base: any ListWriter
    private var dropped = false

    init(base: any ListWriter) { self.base = base }

    mutating func begin(metadata: [Field]) throws {
        let kept = TodoList.withoutRawFrontMatter(metadata)
        dropped = kept.count != metadata.count
        try base.begin(metadata: kept)
    }

    mutating func item(_ item: TodoItem, depth: Int) throws { try base.item(item, depth: depth) }
    var takesPlainNames: Bool { base.takesPlainNames }

    mutating func item(plainName: UnsafeBufferPointer<UInt8>, status: TodoStatus, section: String?, depth: Int) throws {
        try base.item(plainName: plainName, status: status, section: section, depth: depth)
    }

    mutating func items(plain: ArraySlice<PlainItem>, text: UnsafeBufferPointer<UInt8>, sections: [String]) throws {
        try base.items(plain: plain, text: text, sections: sections)
    }

    mutating func item(
        plainName: UnsafeBufferPointer<UInt8>, fields: [Field], status: TodoStatus, section: String?, depth: Int
    ) throws {
        try base.item(plainName: plainName, fields: fields, status: status, section: section, depth: depth)
    }

    mutating func end() throws { try base.end() }
    mutating func leftOut(_ warning: ConversionWarning) throws { try base.leftOut(warning) }

    mutating func finish() throws -> Written {
        var written = try base.finish()
        if dropped { written.warnings.append(TodoList.rawFrontMatterLeftOut) }
        return written
    }
}

extension TodoList {
    /// The warning for front matter this build cannot parse, left out of another format.
    static let rawFrontMatterLeftOut = ConversionWarning(
        .metadata, "the checklist's front matter was left out: \(YAMLFormat.missing)")

    static func withoutRawFrontMatter(_ metadata: [Field]) -> [Field] {
        metadata.filter { $0.key != FrontMatter.rawKey }
    }
}
#endif
