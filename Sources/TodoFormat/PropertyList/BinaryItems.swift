/// Items of a binary property list read straight from its objects: a dictionary whose keys
/// are todofmt's own (`name`, `checked`, `status`, `section`, `children`, each given once,
/// with a string name, status and section and a boolean `checked`) and ordinary fields
/// becomes its item without a value made of the whole dictionary, each key read once for
/// the file (a writer that shares keys, as Apple's, plistlib and todofmt do, writes one
/// object a key), and no search for keys given twice among the own keys: what
/// `ItemSchema.item(from:…)` makes of the dictionary's value, at a third of the work. Any
/// other dictionary (a key of another role, a key given twice, a value that cannot play its
/// role, anything not well formed) is left to that path, which also reports what is wrong.
struct BinaryItems {
    private let reader: BinaryPropertyListReader
    private let schema: ItemSchema
    /// What each key object met is, by reference (a few dozen at most are kept).
    private var keyObjects: [Int] = []
    private var keyKinds: [KeyKind] = []
    /// For the key objects below 256 (where writers put keys they share), whether each is
    /// one of todofmt's own, looked up by the object for plain items (`ownRole(ofKey:)`): 0
    /// not yet known, 1 not one, else 2 + the role's place in `Self.roles`. (Searching
    /// `keyObjects` and copying the kind found, an enum that may hold a string, for each
    /// key was 6% of reading a large list.)
    private var ownKeyCodes = [UInt8](repeating: 0, count: 256)
    private static let roles = ItemRole.allCases
    /// The last section object read, and its text: a run of items shares it.
    private var lastSection: (object: Int, text: String)?
    /// The last `false` and `true` objects met (`boolean(_:)`); -1 before one is.
    private var booleanObjects = (false: -1, true: -1)
    /// The statuses of the first few status objects met (a list has a few, which items take
    /// by turns: keeping only the last one's text made a string for most).
    private var statuses: [(object: Int, status: TodoStatus?)] = []
    /// The last section object found to hold a section's text (`compare`), and that text.
    private var lastMatchedSection: (object: Int, text: String)?

    private enum KeyKind {
        /// One of todofmt's own keys.
        case own(ItemRole)
        /// A key of no role: the item's field.
        case field(String)
        /// Anything else (another role's key, a key that is not a string).
        case other
    }

    /// A reader of `reader`'s items for a schema that names no keys and maps no status values
    /// (`reads(_:)`).
    init(_ reader: BinaryPropertyListReader, schema: ItemSchema) {
        self.reader = reader
        self.schema = schema
    }

    /// Whether a schema's items can be read so: todofmt's own keys play their roles.
    static func reads(_ schema: ItemSchema) -> Bool { schema.namesNoKeys && !schema.mapsStatusValues }

    /// The item of the dictionary `object` at `depth`, or nil when it is not one this reads.
    mutating func item(_ object: Int, depth: Int) -> TodoItem? {
        guard let h = dictionary(object, depth: depth) else { return nil }
        func ref(_ i: Int) -> Int { reader.reference(from: h.start, i) }
        var seen: UInt8 = 0
        var name: String?
        // As `ItemBuilder` takes them: the last of `checked` and `status` says whether the
        // item is done (`ItemBuilder.status(checked:custom:fields:)`).
        var checked: Bool?
        var custom: TodoStatus?
        var section: String?
        var children: [TodoItem] = []
        var fields: [Field] = []
        for i in 0..<h.count {
            let value = ref(h.count + i)
            let role: ItemRole
            switch kind(ofKey: ref(i)) {
            case .other: return nil
            case .field(let key):
                guard appendField(key, value, depth: depth, to: &fields) else { return nil }
                continue
            case .own(let own): role = own
            }
            guard seen & ItemBuilder.bit(role) == 0 else { return nil }
            seen |= ItemBuilder.bit(role)
            switch role {
            case .name:
                guard let text = string(value) else { return nil }
                name = text
            case .checked, .status:
                guard takeDoneness(role, value, checked: &checked, custom: &custom) else { return nil }
            case .section:
                // Below the top, a section is an ordinary field.
                guard depth == 0, let text = string(value, last: &lastSection) else { return nil }
                section = text
            case .children:
                guard let c = array(value) else { return nil }
                children.reserveCapacity(c.count)
                for k in 0..<c.count {
                    guard let child = item(reader.reference(from: c.start, k), depth: depth + 1) else { return nil }
                    children.append(child)
                }
            case .fields, .order:
                return nil
            }
        }
        guard let name else { return nil }
        return TodoItem(
            name: name, status: ItemBuilder.status(checked: checked, custom: custom, fields: fields), fields: fields,
            children: children, section: section)
    }

