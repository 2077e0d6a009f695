import Foundation

// Binary property lists (`bplist00`), read and written by todofmt itself.
//
// Foundation's PropertyListSerialization takes 4.7 s to parse and 17.5 s to write the
// 1,000,000-item list on Linux (Swift 6.3.1), where the goal is half of
// Python's plistlib (4.04 s), so todofmt has its own small codec. Tests check it against
// plistlib, plistutil and Foundation on the same files.
//
// Layout: the magic `bplist00`; the objects, each a marker byte (type in the high
// nibble, a size in the low one) and its bytes; a table of each object's offset; and a
// 32-byte trailer giving the offset size, the object reference size, the object count,
// the top object and where the table starts. Integers are big-endian.

/// Reads a binary property list. Values come back as `FieldValue`s, except that a
/// reader may ask for an array's elements one by one (the list's items).
struct BinaryPropertyListReader {
    let bytes: UnsafeBufferPointer<UInt8>
    let path: String
    private let offsetSize: Int
    private let referenceSize: Int
    let objectCount: Int
    let topObject: Int
    private let tableOffset: Int

    /// Reference date of property list dates: 2001-01-01T00:00:00Z.
    static let referenceDate = Date(timeIntervalSinceReferenceDate: 0)

    init(bytes: UnsafeBufferPointer<UInt8>, path: String) throws(ParseError) {
        self.bytes = bytes
        self.path = path
        func fail(_ message: String, _ offset: Int) -> ParseError {
            ParseError(message, at: SourceLocation(file: path, byteOffset: offset))
        }
        guard bytes.count >= 8 + 32, bytes.starts(with: "bplist0".utf8) else {
            throw fail("not a binary property list (too short or no 'bplist00' header)", 0)
        }
        let trailer = bytes.count - 32
        offsetSize = Int(bytes[trailer + 6])
        referenceSize = Int(bytes[trailer + 7])
        func word(_ at: Int) -> Int {
            var v: UInt64 = 0
            for k in 0..<8 { v = v << 8 | UInt64(bytes[at + k]) }
            return v > UInt64(Int.max) ? -1 : Int(v)
        }
        objectCount = word(trailer + 8)
        topObject = word(trailer + 16)
        tableOffset = word(trailer + 24)
        guard [1, 2, 4, 8].contains(offsetSize), [1, 2, 4, 8].contains(referenceSize) else {
            throw fail("corrupt trailer: offset size \(offsetSize), reference size \(referenceSize)", trailer + 6)
        }
        guard objectCount > 0, topObject >= 0, topObject < objectCount, tableOffset >= 8,
            tableOffset <= trailer, objectCount <= (trailer - tableOffset) / offsetSize
        else {
            throw fail(
                "corrupt trailer: \(objectCount) objects, top \(topObject), table at \(tableOffset)", trailer + 8)
        }
    }

    func error(_ message: String, at offset: Int) -> ParseError {
        ParseError(message, at: SourceLocation(file: path, byteOffset: offset))
    }

    @inline(__always)
    private func unsigned(_ at: Int, _ size: Int) -> Int {
        var v = 0
        for k in 0..<size { v = v << 8 | Int(bytes[at + k]) }
        return v
    }

    /// Where an object starts.
    func offset(of object: Int) throws(ParseError) -> Int {
        guard object >= 0 && object < objectCount else {
            throw error("object reference \(object) is out of range (\(objectCount) objects)", at: tableOffset)
        }
        let at = tableOffset + object * offsetSize
        let offset = unsigned(at, offsetSize)
        guard offset >= 8 && offset < tableOffset else {
            throw error("object \(object) has offset \(offset) outside the object area", at: at)
        }
        return offset
    }

