internal import CSQLite
import Foundation

/// Values and names as SQL text the way the `sqlite3` shell's `.dump` writes them, so that a
/// row todofmt writes into a dump reads like the rows around it.
enum DumpLiteral {
    /// A table name as `INSERT INTO` writes it: bare when it is a plain identifier that is
    /// no keyword, else in double quotes.
    static func tableName(_ name: String) -> String {
        let plain =
            !name.isEmpty && name.utf8.allSatisfy { $0 == UInt8(ascii: "_") || ($0 < 0x80 && isalnum(Int32($0)) != 0) }
            && !(name.utf8.first.map { $0 >= 48 && $0 <= 57 } ?? true)
            && sqlite3_keyword_check(name, Int32(name.utf8.count)) == 0
        return plain ? name : Database.quote(name)
    }

    /// A text literal: in single quotes with quotes doubled; line feeds and carriage returns
    /// (when `escapingLineBreaks`, as the shell writes them) as `replace('…\n…','\n',char(10))`;
    /// a NUL (which the shell cannot write) as `char(0)` joined to the parts around it.
    static func quoted(_ text: String, escapingLineBreaks: Bool = true) -> String {
        let bytes = Array(text.utf8)
        guard bytes.contains(0) else { return quotedPart(bytes[...], escapingLineBreaks: escapingLineBreaks) }
        var parts: [String] = []
        var start = 0
        for (i, b) in bytes.enumerated() where b == 0 {
            if i > start { parts.append(quotedPart(bytes[start..<i], escapingLineBreaks: escapingLineBreaks)) }
            parts.append("char(0)")
            start = i + 1
        }
        if start < bytes.count { parts.append(quotedPart(bytes[start...], escapingLineBreaks: escapingLineBreaks)) }
        return concatenated(parts[...])
    }

    /// Parts joined by `||`; more than 64 (a text of hundreds of NULs) as parenthesized
    /// halves, so that SQLite parses the expression within its depth limit (1,000), which a
    /// chain of them passes: the dump would not load.
    private static func concatenated(_ parts: ArraySlice<String>) -> String {
        guard parts.count > 64 else { return parts.joined(separator: "||") }
        let middle = parts.startIndex + parts.count / 2
        return "(" + concatenated(parts[..<middle]) + ")||(" + concatenated(parts[middle...]) + ")"
    }

    private static func quotedPart(_ bytes: ArraySlice<UInt8>, escapingLineBreaks: Bool) -> String {
        let hasNL = escapingLineBreaks && bytes.contains(10)
        let hasCR = escapingLineBreaks && bytes.contains(13)
        /// An escape for a line break the text does not hold (its text made only then: most
        /// texts have no line break, and every value of a dump is quoted here).
        func unused(_ first: String, _ second: String) -> String {
            let text = String(decoding: bytes, as: UTF8.self)
            if !text.contains(first) { return first }
            if !text.contains(second) { return second }
            var n = 0
            while text.contains("(\(first)\(n))") { n += 1 }
            return "(\(first)\(n))"
        }
        let nl = hasNL ? unused("\\n", "\\012") : ""
        let cr = hasCR ? unused("\\r", "\\015") : ""
        // Byte by byte (a quote and line breaks are never part of a longer character);
        // invalid UTF-8 is repaired at the end as decoding the text would repair it.
        var quoted: [UInt8] = [UInt8(ascii: "'")]
        quoted.reserveCapacity(bytes.count + 2)
        for b in bytes {
            switch b {
            case UInt8(ascii: "'"): quoted += "''".utf8
            case 10 where hasNL: quoted += nl.utf8
            case 13 where hasCR: quoted += cr.utf8
            default: quoted.append(b)
            }
        }
        quoted.append(UInt8(ascii: "'"))
        var body = String(decoding: quoted, as: UTF8.self)
        if hasCR { body = "replace(\(body),'\(cr)',char(13))" }
        if hasNL { body = "replace(\(body),'\(nl)',char(10))" }
        return body
    }

    /// A blob as `X'…'` in lower-case hexadecimal.
    static func blob(_ data: Data) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = Array("X'".utf8)
        text.reserveCapacity(data.count * 2 + 3)
        for b in data {
            text.append(digits[Int(b >> 4)])
            text.append(digits[Int(b & 15)])
        }
        text.append(UInt8(ascii: "'"))
        return String(decoding: text, as: UTF8.self)
    }
}

