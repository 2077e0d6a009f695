import CPrefetch
import Foundation

/// `todofmt list`'s filters, order and paging over a list's items, as an app fetches them
/// (a predicate, sort descriptors, a fetch limit and offset). Every listed item keeps its
/// real position (`2.1`), whatever is left out around it.
public struct ItemQuery: Sendable {
    /// Items of any of these statuses (none: every status).
    public var statuses: Set<TodoStatus> = []
    /// Items of this section: a top-level item under the heading, and the items nested in it.
    public var section: String?
    /// Items whose name contains this text, ignoring case.
    public var grep: String?
    /// Items with each of these fields: the key exactly, the value as `set` reads it or as
    /// the field's text.
    public var fields: [(key: String, value: String)] = []
    /// The order: keys (a field, or `name`, `checked`, `status`, `position`), each
    /// ascending unless `descending`; document order when empty. Items without the field
    /// come last.
    public var sort: [(key: String, descending: Bool)] = []
    /// At most this many items, after `offset` are skipped.
    public var limit: Int?
    /// How many of the listed items to skip first (paging, with `limit`).
    public var offset = 0

    /// A query that lists every item, in document order.
    public init() {}

    /// One item as listed: its position as `list` prints it, the item (without children)
    /// and its depth.
    public struct Listed: Sendable {
        /// The item's position as `list` prints it (`3.2`).
        public var position: String
        /// The item, without its children.
        public var item: TodoItem
        /// How deep it is nested: 0 for a top-level item.
        public var depth: Int
    }

    /// The items of `list` the query selects, in its order.
    public func items(of list: TodoList) -> [Listed] {
        var listed: [Listed] = []
        var counters: [Int] = []
        let grepNeedle = grep.map(GrepNeedle.init)
        let wanted = fields.map { (key: $0.key, text: $0.value, value: try? Edit.fieldValue($0.value)) }
        func walk(_ items: [TodoItem], depth: Int, section: String?) {
            for item in items {
                if counters.count > depth + 1 { counters.removeLast(counters.count - depth - 1) }
                while counters.count < depth + 1 { counters.append(0) }
                counters[depth] += 1
                let itemSection = depth == 0 ? item.section : section
                if matches(item, section: itemSection, needle: grepNeedle, wanted: wanted) {
                    var bare = item
                    if !bare.children.isEmpty { bare.children = [] }
                    listed.append(
                        Listed(position: counters.map(String.init).joined(separator: "."), item: bare, depth: depth))
                }
                if !item.children.isEmpty { walk(item.children, depth: depth + 1, section: itemSection) }
            }
        }
        walk(list.items, depth: 0, section: nil)
        return ordered(listed)
    }

    /// Selected items sorted and paged.
    func ordered(_ selected: [Listed]) -> [Listed] {
        var listed = selected
        if !sort.isEmpty {
            // Each item's sort values, found once (nil: it has no such field), in one array.
            let k = sort.count
            var keys: [FieldValue?] = []
            keys.reserveCapacity(listed.count * k)
            for (i, entry) in listed.enumerated() {
                for key in sort {
                    switch key.key {
                    case "name": keys.append(.string(entry.item.name))
                    case "checked": keys.append(.integer(entry.item.isChecked ? 1 : 0))
                    case "status": keys.append(.integer(Int(entry.item.status.marker.value)))
                    case "position": keys.append(.integer(i))  // the items are in document order
                    default: keys.append(entry.item.fields[key: key.key])
                    }
                }
            }
            let sorted = Array(listed.indices).sorted { a, b in
                for j in 0..<k {
                    switch (keys[a * k + j], keys[b * k + j]) {
                    case (nil, nil): continue
                    // An item without the field comes last either way.
                    case (nil, _): return false
                    case (_, nil): return true
                    case (let x?, let y?):
                        let c = Self.compare(x, y)
                        if c != 0 { return sort[j].descending ? c > 0 : c < 0 }
                    }
                }
                return a < b
            }
            keys = []
            listed = sorted.map { listed[$0] }
        }
        if offset > 0 || limit != nil {
            let start = min(offset, listed.count)
            let end = limit.map { min(start + $0, listed.count) } ?? listed.count
            listed = Array(listed[start..<end])
        }
        return listed
    }

    func matches(
        _ item: TodoItem, section: String?, needle: GrepNeedle?,
        wanted: [(key: String, text: String, value: FieldValue?)]
    ) -> Bool {
        guard matches(status: item.status, fields: item.fields, section: section, wanted: wanted) else { return false }
        if let needle, !needle.isFound(in: item.nameStorage) { return false }
        return true
    }

    /// Whether an item of this status, with these fields, in this section passes the status,
    /// section and field filters (all but `--grep`).
    func matches(
        status: TodoStatus, fields: [Field], section: String?, wanted: [(key: String, text: String, value: FieldValue?)]
    ) -> Bool {
        guard matches(status: status, section: section) else { return false }
        for field in wanted {
            guard let value = fields[key: field.key] else { return false }
            if value == field.value { continue }
            if case .string(let s) = value, s == field.text { continue }
            if FieldSyntax.renderValue(value, bare: true) == field.text { continue }
            return false
        }
        return true
    }

    /// Whether an item of this status in this section passes the status and section filters.
    func matches(status: TodoStatus, section: String?) -> Bool {
        if !statuses.isEmpty {
            guard statuses.contains(status) else { return false }
        }
        if let wantedSection = self.section, section != wantedSection { return false }
        return true
    }

    private static func compare<T: Comparable>(_ a: T, _ b: T) -> Int { a < b ? -1 : a == b ? 0 : 1 }