    /// Appends the field `key` with the value object `value` of a dictionary at `depth`;
    /// false for a key given twice (it has its last value: the value path reads it) or a
    /// value not well formed.
    private func appendField(_ key: String, _ value: Int, depth: Int, to fields: inout [Field]) -> Bool {
        guard !fields.contains(where: { $0.key.sameKey(as: key) }),
            let value = try? reader.value(value, depth: 2 * depth + 1)
        else { return false }
        fields.append(Field(key, value))
        return true
    }

    // MARK: Comparing

    /// Whether the dictionary `object` at `depth` reads as `item` (what `item(_:depth:)`
    /// makes of it equals `item`), found without making the item: names and other strings
    /// are compared as stored bytes. False also where that does not show it (a dictionary
    /// this does not read, a string spelled with other bytes that Swift takes for the same):
    /// the caller then compares the item read.
    mutating func matches(_ object: Int, _ item: TodoItem, depth: Int) -> Bool {
        var name = item.nameStorage
        guard
            let found = name.withUTF8({
                compare(object, name: $0, section: item.section, fields: item.fields, depth: depth)
            }),
            ItemBuilder.status(checked: found.doneness.checked, custom: found.doneness.custom, fields: item.fields)
                == item.status
        else { return false }
        guard let c = found.children else { return item.children.isEmpty }
        guard c.count == item.children.count else { return false }
        return item.children.withUnsafeBufferPointer { children in
            (0..<c.count).allSatisfy { matches(reader.reference(from: c.start, $0), children[$0], depth: depth + 1) }
        }
    }

    /// Whether the string object `object` holds the text `utf8` in the bytes a writer makes
    /// of it: ASCII as it is, anything else as UTF-16 (big-endian).
    private func matches(_ object: Int, utf8: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let stored = reader.storedString(object) else { return false }
        guard stored.utf16 else { return ByteScan.same(stored.raw, utf8) }
        return BinaryPropertyListWriter.isUTF16BigEndian(stored.raw, of: utf8)
    }

    /// What an item's dictionary holds of whether the item is done: its `checked` value and
    /// where that value's reference is (-1 without the key), and whether it has a `status`.
    struct Doneness {
        var checked: Bool?
        var custom: TodoStatus?
        var hasStatus = false
        var checkedReference = -1
    }

