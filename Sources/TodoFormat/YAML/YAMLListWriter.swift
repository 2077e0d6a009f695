#if YAML
/// Writes todofmt's YAML form: a metadata document when there is metadata, then the list of
/// item mappings (FORMAT.md, section 7.3), with the bytes libyaml's emitter writes.
///
/// An item's keys and scalar values are written here, as the emitter would
/// (`YAMLScalarText`); an item with a value this does not write (a non-empty collection,
/// data, a text libyaml would break over lines) is written by the emitter alone and
/// indented into place. Metadata, and an empty list, go through the emitter whole; a
/// layout whose children key libyaml writes as a complex key gets `EmitterYAMLListWriter`.
struct YAMLListWriter: ListWriter {
    private var sink: ByteSink
    private let outputName: String
    private let layout: ItemLayout
    private let entryKeys: ItemLayout.EntryKeys
    private var open = OpenItems()
    private var metadata: [Field] = []
    private var isFirst = true
    /// One item's text, written into the sink once it is whole.
    private var text = ByteSink()
    /// Whether the layout is todofmt's own: an item without fields is then written without
    /// building its entries.
    private let isStandard: Bool
    /// Keys as written, for the few keys a list's items share.
    private var keyTexts: [(key: String, text: [UInt8])] = []
    /// Field keys met, whether each goes under `fields`, and whether it is the children's
    /// key (which goes there too where the item has children) (`nests`).
    private var nestedKeys: [(key: String, nests: Bool, isChildren: Bool)] = []
    /// The last section written and its text (nil: the emitter's to write): the same for a
    /// run of items, so worked out once for the run.
    private var lastSection: String? = nil
    private var lastSectionText: [UInt8]? = nil
    /// The custom statuses met, with their texts (nil: the emitter's to write).
    private var statusTexts: [(status: Unicode.Scalar, text: [UInt8]?)] = []
    /// The children's key and its colon, once worked out.
    private var childrenKeyText: [UInt8]? = nil

    init(into sink: ByteSink, outputName: String, layout: ItemLayout = ItemLayout()) throws(ConversionError) {
        self.sink = sink
        self.outputName = outputName
        self.layout = layout
        entryKeys = layout.entryKeys
        isStandard = layout == ItemLayout()
    }

    mutating func begin(metadata: [Field]) throws {
        self.metadata = metadata
    }

    mutating func item(_ item: TodoItem, depth: Int) throws {
        let depth = try start(depth: depth)
        if isStandard {
            var name = item.nameStorage
            let written = name.withUTF8 { name in
                item.fields.isEmpty
                    ? writeStandard(name: name, status: item.status, section: item.section, depth: depth)
                    : writeStandard(
                        name: name, fields: item.fields, status: item.status, section: item.section,
                        hasChildren: !item.children.isEmpty, depth: depth)
            }
            if written { return }
        }
        try writeEntries(of: item, depth: depth)
    }

    /// An item with fields in todofmt's own layout, as `writeEntries` writes it without
    /// building its entries (which took more than half the time of a list whose items have
    /// a field or two): the keys `writeStandard` writes, then each field on its line. False,
    /// with nothing written, where a field goes under `fields` (its key is a role's or one of
    /// the item's keys) or a value is one the emitter must write.
    private mutating func writeStandard(
        name: UnsafeBufferPointer<UInt8>, fields: [Field], status: TodoStatus, section: String?, hasChildren: Bool,
        depth: Int
    ) -> Bool {
        text.truncate(to: 0)
        for field in fields {
            guard !nests(field.key, hasChildren: hasChildren),
                writeLine(field.key, field.value, depth: depth, first: false)
            else { return false }
        }
        guard writeStandard(name: name, status: status, section: section, depth: depth) else { return false }
        text.withBytes { sink.write($0) }
        return true
    }

    /// Whether a field keyed `key` may go under `fields` (`ItemLayout.entries`): its key is
    /// one of the item's own keys or a role's. Worked out once for each of the first few keys
    /// (found by their bytes: comparing each field's key with the item's six own keys as
    /// strings was a call each, 1% of writing a list into a YAML file).
    private mutating func nests(_ key: String, hasChildren: Bool) -> Bool {
        if let known = nestedKeys.first(where: { $0.key.sameBytes(as: key) }) {
            return known.nests || (hasChildren && known.isChildren)
        }
        let isChildren = key == entryKeys.children
        let nests =
            key == entryKeys.name || key == entryKeys.checked || key == entryKeys.status || key == entryKeys.section
            || key == entryKeys.fields || layout.mustNest(key, besides: [String]())
        if nestedKeys.count < 16 { nestedKeys.append((key, nests, isChildren)) }
        return nests || (hasChildren && isChildren)
    }