/// Writes the changes a dump's database went through back into the dump's text: only the
/// INSERT statements of rows that changed are written again (in the shell's spelling, after
/// the statement's own `INSERT INTO name VALUES(`), a statement whose rows are all gone goes
/// with its line, and new rows follow the last statement of their table. Every other byte
/// of the dump stays.
struct DumpEditor {
    private let db: Database
    private let recorder: DumpRecorder
    /// The dump's text (perhaps with a NUL after it, which is not written back).
    private let text: [UInt8]
    private let end: Int
    /// `sqlite_sequence` (which takes no triggers) as it was, by rowid.
    private var sequence: [Int64: [SQLValue]] = [:]
    /// Each table's CREATE statement as it was.
    private var schema: [String: String] = [:]

    /// Starts recording changes (after the dump was run with `recorder`).
    init(db: Database, recorder: DumpRecorder, text: [UInt8]) throws {
        self.db = db
        self.recorder = recorder
        self.text = text
        end = text.last == 0 ? text.count - 1 : text.count
        try db.execute("CREATE TEMP TABLE todofmt_changed (tbl TEXT, ident)")
        for (n, table) in try userTables().enumerated() {
            schema[table.name] = table.sql
            let new = try db.rowIdentity(of: table.name, as: "NEW.")
            let old = try db.rowIdentity(of: table.name, as: "OLD.")
            let target = "main.\(Database.quote(table.name))"
            let name = Database.literal(table.name)
            try db.execute(
                """
                CREATE TEMP TRIGGER todofmt_insert_\(n) AFTER INSERT ON \(target) BEGIN INSERT INTO todofmt_changed VALUES (\(name), \(new)); END;
                CREATE TEMP TRIGGER todofmt_update_\(n) AFTER UPDATE ON \(target) BEGIN INSERT INTO todofmt_changed VALUES (\(name), \(old)); INSERT INTO todofmt_changed VALUES (\(name), \(new)); END;
                CREATE TEMP TRIGGER todofmt_delete_\(n) AFTER DELETE ON \(target) BEGIN INSERT INTO todofmt_changed VALUES (\(name), \(old)); END;
                """)
        }
        if try db.tableNames().contains("sqlite_sequence") {
            for row in try db.rows("SELECT rowid, * FROM sqlite_sequence") {
                if case .integer(let rowid) = row[0] { sequence[rowid] = Array(row.dropFirst()) }
            }
        }
    }

    private func userTables() throws -> [(name: String, sql: String)] {
        try db.rows(
            "SELECT name, sql FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY rowid"
        ).compactMap { row in
            guard case .text(let name) = row[0], case .text(let sql) = row[1] else { return nil }
            return (name, sql)
        }
    }