    /// `matches(_:_:depth:)` for an item that comes without its children, as a streamed
    /// list's items do: whether the dictionary `object` at `depth` reads as an item named
    /// `name` (its UTF-8) with `section` and `fields`, its doneness and children left to the
    /// caller. Nil where it does not, or where that does not show it; else the doneness and
    /// the children's array object (nil without a `children` key).
    mutating func compare(
        _ object: Int, name: UnsafeBufferPointer<UInt8>, section: String?, fields: [Field], depth: Int
    ) -> (doneness: Doneness, children: (object: Int, start: Int, count: Int)?)? {
        guard let h = dictionary(object, depth: depth) else { return nil }
        var seen: UInt8 = 0
        var doneness = Doneness()
        var children: (object: Int, start: Int, count: Int)?
        var fieldCount = 0
        for i in 0..<h.count {
            let value = reader.reference(from: h.start, h.count + i)
            let key = reader.reference(from: h.start, i)
            guard let role = ownRole(ofKey: key) else {
                // A field in its place, given once (`item(_:depth:)` leaves a key given twice).
                guard case .field(let key) = kind(ofKey: key), fieldCount < fields.count,
                    fields[fieldCount].key.sameKey(as: key),
                    !fields[..<fieldCount].contains(where: { $0.key.sameKey(as: key) }),
                    matches(value, fields[fieldCount].value, depth: 2 * depth + 1)
                else { return nil }
                fieldCount += 1
                continue
            }
            guard seen & ItemBuilder.bit(role) == 0 else { return nil }
            seen |= ItemBuilder.bit(role)
            switch role {
            case .name:
                guard matches(value, utf8: name) else { return nil }
            case .checked, .status:
                guard takeDoneness(role, value, checked: &doneness.checked, custom: &doneness.custom) else {
                    return nil
                }
                if role == .status {
                    doneness.hasStatus = true
                } else {
                    doneness.checkedReference = h.start + (h.count + i) * reader.referenceSize
                }
            case .section:
                // A run of items shares its section's object, and the reader its string.
                guard depth == 0, var section else { return nil }
                if let last = lastMatchedSection, last.object == value, last.text == section { break }
                guard section.withUTF8({ matches(value, utf8: $0) }) else { return nil }
                lastMatchedSection = (value, section)
            case .children:
                guard let c = array(value) else { return nil }
                children = (value, c.start, c.count)
            case .fields, .order:
                return nil
            }
        }
        guard seen & ItemBuilder.bit(.name) != 0, fieldCount == fields.count,
            seen & ItemBuilder.bit(.section) != 0 || section == nil
        else { return nil }
        return (doneness, children)
    }

    /// Whether the object `object` reads as the field value `value` (strings by their
    /// bytes, as `matches(_:utf8:)`).
    private func matches(_ object: Int, _ value: FieldValue, depth: Int) -> Bool {
        if case .string(var text) = value { return text.withUTF8 { matches(object, utf8: $0) } }
        guard let read = try? reader.value(object, depth: depth) else { return false }
        return read == value
    }

    // MARK: Plain items

    /// Plain items gathered for a sink that takes them (`PlainItemSink`): names' UTF-8 in
    /// `text`, top-level items' sections in `sections`. An item with fields is kept in
    /// `items` with `nameEnd` -2 and, as `nameStart`, its place in `fielded`, which holds
    /// where its name is in `text` and its fields (as a checklist's items are queued:
    /// `PlainItemSink.take(queued:…)`).
    struct PlainBatch {
        var items: [PlainItem] = []
        var text = ByteSink()
        var sections: [String] = []
        var fielded: [(name: Range<Int>, fields: [Field])] = []

        /// Hands the items to `sink` in order, each run of items without fields at once, and
        /// empties the batch.
        mutating func send<S: PlainItemSink>(into sink: inout S) throws {
            try text.withBytes { try sink.take(queued: items, text: $0, sections: sections, fielded: fielded) }
            items.removeAll(keepingCapacity: true)
            text.truncate(to: 0)
            sections.removeAll(keepingCapacity: true)
            fielded.removeAll(keepingCapacity: true)
        }
    }

    /// Adds the item of the top-level dictionary `object` and every item under it to
    /// `batch` when all of them are plain: todofmt's own keys and ordinary fields, each
    /// given once, and a name a checklist's plain name could be (one line, no `"`, `\`, `&`
    /// or control character: `ByteScan.containsEscapeOrJSONEscape`), so that every writer
    /// takes its bytes as they are. Else returns false with `batch` as it was, for
    /// `item(_:depth:)` to read. (Items with fields went that way once: a fourteenth of the
    /// items of a large list, they were a third of reading it.)
    mutating func appendPlain(_ object: Int, to batch: inout PlainBatch) -> Bool {
        let counts = (batch.items.count, batch.text.byteCount, batch.sections.count, batch.fielded.count)
        if appendPlain(object, depth: 0, to: &batch) { return true }
        batch.items.removeSubrange(counts.0...)
        batch.text.truncate(to: counts.1)
        batch.sections.removeSubrange(counts.2...)
        batch.fielded.removeSubrange(counts.3...)
        return false
    }

