import Foundation

/// Writes todofmt's table as an SQL dump (FORMAT.md, section 7.8) as the items arrive,
/// without holding the list: what `OwnTable` makes of the whole list, byte for byte.
///
/// The dump's `CREATE TABLE` comes first but depends on every item (a column for each field
/// key, typed by all its values), so the rows are written as they come into a buffer that
/// goes to an unlinked temporary file once it is large (holding the rows of a million items
/// in memory would be more than twice the checklist they came from; where no such file can
/// be made or written, they stay in memory), and follow the header
/// at the end. Rows written before a key first had a value lack its column: their missing
/// trailing `NULL`s are put in as the rows are copied (columns are only ever added last).
/// A writer compared with an existing dump may instead assume that dump's header
/// (`Assumption`), and write each row as it comes.
///
/// Into a new file, the rows go into the output itself once they are many, after the header
/// the keys known then give (`guessHeader()`): where no key comes after and no column's type
/// changes (the usual list, whose keys all turn up early), the dump is then done when the
/// last row is, where the temporary file took every row written, read and written again
/// (130 MB at a million items: a quarter of the time). Otherwise `finish` moves the rows
/// from the output to a temporary file of their own and writes the dump as above.
struct DumpWriter: ListWriter {
    private var sink: ByteSink
    private let outputName: String
    private let table: String
    /// The rows not yet moved to `spill`.
    private var rows = ByteSink()
    private let spill: RowSpill
    /// The field keys in the order they first had a value: their columns, in order.
    private var keys: [String] = []
    private var keyIndex: [ExactText: Int] = [:]
    /// The kinds of value each key's column holds (`OwnTable.kind(of:)`).
    private var kinds: [Set<String>] = []
    /// For each column, the item's field that gives its value (-1: none), while a row is made.
    private var slots: [Int] = []
    /// From which row on how many field columns were written: starts of runs, in order.
    private var fieldColumns: [(row: Int, count: Int)] = [(0, 0)]
    /// Where each row's values end, before `);`, in the rows' bytes.
    private var rowEnds: [Int] = []
    /// For each level of the items being written: the id of its last item, and how many
    /// items the level has had (the next one's position).
    private var levels: [(id: RowID, count: Int)] = []
    /// The next row's id.
    private var nextID = RowID()
    private var metadata: [Field] = []
    private var losses = LossLog()
    /// `INSERT INTO table VALUES(`.
    private let rowPrefix: [UInt8]
    /// The last section written and its literal: items of a section follow one another.
    private var lastSection = ""
    private var lastSectionLiteral: [UInt8] = Array("''".utf8)
    /// The custom statuses written and their literals.
    private var customStatusLiterals: [Unicode.Scalar: [UInt8]] = [:]

    /// What `finish` learns that a write into an existing dump needs to know.
    final class Facts {
        var remakesTable = false
        /// Whether the header assumed (`Assumption`) is the one written: false where the
        /// bytes written are not the new dump's.
        var assumptionHeld = true
    }
    private let facts: Facts?

    /// The header of a dump this writer's output is compared with (its bytes before the first
    /// row), and the field keys of its columns: a writer that assumes them writes the header
    /// first and each row as it comes, with a value for every column, where it would hold
    /// the rows until the end to learn the columns. Where the list gives a key a column out
    /// of that order or gives it none, the writer stops (`Assumption.Failed`); where the
    /// header it would write is another, `Facts.assumptionHeld` says so after `finish`.
    struct Assumption {
        let header: [UInt8]
        let keys: [String]

        /// Thrown where the list's keys are not the assumed ones in order.
        struct Failed: Error {}
    }
    private let assumed: [UInt8]?
    /// How many of the keys have had a value, in the order of their columns.
    private var valued = 0
    /// Whether the rows may go into the output after a guessed header (`guessHeader()`), which
    /// is tried once.
    private var guessesHeader: Bool
    /// The header written into the output before the rows, and the number of keys it has
    /// columns for; nil while none is.
    private var guessed: (header: [UInt8], keys: Int)? = nil

