/// Writes a new XML property list as the items arrive, as `PropertyListWriter` writes the
/// whole list (byte for byte, warnings too), without holding the list: each item is written
/// when the next one tells whether it has children (they go in its dictionary, last). An
/// item's own entries come from `ItemLayout.entries`, so only a layout without a file's key
/// order (whose children may come before other keys) is streamed.
struct XMLListWriter: ListWriter {
    private var sink: ByteSink
    private let outputName: String
    private let layout: ItemLayout
    private let keys: ItemLayout.EntryKeys
    private let xml: XMLPropertyListWriter
    /// Whether the layout is todofmt's own: an item without fields is then written without
    /// building its entries (`writeStandard`).
    private let isStandard: Bool
    /// The item that waits for the next, and its depth.
    private var pending: (item: TodoItem, depth: Int)?
    private var started = false
    private var leftOutMetadata: [Field] = []
    private var log = WarningLog()
    private var positions = ItemPositions()

    init(into sink: ByteSink, outputName: String, layout: ItemLayout) {
        self.sink = sink
        self.outputName = outputName
        self.layout = layout
        keys = layout.entryKeys
        xml = XMLPropertyListWriter(layout: layout)
        isStandard = layout == ItemLayout()
    }

    mutating func begin(metadata: [Field]) { leftOutMetadata = metadata }

    /// An item at `depth`, taken as one below the item before when it is deeper (as
    /// `ListBuilder` takes it).
    mutating func item(_ item: TodoItem, depth: Int) {
        let depth = min(max(depth, 0), (pending?.depth ?? -1) + 1)
        positions.advance(depth: depth)
        let position = positions
        PropertyListFormat.noteLosses(of: item, binary: false, at: { position.current }, in: &log)
        if !started {
            sink.write(static: XMLPropertyListWriter.header)
            sink.write(static: "<array>\n")
            started = true
        }
        writePending(nextDepth: depth)
        var bare = item
        if !bare.children.isEmpty { bare.children = [] }
        pending = (bare, depth)
    }

    mutating func end() {
        guard started else {
            sink.write(static: XMLPropertyListWriter.header)
            sink.write(static: "<array/>\n")
            sink.write(static: XMLPropertyListWriter.footer)
            return
        }
        writePending(nextDepth: 0)
        sink.write(static: "</array>\n")
        sink.write(static: XMLPropertyListWriter.footer)
    }

    /// Writes the waiting item, now that the next is at `nextDepth` (0 after the last): with
    /// its children's array opened when it is deeper, else closed with the levels it ends.
    private mutating func writePending(nextDepth: Int) {
        guard let (item, depth) = pending else { return }
        pending = nil
        let indent = 1 + 2 * depth
        let hasChildren = nextDepth > depth
        let open: Bool
        if isStandard && item.fields.isEmpty {
            writeStandard(item, indent: indent)
            open = true
        } else {
            open = xml.writeOpen(
                layout.entries(of: item, keys: keys, hasChildren: hasChildren), depth: indent, to: &sink)
        }
        // (An item's dictionary is never empty: it has the name.)
        if hasChildren && open {
            xml.writeKey(keys.children, depth: indent + 1, to: &sink)
            xml.line(indent + 1, "<array>\n", to: &sink)
            return
        }
        if open { xml.line(indent, "</dict>\n", to: &sink) }
        // Close the children's arrays of the items above, down to the next item's depth.
        var level = depth
        while level > nextDepth {
            level -= 1
            let parentIndent = 1 + 2 * level
            xml.line(parentIndent + 1, "</array>\n", to: &sink)
            xml.line(parentIndent, "</dict>\n", to: &sink)
        }
        sink.flushIfFull()
    }

    /// The entries `ItemLayout.entries` gives an item without fields in todofmt's own layout
    /// (its name, `checked`, a custom status, a section), written as `writeOpen` writes them.
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

    mutating func finish() throws -> Written {
        var written = Written(bytes: try sink.finish(path: outputName))
        if !leftOutMetadata.isEmpty {
            written.warnings.append(.metadataLeftOut(leftOutMetadata, by: "a property list"))
        }
        written.warnings += log.warnings
        return written
    }
}
