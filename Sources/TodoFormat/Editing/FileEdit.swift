import Foundation

/// An editing command on a file of any format todofmt reads (`todofmt done TODO.md 4`): the
/// list is read, the edit made, and the file written back through its format's
/// minimal-change update — in a checklist through its document, so one checked item
/// changes one line.
///
/// The write is atomic (a temporary file renamed into place with the file's mode, or one
/// database transaction), and refused when the file changed on disk after it was read.
/// A dry run writes nothing and says what would change.
public struct FileEdit: Sendable {
    /// The file to edit.
    public var file: URL
    /// The edits, made in order.
    public var edits: [Edit]
    /// Where the list is and what its keys are called.
    public var options: ListOptions
    /// Whether to leave the file as it is and only say what would change.
    public var dryRun: Bool
    /// Whether a warning (a key todofmt had to choose, a value the file cannot hold) stops
    /// the write: `ConversionError.lossRefused`, and the file stays as it was.
    public var strict = false
    /// Runs just before the write is committed (tests change the file there).
    var beforeCommit: (@Sendable () -> Void)?
    /// Whether an edit of one item may be made on that item alone (`editItem`); tests turn
    /// it off to compare with the whole list's write.
    var editsItemAlone = true

    /// The edits to make, in order, on the list in `file`, read and written with `options`.
    public init(file: URL, edits: [Edit], options: ListOptions = ListOptions(), dryRun: Bool = false) {
        self.file = file
        self.edits = edits
        self.options = options
        self.dryRun = dryRun
    }

    /// What an edit did.
    public struct Result: Sendable {
        /// What the file could not hold.
        public var warnings: [ConversionWarning] = []
        /// Whether the file changed (or, in a dry run, would).
        public var changed = false
        /// In a dry run: what would change, as a unified diff (a text file), or the rows
        /// that would change (a database), or the items as checklist lines (a binary
        /// property list). Empty when nothing would change.
        public var changes = ""
        /// Whether the edit was made on its items alone (`editItem`, `editRun`), not on the
        /// whole list (tests ask).
        var madeAlone = false
    }

    /// Makes the edits; throws `EditError` when an item is not there or a name is
    /// ambiguous, and nothing is written.
    public func run() throws -> Result {
        let path = file.filePath
        var before = try FileFingerprint(path)
        // An edit writes the file back in its place, which a named pipe or a device has not
        // (and reading one twice, to tell its format and then its list, waited forever).
        if InputFile.isReadOnce(path) {
            throw ConversionError.io(path: path, reason: "not a regular file, which an edit writes back")
        }
        let input = Input(file: path)
        let format = FormatRegistry.inputFormat(given: nil, path: path, head: try input.head())
        if format == .markdown {
            return try editChecklist(path, fingerprint: before)
        }
        if let result = try editItem(input, format: format, fingerprint: before) { return result }
        if let result = try editRun(input, format: format, fingerprint: before) { return result }
        // A database's edit made on its rows and rolled back (it needs the whole list) may
        // have had SQLite write pages into the file and put them back, its cache spilled:
        // the file's time changed. The whole list is read from here, and checked from here
        // (hunt 82: on tables of 80,000 rows the whole write refused the file).
        if format == .sqlite { before = try FileFingerprint(path) }
        return try editList(input, format: format, fingerprint: before)
    }

    /// Edits inside one top-level item named by position (`done FILE 3.2`) made on that item
    /// alone, where the format can write one item back (`ListFormat.updateItem`): a file of
    /// a million items is then scanned, not read into a list and compared item by item. Nil
    /// where the list must be read (`editList`), also when anything fails: the list is read
    /// then, and the error (a position not there, a file that does not read) is said as
    /// reading it says it.
    private func editItem(_ input: Input, format: DocumentFormat, fingerprint: FileFingerprint) throws -> Result? {
        guard editsItemAlone, let (index, edits) = Edit.inOneTopLevelItem(edits) else { return nil }
        return try editAlone(input, format: format, fingerprint: fingerprint) { format, target, path in
            try format.updateItem(target, at: index, options: options) { item in
                var tree = TreeList(TodoList(items: [item]))
                for edit in edits { try edit.apply(to: &tree, file: path) }
                guard tree.changed else { return nil }
                try tree.list.checkDepth()
                return tree.list.items[0]
            }
        }
    }

