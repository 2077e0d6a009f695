import Foundation

extension TodoList {
    /// Reads a list from the bytes of a file in `format`; `path` names it in errors.
    public init(bytes: [UInt8], format: DocumentFormat, path: String = "<input>") throws {
        switch format {
        case .markdown:
            self = try MarkdownSource.list(from: MarkdownSource.decode(bytes, path: path), path: path)
        case .json:
            self = try bytes.withUnsafeBufferPointer { buffer throws(ParseError) in
                try JSONListReader.read(buffer, path: path)
            }
        case .yaml:
            self = try bytes.withUnsafeBufferPointer { buffer throws(ParseError) in
                try YAMLListReader.read(buffer, path: path)
            }
        }
    }

    /// Reads a checklist.
    public init(markdown: String, path: String = "<input>") throws {
        self = try MarkdownSource.list(from: markdown, path: path)
    }

    /// Reads a file (`-` for standard input); the format comes from `format`, else the
    /// extension, else the content.
    public init(contentsOf path: String, format: DocumentFormat? = nil) throws {
        let name = InputFile.displayName(path)
        let known = format ?? DocumentFormat(path: path)
        if known == .markdown {
            self = try MarkdownSource.list(from: InputFile.readText(path), path: name)
            return
        }
        let bytes = try InputFile.read(path)
        guard let resolved = known ?? DocumentFormat(content: bytes) else {
            throw ConversionError.undetectableFormat(path: name)
        }
        try self.init(bytes: bytes, format: resolved, path: name)
    }

    /// The list as the bytes of a file in `format`.
    public func encoded(as format: DocumentFormat) -> [UInt8] {
        var sink = ByteSink()
        write(as: format, to: &sink)
        return (try? sink.finish(path: "")) ?? []
    }

    func write(as format: DocumentFormat, to sink: inout ByteSink) {
        switch format {
        case .markdown:
            var writer = MarkdownWriter()
            write(to: &writer, sink: &sink)
        case .json:
            var writer = JSONListWriter()
            write(to: &writer, sink: &sink)
        case .yaml:
            var writer = YAMLListWriter()
            write(to: &writer, sink: &sink)
        }
    }

    /// Writes the list to a file (`-` for standard output) through a temporary file
    /// renamed into place; the format comes from `format`, else the extension.
    public func write(to path: String, format: DocumentFormat? = nil) throws {
        guard let format = format ?? DocumentFormat(path: path) ?? (path == "-" ? .markdown : nil) else {
            throw ConversionError.undetectableFormat(path: path)
        }
        try OutputFile.write(path) { sink in write(as: format, to: &sink) }
    }

    /// What a format leaves out of this list, as sentences for a warning.
    func losses(in format: DocumentFormat) -> [String] {
        if format == .json && !metadata.isEmpty {
            let keys = metadata.map(\.key).joined(separator: ", ")
            return ["plain JSON has no place for the list's metadata (\(keys)); it was left out"]
        }
        return []
    }
}

/// One `todofmt convert`: read a list in one format, write it in another.
public struct Conversion: Sendable {
    public var input: String
    public var output: String
    public var from: DocumentFormat?
    public var to: DocumentFormat?

    /// `output` is `-` for standard output.
    public init(input: String, output: String = "-", from: DocumentFormat? = nil, to: DocumentFormat? = nil) {
        self.input = input
        self.output = output
        self.from = from
        self.to = to
    }

    /// The output's format: `to`, else the output's extension, else Markdown for standard output.
    public func outputFormat() throws -> DocumentFormat {
        if let to { return to }
        if let byName = DocumentFormat(path: output) { return byName }
        if output == "-" { return .markdown }
        throw ConversionError.undetectableFormat(path: output)
    }

    /// Runs the conversion; returns warnings about what the output format could not hold.
    ///
    /// Items go from the reader to the writer one top-level item at a time (a checklist's
    /// one item at a time): no whole list is built, so memory stays near the input's size.
    public func run() throws -> [String] {
        let target = try outputFormat()
        let name = InputFile.displayName(input)
        var source = from ?? DocumentFormat(path: input)
        var bytes: [UInt8] = []
        var text = ""
        if source == .markdown && target != .markdown {
            text = try InputFile.readText(input)
        } else {
            bytes = try InputFile.read(input)
            if source == nil { source = DocumentFormat(content: bytes) }
        }
        guard let source else { throw ConversionError.undetectableFormat(path: name) }
        if source == .markdown && target == .markdown {
            // Checklist to checklist copies the document exactly, once it has parsed.
            _ = try TodoList(bytes: bytes, format: .markdown, path: name)
            try OutputFile.write(output) { sink in sink.write(bytes: bytes) }
            return []
        }
        var losses: [String] = []
        try OutputFile.write(output) { sink in
            func pipe<W: ListWriter>(into writer: inout W) throws {
                switch source {
                case .markdown: try MarkdownSource.stream(text, path: name, to: &writer, sink: &sink)
                case .json:
                    try bytes.withUnsafeBufferPointer { buffer throws(ParseError) in
                        try JSONListReader.read(buffer, path: name, to: &writer, sink: &sink)
                    }
                case .yaml:
                    try bytes.withUnsafeBufferPointer { buffer throws(ParseError) in
                        try YAMLListReader.read(buffer, path: name, to: &writer, sink: &sink)
                    }
                }
            }
            switch target {
            case .markdown:
                var writer = MarkdownWriter()
                try pipe(into: &writer)
            case .json:
                var writer = JSONListWriter()
                try pipe(into: &writer)
                losses = TodoList(metadata: writer.leftOutMetadata).losses(in: .json)
            case .yaml:
                var writer = YAMLListWriter()
                try pipe(into: &writer)
            }
        }
        return losses
    }
}
