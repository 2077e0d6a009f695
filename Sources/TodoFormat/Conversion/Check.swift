extension TodoDocument {
    /// The problems in a todo list file in any format: what `todofmt check` reports.
    ///
    /// A file that cannot be read at all throws its error; a checklist that parses may
    /// still have problems (lines that look like tasks but are not, mixed line endings).
    public static func problems(
        inFileAt path: String, format: DocumentFormat? = nil, options: ListOptions = ListOptions()
    ) throws -> [Problem] {
        let name = InputFile.displayName(path)
        let bytes = try InputFile.read(path)
        let resolved = InputContent.format(given: format, path: path, bytes: bytes) ?? .markdown
        if resolved == .markdown {
            return try TodoDocument(parsing: MarkdownSource.decode(bytes, path: name), path: name).problems()
        }
        _ = try TodoList(bytes: bytes, format: resolved, path: name, options: options)
        return []
    }
}
