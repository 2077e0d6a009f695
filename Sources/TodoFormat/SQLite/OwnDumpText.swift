import Foundation

/// todofmt's own table in an SQL dump laid out as todofmt writes one (and as `sqlite3 .dump`
/// writes todofmt's database), read from the dump's text without running it: running a
/// million `INSERT`s into SQLite took 40 times as long as reading a checklist of the same
/// list, and every editing command on a dump read it so.
///
/// It reads only a dump whose text says exactly what running it gives; nil otherwise, and
/// the dump is run (`SQLDumpFormat.read`). Its statements before the first row (run in
/// SQLite, as a dump is) make only the table, exactly as todofmt makes it (no index,
/// trigger or other table), with foreign keys off; then come one `INSERT INTO table
/// VALUES(…);` a line, then `COMMIT;`. Each value is `NULL`, an integer or a quoted UTF-8
/// text, one SQLite stores as it is written in that column (no text that its affinity might
/// make a number, no integer a text or real column would turn into another value); ids rise
/// from line to line (so that lines are in rowid order, the order the table is read in); and
/// each top-level row is followed by its descendants depth first, siblings and top-level
/// rows in position order, as `ListTable.read` streams them. The rows then read as that
/// reader reads them, value by value (`ListTable.fieldValue`).
struct OwnDumpText {
    private let table: ListTable
    private let bytes: UnsafeBufferPointer<UInt8>
    /// Where the first row statement starts, and where the last one's line ends.
    private let rows: Range<Int>
    /// `INSERT INTO table VALUES(`.
    private let prefix: [UInt8]
    /// Each row's depth, in order.
    private let depths: [Int32]
    /// Each top-level row's place among the rows; only where the dump is exactly what
    /// todofmt writes for its list (`fresh`).
    private let tops: [Int]
    /// Where each row starts, then where the last one's line ends; only in a `fresh` dump.
    private let starts: [Int]
    /// In a `fresh` dump: for each field column, how many values of each kind it has
    /// (`FreshCheck.kindNames`, four a column), and the row that has its first.
    private let fieldCounts: [Int]
    private let firstRows: [Int]
    /// The field columns and their keys (`ListTable.fieldColumns`).
    private let fields: [(column: ColumnInfo, key: String)]
    /// Each field column's place among the field columns, by its key.
    private let fieldColumn: [ExactText: Int]
    /// In a `fresh` dump: whether no two of its values are a pair `DumpStreamedUpdate.differ`
    /// cannot tell apart (no text with a date or JSON reading, no column of numbers and
    /// texts), so that of two different rows of it the whole write keeps the new one.
    private let valuesDiffer: Bool

    /// The dump in `bytes` (named `name` in errors) read so, or nil. With `fresh`, also nil
    /// unless the dump is byte for byte the one todofmt writes for the list it holds (ids 1,
    /// 2, 3… depth first, positions 0, 1, 2… under each parent, each value as todofmt
    /// spells it, the columns those of its keys in the order they first have a value, typed
    /// by their values): the edits made on its rows alone (`updateItems`, `moveItem`) then
    /// write what comparing a new dump of the edited list with it writes.
    init?(_ bytes: UnsafeBufferPointer<UInt8>, name: String, options: ListOptions, fresh: Bool = false) {
        guard let first = Self.firstRow(in: bytes), memchr(bytes.baseAddress!, 0, first) == nil,
            let (table, sql) = Self.table(
                header: UnsafeBufferPointer(rebasing: bytes[..<first]), name: name, options: options)
        else { return nil }
        self.table = table
        self.bytes = bytes
        prefix = Array("INSERT INTO \(OwnTable.reference(table.name)) VALUES(".utf8)
        var scanner = Scanner(bytes: bytes, at: first)
        var depths: [Int32] = []
        var nesting = OwnRowNesting()
        var lastTop: (position: Int64, id: Int64)? = nil
        let affinities = table.columns.map(\.affinity)
        var lastID = Int64.min
        // (Not an optional: telling whether it was nil, a struct's tag read through the
        // runtime, was a tenth of a scan.)
        var check = FreshCheck(table: table)
        var tops: [Int] = []
        var starts: [Int] = []
        let comma = UInt8(ascii: ",")
        let own = ListTable.ownColumns.count
        // The rows before `verified` are UTF-8 with no NUL and, in a `fresh` dump, no carriage
        // return (which can only be in a text: todofmt writes one with `replace(…)`). They
        // are checked a block at a time, while the block's bytes are in the cache: the checks
        // over the whole dump after its scan were a tenth of an edit of a million rows.
        var verified = first
        func checkRows(to end: Int) -> Bool {
            let block = UnsafeBufferPointer(rebasing: bytes[verified..<end])
            verified = end
            return UTF8Validation.isValid(block) && memchr(block.baseAddress!, 0, block.count) == nil
                && !(fresh && memchr(block.baseAddress!, 13, block.count) != nil)
        }
        // Each row: its values as this reader takes them, its id rising, its place in the tree.
        while scanner.at < bytes.count, scanner.skip(prefix) {
            let start = scanner.at - prefix.count
            // todofmt's own columns one by one, each as it must be: `id`, `parent` (`NULL` or
            // an integer), `position`, `name`, `checked`, `status` and `section` (`NULL` or a
            // text). (A loop over the columns with a switch on each token was a third of
            // reading the dump.)
            guard let id = scanner.integer(), id > lastID, scanner.skip(byte: comma) else { return nil }
            var parent: Int64? = nil
            if !scanner.skipNull() {
                guard let value = scanner.integer() else { return nil }
                parent = value
            }
            guard scanner.skip(byte: comma), let position = scanner.integer(), scanner.skip(byte: comma),
                let name = scanner.text(), scanner.skip(byte: comma), let checked = scanner.integer(),
                scanner.skip(byte: comma), let status = scanner.nullOrText(), scanner.skip(byte: comma),
                let section = scanner.nullOrText()
            else { return nil }
            for column in own..<affinities.count {
                guard scanner.skip(byte: comma) else { return nil }
                // (A field column's `NULL`, as most are, takes nothing.)
                if scanner.skipNull() { continue }
                guard let token = scanner.token(),
                    Self.stores(token, affinity: affinities[column], in: bytes)
                else { return nil }
                if fresh, !check.take(token, column: column, in: bytes) { return nil }
            }
            if fresh,
                !check.takeOwn(
                    id: id, position: position, name: name, checked: checked, status: status, section: section,
                    in: bytes)
            {
                return nil
            }
            // Top-level rows in rising (position, id) order, each followed by its own rows.
            if parent == nil {
                if let last = lastTop, (last.position, last.id) >= (position, id) { return nil }
                lastTop = (position, id)
            }
            guard scanner.skipRowEnd(), let depth = nesting.place(id: id, parent: parent, position: position)
            else { return nil }
            if fresh {
                guard check.endRow(depth: depth) else { return nil }
                if depth == 0 { tops.append(depths.count) }
                starts.append(start)
            }
            lastID = id
            depths.append(depth)
            if scanner.at - verified >= 1 << 16, !checkRows(to: scanner.at) { return nil }
        }
        let tail = UnsafeBufferPointer(rebasing: bytes[scanner.at...])
        guard !depths.isEmpty, tail.elementsEqual("COMMIT;\n".utf8) || tail.elementsEqual("COMMIT;".utf8),
            verified == scanner.at || checkRows(to: scanner.at)
        else { return nil }
        if fresh {
            // The header and the end as todofmt writes them, and the columns those of the keys.
            let header = "PRAGMA foreign_keys=OFF;\nBEGIN TRANSACTION;\n\(sql);\n"
            guard scanner.canonical, tail.elementsEqual("COMMIT;\n".utf8), bytes[..<first].elementsEqual(header.utf8),
                check.isWritten(as: sql)
            else { return nil }
        }
        rows = first..<scanner.at
        self.depths = depths
        self.tops = tops
        starts.append(scanner.at)
        self.starts = starts
        (fieldCounts, firstRows) = fresh ? (check.counts, check.firstRow) : ([], [])
        valuesDiffer = fresh && !check.readsOtherwise && !check.mixesKinds
        fields = table.fieldColumns
        var fieldColumn: [ExactText: Int] = [:]
        for (i, field) in fields.enumerated() { fieldColumn[ExactText(field.key)] = i }
        self.fieldColumn = fieldColumn
    }

