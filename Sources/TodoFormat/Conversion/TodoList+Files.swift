import Foundation

extension TodoList {
    /// Reads a file; the format comes from `format`, else the content, else the extension.
    public init(contentsOf url: URL, format: DocumentFormat? = nil, options: ListOptions = ListOptions()) throws {
        try self.init(input: Input.reading(url.filePath), format: format, options: options)
    }

    /// Reads the bytes of a file; `name` names it in errors. The format comes from `format`,
    /// else the content (a checklist when nothing else fits).
    public init(
        bytes: [UInt8], format: DocumentFormat? = nil, name: String = "<input>", options: ListOptions = ListOptions()
    ) throws {
        try self.init(input: Input(bytes: bytes, name: name), format: format, options: options)
    }

    init(input: Input, format: DocumentFormat?, options: ListOptions) throws {
        let id = FormatRegistry.inputFormat(given: format, path: input.path, head: try input.head())
        let reader = try FormatRegistry.format(id)
        self = try TodoList.build { try reader.read(input, options: options, into: &$0) }
    }

    /// The list as the bytes of a new file in `format`.
    public func encoded(as format: DocumentFormat, options: ListOptions = ListOptions()) throws -> [UInt8] {
        var writer = DepthLimitedWriter.guarding(
            try FormatRegistry.format(format).writer(to: .memory, options: options), format: format)
        try send(to: &writer)
        return try writer.finish().bytes
    }

    /// Writes the list to a file through a temporary file renamed into place (a database is
    /// updated in one transaction). Into an existing file only the list changes: its format,
    /// other keys and the item keys it uses stay. The format comes from an existing file's
    /// content, else `format`, else the extension. Returns what the file could not hold;
    /// with `strict`, that is an error and nothing is written.
    @discardableResult
    public func write(
        to url: URL, format: DocumentFormat? = nil, options: ListOptions = ListOptions(), strict: Bool = false
    ) throws -> [ConversionWarning] {
        try OutputPlan(.file(url), given: format, strict: strict).write(self, options: options)
    }
}

extension TodoDocument {
    /// The problems in a todo list file in any format: what `todofmt check` reports.
    ///
    /// A file that cannot be read at all throws its error; a checklist that parses may
    /// still have problems (lines that look like tasks but are not, mixed line endings).
    public static func problems(
        inFileAt url: URL, format: DocumentFormat? = nil, options: ListOptions = ListOptions()
    ) throws -> [Problem] {
        try problems(in: Input.reading(url.filePath), format: format, options: options)
    }

    /// The problems in the bytes of a file; `name` names it in locations.
    public static func problems(
        in bytes: [UInt8], name: String, format: DocumentFormat? = nil, options: ListOptions = ListOptions()
    ) throws -> [Problem] {
        try problems(in: Input(bytes: bytes, name: name), format: format, options: options)
    }

    static func problems(in input: Input, format: DocumentFormat?, options: ListOptions) throws -> [Problem] {
        let id = FormatRegistry.inputFormat(given: format, path: input.path, head: try input.head())
        if id == .markdown {
            return try TodoDocument(parsing: input.text(), path: input.name).problems()
        }
        _ = try TodoList(input: input, format: id, options: options)
        #if YAML
        if id == .yaml {
            return try input.bytes().withUnsafeBufferPointer { buffer in
                try YAMLRepeatedKeys.find(in: buffer, path: input.name).map { repeated in
                    Problem(
                        location: repeated.at, severity: .warning,
                        message:
                            "key \(String(reflecting: repeated.key)) given again in one mapping: its last value counts")
                }
            }
        }
        #endif
        guard id == .json else { return [] }
        // A key given twice in an object: apps read its last value (as todofmt does), but
        // the file says two things.
        let bytes = try input.bytes()
        return try bytes.withUnsafeBufferPointer { buffer in
            var scanner = JSONScanner(bytes: buffer, path: input.name)
            var found: [(key: String, offset: Int)] = []
            scanner.skipWhitespace()
            try scanner.repeatedKeys(into: &found)
            return found.map { repeated in
                Problem(
                    location: SourceLocation.of(offset: repeated.offset, in: buffer, file: input.name),
                    severity: .warning,
                    message: "key \(String(reflecting: repeated.key)) given again in one object: its last value counts")
            }
        }
    }
}

extension TodoList {
    /// Reads a checklist's text; `path` names it in errors.
    public init(markdown: String, path: String = "<input>") throws {
        self = try MarkdownSource(text: markdown, path: path).list()
    }
}
