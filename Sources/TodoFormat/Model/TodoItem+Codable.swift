/// An item encodes as an object with its name and status, and its fields, children and
/// section only when it has them:
///
/// ```json
/// {"name": "Eggs", "status": "x", "fields": [{"key": "id", "value": {"integer": 7}}],
///  "children": [{"name": "Brown ones", "status": " "}], "section": "Today"}
/// ```
///
/// `status` is the checkbox character (see ``TodoStatus``), `fields` an array of ``Field``s
/// in order. Decoding requires `name` and `status`; a missing `fields` or `children` is
/// empty and a missing `section` is none. A decoded name has storage of its own.
extension TodoItem: Codable {
    private enum CodingKeys: String, CodingKey {
        case name, status, fields, children, section
    }

    /// Decodes the shape this type's documentation gives.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            name: try container.decode(String.self, forKey: .name),
            status: try container.decode(TodoStatus.self, forKey: .status),
            fields: try container.decodeIfPresent([Field].self, forKey: .fields) ?? [],
            children: try container.decodeIfPresent([TodoItem].self, forKey: .children) ?? [],
            section: try container.decodeIfPresent(String.self, forKey: .section))
    }

    /// Encodes the shape this type's documentation gives.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        // The name may be a slice of a whole file; only its own text is written.
        try container.encode(String(nameStorage), forKey: .name)
        try container.encode(status, forKey: .status)
        if !fields.isEmpty { try container.encode(fields, forKey: .fields) }
        if !children.isEmpty { try container.encode(children, forKey: .children) }
        try container.encodeIfPresent(section, forKey: .section)
    }
}
