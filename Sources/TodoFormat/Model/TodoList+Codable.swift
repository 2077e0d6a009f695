/// A list encodes as an object with its items and, when it has any, its metadata, both
/// in order:
///
/// ```json
/// {"metadata": [{"key": "title", "value": {"string": "Groceries"}}],
///  "items": [{"name": "Milk", "status": " "}]}
/// ```
///
/// Items are ``TodoItem``s and metadata entries ``Field``s, so a list comes back from
/// `JSONDecoder` or `PropertyListDecoder` equal to the list encoded: value types, dates,
/// data, the order of fields and of dictionary keys, and custom statuses all survive.
/// Decoding requires `items`; a missing `metadata` is empty.
extension TodoList: Codable {
    private enum CodingKeys: String, CodingKey {
        case metadata, items
    }

    /// Decodes the shape this type's documentation gives.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            metadata: try container.decodeIfPresent([Field].self, forKey: .metadata) ?? [],
            items: try container.decode([TodoItem].self, forKey: .items))
    }

    /// Encodes the shape this type's documentation gives.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        if !metadata.isEmpty { try container.encode(metadata, forKey: .metadata) }
        try container.encode(items, forKey: .items)
    }
}
