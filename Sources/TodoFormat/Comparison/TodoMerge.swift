import Foundation

/// A three-way merge of todo lists by item, as `todofmt merge` (git's merge driver) does it
/// (FORMAT.md section 13).
public enum TodoMerge {
    /// What a merge did.
    public struct Result: Sendable, Hashable {
        /// The merged file's bytes (empty when a merge of files left them in the file only).
        public var bytes: [UInt8]
        /// How many conflicts it holds (between conflict markers, in a text format).
        public var conflicts: Int
        /// What the format could not hold, when the merged list was written into ours.
        public var warnings: [ConversionWarning] = []
        /// Why a file with conflicts holds no markers (a binary format), when it holds none.
        public var unmerged: String? = nil
    }

    /// Merges three checklists: the items by item, the text around them by lines.
    ///
    /// The merged list is written into each of the three texts, changing only its items
    /// (`TodoDocument.update(with:)`), so they differ only in their prose, front matter and
    /// headings, which a line merge then merges as git would. An item both sides changed
    /// differently stands between conflict markers, alone: ours' lines, then theirs'.
    public static func checklists(base: String, ours: String, theirs: String, path: String = "<input>") throws -> Result
    {
        if let quick = quickMerge(base: Array(base.utf8), ours: Array(ours.utf8), theirs: Array(theirs.utf8)) {
            return Result(bytes: quick, conflicts: 0)
        }
        let documents = try [base, ours, theirs].map { try TodoDocument(parsing: $0, path: path) }
        let merge = ListMerge(
            base: documents[0].list.items, ours: documents[1].list.items, theirs: documents[2].list.items,
            notes: documents.map { $0.noteHashes() })
        let items = merge.items
        let lineEnding = Array(documents[1].lineEnding.utf8)
        let conflicts = merge.nodes.indices.filter { merge.nodes[$0].conflict != nil }
        // Each conflict (with the nested items the other side removed with it) as the same
        // lines in all three texts, so the line merge keeps them.
        let runs: [ClosedRange<Int>] = conflicts.map { k in
            var last = k
            while last + 1 < merge.nodes.count && merge.nodes[last + 1].inside { last += 1 }
            return k...last
        }
        let blocks: [[UInt8]] = runs.map { run in
            let conflict = merge.nodes[run.lowerBound].conflict
            var block = Array("<<<<<<< ours".utf8) + lineEnding
            if conflict != .removedByOurs {
                for k in run {
                    if let o = merge.nodes[k].ours { block += documents[1].ownLines(of: o, lineEnding: lineEnding) }
                }
            }
            block += Array("=======".utf8) + lineEnding
            if conflict != .removedByTheirs {
                for k in run {
                    if let t = merge.nodes[k].theirs { block += documents[2].ownLines(of: t, lineEnding: lineEnding) }
                }
            }
            block += Array(">>>>>>> theirs".utf8) + lineEnding
            return block
        }
        // The front matter as written, never written again: by lines, as git would (each
        // text keeps its own for the line merge below), and where the lines conflict (changes
        // to neighbouring keys) key by key (`mergedKeyLines`), else with the line conflicts.
        let heads = documents.map { Array($0.text.utf8.prefix($0.bodyStart)) }
        var mergedHead: [UInt8]? = nil
        if LineMerge(base: heads[0], ours: heads[1], theirs: heads[2], lineEnding: lineEnding).conflicts > 0 {
            mergedHead = mergedKeyLines(base: heads[0], ours: heads[1], theirs: heads[2])
            if let head = mergedHead, (try? TodoDocument(parsing: String(decoding: head, as: UTF8.self))) == nil {
                mergedHead = nil
            }
        }
        var texts: [[UInt8]] = []
        for (d, document) in documents.enumerated() {
            var written = document
            do {
                try written.update(with: TodoList(metadata: document.metadata, items: items))
            } catch {
                // The list cannot be written into this text: a merge by lines, as git's.
                let lines = LineMerge(
                    base: Array(base.utf8), ours: Array(ours.utf8), theirs: Array(theirs.utf8), lineEnding: lineEnding)
                return Result(bytes: lines.bytes, conflicts: lines.conflicts)
            }
            var text = written.replacingOwnLines(of: runs, with: blocks)
            if let mergedHead { text.replaceSubrange(0..<heads[d].count, with: mergedHead) }
            texts.append(text)
        }
        let lines = LineMerge(base: texts[0], ours: texts[1], theirs: texts[2], lineEnding: lineEnding)
        return Result(bytes: lines.bytes, conflicts: lines.conflicts + conflicts.count)
    }