    init(
        sink: ByteSink, outputName: String, table: String = ListTable.ownName, spillDirectory: String? = nil,
        facts: Facts? = nil, assuming assumption: Assumption? = nil, guessesHeader: Bool = false
    ) {
        self.sink = sink
        self.guessesHeader = guessesHeader && assumption == nil
        self.facts = facts
        self.outputName = outputName
        self.table = table
        spill = RowSpill(directory: spillDirectory ?? NSTemporaryDirectory())
        rowPrefix = Array("INSERT INTO \(OwnTable.reference(table)) VALUES(".utf8)
        assumed = assumption?.header
        if let assumption {
            // The rows go straight to the output, after the header.
            keys = assumption.keys
            for (i, key) in keys.enumerated() where keyIndex[ExactText(key)] == nil { keyIndex[ExactText(key)] = i }
            kinds = Array(repeating: [], count: keys.count)
            slots = Array(repeating: -1, count: keys.count)
            fieldColumns = [(0, keys.count)]
            assumption.header.withUnsafeBufferPointer { self.sink.write($0) }
            rows = self.sink
        }
    }

    mutating func begin(metadata: [Field]) { self.metadata = metadata }
    mutating func end() {}

    var takesPlainNames: Bool { true }

    /// Writes the start of an item's row at `depth` (taken as one below the item before when
    /// it is deeper, as `ListBuilder` takes it): its id, parent and position, and the `,`
    /// before its name.
    private mutating func startRow(depth: Int) {
        let depth = min(max(depth, 0), levels.count)
        if levels.count > depth + 1 { levels.removeLast(levels.count - depth - 1) }
        if levels.count == depth { levels.append((nextID, 0)) }
        let id = nextID
        nextID.increment()
        let position = levels[depth].count
        levels[depth] = (id, position + 1)
        let parent = depth > 0 ? levels[depth - 1].id : nil
        rowPrefix.withUnsafeBufferPointer { prefix in
            // The prefix, the id and the parent (24 digits at most each), the position and
            // three commas.
            rows.write(upTo: prefix.count + 2 * 24 + 20 + 3) { start in
                var pen = BytePen(at: start)
                pen.put(prefix)
                id.write(to: &pen)
                pen.put(byte: UInt8(ascii: ","))
                if let parent { parent.write(to: &pen) } else { pen.put("NULL") }
                pen.put(byte: UInt8(ascii: ","))
                pen.decimal(position)
                pen.put(byte: UInt8(ascii: ","))
                return start.distance(to: pen.at)
            }
        }
    }

    /// The checked, status and section columns.
    private mutating func writeStatus(_ status: TodoStatus, section: String?) {
        if let section { noteSection(section) }
        writeStatus(status, hasSection: section != nil)
    }

    /// The status's columns, and the section's: `lastSectionLiteral` if `hasSection`.
    private mutating func writeStatus(_ status: TodoStatus, hasSection: Bool) {
        if case .custom(let s) = status {
            rows.write(static: ",0,")
            customStatusLiteral(s).withUnsafeBufferPointer { rows.write($0) }
            rows.write(byte: UInt8(ascii: ","))
        } else {
            rows.write(static: status == .done ? ",1,NULL," : ",0,NULL,")
        }
        guard hasSection else { return rows.write(static: "NULL") }
        lastSectionLiteral.withUnsafeBufferPointer { rows.write($0) }
    }

    /// Makes `lastSectionLiteral` the literal of `section`.
    private mutating func noteSection(_ section: String) {
        guard !section.sameBytes(as: lastSection) else { return }
        lastSection = section
        lastSectionLiteral = Self.literal(section)
    }

    private mutating func customStatusLiteral(_ status: Unicode.Scalar) -> [UInt8] {
        if let literal = customStatusLiterals[status] { return literal }
        let literal = Self.literal(String(status))
        customStatusLiterals[status] = literal
        return literal
    }

    private static func literal(_ text: String) -> [UInt8] {
        var literal = ByteSink()
        SQLValue.text(text).writeLiteral(to: &literal)
        return literal.buffer
    }