    /// Values of one kind compare by value (numbers as numbers, NaN after them, dates by
    /// time); of different kinds, by kind: booleans, numbers, dates, strings, then the rest; null last.
    static func compare(_ a: FieldValue, _ b: FieldValue) -> Int {
        func rank(_ v: FieldValue) -> Int {
            switch v {
            case .bool: 0
            case .integer, .bigInteger, .double: 1
            case .date: 2
            case .string: 3
            case .data: 4
            case .array: 5
            case .dictionary: 6
            case .null: 7
            }
        }
        func number(_ v: FieldValue) -> Double? {
            switch v {
            case .integer(let i): Double(i)
            case .bigInteger(let s): Double(s)
            case .double(let d): d
            default: nil
            }
        }
        let ra = rank(a)
        let rb = rank(b)
        if ra != rb { return compare(ra, rb) }
        switch (a, b) {
        case (.bool(let x), .bool(let y)): return compare(x ? 1 : 0, y ? 1 : 0)
        case (.integer(let x), .integer(let y)): return compare(x, y)
        case (.date(let x), .date(let y)): return compare(x, y)
        case (.string(let x), .string(let y)): return NFCCheck.order(x, y)
        default:
            if let x = number(a), let y = number(b) {
                // NaN, neither less nor more than any number, after all of them: else the
                // comparison is no order, and a sort of it no order either.
                if x.isNaN || y.isNaN { return compare(x.isNaN ? 1 : 0, y.isNaN ? 1 : 0) }
                return compare(x, y)
            }
            return NFCCheck.order(FieldSyntax.renderValue(a, bare: false), FieldSyntax.renderValue(b, bare: false))
        }
    }

    /// The listed items as `list --format json` prints them: a JSON array in the plain JSON
    /// shape (FORMAT.md section 7.2), an item a line, each with its position under `at`
    /// and without its children (they are listed as items of their own).
    public static func json(_ listed: [Listed]) -> String {
        var sink = ByteSink()
        write(listed, to: &sink)
        return String(decoding: sink.buffer, as: UTF8.self)
    }

    /// Writes the listed items to a file descriptor (standard output is 1): as `list` prints
    /// them, a line each, or as JSON (see `json(_:)`).
    public static func print(_ listed: [Listed], json: Bool, to descriptor: Int32) throws {
        var sink = ByteSink(descriptor: descriptor)
        if json {
            write(listed, to: &sink)
        } else {
            for entry in listed {
                var position = entry.position
                _ = position.withUTF8 { writeLine(entry.item, at: $0, to: &sink) }
            }
        }
        _ = try sink.finish(path: "<stdout>")
    }

    private static func write(_ listed: [Listed], to sink: inout ByteSink) {
        for (i, entry) in listed.enumerated() {
            sink.write(i == 0 ? "[\n  " : ",\n  ")
            var position = entry.position
            _ = position.withUTF8 { writeJSONObject(entry.item, at: $0, to: &sink) }
        }
        sink.write(listed.isEmpty ? "[]\n" : "\n]\n")
    }

    /// Runs `body` with the UTF-8 bytes of an item's name (its own storage, for a native string).
    private static func withName<R>(_ item: TodoItem, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        item.nameStorage.utf8.withContiguousStorageIfAvailable(body)
            ?? Array(item.nameStorage.utf8).withUnsafeBufferPointer(body)
    }

    /// One item of the JSON array without what comes before it; returns where in the sink's
    /// buffer the name's text went (without its quotes).
    @discardableResult
    static func writeJSONObject(_ item: TodoItem, at position: UnsafeBufferPointer<UInt8>, to sink: inout ByteSink)
        -> Range<Int>
    {
        withName(item) { name in
            writeJSONObject(
                at: position, name: name, status: item.status, fields: item.fields, section: item.section, to: &sink)
        }
    }

    /// An item of the JSON array from its parts: its position, its name's UTF-8 bytes, its
    /// status, fields and section.
    @discardableResult
    static func writeJSONObject(
        at position: UnsafeBufferPointer<UInt8>, name: UnsafeBufferPointer<UInt8>, status: TodoStatus, fields: [Field],
        section: String?, to sink: inout ByteSink
    ) -> Range<Int> {
        // The common object (no fields, nothing in the name, status or section JSON escapes)
        // in one write.
        if fields.isEmpty, let box = Self.asciiBox(status), box >= 0x20, box < 0x7F, box != UInt8(ascii: "\""),
            box != UInt8(ascii: "\\"), !ByteScan.containsJSONEscape(name)
        {
            var section = section
            let written: Range<Int>? = Self.withOptionalUTF8(&section) { sectionBytes in
                if let sectionBytes, ByteScan.containsJSONEscape(sectionBytes) { return nil }
                let base = sink.byteCount
                var nameOffset = 0
                sink.write(upTo: 80 + position.count + name.count + (sectionBytes?.count ?? 0)) { start in
                    var pen = BytePen(at: start)
                    pen.put("{\"at\": \"")
                    pen.put(position)
                    pen.put("\", \"name\": \"")
                    nameOffset = start.distance(to: pen.at)
                    pen.put(name)
                    pen.put(status == .done ? "\", \"checked\": true" : "\", \"checked\": false")
                    if case .custom = status {
                        pen.put(", \"status\": \"")
                        pen.put(byte: box)
                        pen.put(byte: UInt8(ascii: "\""))
                    }
                    if let sectionBytes {
                        pen.put(", \"section\": \"")
                        pen.put(sectionBytes)
                        pen.put(byte: UInt8(ascii: "\""))
                    }
                    pen.put("}")
                    return start.distance(to: pen.at)
                }
                return (base + nameOffset)..<(base + nameOffset + name.count)
            }
            if let written { return written }
        }
        sink.write(static: "{\"at\": ")
        JSONText.writeString(bytes: position, to: &sink)
        sink.write(static: ", \"name\": ")
        let nameStart = sink.byteCount + 1
        JSONText.writeString(bytes: name, to: &sink)
        // (Meaningful in a sink that keeps everything: one that writes out may have flushed.)
        let nameEnd = max(sink.byteCount - 1, nameStart)
        sink.write(static: status == .done ? ", \"checked\": true" : ", \"checked\": false")
        if case .custom(let scalar) = status {
            sink.write(static: ", \"status\": ")
            JSONText.writeString(Substring(String(scalar)), to: &sink)
        }
        // A field whose key the object has already, or that a reader would take for a role,
        // goes under `fields`, as a JSON file is written: every key once.
        var nested: [Field] = []
        for field in fields {
            if field.key == "at" || ItemSchema.standard.role(of: field.key).map({ $0 != .order }) == true {
                nested.append(field)
                continue
            }
            sink.write(static: ", ")
            JSONText.writeString(Substring(field.key), to: &sink)
            sink.write(static: ": ")
            JSONText.writeValue(field.value, to: &sink)
        }
        if !nested.isEmpty {
            sink.write(static: ", \"fields\": ")
            JSONText.writeValue(.dictionary(nested), to: &sink)
        }
        if let section {
            sink.write(static: ", \"section\": ")
            JSONText.writeString(Substring(section), to: &sink)
        }
        sink.write(static: "}")
        return nameStart..<nameEnd
    }

