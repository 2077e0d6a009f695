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

    /// Whether two values are the same, a real by its bits: `-0.0` and `0.0` are two values
    /// (a list written back with one changed to the other changes), and a NaN is itself.
    public static func == (a: FieldValue, b: FieldValue) -> Bool {
        switch (a, b) {
        case (.string(let x), .string(let y)): x == y
        case (.integer(let x), .integer(let y)): x == y
        case (.bigInteger(let x), .bigInteger(let y)): x == y
        case (.double(let x), .double(let y)): x.bitPattern == y.bitPattern
        case (.bool(let x), .bool(let y)): x == y
        case (.date(let x), .date(let y)): x == y
        case (.data(let x), .data(let y)): x == y
        case (.array(let x), .array(let y)): x == y
        case (.dictionary(let x), .dictionary(let y)): x == y
        case (.null, .null): true
        default: false
        }
    }

    /// Hashes what `==` compares: a real by its bits.
    public func hash(into hasher: inout Hasher) {
        switch self {
        case .string(let x): hasher.combine(x)
        case .integer(let x): hasher.combine(x)
        case .bigInteger(let x): hasher.combine(x)
        case .double(let x): hasher.combine(x.bitPattern)
        case .bool(let x): hasher.combine(x)
        case .date(let x): hasher.combine(x)
        case .data(let x): hasher.combine(x)
        case .array(let x): hasher.combine(x)
        case .dictionary(let x): hasher.combine(x)
        case .null: hasher.combine(0)
        }
    }
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
    /// Keys are the same when their characters are (their UTF-8 bytes), as those readers
    /// compare them: `K` and the Kelvin sign `K`, or a composed and a decomposed `é`, are
    /// two keys (Swift's `==` would take them for one, and one's value would be lost).
    func positionsGivenAgain() -> Set<Int>? {
        guard count > 1 else { return nil }
        if count <= 16 {
            // An item's few keys: compared pairwise, without hashing each (a dictionary an
            // item was a fifth of `todofmt done` on a JSON file).
            var found: Set<Int>? = nil
            for i in 0..<(count - 1) where self[(i + 1)...].contains(where: { $0.sameKey(as: self[i]) }) {
                found = (found ?? []).union([i])
            }
            return found
        }
        var last: [[UInt8]: Int] = [:]
        for (i, key) in enumerated() { last[Array(key.utf8)] = i }
        guard last.count < count else { return nil }
        return Set(indices.filter { last[Array(self[$0].utf8)] != $0 })
    }
}

extension String {
    /// Whether two keys are the same key: the same characters, byte for byte (not Swift's
    /// `==`, which takes canonically equivalent texts as equal).
    func sameKey(as other: String) -> Bool {
        utf8.count == other.utf8.count && utf8.elementsEqual(other.utf8)
    }
}
