import Foundation

/// One `todofmt convert`: read a list in one format, write it in another.
///
/// Into a new file, items go from the reader to the writer as they are read, so memory stays
/// near the input's size. Into an existing file, the list is read whole and the output's
/// format updates the file, keeping what in it is not the list. Nothing is written until
/// everything has been read and written without error.
public struct Conversion: Sendable {
    /// Where a list is read from.
    public enum Source: Sendable, Hashable {
        case file(URL)
        case standardInput
    }

    /// Where a list is written to.
    public enum Destination: Sendable, Hashable {
        case file(URL)
        case standardOutput
    }

    /// The file to read, or standard input.
    public var input: Source
    /// The file to write, or standard output.
    public var output: Destination
    /// The input's format; nil to take it from the content or the extension.
    public var inputFormat: DocumentFormat?
    /// The output's format; nil to take it from an existing file's content or the extension.
    public var outputFormat: DocumentFormat?
    /// Where the list is and what its keys are called, for both files.
    public var options: ListOptions
    /// Whether anything the output cannot hold is an error (nothing is written) rather than a warning.
    public var strict: Bool

    /// A conversion; the output defaults to standard output, the formats to what the files say.
    public init(
        input: Source, output: Destination = .standardOutput, inputFormat: DocumentFormat? = nil,
        outputFormat: DocumentFormat? = nil, options: ListOptions = ListOptions(), strict: Bool = false
    ) {
        self.input = input
        self.output = output
        self.inputFormat = inputFormat
        self.outputFormat = outputFormat
        self.options = options
        self.strict = strict
    }

    /// Runs the conversion; returns what the output format could not hold.
    public func run() throws -> [ConversionWarning] {
        let input: Input
        switch self.input {
        case .file(let url): input = try Input.reading(url.filePath)
        case .standardInput: input = try Input.standardInput()
        }
        let source = FormatRegistry.inputFormat(given: inputFormat, path: input.path, head: try input.head())
        let plan = try OutputPlan(output, given: outputFormat, strict: strict)
        if source == .markdown && plan.format == .markdown {
            // Into an existing checklist: an update that keeps its text around its items.
            if let existing = plan.existing {
                return try plan.write(MarkdownFormat().update(existing, withChecklist: input))
            }
            // Checklist to checklist copies the document exactly, once it has parsed.
            let text = try input.text()
            _ = try MarkdownSource(text: text, path: input.name).list()
            return try plan.write(bytes: Array(text.utf8))
        }
        if source == .markdown {
            // The reader knows the checklist's text that is not items, which the output has no place for.
            let markdown = MarkdownFormat()
            func read(into writer: inout any ListWriter) throws {
                if let warning = try markdown.read(
                    input, options: options, into: &writer, leavingOutTextFor: plan.format)
                {
                    writer = WarningAddingWriter(base: writer, warnings: [warning])
                }
            }
            if plan.existing != nil {
                if let warnings = try plan.update(options: options, read) { return warnings }
                // Names stay slices of the checklist's text, held while the list is written
                // anyway: a million names are not copied one by one.
                var builder = ListBuilder(keepingSlices: ())
                let warning = try markdown.read(input, options: options, into: &builder, leavingOutTextFor: plan.format)
                let list = builder.finish()
                do {
                    return try plan.write(list, options: options, adding: warning.map { [$0] } ?? [])
                } catch let duplicate as DuplicateIdentity {
                    throw duplicate.located(in: input, format: source, list: list)
                }
            }
            return try plan.write(options: options, read)
        }
        let reader = try FormatRegistry.format(source)
        var listOptions = options
        listOptions.datesAreText = reader.keepsDatesAsText
        func read(into writer: inout any ListWriter) throws {
            // A writer that takes plain names as bytes gets them without strings made of them.
            if writer.takesPlainNames {
                try reader.read(input, options: listOptions, plainNamesInto: &writer)
            } else {
                try reader.read(input, options: listOptions, into: &writer)
            }
        }
        if plan.existing != nil {
            if let warnings = try plan.update(options: listOptions, read) { return warnings }
            // Names stay slices of the input's text, which is held while the list is built
            // anyway: a million names are not copied one by one.
            var builder = ListBuilder(keepingSlices: ())
            try reader.read(input, options: listOptions, into: &builder)
            let leftOut = builder.warnings
            let list = builder.finish()
            do {
                return try plan.write(list, options: listOptions, adding: leftOut)
            } catch let duplicate as DuplicateIdentity {
                throw duplicate.located(in: input, format: source, list: list)
            }
        }
        return try plan.write(options: listOptions, read)
    }
}

