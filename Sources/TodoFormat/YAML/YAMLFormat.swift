extension DocumentFormat {
    /// todofmt's YAML list (`.yaml`, `.yml`).
    public static let yaml = DocumentFormat(rawValue: "yaml")
}

#if YAML
/// YAML lists through libyaml (FORMAT.md, section 7.3): an optional metadata document,
/// then a sequence of item mappings.
struct YAMLFormat: ListFormat {
    var id: DocumentFormat { .yaml }
    var aliases: [String] { ["yml"] }
    var extensions: [String] { ["yaml", "yml"] }

    /// A line that is a mapping key (`key:` at the start of a line, then a space or the end)
    /// or a sequence entry holding one (`- key:`), after any comments and document markers.
    func recognition(of head: UnsafeBufferPointer<UInt8>) -> Recognition {
        for line in HeadLines(head, limit: 200) {
            if line.hasPrefix("#") || line.hasPrefix("---") || line.hasPrefix("%")
                || line.allSatisfy({ $0 == " " || $0 == "\r" })
            {
                continue
            }
            var rest = line[...]
            if rest.hasPrefix("- ") { rest = rest.dropFirst(2).drop { $0 == " " } }
            // An anchor or a tag before the item (`- &chore`), an alias of one, a flow mapping.
            while rest.first == "&" || rest.first == "!" {
                rest = rest.drop { $0 != " " }.drop { $0 == " " }
            }
            if rest.first == "*" || rest.isEmpty || rest.allSatisfy({ $0 == "\r" }) { continue }
            if rest.first == "{" { rest = rest.dropFirst().drop { $0 == " " } }
            if rest.first == "#" { continue }
            let key = rest.prefix { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" || $0 == "<" }
            if !key.isEmpty, rest.dropFirst(key.count).first == ":" {
                // The scalar after the colon: a space there is one character with a combining
                // mark after it (a name that starts with one, U+0301 or U+200D: found by
                // helper hunt 86, where a file todofmt wrote was refused).
                let after = rest.dropFirst(key.count).unicodeScalars.dropFirst().first
                if after == nil || after == " " || after == "\r" { return .possibly }
            }
            if line.hasPrefix("- ") || line.first?.isLetter == true { return .no }
        }
        return .no
    }

    func read<S: ItemSink>(_ input: Input, options: ListOptions, into sink: inout S) throws {
        try input.withBytes { buffer in
            try YAMLListReader.read(buffer, path: input.name, schema: options.schema, key: options.key, into: &sink)
        }
    }

    func writer(to output: Output, options: ListOptions) throws -> any ListWriter {
        try Self.writer(into: output.makeSink(), name: output.name, layout: ItemLayout(options.schema))
    }

    private static func writer(into sink: ByteSink, name: String, layout: ItemLayout) throws -> any ListWriter {
        if !YAMLScalarText.isSimpleKey(layout.entryKeys.children) {
            return try EmitterYAMLListWriter(into: sink, outputName: name, layout: layout)
        }
        return try YAMLListWriter(into: sink, outputName: name, layout: layout)
    }

    /// A file laid out as todofmt writes a new one is written as the list streams, without
    /// reading the file into items (`YAMLStreamedUpdate`): left as it is where it holds the
    /// list, else only the run of items that changed is read and written. Nil where that
    /// does not apply, and the list is written item by item (`update(_:with:options:)`).
    func update(
        _ existing: Input, options: ListOptions, streaming read: (inout any ListWriter) throws -> Void
    ) throws -> PendingWrite? {
        // A list under a key (`--key`) is in a mapping, which a new file never is.
        guard options.key == nil, let path = existing.path, let mapped = MappedFile(path: path) else { return nil }
        let layout = ItemLayout(options.schema)
        return try YAMLStreamedUpdate.write(
            into: path, name: existing.name, old: mapped.bytes, mapped: mapped, options: options,
            writer: { try Self.writer(into: $0, name: existing.name, layout: layout) }, read: read)
    }

    /// Changes one item where it stands: in a file laid out as a new file is, only that item
    /// and its neighbours are parsed (`YAMLListPatcher.updateItemInRun`); else the file is
    /// parsed once, not read into items first (`YAMLListPatcher.updateItem`).
    func updateItem(
        _ existing: Input, at index: Int, options: ListOptions, change: (TodoItem) throws -> TodoItem?
    ) throws -> ItemUpdate {
        guard let path = existing.path, let mapped = MappedFile(path: path), mapped.bytes.contains(where: { $0 > 32 })
        else { return .unsupported }
        if let update = try YAMLListPatcher.updateItemInRun(
            at: index, in: path, bytes: mapped.bytes, path: existing.name, options: options, mapped: mapped,
            change: change)
        {
            return update
        }
        return try YAMLListPatcher.updateItem(
            at: index, in: path, bytes: mapped.bytes, path: existing.name, options: options, mapped: mapped,
            change: change)
    }

    /// Changes a run of top-level items where they stand, in a file laid out as a new file
    /// is (`YAMLListPatcher.updateItemsInRun`).
    func updateItems(
        _ existing: Input, options: ListOptions, run: (Int) -> Range<Int>?,
        change: ([TodoItem]) throws -> [TodoItem]?
    ) throws -> ItemUpdate {
        guard let path = existing.path, let mapped = MappedFile(path: path), mapped.bytes.contains(where: { $0 > 32 })
        else { return .unsupported }
        return try YAMLListPatcher.updateItemsInRun(
            in: path, bytes: mapped.bytes, path: existing.name, options: options, mapped: mapped, run: run,
            change: change) ?? .unsupported
    }

    /// Moves a top-level item by its lines, in a file laid out as a new file is
    /// (`YAMLListPatcher.moveItemInRun`).
    func moveItem(
        _ existing: Input, options: ListOptions, from: Int, to: Int,
        place: (TodoItem, TodoItem?, TodoItem?) throws -> TodoItem?
    ) throws -> ItemUpdate {
        guard let path = existing.path, let mapped = MappedFile(path: path) else { return .unsupported }
        return try YAMLListPatcher.moveItemInRun(
            in: path, bytes: mapped.bytes, path: existing.name, options: options, mapped: mapped, from: from, to: to,
            place: place) ?? .unsupported
    }

    /// Writes the list into the file changing only what changed (`YAMLListPatcher`): comments,
    /// the header document, other keys, the layout, quoting and every unchanged item keep
    /// their bytes. An empty file is written anew.
    func update(_ existing: Input, with list: TodoList, options: ListOptions) throws -> PendingWrite {
        guard let path = existing.path else {
            throw ConversionError.unsupported("\(existing.name): only a file can be written into")
        }
        let mapped = MappedFile(path: path)
        let bytes = mapped == nil ? try existing.bytes() : []
        func update(_ buffer: UnsafeBufferPointer<UInt8>) throws -> PendingWrite {
            let output = try Output.file(path)
            do {
                if !buffer.contains(where: { $0 > 32 }) {
                    var writer = try self.writer(to: output, options: options)
                    try list.send(to: &writer)
                    return PendingWrite(
                        warnings: try writer.finish().warnings, commit: output.commit, discard: output.discard)
                }
                var sink = output.makeSink()
                let warnings = try YAMLListPatcher.write(
                    list, into: buffer, path: existing.name, options: options, to: &sink, mapped: mapped)
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
}
#endif