    private mutating func endRow() throws {
        if assumed != nil { return rows.write(static: ");\n") }
        rowEnds.append(spill.count + rows.byteCount)
        rows.write(static: ");\n")
        guard rows.byteCount >= RowSpill.threshold else { return }
        if guessesHeader {
            guessesHeader = false
            guessHeader()
        }
        spill.take(&rows)
    }

    /// Before the rows first leave memory: where the output is a file this writer has written
    /// nothing to, writes into it the header the keys so far give, and makes it where the rows
    /// go (`RowSpill.useOutput`). The rows so far get their missing trailing `NULL`s now.
    private mutating func guessHeader() {
        guard let own = try? ownTable(), let file = sink.flushedFile(), lseek(file, 0, SEEK_CUR) == 0 else { return }
        let header = Array(Self.header(own).utf8)
        header.withUnsafeBufferPointer { sink.write($0) }
        guard sink.flushedFile() != nil, lseek(file, 0, SEEK_CUR) == off_t(header.count) else { return }
        guessed = (header, keys.count)
        if fieldColumns.count > 1 {
            var padded = ByteSink()
            padded.reserveCapacity(rows.byteCount + 5 * keys.count * fieldColumns.last!.row)
            rows.withBytes { bytes in
                Self.writePadded(
                    { from, to, out in out.write(UnsafeBufferPointer(rebasing: bytes[from..<to])) }, total: bytes.count,
                    rowEnds: &rowEnds, fieldColumns: fieldColumns, keys: keys.count, to: &padded)
            }
            rows = padded
            fieldColumns = [(0, keys.count)]
        }
        spill.useOutput(file)
    }

    /// Writes the rows (`read` writes their bytes from one offset to another; `total` of
    /// them) into `out`, each row before the last key's first value with the `NULL`s of the
    /// columns added after it (of `keys` in all); `rowEnds` become the ends of the rows written.
    private static func writePadded(
        _ read: (Int, Int, inout ByteSink) -> Void, total: Int, rowEnds: inout [Int],
        fieldColumns: [(row: Int, count: Int)], keys all: Int, to out: inout ByteSink
    ) {
        let start = out.byteCount
        var at = 0
        var run = 0
        for row in 0..<fieldColumns.last!.row {
            while fieldColumns[run + 1].row <= row { run += 1 }
            read(at, rowEnds[row], &out)
            for _ in fieldColumns[run].count..<all { out.write(static: ",NULL") }
            at = rowEnds[row]
            rowEnds[row] = out.byteCount - start
        }
        let shift = out.byteCount - start - at
        if shift > 0 { for row in fieldColumns.last!.row..<rowEnds.count { rowEnds[row] += shift } }
        read(at, total, &out)
    }

    /// The dump's text before its rows.
    private static func header(_ own: OwnTable) -> String {
        "PRAGMA foreign_keys=OFF;\nBEGIN TRANSACTION;\n" + own.createStatement + ";\n"
    }

    /// The table the keys so far make, its column names checked.
    private func ownTable() throws -> OwnTable {
        var kindsByKey: [ExactText: Set<String>] = [:]
        for (key, kinds) in zip(keys, kinds) { kindsByKey[ExactText(key)] = kinds }
        let own = OwnTable(keys: keys, kinds: kindsByKey, name: table)
        try own.checkColumnNames()
        return own
    }

    mutating func item(_ item: TodoItem, depth: Int) throws {
        startRow(depth: depth)
        let levels = self.levels
        try placeFields(item.fields) {
            ItemPositions.describe(levels.map { String($0.count) }.joined(separator: "."), item)
        }
        SQLValue.text(item.name).writeLiteral(to: &rows)
        writeStatus(item.status, section: item.section)
        writeFieldColumns(item.fields)
        try endRow()
    }

