/// A 128-bit two's-complement integer, as binary property lists store integers beyond 64
/// bits (Apple's and Python's writers use 16 bytes for values from 2^63 to 2^64 - 1, and
/// plistlib reads any 16-byte integer as signed). Done by hand: `Int128` needs macOS 15.
struct WideInteger: Equatable {
    var high: UInt64
    var low: UInt64

    init(high: UInt64, low: UInt64) {
        self.high = high
        self.low = low
    }

    var isNegative: Bool { high >> 63 == 1 }

    /// The value as todofmt keeps it: an integer when it fits in `Int`, else its digits.
    var value: FieldValue {
        if high == 0 && low <= UInt64(Int.max) { return .integer(Int(low)) }
        if high == .max && low >= 1 << 63 { return .integer(Int(Int64(bitPattern: low))) }
        return .bigInteger(decimal)
    }

    /// Whether the value fits in 64 bits, signed or unsigned (what Apple's readers take).
    var fits64Bits: Bool { high == 0 || (high == .max && low >= 1 << 63) }

    private var magnitude: (high: UInt64, low: UInt64) {
        guard isNegative else { return (high, low) }
        let low = ~self.low &+ 1
        return (~high &+ (low == 0 ? 1 : 0), low)
    }

    /// The decimal digits, with a `-` when negative.
    var decimal: String {
        var (h, l) = magnitude
        if h == 0 { return (isNegative ? "-" : "") + String(l) }
        let chunk: UInt64 = 10_000_000_000_000_000_000  // 10^19
        var chunks: [UInt64] = []
        while h != 0 || l != 0 {
            let (qh, rh) = h.quotientAndRemainder(dividingBy: chunk)
            let (ql, r) = chunk.dividingFullWidth((high: rh, low: l))
            chunks.append(r)
            (h, l) = (qh, ql)
        }
        var text = isNegative ? "-" : ""
        for (i, c) in chunks.reversed().enumerated() {
            let digits = String(c)
            text += i == 0 ? digits : String(repeating: "0", count: 19 - digits.count) + digits
        }
        return text
    }

    /// The integer of decimal digits with an optional `-`; nil beyond the signed 128-bit range.
    init?(digits text: String) {
        var bytes = Substring(text).utf8[...]
        let negative = bytes.first == UInt8(ascii: "-")
        if negative { bytes = bytes.dropFirst() }
        guard !bytes.isEmpty else { return nil }
        var h: UInt64 = 0
        var l: UInt64 = 0
        for b in bytes {
            guard b >= 48 && b <= 57 else { return nil }
            let (carry, low) = l.multipliedFullWidth(by: 10)
            let (high, overflow) = h.multipliedReportingOverflow(by: 10)
            guard !overflow else { return nil }
            let (sumHigh, overflow2) = high.addingReportingOverflow(carry)
            guard !overflow2 else { return nil }
            let (sumLow, carry2) = low.addingReportingOverflow(UInt64(b - 48))
            let (finalHigh, overflow3) = sumHigh.addingReportingOverflow(carry2 ? 1 : 0)
            guard !overflow3 else { return nil }
            (h, l) = (finalHigh, sumLow)
        }
        // At most 2^127 - 1, or 2^127 when negative.
        guard h < 1 << 63 || (negative && h == 1 << 63 && l == 0) else { return nil }
        if negative {
            let low = ~l &+ 1
            self.init(high: ~h &+ (low == 0 ? 1 : 0), low: low)
        } else {
            self.init(high: h, low: l)
        }
    }
}