    /// Merges the todo list files `base`, `ours` and `theirs` (any format, told by `format`,
    /// else by ours' content and extension) and writes the result into `ours`: a checklist's
    /// text atomically (temporary file and rename), another format's list through its
    /// minimal-change write-back. Lists in other text formats whose items conflict are merged
    /// by lines, with conflict markers; a binary file with conflicts is left as ours was.
    public static func files(
        base: URL, ours: URL, theirs: URL, format: DocumentFormat? = nil, options: ListOptions = ListOptions()
    ) throws -> Result {
        let inputs = [try Input.reading(base.filePath), Input(file: ours.filePath), try Input.reading(theirs.filePath)]
        let id = FormatRegistry.inputFormat(given: format, path: ours.filePath, head: try inputs[1].head())
        if id == .markdown {
            if try QuickFileMerge.merge(base: inputs[0], ours: inputs[1], theirs: inputs[2]) {
                return Result(bytes: [], conflicts: 0)
            }
            if let result = try QuickFileMerge.windowed(
                base: inputs[0], ours: inputs[1], theirs: inputs[2], path: ours.filePath)
            {
                return result
            }
            let texts = try inputs.map { try $0.text() }
            let result = try checklists(base: texts[0], ours: texts[1], theirs: texts[2], path: ours.filePath)
            if result.bytes != Array(texts[1].utf8) { try write(result.bytes, to: ours.filePath) }
            return result
        }
        let lists = try [base, ours, theirs].map { url -> TodoList in
            // An empty file (git's base when both sides added the file) is an empty list.
            var info = stat()
            if stat(url.filePath, &info) == 0, info.st_size == 0 { return TodoList() }
            return try TodoList(contentsOf: url, format: id, options: options)
        }
        let merge = ListMerge(base: lists[0].items, ours: lists[1].items, theirs: lists[2].items)
        let metadata = mergedFields(base: lists[0].metadata, ours: lists[1].metadata, theirs: lists[2].metadata)
        let textual: Set<DocumentFormat> = [.yaml, .json, .plist, .sql]
        if merge.conflicts > 0 || metadata == nil {
            guard textual.contains(id) else {
                return Result(
                    bytes: try inputs[1].bytes(), conflicts: max(1, merge.conflicts),
                    unmerged: "items conflict, and a binary file holds no markers; ours is left as it was")
            }
            let bytes = try inputs.map { try $0.bytes() }
            let lineEnding: [UInt8] =
                bytes[1].contains(13) && bytes[1].firstIndex(of: 10).map { $0 > 0 && bytes[1][$0 - 1] == 13 } == true
                ? [13, 10] : [10]
            let lines = LineMerge(base: bytes[0], ours: bytes[1], theirs: bytes[2], lineEnding: lineEnding)
            try write(lines.bytes, to: ours.filePath)
            return Result(bytes: lines.bytes, conflicts: max(1, lines.conflicts))
        }
        let merged = TodoList(metadata: metadata ?? [], items: merge.items)
        if id == .sqlite {
            return try databases(
                base: base, ours: ours, theirs: theirs, merged: merged, oursList: lists[1], options: options)
        }
        // Outside the list, the files are merged too: the merged list is written into a copy
        // of each, so that they differ only outside it, and those are merged by lines (a text
        // format) or taken from the one side that changed them (a binary one).
        var info = stat()
        guard stat(base.filePath, &info) == 0, info.st_size > 0 else {
            var warnings: [ConversionWarning] = []
            if merged != lists[1] { warnings = try merged.write(to: ours, format: id, options: options) }
            return Result(bytes: try Input(file: ours.filePath).bytes(), conflicts: 0, warnings: warnings)
        }
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        var written: [[UInt8]] = []
        var warnings: [ConversionWarning] = []
        for (k, url) in [base, ours, theirs].enumerated() {
            let copy = try scratch.copy(url, as: "\(k)-" + ours.lastPathComponent)
            let found = try merged.write(to: copy, format: id, options: options)
            if k == 1 { warnings = found }
            written.append(try Input(file: copy.filePath).bytes())
        }
        let result: [UInt8]
        var conflicts = 0
        if textual.contains(id) {
            let lineEnding: [UInt8] =
                written[1].firstIndex(of: 10).map { $0 > 0 && written[1][$0 - 1] == 13 } == true ? [13, 10] : [10]
            let lines = LineMerge(base: written[0], ours: written[1], theirs: written[2], lineEnding: lineEnding)
            result = lines.bytes
            conflicts = lines.conflicts
        } else if same(written[2], written[0], id) || same(written[2], written[1], id) {
            result = written[1]
        } else if same(written[1], written[0], id) {
            result = written[2]
        } else {
            // Both changed what is outside the list, in a binary file: ours stays as it was.
            return Result(
                bytes: try inputs[1].bytes(), conflicts: 1, unmerged: "both sides changed the file outside its list")
        }
        if result != (try inputs[1].bytes()) { try write(result, to: ours.filePath) }
        return Result(bytes: result, conflicts: conflicts, warnings: warnings)
    }

