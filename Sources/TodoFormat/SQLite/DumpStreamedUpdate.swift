import Foundation

/// A write of a list into an existing SQL dump laid out as todofmt writes a new one (one
/// `INSERT INTO table VALUES(…);` a line, ids 1, 2, 3… in order), from the comparison of a
/// new dump's bytes with the file's (`SQLDumpFormat.update(_:options:streaming:)`): what
/// loading the dump into SQLite, writing the list into its table and writing back only the
/// statements of changed rows (`DumpEditor`) gives, without loading a million statements.
///
/// Where the bytes first differ, the file's statements are scanned from the one there until
/// one starts where the rest of the file is the rest of the new dump; only that run of rows is
/// compared, as the whole write compares rows: by id, value by value. A row that reads the
/// same keeps its statement; a changed one is written as the whole write writes it (the
/// statement's values, those that changed replaced); a row gone loses its line; new rows
/// follow the table's last statement. It gives up (nil: the caller loads the dump) wherever
/// that write could differ: a value it would spell otherwise (a real, a text with a line
/// break, a blob), two spellings of one value (a date or JSON written otherwise), ids not in
/// order, or anything but such statements in the run.
struct DumpStreamedUpdate {
    /// `\nINSERT INTO table VALUES(`: every row's line starts so, and nothing else does.
    private let marker: LineMarker

    init(table: String) {
        marker = LineMarker(bytes: Array("\nINSERT INTO \(DumpLiteral.tableName(table)) VALUES(".utf8), itemOffset: 1)
    }

    /// A row's statement: where it is, where its values' texts are, and its id.
    struct Row {
        var range: Range<Int> = 0..<0
        var values: [Range<Int>] = []
        var id: Int64 = 0
    }

    /// The file's bytes with the run of rows where `comparison` first differs written as the
    /// whole write would write it; nil where this does not apply. The run's rows are taken a
    /// pair at a time (the file's and the new dump's of one id), so that a run of every row
    /// after a removed one costs no memory but the text written.
    func patched(_ comparison: ByteComparison) -> (start: Int, end: Int, text: [UInt8])? {
        let old = comparison.old
        let prefix = marker.bytes[marker.itemOffset...]
        guard let start = marker.lastStart(before: comparison.matched, in: old) else { return nil }
        let sameFrom = old.count - comparison.commonSuffix()
        let shift = comparison.outputCount - old.count
        // The file's run: its rows from `start` to the first that starts where the rest of the
        // file is the rest of the new dump, or to the end of the table's rows there.
        var scratch = Row()
        var at = start
        while true {
            guard marker.isStart(at, count: old.count, { old[$0] }),
                Self.row(in: old, at: at, prefix: prefix.count, into: &scratch)
            else { return nil }
            at = scratch.range.upperBound
            if at >= sameFrom && at + shift > start { break }
        }
        let atTableEnd = !marker.isStart(at, count: old.count) { old[$0] }
        let runEnd = at
        guard UTF8Validation.isValid(UnsafeBufferPointer(rebasing: old[start..<runEnd])) else {
            return nil
        }
        let newRun = comparison.output(start..<runEnd + shift)
        return newRun.withUnsafeBufferPointer { new -> (start: Int, end: Int, text: [UInt8])? in
            var text: [UInt8] = []
            text.reserveCapacity(new.count + 64)
            var a = Row()
            var b = Row()
            var o = start
            var n = 0
            // Ids: the run's rows in the file are the ids from the first new row's on, in order
            // (the rows before are the new dump's own, numbered 1 on); new ids past them go
            // after the table's last statement, which must then be the run's.
            var expected: Int64? = nil
            while o < runEnd || n < new.count {
                let hasOld = o < runEnd
                if hasOld {
                    guard Self.row(in: old, at: o, prefix: prefix.count, into: &a) else { return nil }
                    o = a.range.upperBound
                }
                let hasNew = n < new.count
                if hasNew {
                    guard n == 0 || marker.isStart(n, count: new.count, { new[$0] }),
                        Self.row(in: new, at: n, prefix: prefix.count, into: &b)
                    else { return nil }
                    n = b.range.upperBound
                    if expected == nil { expected = b.id }
                }
                guard let id = expected, !hasOld || a.id == id, !hasNew || b.id == id else { return nil }
                expected = id + 1
                // A row gone: its line goes. Where rows follow the run in the file, they are
                // the new dump's, numbered on from the new run: two rows would have one id.
                guard hasNew else {
                    if !atTableEnd { return nil }
                    continue
                }
                guard hasOld else {
                    // A new row, after the table's last statement.
                    guard atTableEnd, b.values.allSatisfy({ Self.isShellSpelling(new[$0]) }) else { return nil }
                    text += new[b.range]
                    continue
                }
                guard Self.merge(a, in: old, with: b, in: new, into: &text) else { return nil }
            }
            guard expected != nil else { return nil }
            return (start, runEnd, text)
        }
    }

