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

    /// The dump in `bytes` (named `name` in errors) read so, or nil.
    init?(_ bytes: UnsafeBufferPointer<UInt8>, name: String, options: ListOptions) {
        guard let first = Self.firstRow(in: bytes), memchr(bytes.baseAddress!, 0, bytes.count) == nil,
            let table = Self.table(header: UnsafeBufferPointer(rebasing: bytes[..<first]), name: name, options: options)
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
        // Each row: its values as this reader takes them, its id rising, its place in the tree.
        while scanner.at < bytes.count, scanner.skip(prefix) {
            var id: Int64 = 0
            var parent: Int64? = nil
            var position: Int64 = 0
            for column in affinities.indices {
                if column > 0 && !scanner.skip(byte: UInt8(ascii: ",")) { return nil }
                guard let token = scanner.token() else { return nil }
                switch (column, token) {
                case (0, .integer(let value)) where value > lastID: id = value
                case (1, .integer(let value)): parent = value
                case (1, .null): break
                case (2, .integer(let value)): position = value
                case (3, .text), (4, .integer), (5, .null), (5, .text), (6, .null), (6, .text): break
                case (7..., _) where Self.stores(token, affinity: affinities[column], in: bytes): break
                default: return nil
                }
            }
            // Top-level rows in rising (position, id) order, each followed by its own rows.
            if parent == nil {
                if let last = lastTop, (last.position, last.id) >= (position, id) { return nil }
                lastTop = (position, id)
            }
            guard scanner.skip(Self.rowEnd), let depth = nesting.place(id: id, parent: parent, position: position)
            else { return nil }
            lastID = id
            depths.append(depth)
        }
        let tail = UnsafeBufferPointer(rebasing: bytes[scanner.at...])
        guard !depths.isEmpty, tail.elementsEqual("COMMIT;\n".utf8) || tail.elementsEqual("COMMIT;".utf8),
            UTF8Validation.firstInvalidOffset(UnsafeBufferPointer(rebasing: bytes[first..<scanner.at])) < 0
        else { return nil }
        rows = first..<scanner.at
        self.depths = depths
    }

    /// Hands the list to `sink`, a row at a time.
    func read<S: ItemSink>(into sink: inout S) throws {
        try sink.begin(metadata: [])
        let fieldColumns = Array(table.columns[ListTable.ownColumns.count...])
        let fieldKeys = fieldColumns.map { $0.name.hasPrefix("field:") ? String($0.name.dropFirst(6)) : $0.name }
        var scanner = Scanner(bytes: bytes, at: rows.lowerBound)
        var lastSection: (bytes: ArraySlice<UInt8>, text: String)? = nil
        var fieldTokens = [Token](repeating: .null, count: fieldColumns.count)
        for depth in depths {
            _ = scanner.skip(prefix)
            var tokens: [Token] = []
            tokens.reserveCapacity(ListTable.ownColumns.count)
            for column in 0..<ListTable.ownColumns.count {
                if column > 0 { _ = scanner.skip(byte: UInt8(ascii: ",")) }
                tokens.append(scanner.token()!)
            }
            for f in fieldTokens.indices {
                _ = scanner.skip(byte: UInt8(ascii: ","))
                fieldTokens[f] = scanner.token()!
            }
            _ = scanner.skip(Self.rowEnd)
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
                if let field = table.fieldValue(value, column: fieldColumns[f]) {
                    item.fields.append(Field(fieldKeys[f], field))
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
        try sink.end()
    }

    private static let rowEnd = Array(");\n".utf8)

    /// Where the first line that starts `INSERT INTO ` starts.
    private static func firstRow(in bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        let marker = LineMarker(bytes: Array("\nINSERT INTO ".utf8), itemOffset: 1)
        return marker.nextStart(from: 0, in: bytes)
    }

    /// The table the statements before the first row make, run as a dump is run: todofmt's
    /// own, made as todofmt makes it and alone in the database; nil for anything else.
    private static func table(header: UnsafeBufferPointer<UInt8>, name: String, options: ListOptions) -> ListTable? {
        guard let db = try? Database(path: ":memory:", readOnly: false, name: name),
            (try? db.runDump(Array(header) + [0], path: name)) != nil,
            case .integer(0) = try? db.scalar("PRAGMA foreign_keys"),
            case .integer(1) = try? db.scalar("SELECT count(*) FROM sqlite_master"),
            let table = try? ListTable.find(in: db, options: options),
            table.isOwn, table.hasRowID, table.namesRowID, table.idIsRowID,
            table.columns.prefix(ListTable.ownColumns.count).map(\.name) == ListTable.ownColumns,
            case .text(let sql) = try? db.scalar("SELECT sql FROM sqlite_master")
        else { return nil }
        var made = OwnTable(keys: [], kinds: [:], name: table.name)
        made.columns += table.columns.dropFirst(ListTable.ownColumns.count).map { ($0.name, $0.declaredType) }
        return sql == made.createStatement ? table : nil
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
    private static func text(_ range: Range<Int>, in bytes: UnsafeBufferPointer<UInt8>) -> String {
        let inner = UnsafeBufferPointer(rebasing: bytes[range.lowerBound + 1..<range.upperBound - 1])
        guard inner.contains(UInt8(ascii: "'")) else { return String(decoding: inner, as: UTF8.self) }
        var unquoted: [UInt8] = []
        unquoted.reserveCapacity(inner.count)
        var i = 0
        while i < inner.count {
            unquoted.append(inner[i])
            i += inner[i] == UInt8(ascii: "'") ? 2 : 1
        }
        return String(decoding: unquoted, as: UTF8.self)
    }

    /// A value as a row statement writes it.
    private enum Token {
        case null
        case integer(Int64)
        /// Where the text is, its quotes included.
        case text(Range<Int>)
    }

    private struct Scanner {
        let bytes: UnsafeBufferPointer<UInt8>
        var at: Int

        mutating func skip(_ expected: [UInt8]) -> Bool {
            guard bytes.count - at >= expected.count,
                expected.withUnsafeBufferPointer({ memcmp(bytes.baseAddress! + at, $0.baseAddress!, $0.count) == 0 })
            else { return false }
            at += expected.count
            return true
        }

        mutating func skip(byte: UInt8) -> Bool {
            guard at < bytes.count, bytes[at] == byte else { return false }
            at += 1
            return true
        }

        /// `NULL`, an integer within 64 bits (`-` and digits), or a quoted text; nil for
        /// anything else (a real, a blob, an expression).
        mutating func token() -> Token? {
            guard at < bytes.count else { return nil }
            let first = bytes[at]
            if first == UInt8(ascii: "'") {
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
                return .text(at..<i)
            }
            if first == UInt8(ascii: "N") {
                guard skip(Self.null) else { return nil }
                return .null
            }
            // SQLite reads `-` and a number past 2^63-1 as a real, even -2^63.
            let negative = first == UInt8(ascii: "-")
            var i = negative ? at + 1 : at
            var value: Int64 = 0
            let start = i
            while i < bytes.count, case let digit = bytes[i] &- UInt8(ascii: "0"), digit < 10 {
                let (times, o1) = value.multipliedReportingOverflow(by: 10)
                let (sum, o2) = times.addingReportingOverflow(Int64(digit))
                guard !o1, !o2 else { return nil }
                value = sum
                i += 1
            }
            guard i > start, i - start <= 19 else { return nil }
            at = i
            return .integer(negative ? -value : value)
        }

        private static let null = Array("NULL".utf8)
    }
}