    /// An item with fields whose name is plain: as `item(_:depth:)` writes it, from the
    /// name's bytes (with no string or item made of it).
    mutating func item(
        plainName: UnsafeBufferPointer<UInt8>, fields: [Field], status: TodoStatus, section: String?, depth: Int
    ) throws {
        let section = depth == 0 ? section : nil
        startRow(depth: depth)
        let levels = self.levels
        try placeFields(fields) {
            ItemPositions.describe(
                levels.map { String($0.count) }.joined(separator: "."),
                TodoItem(plainName: plainName, fields: fields, status: status, section: section))
        }
        if ByteScan.containsSQLSpecial(plainName) {
            SQLValue.text(String(decoding: plainName, as: UTF8.self)).writeLiteral(to: &rows)
        } else {
            rows.write(byte: UInt8(ascii: "'"))
            rows.write(plainName)
            rows.write(byte: UInt8(ascii: "'"))
        }
        writeStatus(status, section: section)
        writeFieldColumns(fields)
        try endRow()
    }

    /// Gives each key of `fields` its column (a key's first value gives it one, in this row
    /// already), notes which field fills each column (the first with its key, as
    /// `value(exactKey:)` takes it), and notes what the dump cannot hold, naming the item
    /// `describe` gives.
    private mutating func placeFields(_ fields: [Field], describe: () -> String) throws {
        for (i, field) in fields.enumerated() {
            let key = ExactText(field.key)
            var column = keyIndex[key]
            if column == nil && field.value != .null {
                if assumed != nil { throw Assumption.Failed() }
                column = keys.count
                keyIndex[key] = keys.count
                keys.append(field.key)
                kinds.append([])
                // The column's value is the item's first with the key, a null before it too.
                slots.append(fields[..<i].firstIndex { $0.key.utf8.elementsEqual(field.key.utf8) } ?? -1)
                if fieldColumns.last!.row == rowEnds.count {
                    fieldColumns[fieldColumns.count - 1].count = keys.count
                } else {
                    fieldColumns.append((rowEnds.count, keys.count))
                }
            }
            if let column {
                if field.value != .null {
                    kinds[column].insert(OwnTable.kind(of: field.value))
                    // A key's first value gives it the next column.
                    if column >= valued {
                        if column > valued { throw Assumption.Failed() }
                        valued += 1
                    }
                }
                if slots[column] < 0 { slots[column] = i }
            }
            losses.note(field.value, key: column, item: describe)
        }
    }

    /// Each field column's value in the row: the field `placeFields` chose for it, or NULL.
    private mutating func writeFieldColumns(_ fields: [Field]) {
        for column in slots.indices {
            rows.write(byte: UInt8(ascii: ","))
            if slots[column] >= 0 {
                OwnTable.sqlValue(fields[slots[column]].value).writeLiteral(to: &rows)
                slots[column] = -1
            } else {
                rows.write(static: "NULL")
            }
        }
    }

    mutating func item(plainName: UnsafeBufferPointer<UInt8>, status: TodoStatus, section: String?, depth: Int) throws {
        let section = depth == 0 ? section : nil
        if let section { noteSection(section) }
        try item(plainName: plainName, status: status, hasSection: section != nil, depth: depth)
    }

    /// Plain items of a checklist, as `item(plainName:status:section:depth:)` writes each;
    /// a section is taken once for each run of items in it, by its index among `sections`,
    /// not copied and compared again for each item.
    mutating func items(plain: ArraySlice<PlainItem>, text: UnsafeBufferPointer<UInt8>, sections: [String]) throws {
        var taken = -1
        for item in plain {
            let hasSection = item.depth == 0 && item.section >= 0
            if hasSection && item.section != taken {
                noteSection(sections[item.section])
                taken = item.section
            }
            try self.item(
                plainName: UnsafeBufferPointer(rebasing: text[item.nameStart..<item.nameEnd]), status: item.status,
                hasSection: hasSection, depth: item.depth)
        }
    }

