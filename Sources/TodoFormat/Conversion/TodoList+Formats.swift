import Foundation

/// How to find a list in a file and what its item keys are called.
public struct ListOptions: Sendable {
    /// The key of a dictionary root that holds the list (`--key`); nil to find it.
    public var key: String?
    /// The keys of item objects (`--field ROLE=KEY` names some).
    public var schema: ItemSchema
    /// The table of a database that holds the list (`--table`); nil to find it.
    public var table: String?

    /// Options for finding a list: all nil or standard to let todofmt find it.
    public init(key: String? = nil, schema: ItemSchema = .standard, table: String? = nil) {
        self.key = key
        self.schema = schema
        self.table = table
    }
}

/// A file's content as it was read: text for a checklist, bytes for everything else.
enum InputContent {
    case text(String)
    case bytes([UInt8])
    /// An SQLite database, read where it is.
    case database(path: String)

    /// Reads a list from it and hands it to `writer`.
    func read<W: ListWriter>(
        as format: DocumentFormat, path: String, options: ListOptions, to writer: inout W, sink: inout ByteSink
    ) throws {
        let bytes: [UInt8]
        switch self {
        case .database(let file) where !InputFile.isWriteAheadLogged(file):
            // A database with a rollback journal is read where it is: a reader makes no files.
            let db = try Database(path: file, readOnly: true, name: path)
            try Self.readTable(of: db, path: path, options: options, to: &writer, sink: &sink)
            return
        case .database(let file):
            // SQLite makes -shm and -wal files beside a WAL database even when it only reads
            // it. A read must change nothing, so it reads a copy (with its -wal, so the
            // newest rows are seen) in a temporary folder.
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("todofmt-read-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            let copy = folder.appendingPathComponent("database").path
            do {
                try FileManager.default.copyItem(atPath: file, toPath: copy)
                if FileManager.default.fileExists(atPath: file + "-wal") {
                    try FileManager.default.copyItem(atPath: file + "-wal", toPath: copy + "-wal")
                }
            } catch {
                throw ConversionError.io(path: path, reason: (error as NSError).localizedDescription)
            }
            let db = try Database(path: copy, readOnly: true, name: path)
            try Self.readTable(of: db, path: path, options: options, to: &writer, sink: &sink)
            return
        case .bytes(let b) where format == .sqlite:
            // A database in memory is read from a temporary file: SQLite opens files.
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("todofmt-\(UUID().uuidString).sqlite")
            defer { try? FileManager.default.removeItem(at: file) }
            do {
                try Data(b).write(to: file)
            } catch {
                throw ConversionError.io(path: path, reason: (error as NSError).localizedDescription)
            }
            try InputContent.database(path: file.path).read(as: .sqlite, path: path, options: options, to: &writer, sink: &sink)
            return
        case .bytes(let b) where format == .sql:
            let db = try Database()
            try db.runDump(b, path: path)
            try Self.readTable(of: db, path: path, options: options, to: &writer, sink: &sink)
            return
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
            case .sqlite, .sql:
                break
            }
        }
    }

    private static func readTable<W: ListWriter>(
        of db: Database, path: String, options: ListOptions, to writer: inout W, sink: inout ByteSink
    ) throws {
        try ListTable.find(in: db, table: options.table, schema: options.schema).read(from: db, to: &writer, sink: &sink)
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
        if format == .sqlite || (format == nil && DocumentFormat(path: path) == .sqlite) || InputFile.isSQLite(path) {
            self = try TreeBuilder.build { tree, sink in
                try InputContent.database(path: path).read(as: .sqlite, path: name, options: options, to: &tree, sink: &sink)
            }
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
        case .sql:
            OwnTable(self).dump(to: &sink)
        case .sqlite:
            // A database is a file: built in a temporary one, then copied out.
            let path = FileManager.default.temporaryDirectory.appendingPathComponent("todofmt-\(UUID().uuidString).sqlite").path
            defer { try? FileManager.default.removeItem(atPath: path) }
            if let db = try? Database(path: path, readOnly: false), (try? OwnTable(self).write(to: db)) != nil,
                let bytes = try? InputFile.read(path)
            {
                sink.write(bytes: bytes)
            }
        }
    }

    /// Writes the list to a file (`-` for standard output) through a temporary file renamed
    /// into place. Into an existing JSON or property list file it writes only the list: other
    /// keys, the file's format and the item keys it uses stay, and order fields are renumbered
    /// to follow the list. The format comes from `format`, else the existing file, else the
    /// extension, else Markdown for standard output.
    /// Returns warnings about what the output could not hold.
    @discardableResult
    public func write(to path: String, format: DocumentFormat? = nil, options: ListOptions = ListOptions()) throws -> [String] {
        try write(to: path, format: format, options: options, into: ListContainer.existing(at: path, format: format, options: options))
    }