    /// One item as a line of `list`; returns where in the sink's buffer the name's text went.
    @discardableResult
    static func writeLine(_ item: TodoItem, at position: UnsafeBufferPointer<UInt8>, to sink: inout ByteSink)
        -> Range<Int>
    {
        withName(item) { writeLine(at: position, name: $0, status: item.status, fields: item.fields, to: &sink) }
    }

    /// A line of `list` from an item's parts: its position, its name's UTF-8 bytes, its
    /// status and fields.
    @discardableResult
    static func writeLine(
        at position: UnsafeBufferPointer<UInt8>, name: UnsafeBufferPointer<UInt8>, status: TodoStatus, fields: [Field],
        to sink: inout ByteSink
    ) -> Range<Int> {
        // The common line (no fields, a name written as it is, an ASCII box) in one write:
        // each write has a cost of its own, more than the copying.
        if fields.isEmpty, let box = Self.asciiBox(status), NameSyntax.isWrittenAsIs(name) {
            let base = sink.byteCount
            var nameOffset = 0
            sink.write(upTo: position.count + 6 + name.count) { start in
                var pen = BytePen(at: start)
                pen.put(position)
                pen.put(" [")
                pen.put(byte: box)
                pen.put("] ")
                nameOffset = start.distance(to: pen.at)
                pen.put(name)
                pen.put("\n")
                return start.distance(to: pen.at)
            }
            return (base + nameOffset)..<(base + nameOffset + name.count)
        }
        sink.write(position)
        switch status {
        case .open: sink.write(static: " [ ] ")
        case .done: sink.write(static: " [x] ")
        case .custom(let scalar):
            sink.write(static: " [")
            sink.write(String(scalar))
            sink.write(static: "] ")
        }
        let nameStart = sink.byteCount
        // As `checklistText`, written piece by piece: only an escaped name can hold a line break.
        var wrote = !name.isEmpty
        if NameSyntax.isWrittenAsIs(name) {
            sink.write(name)
        } else {
            let escaped = NameSyntax.escape(Substring(String(decoding: name, as: UTF8.self)), continuation: "")
                .onOneLine
            wrote = !escaped.isEmpty
            sink.write(escaped)
        }
        // (Meaningful in a sink that keeps everything: one that writes out may have flushed.)
        let nameEnd = max(sink.byteCount, nameStart)
        for field in fields {
            sink.write(static: wrote ? " [" : "[")
            wrote = true
            sink.write(FieldSyntax.renderKey(field.key))
            sink.write(static: ":: ")
            sink.write(FieldSyntax.renderValue(field.value, bare: true))
            sink.write(static: "]")
        }
        sink.write(static: "\n")
        return nameStart..<nameEnd
    }

    /// Runs `body` with the UTF-8 bytes of `text`, or nil.
    private static func withOptionalUTF8<R>(_ text: inout String?, _ body: (UnsafeBufferPointer<UInt8>?) -> R) -> R {
        guard var string = text else { return body(nil) }
        return string.withUTF8 { body($0) }
    }

    /// The character in an item's box when it is ASCII (` `, `x`, `/`); nil for another.
    private static func asciiBox(_ status: TodoStatus) -> UInt8? {
        switch status {
        case .open: UInt8(ascii: " ")
        case .done: UInt8(ascii: "x")
        case .custom(let scalar): scalar.isASCII ? UInt8(scalar.value) : nil
        }
    }

    /// Reads the list of a file (nil: `bytes`, named `name`) and prints the items the query
    /// selects to `descriptor`, as `list` does, a line each or as JSON. Items go from the
    /// reader to the output as they are read, unless they are sorted.
    public func print(
        file: URL?, bytes: [UInt8] = [], name: String = "<stdin>", format: DocumentFormat?, options: ListOptions,
        json: Bool, to descriptor: Int32
    ) throws {
        let input = try file.map { try Input.reading($0.filePath) } ?? Input(bytes: bytes, name: name)
        let id = FormatRegistry.inputFormat(given: format, path: input.path, head: try input.head())
        var selector = Selector(query: self, json: json, sink: ByteSink(descriptor: descriptor))
        var info = stat()
        if let file, stat(file.filePath, &info) == 0 { selector.reserve(forFileOf: Int(info.st_size)) }
        try FormatRegistry.format(id).read(input, options: options, plainNamesInto: &selector)
        try selector.finish()
    }