    /// A plain item whose section, if `hasSection`, `noteSection` has taken.
    private mutating func item(
        plainName: UnsafeBufferPointer<UInt8>, status: TodoStatus, hasSection: Bool, depth: Int
    ) throws {
        startRow(depth: depth)
        if !ByteScan.containsSQLSpecial(plainName) {
            // The common item: its name, status, section and empty fields in one write.
            var statusLiteral: [UInt8] = []
            if case .custom(let s) = status { statusLiteral = customStatusLiteral(s) }
            let nulls = keys.count
            lastSectionLiteral.withUnsafeBufferPointer { sectionLiteral in
                // `'`, the name, `',0,` or `',1,NULL,` with the status literal and `,`, the
                // section's literal or `NULL`, and `,NULL` for each field column.
                let size =
                    plainName.count + 10 + statusLiteral.count + (hasSection ? sectionLiteral.count : 4) + 5 * nulls
                rows.write(upTo: size) { start in
                    var pen = BytePen(at: start)
                    pen.put(byte: UInt8(ascii: "'"))
                    pen.put(plainName)
                    if case .custom = status {
                        pen.put("',0,")
                        statusLiteral.withUnsafeBufferPointer { pen.put($0) }
                        pen.put(byte: UInt8(ascii: ","))
                    } else {
                        pen.put(status == .done ? "',1,NULL," : "',0,NULL,")
                    }
                    if hasSection { pen.put(sectionLiteral) } else { pen.put("NULL") }
                    for _ in 0..<nulls { pen.put(",NULL") }
                    return start.distance(to: pen.at)
                }
            }
            return try endRow()
        }
        SQLValue.text(String(decoding: plainName, as: UTF8.self)).writeLiteral(to: &rows)
        writeStatus(status, hasSection: hasSection)
        for _ in keys.indices { rows.write(static: ",NULL") }
        try endRow()
    }

    /// Whether loading this dump and writing the same list into its table would make the
    /// table again (`OwnTable.update(in:table:)`): a key whose values are of several kinds,
    /// one of them a boolean, a date or JSON, which a column of no type does not give back as
    /// such. Every row is then written again, as the shell spells it.
    var remakesTable: Bool {
        kinds.contains { $0.count > 1 && !$0.isDisjoint(with: ["BOOLEAN", "DATETIME", "JSON"]) }
    }

    mutating func finish() throws -> Written {
        let own = try ownTable()
        let header = Self.header(own)
        if let assumed {
            sink = rows
            facts?.assumptionHeld = valued == keys.count && Array(header.utf8) == assumed
            return try finish(own: own)
        }
        if let guessed {
            try spill.checkOutput(named: outputName)
            if guessed.keys == keys.count && Array(header.utf8) == guessed.header {
                rows.withBytes { sink.write($0) }
                return try finish(own: own)
            }
            // Another header: the rows written so far go to a file of their own.
            try spill.moveOut()
            self.guessed = nil
        }
        sink.write(header)
        // Rows before the last key's first value lack the columns added after them.
        let total = spill.count + rows.byteCount
        var ends = rowEnds
        try spill.reading(after: rows) { read in
            Self.writePadded(
                read, total: total, rowEnds: &ends, fieldColumns: fieldColumns, keys: keys.count, to: &sink)
        }
        return try finish(own: own)
    }

    /// Ends the dump after its rows.
    private mutating func finish(own: OwnTable) throws -> Written {
        sink.write("COMMIT;\n")
        var written = Written(bytes: try sink.finish(path: outputName))
        if !metadata.isEmpty { written.warnings.append(.metadataLeftOut(metadata, by: "an SQL dump")) }
        written.warnings += losses.warnings(declaredTypes: own.fieldColumnTypes)
        facts?.remakesTable = remakesTable
        return written
    }
}

/// A row's id as its decimal digits, which count up as rows are added: making them from the
/// number for every row (and its parent) was most of writing a row's numbers.
private struct RowID {
    /// The digits, right-aligned in 24 bytes (an id has at most 19), zeros before them.
    private var words: (UInt64, UInt64, UInt64) = (0x3030_3030_3030_3030, 0x3030_3030_3030_3030, 0x3130_3030_3030_3030)
    /// Where the first digit is.
    private var first = 23

