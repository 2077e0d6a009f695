import Foundation

extension JSONFormat {
    /// A new JSON file's top-level items each start a line with two spaces and `{`.
    static let streamedUpdate = StreamedUpdate<JSONListSyntax>(marker: Array("\n  {".utf8), itemOffset: 3)

    /// `update(_:with:options:)` for a list that a reader hands to `read` as it reads it, into
    /// a file laid out as todofmt writes a new JSON file (`StreamedUpdate`); nil where that
    /// does not apply, with nothing written.
    func update(
        _ existing: Input, options: ListOptions, streaming read: (inout any ListWriter) throws -> Void
    ) throws -> PendingWrite? {
        guard let path = existing.path, let mapped = MappedFile(path: path) else { return nil }
        let old = mapped.bytes
        // A new file's writer starts the root array at the first byte.
        guard old.first == UInt8(ascii: "[") else { return nil }
        return try Self.streamedUpdate.write(
            into: path, name: existing.name, old: old,
            patcher: { try? JSONListPatcher.patcher(for: old, path: existing.name, options: options) }, format: .json,
            schema: options.schema,
            writer: { JSONListWriter(into: $0, outputName: existing.name, layout: ItemLayout(options.schema)) },
            read: read)
    }
}
