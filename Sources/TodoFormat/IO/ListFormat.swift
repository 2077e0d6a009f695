/// Everything todofmt knows about one file format: how to tell it, read it, write a new
/// file and update an existing one, and what it cannot hold (as the warnings its writers
/// and updates return). Each format folder has one type that conforms; `FormatRegistry`
/// lists them, and conversion looks a format up once.
protocol ListFormat: Sendable {
    /// The format's identity, whose raw value is its command-line name.
    var id: DocumentFormat { get }
    /// Other names `--from` and `--to` accept.
    var aliases: [String] { get }
    /// File name extensions, lower case, without the dot.
    var extensions: [String] { get }
    /// Whether the format writes a checklist's dates as text, and reads them back as strings
    /// (JSON, SQLite, an SQL dump): written into a checklist, such a list's strings under
    /// the checklist's date keys are dates again (`DateKeys`). False by default.
    var keepsDatesAsText: Bool { get }

    /// How sure the format is that a file starting with `head` is in it.
    func recognition(of head: UnsafeBufferPointer<UInt8>) -> Recognition

    /// Reads the list, handing its metadata and items to `sink` as they are found.
    func read<S: ItemSink>(_ input: Input, options: ListOptions, into sink: inout S) throws

    /// `read(_:options:into:)` into a sink that takes plain items as bytes. Only a checklist
    /// and a JSON list have such items: the other formats hand every item to `item(_:depth:)`.
    func read<S: PlainItemSink>(_ input: Input, options: ListOptions, plainNamesInto sink: inout S) throws

    /// A writer of a new file.
    func writer(to output: Output, options: ListOptions) throws -> any ListWriter

    /// Writes `list` into the existing file `existing` (of this format), keeping what in it
    /// is not the list. Nothing changes until the pending write is committed.
    func update(_ existing: Input, with list: TodoList, options: ListOptions) throws -> PendingWrite

    /// `update(_:with:options:)` for a list that a reader hands to `read` as it reads it,
    /// without building it first. Nil (nothing written, `read` perhaps called) where the
    /// format cannot do so for this file: the caller builds the list and calls `update`.
    func update(
        _ existing: Input, options: ListOptions, streaming read: (inout any ListWriter) throws -> Void
    ) throws -> PendingWrite?

    /// Writes into the existing file `existing` its top-level item `index` (with its
    /// children) as `change` makes it (nil: unchanged), every other byte as it stands:
    /// what `update` writes for the file's list with that item changed, without reading the
    /// whole list (an edit of one item in a long file). `.unsupported` where the format
    /// cannot tell (the caller reads the list and calls `update`); an error from reading
    /// may also mean only that.
    func updateItem(
        _ existing: Input, at index: Int, options: ListOptions, change: (TodoItem) throws -> TodoItem?
    ) throws -> ItemUpdate

    /// Writes into the existing file `existing` a run of its top-level items (with their
    /// children), the range `run` gives for the list's count of them, as `change` makes
    /// it (nil: unchanged; it may hold more or fewer items), every other byte as it stands:
    /// what `update` writes for the file's list with that run changed, without reading the
    /// whole list (`todofmt add`, `rm`, `mv` in a long file). `.unsupported` where the
    /// format cannot tell.
    func updateItems(
        _ existing: Input, options: ListOptions, run: (Int) -> Range<Int>?,
        change: ([TodoItem]) throws -> [TodoItem]?
    ) throws -> ItemUpdate

    /// Writes into the existing file `existing` its top-level item `from` (with its
    /// children) moved to be item `to` (both from 0), as `place` makes it given its new
    /// neighbours before and after (its section may change), every other item's bytes as
    /// they stand: what `update` writes for the file's list with that item moved, without
    /// reading the other items (`todofmt mv` in a long file). `.unsupported` where the
    /// format cannot tell, or `place` returns nil.
    func moveItem(
        _ existing: Input, options: ListOptions, from: Int, to: Int,
        place: (TodoItem, TodoItem?, TodoItem?) throws -> TodoItem?
    ) throws -> ItemUpdate
}