    /// An object's marker byte, and where its contents start and how many there are (for
    /// strings, data and collections; the count may follow as an integer object).
    func header(of object: Int) throws(ParseError) -> (marker: UInt8, start: Int, count: Int, at: Int) {
        let at = try offset(of: object)
        let marker = bytes[at]
        var count = Int(marker & 0x0F)
        var start = at + 1
        let type = marker >> 4
        if count == 0x0F && type >= 4 && type != 8 {
            guard start < tableOffset, bytes[start] >> 4 == 1 else {
                throw error("bad length of object \(object)", at: start)
            }
            let size = 1 << Int(bytes[start] & 0x0F)
            guard size <= 8, start + 1 + size <= tableOffset else {
                throw error("bad length of object \(object)", at: start)
            }
            count = unsigned(start + 1, size)
            start += 1 + size
        }
        // No count can be larger than the object area (and none may be negative).
        guard count >= 0 && count <= tableOffset else { throw error("bad length of object \(object)", at: at) }
        return (marker, start, count, at)
    }

    /// The bytes of a scalar object (anything but an array, a set or a dictionary): its
    /// marker and contents, to copy it as it is.
    func scalarBytes(_ object: Int) throws(ParseError) -> Range<Int> {
        let h = try header(of: object)
        let info = Int(h.marker & 0x0F)
        let end: Int
        switch h.marker >> 4 {
        case 0x0: end = h.at + 1
        case 0x1, 0x2: end = h.at + 1 + (1 << info)
        case 0x3: end = h.at + 9
        case 0x4, 0x5: end = h.start + h.count
        case 0x6: end = h.start + 2 * h.count
        case 0x8: end = h.at + 2 + info
        default: throw error("unknown object type 0x\(String(h.marker, radix: 16))", at: h.at)
        }
        guard end <= tableOffset else { throw error("object runs past the object area", at: h.at) }
        return h.at..<end
    }

    /// The references of an array's elements or a dictionary's keys and values.
    func references(start: Int, count: Int, at: Int) throws(ParseError) -> (Int) -> Int {
        guard referencesFit(start: start, count: count) else {
            throw error("collection runs past the object area", at: at)
        }
        return { i in reference(from: start, i) }
    }

    /// Whether `count` references from `start` lie in the object area.
    func referencesFit(start: Int, count: Int) -> Bool {
        count >= 0 && count <= (tableOffset - start) / referenceSize
    }

    /// The `i`th of references from `start` (that `referencesFit`).
    @inline(__always)
    func reference(from start: Int, _ i: Int) -> Int {
        unsigned(start + i * referenceSize, referenceSize)
    }

    /// The elements of the array `object`, or nil when it is not an array.
    func arrayElements(_ object: Int) throws(ParseError) -> [Int]? {
        let h = try header(of: object)
        guard h.marker >> 4 == 0xA else { return nil }
        let ref = try references(start: h.start, count: h.count, at: h.at)
        return (0..<h.count).map(ref)
    }

    /// The keys and values of the dictionary `object`, or nil when it is not a dictionary.
    func dictionaryEntries(_ object: Int) throws(ParseError) -> [(key: Int, value: Int)]? {
        let h = try header(of: object)
        guard h.marker >> 4 == 0xD else { return nil }
        let ref = try references(start: h.start, count: 2 * h.count, at: h.at)
        var entries: [(Int, Int)] = []
        entries.reserveCapacity(h.count)
        for i in 0..<h.count { entries.append((ref(i), ref(h.count + i))) }
        return entries
    }

    /// A string object's text, or nil when it is not a string.
    func string(_ object: Int) throws(ParseError) -> String? {
        let h = try header(of: object)
        switch h.marker >> 4 {
        case 0x5:
            guard h.start + h.count <= tableOffset else { throw error("string runs past the object area", at: h.at) }
            return String(decoding: UnsafeBufferPointer(rebasing: bytes[h.start..<(h.start + h.count)]), as: UTF8.self)
        case 0x6:
            guard h.start + 2 * h.count <= tableOffset else {
                throw error("string runs past the object area", at: h.at)
            }
            return Self.utf16BigEndian(UnsafeBufferPointer(rebasing: bytes[h.start..<(h.start + 2 * h.count)]))
        default:
            return nil
        }
    }