    /// Hands the list to `sink`, a row at a time.
    func read<S: ItemSink>(into sink: inout S) throws {
        try sink.begin(metadata: [])
        try readRows(depths.indices, from: rows.lowerBound, into: &sink)
        try sink.end()
    }

    /// Hands the rows `range` (places among the rows), the first starting at `offset`, to
    /// `sink` as items.
    private func readRows<S: ItemSink>(_ range: Range<Int>, from offset: Int, into sink: inout S) throws {
        var scanner = Scanner(bytes: bytes, at: offset)
        var lastSection: (bytes: ArraySlice<UInt8>, text: String)? = nil
        // One array for every row's values (an array made for each row was a cost per row).
        var tokens = [Token](repeating: .null, count: ListTable.ownColumns.count)
        var fieldTokens = [Token](repeating: .null, count: fields.count)
        for depth in depths[range] {
            _ = scanner.skip(prefix)
            for column in tokens.indices {
                if column > 0 { _ = scanner.skip(byte: UInt8(ascii: ",")) }
                tokens[column] = scanner.token()!
            }
            for f in fieldTokens.indices {
                _ = scanner.skip(byte: UInt8(ascii: ","))
                fieldTokens[f] = scanner.token()!
            }
            _ = scanner.skipRowEnd()
            guard case .text(let name) = tokens[3], case .integer(let checked) = tokens[4] else { continue }
            var item = TodoItem(name: Self.text(name, in: bytes))
            item.status = checked != 0 ? .done : .open
            for f in fieldTokens.indices {
                let value: SQLValue
                switch fieldTokens[f] {
                case .null: continue
                case .integer(let i): value = .integer(i)
                case .text(let range): value = .text(Self.text(range, in: bytes))
                }
                if let field = table.fieldValue(value, column: fields[f].column) {
                    item.fields.append(Field(fields[f].key, field))
                }
            }
            if case .text(let range) = tokens[5] {
                // Text that is no status (one a checklist's box cannot hold) stays, as a field.
                let text = Self.text(range, in: bytes)
                if let status = ItemBuilder.status(from: text) {
                    item.status = status
                } else {
                    item.fields.append(Field("status", .string(text)))
                }
            }
            if depth == 0, case .text(let range) = tokens[6] {
                let quoted = bytes[range]
                if lastSection?.bytes.elementsEqual(quoted) != true {
                    lastSection = (ArraySlice(quoted), Self.text(range, in: bytes))
                }
                item.section = lastSection!.text
            }
            try sink.item(item, depth: Int(depth))
        }
    }

    private static let rowEnd = Array(");\n".utf8)

    /// Where the first line that starts `INSERT INTO ` starts.
    private static func firstRow(in bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        let marker = LineMarker(bytes: Array("\nINSERT INTO ".utf8), itemOffset: 1)
        return marker.nextStart(from: 0, in: bytes)
    }

