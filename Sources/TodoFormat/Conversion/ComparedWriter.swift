/// The writer of a streamed update (`JSONFormat.update(_:options:streaming:)`): a new
/// file's writer whose bytes go to a `ByteComparison`, watched for what makes the update
/// give up so that the caller writes the whole list instead (`GivenUp`): two items with the
/// same identity (which the whole-list write reports, naming both), or a first difference
/// before the file's first item, where nothing of the file can be kept this way (another
/// layout than the writer's).
struct ComparedWriter: ListWriter {
    /// Thrown to stop the reader: the update gives up.
    struct GivenUp: Error {}

    private var base: any ListWriter
    private let comparison: ByteComparison
    /// Whether the file's bytes up to the first difference hold the start of an item.
    private let keepsItems: (Int) -> Bool
    private var checked = false
    private let identityKey: String?
    private var identities: Set<FieldValue> = []

    /// `keepsItems(offset)` says whether the first `offset` bytes of the file hold the start
    /// of one of its items; `identityKey` is the key of the file's items' identities.
    init(
        base: any ListWriter, comparison: ByteComparison, identityKey: String?, keepsItems: @escaping (Int) -> Bool
    ) {
        self.base = base
        self.comparison = comparison
        self.identityKey = identityKey
        self.keepsItems = keepsItems
    }

    /// Gives up once the output has differed before the file's first item.
    private mutating func check() throws {
        guard !checked, comparison.differs else { return }
        checked = true
        if !keepsItems(comparison.matched) { throw GivenUp() }
    }

    mutating func begin(metadata: [Field]) throws { try base.begin(metadata: metadata) }

    mutating func item(_ item: TodoItem, depth: Int) throws {
        if let identityKey, let value = item.fields[key: identityKey], value != .null,
            !identities.insert(value).inserted
        {
            throw GivenUp()
        }
        try base.item(item, depth: depth)
        try check()
    }

    var takesPlainNames: Bool { base.takesPlainNames }

    mutating func item(plainName: UnsafeBufferPointer<UInt8>, status: TodoStatus, section: String?, depth: Int) throws {
        try base.item(plainName: plainName, status: status, section: section, depth: depth)
        try check()
    }

    mutating func items(plain: ArraySlice<PlainItem>, text: UnsafeBufferPointer<UInt8>, sections: [String]) throws {
        try base.items(plain: plain, text: text, sections: sections)
        try check()
    }

    mutating func leftOut(_ warning: ConversionWarning) throws { try base.leftOut(warning) }

    mutating func end() throws { try base.end() }

    mutating func finish() throws -> Written { try base.finish() }
}
