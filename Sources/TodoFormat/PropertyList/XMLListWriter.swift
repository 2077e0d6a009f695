/// Writes a new XML property list as the items arrive, as `PropertyListWriter` writes the
/// whole list (byte for byte, warnings too), without holding the list. An item's dictionary
/// is left open when it is written: the next item tells whether its children's array opens
/// in it (children go last) or it ends. An item's own entries come from
/// `ItemLayout.entries`, so only a layout without a file's key order (whose children may
/// come before other keys) is streamed.
struct XMLListWriter: ListWriter {
    private var sink: ByteSink
    private let outputName: String
    private let layout: ItemLayout
    private let keys: ItemLayout.EntryKeys
    private let xml: XMLPropertyListWriter
    /// Whether the layout is todofmt's own: items are then written without building their
    /// entries, and a checklist's plain items from their bytes.
    private let isStandard: Bool
    /// Which fields go under `fields` (in todofmt's own layout).
    private var nesting: FieldNesting
    /// The depth of the item whose dictionary is open (-1 before the first).
    private var open = OpenItems()
    /// An item with a field keyed as children are, whose entries depend on whether it has
    /// children (the field then goes under `fields`): written when the next item tells.
    private var pending: (item: TodoItem, depth: Int)?
    private var leftOutMetadata: [Field] = []
    private var log = WarningLog()
    private var positions = ItemPositions()
    /// The section of the last plain item, as element content: the same for many items.
    private var lastSection: String?
    private var lastSectionText: [UInt8] = []
    /// The children's key as a line's element, without the line's tabs.
    private let childrenKeyLine: [UInt8]

    init(into sink: ByteSink, outputName: String, layout: ItemLayout) {
        self.sink = sink
        self.outputName = outputName
        self.layout = layout
        keys = layout.entryKeys
        xml = XMLPropertyListWriter(layout: layout)
        isStandard = layout == ItemLayout()
        nesting = FieldNesting(layout)
        var keyLine = ByteSink()
        xml.writeKey(keys.children, depth: 0, to: &keyLine)
        childrenKeyLine = keyLine.buffer
    }

    mutating func begin(metadata: [Field]) { leftOutMetadata = metadata }

    /// An item at `depth`, taken as one below the item before when it is deeper (as
    /// `ListBuilder` takes it).
    mutating func item(_ item: TodoItem, depth: Int) {
        let depth = min(max(depth, 0), open.lastDepth + 1)
        positions.advance(depth: depth)
        let position = positions
        PropertyListFormat.noteLosses(of: item, binary: false, at: { position.current }, in: &log)
        step(to: depth)
        // Its children come after it, as items of their own.
        var bare = item
        if !bare.children.isEmpty { bare.children = [] }
        if item.fields.contains(where: { $0.key == keys.children }) {
            pending = (bare, depth)
            return
        }
        writeEntries(of: bare, depth: depth, hasChildren: false)
    }

    var takesPlainNames: Bool { isStandard }

    /// Plain items of a checklist, each written from its name's bytes in one piece when XML
    /// takes them as they are (`ByteScan.containsXMLSpecial`; a plain name has no control
    /// character): the common item. Others are made into items and written as any item is.
    mutating func items(plain: ArraySlice<PlainItem>, text: UnsafeBufferPointer<UInt8>, sections: [String]) throws {
        for item in plain {
            let name = UnsafeBufferPointer(rebasing: text[item.nameStart..<item.nameEnd])
            let depth = min(max(item.depth, 0), open.lastDepth + 1)
            let section = depth == 0 && item.section >= 0 ? sections[item.section] : nil
            guard let statusByte = plainStatusByte(name: name, status: item.status, section: section) else {
                try self.item(plainName: name, status: item.status, section: section, depth: depth)
                continue
            }
            positions.advance(depth: depth)
            step(to: depth)
            writePlain(name: name, isDone: item.status == .done, statusByte: statusByte, section: section, depth: depth)
        }
    }