    /// The query as a sink of a reader's items: each is numbered, tested and printed (or
    /// kept, to be sorted).
    struct Selector: PlainItemSink {
        let query: ItemQuery
        let json: Bool
        var sink: ByteSink
        private var counters: [Int] = []
        /// The current item's position as `list` prints it (`3.2`): `counters` in decimal,
        /// joined by dots, kept as they change (most items add one to the last number).
        private var position: [UInt8] = []
        private var section: String?
        private var selected = 0
        private var printed = 0
        private let needle: GrepNeedle?
        private let wanted: [(key: String, text: String, value: FieldValue?)]
        /// Items kept to be sorted, compactly (not as items, which would take several times
        /// the file; the arrays are what the peak memory is made of, with the file's text):
        /// each one's output (its line, or its JSON object) one after the other in `store`,
        /// its length in `lengths`, where its name (for a `name` key) is in it in `nameSpans`
        /// (see `isWrittenAsNFC`); its other keys' values in `numbers`, `kinds` and `others`.
        private var store = ByteSink()
        private var lengths: [UInt32] = []
        private var longLengths: [Int: Int] = [:]
        /// A name's offset in its item's output (high 16 bits) and length (low 16 bits), or
        /// `Self.elsewhere`: the name is in `names`.
        private var nameSpans: [UInt32] = []
        private static let elsewhere = UInt32.max
        /// Names that are not in `store` as they are, by kept item: their NFC bytes in `names`.
        private var names: [UInt8] = []
        private var nameRanges: [Int: Range<Int>] = [:]
        /// For the keys that are not `name`, `valueCount` a kept item: the key's kind (missing,
        /// an integer in `numbers`, any other value in `others`).
        private var kinds: [ValueKind] = []
        private var numbers: [Int32] = []
        private var others: [Int: FieldValue] = [:]
        /// For each sort key, its column in the values (`valueCount` a kept item); nil for `name`.
        private let columns: [Int?]
        private let valueCount: Int
        private let sortsByName: Bool
        /// Where each sort key's value comes from, in the query's order.
        private let sources: [SortSource]

        private enum SortSource {
            case name, checked, status, position
            case field(String)
        }

        private enum ValueKind: UInt8 {
            case missing, integer, other
        }

        init(query: ItemQuery, json: Bool, sink: ByteSink) {
            self.query = query
            self.json = json
            self.sink = sink
            needle = query.grep.map(GrepNeedle.init)
            wanted = query.fields.map { (key: $0.key, text: $0.value, value: try? Edit.fieldValue($0.value)) }
            var columns: [Int?] = []
            var count = 0
            for key in query.sort {
                if key.key == "name" {
                    columns.append(nil)
                } else {
                    columns.append(count)
                    count += 1
                }
            }
            self.columns = columns
            sources = query.sort.map {
                switch $0.key {
                case "name": .name
                case "checked": .checked
                case "status": .status
                case "position": .position
                default: .field($0.key)
                }
            }
            valueCount = count
            sortsByName = columns.contains { $0 == nil }
        }

        mutating func begin(metadata: [Field]) {}

        mutating func item(_ item: TodoItem, depth: Int) {
            count(depth: depth)
            if counters.count == 1 { section = item.section }
            guard query.matches(item, section: section, needle: needle, wanted: wanted) else { return }
            if !query.sort.isEmpty {
                ItemQuery.withName(item) {
                    keep(name: $0, status: item.status, fields: item.fields, section: item.section)
                }
                return
            }
            guard isNextPrinted() else { return }
            ItemQuery.withName(item) {
                emit(name: $0, status: item.status, fields: item.fields, section: item.section)
            }
        }

        /// Plain items, tested and printed from their names' bytes, without an item made of
        /// each: most of a checklist's items, which `list` on a large checklist spends its
        /// time on. Sorted items are kept from their bytes too (`keep`).
        mutating func items(plain: ArraySlice<PlainItem>, text: UnsafeBufferPointer<UInt8>, sections: [String]) {
            for entry in plain {
                let name = UnsafeBufferPointer(rebasing: text[entry.nameStart..<entry.nameEnd])
                let itemSection = entry.section(in: sections)
                count(depth: entry.depth)
                if counters.count == 1 { section = itemSection }
                // A plain item has no fields, so it has none of those wanted.
                guard wanted.isEmpty, query.matches(status: entry.status, section: section) else { continue }
                if let needle, !needle.isFound(inUTF8: name) { continue }
                if !query.sort.isEmpty {
                    keep(name: name, status: entry.status, fields: [], section: itemSection)
                    continue
                }
                guard isNextPrinted() else { continue }
                emit(name: name, status: entry.status, fields: [], section: itemSection)
            }
        }

        /// An item with fields whose name is plain, tested and printed (or kept) from its
        /// name's bytes as a plain item is, without an item made of it.
        mutating func item(
            plainName name: UnsafeBufferPointer<UInt8>, fields: [Field], status: TodoStatus, section: String?,
            depth: Int
        ) {
            let itemSection = depth == 0 ? section : nil
            count(depth: depth)
            if counters.count == 1 { self.section = itemSection }
            guard query.matches(status: status, fields: fields, section: self.section, wanted: wanted) else { return }
            if let needle, !needle.isFound(inUTF8: name) { return }
            if !query.sort.isEmpty {
                keep(name: name, status: status, fields: fields, section: itemSection)
                return
            }
            guard isNextPrinted() else { return }
            emit(name: name, status: status, fields: fields, section: itemSection)
        }