    /// An edit that adds, removes or moves an item named by position, made on the run of
    /// top-level items it touches alone (`Edit.inTopLevelRun`), where the format can write
    /// such a run back (`ListFormat.updateItems`): `todofmt rm` in a million-item JSON file
    /// reads two items, not the list. Nil as for `editItem`.
    private func editRun(_ input: Input, format: DocumentFormat, fingerprint: FileFingerprint) throws -> Result? {
        guard editsItemAlone, let edit = Edit.inTopLevelRun(edits) else { return nil }
        // A top-level item moved among the top-level ones: no item needs reading.
        if case .move(.position(let item), let to) = edits[0], item.count == 1, to.count == 1, to[0] >= 1,
            let result = try editAlone(
                input, format: format, fingerprint: fingerprint,
                update: { format, target, _ in
                    try format.moveItem(target, options: options, from: item[0] - 1, to: to[0] - 1, place: Self.placed)
                })
        {
            return result
        }
        return try editAlone(input, format: format, fingerprint: fingerprint) { format, target, path in
            var rebased: Edit? = nil
            return try format.updateItems(
                target, options: options,
                run: { count in
                    let found = edit(count)
                    rebased = found?.edit
                    return found?.run
                },
                change: { items in
                    guard let rebased else { return nil }
                    var tree = TreeList(TodoList(items: items))
                    try rebased.apply(to: &tree, file: path)
                    guard tree.changed else { return nil }
                    try tree.list.checkDepth()
                    return tree.list.items
                })
        }
    }

    /// A top-level item moved among the top-level ones as `TreeList.moveItem` places it
    /// between `before` and `after` (its section may become theirs), worked out on a list of
    /// those three items alone, without their children. Nil where it is the same as either:
    /// the whole list's write pairs equal items in order, so it may keep the item's bytes
    /// where they stood and move the other's (the run's write compares as it does).
    private static func placed(_ item: TodoItem, before: TodoItem?, after: TodoItem?) throws -> TodoItem? {
        guard item != before, item != after else { return nil }
        func bare(_ item: TodoItem) -> TodoItem {
            var item = item
            item.children = []
            return item
        }
        let neighbours = [before, after].compactMap { $0.map(bare) }
        var tree = TreeList(TodoList(items: neighbours + [bare(item)]))
        let position = before == nil ? 0 : 1
        try tree.moveItem(at: neighbours.count, under: nil, at: position == neighbours.count ? nil : position)
        var placed = item
        placed.section = tree.list.items[position].section
        return placed
    }

    /// Makes an edit through `update`, a format's change of part of the file (the file's
    /// format, the input to change, the file's path for messages); nil where that is
    /// `.unsupported` or fails (the list is read then, and says the error as reading it says it).
    private func editAlone(
        _ input: Input, format: DocumentFormat, fingerprint: FileFingerprint,
        update: (any ListFormat, Input, String) throws -> ItemUpdate
    ) throws -> Result? {
        let path = file.filePath
        // A dry run makes the edit on a copy, as the real one would be made, and compares.
        let copy = dryRun ? try DryRunCopy(of: path) : nil
        let pending: PendingWrite
        // A database is changed inside its transaction, not written beside it: the file is
        // checked before the transaction starts (as `editList` does).
        if format == .sqlite && !dryRun { try fingerprint.check(path) }
        do {
            let target = copy.map { Input(file: $0.path, name: input.name) } ?? input
            switch try update(FormatRegistry.format(format), target, path) {
            case .unsupported: return nil
            case .unchanged: return Result(madeAlone: true)
            case .pending(let write): pending = write
            }
        } catch {
            return nil
        }
        if let copy {
            try refuseLoss(pending)
            try pending.commit()
            let changes = try copy.changes(format: format, options: options)
            return Result(warnings: pending.warnings, changed: true, changes: changes, madeAlone: true)
        }
        beforeCommit?()
        var result = try commit(pending, format: format, fingerprint: fingerprint)
        result.madeAlone = true
        return result
    }