    /// The table the statements before the first row make, run as a dump is run: todofmt's
    /// own, made as todofmt makes it, alone in the database and empty (an `INSERT` spelled
    /// otherwise, ` insert into` or `REPLACE INTO`, is not a row line but makes a row), inside
    /// the transaction the closing `COMMIT;` ends; nil for anything else.
    private static func table(header: UnsafeBufferPointer<UInt8>, name: String, options: ListOptions) -> (
        ListTable, String
    )? {
        guard let db = try? Database(path: ":memory:", readOnly: false, name: name),
            (try? db.runDump(Array(header) + [0], path: name)) != nil,
            case .integer(0) = try? db.scalar("PRAGMA foreign_keys"),
            case .integer(1) = try? db.scalar("SELECT count(*) FROM sqlite_master"),
            let table = try? ListTable.find(in: db, options: options),
            table.isOwn, table.hasRowID, table.namesRowID, table.idIsRowID,
            table.columns.prefix(ListTable.ownColumns.count).map(\.name) == ListTable.ownColumns,
            case .text(let sql) = try? db.scalar("SELECT sql FROM sqlite_master"),
            case .integer(0) = try? db.scalar("SELECT count(*) FROM \(Database.quote(table.name))"),
            db.isInTransaction
        else { return nil }
        var made = OwnTable(keys: [], kinds: [:], name: table.name)
        made.columns += table.columns.dropFirst(ListTable.ownColumns.count).map { ($0.name, $0.declaredType) }
        return sql == made.createStatement ? (table, sql) : nil
    }

    /// Whether SQLite stores `token` in a column of `affinity` as the value it reads as:
    /// an integer where it stays one, a text where it stays one (not in a column that makes
    /// numbers of texts that look like them).
    private static func stores(_ token: Token, affinity: ColumnInfo.Affinity, in bytes: UnsafeBufferPointer<UInt8>)
        -> Bool
    {
        switch (token, affinity) {
        case (.null, _), (.integer, .integer), (.integer, .numeric), (.integer, .blob), (.text, .text), (.text, .blob):
            return true
        case (.text(let range), _): return !mayBeNumber(bytes[range.lowerBound + 1..<range.upperBound - 1])
        default: return false
        }
    }

    /// Whether SQLite might take a text for a number: it holds only what numbers in any
    /// spelling are made of (digits, signs, points, exponents, hexadecimal, `Inf`, `NaN`,
    /// spaces), and something. (A date holds `T` and `:`, a name letters.)
    private static func mayBeNumber(_ text: Slice<UnsafeBufferPointer<UInt8>>) -> Bool {
        text.contains { $0 > 0x20 }
            && text.allSatisfy { byte in
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "f"),
                    UInt8(ascii: "A")...UInt8(ascii: "F"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."),
                    UInt8(ascii: "x"), UInt8(ascii: "X"), UInt8(ascii: "i"), UInt8(ascii: "I"), UInt8(ascii: "n"),
                    UInt8(ascii: "N"), UInt8(ascii: "t"), UInt8(ascii: "T"), UInt8(ascii: "y"), UInt8(ascii: "Y"),
                    0x09...0x0D, 0x20:
                    return true
                default: return false
                }
            }
    }

    /// A quoted text's value (its quotes off, `''` made `'`).
    fileprivate static func text(_ range: Range<Int>, in bytes: UnsafeBufferPointer<UInt8>) -> String {
        let inner = UnsafeBufferPointer(rebasing: bytes[range.lowerBound + 1..<range.upperBound - 1])
        guard inner.contains(UInt8(ascii: "'")) else { return String(decoding: inner, as: UTF8.self) }
        return String(decoding: DumpStreamedUpdate.unquoted(bytes[range]), as: UTF8.self)
    }

    /// A value as a row statement writes it.
    fileprivate enum Token {
        case null
        case integer(Int64)
        /// Where the text is, its quotes included.
        case text(Range<Int>)
    }

    private struct Scanner {
        let bytes: UnsafeBufferPointer<UInt8>
        var at: Int
        /// Whether every integer read was written as todofmt writes one: no leading zero, no `-0`.
        var canonical = true

        mutating func skip(_ expected: [UInt8]) -> Bool {
            let count = expected.count
            guard bytes.count - at >= count else { return false }
            // Eight bytes at a time: a call to memcmp for every row's 30 was a tenth of a scan.
            let same = expected.withUnsafeBytes { want in
                let have = UnsafeRawPointer(bytes.baseAddress! + at)
                var i = 0
                while i + 8 <= count {
                    if have.loadUnaligned(fromByteOffset: i, as: UInt64.self)
                        != want.loadUnaligned(fromByteOffset: i, as: UInt64.self)
                    {
                        return false
                    }
                    i += 8
                }
                while i < count {
                    if have.load(fromByteOffset: i, as: UInt8.self) != want[i] { return false }
                    i += 1
                }
                return true
            }
            guard same else { return false }
            at += count
            return true
        }

        mutating func skip(byte: UInt8) -> Bool {
            guard at < bytes.count, bytes[at] == byte else { return false }
            at += 1
            return true
        }

        /// Moves past `);` and a line feed, a row's end. (Not `skip(OwnDumpText.rowEnd)`: a
        /// static array is looked up, retained and released at every use, a cost per row.)
        mutating func skipRowEnd() -> Bool {
            guard bytes.count - at >= 3, bytes[at] == UInt8(ascii: ")"), bytes[at + 1] == UInt8(ascii: ";"),
                bytes[at + 2] == 10
            else { return false }
            at += 3
            return true
        }

        /// `NULL`, an integer within 64 bits (`-` and digits), or a quoted text; nil for
        /// anything else (a real, a blob, an expression).
        @inline(__always)
        mutating func token() -> Token? {
            guard at < bytes.count else { return nil }
            switch bytes[at] {
            case UInt8(ascii: "'"): return text().map(Token.text)
            case UInt8(ascii: "N"): return skipNull() ? .null : nil
            default: return integer().map(Token.integer)
            }
        }

        /// Moves past `NULL`; false (not moving) for anything else.
        @inline(__always)
        mutating func skipNull() -> Bool {
            // (As one word.)
            guard bytes.count - at >= 4,
                UInt32(littleEndian: UnsafeRawPointer(bytes.baseAddress! + at).loadUnaligned(as: UInt32.self))
                    == 0x4C4C_554E
            else { return false }
            at += 4
            return true
        }

        /// A quoted text (where it is, its quotes included), or nil.
        @inline(__always)
        mutating func text() -> Range<Int>? {
            guard at < bytes.count, bytes[at] == UInt8(ascii: "'") else { return nil }
            var i = at + 1
            while true {
                guard i < bytes.count,
                    let found = memchr(bytes.baseAddress! + i, Int32(UInt8(ascii: "'")), bytes.count - i)
                else { return nil }
                i = bytes.baseAddress!.distance(to: found.assumingMemoryBound(to: UInt8.self)) + 1
                guard i < bytes.count, bytes[i] == UInt8(ascii: "'") else { break }
                i += 1
            }
            defer { at = i }
            return at..<i
        }

        /// `NULL` (as `.some(nil)`) or a quoted text (`text()`); nil for anything else.
        @inline(__always)
        mutating func nullOrText() -> Range<Int>?? {
            if skipNull() { return .some(nil) }
            guard let text = text() else { return nil }
            return .some(text)
        }

        /// An integer within 64 bits (`-` and digits), or nil; `canonical` notes its spelling.
        @inline(__always)
        mutating func integer() -> Int64? {
            guard at < bytes.count else { return nil }
            // SQLite reads `-` and a number past 2^63-1 as a real, even -2^63.
            let negative = bytes[at] == UInt8(ascii: "-")
            var i = negative ? at + 1 : at
            var value: Int64 = 0
            let start = i
            // Eighteen digits cannot overflow: they go unchecked, a nineteenth is checked.
            let base = bytes.baseAddress!
            let unchecked = min(bytes.count, start + 18)
            while i < unchecked, case let digit = base[i] &- UInt8(ascii: "0"), digit < 10 {
                value = value &* 10 &+ Int64(digit)
                i += 1
            }
            if i == start + 18, i < bytes.count, case let digit = base[i] &- UInt8(ascii: "0"), digit < 10 {
                let (times, o1) = value.multipliedReportingOverflow(by: 10)
                let (sum, o2) = times.addingReportingOverflow(Int64(digit))
                guard !o1, !o2 else { return nil }
                value = sum
                i += 1
            }
            guard i > start, i - start <= 19 else { return nil }
            canonical = canonical && (bytes[start] != UInt8(ascii: "0") || i - start == 1) && !(negative && value == 0)
            at = i
            return negative ? -value : value
        }
    }
}

