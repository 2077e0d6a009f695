import Foundation

/// How to find a list in a file and what its item keys are called.
public struct ListOptions: Sendable {
    /// The key of a dictionary root that holds the list (`--key`); nil to find it.
    public var key: String?
    /// The keys of item objects (`--field ROLE=KEY` names some).
    public var schema: ItemSchema

    public init(key: String? = nil, schema: ItemSchema = .standard) {
        self.key = key
        self.schema = schema
    }
}

/// A file's content as it was read: text for a checklist, bytes for everything else.
enum InputContent {
    case text(String)
    case bytes([UInt8])

    /// Reads a list from it and hands it to `writer`.
    func read<W: ListWriter>(
        as format: DocumentFormat, path: String, options: ListOptions, to writer: inout W, sink: inout ByteSink
    ) throws {
        let bytes: [UInt8]
        switch self {
        case .text(let text):
            try MarkdownSource.stream(text, path: path, to: &writer, sink: &sink)
            return
        case .bytes(let b) where format == .markdown:
            try MarkdownSource.stream(MarkdownSource.decode(b, path: path), path: path, to: &writer, sink: &sink)
            return
        case .bytes(let b):
            bytes = b
        }
        try bytes.withUnsafeBufferPointer { buffer in
            switch format {
            case .markdown: break
            case .json:
                try JSONListReader.read(buffer, path: path, schema: options.schema, key: options.key, to: &writer, sink: &sink)
            case .yaml:
                try YAMLListReader.read(buffer, path: path, schema: options.schema, to: &writer, sink: &sink)
            case .plist, .bplist:
                try PropertyListReader.read(
                    buffer, binary: format == .bplist, path: path, schema: options.schema, key: options.key, to: &writer,
                    sink: &sink)
            }
        }
    }

    /// The input's format: the one given, else the extension's, else the content's. A
    /// property list's content decides between XML and binary.
    static func format(given: DocumentFormat?, path: String, bytes: [UInt8]) -> DocumentFormat? {
        let named = given ?? DocumentFormat(path: path)
        let seen = DocumentFormat(content: bytes)
        if let named, named.isPropertyList, let seen, seen.isPropertyList { return seen }
        return named ?? seen
    }
}

extension TodoList {
    /// Reads a list from the bytes of a file in `format`; `path` names it in errors.
    public init(bytes: [UInt8], format: DocumentFormat, path: String = "<input>", options: ListOptions = ListOptions()) throws {
        let resolved = InputContent.format(given: format, path: path, bytes: bytes) ?? format
        self = try TreeBuilder.build { tree, sink in
            try InputContent.bytes(bytes).read(as: resolved, path: path, options: options, to: &tree, sink: &sink)
        }
    }

    /// Reads a checklist.
    public init(markdown: String, path: String = "<input>") throws {
        self = try MarkdownSource.list(from: markdown, path: path)
    }

    /// Reads a file (`-` for standard input); the format comes from `format`, else the
    /// extension, else the content.
    public init(contentsOf path: String, format: DocumentFormat? = nil, options: ListOptions = ListOptions()) throws {
        let name = InputFile.displayName(path)
        if (format ?? DocumentFormat(path: path)) == .markdown {
            self = try MarkdownSource.list(from: InputFile.readText(path), path: name)
            return
        }
        let bytes = try InputFile.read(path)
        guard let resolved = InputContent.format(given: format, path: path, bytes: bytes) else {
            throw ConversionError.undetectableFormat(path: name)
        }
        try self.init(bytes: bytes, format: resolved, path: name, options: options)
    }

    /// The list as the bytes of a new file in `format`.
    public func encoded(as format: DocumentFormat, schema: ItemSchema = .standard) -> [UInt8] {
        var sink = ByteSink()
        write(as: format, schema: schema, to: &sink)
        return (try? sink.finish(path: "")) ?? []
    }

    func write(as format: DocumentFormat, schema: ItemSchema, to sink: inout ByteSink) {
        switch format {
        case .markdown:
            var writer = MarkdownWriter()
            write(to: &writer, sink: &sink)
        case .json:
            var writer = JSONListWriter(schema: schema)
            write(to: &writer, sink: &sink)
        case .yaml:
            var writer = YAMLListWriter()
            write(to: &writer, sink: &sink)
        case .plist:
            XMLPropertyListWriter.write(.items(items), schema: schema, to: &sink)
        case .bplist:
            BinaryPropertyListWriter.write(.items(items), schema: schema, to: &sink)
        }
    }