        /// Prints the item at the current position from its parts: a line, or an object of
        /// the JSON array.
        private mutating func emit(
            name: UnsafeBufferPointer<UInt8>, status: TodoStatus, fields: [Field], section: String?
        ) {
            let position = self.position  // (a copy: the sink changes self)
            position.withUnsafeBufferPointer { position in
                if json {
                    sink.write(static: printed == 0 ? "[\n  " : ",\n  ")
                    ItemQuery.writeJSONObject(
                        at: position, name: name, status: status, fields: fields, section: section, to: &sink)
                } else {
                    ItemQuery.writeLine(at: position, name: name, status: status, fields: fields, to: &sink)
                }
            }
            printed += 1
            sink.flushIfFull()
        }

        /// Counts an item at `depth` (made at most one deeper than the item before).
        private mutating func count(depth: Int) {
            let depth = min(max(depth, 0), counters.count)
            if depth == counters.count {  // the first child: `3` → `3.1`
                counters.append(1)
                if depth > 0 { position.append(UInt8(ascii: ".")) }
                position.append(UInt8(ascii: "1"))
                return
            }
            if counters.count > depth + 1 {  // back up: `3.2.1` → `3`, then `4`
                var dots = counters.count - depth - 1
                counters.removeLast(dots)
                while dots > 0 { if position.removeLast() == UInt8(ascii: ".") { dots -= 1 } }
            }
            counters[depth] += 1
            addOneToPosition()
        }

        /// Adds one to the last number of `position`, in place (`3.19` → `3.20`).
        private mutating func addOneToPosition() {
            var i = position.count - 1
            while i >= 0, position[i] == UInt8(ascii: "9") {
                position[i] = UInt8(ascii: "0")
                i -= 1
            }
            if i >= 0, position[i] != UInt8(ascii: ".") {
                position[i] += 1
            } else {
                position.insert(UInt8(ascii: "1"), at: i + 1)  // 9 → 10, 3.99 → 3.100
            }
        }

        /// Counts a selected item past the offset and the limit: whether it is printed.
        private mutating func isNextPrinted() -> Bool {
            selected += 1
            return selected > query.offset && query.limit.map({ printed < $0 }) ?? true
        }

        /// Makes room for the items of a file of `size` bytes, so that the arrays never grow
        /// by copying (room not filled costs no memory).
        mutating func reserve(forFileOf size: Int) {
            guard !query.sort.isEmpty else { return }
            // A checklist's lines grow a little as `list` writes them (a position for the indent).
            store.reserveCapacity(2 * size + (1 << 16))
            lengths.reserveCapacity(size / 32)
            if sortsByName { nameSpans.reserveCapacity(size / 32) }
            kinds.reserveCapacity(size / 32 * valueCount)
            numbers.reserveCapacity(size / 32 * valueCount)
        }

        /// Keeps an item at the current position to be sorted: its output, and its keys.
        private mutating func keep(
            name: UnsafeBufferPointer<UInt8>, status: TodoStatus, fields: [Field], section: String?
        ) {
            let index = lengths.count
            let start = store.byteCount
            let position = self.position  // (a copy: writing changes self)
            let written = position.withUnsafeBufferPointer { position in
                json
                    ? ItemQuery.writeJSONObject(
                        at: position, name: name, status: status, fields: fields, section: section, to: &store)
                    : ItemQuery.writeLine(at: position, name: name, status: status, fields: fields, to: &store)
            }
            let length = store.byteCount - start
            if let short = UInt32(exactly: length), short != UInt32.max {
                lengths.append(short)
            } else {
                lengths.append(UInt32.max)
                longLengths[index] = length
            }
            if sortsByName {
                let offset = written.lowerBound - start
                if offset < 1 << 16, written.count < 1 << 16, Self.isWrittenAsNFC(name, written: written, in: store) {
                    nameSpans.append(UInt32(offset) << 16 | UInt32(written.count))
                } else {
                    nameSpans.append(Self.elsewhere)
                    let from = names.count
                    String(decoding: name, as: UTF8.self)._withNFCCodeUnits { names.append($0) }
                    nameRanges[index] = from..<names.count
                }
            }
            for source in sources {
                let value: FieldValue?
                switch source {
                case .name: continue
                case .checked: value = .integer(status.isChecked ? 1 : 0)
                case .status: value = .integer(Int(status.marker.value))
                case .position: value = .integer(index)  // the items come in document order
                case .field(let key): value = fields.isEmpty ? nil : fields[key: key]
                }
                switch value {
                case nil:
                    kinds.append(.missing)
                    numbers.append(0)
                case .integer(let n)? where Int32(exactly: n) != nil:
                    kinds.append(.integer)
                    numbers.append(Int32(n))
                case let other?:
                    others[kinds.count] = other
                    kinds.append(.other)
                    numbers.append(0)
                }
            }
        }

        /// Whether the name's text in `store` at `written` is the name as it is, and in
        /// Unicode's NFC form: such bytes compare as names are ordered (`NFCCheck.order`: by
        /// their NFC forms' UTF-8 bytes), without a normalisation in every comparison. (`name`
        /// is valid UTF-8.)
        private static func isWrittenAsNFC(
            _ name: UnsafeBufferPointer<UInt8>, written: Range<Int>, in store: ByteSink
        ) -> Bool {
            guard name.count == written.count else { return false }
            guard !name.isEmpty else { return true }
            let same = store.withBytes {
                memcmp($0.baseAddress! + written.lowerBound, name.baseAddress!, name.count) == 0
            }
            guard same else { return false }
            return NFCCheck.isNFC(name)
        }

