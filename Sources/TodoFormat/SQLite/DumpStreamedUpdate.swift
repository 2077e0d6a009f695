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

    /// A row's statement: where it is, and its values' texts.
    private struct Row {
        var range: Range<Int>
        var values: [ArraySlice<UInt8>]
        var id: Int64
    }

    /// The file's bytes with the run of rows where `comparison` first differs written as the
    /// whole write would write it; nil where this does not apply.
    func patched(_ comparison: ByteComparison) -> (start: Int, end: Int, text: [UInt8])? {
        let old = comparison.old
        let prefix = marker.bytes[marker.itemOffset...]
        guard let start = marker.lastStart(before: comparison.matched, in: old) else { return nil }
        let sameFrom = old.count - comparison.commonSuffix()
        let shift = comparison.outputCount - old.count
        // The file's run: its rows from `start` to the first that starts where the rest of the
        // file is the rest of the new dump, or to the end of the table's rows there.
        var oldRows: [Row] = []
        var at = start
        while true {
            guard marker.isStart(at, count: old.count, { old[$0] }),
                let row = Self.row(in: old, at: at, prefix: prefix.count)
            else { return nil }
            oldRows.append(row)
            at = row.range.upperBound
            if at >= sameFrom && at + shift > start { break }
        }
        let atTableEnd = !marker.isStart(at, count: old.count) { old[$0] }
        let runEnd = at
        let newRun = comparison.output(start..<runEnd + shift)
        var newRows: [Row] = []
        let parsed: Bool = newRun.withUnsafeBufferPointer { bytes in
            var at = 0
            while at < bytes.count {
                guard at == 0 || marker.isStart(at, count: bytes.count, { bytes[$0] }),
                    let row = Self.row(in: bytes, at: at, prefix: prefix.count)
                else { return false }
                newRows.append(row)
                at = row.range.upperBound
            }
            return true
        }
        guard parsed, !newRows.isEmpty,
            UTF8Validation.firstInvalidOffset(UnsafeBufferPointer(rebasing: old[start..<runEnd])) < 0
        else { return nil }

        // Ids: the run's rows in the file are the ids from the first new row's on, in order
        // (the rows before are the new dump's own, numbered 1 on); new ids past them go after
        // the table's last statement, which must then be the run's.
        let first = newRows[0].id
        guard oldRows.enumerated().allSatisfy({ $0.element.id == first + Int64($0.offset) }),
            newRows.enumerated().allSatisfy({ $0.element.id == first + Int64($0.offset) })
        else { return nil }
        if newRows.count > oldRows.count && !atTableEnd { return nil }
        if newRows.count < oldRows.count && !atTableEnd {
            // The rows after the run in the file are the new dump's, numbered on from the
            // new run: the file would have two rows with one id.
            return nil
        }

        var text: [UInt8] = []
        text.reserveCapacity(newRun.count + 64)
        for (i, row) in oldRows.enumerated() {
            guard i < newRows.count else { continue }  // gone: its line goes
            let new = newRows[i]
            if old[row.range].elementsEqual(newRun[new.range]) {
                text += old[row.range]
                continue
            }
            guard row.values.count == new.values.count else { return nil }
            var changed = false
            var values: [ArraySlice<UInt8>] = []
            for (a, b) in zip(row.values, new.values) {
                if a.elementsEqual(b) {
                    values.append(a)
                    continue
                }
                guard let differs = Self.differ(a, b) else { return nil }
                if differs { changed = true }
                values.append(differs ? b : a)
            }
            if !changed {
                text += old[row.range]
                continue
            }
            // Written again as the whole write writes a row: each value as the sqlite3 shell
            // spells it, which must be its text here.
            guard values.allSatisfy(Self.isShellSpelling) else { return nil }
            text += prefix
            for (j, value) in values.enumerated() {
                if j > 0 { text.append(UInt8(ascii: ",")) }
                text += value
            }
            text += Array(");\n".utf8)
        }
        for new in newRows.dropFirst(oldRows.count) {
            guard new.values.allSatisfy(Self.isShellSpelling) else { return nil }
            text += newRun[new.range]
        }
        return (start, runEnd, text)
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

    /// The row statement at `at` (`prefix` bytes of `INSERT INTO table VALUES(` there),
    /// through its line break: values that are `NULL`, numbers and quoted texts only, and a
    /// first that is the id; nil for anything else.
    private static func row<C: RandomAccessCollection<UInt8>>(in bytes: C, at: Int, prefix: Int) -> Row?
    where C.Index == Int {
        var i = at + prefix
        var values: [ArraySlice<UInt8>] = []
        func value() -> Bool {
            let start = i
            guard i < bytes.endIndex else { return false }
            if bytes[i] == UInt8(ascii: "'") {
                i += 1
                while i < bytes.endIndex {
                    if bytes[i] == UInt8(ascii: "'") {
                        if i + 1 < bytes.endIndex && bytes[i + 1] == UInt8(ascii: "'") {
                            i += 2
                            continue
                        }
                        i += 1
                        values.append(ArraySlice(bytes[start..<i]))
                        return true
                    }
                    i += 1
                }
                return false
            }
            while i < bytes.endIndex, bytes[i] != UInt8(ascii: ","), bytes[i] != UInt8(ascii: ")") { i += 1 }
            let token = ArraySlice(bytes[start..<i])
            guard token.elementsEqual("NULL".utf8) || isNumber(token) else { return false }
            values.append(token)
            return true
        }
        while true {
            guard value(), i < bytes.endIndex else { return nil }
            if bytes[i] == UInt8(ascii: ",") {
                i += 1
                continue
            }
            break
        }
        guard i + 2 < bytes.endIndex, bytes[i] == UInt8(ascii: ")"), bytes[i + 1] == UInt8(ascii: ";"),
            bytes[i + 2] == UInt8(ascii: "\n"), let id = integer(values[0])
        else { return nil }
        return Row(range: at..<i + 3, values: values, id: id)
    }

    /// `-`, digits, and perhaps a fraction and an exponent.
    private static func isNumber(_ token: ArraySlice<UInt8>) -> Bool {
        let body = token.first == UInt8(ascii: "-") ? token.dropFirst() : token
        guard let first = body.first, (48...57).contains(first) else { return false }
        return body.allSatisfy {
            (48...57).contains($0) || $0 == 0x2E || $0 == 0x65 || $0 == 0x45 || $0 == 0x2B || $0 == 0x2D
        }
    }

    /// An integer as the shell writes one (no leading zero, no `-0`, within 64 bits).
    private static func integer(_ token: ArraySlice<UInt8>) -> Int64? {
        let negative = token.first == UInt8(ascii: "-")
        let body = negative ? token.dropFirst() : token
        guard !body.isEmpty, body.allSatisfy({ (48...57).contains($0) }),
            body.first != 48 || (body.count == 1 && !negative),
            let value = Int64(String(decoding: token, as: UTF8.self))
        else { return nil }
        return value
    }

    /// Whether the whole write writes the value as this text: `NULL`, an integer, a whole
    /// real below 2^63 as `N.0`, a text without a line break (the shell writes those with
    /// `replace(…)`).
    private static func isShellSpelling(_ token: ArraySlice<UInt8>) -> Bool {
        if token.elementsEqual("NULL".utf8) || integer(token) != nil { return true }
        if token.first == UInt8(ascii: "'") { return !token.contains(10) && !token.contains(13) }
        guard token.count > 2, token.suffix(2).elementsEqual(".0".utf8), let whole = integer(token.dropLast(2)) else {
            return false
        }
        return whole.magnitude < 9_200_000_000_000_000_000
    }

    /// Whether two values' texts are different values to the whole write, which keeps a
    /// stored value that reads as the new one; nil where it might not tell them apart (two
    /// spellings of one number, a date or JSON written otherwise, a number beside a text).
    private static func differ(_ a: ArraySlice<UInt8>, _ b: ArraySlice<UInt8>) -> Bool? {
        let aNull = a.elementsEqual("NULL".utf8)
        let bNull = b.elementsEqual("NULL".utf8)
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
        let x = unquoted(a)
        let y = unquoted(b)
        if let date = ISO8601.parse(x, assumeUTC: true), date == ISO8601.parse(y, assumeUTC: true) { return nil }
        if let value = JSONScanner.wholeValue(of: x), value == JSONScanner.wholeValue(of: y) { return nil }
        return true
    }

    private static func unquoted(_ token: ArraySlice<UInt8>) -> [UInt8] {
        var bytes: [UInt8] = []
        var i = token.startIndex + 1
        while i < token.endIndex - 1 {
            bytes.append(token[i])
            i += token[i] == UInt8(ascii: "'") ? 2 : 1
        }
        return bytes
    }
}