    /// An item with fields whose name is plain, written as a plain item is, then its fields,
    /// when the plain item's conditions hold and XML holds the fields as they are (none is
    /// keyed as children are, whose place waits on the next item); otherwise as any item.
    mutating func item(
        plainName name: UnsafeBufferPointer<UInt8>, fields: [Field], status: TodoStatus, section: String?, depth: Int
    ) {
        let depth = min(max(depth, 0), open.lastDepth + 1)
        let section = depth == 0 ? section : nil
        guard let statusByte = plainStatusByte(name: name, status: status, section: section),
            !fields.contains(where: { $0.key == keys.children }),
            PropertyListFormat.lossesOfFields(fields, binary: false).isEmpty
        else {
            return item(TodoItem(plainName: name, fields: fields, status: status, section: section), depth: depth)
        }
        positions.advance(depth: depth)
        step(to: depth)
        let indent = 1 + 2 * depth
        writePlain(name: name, isDone: status == .done, statusByte: statusByte, section: section, depth: depth)
        writeStandardFields(fields, status: status, hasSection: section != nil, indent: indent, hasChildren: false)
    }

    /// For a plain item that `writePlain` can write (todofmt's own layout; a name, section
    /// and status XML takes as they are), the byte of its status: 0 for open and done, a
    /// custom status's printable ASCII character. Nil for an item written as any item is.
    private mutating func plainStatusByte(name: UnsafeBufferPointer<UInt8>, status: TodoStatus, section: String?)
        -> UInt8?
    {
        var statusByte: UInt8 = 0
        if case .custom(let scalar) = status {
            guard scalar.value > 0x20 && scalar.value < 0x7F, scalar != "<" && scalar != ">" && scalar != "&" else {
                return nil
            }
            statusByte = UInt8(scalar.value)
        }
        guard isStandard, !ByteScan.containsXMLSpecial(name), section.map({ isPlain($0) }) ?? true else { return nil }
        return statusByte
    }

    /// Whether a section holds nothing XML 1.0 cannot (`noteLosses` has nothing to say of
    /// it); its element content is then kept in `lastSectionText`.
    private mutating func isPlain(_ section: String) -> Bool {
        if lastSection.sameBytes(as: section) { return true }
        guard !XMLRenderer.mayHaveForbidden(section) else { return false }
        var out = ByteSink()
        xml.escaped(section, to: &out)
        lastSection = section
        lastSectionText = out.buffer
        return true
    }

    mutating func end() {
        guard open.lastDepth >= 0 else {
            sink.write(static: XMLPropertyListWriter.header)
            sink.write(static: "<array/>\n")
            sink.write(static: XMLPropertyListWriter.footer)
            return
        }
        step(to: 0)
        sink.write(static: "</array>\n")
        sink.write(static: XMLPropertyListWriter.footer)
    }

    /// Ends what the items before leave open for an item at `depth` (0 at the end): writes the
    /// pending item, then opens the last item's children's array when the next is deeper, or
    /// ends its dictionary and the levels the next item leaves.
    private mutating func step(to depth: Int) {
        if let (item, itemDepth) = pending {
            pending = nil
            writeEntries(of: item, depth: itemDepth, hasChildren: depth > itemDepth)
        }
        let last = open.lastDepth
        let step = open.advance(to: depth)
        guard last >= 0 else {
            sink.write(static: XMLPropertyListWriter.header)
            sink.write(static: "<array>\n")
            return
        }
        let indent = 1 + 2 * last
        // Two lines for each level (and seven bytes `tabs` may write past the last).
        let most = (step.closes + 1) * (2 * indent + 32) + (step.opensChildren ? childrenKeyLine.count : 0) + 8
        sink.write(upTo: most) { start in
            var pen = BytePen(at: start)
            if step.opensChildren {
                pen.tabs(indent + 1)
                // (Not a local copy: the array was retained and released for every item.)
                childrenKeyLine.withUnsafeBufferPointer { pen.put($0) }
                pen.tabs(indent + 1)
                pen.put("<array>\n")
                return start.distance(to: pen.at)
            }
            pen.tabs(indent)
            pen.put("</dict>\n")
            var level = last
            while level > depth {
                level -= 1
                let parentIndent = 1 + 2 * level
                pen.tabs(parentIndent + 1)
                pen.put("</array>\n")
                pen.tabs(parentIndent)
                pen.put("</dict>\n")
            }
            return start.distance(to: pen.at)
        }
    }

