import Foundation

extension DocumentFormat {
    /// JSON: the Codable shape `[{"name": …, "checked": …}]`, any synonym keys, or an object
    /// holding the list (`.json`).
    public static let json = DocumentFormat(rawValue: "json")
}

/// JSON files (FORMAT.md, section 7.4): an array of item objects, or an object that holds one.
struct JSONFormat: ListFormat {
    var id: DocumentFormat { .json }
    var extensions: [String] { ["json"] }
    var keepsDatesAsText: Bool { true }

    func recognition(of head: UnsafeBufferPointer<UInt8>) -> Recognition {
        var i = ByteOrderMark.length(in: head)
        func skipSpace() { while i < head.count && [32, 9, 10, 13].contains(head[i]) { i += 1 } }
        skipSpace()
        guard i < head.count else { return .no }
        if head[i] == UInt8(ascii: "{") { return .likely }
        guard head[i] == UInt8(ascii: "[") else { return .no }
        i += 1
        skipSpace()
        // `[` then what a JSON value starts with; a checklist's `[link]` is not JSON.
        return i == head.count || "{[]\"-0123456789tfn".utf8.contains(head[i]) ? .likely : .no
    }

    func read<S: ItemSink>(_ input: Input, options: ListOptions, into sink: inout S) throws {
        try read(input, sink: &sink) { buffer, sink in
            try JSONListReader.read(buffer, path: input.name, schema: options.schema, key: options.key, into: &sink)
        }
    }

    func read<S: PlainItemSink>(_ input: Input, options: ListOptions, plainNamesInto sink: inout S) throws {
        try read(input, sink: &sink) { buffer, sink in
            try JSONListReader.read(
                buffer, path: input.name, schema: options.schema, key: options.key, plainNamesInto: &sink)
        }
    }

    /// `read(_:options:plainNamesInto:)` from the top-level item at `offset` (where a reading
    /// of the same file said one starts) to the end of the list.
    func read<S: PlainItemSink>(
        _ input: Input, options: ListOptions, from offset: Int, plainNamesInto sink: inout S
    ) throws {
        try read(input, sink: &sink) { buffer, sink in
            try JSONListReader.read(
                buffer, path: input.name, schema: options.schema, from: offset, plainNamesInto: &sink)
        }
    }

    private func read<S: ItemSink>(
        _ input: Input, sink: inout S, with read: (UnsafeBufferPointer<UInt8>, inout S) throws -> Void
    ) throws {
        // An empty file is an empty list, as in every format (FORMAT.md, section 8).
        if try input.head(1).isEmpty {
            try sink.begin(metadata: [])
            return try sink.end()
        }
        try input.withBytes { try read($0, &sink) }
    }

    func writer(to output: Output, options: ListOptions) throws -> any ListWriter {
        JSONListWriter(into: output.makeSink(), outputName: output.name, layout: ItemLayout(options.schema))
    }

    /// Writes the list into the file changing only what changed (`JSONListPatcher`): other
    /// keys, the layout, the escapes and every unchanged item keep their bytes.
    func update(_ existing: Input, with list: TodoList, options: ListOptions) throws -> PendingWrite {
        guard let path = existing.path else {
            throw ConversionError.unsupported("\(existing.name): only a file can be written into")
        }
        // A large file is mapped rather than read, and passed over in order.
        let mapped = MappedFile(path: path)
        let bytes = mapped == nil ? try existing.bytes() : []
        func update(_ buffer: UnsafeBufferPointer<UInt8>) throws -> PendingWrite {
            guard buffer.contains(where: { $0 > 32 }) else { return try writeNew(list, to: path, options: options) }
            let output = try Output.file(path)
            do {
                var sink = output.makeSink()
                var warnings: [ConversionWarning] =
                    list.metadata.isEmpty ? [] : [.metadataLeftOut(list.metadata, by: "plain JSON")]
                warnings += try JSONListPatcher.write(
                    list.items, into: buffer, path: existing.name, options: options, to: &sink, mapped: mapped)
                _ = try sink.finish(path: output.name)
                return PendingWrite(warnings: warnings, commit: output.commit, discard: output.discard)
            } catch {
                output.discard()
                throw error
            }
        }
        if let mapped { return try update(mapped.bytes) }
        return try bytes.withUnsafeBufferPointer(update)
    }

    /// Changes one item where it stands (`TextListPatcher.write(replacing:…)`): the file is
    /// mapped and scanned, not read into items.
    func updateItem(
        _ existing: Input, at index: Int, options: ListOptions, change: (TodoItem) throws -> TodoItem?
    ) throws -> ItemUpdate {
        try patching(existing, options: options) { patcher, path in
            try patcher.updateItem(at: index, in: path, change: change)
        }
    }

    /// Changes a run of top-level items where they stand (`TextListPatcher.updateItems`).
    func updateItems(
        _ existing: Input, options: ListOptions, run: (Int) -> Range<Int>?,
        change: ([TodoItem]) throws -> [TodoItem]?
    ) throws -> ItemUpdate {
        try patching(existing, options: options) { patcher, path in
            try patcher.updateItems(in: path, run: run, change: change)
        }
    }

    /// Moves a top-level item without reading the items (`TextListPatcher.moveItem`).
    func moveItem(
        _ existing: Input, options: ListOptions, from: Int, to: Int,
        place: (TodoItem, TodoItem?, TodoItem?) throws -> TodoItem?
    ) throws -> ItemUpdate {
        try patching(existing, options: options) { patcher, path in
            try patcher.moveItem(from: from, to: to, in: path, place: place)
        }
    }

    /// `body` with the patcher of the file `existing`, mapped and scanned, and its path.
    private func patching(
        _ existing: Input, options: ListOptions,
        _ body: (inout TextListPatcher<JSONListSyntax>, String) throws -> ItemUpdate
    ) throws -> ItemUpdate {
        guard let path = existing.path, let mapped = MappedFile(path: path) else { return .unsupported }
        var patcher = try JSONListPatcher.patcher(
            for: mapped.bytes, path: existing.name, options: options, mapped: mapped)
        return try body(&patcher, path)
    }

    private func writeNew(_ list: TodoList, to path: String, options: ListOptions) throws -> PendingWrite {
        let output = try Output.file(path)
        do {
            var writer = try self.writer(to: output, options: options)
            try list.send(to: &writer)
            return PendingWrite(warnings: try writer.finish().warnings, commit: output.commit, discard: output.discard)
        } catch {
            output.discard()
            throw error
        }
    }
}

/// A list kept as JSON text inside another file (a UserDefaults data value): written into
/// the old text changing only what changed, so that an unchanged list keeps its bytes and a
/// changed one keeps the app's layout (JSONEncoder's compact text, Python's spaced and
/// ASCII-escaped text).
struct JSONEmbedding: EmbeddedListCodec {
    func update(_ old: [UInt8], with items: [TodoItem], options: ListOptions, name: String) throws
        -> (bytes: [UInt8], warnings: [ConversionWarning])
    {
        var sink = ByteSink()
        let warnings = try old.withUnsafeBufferPointer { buffer in
            try JSONListPatcher.write(
                items, into: buffer, path: name, options: ListOptions(schema: options.schema), to: &sink)
        }
        return (try sink.finish(path: name), warnings)
    }
}
