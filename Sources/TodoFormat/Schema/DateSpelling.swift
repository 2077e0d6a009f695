import Foundation

/// How a file writes date-times as text, learned from its values, so that a date todofmt
/// writes there (a new item's creation date) looks like the others: `T` or a space between
/// date and time; fraction digits fixed (six where every value has six), trimmed (where the
/// count varies) or none; `Z`, a numeric offset (written `+00:00`, the time in UTC) or no zone.
struct DateSpelling: Hashable, Sendable {
    enum Fraction: Hashable, Sendable {
        case none
        case fixed(Int)
        /// As many digits as the value needs.
        case trimmed
    }

    enum Zone: Hashable, Sendable { case z, offset, none }

    var separator: UInt8
    var fraction: Fraction
    var zone: Zone

    /// The spelling of one date-time text; nil when the text is no date-time.
    init?(of text: String) {
        let b = Array(text.utf8)
        guard b.count >= 19, ISO8601.parse(b, assumeUTC: true) != nil else { return nil }
        separator = b[10]
        var i = 19
        var digits = 0
        if i < b.count && b[i] == UInt8(ascii: ".") {
            i += 1
            while i < b.count && b[i] >= 48 && b[i] <= 57 {
                digits += 1
                i += 1
            }
        }
        fraction = digits == 0 ? .none : .fixed(digits)
        zone = i == b.count ? .none : (b[i] == UInt8(ascii: "Z") || b[i] == UInt8(ascii: "z")) ? .z : .offset
    }

    /// The spelling that covers this one and `other`: digits that vary are trimmed.
    func merged(with other: DateSpelling) -> DateSpelling {
        var merged = self
        if fraction != other.fraction { merged.fraction = .trimmed }
        if zone == .none || other.zone == .offset { merged.zone = other.zone == .none ? zone : other.zone }
        return merged
    }

    /// `date` in this spelling, in UTC.
    func format(_ date: Date) -> String {
        let t = date.timeIntervalSince1970
        let whole = t.rounded(.down)
        var text = Array(ISO8601.format(Date(timeIntervalSince1970: whole)).utf8.dropLast())
        text[10] = separator
        switch fraction {
        case .none: break
        case .fixed(let n):
            let scale = pow(10.0, Double(min(n, 15)))
            let value = min(((t - whole) * scale).rounded(), scale - 1)
            let digits = String(Int(value))
            text += Array(("." + String(repeating: "0", count: max(0, min(n, 15) - digits.count)) + digits).utf8)
            if n > 15 { text += Array(repeating: UInt8(ascii: "0"), count: n - 15) }
        case .trimmed:
            let full = ISO8601.format(date)
            if let dot = full.firstIndex(of: ".") { text += Array(full[dot...].dropLast().utf8) }
        }
        switch zone {
        case .z: text.append(UInt8(ascii: "Z"))
        case .offset: text += Array("+00:00".utf8)
        case .none: break
        }
        return String(decoding: text, as: UTF8.self)
    }
}