    /// Whether two files (a binary format) hold the same: a binary property list compared as
    /// the values it holds, since its write-back may order its objects differently.
    static func same(_ a: [UInt8], _ b: [UInt8], _ id: DocumentFormat) -> Bool {
        if a == b { return true }
        guard id == .bplist,
            let x = try? PropertyListSerialization.propertyList(from: Data(a), options: [], format: nil) as? NSObject,
            let y = try? PropertyListSerialization.propertyList(from: Data(b), options: [], format: nil) as? NSObject
        else { return false }
        return x.isEqual(y)
    }

    /// Two databases merged: the merged list is written into ours, or into theirs when only
    /// theirs changed the database outside the list (another table, the schema); when both
    /// did, differently, ours is left as it was, a conflict.
    static func databases(
        base: URL, ours: URL, theirs: URL, merged: TodoList, oursList: TodoList, options: ListOptions
    ) throws -> Result {
        let outside = try [base, ours, theirs].map { try SQLiteOutside(url: $0, options: options) }
        var target = ours
        if outside[2] != outside[0] && outside[2] != outside[1] {
            guard outside[1] == outside[0] else {
                return Result(
                    bytes: [], conflicts: 1,
                    unmerged:
                        "both sides changed the database outside its list (another table or the schema); ours is left as it was"
                )
            }
            target = theirs
        }
        var warnings: [ConversionWarning] = []
        if target == ours {
            if merged != oursList { warnings = try merged.write(to: ours, format: .sqlite, options: options) }
            return Result(bytes: [], conflicts: 0, warnings: warnings)
        }
        // Theirs, with the merged list, replaces ours.
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let copy = try scratch.copy(theirs, as: "merged-" + ours.lastPathComponent)
        warnings = try merged.write(to: copy, format: .sqlite, options: options)
        try write(try Input(file: copy.filePath).bytes(), to: ours.filePath)
        return Result(bytes: [], conflicts: 0, warnings: warnings)
    }

