import Foundation

/// Writes the plain JSON shape, one item object a line so that diffs stay readable.
///
/// `[Todo]` with `struct Todo: Codable { var name: String; var checked: Bool }` decodes it.
struct JSONListWriter: ListWriter {
    private var sink: ByteSink
    private let outputName: String
    private var open = OpenItems()
    private var started = false
    private let layout: ItemLayout
    /// Plain JSON has no place for metadata: what `begin` received, for a warning.
    private var leftOutMetadata: [Field] = []
    /// What JSON cannot hold of the values written (NaN, -0.0), and where items stand.
    private var warnings = WarningLog()
    private var positions: [Int] = []
    /// The section of the last item written in one piece, and its name as a JSON string.
    private var lastSection: String?
    private var lastSectionJSON: [UInt8] = []
    /// Which fields go under `fields`.
    private var nesting: FieldNesting

    /// Whether the layout is todofmt's own: items are then written without building entries.
    private let isStandard: Bool
    /// The layout's keys, worked out once rather than for each item.
    private let entryKeys: ItemLayout.EntryKeys

    /// A writer into `sink`; `outputName` names the output in errors.
    init(into sink: ByteSink, outputName: String, layout: ItemLayout = ItemLayout()) {
        self.sink = sink
        self.outputName = outputName
        self.layout = layout
        isStandard = layout == ItemLayout()
        entryKeys = layout.entryKeys
        nesting = FieldNesting(layout)
    }

    mutating func begin(metadata: [Field]) {
        leftOutMetadata = metadata
    }

    mutating func item(_ item: TodoItem, depth: Int) {
        notePosition(depth)
        noteLosses(in: item.fields, of: item)
        if isStandard {
            // Written without building the entries: the name, `checked`, a custom status, a
            // section (as for a plain item), then the fields.
            var name = item.nameStorage
            name.withUTF8 { writeStandard(name: $0, status: item.status, section: item.section, depth: depth) }
            if !item.fields.isEmpty {
                writeStandardFields(
                    item.fields, status: item.status, hasSection: item.section != nil,
                    hasChildren: !item.children.isEmpty)
            }
            return
        }
        startObject(depth)
        var first = true
        for entry in layout.entries(of: item, keys: entryKeys) {
            guard case .value(let value) = entry.value else { continue }  // children follow as items
            if !first { sink.write(", ") }
            first = false
            JSONText.writeString(Substring(entry.key), to: &sink)
            sink.write(": ")
            JSONText.writeValue(value, to: &sink)
        }
    }

    var takesPlainNames: Bool { isStandard }

    mutating func item(
        plainName: UnsafeBufferPointer<UInt8>, fields: [Field], status: TodoStatus, section: String?, depth: Int
    ) {
        let section = depth == 0 ? section : nil
        guard isStandard else {
            return item(TodoItem(plainName: plainName, fields: fields, status: status, section: section), depth: depth)
        }
        notePosition(depth)
        noteLosses(in: fields, of: TodoItem(plainName: plainName, fields: fields, status: status, section: section))
        writeStandard(name: plainName, isPlain: true, status: status, section: section, depth: depth)
        writeStandardFields(fields, status: status, hasSection: section != nil, hasChildren: false)
    }

    /// Notes each value of `fields` that JSON cannot hold, naming `item` (made only then).
    private mutating func noteLosses(in fields: [Field], of item: @autoclosure () -> TodoItem) {
        for field in fields {
            if case .double(let d) = field.value, d.isFinite && !(d == 0 && d.sign == .minus) { continue }
            for message in JSONListSyntax.losses(in: field.value) {
                let position = positions.map(String.init).joined(separator: ".")
                warnings.note(.values, message, item: ItemPositions.describe(position, item()))
            }
        }
    }

    mutating func item(plainName: UnsafeBufferPointer<UInt8>, status: TodoStatus, section: String?, depth: Int) {
        item(plainName: plainName, fields: [], status: status, section: section, depth: depth)
    }