    /// Writes the dump's text with the changes written into it.
    func write(to sink: inout ByteSink) throws {
        var edits: [(range: Range<Int>, text: String)] = []
        var dirty: Set<Int> = []
        var added: [String: [SQLValue]] = [:]
        var addedOrder: [String] = []
        var remade: Set<String> = []
        var rewritten: Set<String> = []
        var created: [String] = []
        var rows = RowReader(db: db)
        let loadedStatement = try db.prepare(
            "SELECT stmt FROM temp.todofmt_loaded WHERE tbl = ? AND ident = ? ORDER BY rowid DESC LIMIT 1")
        func statement(of table: String, _ identity: SQLValue) throws -> Int? {
            if recorder.keyed.contains(table) {
                try loadedStatement.bind([.text(table), identity])
                guard try loadedStatement.step(), case .integer(let index) = loadedStatement.value(0) else {
                    return nil
                }
                return Int(index)
            }
            guard case .integer(let rowid) = identity else { return nil }
            return recorder.statement(of: table, rowid: rowid)
        }

        // Tables made again (todofmt's own, when its columns changed) or new.
        for table in try userTables() {
            let triggers = try db.scalar(
                "SELECT count(*) FROM sqlite_temp_master WHERE type = 'trigger' AND tbl_name = ?", [.text(table.name)])
            if schema[table.name] == nil {
                created.append(table.name)
            } else if schema[table.name] != table.sql || triggers == .integer(0) {
                remade.insert(table.name)
            }
        }
        for row in try db.rows("SELECT tbl, ident FROM temp.todofmt_changed GROUP BY tbl, ident ORDER BY min(rowid)") {
            guard case .text(let table) = row[0], !remade.contains(table), !created.contains(table) else { continue }
            if recorder.unmapped.contains(table) {
                rewritten.insert(table)
            } else if let index = try statement(of: table, row[1]) {
                dirty.insert(index)
            } else if try rows.current(table, row[1]) != nil {
                if added[table] == nil { addedOrder.append(table) }
                added[table, default: []].append(row[1])
            }
        }
        // sqlite_sequence: rows a statement of the dump made, as they are now.
        if try db.tableNames().contains("sqlite_sequence") {
            var now: [Int64: [SQLValue]] = [:]
            for row in try db.rows("SELECT rowid, * FROM sqlite_sequence") {
                if case .integer(let rowid) = row[0] { now[rowid] = Array(row.dropFirst()) }
            }
            for (rowid, values) in sequence where now[rowid] != values {
                if let index = recorder.statement(of: "sqlite_sequence", rowid: rowid) { dirty.insert(index) }
            }
            let written = recorder.statements.contains { $0.inserts == "sqlite_sequence" }
            for rowid in now.keys.sorted() where sequence[rowid] == nil && written {
                if added["sqlite_sequence"] == nil { addedOrder.append("sqlite_sequence") }
                added["sqlite_sequence", default: []].append(.integer(rowid))
            }
        }

        // Statements whose rows changed, written again from the rows as they are now.
        let rowsOf = try db.prepare("SELECT ident FROM temp.todofmt_loaded WHERE stmt = ? AND tbl = ? ORDER BY rowid")
        for index in dirty.sorted() {
            let statement = recorder.statements[index]
            guard let table = statement.inserts else { continue }
            var identities: [SQLValue] = []
            if let rowid = statement.rowid {
                identities = [.integer(rowid)]
            } else {
                try rowsOf.bind([.integer(Int64(index)), .text(table)])
                while try rowsOf.step() { identities.append(rowsOf.value(0)) }
            }
            let values = try identities.compactMap { try rows.current(table, $0) }
            if values.isEmpty {
                edits.append((lineRange(of: statement.range), ""))
            } else {
                edits.append((statement.range, try insert(values, into: table, like: statement)))
            }
        }
        // New rows after the last statement of their table.
        for table in addedOrder {
            let values = try added[table]!.compactMap { try rows.current(table, $0) }
            guard !values.isEmpty else { continue }
            let anchor =
                recorder.statements.lastIndex { $0.inserts == table }
                ?? recorder.statements.lastIndex { $0.creates == table }
            let template = recorder.statements.last { $0.inserts == table }
            var lines = ""
            for row in values { lines += try insert([row], into: table, like: template) + "\n" }
            let at = anchor.map { lineEnd(after: recorder.statements[$0].range.upperBound) } ?? closingPoint()
            if at > 0 && text[at - 1] != 10 {
                lines.removeLast()
                lines = "\n" + lines
            }
            edits.append((at..<at, lines))
        }
        // Tables whose rows cannot be told apart by statement: all their INSERTs written again.
        for table in rewritten {
            let statements = recorder.statements.indices.filter { recorder.statements[$0].inserts == table }
            guard let first = statements.first else { continue }
            for index in statements.dropFirst() { edits.append((lineRange(of: recorder.statements[index].range), "")) }
            let all = try Self.rows(of: table, in: db)
            let lines = try all.map { try insert([$0], into: table, like: recorder.statements[first]) }.joined(
                separator: "\n")
            edits.append(
                (
                    all.isEmpty ? lineRange(of: recorder.statements[first].range) : recorder.statements[first].range,
                    lines
                ))
        }
        // Tables made again replace their statements. Their indexes and triggers stay where
        // they are as long as they are there as they were; those gone go, those new (or
        // changed) follow the rows. New tables go before the closing COMMIT.
        for table in remade {
            var kept: Set<String> = []
            let present = Set(try db.dependents(of: table).map(\.sql))
            let statements = recorder.statements.indices.filter {
                let statement = recorder.statements[$0]
                if statement.on == table {
                    let sql = String(decoding: text[statement.range].dropLast(), as: UTF8.self)
                    if present.contains(sql) {
                        kept.insert(sql)
                        return false
                    }
                    return true
                }
                return statement.inserts == table || statement.creates == table
            }
            guard let first = statements.first else { continue }
            for index in statements.dropFirst() { edits.append((lineRange(of: recorder.statements[index].range), "")) }
            var lines = try whole(table, except: kept)
            if !lines.isEmpty { lines.removeLast() }  // its last line break: the statement's own stays
            edits.append((recorder.statements[first].range, lines))
        }
        for table in created {
            let at = closingPoint()
            edits.append((at..<at, try whole(table)))
        }

        var cursor = 0
        text.withUnsafeBufferPointer { bytes in
            for edit in edits.sorted(by: {
                ($0.range.lowerBound, $0.range.upperBound) < ($1.range.lowerBound, $1.range.upperBound)
            }) {
                guard edit.range.lowerBound >= cursor else { continue }
                sink.write(UnsafeBufferPointer(rebasing: bytes[cursor..<edit.range.lowerBound]))
                sink.write(edit.text)
                cursor = edit.range.upperBound
            }
            sink.write(UnsafeBufferPointer(rebasing: bytes[cursor..<end]))
        }
    }

