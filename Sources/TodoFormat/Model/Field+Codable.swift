/// A field encodes as an object with its key and its typed value, so that an array of
/// fields keeps its order: `{"key": "due", "value": {"date": 738936000}}`.
extension Field: Codable {
    private enum CodingKeys: String, CodingKey {
        case key, value
    }

    /// Decodes the shape this type's documentation gives.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            try container.decode(String.self, forKey: .key), try container.decode(FieldValue.self, forKey: .value))
    }

    /// Encodes the shape this type's documentation gives.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(key, forKey: .key)
        try container.encode(value, forKey: .value)
    }
}