    mutating func items(plain: ArraySlice<PlainItem>, text: UnsafeBufferPointer<UInt8>, sections: [String]) {
        // The section's JSON text is worked out when the section changes, not looked up (and
        // its string retained and compared) for each item.
        var sectionIndex = -1
        var sectionJSON: [UInt8] = []
        for item in plain {
            let name = UnsafeBufferPointer(rebasing: text[item.nameStart..<item.nameEnd])
            let inSection = item.depth == 0 && item.section >= 0
            guard isStandard, let statusByte = Self.statusByteAtOnce(item.status) else {
                self.item(
                    plainName: name, status: item.status, section: inSection ? sections[item.section] : nil,
                    depth: item.depth)
                continue
            }
            notePosition(item.depth)
            if inSection && item.section != sectionIndex {
                sectionIndex = item.section
                sectionJSON = jsonText(ofSection: sections[item.section])
            }
            sectionJSON.withUnsafeBufferPointer {
                writeStandardAtOnce(
                    name: name, status: item.status, statusByte: statusByte, section: inSection ? $0 : nil,
                    depth: item.depth)
            }
        }
    }

    /// Counts the item at `depth` in `positions` (which warnings name items by).
    private mutating func notePosition(_ depth: Int) {
        if positions.count != depth + 1 {
            if positions.count > depth + 1 { positions.removeLast(positions.count - depth - 1) }
            while positions.count < depth + 1 { positions.append(0) }
        }
        positions[depth] += 1
    }

    /// An item without fields in todofmt's own layout: its name, `checked`, a custom
    /// status and a section, written straight from the name's bytes. A plain name (of
    /// `item(plainName:…)`) has nothing JSON escapes.
    private mutating func writeStandard(
        name: UnsafeBufferPointer<UInt8>, isPlain: Bool = false, status: TodoStatus, section: String?, depth: Int
    ) {
        if let statusByte = Self.statusByteAtOnce(status), isPlain || !ByteScan.containsJSONEscape(name) {
            let sectionJSON = section.map { jsonText(ofSection: $0) } ?? []
            sectionJSON.withUnsafeBufferPointer {
                writeStandardAtOnce(
                    name: name, status: status, statusByte: statusByte, section: section == nil ? nil : $0, depth: depth
                )
            }
            return
        }
        startObject(depth)
        sink.write(static: "\"name\": ")
        JSONText.writeString(bytes: name, to: &sink)
        sink.write(static: status == .done ? ", \"checked\": true" : ", \"checked\": false")
        if case .custom(let scalar) = status {
            sink.write(static: ", \"status\": ")
            JSONText.writeString(Substring(String(scalar)), to: &sink)
        }
        if let section {
            sink.write(static: ", \"section\": ")
            JSONText.writeString(Substring(section), to: &sink)
        }
    }

    /// The byte `writeStandardAtOnce` writes for `status`: 0 for open and done, the
    /// character of a custom status that is printable ASCII JSON takes as it is (not `"` or
    /// `\`); nil for another custom status, which that cannot write.
    private static func statusByteAtOnce(_ status: TodoStatus) -> UInt8? {
        guard case .custom(let scalar) = status else { return 0 }
        guard scalar.value >= 0x20 && scalar.value < 0x7F, scalar != "\"", scalar != "\\" else { return nil }
        return UInt8(scalar.value)
    }

    /// `writeStandard` for a name that needs no escapes and a status that is open, done or an
    /// ASCII character that needs none: the common item, written into the sink in one piece
    /// (each write to the sink has a cost of its own, a dozen of them more than the copying).
    /// `section` is the section's name as a JSON string.
    private mutating func writeStandardAtOnce(
        name: UnsafeBufferPointer<UInt8>, status: TodoStatus, statusByte: UInt8, section: UnsafeBufferPointer<UInt8>?,
        depth: Int
    ) {
        let step = open.advance(to: depth)
        let first = !started
        started = true
        let deepest = depth + step.closes
        let most = 96 + 2 * (depth + 1) + step.closes * (4 + 2 * deepest) + name.count + (section?.count ?? 0)
        sink.write(upTo: most) { start in
            var pen = BytePen(at: start)
            if first {
                pen.put("[\n")
            } else if step.opensChildren {
                pen.put(", \"children\": [\n")
            } else {
                pen.put("}")
                var level = deepest
                while level > depth {
                    pen.put("\n")
                    pen.spaces(2 * level)
                    pen.put("]}")
                    level -= 1
                }
                pen.put(",\n")
            }
            pen.spaces(2 * (depth + 1))
            pen.put("{\"name\": \"")
            pen.put(name)
            pen.put(status == .done ? "\", \"checked\": true" : "\", \"checked\": false")
            if statusByte != 0 {
                pen.put(", \"status\": \"")
                pen.put(byte: statusByte)
                pen.put(byte: UInt8(ascii: "\""))
            }
            if let section {
                pen.put(", \"section\": ")
                pen.put(section)
            }
            return start.distance(to: pen.at)
        }
    }

