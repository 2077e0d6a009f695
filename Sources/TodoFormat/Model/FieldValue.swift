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
        guard let earlier = lazy.map(\.key).positionsGivenAgain() else { return self }
        return enumerated().filter { !earlier.contains($0.offset) }.map(\.element)
    }
}

extension RandomAccessCollection where Element == String, Index == Int {
    /// The positions of keys an object gives again later (whose values the later ones
    /// replace, as JSON's readers, PyYAML and plistlib take them); nil when no key repeats.
    func positionsGivenAgain() -> Set<Int>? {
        guard count > 1 else { return nil }
        if count <= 16 {
            // An item's few keys: compared pairwise, without hashing each (a dictionary an
            // item was a fifth of `todofmt done` on a JSON file).
            var found: Set<Int>? = nil
            for i in 0..<(count - 1) where self[(i + 1)...].contains(self[i]) {
                found = (found ?? []).union([i])
            }
            return found
        }
        var last: [String: Int] = [:]
        for (i, key) in enumerated() { last[key] = i }
        guard last.count < count else { return nil }
        return Set(indices.filter { last[self[$0]] != $0 })
    }
}