/// Where and how an output is written: its format, and the existing file it updates.
struct OutputPlan {
    let destination: Conversion.Destination
    let format: DocumentFormat
    /// The output file when it exists and is not empty: it is updated, not replaced.
    let existing: Input?
    /// Whether warnings stop the write (`--strict`).
    let strict: Bool
    /// What the plan tells the user with the write's warnings: an existing property list
    /// that stays XML or binary where `--to` named the other.
    private(set) var notes: [ConversionWarning] = []

    /// The plan for `destination`: an existing file is written in the format it is read in
    /// (a `--to` that names another is refused rather than replacing the file), a new file's
    /// from `given`, else its extension; standard output is a checklist unless `given`.
    init(_ destination: Conversion.Destination, given: DocumentFormat?, strict: Bool = false) throws {
        self.destination = destination
        self.strict = strict
        guard case .file(let url) = destination else {
            format = given ?? .markdown
            existing = nil
            return
        }
        let path = url.filePath
        if path.hasSuffix("/") { throw Output.folderName(path) }
        var info = stat()
        if stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, info.st_size > 0 {
            let input = Input(file: path)
            let head = try input.head()
            let seen = FormatRegistry.recognize(head)
            let named = DocumentFormat(path: path)
            // Content that no format knows (text a checklist would take as prose) is written
            // into only under a checklist's name.
            if named != .markdown, (seen?.recognition ?? .no) <= .fallback {
                throw ConversionError.unsupported(
                    "\(path) exists and is not a todo list file todofmt can write into; remove it to write a new one")
            }
            // The format it is read in (`FormatRegistry.inputFormat`: what its content surely
            // is, else its name's, else what the content looks like), or the one `--to` names
            // where the content may be in it. Text that one format could read as a list is
            // often another's: a `.md` file's bullets such as `- task: call mom` went as a
            // YAML list, which the list written in replaced (helper hunt 103), and a checklist
            // named `.json` was written into as a checklist, where every other command read
            // it as JSON.
            let content: DocumentFormat
            if let given, let seen, seen.recognition > .fallback, seen.format == given {
                content = given
            } else {
                content = FormatRegistry.inputFormat(given: nil, path: path, seen: seen)
            }
            let propertyLists: Set<DocumentFormat> = [.plist, .bplist]
            if let given, given != content {
                guard propertyLists.contains(given) && propertyLists.contains(content) else {
                    throw ConversionError.unsupported(
                        "\(path) exists and is a \(content) file; writing \(given) would replace it: remove it first")
                }
                let kept = content == .bplist ? "a binary" : "an XML"
                notes.append(
                    ConversionWarning(
                        .format,
                        "\(path) is \(kept) property list and stays one (--to \(given.rawValue) applies to a new file)")
                )
            }
            format = content
            existing = input
            return
        }
        guard let format = given ?? DocumentFormat(path: path) else {
            throw ConversionError.undetectableFormat(path: path)
        }
        self.format = format
        existing = nil
    }

    /// Writes a list that a reader hands to `read`, into a new file (or standard output).
    /// Under `strict`, standard output gets the text only once it is known to hold everything.
    func write(options: ListOptions, _ read: (inout any ListWriter) throws -> Void) throws -> [ConversionWarning] {
        let holdsBack = strict && destination == .standardOutput
        let output = holdsBack ? Output.memory : try makeOutput()
        do {
            var writer = DepthLimitedWriter.guarding(
                try FormatRegistry.format(format).writer(to: output, options: options), format: format)
            try read(&writer)
            let written = try writer.finish()
            try refuse(written.warnings)
            if holdsBack {
                return try write(bytes: written.bytes) + written.warnings
            }
            try output.commit()
            return written.warnings
        } catch {
            output.discard()
            throw error
        }
    }