    private func editChecklist(_ path: String, fingerprint: FileFingerprint) throws -> Result {
        // The document's text is edited in place: only a dry run keeps the text as it was. A
        // byte order mark goes back on the text after (`withoutByteOrderMark`).
        let (mark, loaded) = try TodoDocument(contentsOf: file).withoutByteOrderMark()
        var edited = EditedDocument(document: loaded)
        let old = dryRun ? edited.document.text : ""
        for edit in edits { try edit.apply(to: &edited, file: path) }
        let document = edited.document
        var result = Result()
        guard edited.changed, !dryRun || document.text != old else { return result }
        result.changed = true
        if dryRun {
            result.changes = UnifiedDiff.text(old: mark + old, new: mark + document.text, name: path)
            return result
        }
        let output = try Output.file(path)
        do {
            var sink = output.makeSink()
            try TodoDocumentEdit(text: mark + document.text).write(to: &sink)
            _ = try sink.finish(path: output.name)
            beforeCommit?()
            try fingerprint.check(path)
            try output.commit()
        } catch {
            output.discard()
            throw error
        }
        return result
    }

    private func editList(_ input: Input, format: DocumentFormat, fingerprint: FileFingerprint) throws -> Result {
        let path = file.filePath
        let reader = try FormatRegistry.format(format)
        // Names stay slices of the input's text, which is held while the list is edited anyway.
        var builder = ListBuilder(keepingSlices: ())
        // Room for as many items as the file could hold, so that the array never grows by
        // copying (room not filled costs no memory).
        var info = stat()
        if stat(path, &info) == 0 { builder.reserveCapacity(max(1024, Int(info.st_size) / 32)) }
        try reader.read(input, options: options, into: &builder)
        var tree = TreeList(builder.finish())
        for edit in edits { try edit.apply(to: &tree, file: path) }
        var result = Result()
        guard tree.changed else { return result }
        result.changed = true
        let list = tree.list
        // The item moved is the one whose order number changes, not a neighbour's.
        var options = options
        if let moved = tree.moved { options.schema.moved = [moved] }
        tree = TreeList(TodoList())
        try list.checkDepth()
        if dryRun {
            (result.changes, result.warnings) = try preview(of: list, format: format, options: options)
            if strict && !result.warnings.isEmpty {
                throw ConversionError.lossRefused(path: path, result.warnings)
            }
            return result
        }
        if stat(path, &info) == 0, info.st_size == 0 {
            // An empty file holds no list to update: the list is written as a new file.
            try fingerprint.check(path)
            return Result(
                warnings: try list.write(to: file, format: format, options: options, strict: strict), changed: true)
        }
        beforeCommit?()
        try fingerprint.check(path)
        let pending = try reader.update(input, with: list, options: options)
        return try commit(pending, format: format, fingerprint: fingerprint)
    }

    /// Commits a write into the file (of `format`) unless `strict` refuses its warnings or
    /// the file changed on disk since it was read (`fingerprint`).
    private func commit(_ pending: PendingWrite, format: DocumentFormat, fingerprint: FileFingerprint) throws
        -> Result
    {
        let path = file.filePath
        try refuseLoss(pending)
        do {
            // A database is changed inside its transaction, not on disk: it was checked before.
            if format != .sqlite { try fingerprint.check(path) }
            try pending.commit()
        } catch {
            pending.discard()
            throw error
        }
        return Result(warnings: pending.warnings, changed: true)
    }

    /// Throws `lossRefused` (the write discarded) when `strict` and the write gives warnings.
    private func refuseLoss(_ pending: PendingWrite) throws {
        guard strict && !pending.warnings.isEmpty else { return }
        pending.discard()
        throw ConversionError.lossRefused(path: file.filePath, pending.warnings)
    }

