import Foundation

extension DocumentFormat {
    /// An XML property list (`.plist`).
    public static let plist = DocumentFormat(rawValue: "plist")
    /// A binary property list (`.plist` with `--to bplist`, or any file starting `bplist00`),
    /// as UserDefaults stores its files.
    public static let bplist = DocumentFormat(rawValue: "bplist")
}

/// Property lists, XML or binary (FORMAT.md, section 7.5): an array of item dictionaries, or
/// a dictionary holding one (a UserDefaults file), possibly as JSON in a data value.
struct PropertyListFormat: ListFormat {
    /// Binary (`bplist00`) rather than XML.
    let isBinary: Bool
    /// How a list kept as text in a data value is written.
    let embedded: (any EmbeddedListCodec)?

    var id: DocumentFormat { isBinary ? .bplist : .plist }
    var aliases: [String] { isBinary ? ["binary"] : ["xml"] }
    var extensions: [String] { isBinary ? [] : ["plist"] }

    func recognition(of head: UnsafeBufferPointer<UInt8>) -> Recognition {
        if isBinary { return head.starts(with: "bplist0".utf8) ? .certainly : .no }
        var i = ByteOrderMark.length(in: head)
        while i < head.count && [32, 9, 10, 13].contains(head[i]) { i += 1 }
        guard i < head.count, head[i] == UInt8(ascii: "<") else { return .no }
        let text = String(decoding: head[i..<min(head.count, i + 512)], as: UTF8.self)
        let isPlist =
            text.hasPrefix("<plist") || (text.hasPrefix("<?xml") && text.contains("<plist"))
            || text.contains("<!DOCTYPE plist")
        return isPlist ? .certainly : .no
    }

    func read<S: ItemSink>(_ input: Input, options: ListOptions, into sink: inout S) throws {
        // An empty file is an empty list, as in every format (FORMAT.md, section 8).
        if try input.head(1).isEmpty {
            try sink.begin(metadata: [])
            return try sink.end()
        }
        try input.withBytes { buffer in
            try PropertyListReader.read(
                buffer, binary: isBinary, path: input.name, schema: options.schema, key: options.key, into: &sink)
        }
    }

    func read<S: PlainItemSink>(_ input: Input, options: ListOptions, plainNamesInto sink: inout S) throws {
        guard isBinary, try !input.head(1).isEmpty else { return try read(input, options: options, into: &sink) }
        try input.withBytes { buffer in
            try PropertyListReader.read(
                buffer, binary: true, path: input.name, schema: options.schema, key: options.key,
                plainNamesInto: &sink)
        }
    }

    func writer(to output: Output, options: ListOptions) throws -> any ListWriter {
        let layout = ItemLayout(options.schema)
        if layout.keyOrder.isEmpty {
            return isBinary
                ? BinaryListWriter(into: output.makeSink(), outputName: output.name, layout: layout)
                : XMLListWriter(into: output.makeSink(), outputName: output.name, layout: layout)
        }
        return PropertyListWriter(format: self, sink: output.makeSink(), outputName: output.name, layout: layout)
    }

    /// Writes the list into the file changing only what changed: an XML file keeps every
    /// byte outside the changed items (`XMLListPatcher`); a binary file is written anew with
    /// every other object copied as it was (`BinaryListRewriter`).
    func update(_ existing: Input, with list: TodoList, options: ListOptions) throws -> PendingWrite {
        guard let path = existing.path else {
            throw ConversionError.unsupported("\(existing.name): only a file can be written into")
        }
        let metadataWarnings: [ConversionWarning] =
            list.metadata.isEmpty ? [] : [.metadataLeftOut(list.metadata, by: "a property list")]
        if isBinary {
            let pending = try existing.withBytes { buffer in
                try PendingWrite.file(path) { sink in
                    try BinaryListRewriter.write(
                        list.items, into: buffer, path: existing.name, options: options, embedded: embedded, to: &sink)
                }
            }
            guard var pending else { return .unchanged(metadataWarnings) }
            pending.warnings = metadataWarnings + pending.warnings
            return pending
        }
        // A large XML file is mapped rather than read, and passed over in order.
        let mapped = MappedFile(path: path)
        let bytes = mapped == nil ? try existing.bytes() : []
        let output = try Output.file(path)
        do {
            var sink = output.makeSink()
            var warnings = metadataWarnings
            func write(_ buffer: UnsafeBufferPointer<UInt8>) throws -> [ConversionWarning] {
                try XMLListPatcher.write(
                    list.items, into: buffer, path: existing.name, options: options, embedded: embedded, to: &sink,
                    mapped: mapped)
            }
            warnings += try mapped.map { try write($0.bytes) } ?? bytes.withUnsafeBufferPointer(write)
            _ = try sink.finish(path: output.name)
            return PendingWrite(warnings: warnings, commit: output.commit, discard: output.discard)
        } catch {
            output.discard()
            throw error
        }
    }

