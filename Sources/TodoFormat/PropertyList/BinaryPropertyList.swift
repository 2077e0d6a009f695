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
    let referenceSize: Int
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

    /// The big-endian number of `size` bytes (1, 2, 4 or 8) at `at`, which the caller has
    /// checked lie in the file (a word of 8 bytes may come out negative).
    @inline(__always)
    private func unsigned(_ at: Int, _ size: Int) -> Int {
        let raw = UnsafeRawPointer(bytes.baseAddress!) + at
        switch size {
        case 1: return Int(raw.load(as: UInt8.self))
        case 2: return Int(UInt16(bigEndian: raw.loadUnaligned(as: UInt16.self)))
        case 4: return Int(UInt32(bigEndian: raw.loadUnaligned(as: UInt32.self)))
        default: return Int(truncatingIfNeeded: UInt64(bigEndian: raw.loadUnaligned(as: UInt64.self)))
        }
    }

    /// Where an object starts.
    func offset(of object: Int) throws(ParseError) -> Int {
        guard object >= 0 && object < objectCount else {
            throw error("object reference \(object) is out of range (\(objectCount) objects)", at: tableOffset)
        }
        guard let offset = offsetInObjectArea(object) else {
            let at = tableOffset + object * offsetSize
            throw error("object \(object) has offset \(unsigned(at, offsetSize)) outside the object area", at: at)
        }
        return offset
    }

    /// Where object `object` (less than `objectCount`) starts; nil where that is outside the
    /// object area. (Without a throw, inlined: a pass over every object asks it.)
    @inline(__always)
    func offsetInObjectArea(_ object: Int) -> Int? {
        let offset = unsigned(tableOffset + object * offsetSize, offsetSize)
        return offset >= 8 && offset < tableOffset ? offset : nil
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
        try scalarBytes(header: try header(of: object))
    }

    /// `scalarBytes(_:)` of an object whose header is `h`.
    func scalarBytes(header h: (marker: UInt8, start: Int, count: Int, at: Int)) throws(ParseError) -> Range<Int> {
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
        try checkReferences(start: start, count: count, at: at)
        return { i in reference(from: start, i) }
    }

    /// Fails unless `count` references from `start` (of the collection at `at`) lie in the
    /// object area, so that `reference(from:_:)` reads them.
    func checkReferences(start: Int, count: Int, at: Int) throws(ParseError) {
        guard referencesFit(start: start, count: count) else {
            throw error("collection runs past the object area", at: at)
        }
    }

    /// Whether `count` references from `start` lie in the object area.
    func referencesFit(start: Int, count: Int) -> Bool {
        // (Without a division: this is asked for every array and dictionary read.)
        let room = tableOffset - start
        return count >= 0 && count <= room && count * referenceSize <= room
    }

    /// The `i`th of references from `start` (that `referencesFit`).
    @inline(__always)
    func reference(from start: Int, _ i: Int) -> Int {
        unsigned(start + i * referenceSize, referenceSize)
    }

    /// How many of `count` references from `start` (that `referencesFit`) refer to an object
    /// whose bit is set in `bits` (one an object, as many words as `objectCount` needs). A
    /// loop for each reference size: a pass over every collection of the file counts them.
    @inline(__always)
    func referencesMarked(from start: Int, count: Int, in bits: UnsafeBufferPointer<UInt64>) -> Int {
        let raw = UnsafeRawPointer(bytes.baseAddress!) + start
        let objects = UInt64(objectCount)
        var marked = 0
        @inline(__always) func tally(_ target: UInt64) {
            if target < objects { marked &+= Int(truncatingIfNeeded: bits[Int(target >> 6)] >> (target & 63) & 1) }
        }
        switch referenceSize {
        case 1: for i in 0..<count { tally(UInt64(raw.load(fromByteOffset: i, as: UInt8.self))) }
        case 2:
            for i in 0..<count {
                tally(UInt64(UInt16(bigEndian: raw.loadUnaligned(fromByteOffset: 2 * i, as: UInt16.self))))
            }
        case 4:
            for i in 0..<count {
                tally(UInt64(UInt32(bigEndian: raw.loadUnaligned(fromByteOffset: 4 * i, as: UInt32.self))))
            }
        default:
            for i in 0..<count { tally(UInt64(bigEndian: raw.loadUnaligned(fromByteOffset: 8 * i, as: UInt64.self))) }
        }
        return marked
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
        return String(unsafeUninitializedCapacity: 3 * units + 1) { utf16BigEndian(raw, into: $0.baseAddress!) }
    }

    /// `utf16BigEndian(_:)` as UTF-8 into `out`, which has room for three bytes a unit and
    /// one more; returns how many bytes it wrote.
    static func utf16BigEndian(_ raw: UnsafeBufferPointer<UInt8>, into out: UnsafeMutablePointer<UInt8>) -> Int {
        let units = raw.count / 2
        guard units > 0, let source = raw.baseAddress else { return 0 }
        // Through moving pointers: the buffers' checked subscripts were half the work, and
        // places counted in units and bytes (each sum checked for overflow) and a four-unit
        // step tried before every unit a third of what was left. Three bytes a unit at most:
        // a unit of four bytes is a pair of two units.
        var p = source
        let end = source + 2 * units
        var o = out
        while p < end {
            let c = UInt32(p[0]) << 8 | UInt32(p[1])
            p += 2
            if c < 0x80 {
                o[0] = UInt8(truncatingIfNeeded: c)
                o += 1
                // Then four ASCII units at a time (each a zero byte, then one below 0x80),
                // tried only after one: text that mixes scripts has short runs of ASCII.
                while end - p >= 8 {
                    let word = UnsafeRawPointer(p).loadUnaligned(as: UInt64.self).littleEndian
                    guard word & 0x80FF_80FF_80FF_80FF == 0 else { break }
                    o[0] = UInt8(truncatingIfNeeded: word >> 8)
                    o[1] = UInt8(truncatingIfNeeded: word >> 24)
                    o[2] = UInt8(truncatingIfNeeded: word >> 40)
                    o[3] = UInt8(truncatingIfNeeded: word >> 56)
                    o += 4
                    p += 8
                }
                continue
            }
            if c & 0xF800 != 0xD800 {
                // Two or three bytes with no branch on which: text in other scripts goes
                // from one to another (Cyrillic, CJK) within a name. Both forms are made and
                // the one its size picks is stored as a word; the next unit writes over the
                // byte past it (the one byte of room more is for the last).
                let three: UInt32 = c >= 0x800 ? 1 : 0
                let w2 = (0xC0 | c >> 6) | (0x80 | c & 0x3F) << 8
                let w3 = (0xE0 | c >> 12) | (0x80 | (c >> 6) & 0x3F) << 8 | (0x80 | c & 0x3F) << 16
                UnsafeMutableRawPointer(o).storeBytes(of: (three != 0 ? w3 : w2).littleEndian, as: UInt32.self)
                o += Int(2 &+ three)
                continue
            }
            // A surrogate: a high one and a low one after it are a pair; else U+FFFD.
            if c < 0xDC00, p < end {
                let low = UInt32(p[0]) << 8 | UInt32(p[1])
                if low & 0xFC00 == 0xDC00 {
                    let pair = 0x10000 &+ ((c &- 0xD800) << 10) &+ (low &- 0xDC00)
                    p += 2
                    o[0] = UInt8(truncatingIfNeeded: 0xF0 | pair >> 18)
                    o[1] = UInt8(truncatingIfNeeded: 0x80 | (pair >> 12) & 0x3F)
                    o[2] = UInt8(truncatingIfNeeded: 0x80 | (pair >> 6) & 0x3F)
                    o[3] = UInt8(truncatingIfNeeded: 0x80 | pair & 0x3F)
                    o += 4
                    continue
                }
            }
            o[0] = 0xEF
            o[1] = 0xBF
            o[2] = 0xBD
            o += 3
        }
        return out.distance(to: o)
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
    /// Where each object starts, in 32 bits while the file is under 4 GiB (half the memory of
    /// the table: a million items make over two million objects); the objects from the
    /// first that starts beyond are in `wideOffsets`.
    private var offsets: [UInt32] = []
    private var wideOffsets: [Int] = []
    /// How many objects have been written.
    var objectCount: Int { offsets.count + wideOffsets.count }
    let referenceSize: Int
    private let layout: ItemLayout
    /// Strings of at most 15 UTF-8 bytes, and longer ones (`longStrings`), written once each,
    /// as plistlib shares every equal string. Strings are told apart by their bytes, not as
    /// Swift compares them: `é` composed and `e` with a combining accent are two strings, and
    /// each keeps its own.
    private var shortStrings = ShortStringTable()
    private var longStrings = LongStringTable()
    /// Data values, written once each (as plistlib shares them).
    private var datas = LongStringTable()
    private var integers: [Int: Int] = [:]
    private var reals: [UInt64: Int] = [:]
    private var dates: [UInt64: Int] = [:]
    private var booleans: [Int] = [-1, -1]

    init(nodeCount: Int, layout: ItemLayout) {
        referenceSize = nodeCount <= 0xFF ? 1 : nodeCount <= 0xFFFF ? 2 : 4
        self.layout = layout
        offsets.reserveCapacity(min(nodeCount, 1 << 26))
    }

    /// A writer whose references take `referenceSize` bytes (1, 2 or 4).
    init(referenceSize: Int, layout: ItemLayout) {
        self.referenceSize = referenceSize
        self.layout = layout
    }

    static func write(_ root: OutputValue, layout: ItemLayout, to sink: inout ByteSink) {
        var writer = BinaryPropertyListWriter(referenceSize: referenceSize(of: root, layout: layout), layout: layout)
        sink.write("bplist00")
        let top = writer.write(root, to: &sink)
        writer.end(top: top, to: &sink)
    }

    /// The size of the references of a file of `root`, as plistlib sizes them: by how many
    /// objects there are, equal strings and numbers written once (the bound `nodeCount`
    /// gives, counting each, took two bytes where one does). Found by writing the objects
    /// into nothing, a list's items until they are more than two-byte references reach.
    static func referenceSize(of root: OutputValue, layout: ItemLayout) -> Int {
        if root.nodeCount <= 0xFF { return 1 }
        var counter = BinaryPropertyListWriter(referenceSize: 4, layout: layout)
        var nothing = ByteSink(discarding: ())
        var count: Int
        if case .items(let items) = root {
            for item in items {
                _ = counter.write(item, to: &nothing)
                if counter.objectCount >= 0xFFFF { return 4 }
            }
            count = counter.objectCount + 1  // the list's array
        } else {
            _ = counter.write(root, to: &nothing)
            count = counter.objectCount
        }
        return Self.referenceSize(count: count)
    }

    /// The size of references to `count` objects.
    static func referenceSize(count: Int) -> Int { count <= 0xFF ? 1 : count <= 0xFFFF ? 2 : 4 }

    /// Writes the offset table and the trailer, after the objects (the first written after
    /// `bplist00`); `top` is the root object.
    mutating func end(top: Int, to sink: inout ByteSink) {
        let tableOffset = position
        let offsetSize = tableOffset <= 0xFF ? 1 : tableOffset <= 0xFFFF ? 2 : tableOffset <= 0xFFFF_FFFF ? 4 : 8
        func table<C: RandomAccessCollection>(_ offsets: C) where C.Element: BinaryInteger, C.Index == Int {
            var written = offsets.startIndex
            while written < offsets.endIndex {
                let chunk = min(offsets.endIndex - written, 1 << 16)
                sink.write(upTo: chunk * offsetSize) { start in
                    var at = start
                    for offset in offsets[written..<(written + chunk)] {
                        at = Self.put(UInt64(offset), size: offsetSize, at: at)
                    }
                    return start.distance(to: at)
                }
                written += chunk
            }
        }
        table(offsets)
        table(wideOffsets)
        sink.write(bytes: [0, 0, 0, 0, 0, 0, UInt8(offsetSize), UInt8(referenceSize)])
        Self.writeBigEndian(UInt64(objectCount), size: 8, to: &sink)
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
        sink.write(upTo: size) { start in start.distance(to: put(value, size: size, at: start)) }
    }

    /// Puts the last `size` bytes of `value` at `at`, big-endian; returns where they end.
    @inline(__always)
    private static func put(_ value: UInt64, size: Int, at: UnsafeMutablePointer<UInt8>) -> UnsafeMutablePointer<UInt8>
    {
        switch size {
        case 1: at.pointee = UInt8(truncatingIfNeeded: value)
        case 2: UnsafeMutableRawPointer(at).storeBytes(of: UInt16(truncatingIfNeeded: value).bigEndian, as: UInt16.self)
        case 4: UnsafeMutableRawPointer(at).storeBytes(of: UInt32(truncatingIfNeeded: value).bigEndian, as: UInt32.self)
        default: UnsafeMutableRawPointer(at).storeBytes(of: value.bigEndian, as: UInt64.self)
        }
        return at + size
    }

    /// Starts a new object at the current position; returns its number.
    private mutating func begin() -> Int {
        if wideOffsets.isEmpty, let short = UInt32(exactly: position) {
            offsets.append(short)
        } else {
            wideOffsets.append(position)
        }
        return objectCount - 1
    }

    /// Puts an object's marker for `count` elements or bytes (with the count as an integer
    /// after it from 15 on); returns where it ends. Ten bytes at most.
    @inline(__always)
    private static func putMarker(_ type: UInt8, count: Int, at: UnsafeMutablePointer<UInt8>) -> UnsafeMutablePointer<
        UInt8
    > {
        if count < 15 {
            at.pointee = type | UInt8(count)
            return at + 1
        }
        at.pointee = type | 0x0F
        return putInteger(count, at: at + 1)
    }

    /// Puts an integer object (marker and bytes): non-negative values in 1, 2 or 4 bytes,
    /// anything else in 8, signed. Nine bytes at most.
    @inline(__always)
    private static func putInteger(_ value: Int, at: UnsafeMutablePointer<UInt8>) -> UnsafeMutablePointer<UInt8> {
        let size = value < 0 ? 8 : value <= 0xFF ? 1 : value <= 0xFFFF ? 2 : value <= 0xFFFF_FFFF ? 4 : 8
        at.pointee = 0x10 | UInt8(size.trailingZeroBitCount)
        return put(UInt64(bitPattern: Int64(value)), size: size, at: at + 1)
    }

    /// Writes bytes of at most `most` through `body`, which puts them and returns where they
    /// end, and counts them in `position`.
    @inline(__always)
    private mutating func put(
        upTo most: Int, to sink: inout ByteSink, _ body: (UnsafeMutablePointer<UInt8>) -> UnsafeMutablePointer<UInt8>
    ) {
        var n = 0
        sink.write(upTo: most) { start in
            n = start.distance(to: body(start))
            return n
        }
        position += n
    }

    mutating func container(_ type: UInt8, refs: [Int], to sink: inout ByteSink) -> Int {
        container(type, count: refs.count, to: &sink) { refs[$0] }
    }

    /// A container of `count` references, the `i`th `ref(i)` (an array, a set, or a
    /// dictionary's keys then values); returns its number.
    mutating func container(_ type: UInt8, count: Int, to sink: inout ByteSink, ref: (Int) -> Int) -> Int {
        let number = begin()
        let size = referenceSize
        put(upTo: 10 + count * size, to: &sink) { start in
            var at = Self.putMarker(type, count: type == 0xD0 ? count / 2 : count, at: start)
            for i in 0..<count { at = Self.put(UInt64(ref(i)), size: size, at: at) }
            return at
        }
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

    /// A key's object, written once, as every string is (`write(string:to:)`).
    mutating func key(_ key: String, to sink: inout ByteSink) -> Int {
        var key = key
        return key.withUTF8 { write(string: $0, to: &sink) }
    }

    /// A string of at most 15 UTF-8 bytes (`ShortStringTable.longest`), written once.
    mutating func shared(utf8 bytes: UnsafeBufferPointer<UInt8>, to sink: inout ByteSink) -> Int {
        let slot = shortStrings.slot(of: bytes)
        if let n = shortStrings.object(at: slot) { return n }
        let n = string(utf8: bytes, to: &sink)
        shortStrings.insert(n, at: slot)
        return n
    }

    /// A string value's object, written once (`shortStrings`, `longStrings`).
    mutating func write(string utf8: UnsafeBufferPointer<UInt8>, to sink: inout ByteSink) -> Int {
        if utf8.count <= ShortStringTable.longest { return shared(utf8: utf8, to: &sink) }
        let slot = longStrings.slot(of: utf8)
        if let n = longStrings.object(at: slot) { return n }
        let n = string(utf8: utf8, to: &sink)
        longStrings.insert(n, bytes: utf8, at: slot)
        return n
    }

    mutating func write(_ value: FieldValue, to sink: inout ByteSink) -> Int {
        switch value {
        case .string(var s):
            return s.withUTF8 { write(string: $0, to: &sink) }
        case .integer(let i):
            if let n = integers[i] { return n }
            let n = begin()
            put(upTo: 9, to: &sink) { Self.putInteger(i, at: $0) }
            integers[i] = n
            return n
        case .double(let d):
            if let n = reals[d.bitPattern] { return n }
            let n = scalar(0x23, d.bitPattern, to: &sink)
            reals[d.bitPattern] = n
            return n
        case .date(let date):
            let bits = date.timeIntervalSinceReferenceDate.bitPattern
            if let n = dates[bits] { return n }
            let n = scalar(0x33, bits, to: &sink)
            dates[bits] = n
            return n
        case .bool(let b):
            return boolean(b, to: &sink)
        case .bigInteger(let digits):
            // 16 bytes, as Apple's and Python's writers make values from 2^63 to 2^64 - 1
            // (and plistlib reads any 128-bit value); beyond 128 bits, the digits as text.
            guard let value = WideInteger(digits: digits) else { return write(.string(digits), to: &sink) }
            let n = begin()
            put(upTo: 17, to: &sink) { at in
                at.pointee = 0x14
                return Self.put(value.low, size: 8, at: Self.put(value.high, size: 8, at: at + 1))
            }
            return n
        case .data(let data):
            return data.withUnsafeBytes { raw in
                let bytes = raw.bindMemory(to: UInt8.self)
                let slot = datas.slot(of: bytes)
                if let n = datas.object(at: slot) { return n }
                let n = begin()
                put(upTo: 10, to: &sink) { Self.putMarker(0x40, count: bytes.count, at: $0) }
                sink.write(bytes)
                position += bytes.count
                datas.insert(n, bytes: bytes, at: slot)
                return n
            }
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

    /// The object of `true` or `false`, written once.
    mutating func boolean(_ b: Bool, to sink: inout ByteSink) -> Int {
        if booleans[b ? 1 : 0] >= 0 { return booleans[b ? 1 : 0] }
        let n = begin()
        sink.write(byte: b ? 0x09 : 0x08)
        position += 1
        booleans[b ? 1 : 0] = n
        return n
    }

    /// An object of a marker byte and eight bytes (a real, a date).
    private mutating func scalar(_ marker: UInt8, _ bits: UInt64, to sink: inout ByteSink) -> Int {
        let n = begin()
        put(upTo: 9, to: &sink) { at in
            at.pointee = marker
            return Self.put(bits, size: 8, at: at + 1)
        }
        return n
    }

    private mutating func string(_ s: String, to sink: inout ByteSink) -> Int {
        var s = s
        return s.withUTF8 { string(utf8: $0, to: &sink) }
    }

    /// A new string object of valid UTF-8 text: ASCII as bytes, anything else as UTF-16
    /// big-endian, transcoded here (making the string's UTF-16 view was a tenth of the write).
    private mutating func string(utf8 bytes: UnsafeBufferPointer<UInt8>, to sink: inout ByteSink) -> Int {
        let n = begin()
        if Self.isASCII(bytes) {
            put(upTo: 10 + bytes.count, to: &sink) { start in
                let at = Self.putMarker(0x50, count: bytes.count, at: start)
                if let source = bytes.baseAddress { at.update(from: source, count: bytes.count) }
                return at + bytes.count
            }
            return n
        }
        // At most a unit for each byte: transcoded past the room a marker takes, then moved
        // to just after the marker, whose size depends on the count of units.
        put(upTo: 10 + 2 * bytes.count, to: &sink) { start in
            let units = Self.utf16BigEndian(fromUTF8: bytes, into: start + 10)
            let at = Self.putMarker(0x60, count: units, at: start)
            memmove(at, start + 10, 2 * units)
            return at + 2 * units
        }
        return n
    }
}

extension BinaryPropertyListWriter {
    /// Valid UTF-8 text as UTF-16 big-endian units at `out` (room for one a byte); returns
    /// how many it put. Eight ASCII bytes at a time where the text has them.
    static func utf16BigEndian(fromUTF8 bytes: UnsafeBufferPointer<UInt8>, into out: UnsafeMutablePointer<UInt8>)
        -> Int
    {
        guard let source = bytes.baseAddress else { return 0 }
        // Through moving pointers, as the reader's transcoding goes (`utf16BigEndian(_:into:)`).
        var p = source
        let end = source + bytes.count
        var at = out
        while p < end {
            let b = UInt32(p[0])
            var scalar: UInt32
            if b < 0x80 {
                // The ASCII bytes of the next eight up to the first that is not (all eight
                // where none is) at once: each byte b as the unit 0x00 b, the bytes spread
                // apart, then shifted up. All eight are put, and `at` moves past those that
                // count (the room holds a unit a byte, and the eight bytes are there). Text
                // that mixes scripts has short runs of ASCII between its other characters,
                // which went a byte at a time, each loading its word again.
                if end - p >= 8 {
                    let word = UnsafeRawPointer(p).loadUnaligned(as: UInt64.self).littleEndian
                    UnsafeMutableRawPointer(at).storeBytes(of: spread(word & 0xFFFF_FFFF), as: UInt64.self)
                    UnsafeMutableRawPointer(at + 8).storeBytes(of: spread(word >> 32), as: UInt64.self)
                    let high = word & 0x8080_8080_8080_8080
                    let ascii = high == 0 ? 8 : high.trailingZeroBitCount &>> 3
                    at += ascii &<< 1
                    p += ascii
                    continue
                }
                scalar = b
                p += 1
            } else {
                scalar = Self.scalar(at: &p, lead: b)
                if scalar >= 0x10000 {
                    scalar &-= 0x10000
                    at = put(UInt64(0xD800 | scalar >> 10), size: 2, at: at)
                    scalar = 0xDC00 | scalar & 0x3FF
                }
            }
            at = put(UInt64(scalar), size: 2, at: at)
        }
        return out.distance(to: at) / 2
    }

    /// Whether `units` are the UTF-16 (big-endian) units `utf16BigEndian(fromUTF8:into:)`
    /// makes of `utf8` (valid UTF-8), found without making them: a scalar at a time, four
    /// ASCII bytes at once, stopping at the first unit that differs. (Making the units, then
    /// comparing them, was a fifth of comparing a list with a binary file's items.)
    static func isUTF16BigEndian(_ units: UnsafeBufferPointer<UInt8>, of utf8: UnsafeBufferPointer<UInt8>) -> Bool {
        guard var p = utf8.baseAddress, var q = units.baseAddress else { return utf8.isEmpty && units.isEmpty }
        let end = p + utf8.count
        let unitsEnd = q + units.count
        func unit(_ at: UnsafePointer<UInt8>) -> UInt32 { UInt32(at[0]) << 8 | UInt32(at[1]) }
        while p < end {
            guard unitsEnd - q >= 2 else { return false }
            let b = UInt32(p[0])
            var scalar: UInt32
            if b < 0x80 {
                if end - p >= 4 && unitsEnd - q >= 8 {
                    let word = UInt64(UnsafeRawPointer(p).loadUnaligned(as: UInt32.self).littleEndian)
                    if word & 0x8080_8080 == 0 {
                        guard UnsafeRawPointer(q).loadUnaligned(as: UInt64.self) == spread(word) else { return false }
                        p += 4
                        q += 8
                        continue
                    }
                }
                scalar = b
                p += 1
            } else {
                let s = Self.scalar(at: &p, lead: b)
                if s >= 0x10000 {
                    guard unit(q) == 0xD800 | (s &- 0x10000) >> 10, unitsEnd - q >= 4 else { return false }
                    q += 2
                    scalar = 0xDC00 | s & 0x3FF
                } else {
                    scalar = s
                }
            }
            guard unit(q) == scalar else { return false }
            q += 2
        }
        return q == unitsEnd
    }

    /// The scalar of the UTF-8 sequence at `p` (valid UTF-8) whose lead byte `b` is not ASCII,
    /// with `p` moved past it.
    @inline(__always)
    private static func scalar(at p: inout UnsafePointer<UInt8>, lead b: UInt32) -> UInt32 {
        let scalar: UInt32
        if b < 0xE0 {
            scalar = (b & 0x1F) << 6 | UInt32(p[1] & 0x3F)
            p += 2
        } else if b < 0xF0 {
            scalar = (b & 0x0F) << 12 | UInt32(p[1] & 0x3F) << 6 | UInt32(p[2] & 0x3F)
            p += 3
        } else {
            scalar = (b & 0x07) << 18 | UInt32(p[1] & 0x3F) << 12 | UInt32(p[2] & 0x3F) << 6 | UInt32(p[3] & 0x3F)
            p += 4
        }
        return scalar
    }

    /// Four bytes (the low half of `word`, in memory order) as four big-endian units 0x00 b:
    /// the bytes spread apart, then shifted up.
    @inline(__always)
    private static func spread(_ word: UInt64) -> UInt64 {
        var t = (word | word << 16) & 0x0000_FFFF_0000_FFFF
        t = (t | t << 8) & 0x00FF_00FF_00FF_00FF
        return (t << 8).littleEndian
    }

    /// Whether every byte is below 0x80, eight at a time.
    @inline(__always)
    static func isASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = bytes.baseAddress else { return true }
        var i = 0
        var seen: UInt64 = 0
        while i + 8 <= bytes.count {
            seen |= UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self)
            i += 8
        }
        while i < bytes.count {
            seen |= UInt64(base[i])
            i += 1
        }
        return seen & 0x8080_8080_8080_8080 == 0
    }
}

/// The objects of strings of at most 15 UTF-8 bytes, by their bytes: open addressing on the
/// bytes packed in two words, with a multiplicative hash (Swift's dictionary of strings
/// hashed each with SipHash, a tenth of a binary write of a checklist's short names).
struct ShortStringTable {
    static let longest = 15

    private var keys: [(UInt64, UInt64)] = Array(repeating: (0, 0), count: 1024)
    private var objects: [Int] = Array(repeating: -1, count: 1024)
    private var count = 0

    /// Where the bytes are, or go: the slot of `object(at:)` and `insert(_:at:)`.
    func slot(of bytes: UnsafeBufferPointer<UInt8>) -> (index: Int, key: (UInt64, UInt64)) {
        var low: UInt64 = 0
        var high = UInt64(bytes.count) << 56
        for (i, byte) in bytes.enumerated() {
            if i < 8 { low |= UInt64(byte) << (8 * UInt64(i)) } else { high |= UInt64(byte) << (8 * UInt64(i - 8)) }
        }
        let mask = objects.count - 1
        var index = Self.hash((low, high)) & mask
        while objects[index] >= 0, keys[index] != (low, high) { index = (index + 1) & mask }
        return (index, (low, high))
    }

    func object(at slot: (index: Int, key: (UInt64, UInt64))) -> Int? {
        objects[slot.index] >= 0 ? objects[slot.index] : nil
    }

    mutating func insert(_ object: Int, at slot: (index: Int, key: (UInt64, UInt64))) {
        keys[slot.index] = slot.key
        objects[slot.index] = object
        count += 1
        if 2 * count > objects.count { grow() }
    }

    @inline(__always)
    private static func hash(_ key: (UInt64, UInt64)) -> Int {
        let mixed = ((key.0 &* 0x9E37_79B9_7F4A_7C15) ^ key.1) &* 0xBF58_476D_1CE4_E5B9
        return Int(truncatingIfNeeded: mixed >> 32)
    }

    private mutating func grow() {
        let old = zip(keys, objects).filter { $0.1 >= 0 }
        keys = Array(repeating: (0, 0), count: 2 * objects.count)
        objects = Array(repeating: -1, count: keys.count)
        let mask = objects.count - 1
        for (key, object) in old {
            var index = Self.hash(key) & mask
            while objects[index] >= 0 { index = (index + 1) & mask }
            keys[index] = key
            objects[index] = object
        }
    }
}

/// The objects of strings longer than `ShortStringTable.longest` (or of data), by their
/// bytes: open addressing on a hash of the bytes, which are kept in one arena to compare.
/// plistlib shares every equal string, so a list whose long names, sections or field values
/// repeat was several times the size of plistlib's file without it.
///
/// The table keeps at most 16,383 strings (`capacity`) and 1 MiB of their bytes: the
/// distinct strings a list repeats (owners, sections, recurring names) come early and are
/// few, while a list of a million distinct long names looked each up in a table too large
/// for the cache (a third more time for a new file, with the bytes all kept). Past that,
/// strings met before are still found and new ones are written without being kept. Each
/// slot holds a tag of the hash beside its entry, so that a string not there is told in
/// one look at a table of 128 KiB.
struct LongStringTable {
    static let capacity = 16_383
    static let budget = 1 << 20

    private struct Entry {
        var start: UInt32
        var count: UInt32
        var object: Int
    }

    /// For each slot: 0 when empty, else the hash's low 16 bits above the entry's number
    /// plus one.
    private var slots: [UInt32] = Array(repeating: 0, count: 2 * (capacity + 1))
    private var entries: [Entry] = []
    private var arena: [UInt8] = []

    /// Where the bytes are, or would go (-1: nowhere, the table being full), and their hash.
    func slot(of bytes: UnsafeBufferPointer<UInt8>) -> (index: Int, hash: UInt64) {
        let hash = UInt64(bitPattern: Int64(ByteDigest.of(bytes)))
        let tag = UInt32(truncatingIfNeeded: hash) << 16
        let mask = slots.count - 1
        var index = Int(truncatingIfNeeded: hash >> 32) & mask
        return slots.withUnsafeBufferPointer { slots in
            while true {
                let slot = slots[index]
                if slot == 0 {
                    let room = entries.count < Self.capacity && arena.count + bytes.count <= Self.budget
                    return (room ? index : -1, hash)
                }
                if slot & 0xFFFF_0000 == tag {
                    let entry = entries[Int(slot & 0xFFFF) - 1]
                    if Int(entry.count) == bytes.count
                        && arena.withUnsafeBufferPointer({
                            memcmp($0.baseAddress! + Int(entry.start), bytes.baseAddress!, bytes.count) == 0
                        })
                    {
                        return (index, hash)
                    }
                }
                index = (index + 1) & mask
            }
        }
    }

    /// The object of the bytes found at `slot`, or nil.
    func object(at slot: (index: Int, hash: UInt64)) -> Int? {
        guard slot.index >= 0 else { return nil }
        let value = slots[slot.index]
        return value == 0 ? nil : entries[Int(value & 0xFFFF) - 1].object
    }

    /// Keeps `bytes`, whose object is `object`, at `slot` (which `slot(of:)` gave for them;
    /// nothing where it gave none).
    mutating func insert(_ object: Int, bytes: UnsafeBufferPointer<UInt8>, at slot: (index: Int, hash: UInt64)) {
        guard slot.index >= 0, bytes.count > 0 else { return }
        entries.append(Entry(start: UInt32(arena.count), count: UInt32(bytes.count), object: object))
        slots[slot.index] = UInt32(truncatingIfNeeded: slot.hash) << 16 | UInt32(entries.count)
        arena.append(contentsOf: bytes)
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
        var count = ownNodeCount(of: item)
        if !item.children.isEmpty {
            count += 2 + item.children.reduce(0) { $0 + nodeCount(of: $1) }  // the children's key and array
        }
        return count
    }

    /// `nodeCount` of an item but for its children.
    static func ownNodeCount(of item: TodoItem) -> Int {
        // name, checked, status, section, fields, nested fields: keys and values.
        var count = 1 + 4 + 2 * item.fields.count
        if case .custom = item.status { count += 2 }
        if item.section != nil { count += 2 }
        for field in item.fields { count += field.value.nodeCount - 1 }
        return count + 2  // a `fields` dictionary, when one is needed
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
