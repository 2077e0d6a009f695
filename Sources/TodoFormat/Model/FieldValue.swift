import Foundation

/// A typed value of an item field or of list metadata.
///
/// The cases are the types that JSON, property lists, YAML and SQLite share;
/// each survives a trip through the Markdown checklist (FORMAT.md, section 4.2).
public enum FieldValue: Hashable, Sendable {
    case string(String)
    case integer(Int)
    /// An integer beyond `Int`'s range (a 64-bit unsigned value, a 128-bit one), as its
    /// decimal digits with an optional `-`.
    case bigInteger(String)
    case double(Double)
    case bool(Bool)
    /// A point in time; written in Markdown as ISO 8601 in UTC.
    case date(Date)
    case data(Data)
    case array([FieldValue])
    /// An ordered dictionary: key order is kept.
    case dictionary([Field])
    case null
}

/// One key/value pair: an item field, a metadata entry or an entry of a dictionary value.
public struct Field: Hashable, Sendable {
    /// The key, as the source format spells it.
    public var key: String
    /// The typed value.
    public var value: FieldValue

    /// A field with its key and value.
    public init(_ key: String, _ value: FieldValue) {
        self.key = key
        self.value = value
    }
}

extension Array where Element == Field {
    /// The value of the first field with this key.
    public subscript(key key: String) -> FieldValue? {
        first { $0.key == key }?.value
    }

    /// The fields with a key given again kept once, with its last value where that stands,
    /// as JSON's readers and PyYAML read an object (mapping) that gives a key twice.
    func lastOfEachKey() -> [Field] {
        guard count > 1 else { return self }
        if count <= 16 {
            // Few keys (an item): comparing them pairwise costs less than hashing.
            var repeated = false
            for i in 1..<count where !repeated {
                for j in 0..<i where self[j].key == self[i].key { repeated = true }
            }
            guard repeated else { return self }
        }
        var last: [String: Int] = [:]
        for (i, field) in enumerated() { last[field.key] = i }
        guard last.count < count else { return self }
        return enumerated().filter { last[$0.element.key] == $0.offset }.map(\.element)
    }
}
