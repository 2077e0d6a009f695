extension DocumentFormat {
    /// SQL text as `sqlite3 DB .dump` writes it (`.sql`).
    public static let sql = DocumentFormat(rawValue: "sql")
}

/// SQL dumps (FORMAT.md, section 7.8): loaded into a database in memory behind an
/// authorizer, then read as a database; written as `sqlite3 DB .dump` writes one.
struct SQLDumpFormat: ListFormat {
    var id: DocumentFormat { .sql }
    var aliases: [String] { ["dump"] }
    var extensions: [String] { ["sql"] }

    /// The first statement of a dump: `PRAGMA`, `BEGIN`, `CREATE` or `INSERT`, ending in `;`.
    func recognition(of head: UnsafeBufferPointer<UInt8>) -> Recognition {
        let text = String(decoding: head, as: UTF8.self)
        for line in text.split(separator: "\n", maxSplits: 50).prefix(50) {
            let words = line.uppercased().split(separator: " ")
            guard let first = words.first, !first.hasPrefix("--") else { continue }
            return ["PRAGMA", "BEGIN", "CREATE", "INSERT"].contains(String(first)) && line.contains(";") ? .likely : .no
        }
        return .no
    }

    func read<S: ItemSink>(_ input: Input, options: ListOptions, into sink: inout S) throws {
        // The database in memory goes by the dump's name, so that errors name the file.
        let db = try Database(path: ":memory:", readOnly: false, name: input.name)
        try db.runDump(input.bytes(), path: input.name)
        try ListTable.find(in: db, table: options.table, schema: options.schema).read(from: db, into: &sink)
    }

    func writer(to output: Output, options: ListOptions) throws -> any ListWriter {
        DumpWriter(sink: output.makeSink(), outputName: output.name)
    }
}

/// Writes todofmt's table as a dump: the items are gathered (the table's columns depend on
/// every item's fields), then written row by row.
struct DumpWriter: ListWriter {
    private var sink: ByteSink
    private let outputName: String
    private var builder = ListBuilder(keepingSlices: ())

    init(sink: ByteSink, outputName: String) {
        self.sink = sink
        self.outputName = outputName
    }

    mutating func begin(metadata: [Field]) { builder.begin(metadata: metadata) }
    mutating func item(_ item: TodoItem, depth: Int) { builder.item(item, depth: depth) }
    mutating func end() {}

    mutating func finish() throws -> Written {
        let list = builder.finish()
        OwnTable(list).dump(to: &sink)
        var written = Written(bytes: try sink.finish(path: outputName))
        if !list.metadata.isEmpty { written.warnings.append(.metadataLeftOut(list.metadata, by: "an SQL dump")) }
        return written
    }
}
