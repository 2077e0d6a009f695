import Foundation

/// A todo list in any format as a checklist's text, as git's textconv wants it (`todofmt cat`).
public enum ChecklistText {
    /// Writes the list in `source` to standard output as a checklist: a checklist's bytes as
    /// they are (read and written in blocks, never whole), any other format as `Conversion`
    /// writes it. Returns what the checklist could not hold; the keys beside the list in a
    /// dictionary root are not part of the list this shows, and not warned of (as git's
    /// textconv, every `git diff` of an app's file would say so).
    public static func print(
        _ source: Conversion.Source, format: DocumentFormat? = nil, options: ListOptions = ListOptions()
    ) throws -> [ConversionWarning] {
        if case .file(let url) = source {
            let input = try Input.reading(url.filePath)
            if FormatRegistry.inputFormat(given: format, path: input.path, head: try input.head()) == .markdown {
                let reader = try ByteReader(input)
                defer { reader.close() }
                var sink = ByteSink(descriptor: 1)
                var at = 0
                while at < reader.count {
                    let chunk = try reader.readBytes(at..<min(reader.count, at + (1 << 20)))
                    chunk.withUnsafeBufferPointer { sink.write($0) }
                    at += chunk.count
                }
                _ = try sink.finish(path: "<stdout>")
                return []
            }
        }
        return try Conversion(
            input: source, output: .standardOutput, inputFormat: format, outputFormat: .markdown, options: options
        ).run().filter { $0.kind != .besideList }
    }
}