    /// A new XML property list's top-level items each start a line with a tab and `<dict>`.
    static let streamedUpdate = StreamedUpdate<XMLListSyntax>(marker: Array("\n\t<dict>".utf8), itemOffset: 2)

    /// `update(_:with:options:)` for a list that a reader hands to `read` as it reads it, into
    /// an XML file laid out as todofmt writes a new one (`StreamedUpdate`), or a binary file
    /// that already holds the list as todofmt writes a new one; nil where that does not apply
    /// (a list kept in a data value, another layout, a changed binary file), with nothing
    /// written.
    func update(
        _ existing: Input, options: ListOptions, streaming read: (inout any ListWriter) throws -> Void
    ) throws -> PendingWrite? {
        let layout = ItemLayout(options.schema)
        guard layout.keyOrder.isEmpty, let path = existing.path, let mapped = MappedFile(path: path)
        else { return nil }
        let old = mapped.bytes
        if isBinary {
            return try Self.patchingReferences(
                old, at: path, name: existing.name, layout: layout, schema: options.schema, read: read)
        }
        // A new file's root array holds its first item on the next line: a file whose first
        // item is not there (a dictionary root, which `find` would read whole) is not one.
        let head = UnsafeBufferPointer(rebasing: old.prefix(1024))
        guard let first = Self.streamedUpdate.marker.starts(in: head, before: head.count, limit: 1).first,
            Self.endsWithArrayOpen(head, before: first)
        else { return nil }
        return try Self.streamedUpdate.write(
            into: path, name: existing.name, old: old,
            patcher: {
                guard
                    case .array(let patcher)? = try? XMLListPatcher.find(in: old, path: existing.name, options: options)
                else { return nil }
                return patcher
            }, format: id, schema: options.schema,
            writer: { XMLListWriter(into: $0, outputName: existing.name, layout: layout) }, read: read)
    }

    /// A binary file left as it is, where the list written as a new file (as it streams, its
    /// bytes compared with the file's) is the file's bytes: the file holds the list as
    /// todofmt writes it. (The whole-list write, `BinaryListRewriter`, compares the items read
    /// back, and takes a field that went under `fields` before others, which comes back after
    /// them, for a change: it wrote such a file's objects anew with nothing changed.) Where
    /// the bytes differ only in references that dictionaries' values hold, the file at `path`
    /// is copied with those changed (`BinaryReferencePatch`). Nil otherwise, the list's read
    /// stopped once too many bytes differ: a binary file's objects, references and offsets
    /// shift with most changes, so nothing of the streamed write is kept, and the caller
    /// writes the list with `BinaryListRewriter`. Nil also where the list holds a value the
    /// format cannot hold (the file then holds something else).
    private static func patchingReferences(
        _ old: UnsafeBufferPointer<UInt8>, at path: String, name: String, layout: ItemLayout, schema: ItemSchema,
        read: (inout any ListWriter) throws -> Void
    ) throws -> PendingWrite? {
        if let (differences, warnings) = try BinaryListComparer.compare(old, name: name, schema: schema, read: read) {
            if differences.isEmpty { return .unchanged(warnings) }
            return try PendingWrite.file(path) { sink in
                BinaryReferencePatch.write(old, with: differences, to: &sink)
                return warnings
            }
        }
        guard
            let (written, comparison, _) = try ComparedWriter.compare(
                old, format: .bplist, writer: { BinaryListWriter(into: $0, outputName: name, layout: layout) },
                noting: nil, keepingRest: false, keepsItems: { _ in true }, read: read)
        else { return nil }
        if comparison.isSame { return .unchanged(written.warnings) }
        guard comparison.outputCount == old.count, !comparison.tooDifferent,
            BinaryReferencePatch.applies(comparison.differences, in: old, name: name, schema: schema)
        else { return nil }
        return try PendingWrite.file(path) { sink in
            BinaryReferencePatch.write(old, with: comparison.differences, to: &sink)
            return written.warnings
        }
    }