// MARK: - Edits of a dump exactly as todofmt writes it

extension OwnDumpText {
    /// How many top-level items the list has (in a `fresh` dump).
    var topLevelCount: Int { tops.count }

    /// Where top-level row `k` starts and its place among the rows; for `k` the count, the
    /// rows' end.
    private func top(_ k: Int) -> (offset: Int, row: Int) {
        let row = k < tops.count ? tops[k] : depths.count
        return (starts[row], row)
    }

    /// The top-level items `run`, read from their rows.
    private func items(_ run: Range<Int>) throws -> [TodoItem] {
        var builder = ListBuilder()
        try readRows(
            top(run.lowerBound).row..<top(run.upperBound).row, from: top(run.lowerBound).offset, into: &builder)
        return builder.finish().items
    }

    /// `ListFormat.updateItems` on the top-level items `run` of a `fresh` dump (`done`,
    /// `rename`, `add`, `rm`, `mv`…): the bytes comparing a new dump of the edited list with
    /// the file writes (`DumpStreamedUpdate.patched`), made from the run's rows and the rows
    /// after it, numbered on as the new dump numbers them, without reading the other items
    /// or writing a whole new dump. `.unsupported` where the edit changes the table's
    /// columns (a key's only value gone, a new key, another kind of value, the order in which
    /// keys first have a value), or where that write would give up.
    func updateItems(_ run: Range<Int>, in path: String, change: ([TodoItem]) throws -> [TodoItem]?) throws
        -> ItemUpdate
    {
        guard !run.isEmpty, run.upperBound <= tops.count else { return .unsupported }
        let start = top(run.lowerBound)
        let end = top(run.upperBound)
        let old = try items(run)
        guard old.count == run.count else { return .unsupported }
        guard let changed = try change(old) else { return .unchanged }
        let before = TodoList(items: old).flattened()
        let after = TodoList(items: changed).flattened()
        guard let fields = fieldTexts(of: after), keepsColumns(before, after, rows: start.row..<end.row),
            let runText = rowsText(after, firstID: start.row + 1, firstPosition: run.lowerBound, fields: fields)
        else { return .unsupported }
        let delta = after.count - before.count
        let topDelta = changed.count - old.count
        if delta == 0 && topDelta == 0 && bytes[start.offset..<end.offset].elementsEqual(runText) { return .unchanged }
        // Where the rows after the run keep their ids and positions, they stay as they are.
        let moves = delta != 0 || topDelta != 0
        return try rewriting(
            start.row..<(moves ? depths.count : end.row), in: path,
            with: [.text(runText)] + (moves ? [.moved(end.row..<depths.count, delta, topDelta)] : []))
    }