    /// The next id.
    mutating func increment() {
        withUnsafeMutableBytes(of: &words) { raw in
            var i = 23
            while raw[i] == UInt8(ascii: "9") {
                raw[i] = UInt8(ascii: "0")
                i -= 1
            }
            raw[i] += 1
            first = min(first, i)
        }
    }

    @inline(__always)
    func write(to pen: inout BytePen) {
        withUnsafeBytes(of: words) { raw in
            pen.put(
                UnsafeBufferPointer(
                    start: raw.baseAddress!.assumingMemoryBound(to: UInt8.self) + first, count: 24 - first))
        }
    }
}

/// The rows of a dump moved out of memory, once they are many: into an unlinked temporary
/// file, or into the output after a guessed header (`useOutput`).
private final class RowSpill {
    /// Bytes moved out of memory.
    private(set) var count = 0
    private var file: Int32 = -1
    /// Whether `file` is the output's (not this object's), the rows after its header.
    private var isOutput = false
    /// The first error writing into the output.
    private var outputError: Int32 = 0
    private let directory: String
    /// Whether the file could not be made or written: the rows stay in memory.
    private var failed = false
    static let threshold = 4 << 20

    init(directory: String) { self.directory = directory }

    deinit { if file >= 0 && !isOutput { close(file) } }

    private func failure(_ code: Int32) -> ConversionError {
        .io(path: directory, reason: "a temporary file for the rows: " + String(cString: strerror(code)))
    }

    /// The rows go on into the output open as `output`, after what is written there.
    func useOutput(_ output: Int32) {
        precondition(count == 0 && file < 0)
        file = output
        isOutput = true
    }

    /// Throws the first error writing the rows into the output, naming it `name`.
    func checkOutput(named name: String) throws {
        if outputError != 0 {
            throw ConversionError.io(
                path: name,
                reason: String(cString: strerror(outputError)) + " (nothing was written; the file is as it was)")
        }
    }

    /// Moves the rows written into the output to a file of their own, and empties the output.
    func moveOut() throws {
        precondition(isOutput)
        let output = file
        let end = lseek(output, 0, SEEK_CUR)
        guard end >= off_t(count), let own = makeFile() else { throw failure(errno) }
        var offset = end - off_t(count)
        while offset < end {
            let n = sendfile(own, output, &offset, Int(end - offset))
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else {
                let code = n < 0 ? errno : EIO
                close(own)
                throw failure(code)
            }
        }
        guard ftruncate(output, 0) == 0, lseek(output, 0, SEEK_SET) == 0 else {
            let code = errno
            close(own)
            throw ConversionError.io(path: directory, reason: String(cString: strerror(code)))
        }
        file = own
        isOutput = false
    }

    /// An unlinked temporary file in `directory`, open for reading and writing; nil where
    /// none can be made.
    private func makeFile() -> Int32? {
        let path = (directory.hasSuffix("/") ? directory : directory + "/") + ".todofmt-rows-XXXXXX"
        var template = Array(path.utf8CString)
        var made = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard made >= 0 else { return nil }
        template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
        // Not as standard input, output or error, when one of those is closed: what is
        // written there would go into this file.
        if made <= 2 {
            let moved = fcntl(made, F_DUPFD_CLOEXEC, 3)
            close(made)
            made = moved
        }
        return made >= 0 ? made : nil
    }

    /// Moves the rows in `rows` out of memory. Where no file can be made or written (no
    /// room, no temporary directory) they stay in memory, as they did before the file was
    /// made: the file only spares memory. A failed write into the output is an error
    /// (`checkOutput`), and the rows are dropped.
    func take(_ rows: inout ByteSink) {
        guard !failed else { return }
        if file < 0 {
            guard let made = makeFile() else {
                failed = true
                return
            }
            file = made
        }
        var code: Int32 = 0
        rows.withBytes { bytes in
            var done = 0
            while done < bytes.count {
                let n = Foundation.write(file, bytes.baseAddress! + done, bytes.count - done)
                if n < 0 && errno == EINTR { continue }
                guard n > 0 else {
                    code = n < 0 ? errno : EIO
                    return
                }
                done += n
            }
        }
        // (Bytes a failed write left in the file past `count` are never read.)
        if code != 0 {
            guard isOutput else {
                failed = true
                return
            }
            if outputError == 0 { outputError = code }
        }
        count += rows.byteCount
        rows.truncate(to: 0)
    }

