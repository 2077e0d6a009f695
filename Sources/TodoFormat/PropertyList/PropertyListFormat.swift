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
            text.hasPrefix("<plist") || (text.hasPrefix("<?xml") && text.contains("<plist")) || text.contains("<!DOCTYPE plist")
        return isPlist ? .certainly : .no
    }

    func read<S: ItemSink>(_ input: Input, options: ListOptions, into sink: inout S) throws {
        let bytes = try input.bytes()
        try bytes.withUnsafeBufferPointer { buffer in
            try PropertyListReader.read(
                buffer, binary: isBinary, path: input.name, schema: options.schema, key: options.key, into: &sink)
        }
    }

    func writer(to output: Output, options: ListOptions) throws -> any ListWriter {
        PropertyListWriter(format: self, sink: output.makeSink(), outputName: output.name, layout: ItemLayout(options.schema))
    }

    /// Replaces the list and keeps the rest: other keys, the item keys and checked values
    /// the file's items use; order fields are renumbered to follow the list.
    func update(_ existing: Input, with list: TodoList, options: ListOptions) throws -> PendingWrite {
        guard let path = existing.path else { throw ConversionError.unsupported("\(existing.name): only a file can be written into") }
        let bytes = try existing.bytes()
        let container = try bytes.withUnsafeBufferPointer { try self.container(of: $0, name: existing.name, options: options) }
        let items = Ordering.renumbered(list.items, schema: container.layout.schema)
        let output = try Output.file(path)
        do {
            var sink = output.makeSink()
            write(container.replacing(with: items, embedded: embedded), layout: container.layout, to: &sink)
            _ = try sink.finish(path: output.name)
            return PendingWrite(warnings: losses(of: list), commit: output.commit, discard: output.discard)
        } catch {
            output.discard()
            throw error
        }
    }

    /// Writes a whole property list in this format.
    func write(_ root: OutputValue, layout: ItemLayout, to sink: inout ByteSink) {
        if isBinary {
            BinaryPropertyListWriter.write(root, layout: layout, to: &sink)
        } else {
            XMLPropertyListWriter.write(root, layout: layout, to: &sink)
        }
    }

    /// What a property list cannot hold of the list.
    func losses(of list: TodoList) -> [ConversionWarning] {
        list.metadata.isEmpty ? [] : [.metadataLeftOut(list.metadata, by: "a property list")]
    }

    /// The list's place in an existing file and how its items are written. An array root is
    /// read one item at a time, only to learn its layout.
    private func container(of bytes: UnsafeBufferPointer<UInt8>, name: String, options: ListOptions) throws -> ListContainer {
        var learner = ItemLayout.Learner(options.schema)
        func adopt(_ value: FieldValue) {
            if case .dictionary(let fields) = value { learner.adopt(fields) }
        }
        let root: FieldValue
        let fail: (String) -> ParseError
        if isBinary {
            let reader = try BinaryPropertyListReader(bytes: bytes, path: name)
            if let elements = try reader.arrayElements(reader.topObject) {
                for element in elements { adopt(try reader.value(element)) }
                return ListContainer(root: .array([]), place: .root, layout: learner.finish())
            }
            root = try reader.value(reader.topObject)
            fail = { reader.error($0, at: 8) }
        } else {
            var reader = XMLPropertyListReader(bytes: bytes, path: name)
            let tag = try reader.openPlist()
            if tag.is("array") && !tag.isClosing {
                if !tag.isEmpty {
                    while true {
                        let next = try reader.nextTag()
                        if next.isClosing && next.is("array") { break }
                        adopt(try reader.value(next))
                    }
                }
                try reader.closePlist()
                return ListContainer(root: .array([]), place: .root, layout: learner.finish())
            }
            root = try reader.value(tag)
            try reader.closePlist()
            let reporter = reader
            fail = { reporter.error($0, at: tag.offset) }
        }
        guard case .dictionary(let fields) = root else {
            throw fail("the root is neither an array of items nor a dictionary holding one")
        }
        return try ListContainer(dictionary: fields, key: options.key, schema: options.schema, path: name)
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