    /// What writing `list` would change, and the warnings the write would give: the update
    /// made on a copy of the file, compared.
    private func preview(of list: TodoList, format: DocumentFormat, options: ListOptions) throws
        -> (String, [ConversionWarning])
    {
        let path = file.filePath
        let copy = try DryRunCopy(of: path)
        var info = stat()
        if stat(copy.path, &info) == 0, info.st_size == 0 {
            // An empty file holds no list to update: the list is written as a new file (as
            // `editList` writes it).
            let warnings = try list.write(
                to: URL(fileURLWithPath: copy.path), format: format, options: options, strict: strict)
            return (try copy.changes(format: format, options: options), warnings)
        }
        let pending = try FormatRegistry.format(format).update(
            Input(file: copy.path, name: path), with: list, options: options)
        try pending.commit()
        return (try copy.changes(format: format, options: options), pending.warnings)
    }
}

/// A copy of a file (with its write-ahead log) in a folder of its own, for a dry run to
/// write into, beside a second copy kept as it was to compare with (the file itself is not
/// opened again: a database's log would change beside it); removed with the value. A
/// symbolic link is followed: the copy is of the file it names.
private final class DryRunCopy {
    let folder: URL
    /// The copy to write into.
    let path: String
    /// The copy kept as it was.
    private let original: String
    /// The file's name in messages and diffs.
    private let name: String

    init(of file: String) throws {
        name = file
        let source = URL(fileURLWithPath: file).resolvingSymlinksInPath().path
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("todofmt-dry-\(UUID().uuidString)")
        let base = URL(fileURLWithPath: file).lastPathComponent
        path = folder.appendingPathComponent("new").appendingPathComponent(base).path
        original = folder.appendingPathComponent("old").appendingPathComponent(base).path
        for target in [path, original] {
            try FileManager.default.createDirectory(
                atPath: PathParts.directory(of: target), withIntermediateDirectories: true)
            for suffix in ["", "-wal"] where FileManager.default.fileExists(atPath: source + suffix) {
                try FileManager.default.copyItem(atPath: source + suffix, toPath: target + suffix)
            }
        }
    }

    deinit { try? FileManager.default.removeItem(at: folder) }

    /// What changed in the copy: a unified diff of the text, the rows of a database, the
    /// items of a binary property list as checklist lines (`listing`).
    func changes(format: DocumentFormat, options: ListOptions) throws -> String {
        switch format {
        case .bplist:
            let lists = try [original, path].map {
                try TodoList(contentsOf: URL(fileURLWithPath: $0), options: options)
            }
            return UnifiedDiff.text(old: lists[0].listing(), new: lists[1].listing(), name: name + " (items)")
        case .sqlite: return try DatabaseRows.changes(from: original, to: path)
        default:
            return UnifiedDiff.text(
                old: try Input(file: original, name: name).bytes(), new: try Input(file: path, name: name).bytes(),
                name: name)
        }
    }
}

extension TodoList {
    /// The items a line each, as a checklist's items read (`- [ ] name [key:: value]`),
    /// indented two spaces a level. No positions: an item added or removed changes its own
    /// line only, so the diff of two listings compares one changed place, not every line
    /// after it (which took memory growing with the square of the items).
    func listing() -> String {
        var text = ""
        for entry in flattened() {
            text += String(repeating: "  ", count: entry.depth) + "- " + entry.item.checklistText + "\n"
        }
        return text
    }
}

/// What a file was when it was read: refused as the base of a write when it changed since.
struct FileFingerprint: Equatable {
    private var parts: [Int64]

    init(_ path: String) throws {
        parts = []
        for (suffix, required) in [("", true), ("-wal", false)] {
            var info = stat()
            guard stat(path + suffix, &info) == 0 else {
                if required { throw ConversionError.io(path: path, reason: String(cString: strerror(errno))) }
                parts.append(-1)
                continue
            }
            #if canImport(Darwin)
            let modified = info.st_mtimespec
            #else
            let modified = info.st_mtim
            #endif
            parts += [
                Int64(info.st_dev), Int64(info.st_ino), Int64(info.st_size), Int64(modified.tv_sec),
                Int64(modified.tv_nsec),
            ]
        }
    }

    /// Throws when the file at `path` is no longer what it was.
    func check(_ path: String) throws {
        guard try FileFingerprint(path) == self else {
            throw EditError(
                "\(path) changed on disk after todofmt read it; nothing was written (run the command again)")
        }
    }
}