    /// The metadata with each side's changes of its keys; nil when both changed a key differently.
    /// Front matters (their `---` lines included) merged key by key as they are written:
    /// each top-level key's lines (the comment and blank lines before it, its line, and the
    /// indented lines after it: nested values) are ours', or theirs' where only theirs
    /// changed, added or removed them; comment lines after the last key count as one more
    /// key. Nil when a key's lines changed on both sides differently, or a key is there twice.
    static func mergedKeyLines(base: [UInt8], ours: [UInt8], theirs: [UInt8]) -> [UInt8]? {
        /// The front matter's lines between its `---` lines, by key, in order.
        func blocks(_ head: [UInt8]) -> (
            open: ArraySlice<UInt8>, keys: [(String, ArraySlice<UInt8>)], close: ArraySlice<UInt8>
        )? {
            let lines = ByteScan.lineRanges(head)
            guard lines.count >= 2 else { return nil }
            var keys: [(String, ArraySlice<UInt8>)] = []
            var blockStart = lines[1].lowerBound
            var key: String? = nil  // the current block's key, once its key line came
            var pendingStart: Int? = nil  // comment or blank lines since the key's nested lines
            for line in lines[1..<(lines.count - 1)] {
                let first = head[line.lowerBound]
                if first == 32 || first == 9 {  // a nested line: the key's (comments before it too)
                    pendingStart = nil
                    continue
                }
                if first == 35 || first == 10 || first == 13 {  // a comment or blank line
                    if pendingStart == nil { pendingStart = line.lowerBound }
                    continue
                }
                guard let name = Self.keyName(head[line]) else { return nil }
                if let current = key {
                    let end = pendingStart ?? line.lowerBound
                    keys.append((current, head[blockStart..<end]))
                    blockStart = end
                }
                key = name
                pendingStart = nil
            }
            let close = lines[lines.count - 1].lowerBound
            if let current = key {
                let end = pendingStart ?? close
                keys.append((current, head[blockStart..<end]))
                blockStart = end
            }
            if blockStart < close { keys.append(("#", head[blockStart..<close])) }  // comments at the end
            guard Set(keys.map(\.0)).count == keys.count else { return nil }
            return (head[lines[0]], keys, head[lines[lines.count - 1]])
        }
        guard let b = blocks(base), let o = blocks(ours), let t = blocks(theirs) else { return nil }
        func find(_ key: String, _ side: [(String, ArraySlice<UInt8>)]) -> ArraySlice<UInt8>? {
            side.first { $0.0 == key }?.1
        }
        var result = o.keys
        for (k, (key, now)) in t.keys.enumerated() {
            let was = find(key, b.keys)
            let mine = find(key, result)
            if now == was || now == mine { continue }
            guard mine == was else { return nil }
            if let i = result.firstIndex(where: { $0.0 == key }) {
                result[i].1 = now
            } else if k > 0, let i = result.firstIndex(where: { $0.0 == t.keys[k - 1].0 }) {
                result.insert((key, now), at: i + 1)  // after the key theirs put it after
            } else {
                result.append((key, now))
            }
        }
        for (key, was) in b.keys where find(key, t.keys) == nil {
            guard let mine = find(key, result) else { continue }
            guard mine == was else { return nil }
            result.removeAll { $0.0 == key }
        }
        return Array(o.open) + result.flatMap { Array($0.1) } + Array(o.close)
    }

    /// The key a top-level front matter line starts (`title: x`, `"a:b": 1`), as written;
    /// nil when the line starts no key (a list item, a document marker, no `:` outside quotes).
    private static func keyName(_ line: ArraySlice<UInt8>) -> String? {
        guard let first = line.first, first != UInt8(ascii: "-"), first != UInt8(ascii: "["),
            first != UInt8(ascii: "{")
        else { return nil }
        var quote: UInt8? = nil
        var i = line.startIndex
        while i < line.endIndex {
            let c = line[i]
            if let q = quote {
                if c == q { quote = nil }
            } else if c == UInt8(ascii: "\"") || c == UInt8(ascii: "'") {
                quote = c
            } else if c == UInt8(ascii: ":")
                && (i + 1 == line.endIndex || [32, 9, 10, 13].contains(line[i + 1]))
            {
                return String(decoding: line[line.startIndex..<i], as: UTF8.self)
            }
            i += 1
        }
        return nil
    }

    static func mergedFields(base: [Field], ours: [Field], theirs: [Field]) -> [Field]? {
        var result = ours
        for (key, was, now) in ListDiff.fieldChanges(base, theirs) {
            let mine = ours[key: key]
            if mine == now { continue }
            guard mine == was else { return nil }
            if let index = result.firstIndex(where: { $0.key == key }) {
                if let now { result[index].value = now } else { result.remove(at: index) }
            } else if let now {
                result.append(Field(key, now))
            }
        }
        return result
    }

    static func write(_ bytes: [UInt8], to path: String) throws {
        let output = try Output.file(path)
        do {
            var sink = output.makeSink()
            bytes.withUnsafeBufferPointer { sink.write($0) }
            _ = try sink.finish(path: output.name)
            try output.commit()
        } catch {
            output.discard()
            throw error
        }
    }

