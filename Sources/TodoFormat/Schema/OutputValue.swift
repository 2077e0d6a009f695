/// What the writers of keyed formats (JSON, property lists) write into an existing file:
/// the file's own values with the list's items in their place.
/// A key and its value in an `OutputValue` dictionary.
struct OutputEntry {
    var key: String
    var value: OutputValue

    init(_ key: String, _ value: OutputValue) {
        self.key = key
        self.value = value
    }
}

/// What a writer writes: a value, or the list's items where they go in it. (Not
/// `indirect`: a dictionary's entries are an array already, and a boxed case cost every
/// entry of every item written an allocation.)
enum OutputValue {
    case value(FieldValue)
    case items([TodoItem])
    case dictionary([OutputEntry])
}