    /// A value of a row as the dump writes it: the value, or for a text that is not UTF-8
    /// (which a Swift string would repair) the SQL that makes its exact bytes.
    enum DumpValue {
        case value(SQLValue)
        case sql(String)
    }

    /// The values of a statement's current row.
    fileprivate static func values(_ statement: Statement) -> [DumpValue] {
        (0..<statement.columnCount).map { i in
            if let bytes = statement.textNotUTF8(i) {
                return .sql("CAST(" + DumpLiteral.blob(Data(bytes)) + " AS TEXT)")
            }
            return .value(statement.value(i))
        }
    }

    /// Every row of a table, as it is now.
    private static func rows(of table: String, in db: Database) throws -> [[DumpValue]] {
        let statement = try db.prepare("SELECT * FROM main.\(Database.quote(table))")
        var rows: [[DumpValue]] = []
        while try statement.step() { rows.append(values(statement)) }
        return rows
    }

    /// Reads rows as they are now by their identity, with one prepared statement a table.
    private struct RowReader {
        let db: Database
        private var statements: [String: Statement] = [:]

        init(db: Database) { self.db = db }

        /// A row's values, by its identity; nil when it is gone.
        mutating func current(_ table: String, _ identity: SQLValue) throws -> [DumpValue]? {
            if statements[table] == nil {
                let condition = try db.rowIdentity(of: table)
                statements[table] = try db.prepare("SELECT * FROM main.\(Database.quote(table)) WHERE \(condition) = ?")
            }
            let statement = statements[table]!
            try statement.bind([identity])
            return try statement.step() ? DumpEditor.values(statement) : nil
        }
    }

    /// A table's CREATE statement and all its rows, as `.dump` writes them, then its indexes
    /// and triggers but those in `kept`.
    private func whole(_ table: String, except kept: Set<String> = []) throws -> String {
        var lines = ""
        if case .text(let sql)? = try db.scalar(
            "SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?", [.text(table)])
        {
            lines += sql + ";\n"
        }
        for row in try Self.rows(of: table, in: db) {
            lines += try insert([row], into: table, like: nil) + "\n"
        }
        for (_, _, sql) in try db.dependents(of: table) where !kept.contains(sql) { lines += sql + ";\n" }
        return lines
    }