    /// `ListFormat.moveItem` of the top-level item `from` of a `fresh` dump to be item `to`,
    /// `place` giving its section there: its rows written at their new place, the rows it
    /// passes moved in their text (ids, parents, top-level positions), without reading the
    /// items it passes. `.unsupported` where the table's columns would change order (the
    /// first value of a key in the item moved down past another), or the write would give up.
    func moveItem(
        from: Int, to: Int, in path: String, place: (TodoItem, TodoItem?, TodoItem?) throws -> TodoItem?
    ) throws -> ItemUpdate {
        guard from != to, from < tops.count, to < tops.count else { return .unsupported }
        func end(_ k: Int) -> (offset: Int, row: Int) { top(k + 1) }
        func read(_ k: Int) throws -> TodoItem? {
            let items = try items(k..<k + 1)
            return items.count == 1 ? items[0] : nil
        }
        let move = ItemMove(from: from, to: to)
        let (before, after) = move.neighbours(count: tops.count)
        guard let item = try read(from), let placed = try place(item, try before.flatMap(read), try after.flatMap(read))
        else { return .unsupported }
        let entries = TodoList(items: [placed]).flattened()
        let x = (start: tops[from], end: end(from).row)
        guard entries.count == x.end - x.start, let fields = fieldTexts(of: entries) else { return .unsupported }
        // Where each column's key first has a value once the item is moved.
        var inItem = [Int?](repeating: nil, count: firstRows.count)
        for (row, entry) in entries.enumerated() {
            guard let columns = fieldColumns(of: entry.item) else { return .unsupported }
            for c in columns where inItem[c] == nil { inItem[c] = row }
        }
        let rowsMoved = entries.count
        var last = -1
        for c in firstRows.indices {
            var first = firstRows[c]
            if from > to {
                let lo = tops[to]
                if first >= lo, let row = inItem[c] {
                    first = lo + row
                } else if first >= lo && first < x.start {
                    first += rowsMoved
                }
            } else {
                let hi = end(to).row
                if first >= x.start && first < x.end { return .unsupported }  // (its next value is not known)
                if first >= x.end && first < hi {
                    first -= rowsMoved
                } else if first >= hi, let row = inItem[c] {
                    first = hi - rowsMoved + row
                }
            }
            guard first >= last else { return .unsupported }
            last = first
        }
        if from > to {
            let lo = top(to)
            guard let text = rowsText(entries, firstID: lo.row + 1, firstPosition: to, fields: fields) else {
                return .unsupported
            }
            return try rewriting(
                lo.row..<end(from).row, in: path,
                with: [.text(text), .moved(lo.row..<tops[from], rowsMoved, 1)])
        }
        let hi = end(to)
        guard
            let text = rowsText(
                entries, firstID: x.start + 1 + hi.row - x.end, firstPosition: to, fields: fields)
        else { return .unsupported }
        return try rewriting(
            tops[from]..<hi.row, in: path,
            with: [.moved(end(from).row..<hi.row, -rowsMoved, -1), .text(text)])
    }

    /// Where the new dump's rows come from, in order.
    private enum Segment {
        /// Rows as they are written.
        case text([UInt8])
        /// The file's rows in a range (of places among the rows), their ids and parents moved
        /// by one amount, and the top-level rows' positions by another.
        case moved(Range<Int>, Int, Int)
    }

    /// The file with its rows `range` (places among the rows) written as the whole write
    /// leaves them given the new dump's rows there, from `segments`; `.unsupported` where
    /// that write gives up.
    private func rewriting(_ range: Range<Int>, in path: String, with segments: [Segment]) throws -> ItemUpdate {
        try ItemUpdate.rewriting(path) { sink in
            sink.write(UnsafeBufferPointer(rebasing: bytes[..<starts[range.lowerBound]]))
            guard pair(from: range.lowerBound, to: range.upperBound, with: segments, into: &sink) else { return nil }
            sink.write(UnsafeBufferPointer(rebasing: bytes[starts[range.upperBound]...]))
            return []
        }
    }

    /// The field columns `item`'s fields give values to, in order; nil where a key has no
    /// column, or the keys do not come in the columns' order.
    private func fieldColumns(of item: TodoItem) -> [Int]? {
        var columns: [Int] = []
        for field in item.fields where field.value != .null {
            guard let c = fieldColumn[ExactText(field.key)], c > (columns.last ?? -1) else { return nil }
            columns.append(c)
        }
        return columns
    }