    /// The bytes of an ASCII string object, or nil for another object or one not well formed.
    func asciiString(_ object: Int) -> UnsafeBufferPointer<UInt8>? {
        storedString(object).flatMap { $0.utf16 ? nil : $0.raw }
    }

    /// A string object's text as it is stored: its bytes, and whether they are UTF-16
    /// (big-endian) rather than ASCII; nil for another object or one not well formed.
    func storedString(_ object: Int) -> (raw: UnsafeBufferPointer<UInt8>, utf16: Bool)? {
        guard let h = try? header(of: object) else { return nil }
        let utf16 = h.marker >> 4 == 0x6
        guard utf16 || h.marker >> 4 == 0x5 else { return nil }
        let end = h.start + (utf16 ? 2 * h.count : h.count)
        guard end <= tableOffset else { return nil }
        return (UnsafeBufferPointer(rebasing: bytes[h.start..<end]), utf16)
    }

    /// UTF-16 big-endian text as a string, transcoded by hand: the standard library's generic
    /// decoding is several times slower here. Unpaired surrogates become U+FFFD.
    static func utf16BigEndian(_ raw: UnsafeBufferPointer<UInt8>) -> String {
        let units = raw.count / 2
        guard units > 0 else { return "" }
        return String(unsafeUninitializedCapacity: units * 3) { utf16BigEndian(raw, into: $0.baseAddress!) }
    }

    /// `utf16BigEndian(_:)` as UTF-8 into `out`, which has room for three bytes a unit;
    /// returns how many bytes it wrote.
    static func utf16BigEndian(_ raw: UnsafeBufferPointer<UInt8>, into out: UnsafeMutablePointer<UInt8>) -> Int {
        let units = raw.count / 2
        guard units > 0, let source = raw.baseAddress else { return 0 }
        // Through pointers: the buffers' checked subscripts were half the work. Three
        // bytes a unit at most: a unit of four bytes is a pair of two units.
        var n = 0
        var i = 0
        while i < units {
            // Four ASCII units at a time (each a zero byte, then one below 0x80).
            while i + 4 <= units {
                let word = UnsafeRawPointer(source + 2 * i).loadUnaligned(as: UInt64.self).littleEndian
                guard word & 0x80FF_80FF_80FF_80FF == 0 else { break }
                out[n] = UInt8(truncatingIfNeeded: word >> 8)
                out[n + 1] = UInt8(truncatingIfNeeded: word >> 24)
                out[n + 2] = UInt8(truncatingIfNeeded: word >> 40)
                out[n + 3] = UInt8(truncatingIfNeeded: word >> 56)
                n += 4
                i += 4
            }
            guard i < units else { break }
            var c = UInt32(source[2 * i]) << 8 | UInt32(source[2 * i + 1])
            i += 1
            if c < 0x80 {
                out[n] = UInt8(c)
                n += 1
                continue
            }
            if c >= 0xD800 && c < 0xDC00, i < units {
                let low = UInt32(source[2 * i]) << 8 | UInt32(source[2 * i + 1])
                if low >= 0xDC00 && low < 0xE000 {
                    c = 0x10000 + ((c - 0xD800) << 10) + (low - 0xDC00)
                    i += 1
                }
            }
            if c >= 0xD800 && c < 0xE000 { c = 0xFFFD }
            if c < 0x800 {
                out[n] = UInt8(0xC0 | c >> 6)
                out[n + 1] = UInt8(0x80 | c & 0x3F)
                n += 2
            } else if c < 0x10000 {
                out[n] = UInt8(0xE0 | c >> 12)
                out[n + 1] = UInt8(0x80 | (c >> 6) & 0x3F)
                out[n + 2] = UInt8(0x80 | c & 0x3F)
                n += 3
            } else {
                out[n] = UInt8(0xF0 | c >> 18)
                out[n + 1] = UInt8(0x80 | (c >> 12) & 0x3F)
                out[n + 2] = UInt8(0x80 | (c >> 6) & 0x3F)
                out[n + 3] = UInt8(0x80 | c & 0x3F)
                n += 4
            }
        }
        return n
    }