    /// Whether two stretches of text have a line that is not blank in common, indentation and
    /// line endings aside.
    static func sharesLine(_ x: ArraySlice<UInt8>, _ y: ArraySlice<UInt8>) -> Bool {
        func lines(_ text: ArraySlice<UInt8>) -> Set<ArraySlice<UInt8>> {
            var result: Set<ArraySlice<UInt8>> = []
            for line in text.split(separator: 10) {
                let trimmed = line.drop(while: { $0 == 32 || $0 == 9 }).reversed().drop(while: { $0 == 13 || $0 == 32 })
                    .reversed()
                if !trimmed.isEmpty { result.insert(ArraySlice(trimmed)) }
            }
            return result
        }
        guard !x.isEmpty, !y.isEmpty else { return false }
        return !lines(x).isDisjoint(with: lines(y))
    }

    /// When ours and theirs each changed one stretch of lines of the base and a top-level
    /// task line that neither changed lies between the stretches, the items they changed are
    /// different items: both stretches go into the base as they are. Nil otherwise.
    static func quickMerge(base: [UInt8], ours: [UInt8], theirs: [UInt8]) -> [UInt8]? {
        // Ours is the base: theirs is the merge; theirs is the base (or ours): ours is.
        if ours == base { return theirs }
        if theirs == base || theirs == ours { return ours }
        func changed(_ other: [UInt8]) -> (start: Int, baseEnd: Int, otherEnd: Int) {
            var prefix = 0
            let shortest = min(base.count, other.count)
            base.withUnsafeBufferPointer { b in
                other.withUnsafeBufferPointer { o in
                    while prefix < shortest && b[prefix] == o[prefix] { prefix += 1 }
                }
            }
            var suffix = 0
            base.withUnsafeBufferPointer { b in
                other.withUnsafeBufferPointer { o in
                    while suffix < shortest - prefix && b[b.count - 1 - suffix] == o[o.count - 1 - suffix] {
                        suffix += 1
                    }
                }
            }
            // Whole lines: back to a line's start, on to a line's end.
            var start = prefix
            while start > 0 && base[start - 1] != 10 { start -= 1 }
            var baseEnd = base.count - suffix
            var otherEnd = other.count - suffix
            while baseEnd < base.count && (baseEnd == 0 || base[baseEnd - 1] != 10) {
                baseEnd += 1
                otherEnd += 1
            }
            return (start, baseEnd, otherEnd)
        }
        var a = changed(ours)
        var b = changed(theirs)
        var first = ours
        var second = theirs
        if a.start > b.start {
            swap(&a, &b)
            swap(&first, &second)
        }
        guard a.baseEnd <= b.start, b.start > 0 else { return nil }
        // A line in between that starts a top-level task item; and no front matter edits.
        var line = a.baseEnd
        var found = false
        while line < b.start && !found {
            if line + 3 <= b.start, [45, 42, 43].contains(base[line]), base[line + 1] == 32, base[line + 2] == 91 {
                found = true
            }
            while line < b.start && base[line] != 10 { line += 1 }
            line += 1
        }
        guard found, a.start > 0 || !base.starts(with: Array("---".utf8)) else { return nil }
        // Both wrote the same line (the same item added at two places): the merge by item.
        guard !sharesLine(first[a.start..<a.otherEnd], second[b.start..<b.otherEnd]) else { return nil }
        var result = [UInt8]()
        result.reserveCapacity(base.count + (a.otherEnd - a.baseEnd) + (b.otherEnd - b.baseEnd))
        result.append(contentsOf: base[..<a.start])
        result.append(contentsOf: first[a.start..<a.otherEnd])
        result.append(contentsOf: base[a.baseEnd..<b.start])
        result.append(contentsOf: second[b.start..<b.otherEnd])
        result.append(contentsOf: base[b.baseEnd...])
        return result
    }
}

extension TodoDocument {
    /// The lines of item `index` without its nested items: from its marker's line to the end
    /// of its name's last line, and its notes (`notesRange`), ending with a line ending.
    func ownLines(of index: Int, lineEnding: [UInt8]) -> [UInt8] {
        text.withBytes { bytes in
            var lines = Array(bytes[ownLineRange(of: index, in: bytes).lowerBound..<notesEnd(of: index, in: bytes)])
            if lines.last != 10 { lines += lineEnding }
            return lines
        }
    }