    /// Writes into `sink` the file's rows from `from` to `to` (places among the rows) as the
    /// whole write leaves them (`DumpStreamedUpdate.merge`) given the new dump's rows there,
    /// from `segments`. New rows past the file's follow; file rows past the new ones go.
    /// False where the whole write would give up.
    private func pair(from: Int, to: Int, with segments: [Segment], into sink: inout ByteSink) -> Bool {
        let prefix = self.prefix[...]
        var text: [UInt8] = []
        var a = DumpStreamedUpdate.Row()
        var b = DumpStreamedUpdate.Row()
        var moved = ByteSink()
        var old = from  // the file's next row
        var segment = 0
        var at = 0  // in the segment: an offset in its text, or its next row
        if case .moved(let range, _, _)? = segments.first { at = range.lowerBound }
        // Rows moved in a dump whose values all differ from one another's are the new rows
        // as they are: the whole write keeps every new row that differs from the file's, and
        // todofmt spells each as the shell does, but for a line feed in a text (`movedRow`).
        let plain = valuesDiffer && segments.count > 1
        /// Hands the rows gathered in `text` to the sink.
        func flush() {
            text.withUnsafeBufferPointer { sink.write($0) }
            text.removeAll(keepingCapacity: true)
        }
        /// Reads the file's next row into `a` and moves past it.
        func readOld() -> Bool {
            guard DumpStreamedUpdate.row(in: bytes, at: starts[old], prefix: prefix.count, into: &a),
                a.range.upperBound == starts[old + 1]
            else { return false }
            old += 1
            return true
        }
        /// Moves past the file's next row (read as the whole write reads it, unless `plain`).
        func skipOld() -> Bool {
            guard plain else { return readOld() }
            old += 1
            return true
        }
        /// The new row `b` of `buffer` written over the file's next row, or after the file's rows.
        func write(_ buffer: UnsafeBufferPointer<UInt8>) -> Bool {
            guard old < to else {
                guard b.values.allSatisfy({ DumpStreamedUpdate.isShellSpelling(buffer[$0]) }) else { return false }
                text += buffer[b.range]
                return true
            }
            return readOld() && DumpStreamedUpdate.merge(a, in: bytes, with: b, in: buffer, into: &text)
        }
        while true {
            // The next new row, from the segment not yet used up.
            var written: Bool? = nil
            while written == nil && segment < segments.count {
                switch segments[segment] {
                case .text(let runRows) where at < runRows.count:
                    written = runRows.withUnsafeBufferPointer { buffer in
                        guard DumpStreamedUpdate.row(in: buffer, at: at, prefix: prefix.count, into: &b) else {
                            return false
                        }
                        at = b.range.upperBound
                        return write(buffer)
                    }
                case .moved(let range, let delta, let topDelta) where at < range.upperBound:
                    if plain {
                        // (Straight into the sink, after what came before.)
                        if !text.isEmpty { flush() }
                        guard movedRow(at, delta: delta, topDelta: topDelta, plain: true, into: &sink) else {
                            return false
                        }
                        written = old >= to || skipOld()
                    } else {
                        moved.truncate(to: 0)
                        guard movedRow(at, delta: delta, topDelta: topDelta, plain: false, into: &moved) else {
                            return false
                        }
                        written = moved.withBytes { buffer in
                            DumpStreamedUpdate.row(in: buffer, at: 0, prefix: prefix.count, into: &b) && write(buffer)
                        }
                    }
                    at += 1
                default:
                    segment += 1
                    at = 0
                    if segment < segments.count, case .moved(let range, _, _) = segments[segment] {
                        at = range.lowerBound
                    }
                }
            }
            if written == false { return false }
            if written == nil {
                // (An old row with no new one goes.)
                guard old < to else { break }
                guard skipOld() else { return false }
            }
            if text.count >= 1 << 20 { flush() }
        }
        flush()
        return true
    }

    /// Row `row` (a place among the rows) with its id and parent moved by `delta` and, at the
    /// top level, its position by `topDelta`, into `sink`; false where it does not start so,
    /// or (`plain`, written as the new row) where a text holds a line feed: the whole write
    /// gives up on a new row the shell would spell otherwise (`replace(…)`).
    private func movedRow(_ row: Int, delta: Int, topDelta: Int, plain: Bool, into sink: inout ByteSink) -> Bool {
        var scanner = Scanner(bytes: bytes, at: starts[row])
        guard scanner.skip(prefix), let id = scanner.integer(), scanner.skip(byte: UInt8(ascii: ",")),
            let parent = scanner.token(), scanner.skip(byte: UInt8(ascii: ",")), let position = scanner.integer()
        else { return false }
        let tail = UnsafeBufferPointer(rebasing: bytes[scanner.at..<starts[row + 1]])
        // (The row's own line feed ends it.)
        if plain, memchr(tail.baseAddress!, 10, tail.count - 1) != nil { return false }
        // The prefix, three numbers of 20 bytes at most and their commas, and the rest.
        prefix.withUnsafeBufferPointer { prefix in
            sink.write(upTo: prefix.count + 3 * 21 + tail.count) { start in
                var pen = BytePen(at: start)
                pen.put(prefix)
                pen.decimal(Int(id) + delta)
                pen.put(byte: UInt8(ascii: ","))
                if case .integer(let p) = parent {
                    pen.decimal(Int(p) + delta)
                    pen.put(byte: UInt8(ascii: ","))
                    pen.decimal(Int(position))
                } else {
                    pen.put("NULL,")
                    pen.decimal(Int(position) + topDelta)
                }
                pen.put(tail)
                return start.distance(to: pen.at)
            }
        }
        return true
    }

    /// For each row of `entries`, each field column's value as todofmt writes it (the item's
    /// first field with the column's key; `NULL`); nil where a key has no column.
    /// nil too where a value is one SQLite cannot hold (a null, an integer past 64 bits):
    /// the whole write warns of it, and refuses it under `--strict`.
    private func fieldTexts(of entries: [(item: TodoItem, depth: Int)]) -> [[UInt8]]? {
        var texts: [[UInt8]] = []
        var losses = WarningLog()
        for entry in entries {
            for field in entry.item.fields {
                SQLiteValueLoss.note(field.value, declaredType: "", in: &losses) { "" }
            }
            guard losses.warnings.isEmpty else { return nil }
            var values = [FieldValue?](repeating: nil, count: fieldColumn.count)
            for field in entry.item.fields where field.value != .null {
                guard let c = fieldColumn[ExactText(field.key)] else { return nil }
                if values[c] == nil { values[c] = field.value }
            }
            var row = ByteSink()
            for value in values {
                row.write(byte: UInt8(ascii: ","))
                if let value { OwnTable.sqlValue(value).writeLiteral(to: &row) } else { row.write(static: "NULL") }
            }
            texts.append(row.buffer)
        }
        return texts
    }