    /// Any object as a value; `depth` guards against reference cycles.
    func value(_ object: Int, depth: Int = 0) throws(ParseError) -> FieldValue {
        guard depth < Limits.valueLevels else {
            throw error(
                "objects nested too deep (\(Limits.valueLevels) levels at most; a reference cycle?)",
                at: try offset(of: object))
        }
        let h = try header(of: object)
        let info = Int(h.marker & 0x0F)
        switch h.marker >> 4 {
        case 0x0:
            switch h.marker {
            case 0x08: return .bool(false)
            case 0x09: return .bool(true)
            case 0x00: return .null
            default: throw error("unknown object type 0x\(String(h.marker, radix: 16))", at: h.at)
            }
        case 0x1:
            let size = 1 << info
            guard size <= 16, h.at + 1 + size <= tableOffset else { throw error("bad integer", at: h.at) }
            if size == 16 {
                // 128-bit integers: Apple's and Python's writers use them for values from 2^63
                // to 2^64 - 1; plistlib reads any signed 128-bit value.
                var high: UInt64 = 0
                var low: UInt64 = 0
                for k in 0..<8 {
                    high = high << 8 | UInt64(bytes[h.at + 1 + k])
                    low = low << 8 | UInt64(bytes[h.at + 9 + k])
                }
                return WideInteger(high: high, low: low).value
            }
            var v: UInt64 = 0
            for k in 0..<size { v = v << 8 | UInt64(bytes[h.at + 1 + k]) }
            return .integer(size == 8 ? Int(Int64(bitPattern: v)) : Int(v))
        case 0x2:
            let size = 1 << info
            guard size == 4 || size == 8, h.at + 1 + size <= tableOffset else {
                throw error("bad real number", at: h.at)
            }
            var v: UInt64 = 0
            for k in 0..<size { v = v << 8 | UInt64(bytes[h.at + 1 + k]) }
            return .double(size == 4 ? Double(Float(bitPattern: UInt32(v))) : Double(bitPattern: v))
        case 0x3:
            guard h.marker == 0x33, h.at + 9 <= tableOffset else { throw error("bad date", at: h.at) }
            var v: UInt64 = 0
            for k in 0..<8 { v = v << 8 | UInt64(bytes[h.at + 1 + k]) }
            let seconds = Double(bitPattern: v)
            // A date no ISO 8601 text holds (past year 9999, NaN) stays the number it is.
            return ISO8601.holds(secondsSinceReferenceDate: seconds)
                ? .date(Date(timeIntervalSinceReferenceDate: seconds)) : .double(seconds)
        case 0x4:
            guard h.start + h.count <= tableOffset else { throw error("data runs past the object area", at: h.at) }
            return .data(Data(UnsafeBufferPointer(rebasing: bytes[h.start..<(h.start + h.count)])))
        case 0x5, 0x6:
            return .string(try string(object)!)
        case 0x8:
            // UIDs (NSKeyedArchiver) have no todofmt type: they read as their number.
            let size = info + 1
            guard size <= 8 || size == 16, h.at + 1 + size <= tableOffset else { throw error("bad UID", at: h.at) }
            var high: UInt64 = 0
            var low: UInt64 = 0
            for k in 0..<size {
                high = high << 8 | low >> 56
                low = low << 8 | UInt64(bytes[h.at + 1 + k])
            }
            return size <= 8 ? WideInteger(high: 0, low: low).value : WideInteger(high: high, low: low).value
        case 0xA:
            let ref = try references(start: h.start, count: h.count, at: h.at)
            var values: [FieldValue] = []
            values.reserveCapacity(h.count)
            for i in 0..<h.count {
                do {
                    values.append(try value(ref(i), depth: depth + 1))
                } catch {
                    throw Self.within("[\(i)]", error)
                }
            }
            return .array(values)
        case 0xD:
            let ref = try references(start: h.start, count: 2 * h.count, at: h.at)
            var fields: [Field] = []
            fields.reserveCapacity(h.count)
            for i in 0..<h.count {
                guard let key = try string(ref(i)) else {
                    throw error("dictionary key is not a string", at: try offset(of: ref(i)))
                }
                do {
                    fields.append(Field(key, try value(ref(h.count + i), depth: depth + 1)))
                } catch {
                    throw Self.within(key, error)
                }
            }
            return .dictionary(fields.lastOfEachKey())
        default:
            throw error("unknown object type 0x\(String(h.marker, radix: 16))", at: h.at)
        }
    }