    /// Whether the bytes before an item's start at `offset` end with a root `<array>` and the
    /// item's line break and tab.
    private static func endsWithArrayOpen(_ head: UnsafeBufferPointer<UInt8>, before offset: Int) -> Bool {
        let open = Array("<array>\n\t".utf8)
        return offset >= open.count && head[(offset - open.count)..<offset].elementsEqual(open)
    }

    /// Changes one item where it stands: in an XML file the file is mapped and scanned, not
    /// read into items (`TextListPatcher.write(replacing:…)`); a binary file is written anew
    /// reading only that item (`BinaryListRewriter.updateItem`).
    func updateItem(
        _ existing: Input, at index: Int, options: ListOptions, change: (TodoItem) throws -> TodoItem?
    ) throws -> ItemUpdate {
        guard let path = existing.path else { return .unsupported }
        if isBinary {
            let bytes = try existing.bytes()
            return try bytes.withUnsafeBufferPointer { buffer in
                try BinaryListRewriter.updateItem(
                    at: index, in: path, bytes: buffer, path: existing.name, options: options, change: change)
            }
        }
        return try patchingXML(existing, at: path, options: options) { patcher in
            try patcher.updateItem(at: index, in: path, change: change)
        }
    }

    /// Changes a run of top-level items where they stand: in an XML file through
    /// `TextListPatcher.updateItems`, in a binary one reading only the run
    /// (`BinaryListRewriter.updateItems`).
    func updateItems(
        _ existing: Input, options: ListOptions, run: (Int) -> Range<Int>?,
        change: ([TodoItem]) throws -> [TodoItem]?
    ) throws -> ItemUpdate {
        guard let path = existing.path else { return .unsupported }
        if isBinary {
            return try existing.bytes().withUnsafeBufferPointer { buffer in
                try BinaryListRewriter.updateItems(
                    in: path, bytes: buffer, path: existing.name, options: options, run: run, change: change)
            }
        }
        return try patchingXML(existing, at: path, options: options) { patcher in
            try patcher.updateItems(in: path, run: run, change: change)
        }
    }

    /// Moves a top-level item without reading the other items (`TextListPatcher.moveItem`,
    /// `BinaryListRewriter.moveItem`).
    func moveItem(
        _ existing: Input, options: ListOptions, from: Int, to: Int,
        place: (TodoItem, TodoItem?, TodoItem?) throws -> TodoItem?
    ) throws -> ItemUpdate {
        guard let path = existing.path else { return .unsupported }
        if isBinary {
            return try existing.bytes().withUnsafeBufferPointer { buffer in
                try BinaryListRewriter.moveItem(
                    in: path, bytes: buffer, path: existing.name, options: options, from: from, to: to, place: place)
            }
        }
        return try patchingXML(existing, at: path, options: options) { patcher in
            try patcher.moveItem(from: from, to: to, in: path, place: place)
        }
    }

    /// `body` with the patcher of the XML file `existing` at `path`, mapped and scanned;
    /// `.unsupported` where its list is not an array of items.
    private func patchingXML(
        _ existing: Input, at path: String, options: ListOptions,
        _ body: (inout TextListPatcher<XMLListSyntax>) throws -> ItemUpdate
    ) throws -> ItemUpdate {
        guard let mapped = MappedFile(path: path) else { return .unsupported }
        let found = try XMLListPatcher.find(in: mapped.bytes, path: existing.name, options: options, mapped: mapped)
        guard case .array(var patcher) = found else { return .unsupported }
        return try body(&patcher)
    }