        mutating func end() {}

        mutating func finish() throws {
            if !query.sort.isEmpty {
                let starts = self.starts()
                let order = sortedKept(starts: starts)
                let from = min(query.offset, order.count)
                let to = query.limit.map { min(from + $0, order.count) } ?? order.count
                let stored = store
                stored.withBytes { buffer in
                    // The items are scattered through `store`, and their starts through
                    // `starts`: each item's start is asked for 16 items before it is copied,
                    // and its bytes 8 before, so that the copies do not wait on memory one by
                    // one. (Those waits were a fifth of a sorted `list`'s time.)
                    let ahead = 8
                    starts.withUnsafeBufferPointer { starts in
                        for n in from..<to {
                            if n + 2 * ahead < to {
                                todofmt_prefetch(starts.baseAddress! + Int(order[n + 2 * ahead].index))
                            }
                            if n + ahead < to {
                                todofmt_prefetch(buffer.baseAddress! + starts[Int(order[n + ahead].index)])
                            }
                            let i = Int(order[n].index)
                            if json { sink.write(printed == 0 ? "[\n  " : ",\n  ") }
                            sink.write(UnsafeBufferPointer(rebasing: buffer[starts[i]..<starts[i + 1]]))
                            printed += 1
                        }
                    }
                }
            }
            if json { sink.write(printed == 0 ? "[]\n" : "\n]\n") }
            _ = try sink.finish(path: "<stdout>")
        }

        /// Where each kept item's output starts in `store`, and where the last ends.
        private func starts() -> [Int] {
            var starts = [0]
            starts.reserveCapacity(lengths.count + 1)
            var at = 0
            for (i, length) in lengths.enumerated() {
                at += length == UInt32.max ? longLengths[i]! : Int(length)
                starts.append(at)
            }
            return starts
        }

        /// The kept items in the query's order (ties in document order), by `index`; `starts`
        /// is where their outputs start in `store`.
        ///
        /// The leading keys of each item are packed into the 160 bits of a `PackedKey`
        /// (`packedKeys`), so that most comparisons are of three numbers; only items whose
        /// packed keys are equal are compared key by key (`isBefore`).
        private func sortedKept(starts: [Int]) -> [PackedKey] {
            let sort = query.sort
            let k = valueCount
            let stored = store
            // (Locals, so that the comparisons capture these and not a copy of `self`.)
            let (columns, kinds, numbers, others) = (columns, kinds, numbers, others)
            let (nameSpans, nameRanges) = (nameSpans, nameRanges)
            /// Key `column` of kept item `i` as a value (nil: the item has no such field).
            func value(_ i: Int, _ column: Int) -> FieldValue? {
                let at = i * k + column
                switch kinds[at] {
                case .missing: return nil
                case .integer: return .integer(Int(numbers[at]))
                case .other: return others[at]
                }
            }
            return stored.withBytes { buffer in
                names.withUnsafeBufferPointer { names in
                    /// Kept item `i`'s name's NFC bytes.
                    func name(_ i: Int) -> UnsafeBufferPointer<UInt8> {
                        let span = nameSpans[i]
                        if span != Self.elsewhere {
                            let start = starts[i] + Int(span >> 16)
                            return UnsafeBufferPointer(rebasing: buffer[start..<(start + Int(span & 0xFFFF))])
                        }
                        return UnsafeBufferPointer(rebasing: names[nameRanges[i]!])
                    }
                    func compareNames(_ a: Int, _ b: Int) -> Int { NFCCheck.order(name(a), name(b)) }
                    /// Whether kept item `a` comes before `b`, by the keys from the `from`th on.
                    func isBefore(_ a: Int, _ b: Int, from: Int) -> Bool {
                        for j in from..<columns.count {
                            let column = columns[j]
                            let c: Int
                            if let column {
                                let x = kinds[a * k + column]
                                let y = kinds[b * k + column]
                                switch (x, y) {
                                case (.missing, .missing): continue
                                // An item without the field comes last either way.
                                case (.missing, _): return false
                                case (_, .missing): return true
                                case (.integer, .integer):
                                    c = ItemQuery.compare(numbers[a * k + column], numbers[b * k + column])
                                default: c = ItemQuery.compare(value(a, column)!, value(b, column)!)
                                }
                            } else {
                                c = compareNames(a, b)
                            }
                            if c != 0 { return sort[j].descending ? c > 0 : c < 0 }
                        }
                        return a < b
                    }
                    var (keys, packed) = packedKeys(name: name)
                    let complete = packed == columns.count && sortsByName == false
                    // When the packed keys end with the name, items with equal packed keys
                    // differ at most by it and the keys after it.
                    let nameKey = packed > 0 && columns[packed - 1] == nil ? packed - 1 : nil
                    // By the packed keys, then in document order; then each run of equal
                    // packed keys (a few items), if they do not hold every key, key by key.
                    keys.withUnsafeMutableBufferPointer { PackedKey.sort($0) }
                    guard !complete else { return keys }
                    // (One closure for every run, and the runs sorted in place: a closure made
                    // in the loop would copy `self` for each run, a slice's sort the run.)
                    let isBeforeInRun = { (a: PackedKey, b: PackedKey) -> Bool in
                        guard let nameKey else { return isBefore(Int(a.index), Int(b.index), from: 0) }
                        let c = compareNames(Int(a.index), Int(b.index))
                        if c != 0 { return sort[nameKey].descending ? c > 0 : c < 0 }
                        return isBefore(Int(a.index), Int(b.index), from: nameKey + 1)
                    }
                    /// Packs the bytes of each key's name from `offset` on into it, as
                    /// `packedKeys` packs a name's first ones; false when no name is that long.
                    func repack(_ run: UnsafeMutableBufferPointer<PackedKey>, from offset: Int) -> Bool {
                        let descending = nameKey.map { sort[$0].descending } ?? false
                        var reaches = false
                        // A run's items are scattered through memory: the places of their
                        // names are asked for 16 keys ahead, the names' bytes 8 ahead (as in
                        // `finish`), so that the reads do not wait on memory one by one.
                        nameSpans.withUnsafeBufferPointer { spans in
                            starts.withUnsafeBufferPointer { starts in
                                for i in run.indices {
                                    if i + 16 < run.count {
                                        let j = Int(run[i + 16].index)
                                        todofmt_prefetch(spans.baseAddress! + j)
                                        todofmt_prefetch(starts.baseAddress! + j)
                                    }
                                    if i + 8 < run.count, let ahead = name(Int(run[i + 8].index)).baseAddress {
                                        todofmt_prefetch(ahead + offset)
                                    }
                                    let text = name(Int(run[i].index))
                                    reaches = reaches || text.count > offset
                                    var raw: (UInt64, UInt64, UInt64) = (0, 0, 0)
                                    withUnsafeMutableBytes(of: &raw) {
                                        PackedKey.pack(text, from: offset, into: $0, at: 0, descending: descending)
                                    }
                                    run[i] = PackedKey(raw, index: run[i].index)
                                }
                            }
                        }
                        return reaches
                    }
                    /// Sorts each run of keys whose packed keys are equal. When those end with
                    /// the name (whose bytes before `nameFrom` they share), the run is packed
                    /// again from the name's next bytes and sorted so, and so on while names
                    /// go on: names that share a long start (`review the pull request 1…`)
                    /// are compared twenty bytes at a time, not each pair from its start.
                    func sortRuns(_ keys: UnsafeMutableBufferPointer<PackedKey>, nameFrom offset: Int) {
                        var start = 0
                        while start < keys.count {
                            var end = start + 1
                            while end < keys.count, keys[end].isPackedEqual(to: keys[start]) { end += 1 }
                            if end - start > 1 {
                                var run = UnsafeMutableBufferPointer(rebasing: keys[start..<end])
                                if nameKey != nil, run.count > 8, repack(run, from: offset) {
                                    PackedKey.sort(run)
                                    sortRuns(run, nameFrom: offset + PackedKey.size)
                                } else {
                                    run.sort(by: isBeforeInRun)
                                }
                            }
                            start = end
                        }
                    }
                    // The name's first bytes are packed after the integer keys before it.
                    keys.withUnsafeMutableBufferPointer {
                        sortRuns($0, nameFrom: PackedKey.size - 5 * (nameKey ?? 0))
                    }
                    return keys
                }
            }
        }