    /// An error met inside a container's member (`key`, or `[i]` for an array element),
    /// naming where the wrong object stands: `bad length of object 12 (under tasks[1].title)`.
    /// A path deeper than 16 members starts with `…`; the nesting limit's error (a reference
    /// cycle, most likely) has none.
    static func within(_ member: String, _ error: ParseError) -> ParseError {
        guard !error.message.hasPrefix("objects nested too deep") else { return error }
        var error = error
        let marker = " (under "
        if let range = error.message.range(of: marker, options: .backwards), error.message.hasSuffix(")") {
            let rest = error.message[range.upperBound...]
            if rest.hasPrefix("…") { return error }
            let depth = rest.reduce(0) { $1 == "." || $1 == "[" ? $0 + 1 : $0 }
            let joined =
                depth >= 16
                ? "…" + (rest.hasPrefix("[") ? "" : ".") + rest
                : rest.hasPrefix("[") ? member + rest : member + "." + rest
            error.message = String(error.message[..<range.lowerBound]) + marker + joined
        } else {
            error.message += marker + member + ")"
        }
        return error
    }
}

/// Writes a binary property list in one pass: each object is written after its contents
/// (so its references are known), keys and short strings, numbers, dates and booleans are
/// written once and shared, and references take the fewest bytes a count of all the
/// tree's nodes allows.
struct BinaryPropertyListWriter {
    private(set) var position = 8
    private var offsets: [Int] = []
    private let referenceSize: Int
    private let layout: ItemLayout
    private var strings: [String: Int] = [:]
    private var integers: [Int: Int] = [:]
    private var reals: [UInt64: Int] = [:]
    private var dates: [UInt64: Int] = [:]
    private var booleans: [Int] = [-1, -1]

    init(nodeCount: Int, layout: ItemLayout) {
        referenceSize = nodeCount <= 0xFF ? 1 : nodeCount <= 0xFFFF ? 2 : 4
        self.layout = layout
        offsets.reserveCapacity(nodeCount)
    }

    static func write(_ root: OutputValue, layout: ItemLayout, to sink: inout ByteSink) {
        var writer = BinaryPropertyListWriter(nodeCount: root.nodeCount, layout: layout)
        sink.write("bplist00")
        let top = writer.write(root, to: &sink)
        writer.end(top: top, to: &sink)
    }

    /// Writes the offset table and the trailer, after the objects (the first written after
    /// `bplist00`); `top` is the root object.
    mutating func end(top: Int, to sink: inout ByteSink) {
        let tableOffset = position
        let offsetSize = tableOffset <= 0xFF ? 1 : tableOffset <= 0xFFFF ? 2 : tableOffset <= 0xFFFF_FFFF ? 4 : 8
        for offset in offsets { Self.writeBigEndian(UInt64(offset), size: offsetSize, to: &sink) }
        sink.write(bytes: [0, 0, 0, 0, 0, 0, UInt8(offsetSize), UInt8(referenceSize)])
        Self.writeBigEndian(UInt64(offsets.count), size: 8, to: &sink)
        Self.writeBigEndian(UInt64(top), size: 8, to: &sink)
        Self.writeBigEndian(UInt64(tableOffset), size: 8, to: &sink)
    }