    var takesPlainNames: Bool { isStandard }

    /// Where the text of a custom status's value is in `statusTexts`, worked out the first
    /// time the status is met (a list uses a few); nil where the emitter must write it, or
    /// past the first 16 statuses (an item with another is written as any item is).
    private mutating func statusTextIndex(_ scalar: Unicode.Scalar) -> Int? {
        if let known = statusTexts.firstIndex(where: { $0.status == scalar }) {
            return statusTexts[known].text == nil ? nil : known
        }
        guard statusTexts.count < 16 else { return nil }
        var out = ByteSink()
        let text = YAMLScalarText.append(String(scalar), isKey: false, to: &out) ? out.buffer : nil
        statusTexts.append((scalar, text))
        return text == nil ? nil : statusTexts.count - 1
    }

    /// Makes `lastSectionText` the text of `section`'s value, worked out once for a run of
    /// items in one section; false where the emitter must write it.
    private mutating func takeSection(_ section: String) -> Bool {
        if !lastSection.sameBytes(as: section) {
            var out = ByteSink()
            lastSectionText = YAMLScalarText.append(section, isKey: false, to: &out) ? out.buffer : nil
            lastSection = section
        }
        return lastSectionText != nil
    }

    /// Plain items of a checklist, as `item(plainName:status:section:depth:)` writes each;
    /// a section is taken once for each run of items in it, by its index among `sections`,
    /// not compared again for each item. (The section's text is written from where the
    /// writer keeps it: a copy of the text and of the section for each item was a twentieth
    /// of writing a checklist as YAML, in reference counting.)
    mutating func items(plain: ArraySlice<PlainItem>, text: UnsafeBufferPointer<UInt8>, sections: [String]) throws {
        var taken = -1
        var takenIsWritten = false
        for item in plain {
            let name = UnsafeBufferPointer(rebasing: text[item.nameStart..<item.nameEnd])
            let hasSection = item.depth == 0 && item.section >= 0
            if hasSection && item.section != taken {
                takenIsWritten = takeSection(sections[item.section])
                taken = item.section
            }
            let at = try start(depth: item.depth)
            if isStandard && (!hasSection || takenIsWritten)
                && writeStandard(name: name, status: item.status, hasSection: hasSection, depth: at)
            {
                continue
            }
            let section = hasSection ? sections[item.section] : nil
            try writeEntries(of: TodoItem(plainName: name, status: item.status, section: section), depth: at)
        }
    }

    mutating func item(plainName: UnsafeBufferPointer<UInt8>, status: TodoStatus, section: String?, depth: Int) throws {
        let section = depth == 0 ? section : nil
        let at = try start(depth: depth)
        if isStandard && writeStandard(name: plainName, status: status, section: section, depth: at) { return }
        // Written as any item is (`start` is done: the item goes on at its depth).
        try writeEntries(of: TodoItem(plainName: plainName, status: status, section: section), depth: at)
    }

    /// An item with fields whose name is plain, written from the name's bytes where
    /// `writeStandard` can write it, as any item is otherwise.
    mutating func item(
        plainName: UnsafeBufferPointer<UInt8>, fields: [Field], status: TodoStatus, section: String?, depth: Int
    ) throws {
        let section = depth == 0 ? section : nil
        let at = try start(depth: depth)
        if isStandard
            && writeStandard(
                name: plainName, fields: fields, status: status, section: section, hasChildren: false, depth: at)
        {
            return
        }
        try writeEntries(
            of: TodoItem(plainName: plainName, fields: fields, status: status, section: section), depth: at)
    }

    /// The item's entries (`ItemLayout.entries`) at `depth`: written here where they can be,
    /// else by the emitter.
    private mutating func writeEntries(of item: TodoItem, depth: Int) throws {
        let entries = layout.entries(of: item, keys: entryKeys)
        text.truncate(to: 0)
        if write(entries, depth: depth) {
            text.withBytes { sink.write($0) }
        } else {
            try writeThroughEmitter(entries, depth: depth)
        }
    }