/// What `ListFormat.updateItem` did.
enum ItemUpdate {
    /// The format could not make the change on its own: the whole list is needed.
    case unsupported
    /// `change` left the item as it was: nothing is written.
    case unchanged
    /// The file with the item changed, to be committed.
    case pending(PendingWrite)

    /// The file at `file` written anew by `body` into a temporary file beside it, pending
    /// until committed; `.unsupported` (nothing written) when `body` returns nil, else the
    /// warnings it returns go with the write.
    static func rewriting(
        _ file: String, _ body: (inout ByteSink) throws -> [ConversionWarning]?
    ) throws -> ItemUpdate {
        let output = try Output.file(file)
        do {
            var sink = output.makeSink()
            guard let warnings = try body(&sink) else {
                output.discard()
                return .unsupported
            }
            _ = try sink.finish(path: output.name)
            return .pending(PendingWrite(warnings: warnings, commit: output.commit, discard: output.discard))
        } catch {
            output.discard()
            throw error
        }
    }
}

extension ListFormat {
    func moveItem(
        _ existing: Input, options: ListOptions, from: Int, to: Int,
        place: (TodoItem, TodoItem?, TodoItem?) throws -> TodoItem?
    ) throws -> ItemUpdate {
        .unsupported
    }

    func updateItems(
        _ existing: Input, options: ListOptions, run: (Int) -> Range<Int>?,
        change: ([TodoItem]) throws -> [TodoItem]?
    ) throws -> ItemUpdate {
        .unsupported
    }

    var aliases: [String] { [] }
    var keepsDatesAsText: Bool { false }

    func read<S: PlainItemSink>(_ input: Input, options: ListOptions, plainNamesInto sink: inout S) throws {
        try read(input, options: options, into: &sink)
    }

    func updateItem(
        _ existing: Input, at index: Int, options: ListOptions, change: (TodoItem) throws -> TodoItem?
    ) throws -> ItemUpdate { .unsupported }

    func update(
        _ existing: Input, options: ListOptions, streaming read: (inout any ListWriter) throws -> Void
    ) throws -> PendingWrite? { nil }

    /// A format without an update of its own writes the file anew.
    func update(_ existing: Input, with list: TodoList, options: ListOptions) throws -> PendingWrite {
        guard let path = existing.path else {
            throw ConversionError.unsupported("\(existing.name): only a file can be written into")
        }
        let output = try Output.file(path)
        do {
            var writer = try self.writer(to: output, options: options)
            try list.send(to: &writer)
            let written = try writer.finish()
            return PendingWrite(warnings: written.warnings, commit: output.commit, discard: output.discard)
        } catch {
            output.discard()
            throw error
        }
    }
}

/// How sure a format is that content is in it; the surest format wins.
enum Recognition: Int, Comparable, Sendable {
    case no, fallback, possibly, likely, certainly

    static func < (a: Recognition, b: Recognition) -> Bool { a.rawValue < b.rawValue }
}

/// A sink that takes a checklist's (or a JSON list's) plain items as byte ranges of its text,
/// many at a call, without a string or an item made of each: how a checklist is read fast
/// (`convert` into JSON, `list`, `diff`). Items that are not plain still come to
/// `item(_:depth:)`, in order.
protocol PlainItemSink: ItemSink {
    /// A run of items without fields whose names are the text as it is (one line,
    /// nothing to unescape, no `"` and no control character), their names in `text`, their
    /// sections in `sections`.
    mutating func items(plain: ArraySlice<PlainItem>, text: UnsafeBufferPointer<UInt8>, sections: [String]) throws

    /// An item with fields whose name is the text as it is (as a plain item's), as its UTF-8
    /// bytes; `section` for a top-level item. The default makes the item and takes it.
    mutating func item(
        plainName: UnsafeBufferPointer<UInt8>, fields: [Field], status: TodoStatus, section: String?, depth: Int
    ) throws