    /// Writes into `text` the row `a` of the file (in `old`) as the whole write leaves it
    /// when the new dump has the row `b` (in `new`) of the same id there: the file's line
    /// where the bytes are the same, else the new one, each of whose values the shell spells
    /// so; false where the whole write might write it otherwise (two texts of one value to
    /// `differ`, a value `isShellSpelling` refuses). (A value the whole write keeps is the
    /// file's where it reads the same; of two different texts `differ` never says so, so the
    /// values written are the new row's.)
    static func merge(
        _ a: Row, in old: UnsafeBufferPointer<UInt8>, with b: Row, in new: UnsafeBufferPointer<UInt8>,
        into text: inout [UInt8]
    ) -> Bool {
        if same(old[a.range], new[b.range]) {
            text += old[a.range]
            return true
        }
        guard a.values.count == b.values.count else { return false }
        for (x, y) in zip(a.values, b.values) where !same(old[x], new[y]) {
            guard differ(old[x], new[y]) == true else { return false }
        }
        guard b.values.allSatisfy({ isShellSpelling(new[$0]) }) else { return false }
        text += new[b.range]
        return true
    }

    /// The file's header (its bytes before the first row) and the field keys its table's
    /// columns are for, in order, where the header is one statement todofmt's writer could
    /// write, `CREATE TABLE` with todofmt's own columns first: what a new dump's writer may
    /// assume (`DumpWriter.Assumption`) to write the rows as they come; SQLite has run the
    /// header (`headerLoads`). Nil otherwise (no row, another header).
    func assumption(_ bytes: UnsafeBufferPointer<UInt8>, table: String) -> DumpWriter.Assumption? {
        guard let end = marker.starts(in: bytes, before: bytes.count, limit: 1).first else { return nil }
        let header = Array(bytes[..<end])
        let start = Array("PRAGMA foreign_keys=OFF;\nBEGIN TRANSACTION;\nCREATE TABLE ".utf8)
        // One statement after the transaction's start: its `;` ends the header.
        guard header.starts(with: start), header.last == 0x0A,
            header[start.count...].firstIndex(of: UInt8(ascii: ";")) == header.count - 2, !header.contains(0),
            let db = try? Database(path: ":memory:", readOnly: false),
            (try? db.execute(String(decoding: header, as: UTF8.self))) != nil,
            let rows = try? db.rows("PRAGMA table_info(\(Database.quote(table)))")
        else { return nil }
        var names: [String] = []
        for row in rows {
            guard case .text(let name) = row[1] else { return nil }
            names.append(name)
        }
        guard names.starts(with: ListTable.ownColumns) else { return nil }
        let keys = names.dropFirst(ListTable.ownColumns.count).map {
            $0.hasPrefix("field:") ? String($0.dropFirst(6)) : $0
        }
        return DumpWriter.Assumption(header: header, keys: keys)
    }

    /// Whether SQLite runs the statements before the dump's first row (all of them when it
    /// has none): loading the dump runs them first, and fails where they fail (a column
    /// name SQLite cannot read), which a write that does not load it must not hide.
    func headerLoads(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let end = marker.starts(in: bytes, before: bytes.count, limit: 1).first ?? bytes.count
        let header = UnsafeBufferPointer(rebasing: bytes[..<end])
        guard !header.contains(0), let db = try? Database(path: ":memory:", readOnly: false) else { return false }
        return (try? db.execute(String(decoding: header, as: UTF8.self))) != nil
    }

    /// A value's text in a statement.
    typealias Token = Slice<UnsafeBufferPointer<UInt8>>

    /// Whether two texts are the same bytes (memcmp: the generic comparison of slices was a
    /// tenth of an edit that moves every row after it).
    static func same(_ a: Token, _ b: Token) -> Bool {
        a.count == b.count
            && (a.isEmpty
                || memcmp(a.base.baseAddress! + a.startIndex, b.base.baseAddress! + b.startIndex, a.count) == 0)
    }

    /// Whether a value is `NULL`.
    static func isNull(_ token: Token) -> Bool {
        token.count == 4 && token.base[token.startIndex] == UInt8(ascii: "N")
            && token.base[token.startIndex + 1] == UInt8(ascii: "U")
            && token.base[token.startIndex + 2] == UInt8(ascii: "L")
            && token.base[token.startIndex + 3] == UInt8(ascii: "L")
    }