    /// An item's dictionary, without its end.
    private mutating func writeEntries(of item: TodoItem, depth: Int, hasChildren: Bool) {
        let indent = 1 + 2 * depth
        if isStandard {
            writeStandard(item, indent: indent)
            if !item.fields.isEmpty {
                writeStandardFields(
                    item.fields, status: item.status, hasSection: item.section != nil, indent: indent,
                    hasChildren: hasChildren)
            }
        } else {
            // (Never `<dict/>`: an item's dictionary has its name.)
            _ = xml.writeOpen(
                layout.entries(of: item, keys: keys, hasChildren: hasChildren), depth: indent, to: &sink)
        }
    }

    /// The entries `ItemLayout.entries` gives an item in todofmt's own layout before its
    /// fields (its name, `checked`, a custom status, a section), written as `writeOpen`
    /// writes them.
    private mutating func writeStandard(_ item: TodoItem, indent: Int) {
        xml.line(indent, "<dict>\n", to: &sink)
        xml.line(indent + 1, "<key>name</key>\n", to: &sink)
        xml.line(indent + 1, "<string>", to: &sink)
        var name = item.nameStorage
        name.withUTF8 { xml.escaped(utf8: $0, to: &sink) }
        sink.write(static: "</string>\n")
        xml.line(indent + 1, "<key>checked</key>\n", to: &sink)
        xml.line(indent + 1, item.status == .done ? "<true/>\n" : "<false/>\n", to: &sink)
        if case .custom(let scalar) = item.status {
            xml.line(indent + 1, "<key>status</key>\n", to: &sink)
            xml.line(indent + 1, "<string>", to: &sink)
            xml.escaped(String(scalar), to: &sink)
            sink.write(static: "</string>\n")
        }
        if let section = item.section {
            xml.line(indent + 1, "<key>section</key>\n", to: &sink)
            xml.line(indent + 1, "<string>", to: &sink)
            xml.escaped(section, to: &sink)
            sink.write(static: "</string>\n")
        }
    }

    /// The fields of an item in todofmt's own layout, after its name, `checked`, status and
    /// section: as `ItemLayout.entries` gives them for that layout (`FieldNesting`), nulls
    /// left out as `writeOpen` leaves them out.
    private mutating func writeStandardFields(
        _ fields: [Field], status: TodoStatus, hasSection: Bool, indent: Int, hasChildren: Bool
    ) {
        let nested = nesting.firstNested(in: fields, status: status, hasSection: hasSection, hasChildren: hasChildren)
        for field in fields[..<nested] {
            if case .null = field.value { continue }
            if writePlain(field, depth: indent + 1) { continue }
            xml.writeKey(field.key, depth: indent + 1, to: &sink)
            xml.write(field.value, depth: indent + 1, to: &sink)
        }
        if nested < fields.count {
            xml.writeKey(keys.fields, depth: indent + 1, to: &sink)
            xml.write(.dictionary(Array(fields[nested...])), depth: indent + 1, to: &sink)
        }
    }