    /// Writes a whole property list in this format.
    func write(_ root: OutputValue, layout: ItemLayout, to sink: inout ByteSink) {
        if isBinary {
            BinaryPropertyListWriter.write(root, layout: layout, to: &sink)
        } else {
            XMLPropertyListWriter.write(root, layout: layout, to: &sink)
        }
    }

    /// What a property list cannot hold of the list: its metadata, nulls, integers beyond
    /// 64 bits, and in XML control characters and date fractions.
    func losses(of list: TodoList) -> [ConversionWarning] {
        var log = WarningLog()
        if !list.metadata.isEmpty { log.append(contentsOf: [.metadataLeftOut(list.metadata, by: "a property list")]) }
        let binary = isBinary
        func walk(_ items: [TodoItem], _ path: [Int]) {
            for i in items.indices {
                Self.noteLosses(
                    of: items[i], binary: binary, at: { ListPlan<BinaryOldItem>.position(path + [i]) }, in: &log)
                if !items[i].children.isEmpty { walk(items[i].children, path + [i]) }
            }
        }
        walk(list.items, [])
        return log.warnings
    }

    /// Notes in `log` what a property list cannot hold of an item's own values (not its
    /// children's), naming the item by its position (made only when there is a loss).
    /// What a property list cannot hold of `fields`' values and keys (`noteLosses`' messages
    /// for them).
    static func lossesOfFields(_ fields: [Field], binary: Bool) -> [String] {
        var messages: [String] = []
        for field in fields {
            messages += binary ? BinaryListRewriter.losses(in: field.value) : XMLRenderer.losses(in: field.value)
            // A key XML cannot hold is written with U+FFFD, as a value is (two such keys may
            // then read back as one).
            if !binary && XMLRenderer.mayHaveForbidden(field.key) && XMLRenderer.hasForbidden(field.key) {
                messages.append(PropertyListLosses.controlCharacters)
            }
        }
        return messages
    }

    static func noteLosses(of item: TodoItem, binary: Bool, at position: () -> String, in log: inout WarningLog) {
        func losses(_ value: FieldValue) -> [String] {
            binary ? BinaryListRewriter.losses(in: value) : XMLRenderer.losses(in: value)
        }
        var messages: [String] = []
        if !binary && XMLRenderer.mayHaveForbidden(item.name) { messages += losses(.string(item.name)) }
        if !binary, let section = item.section, XMLRenderer.mayHaveForbidden(section) {
            messages += losses(.string(section))
        }
        if !binary, case .custom(let scalar) = item.status, scalar.value == 0xFFFE || scalar.value == 0xFFFF {
            messages.append(PropertyListLosses.controlCharacters)
        }
        messages += lossesOfFields(item.fields, binary: binary)
        guard !messages.isEmpty else { return }
        let described = ItemPositions.describe(position(), item)
        // Each loss once an item: the warning counts items.
        var noted: [String] = []
        for message in messages where !noted.contains(message) {
            noted.append(message)
            log.note(.values, message, item: described)
        }
    }
}

/// Writes a new property list: the items are gathered, then written whole (a binary
/// property list's offsets and references need every object first).
struct PropertyListWriter: ListWriter {
    let format: PropertyListFormat
    var sink: ByteSink
    let outputName: String
    let layout: ItemLayout
    private var builder = ListBuilder(keepingSlices: ())

    init(format: PropertyListFormat, sink: ByteSink, outputName: String, layout: ItemLayout) {
        self.format = format
        self.sink = sink
        self.outputName = outputName
        self.layout = layout
    }

    mutating func begin(metadata: [Field]) { builder.begin(metadata: metadata) }
    mutating func item(_ item: TodoItem, depth: Int) { builder.item(item, depth: depth) }
    mutating func end() {}

    mutating func finish() throws -> Written {
        let list = builder.finish()
        format.write(.items(list.items), layout: layout, to: &sink)
        return Written(warnings: format.losses(of: list), bytes: try sink.finish(path: outputName))
    }
}