    /// Under `strict`, any warning is an error and nothing is written.
    private func refuse(_ warnings: [ConversionWarning]) throws {
        guard strict, !warnings.isEmpty else { return }
        let name: String
        switch destination {
        case .file(let url): name = url.filePath
        case .standardOutput: name = "<stdout>"
        }
        throw ConversionError.lossRefused(path: name, warnings)
    }

    /// Writes a list that a reader hands to `read` into the existing file as it is read,
    /// where its format can (`ListFormat.update(_:options:streaming:)`); nil, with nothing
    /// written, where it cannot (the list is then built and written by `write(_:options:adding:)`).
    func update(options: ListOptions, _ read: (inout any ListWriter) throws -> Void) throws -> [ConversionWarning]? {
        guard let existing,
            let pending = try FormatRegistry.format(format).update(existing, options: options, streaming: read)
        else { return nil }
        return try write(pending)
    }

    /// Writes a list in memory: into the existing file, or as a new one; `extra` are warnings
    /// the reading gave.
    func write(_ list: TodoList, options: ListOptions, adding extra: [ConversionWarning] = []) throws
        -> [ConversionWarning]
    {
        guard let existing else { return try write(options: options) { try list.send(to: &$0) } }
        try list.checkDepth()
        var list = list
        var extra = extra
        if format != .markdown { extra += list.repeatedKeyWarnings() }
        #if !YAML
        if format != .markdown, list.metadata.contains(where: { $0.key == FrontMatter.rawKey }) {
            list.metadata = TodoList.withoutRawFrontMatter(list.metadata)
            extra.append(TodoList.rawFrontMatterLeftOut)
        }
        #endif
        var pending = try FormatRegistry.format(format).update(existing, with: list, options: options)
        pending.warnings += extra
        return try write(pending)
    }

    /// Commits a pending write into the existing output, unless `strict` refuses its warnings.
    func write(_ pending: PendingWrite) throws -> [ConversionWarning] {
        let warnings = notes + pending.warnings
        do {
            try refuse(warnings)
            try pending.commit()
        } catch {
            pending.discard()
            throw error
        }
        return warnings
    }

    /// Writes bytes as they are (a checklist copied to a checklist).
    func write(bytes: [UInt8]) throws -> [ConversionWarning] {
        let output = try makeOutput()
        do {
            var sink = output.makeSink()
            sink.write(bytes: bytes)
            _ = try sink.finish(path: output.name)
            try output.commit()
            return []
        } catch {
            output.discard()
            throw error
        }
    }

    private func makeOutput() throws -> Output {
        switch destination {
        case .file(let url): try Output.file(url.filePath)
        case .standardOutput: try Output.file("-")
        }
    }
}

extension DuplicateIdentity {
    /// The error as the user sees it: at the second item's line in a checklist, naming both
    /// lines (else both items' positions), the key and its value.
    func located(in input: Input, format: DocumentFormat, list: TodoList) -> Error {
        let key = self.key.map { "\($0) " } ?? ""
        let what = "\(key)\(identity.description)"
        if format == .markdown, let text = try? input.text(),
            let document = try? TodoDocument(parsing: text, path: input.name),
            second < document.entries.count
        {
            let lines = (document.entries[first].line, document.entries[second].line)
            return ParseError(
                "lines \(lines.0) and \(lines.1) both carry \(what): an identity stands on one item only, so one of them must go (nothing was written)",
                at: SourceLocation(file: input.name, line: lines.1, column: 1))
        }
        let flat = list.flattened()
        var positions = ItemPositions()
        var names: [Int: String] = [:]
        for (i, entry) in flat.enumerated() where i <= second {
            let position = positions.next(depth: entry.depth)
            if i == first || i == second { names[i] = ItemPositions.describe(position, entry.item) }
        }
        return ConversionError.unsupported(
            "\(input.name): items \(names[first] ?? "\(first + 1)") and \(names[second] ?? "\(second + 1)") both carry \(what): "
                + "an identity stands on one item only, so one of them must go (nothing was written)")
    }
}