    /// An object copied byte for byte (a scalar of another file: its marker and contents);
    /// returns its number.
    mutating func raw(_ object: UnsafeBufferPointer<UInt8>, to sink: inout ByteSink) -> Int {
        let n = begin()
        sink.write(object)
        position += object.count
        return n
    }

    static func writeBigEndian(_ value: UInt64, size: Int, to sink: inout ByteSink) {
        var shift = (size - 1) * 8
        while shift >= 0 {
            sink.write(byte: UInt8(truncatingIfNeeded: value >> UInt64(shift)))
            shift -= 8
        }
        sink.flushIfFull()
    }

    /// Starts a new object at the current position; returns its number.
    private mutating func begin() -> Int {
        offsets.append(position)
        return offsets.count - 1
    }

    private mutating func marker(_ type: UInt8, count: Int, to sink: inout ByteSink) {
        if count < 15 {
            sink.write(byte: type | UInt8(count))
            position += 1
        } else {
            sink.write(byte: type | 0x0F)
            position += 1
            integerBody(count, to: &sink)
        }
    }

    private mutating func integerBody(_ value: Int, to sink: inout ByteSink) {
        // Non-negative values in 1, 2 or 4 bytes; anything else in 8, signed.
        let size = value < 0 ? 8 : value <= 0xFF ? 1 : value <= 0xFFFF ? 2 : value <= 0xFFFF_FFFF ? 4 : 8
        sink.write(byte: 0x10 | UInt8(size.trailingZeroBitCount))
        Self.writeBigEndian(UInt64(bitPattern: Int64(value)), size: size, to: &sink)
        position += 1 + size
    }

    mutating func container(_ type: UInt8, refs: [Int], to sink: inout ByteSink) -> Int {
        let number = begin()
        marker(type, count: type == 0xD0 ? refs.count / 2 : refs.count, to: &sink)
        for ref in refs { Self.writeBigEndian(UInt64(ref), size: referenceSize, to: &sink) }
        position += refs.count * referenceSize
        return number
    }

    mutating func write(_ node: OutputValue, to sink: inout ByteSink) -> Int {
        switch node {
        case .value(let value):
            return write(value, to: &sink)
        case .items(let items):
            var refs: [Int] = []
            refs.reserveCapacity(items.count)
            for item in items { refs.append(write(item, to: &sink)) }
            return container(0xA0, refs: refs, to: &sink)
        case .dictionary(let entries):
            let entries = entries.filter { if case .value(.null) = $0.value { false } else { true } }
            var refs = entries.map { key($0.key, to: &sink) }
            for entry in entries { refs.append(write(entry.value, to: &sink)) }
            return container(0xD0, refs: refs, to: &sink)
        }
    }

    mutating func write(_ item: TodoItem, to sink: inout ByteSink) -> Int {
        // Property lists have no null: such fields are left out.
        let entries = layout.entries(of: item).filter { if case .value(.null) = $0.value { false } else { true } }
        var refs = entries.map { key($0.key, to: &sink) }
        for entry in entries { refs.append(write(entry.value, to: &sink)) }
        return container(0xD0, refs: refs, to: &sink)
    }

    mutating func key(_ key: String, to sink: inout ByteSink) -> Int {
        if let n = strings[key] { return n }
        let n = string(key, to: &sink)
        strings[key] = n
        return n
    }