    /// Calls `body` with a function that writes the rows' bytes from one offset to another
    /// (the file's, then those of `rows` after them) into a sink; offsets must not go back.
    func reading(after rows: ByteSink, _ body: (_ read: (Int, Int, inout ByteSink) -> Void) throws -> Void) throws {
        precondition(!isOutput)
        let chunkSize = 1 << 20
        let chunk = UnsafeMutablePointer<UInt8>.allocate(capacity: file >= 0 ? chunkSize : 0)
        defer { chunk.deallocate() }
        var chunkStart = 0
        var chunkCount = 0
        var error: Int32 = 0
        let spilled = count
        try rows.withBytes { memory in
            try body { from, to, out in
                var from = from
                while from < min(to, spilled) && error == 0 {
                    if from < chunkStart || from >= chunkStart + chunkCount {
                        chunkStart = from
                        chunkCount = 0
                        let want = min(chunkSize, spilled - from)
                        while chunkCount < want {
                            let n = pread(file, chunk + chunkCount, want - chunkCount, off_t(from + chunkCount))
                            if n < 0 && errno == EINTR { continue }
                            guard n > 0 else {
                                error = n < 0 ? errno : EIO
                                return
                            }
                            chunkCount += n
                        }
                    }
                    let end = min(to, spilled, chunkStart + chunkCount)
                    out.write(UnsafeBufferPointer(start: chunk + (from - chunkStart), count: end - from))
                    from = end
                }
                if from < to { out.write(UnsafeBufferPointer(rebasing: memory[(from - spilled)..<(to - spilled)])) }
            }
        }
        if error != 0 { throw failure(error) }
    }
}

/// What the rows' values lose in SQLite (`SQLiteValueLoss`), noted as they are written.
/// Whether -0.0 becomes 0 depends on its column's type, known only at the end: those are
/// noted per column, and every warning takes its place by the first value it concerns.
private struct LossLog {
    private var log = WarningLog()
    /// For each warning of `log`, the value it first concerned.
    private var firstAt: [Int] = []
    /// -0.0 values by column (field key index): how many, and the first's number and item.
    private var negativeZeros: [Int: (count: Int, first: Int, item: String)] = [:]
    private var values = 0

    mutating func note(_ value: FieldValue, key: Int?, item: () -> String) {
        values += 1
        if case .double(let d) = value, d == 0, d.sign == .minus, let key {
            if negativeZeros[key] == nil { negativeZeros[key] = (0, values, item()) }
            negativeZeros[key]!.count += 1
            return
        }
        let before = log.warnings.count
        SQLiteValueLoss.note(value, declaredType: "", in: &log, item: item)
        if log.warnings.count > before { firstAt.append(values) }
    }

    /// The warnings, given the field columns' declared types (by key index).
    func warnings(declaredTypes: [String]) -> [ConversionWarning] {
        var found = zip(firstAt, log.warnings).map { (at: $0, warning: $1) }
        var zeros: (count: Int, first: Int, item: String)? = nil
        for (key, noted) in negativeZeros.sorted(by: { $0.value.first < $1.value.first })
        where SQLiteValueLoss.hasNumericAffinity(declaredTypes[key]) {
            zeros = zeros.map { ($0.count + noted.count, $0.first, $0.item) } ?? noted
        }
        if let zeros {
            var probe = WarningLog()
            SQLiteValueLoss.note(.double(-0.0), declaredType: "REAL", in: &probe) { zeros.item }
            var warning = probe.warnings[0]
            warning.count = zeros.count
            found.append((zeros.first, warning))
        }
        return found.sorted { $0.at < $1.at }.map(\.warning)
    }
}