    /// Whether a new dump of the list with the rows `range` (places among the rows) of
    /// `before` made those of `after` has the file's columns: each column's key with values,
    /// of the same kinds, first having one in the same order.
    private func keepsColumns(
        _ before: [(item: TodoItem, depth: Int)], _ after: [(item: TodoItem, depth: Int)], rows range: Range<Int>
    ) -> Bool {
        var counts = fieldCounts
        var firstInRun = [Int?](repeating: nil, count: fieldColumn.count)
        for (sign, entries) in [(-1, before), (1, after)] {
            for (row, entry) in entries.enumerated() {
                var last = -1
                for field in entry.item.fields where field.value != .null {
                    guard let c = fieldColumn[ExactText(field.key)],
                        let kind = FreshCheck.kindNames.firstIndex(of: OwnTable.kind(of: field.value))
                    else { return false }
                    counts[4 * c + kind] += sign
                    if sign > 0 {
                        // Keys that first have a value in one row get their columns in its order.
                        guard c > last else { return false }
                        last = c
                        if firstInRun[c] == nil { firstInRun[c] = row }
                    }
                }
            }
        }
        for c in firstRows.indices
        where (0..<4).contains(where: { (counts[4 * c + $0] > 0) != (fieldCounts[4 * c + $0] > 0) }) {
            return false
        }
        // Where each column's key first has a value in the new list.
        let delta = after.count - before.count
        var last = -1
        for c in firstRows.indices {
            let first: Int
            if firstRows[c] < range.lowerBound {
                first = firstRows[c]
            } else if let row = firstInRun[c] {
                first = range.lowerBound + row
            } else if firstRows[c] >= range.upperBound {
                first = firstRows[c] + delta
            } else {
                return false  // (its next value after the run is not known)
            }
            guard first >= last else { return false }
            last = first
        }
        return true
    }

    /// The rows of `entries` as todofmt writes them, ids from `firstID` depth first, top-level
    /// positions from `firstPosition`, with the field columns' texts `fields`; nil where a
    /// text is not one plain quoted token.
    private func rowsText(
        _ entries: [(item: TodoItem, depth: Int)], firstID: Int, firstPosition: Int, fields: [[UInt8]]
    )
        -> [UInt8]?
    {
        var text: [UInt8] = []
        var ids: [Int] = []  // the ids of the rows around the next one
        var positions: [Int] = []  // the next position at each depth
        for (i, entry) in entries.enumerated() {
            guard let values = Self.ownValues(of: entry.item, depth: entry.depth) else { return nil }
            let depth = entry.depth
            if ids.count > depth { ids.removeLast(ids.count - depth) }
            if positions.count > depth + 1 { positions.removeLast(positions.count - depth - 1) }
            if positions.count == depth { positions.append(depth == 0 ? firstPosition : 0) }
            let id = firstID + i
            text += prefix
            text += Array("\(id),\(depth == 0 ? "NULL" : String(ids[depth - 1])),\(positions[depth]),".utf8)
            text += values.joined(separator: [UInt8(ascii: ",")])
            text += fields[i]
            text += Self.rowEnd
            positions[depth] += 1
            ids.append(id)
        }
        return text
    }

    /// The name, checked, status and section values todofmt writes for `item` at `depth`;
    /// nil where a text is not one plain quoted token (a line break, a NUL).
    private static func ownValues(of item: TodoItem, depth: Int) -> [[UInt8]]? {
        func literal(_ text: String) -> [UInt8]? {
            guard !text.utf8.contains(where: { $0 == 0 || $0 == 10 || $0 == 13 }) else { return nil }
            var sink = ByteSink()
            SQLValue.text(text).writeLiteral(to: &sink)
            return sink.buffer
        }
        guard let name = literal(item.name) else { return nil }
        var status: [UInt8] = Array("NULL".utf8)
        if case .custom(let s) = item.status {
            guard let text = literal(String(s)) else { return nil }
            status = text
        }
        var section: [UInt8] = Array("NULL".utf8)
        if depth == 0, let text = item.section {
            guard let quoted = literal(text) else { return nil }
            section = quoted
        }
        return [name, Array((item.status == .done ? "1" : "0").utf8), status, section]
    }

