import Foundation

// ISO 8601 date-times in the one form todofmt writes (`2024-05-01T09:30:00Z`, with a
// fraction only when the date has one) and the forms it reads. Foundation's
// formatters are avoided: they are slow on Linux and the arithmetic is short.
enum ISO8601 {
    /// `yyyy-MM-ddTHH:mm:ss[.fff…](Z|±HH:MM)`, also with a space or `t` for `T` and
    /// `z` for `Z`. A date without a time is not a date-time and gives nil.
    static func parse<C: Collection>(_ bytes: C, assumeUTC: Bool = false) -> Date? where C.Element == UInt8 {
        // Read in place where the bytes are contiguous (a slice of a buffer or an array);
        // copying them into an array first cost as much as reading the date.
        bytes.withContiguousStorageIfAvailable { parse(buffer: $0, assumeUTC: assumeUTC) }
            ?? Array(bytes).withUnsafeBufferPointer { parse(buffer: $0, assumeUTC: assumeUTC) }
    }

    private static func parse(buffer b: UnsafeBufferPointer<UInt8>, assumeUTC: Bool) -> Date? {
        var i = 0
        func digits(_ n: Int) -> Int? {
            guard i + n <= b.count else { return nil }
            var v = 0
            for k in 0..<n {
                let d = b[i + k]
                guard d >= 48 && d <= 57 else { return nil }
                v = v * 10 + Int(d - 48)
            }
            i += n
            return v
        }
        func expect(_ c: UInt8) -> Bool {
            guard i < b.count && b[i] == c else { return false }
            i += 1
            return true
        }
        guard let year = digits(4), expect(45), let month = digits(2), expect(45), let day = digits(2),
            i < b.count, b[i] == 84 || b[i] == 116 || b[i] == 32
        else { return nil }
        i += 1
        guard let hour = digits(2), expect(58), let minute = digits(2), expect(58), let second = digits(2),
            (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 61
        else { return nil }
        var fraction = 0.0
        if i < b.count && b[i] == 46 {
            i += 1
            let start = i
            var scale = 0.1
            while i < b.count && b[i] >= 48 && b[i] <= 57 {
                fraction += Double(b[i] - 48) * scale
                scale /= 10
                i += 1
            }
            guard i > start else { return nil }
            // Parse the fraction exactly as written rather than by accumulating.
            fraction = Double(String(decoding: b[(start - 1)..<i], as: UTF8.self)) ?? fraction
        }
        var offsetSeconds = 0
        if i == b.count && assumeUTC {
            // A date-time without a zone (SQLite's `yyyy-MM-dd HH:mm:ss`), taken as UTC.
        } else if i < b.count && (b[i] == 90 || b[i] == 122) {
            i += 1
        } else if i < b.count && (b[i] == 43 || b[i] == 45) {
            let sign = b[i] == 45 ? -1 : 1
            i += 1
            guard let oh = digits(2) else { return nil }
            var om = 0
            if expect(58) {
                guard let m = digits(2) else { return nil }
                om = m
            } else if let m = digits(2) {
                om = m
            }
            offsetSeconds = sign * (oh * 3600 + om * 60)
        } else {
            return nil
        }
        guard i == b.count else { return nil }
        let days = daysFromCivil(year: year, month: month, day: day)
        let whole = days * 86400 + hour * 3600 + minute * 60 + second - offsetSeconds
        // Years 1 to 9999 in UTC only (`writableSeconds`): year 0, or a zone that moves a
        // date past either end, would be written back as another date; such text stays text.
        guard writableSeconds.contains(Double(whole) + fraction) else { return nil }
        return Date(timeIntervalSince1970: Double(whole) + fraction)
    }

    /// `yyyy-MM-dd HH:mm:ss` in UTC, as SQLite's date functions and the notes app write dates.
    static func formatSQL(_ date: Date) -> String {
        let iso = format(Date(timeIntervalSince1970: date.timeIntervalSince1970.rounded(.down)))
        return String(iso.dropLast()).replacingEvery("T", with: " ")
    }

    /// Seconds since 1970 of 0001-01-01T00:00:00Z and of 10000-01-01T00:00:00Z: the dates
    /// ISO 8601's four-digit years hold.
    static let writableSeconds = -62_135_596_800.0..<253_402_300_800.0

    /// Whether `seconds` since 2001 (Core Data's and binary property lists' dates) is a date
    /// in years 1 to 9999; readers keep any other as a number, so that it is written back.
    static func holds(secondsSinceReferenceDate seconds: Double) -> Bool {
        writableSeconds.contains(seconds + Date.timeIntervalBetween1970AndReferenceDate)
    }

    /// The date in UTC, with the shortest fraction that reads back to the same value. A date
    /// outside years 1 to 9999 (which readers never make) is written as the nearest one.
    static func format(_ date: Date) -> String {
        withText(date) { String(decoding: $0, as: UTF8.self) }
    }

    /// `format`'s text as bytes, made on the stack: a writer of bytes (JSON's) copies them
    /// where they go, with no array or string made for each date.
    static func withText<R>(_ date: Date, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        // 20 bytes and a fraction of at most 17 digits.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 40) { buffer in
            let count = write(date, into: buffer.baseAddress!)
            return body(UnsafeBufferPointer(rebasing: buffer[..<count]))
        }
    }