    /// The fields of an item in todofmt's own layout, after its name, `checked`, status and
    /// section: as `ItemLayout.entries(of:keys:)` gives them for that layout, each under its
    /// key, but those that would read back as a role or whose key another entry took under
    /// `fields`.
    private mutating func writeStandardFields(
        _ fields: [Field], status: TodoStatus, hasSection: Bool, hasChildren: Bool
    ) {
        let nested = nesting.firstNested(in: fields, status: status, hasSection: hasSection, hasChildren: hasChildren)
        for field in fields[..<nested] {
            sink.write(static: ", ")
            JSONText.writeString(Substring(field.key), to: &sink)
            sink.write(static: ": ")
            JSONText.writeValue(field.value, to: &sink)
        }
        if nested < fields.count {
            sink.write(static: ", ")
            JSONText.writeString(Substring(entryKeys.fields), to: &sink)
            sink.write(static: ": ")
            JSONText.writeValue(.dictionary(Array(fields[nested...])), to: &sink)
        }
    }

    /// A section's name as a JSON string: the same for a thousand items in a row, so kept.
    private mutating func jsonText(ofSection section: String) -> [UInt8] {
        if !lastSection.sameBytes(as: section) {
            var out = ByteSink()
            JSONText.writeString(Substring(section), to: &out)
            lastSection = section
            lastSectionJSON = out.buffer
        }
        return lastSectionJSON
    }

    /// Ends what the item before left open, and starts the object of the item at `depth`.
    private mutating func startObject(_ depth: Int) {
        let step = open.advance(to: depth)
        if !started {
            sink.write(static: "[\n")
            started = true
        } else if step.opensChildren {
            if isStandard {
                sink.write(static: ", \"children\": [\n")
            } else {
                sink.write(", ")
                JSONText.writeString(Substring(layout.keys[.children] ?? "children"), to: &sink)
                sink.write(": [\n")
            }
        } else {
            sink.write(static: "}")
            closeLevels(from: depth + step.closes, downTo: depth + 1)
            sink.write(static: ",\n")
        }
        writeIndentation(depth + 1)
        sink.write(byte: UInt8(ascii: "{"))
    }

    /// Two spaces a level.
    private mutating func writeIndentation(_ levels: Int) {
        let spaces: StaticString = "                                                                "
        var left = 2 * levels
        while left > 0 {
            let n = min(left, spaces.utf8CodeUnitCount)
            sink.write(UnsafeBufferPointer(start: spaces.utf8Start, count: n))
            left -= n
        }
    }

    mutating func end() {
        if !started {
            sink.write("[]\n")
            return
        }
        sink.write("}")
        closeLevels(from: open.lastDepth, downTo: 1)
        sink.write("\n]\n")
    }

    mutating func finish() throws -> Written {
        var written = Written(bytes: try sink.finish(path: outputName))
        if !leftOutMetadata.isEmpty { written.warnings.append(.metadataLeftOut(leftOutMetadata, by: "plain JSON")) }
        written.warnings += warnings.warnings
        return written
    }

    /// Ends the children arrays of depths `from` down to `downTo`: `]}` under their parents.
    private mutating func closeLevels(from: Int, downTo: Int) {
        var level = from
        while level >= downTo {
            sink.write(byte: 10)
            writeIndentation(level)
            sink.write(static: "]}")
            level -= 1
        }
    }
}