    /// Where the `(` after the keyword `VALUES` (in any case, white space between) is in an
    /// INSERT statement's bytes, when no `(` comes before it (a column list): its rows'
    /// values start there. Quoted names and texts and comments are passed over, so that a
    /// `VALUES(` inside them (`/* VALUES( */`, a table named `"VALUES("`) is not taken for
    /// it, which wrote a row's values into the comment or the name. Nil when not found.
    static func valuesOpening(_ statement: ArraySlice<UInt8>) -> Int? {
        let end = statement.endIndex
        /// A byte of a bare word: ASCII letters, digits, `_`, `$`, and anything not ASCII.
        func isWordByte(_ b: UInt8) -> Bool {
            b >= 0x80 || b == UInt8(ascii: "_") || b == UInt8(ascii: "$") || (b >= 48 && b <= 57)
                || (b | 0x20 >= UInt8(ascii: "a") && b | 0x20 <= UInt8(ascii: "z"))
        }
        var i = statement.startIndex
        while i < end {
            let b = statement[i]
            let next = i + 1 < end ? statement[i + 1] : 0
            switch b {
            case UInt8(ascii: "'"), UInt8(ascii: "\""), UInt8(ascii: "`"):
                // Up to the closing quote (a doubled one is inside).
                i += 1
                while i < end && !(statement[i] == b && (i + 1 == end || statement[i + 1] != b)) {
                    i += statement[i] == b ? 2 : 1
                }
                i += 1
            case UInt8(ascii: "["):
                while i < end && statement[i] != UInt8(ascii: "]") { i += 1 }
                i += 1
            case UInt8(ascii: "-") where next == UInt8(ascii: "-"):
                while i < end && statement[i] != 10 { i += 1 }
            case UInt8(ascii: "/") where next == UInt8(ascii: "*"):
                i += 2
                while i < end
                    && !(statement[i] == UInt8(ascii: "*") && i + 1 < end && statement[i + 1] == UInt8(ascii: "/"))
                {
                    i += 1
                }
                i += 2
            case UInt8(ascii: "("):
                return nil
            case _ where isWordByte(b):
                let start = i
                while i < end && isWordByte(statement[i]) { i += 1 }
                guard i - start == 6, zip(statement[start..<i], "VALUES".utf8).allSatisfy({ $0 & 0xDF == $1 }) else {
                    continue
                }
                var open = i
                while open < end, [9, 10, 11, 12, 13, 32].contains(statement[open]) { open += 1 }
                return open < end && statement[open] == UInt8(ascii: "(") ? open : nil
            default:
                i += 1
            }
        }
        return nil
    }

    /// An INSERT statement of rows, beginning as `template` began (`INSERT INTO Note VALUES(`).
    private func insert(_ rows: [[DumpValue]], into table: String, like template: DumpRecorder.Statement?) throws
        -> String
    {
        var prefix = "INSERT INTO \(DumpLiteral.tableName(table)) VALUES("
        if let template, let open = Self.valuesOpening(text[template.range]) {
            prefix = String(decoding: text[template.range.lowerBound...open], as: UTF8.self)
        }
        return try prefix + rows.map { try $0.map(literal).joined(separator: ",") }.joined(separator: "),(") + ");"
    }

    /// A value as the shell writes it: reals with 20 significant digits by SQLite's own
    /// printf (`.0` on whole numbers), text and blobs as `DumpLiteral` writes them.
    private func literal(_ dumpValue: DumpValue) throws -> String {
        let value: SQLValue
        switch dumpValue {
        case .sql(let text): return text
        case .value(let v): value = v
        }
        switch value {
        case .null: return "NULL"
        case .integer(let i): return String(i)
        case .real(let d):
            if d.isInfinite { return d < 0 ? "-1e999" : "1e999" }
            if d == d.rounded(), abs(d) < 9.2e18 { return String(Int64(d)) + ".0" }
            if case .text(let printed)? = try db.scalar("SELECT printf('%!.20g', ?)", [.real(d)]) { return printed }
            return String(d)
        case .text(let s): return DumpLiteral.quoted(s)
        case .blob(let data): return DumpLiteral.blob(data)
        }
    }

    /// A statement's range with the line break after it, and the white space before it on
    /// its line, when it has its line to itself.
    private func lineRange(of range: Range<Int>) -> Range<Int> {
        var start = range.lowerBound
        while start > 0 && (text[start - 1] == 32 || text[start - 1] == 9) { start -= 1 }
        guard start == 0 || text[start - 1] == 10 else { return range }
        let end = lineEnd(after: range.upperBound)
        return start..<end
    }

    /// Just past the line break that ends the line `offset` is on (or the text's end).
    private func lineEnd(after offset: Int) -> Int {
        var i = offset
        while i < end && (text[i] == 32 || text[i] == 9 || text[i] == 13) { i += 1 }
        return i < end && text[i] == 10 ? i + 1 : offset
    }

    /// Where new tables go: before the closing `COMMIT` (or `END`), else at the end.
    private func closingPoint() -> Int {
        for statement in recorder.statements.reversed() {
            let word = String(decoding: text[statement.range].prefix(6), as: UTF8.self).uppercased()
            if word.hasPrefix("COMMIT") || word.hasPrefix("END") { return statement.range.lowerBound }
        }
        return end
    }
}