    /// Where in the file the next top-level item starts, from a reader that can start there
    /// again (a JSON list's reader: `JSONFormat.read(_:options:from:plainNamesInto:)`);
    /// `pending` items before it are read but not yet handed to the sink.
    mutating func nextTopLevelItem(at offset: Int, pending: Int)
}

extension PlainItemSink {
    mutating func nextTopLevelItem(at offset: Int, pending: Int) {}

    /// Takes items queued by a reader, in order: each run of plain items in one call, an item
    /// with fields from its name's bytes (`nameEnd` -2, `nameStart` its place in `fielded`),
    /// and an item made apart as it is (`nameEnd` -1, `nameStart` its place in `built`).
    /// Names are bytes of `text`; sections are indexes into `sections`. (Inlined: a checklist
    /// reader hands on its items a few at a time, and as a call this was 4% of `convert x.md
    /// x.json`.)
    @inline(__always)
    mutating func take(
        queued: [PlainItem], text: UnsafeBufferPointer<UInt8>, sections: [String],
        fielded: [(name: Range<Int>, fields: [Field])], built: [TodoItem] = []
    ) throws {
        var i = 0
        while i < queued.count {
            let q = queued[i]
            switch q.nameEnd {
            case -1:
                try item(built[q.nameStart], depth: q.depth)
            case -2:
                let (name, fields) = fielded[q.nameStart]
                try item(
                    plainName: UnsafeBufferPointer(rebasing: text[name]), fields: fields, status: q.status,
                    section: q.section(in: sections), depth: q.depth)
            default:
                var end = i + 1
                while end < queued.count && queued[end].nameEnd >= 0 { end += 1 }
                try items(plain: queued[i..<end], text: text, sections: sections)
                i = end
                continue
            }
            i += 1
        }
    }

    mutating func item(
        plainName: UnsafeBufferPointer<UInt8>, fields: [Field], status: TodoStatus, section: String?, depth: Int
    ) throws {
        let section = depth == 0 ? section : nil
        try item(TodoItem(plainName: plainName, fields: fields, status: status, section: section), depth: depth)
    }
}

/// A format's writer of a new file: a sink that owns its output.
protocol ListWriter: PlainItemSink {
    /// Writes what is left; returns what the output could not hold and, for a memory
    /// output, the bytes.
    mutating func finish() throws -> Written

    /// Whether the writer writes `item(plainName:…)` from the bytes, without the item: a
    /// checklist reader then makes no string of the text or of plain names (the JSON writer).
    var takesPlainNames: Bool { get }

    /// An item of a checklist without fields whose name is the text as it is (one line,
    /// nothing to unescape, no `"` and no control character), as its UTF-8 bytes; `section`
    /// for a top-level item. The default makes the item and writes it.
    mutating func item(plainName: UnsafeBufferPointer<UInt8>, status: TodoStatus, section: String?, depth: Int) throws
}

extension ListWriter {
    var takesPlainNames: Bool { false }

    mutating func item(plainName: UnsafeBufferPointer<UInt8>, status: TodoStatus, section: String?, depth: Int) throws {
        try item(TodoItem(plainName: plainName, status: status, section: depth == 0 ? section : nil), depth: depth)
    }

    /// Hands each plain item to `item(plainName:…)`.
    mutating func items(plain: ArraySlice<PlainItem>, text: UnsafeBufferPointer<UInt8>, sections: [String]) throws {
        for item in plain {
            try self.item(
                plainName: UnsafeBufferPointer(rebasing: text[item.nameStart..<item.nameEnd]), status: item.status,
                section: item.section < 0 ? nil : sections[item.section], depth: item.depth)
        }
    }
}

/// What a writer wrote: its warnings, and the bytes when the output was memory.
struct Written {
    var warnings: [ConversionWarning] = []
    var bytes: [UInt8] = []
}
