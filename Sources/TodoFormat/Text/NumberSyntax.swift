/// Numbers as text: JSON's number grammar, which checklist fields and JSON share, and the
/// shortest text of a double.
enum NumberSyntax {
    /// A JSON number: an integer when it has no fraction or exponent and fits in `Int`.
    static func number(_ token: UnsafeBufferPointer<UInt8>) -> FieldValue? {
        var i = 0
        let end = token.count
        if i < end && token[i] == UInt8(ascii: "-") { i += 1 }
        let intStart = i
        while i < end && token[i] >= 48 && token[i] <= 57 { i += 1 }
        guard i > intStart, !(token[intStart] == 48 && i - intStart > 1) else { return nil }
        var isInteger = true
        if i < end && token[i] == UInt8(ascii: ".") {
            isInteger = false
            i += 1
            let start = i
            while i < end && token[i] >= 48 && token[i] <= 57 { i += 1 }
            guard i > start else { return nil }
        }
        if i < end && (token[i] == UInt8(ascii: "e") || token[i] == UInt8(ascii: "E")) {
            isInteger = false
            i += 1
            if i < end && (token[i] == UInt8(ascii: "+") || token[i] == UInt8(ascii: "-")) { i += 1 }
            let start = i
            while i < end && token[i] >= 48 && token[i] <= 57 { i += 1 }
            guard i > start else { return nil }
        }
        guard i == end else { return nil }
        if isInteger && i - intStart <= 18 {
            // Fits in `Int`: no string to make and read again.
            var value = 0
            for k in intStart..<i { value = value * 10 + Int(token[k] - 48) }
            return .integer(intStart > 0 ? -value : value)
        }
        let text = String(decoding: token, as: UTF8.self)
        if isInteger { return integer(text) }
        return Double(text).map { .double($0) }
    }

    /// Decimal digits with an optional `-` as an integer: `.integer` when it fits in `Int`,
    /// else `.bigInteger` (nil for anything else).
    static func integer(_ text: String) -> FieldValue? {
        let digits = text.utf8.drop { $0 == UInt8(ascii: "-") }
        guard !digits.isEmpty, text.utf8.count - digits.count <= 1, digits.allSatisfy({ $0 >= 48 && $0 <= 57 }) else {
            return nil
        }
        if let value = Int(text) { return .integer(value) }
        return .bigInteger(text)
    }

    static func format(_ d: Double) -> String {
        if d.isNaN { return "nan" }
        if d.isInfinite { return d < 0 ? "-inf" : "inf" }
        return String(d)  // Swift prints the shortest text that reads back exactly, always with `.` or `e`.
    }
}