        /// A kept item's leading sort keys packed into 160 bits (`high`, then `middle`, then
        /// `low`), the first key in the highest bits, so that an item whose packed keys are
        /// less comes first; and the item's index.
        private struct PackedKey {
            var high: UInt64
            var middle: UInt64
            var low: UInt32
            var index: UInt32

            /// How many bytes of keys one holds.
            static let size = 20

            func isPackedEqual(to other: PackedKey) -> Bool {
                high == other.high && middle == other.middle && low == other.low
            }

            /// The key whose bytes are `raw`'s first 20 (the first the most significant).
            init(_ raw: (UInt64, UInt64, UInt64), index: UInt32) {
                high = UInt64(bigEndian: raw.0)
                middle = UInt64(bigEndian: raw.1)
                low = UInt32(truncatingIfNeeded: UInt64(bigEndian: raw.2) >> 32)
                self.index = index
            }

            /// Packs the bytes of `text` from `offset` on into `bytes` from `at` to the key's
            /// end (0 past the text's end), inverted when `descending`.
            static func pack(
                _ text: UnsafeBufferPointer<UInt8>, from offset: Int, into bytes: UnsafeMutableRawBufferPointer,
                at: Int, descending: Bool
            ) {
                let taken = min(text.count - offset, size - at)
                if taken > 0 {
                    (bytes.baseAddress! + at).copyMemory(from: text.baseAddress! + offset, byteCount: taken)
                }
                if descending {
                    for b in at..<size { bytes[b] = ~bytes[b] }
                }
            }

            /// Whether it comes before `other`: by the packed keys, then in document order.
            func isBefore(_ other: PackedKey) -> Bool {
                if high != other.high { return high < other.high }
                if middle != other.middle { return middle < other.middle }
                if low != other.low { return low < other.low }
                return index < other.index
            }

            /// Byte `byte` of the packed keys (0 the most significant).
            @inline(__always)
            private func digit(_ byte: Int) -> Int {
                let word = byte < 8 ? high : byte < 16 ? middle : UInt64(low) << 32
                return Int(truncatingIfNeeded: word >> UInt64(56 - 8 * (byte & 7))) & 0xFF
            }