    /// Writes the list to a file (`-` for standard output) through a temporary file renamed
    /// into place. Into an existing JSON or property list file it writes only the list: other
    /// keys, the file's format and the item keys it uses stay, and order fields are renumbered
    /// to follow the list. The format comes from `format`, else the existing file, else the
    /// extension, else Markdown for standard output.
    public func write(to path: String, format: DocumentFormat? = nil, options: ListOptions = ListOptions()) throws {
        let container = try ListContainer.existing(at: path, format: format, options: options)
        guard let target = format ?? container?.format ?? DocumentFormat(path: path) ?? (path == "-" ? .markdown : nil) else {
            throw ConversionError.undetectableFormat(path: path)
        }
        try OutputFile.write(path) { sink in
            guard let container, target == .json || target.isPropertyList else {
                write(as: target, schema: options.schema, to: &sink)
                return
            }
            let items = Ordering.renumbered(items, schema: container.schema)
            let root = container.replacing(with: items)
            switch target {
            case .plist: XMLPropertyListWriter.write(root, schema: container.schema, to: &sink)
            case .bplist: BinaryPropertyListWriter.write(root, schema: container.schema, to: &sink)
            default:
                if container.place == .root {
                    var writer = JSONListWriter(schema: container.schema)
                    TodoList(items: items).write(to: &writer, sink: &sink)
                } else {
                    JSONValueWriter.write(root, schema: container.schema, to: &sink)
                }
            }
        }
    }

    /// What a format leaves out of this list, as sentences for a warning.
    func losses(in format: DocumentFormat) -> [String] {
        guard !metadata.isEmpty, format != .markdown, format != .yaml else { return [] }
        let keys = metadata.map(\.key).joined(separator: ", ")
        return ["\(format == .json ? "plain JSON" : "a property list") has no place for the list's metadata (\(keys)); it was left out"]
    }
}

extension ListContainer {
    /// The list container of an existing output file, or nil for a new (or empty) file or
    /// a format that is always written whole.
    static func existing(at path: String, format: DocumentFormat?, options: ListOptions) throws -> ListContainer? {
        guard path != "-", FileManager.default.fileExists(atPath: path) else { return nil }
        if let format, format == .markdown || format == .yaml { return nil }
        if format == nil, let named = DocumentFormat(path: path), named == .markdown || named == .yaml { return nil }
        if (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) == 0 { return nil }
        guard let container = try read(path, key: options.key, schema: options.schema) else {
            throw ConversionError.unsupported(
                "\(path) exists and is not a JSON or property list file todofmt can write a list into; remove it to write a new one")
        }
        return container
    }
}

/// One `todofmt convert`: read a list in one format, write it in another.
public struct Conversion: Sendable {
    public var input: String
    public var output: String
    public var from: DocumentFormat?
    public var to: DocumentFormat?
    public var options: ListOptions

    /// `output` is `-` for standard output.
    public init(
        input: String, output: String = "-", from: DocumentFormat? = nil, to: DocumentFormat? = nil,
        options: ListOptions = ListOptions()
    ) {
        self.input = input
        self.output = output
        self.from = from
        self.to = to
        self.options = options
    }

    /// Runs the conversion; returns warnings about what the output format could not hold.
    ///
    /// Into a new file, items go from the reader to the writer one top-level item at a time
    /// (a checklist's one item at a time), so memory stays near the input's size. Writing
    /// into an existing JSON or property list file reads the list whole first.
    public func run() throws -> [String] {
        let name = InputFile.displayName(input)
        let container = try ListContainer.existing(at: output, format: to, options: options)
        guard let target = to ?? container?.format ?? DocumentFormat(path: output) ?? (output == "-" ? .markdown : nil) else {
            throw ConversionError.undetectableFormat(path: output)
        }
        let content: InputContent
        var source = from ?? DocumentFormat(path: input)
        if source == .markdown && target != .markdown {
            content = .text(try InputFile.readText(input))
        } else {
            let bytes = try InputFile.read(input)
            source = InputContent.format(given: from, path: input, bytes: bytes)
            content = .bytes(bytes)
        }
        guard let source else { throw ConversionError.undetectableFormat(path: name) }
        if source == .markdown && target == .markdown, case .bytes(let bytes) = content {
            // Checklist to checklist copies the document exactly, once it has parsed.
            _ = try TodoList(bytes: bytes, format: .markdown, path: name)
            try OutputFile.write(output) { sink in sink.write(bytes: bytes) }
            return []
        }
        if container != nil || target.isPropertyList {
            let list = try TreeBuilder.build { tree, sink in
                try content.read(as: source, path: name, options: options, to: &tree, sink: &sink)
            }
            try list.write(to: output, format: target, options: options)
            return list.losses(in: target)
        }
        var losses: [String] = []
        try OutputFile.write(output) { sink in
            switch target {
            case .json:
                var writer = JSONListWriter(schema: options.schema)
                try content.read(as: source, path: name, options: options, to: &writer, sink: &sink)
                losses = TodoList(metadata: writer.leftOutMetadata).losses(in: .json)
            case .yaml:
                var writer = YAMLListWriter()
                try content.read(as: source, path: name, options: options, to: &writer, sink: &sink)
            default:
                var writer = MarkdownWriter()
                try content.read(as: source, path: name, options: options, to: &writer, sink: &sink)
            }
        }
        return losses
    }
}