    private static func write(_ date: Date, into start: UnsafeMutablePointer<UInt8>) -> Int {
        var t = date.timeIntervalSince1970
        var at = start
        guard t.isFinite else {
            let epoch: StaticString = "1970-01-01T00:00:00Z"
            at.update(from: epoch.utf8Start, count: epoch.utf8CodeUnitCount)
            return epoch.utf8CodeUnitCount
        }
        t = min(max(t, writableSeconds.lowerBound), writableSeconds.upperBound - 1)
        let whole = t.rounded(.down)
        var seconds = Int(whole)
        let days = Int((Double(seconds) / 86400).rounded(.down))
        seconds -= days * 86400
        let (y, m, d) = civil(fromDays: days)
        // `v` in at least `n` digits (a year has four, but year 10000 is never written).
        func append(_ v: Int, _ n: Int) {
            var digits = 1
            var rest = v / 10
            while rest > 0 {
                digits += 1
                rest /= 10
            }
            for _ in digits..<max(n, digits) { put(48) }
            var power = 1
            for _ in 1..<digits { power *= 10 }
            while power > 0 {
                put(UInt8(48 + v / power % 10))
                power /= 10
            }
        }
        func put(_ byte: UInt8) {
            at.pointee = byte
            at += 1
        }
        append(y, 4)
        put(45)
        append(m, 2)
        put(45)
        append(d, 2)
        put(84)
        append(seconds / 3600, 2)
        put(58)
        append(seconds / 60 % 60, 2)
        put(58)
        append(seconds % 60, 2)
        let fraction = t - whole
        if fraction > 0 {
            // The fewest digits that give back exactly this Double.
            for digits in 1...17 {
                let scale = pow(10.0, Double(digits))
                let rounded = (fraction * scale).rounded()
                if rounded >= scale { continue }
                let candidate = whole + rounded / scale
                if candidate == t || digits == 17 {
                    let point = at
                    put(46)
                    append(Int(rounded), digits)
                    while at > point + 1 && at[-1] == 48 { at -= 1 }
                    if at == point + 1 { at = point }
                    break
                }
            }
        }
        put(90)
        return start.distance(to: at)
    }

    // Howard Hinnant's days-from-civil algorithms (proleptic Gregorian calendar).
    static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = (month + 9) % 12
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146097 + doe - 719468
    }

    static func civil(fromDays days: Int) -> (Int, Int, Int) {
        let z = days + 719468
        let era = (z >= 0 ? z : z - 146096) / 146097
        let doe = z - era * 146097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (m <= 2 ? 1 : 0), m, d)
    }
}