    mutating func write(_ value: FieldValue, to sink: inout ByteSink) -> Int {
        switch value {
        case .string(let s):
            // Short strings (stored inline by Swift) are shared; long ones are mostly unique.
            if s.utf8.count <= 15 { return key(s, to: &sink) }
            return string(s, to: &sink)
        case .integer(let i):
            if let n = integers[i] { return n }
            let n = begin()
            integerBody(i, to: &sink)
            integers[i] = n
            return n
        case .double(let d):
            if let n = reals[d.bitPattern] { return n }
            let n = begin()
            sink.write(byte: 0x23)
            Self.writeBigEndian(d.bitPattern, size: 8, to: &sink)
            position += 9
            reals[d.bitPattern] = n
            return n
        case .date(let date):
            let bits = date.timeIntervalSinceReferenceDate.bitPattern
            if let n = dates[bits] { return n }
            let n = begin()
            sink.write(byte: 0x33)
            Self.writeBigEndian(bits, size: 8, to: &sink)
            position += 9
            dates[bits] = n
            return n
        case .bool(let b):
            if booleans[b ? 1 : 0] >= 0 { return booleans[b ? 1 : 0] }
            let n = begin()
            sink.write(byte: b ? 0x09 : 0x08)
            position += 1
            booleans[b ? 1 : 0] = n
            return n
        case .bigInteger(let digits):
            // 16 bytes, as Apple's and Python's writers make values from 2^63 to 2^64 - 1
            // (and plistlib reads any 128-bit value); beyond 128 bits, the digits as text.
            guard let value = WideInteger(digits: digits) else { return write(.string(digits), to: &sink) }
            let n = begin()
            sink.write(byte: 0x14)
            Self.writeBigEndian(value.high, size: 8, to: &sink)
            Self.writeBigEndian(value.low, size: 8, to: &sink)
            position += 17
            return n
        case .data(let data):
            let n = begin()
            marker(0x40, count: data.count, to: &sink)
            sink.write(bytes: data)
            position += data.count
            return n
        case .null:
            // Unreachable: containers leave nulls out, as property lists have none.
            return write(.string(""), to: &sink)
        case .array(let values):
            let refs = values.filter { $0 != .null }.map { write($0, to: &sink) }
            return container(0xA0, refs: refs, to: &sink)
        case .dictionary(let fields):
            let fields = fields.filter { $0.value != .null }
            var refs = fields.map { key($0.key, to: &sink) }
            for field in fields { refs.append(write(field.value, to: &sink)) }
            return container(0xD0, refs: refs, to: &sink)
        }
    }

    /// ASCII as bytes, anything else as UTF-16 big-endian.
    private mutating func string(_ s: String, to sink: inout ByteSink) -> Int {
        let n = begin()
        if s.utf8.allSatisfy({ $0 < 0x80 }) {
            marker(0x50, count: s.utf8.count, to: &sink)
            sink.write(s)
            position += s.utf8.count
        } else {
            let units = Array(s.utf16)
            marker(0x60, count: units.count, to: &sink)
            for unit in units {
                sink.write(byte: UInt8(unit >> 8))
                sink.write(byte: UInt8(unit & 0xFF))
            }
            sink.flushIfFull()
            position += 2 * units.count
        }
        return n
    }
}

extension OutputValue {
    /// How many objects the value holds, keys included: an upper bound for a binary
    /// property list's object count.
    var nodeCount: Int {
        switch self {
        case .value(let v): return v.nodeCount
        case .items(let items): return 1 + items.reduce(0) { $0 + Self.nodeCount(of: $1) }
        case .dictionary(let entries): return 1 + entries.reduce(0) { $0 + 1 + $1.value.nodeCount }
        }
    }

    private static func nodeCount(of item: TodoItem) -> Int {
        // name, checked, status, section, fields, nested fields, children: keys and values.
        var count = 1 + 4 + 2 * item.fields.count
        if case .custom = item.status { count += 2 }
        if item.section != nil { count += 2 }
        for field in item.fields { count += field.value.nodeCount - 1 }
        count += 2  // a `fields` dictionary, when one is needed
        if !item.children.isEmpty {
            count += 2 + item.children.reduce(0) { $0 + nodeCount(of: $1) }
        }
        return count
    }
}

extension FieldValue {
    /// How many property list objects the value is, keys included.
    var nodeCount: Int {
        switch self {
        case .array(let values): 1 + values.reduce(0) { $0 + $1.nodeCount }
        case .dictionary(let fields): 1 + fields.reduce(0) { $0 + 1 + $1.value.nodeCount }
        default: 1
        }
    }
}
