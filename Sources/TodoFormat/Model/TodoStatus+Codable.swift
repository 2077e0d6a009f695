/// A status encodes as the one-character string written between a checkbox's brackets:
/// `" "` for ``open``, `"x"` for ``done`` and the character itself for a custom status
/// (`"/"`, `"-"`…).
///
/// Decoding takes a string of exactly one Unicode scalar, read as ``init(marker:)`` reads
/// it (so `"X"` is done too); any other string is a `DecodingError.dataCorrupted`.
extension TodoStatus: Codable {
    /// Decodes the shape this type's documentation gives.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        var scalars = text.unicodeScalars.makeIterator()
        guard let marker = scalars.next(), scalars.next() == nil else {
            throw DecodingError.dataCorruptedError(
                in: container,
                debugDescription:
                    "a status is one character, such as \" \", \"x\" or \"/\"; found \(String(reflecting: text))")
        }
        self.init(marker: marker)
    }

    /// Encodes the shape this type's documentation gives.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(String(Character(marker)))
    }
}