    /// The same, with the output's existing container already read.
    func write(to path: String, format: DocumentFormat?, options: ListOptions, into container: ListContainer?) throws -> [String] {
        let target = try DocumentFormat.output(path, given: format, container: container)
        var warnings = losses(in: target)
        if target == .sqlite {
            let leftOut = try writeDatabase(to: path, options: options)
            if !leftOut.fields.isEmpty {
                warnings.append("the table has no column for \(leftOut.fields.sorted().joined(separator: ", ")); those fields were left out")
            }
            if leftOut.flattened {
                warnings.append("the table has no parent column; nested items were written one after another")
            }
            return warnings
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
        return warnings
    }

    /// Writes the list into an SQLite database: a new file gets todofmt's table (built in a
    /// temporary file renamed into place); an existing one has its list table updated in
    /// place in one transaction. Returns, for warnings, the fields that had no column and
    /// whether nested items had to be written one after another.
    func writeDatabase(to path: String, options: ListOptions) throws -> (fields: Set<String>, flattened: Bool) {
        guard path != "-" else { throw ConversionError.unsupported("a database cannot be written to standard output; name a file") }
        if FileManager.default.fileExists(atPath: path) {
            let db = try Database(path: path, readOnly: false)
            let table: ListTable
            do {
                table = try ListTable.find(in: db, table: options.table, schema: options.schema)
            } catch ConversionError.noList(_, _) where options.table == nil {
                // A database without a list gets todofmt's table beside its others.
                try OwnTable(self).write(to: db)
                return ([], false)
            }
            if table.isOwn {
                try OwnTable(self).write(to: db)
                return ([], false)
            }
            var update = TableUpdate(table: table, db: db)
            try update.write(self)
            return (update.leftOut, items.contains { !$0.children.isEmpty })
        }
        let directory = (path as NSString).deletingLastPathComponent
        let temporary = (directory.isEmpty ? "." : directory) + "/." + (path as NSString).lastPathComponent + ".todofmt-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: temporary) }
        do {
            let db = try Database(path: temporary, readOnly: false)
            try OwnTable(self).write(to: db)
        }
        guard rename(temporary, path) == 0 else { throw ConversionError.io(path: path, reason: String(cString: strerror(errno))) }
        return ([], false)
    }

    /// What a format leaves out of this list, as sentences for a warning.
    func losses(in format: DocumentFormat) -> [String] {
        guard !metadata.isEmpty, format != .markdown, format != .yaml else { return [] }
        let keys = metadata.map(\.key).joined(separator: ", ")
        let what = format == .json ? "plain JSON" : format.isPropertyList ? "a property list" : "an SQLite table"
        return ["\(what) has no place for the list's metadata (\(keys)); it was left out"]
    }
}

extension ListContainer {
    /// The list container of an existing output file, or nil for a new (or empty) file or
    /// a format that is always written whole.
    static func existing(at path: String, format: DocumentFormat?, options: ListOptions) throws -> ListContainer? {
        guard path != "-", FileManager.default.fileExists(atPath: path) else { return nil }
        // Checklists, YAML and dumps are written whole; databases are updated by their own code.
        let whole: Set<DocumentFormat> = [.markdown, .yaml, .sqlite, .sql]
        if let format, whole.contains(format) { return nil }
        if format == nil, let named = DocumentFormat(path: path), whole.contains(named) { return nil }
        if InputFile.isSQLite(path) { return nil }
        if (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) == 0 { return nil }
        guard let container = try read(path, key: options.key, schema: options.schema) else {
            throw ConversionError.unsupported(
                "\(path) exists and is not a JSON or property list file todofmt can write a list into; remove it to write a new one")
        }
        return container
    }
}

extension DocumentFormat {
    /// The format to write `path` in: the one given, else the existing file's, else the
    /// extension's, else Markdown for standard output.
    fileprivate static func output(_ path: String, given: DocumentFormat?, container: ListContainer?) throws -> DocumentFormat {
        guard let target = given ?? container?.format ?? DocumentFormat(path: path) ?? (InputFile.isSQLite(path) ? .sqlite : nil)
            ?? (path == "-" ? .markdown : nil)
        else {
            throw ConversionError.undetectableFormat(path: path)
        }
        return target
    }
}

/// One `todofmt convert`: read a list in one format, write it in another.
public struct Conversion: Sendable {
    /// The file to read, or `-` for standard input.
    public var input: String
    /// The file to write, or `-` for standard output.
    public var output: String
    /// The input's format; nil to take it from the extension or the content.
    public var from: DocumentFormat?
    /// The output's format; nil to take it from an existing file or the extension.
    public var to: DocumentFormat?
    /// Where the list is and what its keys are called, for both files.
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
        let target = try DocumentFormat.output(output, given: to, container: container)
        let content: InputContent
        var source = from ?? DocumentFormat(path: input)
        if source == nil && InputFile.isSQLite(input) { source = .sqlite }
        if source == .sqlite {
            content = .database(path: input)
        } else if source == .markdown && target != .markdown {
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
        if container != nil || target.isPropertyList || target == .sqlite || target == .sql {
            let list = try TreeBuilder.build { tree, sink in
                try content.read(as: source, path: name, options: options, to: &tree, sink: &sink)
            }
            return try list.write(to: output, format: target, options: options, into: container)
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
