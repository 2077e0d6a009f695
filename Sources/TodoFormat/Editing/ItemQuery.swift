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
        let grepNeedle = grep.map { Self.folded($0) }
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
        _ item: TodoItem, section: String?, needle: String?, wanted: [(key: String, text: String, value: FieldValue?)]
    ) -> Bool {
        if !statuses.isEmpty {
            guard statuses.contains(item.status) else { return false }
        }
        if let wantedSection = self.section, section != wantedSection { return false }
        if let needle, !Self.contains(item.nameStorage, needle) { return false }
        for field in wanted {
            guard let value = item.fields[key: field.key] else { return false }
            if value == field.value { continue }
            if case .string(let s) = value, s == field.text { continue }
            if FieldSyntax.renderValue(value, bare: true) == field.text { continue }
            return false
        }
        return true
    }

    static func folded(_ text: String) -> String { text.lowercased() }

    /// Whether `name` contains `needle` (lower case already), ignoring case. An ASCII needle
    /// is looked for byte by byte with ASCII letters folded (the only other characters that
    /// lower to ASCII, the Kelvin sign and the dotted capital I, send the name the long way);
    /// a needle without case (日本語) byte by byte; any other both lowered.
    static func contains(_ name: Substring, _ needle: String) -> Bool {
        let found =
            name.utf8.withContiguousStorageIfAvailable { hay -> Bool? in
                needle.utf8.withContiguousStorageIfAvailable { pin -> Bool? in
                    let pinASCII = !pin.contains { $0 >= 0x80 }
                    guard pinASCII || !needle.unicodeScalars.contains(where: { $0.properties.changesWhenCaseMapped })
                    else { return nil }
                    if pin.isEmpty { return true }
                    if hay.count >= pin.count {
                        for start in 0...(hay.count - pin.count) {
                            var k = 0
                            while k < pin.count {
                                var b = hay[start + k]
                                if pinASCII && b >= 65 && b <= 90 { b += 32 }
                                if b != pin[k] { break }
                                k += 1
                            }
                            if k == pin.count { return true }
                        }
                    }
                    guard pinASCII else { return false }
                    // U+212A KELVIN SIGN (E2 84 AA) and U+0130 (C4 B0) lower to ASCII letters.
                    for i in hay.indices where hay[i] == 0xC4 || hay[i] == 0xE2 {
                        if hay[i] == 0xC4, i + 1 < hay.count, hay[i + 1] == 0xB0 { return nil }
                        if hay[i] == 0xE2, i + 2 < hay.count, hay[i + 1] == 0x84, hay[i + 2] == 0xAA { return nil }
                    }
                    return false
                } ?? nil
            } ?? nil
        if let found { return found }
        return folded(String(name)).contains(needle)
    }

    private static func compare<T: Comparable>(_ a: T, _ b: T) -> Int { a < b ? -1 : a == b ? 0 : 1 }

    /// Values of one kind compare by value (numbers as numbers, dates by time); of
    /// different kinds, by kind: booleans, numbers, dates, strings, then the rest; null last.
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
        case (.string(let x), .string(let y)): return compare(x, y)
        default:
            if let x = number(a), let y = number(b) { return compare(x, y) }
            return compare(FieldSyntax.renderValue(a, bare: false), FieldSyntax.renderValue(b, bare: false))
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
                sink.write(entry.position)
                sink.write(" ")
                sink.write(entry.item.checklistText)
                sink.write("\n")
            }
        }
        _ = try sink.finish(path: "<stdout>")
    }

    private static func write(_ listed: [Listed], to sink: inout ByteSink) {
        for (i, entry) in listed.enumerated() { writeJSON(entry.item, at: entry.position, first: i == 0, to: &sink) }
        sink.write(listed.isEmpty ? "[]\n" : "\n]\n")
    }

    /// One item of the JSON array; the first opens the array.
    static func writeJSON(_ item: TodoItem, at position: String, first: Bool, to sink: inout ByteSink) {
        sink.write(first ? "[\n  " : ",\n  ")
        writeJSONObject(item, at: position, to: &sink)
    }

    /// One item of the JSON array without what comes before it; returns where in the sink's
    /// buffer the name's text went (without its quotes).
    @discardableResult
    static func writeJSONObject(_ item: TodoItem, at position: String, to sink: inout ByteSink) -> Range<Int> {
        do {
            let entry = (item: item, position: position)
            sink.write("{\"at\": ")
            JSONText.writeString(Substring(entry.position), to: &sink)
            sink.write(", \"name\": ")
            let nameStart = sink.byteCount + 1
            JSONText.writeString(entry.item.nameStorage, to: &sink)
            // (Meaningful in a sink that keeps everything: one that writes out may have flushed.)
            let nameEnd = max(sink.byteCount - 1, nameStart)
            sink.write(entry.item.status == .done ? ", \"checked\": true" : ", \"checked\": false")
            if case .custom(let scalar) = entry.item.status {
                sink.write(", \"status\": ")
                JSONText.writeString(Substring(String(scalar)), to: &sink)
            }
            for field in entry.item.fields {
                sink.write(", ")
                JSONText.writeString(Substring(field.key), to: &sink)
                sink.write(": ")
                JSONText.writeValue(field.value, to: &sink)
            }
            if let section = entry.item.section {
                sink.write(", \"section\": ")
                JSONText.writeString(Substring(section), to: &sink)
            }
            sink.write("}")
            return nameStart..<nameEnd
        }
    }

    /// One item as a line of `list`; returns where in the sink's buffer the name's text went.
    @discardableResult
    static func writeLine(_ item: TodoItem, at position: String, to sink: inout ByteSink) -> Range<Int> {
        sink.write(position)
        sink.write(" [")
        sink.write(String(item.status.marker))
        sink.write("] ")
        let nameStart = sink.byteCount
        // As `checklistText`, written piece by piece: only an escaped name can hold a line break.
        var wrote = !item.nameStorage.isEmpty
        if item.nameStorage.utf8.withContiguousStorageIfAvailable({ NameSyntax.isPlain($0) }) ?? false {
            sink.write(item.nameStorage)
        } else {
            var name = NameSyntax.escape(item.nameStorage, continuation: "")
            if name.utf8.contains(10) { name = name.replacingOccurrences(of: "\n", with: " ") }
            wrote = !name.isEmpty
            sink.write(name)
        }
        // (Meaningful in a sink that keeps everything: one that writes out may have flushed.)
        let nameEnd = max(sink.byteCount, nameStart)
        for field in item.fields {
            sink.write(wrote ? " [" : "[")
            wrote = true
            sink.write(FieldSyntax.renderKey(field.key))
            sink.write(":: ")
            sink.write(FieldSyntax.renderValue(field.value, bare: true))
            sink.write("]")
        }
        sink.write("\n")
        return nameStart..<nameEnd
    }

    /// Reads the list of a file (nil: `bytes`, named `name`) and prints the items the query
    /// selects to `descriptor`, as `list` does, a line each or as JSON. Items go from the
    /// reader to the output as they are read, unless they are sorted.
    public func print(
        file: URL?, bytes: [UInt8] = [], name: String = "<stdin>", format: DocumentFormat?, options: ListOptions,
        json: Bool, to descriptor: Int32
    ) throws {
        let input = file.map { Input(file: $0.filePath) } ?? Input(bytes: bytes, name: name)
        let id = FormatRegistry.inputFormat(given: format, path: input.path, head: try input.head())
        var selector = Selector(query: self, json: json, sink: ByteSink(descriptor: descriptor))
        var info = stat()
        if let file, stat(file.filePath, &info) == 0 { selector.reserve(forFileOf: Int(info.st_size)) }
        try FormatRegistry.format(id).read(input, options: options, into: &selector)
        try selector.finish()
    }

    /// The query as a sink of a reader's items: each is numbered, tested and printed (or
    /// kept, to be sorted).
    struct Selector: ItemSink {
        let query: ItemQuery
        let json: Bool
        var sink: ByteSink
        private var counters: [Int] = []
        private var section: String?
        private var selected = 0
        private var printed = 0
        private let needle: String?
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

        private enum ValueKind: UInt8 {
            case missing, integer, other
        }

        init(query: ItemQuery, json: Bool, sink: ByteSink) {
            self.query = query
            self.json = json
            self.sink = sink
            needle = query.grep.map { ItemQuery.folded($0) }
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
            valueCount = count
            sortsByName = columns.contains { $0 == nil }
        }

        mutating func begin(metadata: [Field]) {}

        mutating func item(_ item: TodoItem, depth: Int) {
            let depth = min(max(depth, 0), counters.count)
            if counters.count > depth + 1 { counters.removeLast(counters.count - depth - 1) }
            if counters.count < depth + 1 { counters.append(0) }
            counters[depth] += 1
            if depth == 0 { section = item.section }
            guard query.matches(item, section: section, needle: needle, wanted: wanted) else { return }
            let position = counters.count == 1 ? String(counters[0]) : counters.map(String.init).joined(separator: ".")
            if !query.sort.isEmpty {
                keep(item, at: position)
                return
            }
            selected += 1
            guard selected > query.offset, query.limit.map({ printed < $0 }) ?? true else { return }
            emit(item, at: position)
        }

        private mutating func emit(_ item: TodoItem, at position: String) {
            if json {
                ItemQuery.writeJSON(item, at: position, first: printed == 0, to: &sink)
            } else {
                ItemQuery.writeLine(item, at: position, to: &sink)
            }
            printed += 1
            sink.flushIfFull()
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

        /// Keeps an item to be sorted: its output, and its keys.
        private mutating func keep(_ item: TodoItem, at position: String) {
            let index = lengths.count
            let start = store.byteCount
            let written =
                json
                ? ItemQuery.writeJSONObject(item, at: position, to: &store)
                : ItemQuery.writeLine(item, at: position, to: &store)
            let length = store.byteCount - start
            if let short = UInt32(exactly: length), short != UInt32.max {
                lengths.append(short)
            } else {
                lengths.append(UInt32.max)
                longLengths[index] = length
            }
            if sortsByName {
                let offset = written.lowerBound - start
                if offset < 1 << 16, written.count < 1 << 16, isWrittenAsNFC(item.nameStorage, written: written) {
                    nameSpans.append(UInt32(offset) << 16 | UInt32(written.count))
                } else {
                    nameSpans.append(Self.elsewhere)
                    let from = names.count
                    String(item.nameStorage)._withNFCCodeUnits { names.append($0) }
                    nameRanges[index] = from..<names.count
                }
            }
            for (key, column) in zip(query.sort, columns) where column != nil {
                let value: FieldValue?
                switch key.key {
                case "checked": value = .integer(item.isChecked ? 1 : 0)
                case "status": value = .integer(Int(item.status.marker.value))
                case "position": value = .integer(index)  // the items come in document order
                default: value = item.fields[key: key.key]
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
        /// Unicode's NFC form: such bytes compare as Swift's strings do (`<` on strings orders
        /// their NFC forms' scalars, which is the order of their UTF-8 bytes), without the
        /// stdlib's normalisation in every comparison.
        private func isWrittenAsNFC(_ name: Substring, written: Range<Int>) -> Bool {
            let same = name.utf8.withContiguousStorageIfAvailable { raw -> Bool in
                guard raw.count == written.count else { return false }
                return store.withBytes { buffer in
                    raw.isEmpty || memcmp(buffer.baseAddress! + written.lowerBound, raw.baseAddress!, raw.count) == 0
                }
            }
            guard same == true else { return false }
            var span = name.utf8Span
            return span.checkForNFC(quickCheck: true)
        }

        /// Key `column` of kept item `i` as a value (nil: the item has no such field).
        private func value(_ i: Int, _ column: Int) -> FieldValue? {
            let at = i * valueCount + column
            switch kinds[at] {
            case .missing: return nil
            case .integer: return .integer(Int(numbers[at]))
            case .other: return others[at]
            }
        }

        mutating func end() {}

        mutating func finish() throws {
            if !query.sort.isEmpty {
                let order = sortedKept()
                let from = min(query.offset, order.count)
                let to = query.limit.map { min(from + $0, order.count) } ?? order.count
                let starts = self.starts()
                let stored = store
                stored.withBytes { buffer in
                    for i in order[from..<to] {
                        if json { sink.write(printed == 0 ? "[\n  " : ",\n  ") }
                        sink.write(UnsafeBufferPointer(rebasing: buffer[starts[i]..<starts[i + 1]]))
                        printed += 1
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

        /// The kept items' indexes in the query's order (ties in document order).
        private func sortedKept() -> [Int] {
            let sort = query.sort
            let k = valueCount
            let stored = store
            let starts = sortsByName ? self.starts() : []
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
                    func compareNames(_ a: Int, _ b: Int) -> Int {
                        let x = name(a)
                        let y = name(b)
                        let n = min(x.count, y.count)
                        let c = n == 0 ? 0 : memcmp(x.baseAddress!, y.baseAddress!, n)
                        if c != 0 { return c < 0 ? -1 : 1 }
                        return ItemQuery.compare(x.count, y.count)
                    }
                    var order = Array(lengths.indices)
                    order.sort { a, b in
                        for (j, column) in columns.enumerated() {
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
                    return order
                }
            }
        }
    }
}