    private mutating func appendPlain(_ object: Int, depth: Int, to batch: inout PlainBatch) -> Bool {
        guard let h = dictionary(object, depth: depth) else { return false }
        var seen: UInt8 = 0
        var name = -1
        var checked: Bool?
        var custom: TodoStatus?
        var section = -1
        var children: (start: Int, count: Int)?
        var fields: [Field] = []
        for i in 0..<h.count {
            let value = reader.reference(from: h.start, h.count + i)
            let key = reader.reference(from: h.start, i)
            guard let role = ownRole(ofKey: key) else {
                guard case .field(let key) = kind(ofKey: key), appendField(key, value, depth: depth, to: &fields)
                else { return false }
                continue
            }
            guard seen & ItemBuilder.bit(role) == 0 else { return false }
            seen |= ItemBuilder.bit(role)
            // Each role as `item(_:depth:)` reads it.
            switch role {
            case .name:
                name = value
            case .checked, .status:
                guard takeDoneness(role, value, checked: &checked, custom: &custom) else { return false }
            case .section:
                guard depth == 0, let text = string(value, last: &lastSection) else { return false }
                if batch.sections.last != text { batch.sections.append(text) }
                section = batch.sections.count - 1
            case .children:
                guard let c = array(value) else { return false }
                children = (c.start, c.count)
            case .fields, .order:
                return false
            }
        }
        guard name >= 0, let start = appendName(name, to: &batch.text) else { return false }
        let status = ItemBuilder.status(checked: checked, custom: custom, fields: fields)
        if fields.isEmpty {
            batch.items.append(
                PlainItem(
                    nameStart: start, nameEnd: batch.text.byteCount, status: status, depth: depth, section: section))
        } else {
            batch.fielded.append((start..<batch.text.byteCount, fields))
            batch.items.append(
                PlainItem(
                    nameStart: batch.fielded.count - 1, nameEnd: -2, status: status, depth: depth, section: section))
        }
        if let children {
            for k in 0..<children.count {
                guard appendPlain(reader.reference(from: children.start, k), depth: depth + 1, to: &batch) else {
                    return false
                }
            }
        }
        return true
    }

    /// Appends a string object's text as UTF-8 (what `string(_:)` makes of it) when it is a
    /// plain name; returns where it starts, or nil (with `text` as it was) otherwise.
    private func appendName(_ object: Int, to text: inout ByteSink) -> Int? {
        guard let stored = reader.storedString(object) else { return nil }
        let start = text.byteCount
        if stored.utf16 {
            text.write(upTo: 3 * (stored.raw.count / 2) + 1) {
                BinaryPropertyListReader.utf16BigEndian(stored.raw, into: $0)
            }
        } else {
            // `string(_:)` decodes ASCII objects as UTF-8: bytes that are not stay for it.
            guard UTF8Validation.isValid(stored.raw) else { return nil }
            text.write(stored.raw)
        }
        let plain = text.withBytes { !ByteScan.containsEscapeOrJSONEscape(UnsafeBufferPointer(rebasing: $0[start...])) }
        guard plain else {
            text.truncate(to: start)
            return nil
        }
        return start
    }

    /// The start and count of the references of the dictionary `object` at `depth`, where
    /// it is one within the file and the item levels todofmt reads.
    private func dictionary(_ object: Int, depth: Int) -> (start: Int, count: Int)? {
        guard depth < Limits.itemLevels, let h = try? reader.header(of: object), h.marker >> 4 == 0xD,
            reader.referencesFit(start: h.start, count: 2 * h.count)
        else { return nil }
        return (h.start, h.count)
    }

