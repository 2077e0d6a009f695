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
        let bytes = try input.bytes()
        try bytes.withUnsafeBufferPointer { buffer in
            try JSONListReader.read(buffer, path: input.name, schema: options.schema, key: options.key, into: &sink)
        }
    }

    func writer(to output: Output, options: ListOptions) throws -> any ListWriter {
        JSONListWriter(into: output.makeSink(), outputName: output.name, layout: ItemLayout(options.schema))
    }

    /// Replaces the list and keeps the rest: other keys, and the item keys and checked
    /// values the file's items use; order fields are renumbered to follow the list.
    func update(_ existing: Input, with list: TodoList, options: ListOptions) throws -> PendingWrite {
        let bytes = try existing.bytes()
        guard let path = existing.path else { throw ConversionError.unsupported("\(existing.name): only a file can be written into") }
        guard bytes.contains(where: { $0 > 32 }) else { return try writeNew(list, to: path, options: options) }
        let container = try bytes.withUnsafeBufferPointer { try Self.container(of: $0, name: existing.name, options: options) }
        let items = Ordering.renumbered(list.items, schema: container.layout.schema)
        let output = try Output.file(path)
        do {
            var warnings: [ConversionWarning] = []
            if !list.metadata.isEmpty { warnings.append(.metadataLeftOut(list.metadata, by: "plain JSON")) }
            if container.place == .root {
                var writer = JSONListWriter(into: output.makeSink(), outputName: output.name, layout: container.layout)
                try TodoList(items: items).send(to: &writer)
                _ = try writer.finish()
            } else {
                var sink = output.makeSink()
                JSONValueWriter.write(container.replacing(with: items, embedded: JSONEmbedding()), layout: container.layout, to: &sink)
                _ = try sink.finish(path: output.name)
            }
            return PendingWrite(warnings: warnings, commit: output.commit, discard: output.discard)
        } catch {
            output.discard()
            throw error
        }
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

    /// The list's place in an existing file and how its items are written. An array root is
    /// read one item at a time, only to learn its layout.
    static func container(of bytes: UnsafeBufferPointer<UInt8>, name: String, options: ListOptions) throws -> ListContainer {
        var scanner = JSONScanner(bytes: bytes, path: name)
        switch scanner.peek() {
        case UInt8(ascii: "["):
            var learner = ItemLayout.Learner(options.schema)
            scanner.position += 1
            var first = true
            while try scanner.nextElement(close: UInt8(ascii: "]"), first: &first) {
                if case .dictionary(let fields) = try scanner.value() { learner.adopt(fields) }
            }
            try scanner.expectEnd()
            return ListContainer(root: .array([]), place: .root, layout: learner.finish())
        case UInt8(ascii: "{"):
            guard case .dictionary(let fields) = try scanner.value() else { throw scanner.error("expected an object") }
            try scanner.expectEnd()
            return try ListContainer(dictionary: fields, key: options.key, schema: options.schema, path: name)
        default:
            throw scanner.unexpected(expecting: "a JSON array of items, or an object holding one")
        }
    }
}

/// A list kept as JSON text inside another file (a UserDefaults data value), written in the
/// layout the app used: JSONEncoder's compact text, or Python's spaced and ASCII-escaped.
struct JSONEmbedding: EmbeddedListCodec {
    func encode(_ items: [TodoItem], layout: ItemLayout, like old: [UInt8]) -> [UInt8] {
        var writer = JSONListWriter(into: ByteSink(), outputName: "", layout: layout)
        try? TodoList(items: items).send(to: &writer)
        let json = (try? writer.finish().bytes) ?? []
        let style = JSONStyle(of: old)
        var text = style.apply(to: json)
        if style.layout != .lines, text.last == 10 { text.removeLast() }
        return text
    }
}