    /// The row statement at `at` (`prefix` bytes of `INSERT INTO table VALUES(` there),
    /// through its line break, into `row`: values that are `NULL`, numbers and quoted texts
    /// only, and a first that is the id; false for anything else.
    static func row(in bytes: UnsafeBufferPointer<UInt8>, at: Int, prefix: Int, into row: inout Row) -> Bool {
        var i = at + prefix
        row.values.removeAll(keepingCapacity: true)
        func value() -> Bool {
            let start = i
            guard i < bytes.count else { return false }
            if bytes[i] == UInt8(ascii: "'") {
                i += 1
                while i < bytes.count,
                    let quote = memchr(bytes.baseAddress! + i, Int32(UInt8(ascii: "'")), bytes.count - i)
                {
                    i = bytes.baseAddress!.distance(to: quote.assumingMemoryBound(to: UInt8.self)) + 1
                    if i < bytes.count && bytes[i] == UInt8(ascii: "'") {
                        i += 1
                        continue
                    }
                    row.values.append(start..<i)
                    return true
                }
                return false
            }
            while i < bytes.count, bytes[i] != UInt8(ascii: ","), bytes[i] != UInt8(ascii: ")") { i += 1 }
            let token = bytes[start..<i]
            guard isNull(token) || isNumber(token) else { return false }
            row.values.append(start..<i)
            return true
        }
        while true {
            guard value(), i < bytes.count else { return false }
            if bytes[i] == UInt8(ascii: ",") {
                i += 1
                continue
            }
            break
        }
        guard i + 2 < bytes.count, bytes[i] == UInt8(ascii: ")"), bytes[i + 1] == UInt8(ascii: ";"),
            bytes[i + 2] == UInt8(ascii: "\n"), let id = integer(bytes[row.values[0]])
        else { return false }
        row.range = at..<i + 3
        row.id = id
        return true
    }

    /// `-`, digits, and perhaps a fraction and an exponent.
    private static func isNumber(_ token: Token) -> Bool {
        let body = token.first == UInt8(ascii: "-") ? token.dropFirst() : token
        guard let first = body.first, (48...57).contains(first) else { return false }
        return body.allSatisfy {
            (48...57).contains($0) || $0 == 0x2E || $0 == 0x65 || $0 == 0x45 || $0 == 0x2B || $0 == 0x2D
        }
    }

    /// An integer as the shell writes one (no leading zero, no `-0`, within 64 bits).
    private static func integer(_ token: Token) -> Int64? {
        let negative = token.first == UInt8(ascii: "-")
        let body = negative ? token.dropFirst() : token
        guard !body.isEmpty, body.count <= 19, body.first != 48 || (body.count == 1 && !negative) else { return nil }
        var value: Int64 = 0
        for byte in body {
            let digit = byte &- 48
            guard digit < 10 else { return nil }
            let (times, o1) = value.multipliedReportingOverflow(by: 10)
            let (sum, o2) = times.addingReportingOverflow(Int64(digit))
            guard !o1, !o2 else { return nil }
            value = sum
        }
        return negative ? -value : value
    }

    /// Whether the whole write writes the value as this text: `NULL`, an integer, a whole
    /// real below 2^63 as `N.0`, a text without a line break (the shell writes those with
    /// `replace(…)`).
    static func isShellSpelling(_ token: Token) -> Bool {
        if isNull(token) || integer(token) != nil { return true }
        if token.first == UInt8(ascii: "'") {
            let start = token.base.baseAddress! + token.startIndex
            return memchr(start, 10, token.count) == nil && memchr(start, 13, token.count) == nil
        }
        guard token.count > 2, token.suffix(2).elementsEqual(".0".utf8), let whole = integer(token.dropLast(2)) else {
            return false
        }
        return whole.magnitude < 9_200_000_000_000_000_000
    }

    /// Whether two values' texts are different values to the whole write, which keeps a
    /// stored value that reads as the new one; nil where it might not tell them apart (two
    /// spellings of one number, a date or JSON written otherwise, a number beside a text).
    static func differ(_ a: Token, _ b: Token) -> Bool? {
        let aNull = isNull(a)
        let bNull = isNull(b)
        if aNull || bNull { return true }
        let aText = a.first == UInt8(ascii: "'")
        let bText = b.first == UInt8(ascii: "'")
        guard aText == bText else { return nil }
        if !aText {
            if let x = integer(a), let y = integer(b) { return x != y }
            guard let x = Double(String(decoding: a, as: UTF8.self)), let y = Double(String(decoding: b, as: UTF8.self))
            else { return nil }
            return x == y ? nil : true
        }
        // Neither a date nor JSON where the text starts as neither can (most names).
        if let c = a.dropFirst().first,
            c >= 0x80
                || (c | 0x20 >= UInt8(ascii: "a") && c | 0x20 <= UInt8(ascii: "z"))
                    && !"tfniTFNI".utf8.contains(c)
        {
            return true
        }
        let x = unquoted(a)
        let y = unquoted(b)
        if let date = ISO8601.parse(x, assumeUTC: true), date == ISO8601.parse(y, assumeUTC: true) { return nil }
        if let value = JSONScanner.wholeValue(of: x), value == JSONScanner.wholeValue(of: y) { return nil }
        return true
    }

    /// A quoted text's bytes (its quotes off, `''` made `'`).
    static func unquoted(_ token: Token) -> [UInt8] {
        var bytes: [UInt8] = []
        var i = token.startIndex + 1
        while i < token.endIndex - 1 {
            bytes.append(token[i])
            i += token[i] == UInt8(ascii: "'") ? 2 : 1
        }
        return bytes
    }
}