            /// Sorts `keys`, which are in document order, as `isBefore` orders them.
            ///
            /// A radix sort, most significant byte first, that keeps the order of equal
            /// bytes: at a million items it runs faster than the standard library's merge
            /// sort, whose twenty levels each compare and move every key. The bytes that all
            /// of a bucket's keys share (a field most items lack, a name's common start) are
            /// skipped in one pass; buckets of a few keys are sorted by insertion.
            static func sort(_ keys: UnsafeMutableBufferPointer<PackedKey>) {
                guard keys.count > 32 else { return insertionSort(keys) }
                let scratch = UnsafeMutableBufferPointer<PackedKey>.allocate(capacity: keys.count)
                defer { scratch.deallocate() }
                withUnsafeTemporaryAllocation(of: Int.self, capacity: 256 * size) { table in
                    sort(
                        keys.baseAddress!, count: keys.count, other: scratch.baseAddress!, intoOther: false,
                        table: table.baseAddress!)
                }
            }

            /// Sorts the `count` keys at `keys`, which are in document order where their bytes
            /// are equal, into `other` (as many) if `intoOther`, else in place; either may be
            /// overwritten. `table` holds 256 counts for each byte: a bucket's keys share more
            /// bytes than the keys it was split from, so each level has its own.
            ///
            /// A level moves the keys from one buffer into the other by their byte, and its
            /// buckets are sorted from there: into the first buffer again where the keys are
            /// to end in it. (Moving them back at every level was a sixth of the sort's time.)
            private static func sort(
                _ keys: UnsafeMutablePointer<PackedKey>, count: Int, other: UnsafeMutablePointer<PackedKey>,
                intoOther: Bool, table: UnsafeMutablePointer<Int>
            ) {
                guard count > 32 else {
                    insertionSort(UnsafeMutableBufferPointer(start: keys, count: count))
                    if intoOther { other.update(from: keys, count: count) }
                    return
                }
                // The bytes that every key shares, skipped in one pass.
                let first = keys[0]
                var (high, middle, low): (UInt64, UInt64, UInt32) = (0, 0, 0)
                for i in 0..<count {
                    high |= keys[i].high ^ first.high
                    middle |= keys[i].middle ^ first.middle
                    low |= keys[i].low ^ first.low
                }
                let byte =
                    high != 0
                    ? high.leadingZeroBitCount / 8
                    : middle != 0 ? 8 + middle.leadingZeroBitCount / 8 : 16 + low.leadingZeroBitCount / 8
                guard byte < size else {
                    // Every byte is equal: the keys are in document order.
                    if intoOther { other.update(from: keys, count: count) }
                    return
                }
                let counts = table + 256 * byte
                counts.initialize(repeating: 0, count: 256)
                for i in 0..<count { counts[keys[i].digit(byte)] += 1 }
                var at = 0
                for d in 0..<256 {
                    let n = counts[d]
                    counts[d] = at
                    at += n
                }
                for i in 0..<count {
                    let d = keys[i].digit(byte)
                    (other + counts[d]).initialize(to: keys[i])
                    counts[d] += 1
                }
                // `counts[d]` is now where bucket `d` ends; the keys are in `other`.
                var start = 0
                for d in 0..<256 where counts[d] > start {
                    let end = counts[d]
                    if end - start > 1 {
                        sort(
                            other + start, count: end - start, other: keys + start, intoOther: !intoOther, table: table)
                    } else if !intoOther {
                        keys[start] = other[start]
                    }
                    start = end
                }
            }

            private static func insertionSort(_ keys: UnsafeMutableBufferPointer<PackedKey>) {
                for i in keys.indices.dropFirst() {
                    let key = keys[i]
                    var j = i
                    while j > 0, key.isBefore(keys[j - 1]) {
                        keys[j] = keys[j - 1]
                        j -= 1
                    }
                    keys[j] = key
                }
            }
        }

        /// Each kept item's packed keys, and how many of the query's keys they hold (whole,
        /// or for the name, its first bytes). Packed as bytes, in the query's order:
        /// keys of integers that fit 32 bits or are missing, 5 bytes each (1 when missing,
        /// then the number, with its sign bit flipped to order as unsigned bytes); then, if
        /// the next key is the name, as many of its first bytes as fit (0 past its end). A
        /// descending key's bytes are inverted, except the byte that puts missing values
        /// last. Packing stops at the first key holding other values, and after the name.
        private func packedKeys(name: (Int) -> UnsafeBufferPointer<UInt8>) -> ([PackedKey], Int) {
            let k = valueCount
            let count = lengths.count
            var packed: [(column: Int?, descending: Bool)] = []
            for (key, column) in zip(query.sort, columns) {
                if let column {
                    let integers = stride(from: column, to: kinds.count, by: k).allSatisfy { kinds[$0] != .other }
                    guard integers, 5 * (packed.count + 1) <= PackedKey.size else { break }
                    packed.append((column, key.descending))
                } else {
                    packed.append((nil, key.descending))
                    break
                }
            }
            var keys: [PackedKey] = []
            keys.reserveCapacity(count)
            for i in 0..<count {
                var raw: (UInt64, UInt64, UInt64) = (0, 0, 0)
                withUnsafeMutableBytes(of: &raw) { bytes in
                    var at = 0
                    for (column, descending) in packed {
                        if let column {
                            let n = i * k + column
                            if kinds[n] == .missing {
                                bytes[at] = 1  // last either way
                            } else {
                                let bits = UInt32(bitPattern: numbers[n]) ^ 0x8000_0000
                                bytes.storeBytes(
                                    of: (descending ? ~bits : bits).bigEndian, toByteOffset: at + 1, as: UInt32.self)
                            }
                            at += 5
                        } else {
                            PackedKey.pack(name(i), from: 0, into: bytes, at: at, descending: descending)
                        }
                    }
                }
                keys.append(PackedKey(raw, index: UInt32(truncatingIfNeeded: i)))
            }
            return (keys, packed.count)
        }
    }
}