    /// Checks, a value at a time, that the rows are byte for byte what todofmt writes for
    /// the list they hold (`init(fresh:)`).
    fileprivate struct FreshCheck {
        let table: ListTable
        let fieldColumns: [ColumnInfo]
        private var nextID: Int64 = 1
        /// The next position at each depth under the rows around the next one.
        private var positions: [Int64] = []
        private var position: Int64 = 0
        private var checked: Int64 = 0
        private var hasSection = false
        /// For each field column: the kinds of its values (`OwnTable.kind(of:)`, a bit each of
        /// `kindNames`), and the row that has its first.
        private var kinds: [UInt8]
        private(set) var counts: [Int]
        private(set) var firstRow: [Int]
        private var row = 0
        static let kindNames = ["BOOLEAN", "INTEGER", "TEXT", "DATETIME"]
        /// For each field column: whether it is declared boolean; whether a text in it reads as
        /// a text or date (not in a column of integer affinity or JSON); whether as a date.
        private let isBoolean: [Bool]
        private let takesText: [Bool]
        private let holdsDates: [Bool]
        /// How many of the columns are todofmt's own (`ListTable.ownColumns`), the field
        /// columns after them. (Kept here: the static array was looked up for every value.)
        private let own = ListTable.ownColumns.count

        init(table: ListTable) {
            self.table = table
            fieldColumns = table.fieldColumns.map(\.column)
            kinds = Array(repeating: 0, count: fieldColumns.count)
            counts = Array(repeating: 0, count: 4 * fieldColumns.count)
            firstRow = Array(repeating: .max, count: fieldColumns.count)
            isBoolean = fieldColumns.map(\.isBooleanType)
            takesText = fieldColumns.map { !$0.isJSONType && !$0.isBooleanType && $0.affinity != .integer }
            holdsDates = fieldColumns.map(table.holdsDates)
        }

        /// Whether a text has a date or JSON reading (outside a date column), which two texts
        /// could share: merging rows (`DumpStreamedUpdate.differ`) must then look at them.
        private(set) var readsOtherwise = false

        /// Whether a text reads as a date or a JSON value. Only one that starts with a digit
        /// can be a date, and only one whose first byte `JSONScanner.mayStart(with:)` allows
        /// can be JSON: others (most names, and statuses such as `/`) are not parsed.
        private static func mayReadOtherwise(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
            guard let c = text.first, JSONScanner.mayStart(with: c) else { return false }
            return (48...57).contains(c) && ISO8601.parse(text, assumeUTC: true) != nil
                || JSONScanner.wholeValue(of: text) != nil
        }

        /// Whether a field column holds both numbers and texts (a text beside a number is a
        /// pair `DumpStreamedUpdate.differ` cannot tell apart).
        var mixesKinds: Bool { kinds.contains { $0 & 3 != 0 && $0 & 12 != 0 } }

        /// Takes the values of a row's own columns (texts as `Scanner.text()` gives them, with
        /// their quotes; the spelling of the integers is the scanner's to check); false where
        /// todofmt writes them otherwise.
        @inline(__always)
        mutating func takeOwn(
            id: Int64, position: Int64, name: Range<Int>, checked: Int64, status: Range<Int>?, section: Range<Int>?,
            in bytes: UnsafeBufferPointer<UInt8>
        ) -> Bool {
            guard id == nextID, checked == 0 || checked == 1 else { return false }
            nextID += 1
            self.position = position
            self.checked = checked
            hasSection = section != nil
            /// Whether the text at `range` reads as a date or JSON value (`mayReadOtherwise`).
            func readsAsMore(_ range: Range<Int>) -> Bool {
                Self.mayReadOtherwise(UnsafeBufferPointer(rebasing: bytes[range.lowerBound + 1..<range.upperBound - 1]))
            }
            if !readsOtherwise {
                readsOtherwise =
                    readsAsMore(name) || status.map(readsAsMore) == true || section.map(readsAsMore) == true
            }
            if let range = status {
                // One custom status, of an open item (others are written in `checked`).
                guard checked == 0 else { return false }
                if range.count == 3, bytes[range.lowerBound + 1] < 0x80 {
                    // (One ASCII character, as most are, without a string made of it.)
                    guard TodoStatus.isCustomMarker(Unicode.Scalar(bytes[range.lowerBound + 1])) else { return false }
                } else {
                    let text = OwnDumpText.text(range, in: bytes)
                    guard case .custom(let s) = ItemBuilder.status(from: text), String(s) == text else { return false }
                }
            }
            return true
        }

        /// Takes the row's value of field column `column` (the spelling of an integer is the
        /// scanner's to check); false where todofmt writes it otherwise.
        mutating func take(_ token: Token, column: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Bool {
            let f = column - own
            let kind: UInt8
            switch token {
            case .null: return true
            case .integer(let value): kind = isBoolean[f] && (value == 0 || value == 1) ? 1 : 2
            case .text(let range):
                let inner = UnsafeBufferPointer(rebasing: bytes[range.lowerBound + 1..<range.upperBound - 1])
                guard takesText[f] else { return false }
                if holdsDates[f], let date = ISO8601.parse(inner, assumeUTC: true) {
                    // (A date in a date column is spelled one way.)
                    guard ISO8601.withText(date, { ByteScan.same($0, inner) }) else { return false }
                    kind = 8
                } else {
                    // (Outside a date column, a text that reads as a date could be one.)
                    if !holdsDates[f], !readsOtherwise, Self.mayReadOtherwise(inner) { readsOtherwise = true }
                    kind = 4
                }
            }
            kinds[f] |= kind
            counts[4 * f + kind.trailingZeroBitCount] += 1
            if firstRow[f] == .max { firstRow[f] = row }
            return true
        }

        /// After a row's values, at `depth`: false where its position is not the next under
        /// its parent, or a nested row has a section.
        mutating func endRow(depth: Int32) -> Bool {
            let depth = Int(depth)
            while positions.count > depth + 1 { positions.removeLast() }
            if positions.count == depth { positions.append(0) }
            guard positions[depth] == position, depth == 0 || !hasSection else { return false }
            positions[depth] += 1
            row += 1
            return true
        }

        /// Whether todofmt makes the table as `sql` for the keys seen: each column has a
        /// value, the columns come in the order their keys first have one, typed by their
        /// values' kinds (none of them such that writing the list makes the table again).
        func isWritten(as sql: String) -> Bool {
            let kinds = kinds.map { bits in
                Set(Self.kindNames.indices.filter { bits & 1 << $0 != 0 }.map { Self.kindNames[$0] })
            }
            guard !firstRow.contains(.max), zip(firstRow, firstRow.dropFirst()).allSatisfy({ $0 <= $1 }),
                !kinds.contains(where: { $0.count > 1 && !$0.isDisjoint(with: ["BOOLEAN", "DATETIME", "JSON"]) })
            else { return false }
            let keys = table.fieldColumns.map(\.key)
            var byKey: [ExactText: Set<String>] = [:]
            for (key, kinds) in zip(keys, kinds) { byKey[ExactText(key)] = kinds }
            guard byKey.count == keys.count else { return false }
            return OwnTable(keys: keys, kinds: byKey, name: table.name).createStatement == sql
        }
    }
}
