import Foundation

extension FieldValue: CustomStringConvertible {
    /// The value as text: a string as it is, a date in ISO 8601 (UTC), data as `<hex>`, an
    /// array or dictionary in JSON-like syntax with its strings quoted. Checklist fields
    /// use the same forms (FORMAT.md, section 4.2).
    public var description: String { text(quotingStrings: false) }

    /// The text form; `quotingStrings` writes strings in JSON syntax, as inside arrays.
    func text(quotingStrings: Bool) -> String {
        switch self {
        case .string(let s): return quotingStrings ? JSONText.encode(.string(s)) : s
        case .integer(let i): return String(i)
        case .bigInteger(let digits): return digits
        case .double(let d): return NumberSyntax.format(d)
        case .bool(let b): return b ? "true" : "false"
        case .null: return "null"
        case .date(let d): return ISO8601.format(d)
        case .data(let d):
            let hex: [UInt8] = Array("0123456789abcdef".utf8)
            var bytes: [UInt8] = [UInt8(ascii: "<")]
            bytes.reserveCapacity(d.count * 2 + 2)
            for byte in d {
                bytes.append(hex[Int(byte >> 4)])
                bytes.append(hex[Int(byte & 15)])
            }
            bytes.append(UInt8(ascii: ">"))
            return String(decoding: bytes, as: UTF8.self)
        case .array(let values):
            return "[" + values.map { $0.text(quotingStrings: true) }.joined(separator: ", ") + "]"
        case .dictionary(let fields):
            return "{"
                + fields.map { JSONText.encode(.string($0.key)) + ": " + $0.value.text(quotingStrings: true) }
                .joined(separator: ", ") + "}"
        }
    }
}