    /// For each item, a hash of its notes (`notesEnd`). An item one side removes while the
    /// other changed its notes is a conflict, as git's merge by lines would make it.
    func noteHashes() -> [Int] {
        text.withBytes { bytes in
            records.indices.map { index in
                var hasher = Hasher()
                let notes = ownLineRange(of: index, in: bytes).upperBound..<notesEnd(of: index, in: bytes)
                hasher.combine(bytes: UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: bytes[notes])))
                return hasher.finalize()
            }
        }
    }

    /// Where item `index`'s notes end: the lines after its own that are indented past its
    /// first line's indentation (paragraphs, code, plain bullets inside it), up to the next
    /// item, without trailing blank lines (their end: its own lines' end when it has none).
    private func notesEnd(of index: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Int {
        var indent = records[index].lineStart
        while indent < bytes.count && (bytes[indent] == 32 || bytes[indent] == 9) { indent += 1 }
        let width = indent - records[index].lineStart
        let limit = index + 1 < records.count ? records[index + 1].lineStart : bytes.count
        var line = ownLineRange(of: index, in: bytes).upperBound
        var kept = line  // the end of the last line that is not blank
        while line < limit {
            var end = line
            while end < limit && bytes[end] != 10 { end += 1 }
            var first = line
            while first < end && (bytes[first] == 32 || bytes[first] == 9 || bytes[first] == 13) { first += 1 }
            if first < end {
                guard first - line > width else { break }  // text outside the item
                kept = min(end + 1, limit)
            }
            line = end + 1
        }
        return kept
    }

    private func ownLineRange(of index: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Range<Int> {
        let start = records[index].lineStart
        var end = records[index].nameEndOffset
        while end < bytes.count && bytes[end] != 10 { end += 1 }
        return start..<min(bytes.count, end + 1)
    }

    /// The text with the lines of each run of items (from the first's marker line to the end
    /// of the last's name and notes; in order) replaced by `blocks`.
    func replacingOwnLines(of runs: [ClosedRange<Int>], with blocks: [[UInt8]]) -> [UInt8] {
        text.withBytes { bytes in
            var out = [UInt8]()
            out.reserveCapacity(bytes.count)
            var at = 0
            for (run, block) in zip(runs, blocks) {
                let start = ownLineRange(of: run.lowerBound, in: bytes).lowerBound
                let end = notesEnd(of: run.upperBound, in: bytes)
                out.append(contentsOf: bytes[at..<start])
                out.append(contentsOf: block)
                at = end
            }
            out.append(contentsOf: bytes[at...])
            return out
        }
    }
}

/// A temporary directory for copies of the files a merge writes into.
struct ScratchDirectory {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("todofmt-merge-" + UUID().uuidString)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    func copy(_ file: URL, as name: String) throws -> URL {
        let target = url.appendingPathComponent(name)
        try FileManager.default.copyItem(at: file, to: target)
        return target
    }

    func remove() { try? FileManager.default.removeItem(at: url) }
}

/// What a database holds outside its list table: the schema (but the list table's) and every
/// other table's rows, as a multiset. Bookkeeping that adding items changes (`sqlite_sequence`,
/// Core Data's `Z_PRIMARYKEY`, `Z_METADATA`, `Z_MODELCACHE`) is left out.
struct SQLiteOutside: Equatable {
    var schema: Set<[SQLValue]> = []
    var rows: [String: [[SQLValue]: Int]] = [:]

    init(url: URL, options: ListOptions) throws {
        var info = stat()
        if stat(url.filePath, &info) == 0, info.st_size == 0 { return }
        let db = try Database(path: url.filePath, readOnly: true)
        let list = try ListTable.find(in: db, options: options).name
        let skipped: Set<String> = [list, "sqlite_sequence", "Z_PRIMARYKEY", "Z_METADATA", "Z_MODELCACHE"]
        for row in try db.rows("SELECT type, name, sql FROM sqlite_master")
        where row[0] != .text("table") || row[1] != .text(list) {
            schema.insert(row)
        }
        for table in try db.tableNames() where !skipped.contains(table) {
            var counts: [[SQLValue]: Int] = [:]
            for row in try db.rows("SELECT * FROM " + Database.quote(table)) { counts[row, default: 0] += 1 }
            rows[table] = counts
        }
    }
}