    /// What comes before an item at `depth`: the metadata before the first, the children's
    /// key before the first child. Returns the depth the item is written at.
    private mutating func start(depth: Int) throws -> Int {
        if isFirst {
            isFirst = false
            try writeStart()
        }
        // A child is one level under the item before it, as the emitter nests it.
        let depth = min(depth, open.lastDepth + 1)
        if open.advance(to: depth).opensChildren {
            // The previous item's children: a sequence under its key, dashes at the key's column.
            if childrenKeyText == nil {
                text.truncate(to: 0)
                // A key libyaml writes as a complex key gets `EmitterYAMLListWriter` (`YAMLFormat`).
                guard writeKey(entryKeys.children) else {
                    throw ConversionError.unsupported("YAMLListWriter: a children key that is no simple key")
                }
                childrenKeyText = text.withBytes { Array($0) + Array(":\n".utf8) }
            }
            let key = childrenKeyText!
            sink.write(upTo: 2 * depth + key.count) { start in
                var pen = BytePen(at: start)
                pen.spaces(2 * depth)
                key.withUnsafeBufferPointer { pen.put($0) }
                return start.distance(to: pen.at)
            }
        }
        return depth
    }

    /// An item without fields in todofmt's own layout, as its entries are written
    /// (`ItemLayout.entries`: the name, `checked`, a custom status, a section), straight into
    /// the sink in one write (three for a name in quotes: the line up to the name, the name,
    /// the rest); false, with nothing written, where a text is one the emitter must write.
    private mutating func writeStandard(
        name: UnsafeBufferPointer<UInt8>, status: TodoStatus, section: String?, depth: Int
    ) -> Bool {
        if let section, !takeSection(section) { return false }
        return writeStandard(name: name, status: status, hasSection: section != nil, depth: depth)
    }

    /// `writeStandard(name:status:section:depth:)` for an item whose section's text (if
    /// `hasSection`) `takeSection` has put in `lastSectionText`.
    private mutating func writeStandard(
        name: UnsafeBufferPointer<UInt8>, status: TodoStatus, hasSection: Bool, depth: Int
    ) -> Bool {
        // A text with a line break goes in double quotes only where it needs quotes
        // (`YAMLScalarText.append(bytes:isKey:to:)`); otherwise the emitter writes it.
        let style = YAMLScalarText.analysis(of: name)
        guard style != .unknown || YAMLValue.needsQuotes(name) else { return false }
        var statusIndex = -1
        if case .custom(let scalar) = status {
            guard let known = statusTextIndex(scalar) else { return false }
            statusIndex = known
        }
        // A name written as it is (most) goes in the same write as the rest of the item.
        let asItIs = style == .plain && !YAMLValue.readsAsAnotherType(name)
        if !asItIs {
            sink.write(upTo: 2 * depth + 8) { start in
                var pen = BytePen(at: start)
                pen.spaces(2 * depth)
                pen.put("- name: ")
                return start.distance(to: pen.at)
            }
            YAMLScalarText.append(bytes: name, analysed: style, to: &sink)
        }
        let nameRoom = asItIs ? 2 * depth + 8 + name.count : 0
        let statusRoom = statusIndex < 0 ? 0 : statusTexts[statusIndex].text!.count
        let sectionRoom = hasSection ? lastSectionText!.count : 0
        sink.write(upTo: nameRoom + 6 * depth + 48 + statusRoom + sectionRoom) { start in
            var pen = BytePen(at: start)
            if asItIs {
                pen.spaces(2 * depth)
                pen.put("- name: ")
                pen.put(name)
            }
            pen.put(byte: 10)
            pen.spaces(2 * depth)
            pen.put(status == .done ? "  checked: true\n" : "  checked: false\n")
            if statusIndex >= 0 {
                pen.spaces(2 * depth)
                pen.put("  status: ")
                statusTexts[statusIndex].text!.withUnsafeBufferPointer { pen.put($0) }
                pen.put(byte: 10)
            }
            if hasSection {
                pen.spaces(2 * depth)
                pen.put("  section: ")
                lastSectionText!.withUnsafeBufferPointer { pen.put($0) }
                pen.put(byte: 10)
            }
            return start.distance(to: pen.at)
        }
        return true
    }

    /// The item's mapping at `depth` into `text`, its dash at column `2 * depth`; false
    /// where a value is one the emitter must write.
    private mutating func write(_ entries: [OutputEntry], depth: Int) -> Bool {
        var first = true
        for entry in entries {
            guard case .value(let value) = entry.value else { continue }  // children follow as items
            guard writeLine(entry.key, value, depth: depth, first: first) else { return false }
            first = false
        }
        return true
    }

