/// One entry of a todo list: a name, a status, typed fields and nested items.
public struct TodoItem: Hashable, Sendable {
    // A name read from a checklist starts as a slice of the file's text, so streaming a
    // million items does not make a million string buffers; a list built in memory
    // detaches it (see `detachName`).
    var nameStorage: Substring

    /// The item's text, without its checkbox and its fields.
    public var name: String {
        get { String(nameStorage) }
        set { nameStorage = Substring(newValue) }
    }
    /// Open, done or a custom status.
    public var status: TodoStatus
    /// Extra key/values carried from other formats (ids, dates, an order number…), in order.
    public var fields: [Field]
    /// The task items nested inside this one, in order.
    public var children: [TodoItem]
    /// The heading the item stands under, if any (top-level items only).
    public var section: String?

    /// Whether the item is done.
    public var isChecked: Bool {
        get { status.isChecked }
        set { status = newValue ? .done : .open }
    }

    /// An item; open, with no fields, children or section unless given.
    public init(
        name: String, status: TodoStatus = .open, fields: [Field] = [],
        children: [TodoItem] = [], section: String? = nil
    ) {
        self.init(nameStorage: Substring(name), status: status, fields: fields, children: children, section: section)
    }

    /// An item without children whose name is the UTF-8 bytes `plainName` (a reader's).
    init(plainName: UnsafeBufferPointer<UInt8>, fields: [Field] = [], status: TodoStatus, section: String?) {
        self.init(
            nameStorage: Substring(String(decoding: plainName, as: UTF8.self)), status: status, fields: fields,
            children: [], section: section)
    }

    init(nameStorage: Substring, status: TodoStatus, fields: [Field], children: [TodoItem], section: String?) {
        self.nameStorage = nameStorage
        self.status = status
        self.fields = fields
        self.children = children
        self.section = section
    }

    /// Gives the name storage of its own when it is a slice of a larger text, so that the
    /// item does not keep that text alive.
    mutating func detachName() {
        if nameStorage.base.utf8.count != nameStorage.utf8.count { nameStorage = Substring(String(nameStorage)) }
    }

    /// The value of the first field with this key.
    public subscript(field key: String) -> FieldValue? {
        fields[key: key]
    }

    /// Hashes what `==` compares, the name and the section as their NFC forms (as strings
    /// hash), but a text already in NFC, nearly every one, by its bytes as they are: the
    /// standard library normalizes every text that is not ASCII as it hashes it, which was
    /// a fifth of `diff`'s time on a list in other scripts.
    public func hash(into hasher: inout Hasher) {
        Self.hashText(nameStorage, into: &hasher)
        hasher.combine(status)
        hasher.combine(fields)
        hasher.combine(children)
        if let section { Self.hashText(Substring(section), into: &hasher) } else { hasher.combine(0xFE as UInt8) }
    }

    /// A text's NFC bytes, then 0xFF (no byte of UTF-8), into `hasher`.
    static func hashText(_ text: Substring, into hasher: inout Hasher) {
        var text = text
        text.withUTF8 { bytes in NFCCheck.withNFC(bytes) { hasher.combine(bytes: UnsafeRawBufferPointer($0)) } }
        hasher.combine(0xFF as UInt8)
    }
}