    /// A field whose key is element content as it is and whose value an integer or such a
    /// text, as `writeKey` and `write` write it, in one write into the sink (a dozen writes
    /// and the integer made a string were a twentieth of a write into an existing file);
    /// false, writing nothing, for any other.
    private mutating func writePlain(_ field: Field, depth: Int) -> Bool {
        var key = field.key
        return key.withUTF8 { key in
            guard XMLPropertyListWriter.isContent(key) else { return false }
            // Two lines of tabs (and seven bytes `tabs` may write past the last), the key and
            // the tags, and an integer's 20 bytes or the text.
            let room = 2 * depth + 8 + key.count + 48
            switch field.value {
            case .integer(let n):
                sink.write(upTo: room) { start in
                    var pen = Self.keyLine(key, depth: depth, at: start)
                    pen.put("<integer>")
                    pen.decimal(n)
                    pen.put("</integer>\n")
                    return start.distance(to: pen.at)
                }
                return true
            case .string(var text):
                return text.withUTF8 { text in
                    guard XMLPropertyListWriter.isContent(text) else { return false }
                    sink.write(upTo: room + text.count) { start in
                        var pen = Self.keyLine(key, depth: depth, at: start)
                        pen.put("<string>")
                        pen.put(text)
                        pen.put("</string>\n")
                        return start.distance(to: pen.at)
                    }
                    return true
                }
            default:
                return false
            }
        }
    }

    /// A pen at `start` that has written `key`'s line and the tabs of the value's line.
    @inline(__always)
    private static func keyLine(_ key: UnsafeBufferPointer<UInt8>, depth: Int, at start: UnsafeMutablePointer<UInt8>)
        -> BytePen
    {
        var pen = BytePen(at: start)
        pen.tabs(depth)
        pen.put("<key>")
        pen.put(key)
        pen.put("</key>\n")
        pen.tabs(depth)
        return pen
    }

    /// `writeStandard` for a plain item whose name, status and section XML takes as they are
    /// (the section's text in `lastSectionText`): one write into the sink rather than a dozen
    /// (each write has a cost of its own, more than the copying).
    private mutating func writePlain(
        name: UnsafeBufferPointer<UInt8>, isDone: Bool, statusByte: UInt8, section: String?, depth: Int
    ) {
        let indent = 1 + 2 * depth
        let hasSection = section != nil
        // Nine lines at most, each indented (and seven bytes `tabs` may write past the last),
        // and 170 bytes of tags.
        let most = 9 * (indent + 1) + 8 + 170 + name.count + (hasSection ? lastSectionText.count : 0)
        sink.write(upTo: most) { start in
            var pen = BytePen(at: start)
            pen.tabs(indent)
            pen.put("<dict>\n")
            pen.tabs(indent + 1)
            pen.put("<key>name</key>\n")
            pen.tabs(indent + 1)
            pen.put("<string>")
            pen.put(name)
            pen.put("</string>\n")
            pen.tabs(indent + 1)
            pen.put("<key>checked</key>\n")
            pen.tabs(indent + 1)
            // (Each spelled out: the one picked by `?:` was a call of `memcpy` for every item.)
            if isDone { pen.put("<true/>\n") } else { pen.put("<false/>\n") }
            if statusByte != 0 {
                pen.tabs(indent + 1)
                pen.put("<key>status</key>\n")
                pen.tabs(indent + 1)
                pen.put("<string>")
                pen.put(byte: statusByte)
                pen.put("</string>\n")
            }
            if hasSection {
                pen.tabs(indent + 1)
                pen.put("<key>section</key>\n")
                pen.tabs(indent + 1)
                pen.put("<string>")
                // (From where the writer keeps it: a copy of it for each item was a retain
                // and a release.)
                lastSectionText.withUnsafeBufferPointer { pen.put($0) }
                pen.put("</string>\n")
            }
            return start.distance(to: pen.at)
        }
    }

    mutating func finish() throws -> Written {
        var written = Written(bytes: try sink.finish(path: outputName))
        if !leftOutMetadata.isEmpty {
            written.warnings.append(.metadataLeftOut(leftOutMetadata, by: "a property list"))
        }
        written.warnings += log.warnings
        return written
    }
}
