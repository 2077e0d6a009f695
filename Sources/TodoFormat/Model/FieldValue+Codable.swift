import Foundation

/// A value encodes as an object with one key, its type, so decoding never has to guess
/// (`3` and `3.0`, or a string and a date, stay apart in every format):
///
/// | Value | Encoded |
/// | --- | --- |
/// | `.string("x")` | `{"string": "x"}` |
/// | `.integer(3)` | `{"integer": 3}` |
/// | `.bigInteger("18446744073709551615")` | `{"bigInteger": "18446744073709551615"}`: digits, as no encoder holds them |
/// | `.double(2.5)` | `{"double": 2.5}`; infinities and NaN as `{"double": "inf"}`, `"-inf"`, `"nan"` |
/// | `.bool(true)` | `{"bool": true}` |
/// | `.date(d)` | `{"date": 738936000.5}`: seconds since 2001-01-01T00:00:00Z (`timeIntervalSinceReferenceDate`) |
/// | `.data(d)` | `{"data": d}`, as the encoder writes `Data` (base64 in JSON by default) |
/// | `.array([…])` | `{"array": [value, …]}` |
/// | `.dictionary([…])` | `{"dictionary": [{"key": …, "value": …}, …]}`, in order |
/// | `.null` | `{"null": true}` |
///
/// Dates are numbers rather than `Date`s so that they come back exactly from every
/// encoder: an XML property list's `<date>` keeps whole seconds only, and an encoder's
/// `dateEncodingStrategy` (ISO 8601, say) may drop the fraction too. Non-finite doubles are
/// strings because JSON has no number for them.
///
/// Decoding throws `DecodingError.dataCorrupted` for an object with no key or several keys.
extension FieldValue: Codable {
    private enum Kind: String, CaseIterable {
        case string, integer, bigInteger, double, bool, date, data, array, dictionary, null
    }

    // Any key, so that decoding sees unknown and extra keys and can refuse them.
    private struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(_ kind: Kind) { stringValue = kind.rawValue }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    /// Decodes the shape this type's documentation gives.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Key.self)
        guard container.allKeys.count == 1, let key = container.allKeys.first else {
            throw DecodingError.dataCorrupted(
                DecodingError.Context(
                    codingPath: decoder.codingPath,
                    debugDescription:
                        "a field value is an object with one key naming its type (\(Kind.allCases.map(\.rawValue).joined(separator: ", "))); found \(container.allKeys.count) keys"
                ))
        }
        guard let kind = Kind(rawValue: key.stringValue) else {
            throw DecodingError.dataCorruptedError(
                forKey: key, in: container, debugDescription: "unknown field value type '\(key.stringValue)'")
        }
        switch kind {
        case .string: self = .string(try container.decode(String.self, forKey: key))
        case .integer: self = .integer(try container.decode(Int.self, forKey: key))
        case .bigInteger:
            let digits = try container.decode(String.self, forKey: key)
            guard case .bigInteger? = NumberSyntax.integer(digits) else {
                throw DecodingError.dataCorruptedError(
                    forKey: key, in: container, debugDescription: "a big integer is decimal digits beyond Int's range")
            }
            self = .bigInteger(digits)
        case .double:
            if let number = try? container.decode(Double.self, forKey: key) {
                self = .double(number)
            } else {
                let text = try container.decode(String.self, forKey: key)
                guard let number = Double(text), !number.isFinite else {
                    throw DecodingError.dataCorruptedError(
                        forKey: key, in: container,
                        debugDescription:
                            "a double is a number, \"inf\", \"-inf\" or \"nan\"; found \(String(reflecting: text))")
                }
                self = .double(number)
            }
        case .bool: self = .bool(try container.decode(Bool.self, forKey: key))
        case .date: self = .date(Date(timeIntervalSinceReferenceDate: try container.decode(Double.self, forKey: key)))
        case .data: self = .data(try container.decode(Data.self, forKey: key))
        case .array: self = .array(try container.decode([FieldValue].self, forKey: key))
        case .dictionary: self = .dictionary(try container.decode([Field].self, forKey: key))
        case .null:
            guard try container.decode(Bool.self, forKey: key) else {
                throw DecodingError.dataCorruptedError(
                    forKey: key, in: container, debugDescription: "null is written {\"null\": true}")
            }
            self = .null
        }
    }

    /// Encodes the shape this type's documentation gives.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        switch self {
        case .string(let text): try container.encode(text, forKey: Key(.string))
        case .integer(let number): try container.encode(number, forKey: Key(.integer))
        case .bigInteger(let digits): try container.encode(digits, forKey: Key(.bigInteger))
        case .double(let number) where number.isFinite: try container.encode(number, forKey: Key(.double))
        // "inf", "-inf" or "nan": JSON has no number for them.
        case .double(let number): try container.encode(number.description, forKey: Key(.double))
        case .bool(let flag): try container.encode(flag, forKey: Key(.bool))
        case .date(let date): try container.encode(date.timeIntervalSinceReferenceDate, forKey: Key(.date))
        case .data(let bytes): try container.encode(bytes, forKey: Key(.data))
        case .array(let values): try container.encode(values, forKey: Key(.array))
        case .dictionary(let fields): try container.encode(fields, forKey: Key(.dictionary))
        case .null: try container.encode(true, forKey: Key(.null))
        }
    }
}