    /// A key and its value on a line of their own into `text`, at `depth` after a dash (an
    /// item's first key) or two spaces; false where the emitter must write them.
    private mutating func writeLine(_ key: String, _ value: FieldValue, depth: Int, first: Bool) -> Bool {
        text.write(upTo: 2 * depth + 2) { start in
            var pen = BytePen(at: start)
            pen.spaces(2 * depth)
            pen.put(first ? "- " : "  ")
            return start.distance(to: pen.at)
        }
        guard writeKey(key) else { return false }
        text.write(static: ": ")
        guard Self.write(value, to: &text) else { return false }
        text.write(byte: 10)
        return true
    }

    /// A key into `text`, worked out once for each of the first few keys met.
    private mutating func writeKey(_ key: String) -> Bool {
        if let known = keyTexts.first(where: { $0.key.sameBytes(as: key) }) {
            text.write(bytes: known.text)
            return true
        }
        let start = text.byteCount
        guard YAMLScalarText.append(key, isKey: true, to: &text) else { return false }
        if keyTexts.count < 16 { keyTexts.append((key, text.withBytes { Array($0[start...]) })) }
        return true
    }

    /// A value on its key's line, as the emitter writes it (`YAMLValue.emit`).
    private static func write(_ value: FieldValue, to out: inout ByteSink) -> Bool {
        func plain(_ text: String) -> Bool {
            var text = text
            return text.withUTF8 { YAMLScalarText.appendRequestedPlain($0, to: &out) }
        }
        switch value {
        case .string(let s): return YAMLScalarText.append(s, isKey: false, to: &out)
        case .integer(let i): return plain(String(i))
        case .bigInteger(let digits): return plain(digits)
        case .double(let d): return plain(YAMLValue.realText(d))
        case .bool(let b): out.write(b ? "true" : "false")
        case .null: out.write("null")
        case .date(let d): return plain(ISO8601.format(d))
        case .array(let values) where values.isEmpty: out.write("[]")
        case .dictionary(let fields) where fields.isEmpty: out.write("{}")
        case .data, .array, .dictionary: return false
        }
        return true
    }

    /// The item written by the emitter as the one item of a list, its lines indented to `depth`.
    private mutating func writeThroughEmitter(_ entries: [OutputEntry], depth: Int) throws {
        let emitter = try YAMLEmitter()
        try emitter.streamStart()
        try emitter.documentStart(implicit: true)
        try emitter.sequenceStart()
        try emitter.mappingStart()
        try EmitterYAMLListWriter.emit(entries, to: emitter)
        try emitter.mappingEnd()
        try emitter.sequenceEnd()
        try emitter.documentEnd()
        try emitter.streamEnd()
        // Every line moves right, and so does the indentation single quotes write after a
        // raw U+2028 or U+2029 (a line break to YAML).
        let out = emitter.output
        let indent = repeatElement(UInt8(32), count: 2 * depth)
        var start = 0
        for i in out.indices {
            let lineStart = i == 0 ? out[i] != 10 : out[i - 1] == 10 && out[i] != 10
            let afterSeparator =
                i >= 3 && out[i] == 32 && out[i - 3] == 0xE2 && out[i - 2] == 0x80
                && (out[i - 1] == 0xA8 || out[i - 1] == 0xA9)
            guard lineStart || afterSeparator else { continue }
            sink.write(bytes: out[start..<i])
            sink.write(bytes: indent)
            start = i
        }
        sink.write(bytes: out[start...])
    }

    /// The metadata document, and the start of the list's document after it.
    private mutating func writeStart() throws {
        guard !metadata.isEmpty else { return }
        sink.write(static: "---\n")
        sink.write(bytes: try YAMLListPatcher.mapping(metadata))
        sink.write(static: "\n---\n")
    }

    mutating func end() throws {
        guard isFirst else { return }
        // No items: the emitter's writer writes the empty list (`[]`), after the metadata if any.
        var empty = try EmitterYAMLListWriter(into: ByteSink(), outputName: outputName, layout: layout)
        try empty.begin(metadata: metadata)
        try empty.end()
        sink.write(bytes: try empty.finish().bytes)
    }

    mutating func finish() throws -> Written {
        Written(bytes: try sink.finish(path: outputName))
    }
}
#endif