    /// Takes the value of a `checked` or `status` key as `ItemBuilder` does: the last of them
    /// says whether the item is done, a custom status stays. False when the value cannot
    /// play the role.
    private mutating func takeDoneness(_ role: ItemRole, _ value: Int, checked: inout Bool?, custom: inout TodoStatus?)
        -> Bool
    {
        if role == .checked {
            guard let value = boolean(value) else { return false }
            checked = value
            return true
        }
        guard let status = status(value) else { return false }
        if case .custom = status { custom = status } else { checked = status == .done }
        return true
    }

    /// A boolean object's value; nil for another object. (The last `false` and `true` objects
    /// met are known: writers share them.)
    private mutating func boolean(_ object: Int) -> Bool? {
        // (A reference of eight bytes may be -1, which the ones not yet met are.)
        if object >= 0 && object == booleanObjects.false { return false }
        if object >= 0 && object == booleanObjects.true { return true }
        guard let at = try? reader.offset(of: object) else { return nil }
        switch reader.bytes[at] {
        case 0x08:
            booleanObjects.false = object
            return false
        case 0x09:
            booleanObjects.true = object
            return true
        default: return nil
        }
    }

    /// The last `false` (`value` false) or `true` object an item's `checked` referred to; nil
    /// before one did.
    func booleanObject(_ value: Bool) -> Int? {
        let object = value ? booleanObjects.true : booleanObjects.false
        return object >= 0 ? object : nil
    }

    /// The status a string object's word says (kept for the next items with the same object).
    private mutating func status(_ object: Int) -> TodoStatus? {
        if let known = statuses.first(where: { $0.object == object }) { return known.status }
        let status = string(object).flatMap { ItemBuilder.status(fromWord: $0) }
        if statuses.count < 8 { statuses.append((object, status)) }
        return status
    }

    /// An array object's references, where they fit in the file.
    private func array(_ object: Int) -> (start: Int, count: Int)? {
        guard let h = try? reader.header(of: object), h.marker >> 4 == 0xA,
            reader.referencesFit(start: h.start, count: h.count)
        else { return nil }
        return (h.start, h.count)
    }

    /// A string object's text; nil for another object or one not well formed.
    private func string(_ object: Int) -> String? {
        guard let text = try? reader.string(object) else { return nil }
        return text
    }

    /// `string(_:)`, kept in `last` for the next item whose value is the same object.
    private func string(_ object: Int, last: inout (object: Int, text: String)?) -> String? {
        if let last, last.object == object { return last.text }
        guard let text = string(object) else { return nil }
        last = (object, text)
        return text
    }

    /// The role of a key object that is one of todofmt's own keys (`KeyKind.own`), else nil.
    @inline(__always)
    private mutating func ownRole(ofKey object: Int) -> ItemRole? {
        guard object >= 0 && object < ownKeyCodes.count else {
            guard case .own(let role) = kind(ofKey: object) else { return nil }
            return role
        }
        let code = ownKeyCodes[object]
        if code > 1 { return Self.roles[Int(code) - 2] }
        if code == 1 { return nil }
        guard case .own(let role) = kind(ofKey: object) else {
            ownKeyCodes[object] = 1
            return nil
        }
        ownKeyCodes[object] = UInt8(2 + Self.roles.firstIndex(of: role)!)
        return role
    }

    /// What a key object is, worked out once for each of the first few dozen met.
    private mutating func kind(ofKey object: Int) -> KeyKind {
        if let i = keyObjects.firstIndex(of: object) { return keyKinds[i] }
        let kind: KeyKind
        if let bytes = reader.asciiString(object), let own = ItemSchema.ownRole(of: bytes) {
            kind = .own(own)
        } else if let key = string(object), schema.role(of: key) == nil {
            kind = .field(key)
        } else {
            kind = .other
        }
        // A writer that does not share keys has key objects of their own in every
        // dictionary: those after the first few dozen are worked out each time.
        if keyObjects.count < 48 {
            keyObjects.append(object)
            keyKinds.append(kind)
        }
        return kind
    }
}
