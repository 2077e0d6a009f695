import Foundation

/// How a file writes its items, learned from the items already in it: the key each role
/// uses, the order of keys, how values are spelled (`true` or `1`, `done` or `CLOSED`, a
/// date's layout) and what a new item gets (an id, a creation date). Writing into that file
/// follows it, so new and changed items look like the app's own.
struct ItemLayout: Hashable, Sendable {
    /// The roles' keys, as the user named them or as the file uses them.
    var schema: ItemSchema
    /// Items whose checked flag this file writes as 0 or 1 rather than true or false.
    var integerChecked: Set<String> = []
    var booleanChecked: Set<String> = []
    var checkedIsIntegerByDefault = false
    /// Where each key stands in the file's items, so written items keep the file's key
    /// order: per item (by name) where the item was there, else across all items.
    var keyOrder: [String: Int] = [:]
    var keyOrderByName: [String: [String: Int]] = [:]

    /// How the checked key spells done and open, where the file's items say.
    var checkedSpelling: CheckedSpelling? = nil
    /// The words the status key holds for done and open (`CLOSED`, `OPEN`), when the file
    /// keeps done-ness there rather than only custom statuses.
    var statusWords: StatusWords? = nil
    /// Whether some item's status key holds null: where the file has no status words, the
    /// value a status key gets for done or open (beside a checked key, or for open).
    var statusHoldsNull = false
    /// For each key whose values `--field` maps (lowercased), the first value of the
    /// file's items that the map does not name, of the codes' type and not a word for done:
    /// how the file spells open there.
    var unmappedValues: [String: FieldValue] = [:]
    /// For each such key, the first value the file's items hold: a code is written with
    /// its type (`"2"` where the file's codes are text) where no value is replaced.
    var mappedSamples: [String: FieldValue] = [:]
    /// An integer `id` every item has: new items get the largest plus one.
    var integerID: String? = nil
    /// The largest integer id among the items learned from.
    var largestID: Int? = nil
    /// A creation-date key every item has, and how new items' values are spelled.
    var creationDate: CreationDate? = nil
    /// Keys every item has that todofmt cannot fill for a new item (a UUID, a number that
    /// may be a date, a list): new items leave them out, and a warning names them.
    var unfillableKeys: [String] = []
    /// A key that tells items apart (`id`, `uuid` on every item, no two alike).
    var identityKey: String? = nil
    /// Whether the items have order values, and whether those run downwards (`Ordering.isDescending`).
    var hasOrder = false
    var orderDescending = false
    /// How many items it was learned from: 0 when the file had none to learn from.
    var itemCount = 0
    /// The roles some item of the file has a key for.
    var rolesInFile: Set<ItemRole> = []
    /// The key a done item gets when the file's items have no checked key: the one
    /// `--field checked=KEY` names, else todofmt's.
    var addedCheckedKey = "checked"
    /// How the items' creation and completion dates are spelled, by key, where they are text.
    var dateSpellings: [String: DateSpelling] = [:]
    /// Whether the format has no null (property lists): null values are left out.
    var dropsNulls = false

    /// todofmt's own layout for a schema: its keys, true/false, todofmt's key order.
    init(_ schema: ItemSchema = .standard) {
        self.schema = schema
    }

    /// The key written for a role.
    var keys: [ItemRole: String] { schema.keys }

    /// How a checked key spells its values.
    enum CheckedSpelling: Hashable, Sendable {
        case boolean
        case integer
        /// Text, such as YAML 1.1's `yes`/`no` or `on`/`off`.
        case words(done: String, open: String)
    }

    /// A status key's words for done and open, as the file spells them.
    struct StatusWords: Hashable, Sendable {
        var done: String
        /// Nil where an open item has no status key.
        var open: String?
        /// Whether the file's items hold each word (written as they are), or it was made
        /// up (cased like the value it replaces).
        var doneInFile = true, openInFile = true
        /// Whether open items hold a null status (JSON's `null`, YAML's empty value), where
        /// none holds a word or an empty text for open: open is written so.
        var openIsNull = false
    }

    /// A creation-date key and what its values are: dates (property lists) or text in a layout.
    struct CreationDate: Hashable, Sendable {
        enum Values: Hashable, Sendable {
            /// Date values; whole seconds when every value was.
            case dates(wholeSeconds: Bool)
            case text(DateSpelling)
        }
        var key: String
        var values: Values

        /// The value for a new item created at `now`.
        func value(at now: Date) -> FieldValue {
            switch values {
            case .dates(let whole):
                .date(whole ? Date(timeIntervalSince1970: now.timeIntervalSince1970.rounded(.down)) : now)
            case .text(let spelling): .string(spelling.format(now))
            }
        }
    }

    /// The keys of the roles as items are written, worked out once for many items.
    struct EntryKeys {
        var name: String
        var checked: String?
        var status: String
        var section: String
        var fields: String
        var children: String
        /// Whether done-ness is written as a word of the status key (no checked key).
        var wordsInStatus: Bool
        /// The key a done item gets when `checked` is nil (`addedCheckedKey`).
        var addedChecked = "checked"
    }

    var entryKeys: EntryKeys {
        let status = schema.keys[.status] ?? "status"
        return EntryKeys(
            name: schema.keys[.name] ?? "name", checked: schema.keys[.checked], status: status,
            section: schema.keys[.section] ?? "section", fields: schema.keys[.fields] ?? "fields",
            children: schema.keys[.children] ?? "children",
            wordsInStatus: (statusWords != nil || schema.statusMap(of: status) != nil
                || (statusHoldsNull && schema.keys[.checked] == nil)) && holdsDoneness(status),
            addedChecked: addedCheckedKey)
    }

    /// The key/value pairs an item is written as, in order: name, checked, status, section,
    /// fields, nested fields, children.
    func entries(of item: TodoItem) -> [OutputEntry] { entries(of: item, keys: entryKeys) }

    func entries(of item: TodoItem, keys: EntryKeys) -> [OutputEntry] {
        entries(of: item, keys: keys, hasChildren: !item.children.isEmpty)
    }

    /// `entries(of:keys:)` for an item that has children (`hasChildren`) or not, whatever its
    /// `children` hold: a writer that streams items (whose children follow them) tells. The
    /// children's entry is there when `item.children` holds them.
    func entries(of item: TodoItem, keys: EntryKeys, hasChildren: Bool) -> [OutputEntry] {
        var entries: [OutputEntry] = []
        entries.reserveCapacity(3 + item.fields.count)
        entries.append(OutputEntry(keys.name, .value(.string(item.name))))
        var checkedKey: String? = nil
        if let key = keys.checked ?? (item.isChecked && !keys.wordsInStatus ? keys.addedChecked : nil) {
            let name = integerChecked.isEmpty && booleanChecked.isEmpty ? nil : item.name
            entries.append(OutputEntry(key, .value(checkedValue(item.status, key: key, itemName: name))))
            checkedKey = key
        }
        var statusWritten = false
        if writesStatusKey(item.status, key: keys.status, checkedKey: checkedKey),
            let value = statusValue(item.status, key: keys.status, like: nil, always: keys.wordsInStatus)
        {
            entries.append(OutputEntry(keys.status, .value(value)))
            statusWritten = true
        }
        if let section = item.section { entries.append(OutputEntry(keys.section, .value(.string(section)))) }
        let firstField = entries.count
        if !item.fields.isEmpty {
            var written = [keys.name]
            if let checkedKey { written.append(checkedKey) }
            if statusWritten { written.append(keys.status) }
            if item.section != nil { written.append(keys.section) }
            var nested: [Field] = []
            for field in item.fields {
                // A field whose key would be read back as a role, or that a role's key already
                // took, goes under `fields`: every key is written once. So do the fields after
                // it, which then read back in their order (`fields` is read where it stands).
                if !nested.isEmpty || mustNest(field.key, besides: written) || field.key == keys.fields
                    || (field.key == keys.children && hasChildren)
                {
                    nested.append(field)
                } else {
                    entries.append(OutputEntry(field.key, .value(field.value)))
                }
            }
            if !nested.isEmpty { entries.append(OutputEntry(keys.fields, .value(.dictionary(nested)))) }
        }
        let fields = firstField..<entries.count
        if !item.children.isEmpty { entries.append(OutputEntry(keys.children, .items(item.children))) }
        if !keyOrder.isEmpty {
            // Keys the file knows in its order; new ones after them, in todofmt's order. The
            // fields keep their own order in the places the sort gives them: an item reads
            // back with its fields in order.
            entries = Self.ordered(entries, by: keyOrderByName[item.name] ?? keyOrder, keepingInOrder: fields.contains)
        }
        return entries
    }

    /// `entries` in the order `order` ranks their keys, those it does not know after, as they
    /// come; the entries `keepingInOrder` picks (by index) stay in their own order in the
    /// places the sort gives them, so that an item's fields read back in their order.
    static func ordered(
        _ entries: [OutputEntry], by order: [String: Int], keepingInOrder keeps: (Int) -> Bool
    ) -> [OutputEntry] {
        let ranked = entries.indices.map { (rank: order[entries[$0].key] ?? 1_000_000 + $0, offset: $0) }
            .sorted { $0.rank < $1.rank }
        var kept = entries.indices.lazy.filter(keeps).makeIterator()
        return ranked.map { keeps($0.offset) ? entries[kept.next()!] : entries[$0.offset] }
    }

    /// Whether an item written with `entries(of:)` reads back with its status (and its
    /// children theirs). It does not when done-ness is kept only in a completion date and an
    /// open item still has one.
    func keepsStatus(of item: TodoItem, keys: EntryKeys) -> Bool {
        if !item.children.isEmpty && !item.children.allSatisfy({ keepsStatus(of: $0, keys: keys) }) { return false }
        guard item.status == .open, keys.checked == nil, !keys.wordsInStatus, !item.fields.isEmpty else { return true }
        return !item.fields.contains { ItemSchema.isCompletionDateKey($0.key) && $0.value != .null }
    }

    /// Whether a field must go under the `fields` key: it would be read back as a role, or a
    /// role's key in the same item (`written`) is spelled the same.
    func mustNest<S: Sequence<String>>(_ key: String, besides written: S) -> Bool {
        written.contains(key) || schema.mustNest(key)
    }

    /// The value a checked key gets for `status`: spelled like `old` (the item's value
    /// before) where there is one, else as the file's items spell it.
    func checkedValue(_ status: TodoStatus, key: String, like old: FieldValue? = nil, itemName: String? = nil)
        -> FieldValue
    {
        let done = status == .done
        if let map = schema.statusMap(of: key) {
            let old = codeLike(old, key: key)
            if let text = map.first(where: { $0.value == status })?.key { return Self.typed(text, like: old) }
            if !done { return openValue(of: map, key: key, like: old) }
        }
        switch old {
        case .bool?: return .bool(done)
        case .integer?: return .integer(done ? 1 : 0)
        case .string(let text)?:
            if let word = Self.word(done, like: text) { return .string(word) }
        default: break
        }
        if let itemName {
            if !integerChecked.isEmpty && integerChecked.contains(itemName) { return .integer(done ? 1 : 0) }
            if !booleanChecked.isEmpty && booleanChecked.contains(itemName) { return .bool(done) }
        }
        switch checkedSpelling {
        case .integer?: return .integer(done ? 1 : 0)
        case .words(let yes, let no)?: return .string(done ? yes : no)
        case .boolean?: return .bool(done)
        case nil: return checkedIsIntegerByDefault ? .integer(done ? 1 : 0) : .bool(done)
        }
    }

    /// Whether the values of the checked key `key` (`--field checked=state:3 --field
    /// status=state:2=/`) spell `status` (a custom one).
    func checkedKeyHolds(_ status: TodoStatus, key: String?) -> Bool {
        guard case .custom = status, let key, let map = schema.statusMap(of: key) else { return false }
        return map.values.contains(status)
    }

    /// Whether an item of `status` may have a status key `key` of its own beside its checked
    /// key `checkedKey`: not where the two are one key (Things' `status`), nor where the
    /// checked key's codes spell the status.
    func writesStatusKey(_ status: TodoStatus, key: String, checkedKey: String?) -> Bool {
        key != checkedKey && !checkedKeyHolds(status, key: checkedKey)
    }

    /// Whether the status key `key` holds done-ness: not where the file's items hold no word
    /// for done or open there, and `--field` maps its values to custom statuses alone
    /// (`phase:2=/`, whose other values say nothing of it) or the file has a checked key
    /// (the status key holds custom statuses and nulls alone).
    func holdsDoneness(_ key: String) -> Bool {
        if statusWords != nil { return true }
        guard let map = schema.statusMap(of: key) else { return schema.keys[.checked] == nil }
        return !map.namesCustomStatusesAlone
    }

    /// The value a code of the mapped key `key` is typed like: the value it replaces, else
    /// (none, or null) the first the file's items hold.
    private func codeLike(_ old: FieldValue?, key: String) -> FieldValue? {
        if let old, old != .null { return old }
        return mappedSamples[key.lowercased()]
    }

    /// The value a status key gets for `status`, spelled like `old` or as the file's items
    /// spell it; nil when the key holds only custom statuses and `status` is not one
    /// (unless `always`).
    func statusValue(_ status: TodoStatus, key: String, like old: FieldValue?, always: Bool = false) -> FieldValue? {
        if let map = schema.statusMap(of: key) {
            let sample = codeLike(old, key: key)
            if let text = map.first(where: { $0.value == status })?.key { return Self.typed(text, like: sample) }
            if !holdsDoneness(key), status == .done || status == .open {
                // A key mapped to custom statuses alone (`phase:2=/`), without words for done
                // or open, says nothing of done-ness: a value that says nothing (null, 0)
                // stays as it is; a custom status (its code, or a character no code names)
                // goes for the file's other value. But a word says what it says, later than
                // the checked key: an open one (the empty string) gives way to a word for
                // done on a done item, and the other way.
                if let old, map[old.description] == nil,
                    ItemBuilder.saysNothing(old) || Self.doneness(of: old) == status
                {
                    return old
                }
                let other = openValue(of: map, key: key, like: sample)
                if status == .done, Self.doneness(of: other) == .open {
                    return .string(Self.doneWord(unclaimedBy: map, like: old))
                }
                return other
            }
            if status == .open && !map.namesCustomStatusesAlone { return openValue(of: map, key: key, like: sample) }
            // With words, such a key spells done and open in them (below), and a custom
            // status no code names in its character.
        }
        if case .custom(let scalar) = status { return .string(String(scalar)) }
        guard always || statusWords != nil else { return statusHoldsNull ? .null : nil }
        let word: String
        var inFile = false
        if let words = statusWords {
            if status == .open && words.openIsNull { return .null }
            guard let spelled = status == .done ? words.done : words.open else { return nil }
            word = spelled
            inFile = status == .done ? words.doneInFile : words.openInFile
        } else {
            if status == .open && statusHoldsNull { return .null }
            word = status == .done ? "done" : "open"
        }
        var text = word
        if case .string(let oldText)? = old, !inFile { text = Self.cased(word, like: oldText) }
        // A word the user mapped to a custom status (`--field status=status:open=/`) reads
        // back as that status: open is then the file's other value, else empty; done
        // another word for done.
        if let map = schema.statusMap(of: key), map[text] != nil {
            if status == .open { return unmappedValues[key.lowercased()] ?? .string("") }
            return .string(map[word] == nil ? word : Self.doneWord(unclaimedBy: map, like: old))
        }
        return .string(text)
    }

    /// Done or open where `value` is a word for it (`done`, `open`, the empty string).
    private static func doneness(of value: FieldValue) -> TodoStatus? {
        guard case .string(let text) = value, let status = ItemBuilder.status(fromWord: text),
            status == .done || status == .open
        else { return nil }
        return status
    }

    /// The first word for done (`done`, `completed`, …) that `map` does not name as a
    /// custom status, cased like `old` where that is text.
    private static func doneWord(unclaimedBy map: [String: TodoStatus], like old: FieldValue?) -> String {
        let words = ["done", "completed", "complete", "closed", "finished", "resolved"]
        let spelled = words.map { word in
            if case .string(let text)? = old { return cased(word, like: text) }
            return word
        }
        return spelled.first { map[$0] == nil } ?? words.first { map[$0] == nil } ?? "x"
    }

    /// The value the mapped key `key` holds for open items: the one mapped to open, else the
    /// file's own (`unmappedValues`: `todo` beside `doing` and `finished`), else 0 for
    /// numeric codes, else the empty string; typed like `old`, where the text is made here.
    private func openValue(of map: [String: TodoStatus], key: String, like old: FieldValue?) -> FieldValue {
        if let open = map.first(where: { $0.value == .open }) { return Self.typed(open.key, like: old) }
        if let open = unmappedValues[key.lowercased()] { return open }
        if let words = statusWords { return Self.typed(words.open ?? Self.cased("open", like: words.done), like: old) }
        let value = Self.typed(map.keys.allSatisfy({ Int($0) != nil }) ? "0" : "", like: old)
        // Text `"0"` is the custom status `0` in a key mapped to custom statuses alone, and 0
        // is one where a code maps it (`phase:0=/`): its value that says nothing is then the
        // empty string (open).
        if map.namesCustomStatusesAlone, case .string = value { return .string("") }
        if map[value.description] != nil { return .string("") }
        return value
    }

    /// Text typed like the value it replaces: an integer where that was an integer.
    private static func typed(_ text: String, like old: FieldValue?) -> FieldValue {
        switch old {
        case .integer?, nil: if let v = Int(text) { return .integer(v) }
        case .double?: if let v = Double(text) { return .double(v) }
        case .bool?: if let b = ItemBuilder.truth(of: text) { return .bool(b) }
        default: break
        }
        return .string(text)
    }

    private static let wordPairs: [(String, String)] = [
        ("true", "false"), ("yes", "no"), ("y", "n"), ("on", "off"), ("1", "0"),
    ]

    /// The word for `done` in the family and casing of `text` (`No` gives `Yes`).
    static func word(_ done: Bool, like text: String) -> String? {
        let lower = text.lowercased()
        guard let pair = wordPairs.first(where: { $0.0 == lower || $0.1 == lower }) else { return nil }
        return cased(done ? pair.0 : pair.1, like: text)
    }

    /// `word` in the casing of `text`: upper case, capitalized or lower case.
    static func cased(_ word: String, like text: String) -> String {
        let letters = text.unicodeScalars.filter { CharacterSet.letters.contains($0) }
        guard !letters.isEmpty else { return word }
        if letters.allSatisfy({ CharacterSet.uppercaseLetters.contains($0) }) { return word.uppercased() }
        if let first = letters.first, CharacterSet.uppercaseLetters.contains(first) {
            return word.prefix(1).uppercased() + word.dropFirst()
        }
        return word.lowercased()
    }

    /// A new item as the file's items would have it: an integer id after `nextID` (which
    /// counts on) and a creation date of `now`, where every item has them and it has none.
    func completing(_ item: TodoItem, nextID: inout Int?, now: Date) -> TodoItem {
        var item = item
        if let key = integerID, item.fields[key: key] == nil, let id = nextID {
            item.fields.insert(Field(key, .integer(id)), at: 0)
            nextID = Self.id(after: id)
        }
        if let creation = creationDate, item.fields[key: creation.key] == nil {
            item.fields.append(Field(creation.key, creation.value(at: now)))
        }
        return item
    }

    /// The integer id after `id`; nil when `id` is `Int.max` (none is larger): new items
    /// then go without one, with a warning (`newItemWarnings`).
    static func id(after id: Int?) -> Int? {
        guard let id, id < Int.max else { return nil }
        return id + 1
    }

    /// The keys every item of the file has that a new item leaves out (see `unfillableKeys`).
    func leftOut(by item: TodoItem) -> [String] {
        unfillableKeys.filter { item.fields[key: $0] == nil }
    }

    /// The warnings writing `item` as a new item of the file gives: keys every item has
    /// that it leaves out, and keys chosen for a list (`listName`) that had no items to tell
    /// them (unless `--field` named them).
    func newItemWarnings(for item: TodoItem, listName: String) -> [(ConversionWarning.Kind, String)] {
        var warnings: [(ConversionWarning.Kind, String)] = []
        let leftOut = self.leftOut(by: item)
        if let key = integerID, item.fields[key: key] == nil {
            warnings.append(
                (
                    .fields,
                    "new items leave out \(key): the file has an id of \(Int.max), and no larger integer fits in 64 bits"
                ))
        }
        if !leftOut.isEmpty {
            warnings.append(
                (
                    .fields,
                    "new items leave out \(leftOut.joined(separator: ", ")), which the file's items all have and todofmt cannot fill"
                ))
        }
        let named = [ItemRole.name, .checked].allSatisfy { role in keys[role].map(schema.isNamed) ?? false }
        if itemCount == 0 && !named {
            let used = [keys[.name] ?? "name", keys[.checked] ?? "checked"]
            warnings.append(
                (
                    .keys,
                    "\(listName) had no items to tell its item keys: new items were written with \(used.joined(separator: ", ")) "
                        + "(name them with --field name=KEY --field checked=KEY)"
                ))
        }
        return warnings
    }

    /// The warning for a key todofmt had to choose for a role of an item it writes into a
    /// file whose items never use that role (nested items in a flat list, a custom status in
    /// a list of booleans): the app that owns the file may not read it. Nil for a key of
    /// another kind, a key the file or `--field` gave, a file with no items (see
    /// `newItemWarnings`) and a file in todofmt's own shape, whose reader knows the keys.
    func chosenKeyWarning(for key: String) -> (ConversionWarning.Kind, String)? {
        let ownShape = keys[.name] == "name" && (keys[.checked] ?? "checked") == "checked"
        guard itemCount > 0, !ownShape, let role = schema.role(of: key), !rolesInFile.contains(role),
            !schema.isNamed(key)
        else { return nil }
        let what: String
        switch role {
        case .checked: what = "done-ness"
        case .status: what = "a custom status"
        case .section: what = "a section"
        case .fields: what = "nested fields"
        case .children: what = "nested items"
        case .name, .order: return nil
        }
        return (
            .keys,
            "the file's items have no key for \(what): todofmt used the key \(key), which the app may not read "
                + "(name the key with --field \(role.rawValue)=KEY)"
        )
    }

    /// Where a key goes among an item's keys: its place in the file's key order, else
    /// todofmt's order of roles (name, checked, status, section, fields, nested fields, children).
    func rank(of key: String) -> Int {
        if let rank = keyOrder[key] { return rank * 8 }
        let role = schema.role(of: key)
        let base = keyOrder.isEmpty ? 0 : (keyOrder.count + 1) * 8
        return base + (Learner.classes[role] ?? 4)
    }

    /// The layout a file's existing items use (see `Learner`).
    static func learned(from items: [FieldValue], schema: ItemSchema) -> ItemLayout {
        var learner = Learner(schema)
        for case .dictionary(let fields) in items { learner.adopt(fields) }
        return learner.finish()
    }
}

/// Learns, item by item, the layout a file's existing items use: for each role the first
/// key that holds it, the order of keys, how checked and status values are spelled, the
/// keys every item has (an integer id, a creation date, keys todofmt cannot fill) and
/// whether order values run downwards. Per-item details (an item whose key order or checked
/// type differs from the file's) and the values behind the counts are kept for up to
/// `limit` items, so a huge file costs bounded memory.
extension ItemLayout {
    struct Learner {
        private var layout: ItemLayout
        private var seen: Set<ItemRole> = []
        private var integers = 0, booleans = 0, words = 0
        private var doneWord: String?, openWord: String?
        private var statusDone: String?, statusOpen: String?
        /// Whether some item has no status key: there, no key is how an open item is spelled.
        private var someWithoutStatus = false
        /// An empty status (`""` or `" "`), which is open: the open word where the file
        /// has words for statuses.
        private var statusEmpty: String?
        /// Whether some item's status is null: the open spelling where no word or empty text is.
        private var statusNull = false
        /// Mapped keys (lowercased) that some item holds null: their open value where the
        /// file holds no other value the map does not name.
        private var unmappedNulls: Set<String> = []
        private var items = 0
        private let limit = 10_000
        /// Each key of the items counted (the first `limit`), at its slot: how many items have
        /// it, and what kind of key it is.
        private var keyCounts: [(key: String, count: Int, kind: KeyKind)] = []
        /// Where each key stands in `keyCounts`.
        private var keySlots: [String: Int] = [:]
        /// The slots of `keyCounts` in the order their keys were first counted: a parent's
        /// keys after its children's key come after the children's keys (an item's shape
        /// gives all its keys a slot at once).
        private var firstCounted: [Int] = []
        /// What a key's normalized spelling makes it (worked out once for each key).
        private struct KeyKind: OptionSet {
            let rawValue: UInt8
            static let id = KeyKind(rawValue: 1)
            static let identity = KeyKind(rawValue: 2)
            static let creation = KeyKind(rawValue: 4)
            static let date = KeyKind(rawValue: 8)
        }
        /// Keys whose values are not all integers, not all dates, or not all distinct.
        private var notInteger: Set<String> = []
        private var notDate: Set<String> = []
        private var largest: [String: Int] = [:]
        private var dateSpellings: [String: DateSpelling] = [:]
        private var dateValues: [String: Bool] = [:]  // key: whole seconds so far
        private var identities: [String: Set<FieldValue>] = [:]
        private var notIdentity: Set<String> = []
        private var orderValues: [Double?] = []
        private var depth = 0

        init(_ schema: ItemSchema) {
            layout = ItemLayout(schema)
        }

        /// What the learner made of one set of keys in one order (an item's shape): most items
        /// have the shape of the one before or of one a few items back, and what was learned
        /// from it stays true (keys' roles and ranks do not change once learned).
        private struct Shape {
            var keys: [String] = []
            var roles: [ItemRole?] = []
            /// Where each key stands in `keyCounts` (while items are counted).
            var slots: [Int] = []
            /// Whether the keys stand in the order of `layout.keyOrder`.
            var inOrder = true
            /// Whether one of the keys plays the status role.
            var hasStatusKey = false

            func fits(_ fields: [Field]) -> Bool {
                fields.count == keys.count && zip(fields, keys).allSatisfy { $0.key == $1 }
            }
        }
        /// The last item's shape, and the few before it that differ.
        private var shape = Shape()
        private var shapes: [Shape] = []
        /// Items whose keys stand out of order, with their names, not yet put in
        /// `layout.keyOrderByName`: only needed where some item's keys are not in the order
        /// todofmt writes them (`allCanonical`), as in most files they are.
        private var outOfOrder: [(name: String, keys: [String])] = []
        /// The names of items whose checked value is an integer, and of those whose value is a
        /// boolean, not yet put in `layout.integerChecked` and `layout.booleanChecked`: only
        /// the minority is kept (`finish()`), and hashing every name was a fifth of learning.
        private var integerNames: [String] = []
        private var booleanNames: [String] = []
        /// Whether every item's keys stand in the order todofmt writes them.
        private var allCanonical = true
        static let classes: [ItemRole?: Int] = [
            .name: 0, .checked: 1, .status: 2, .section: 3, nil: 4, .order: 4, .fields: 5, .children: 6,
        ]

        /// Keys of an integer id and of a creation date, as `ItemSchema.normalizedKey` gives them.
        static let idKeys: Set<String> = ["id"]
        static let identityKeys: Set<String> = ["id", "uuid", "guid"]
        static let creationKeys: Set<String> = [
            "created", "createdat", "createdon", "creationdate", "datecreated", "createdtime", "creationtime",
            "createtime", "added", "addedat", "dateadded", "insertedat",
        ]

        mutating func adopt(_ fields: [Field]) {
            items += 1
            if !shape.fits(fields) {
                if let known = shapes.firstIndex(where: { $0.fits(fields) }) {
                    shape = shapes[known]
                } else {
                    shape = learnShape(of: fields)
                    if shapes.count == 8 { shapes.removeFirst() }
                    shapes.append(shape)
                }
            }
            var name: String? = nil
            var checkedIsInteger: Bool? = nil
            var order: Double? = nil
            let counting = items <= limit
            if !shape.hasStatusKey { someWithoutStatus = true }
            for (i, (field, role)) in zip(fields, shape.roles).enumerated() {
                if counting { count(field, slot: shape.slots[i]) }
                if counting && layout.schema.mapsStatusValues { noteUnmapped(field) }
                switch (role, field.value) {
                case (.name?, .string(let s)): name = s
                case (.checked?, .integer): checkedIsInteger = true
                case (.checked?, .bool): checkedIsInteger = false
                case (.checked?, .string(let s)) where field.key == layout.schema.keys[.checked]:
                    if let truth = ItemBuilder.truth(of: s), !s.isEmpty {
                        words += 1
                        if truth { doneWord = doneWord ?? s } else { openWord = openWord ?? s }
                    }
                // (A word the user mapped to a custom status, `status:done=/`, is not one.)
                case (.status?, .string(let s))
                where field.key == layout.schema.keys[.status] && layout.schema.statusMap(of: field.key)?[s] == nil:
                    switch ItemBuilder.status(fromWord: s) {
                    case .done?: statusDone = statusDone ?? s
                    case .open?:
                        if !s.isEmpty && s != " " {
                            statusOpen = statusOpen ?? s
                        } else {
                            statusEmpty = statusEmpty ?? s
                        }
                    default: break
                    }
                case (.status?, .null) where field.key == layout.schema.keys[.status]: statusNull = true
                case (.order?, .integer(let v)): order = order ?? Double(v)
                case (.order?, .double(let v)): order = order ?? v
                case (.children?, .array(let children)):
                    let saved = shape
                    depth += 1
                    for case .dictionary(let child) in children { adopt(child) }
                    depth -= 1
                    shape = saved
                default: break
                }
            }
            if depth == 0 && orderValues.count < limit { orderValues.append(order) }
            guard let name else { return }
            if !shape.inOrder && layout.keyOrderByName.count < limit {
                outOfOrder.append((name, shape.keys))
                if !allCanonical || outOfOrder.count == limit {
                    Self.put(&outOfOrder, in: &layout.keyOrderByName, limit: limit)
                }
            }
            switch checkedIsInteger {
            case true?:
                integers += 1
                Self.note(name, in: &integerNames, for: &layout.integerChecked, limit: limit)
            case false?:
                booleans += 1
                Self.note(name, in: &booleanNames, for: &layout.booleanChecked, limit: limit)
            case nil: break
            }
        }

        /// Notes the first value of a key whose values `--field` maps that the map does not
        /// name (read as open), among the items counted.
        private mutating func noteUnmapped(_ field: Field) {
            let key = field.key.lowercased()
            guard let map = layout.schema.statusMap(of: key) else { return }
            if layout.mappedSamples[key] == nil {
                switch field.value {
                case .string, .integer: layout.mappedSamples[key] = field.value
                default: break
                }
            }
            guard layout.unmappedValues[key] == nil, map[field.value.description] == nil else { return }
            if field.value == .null { unmappedNulls.insert(key) }
            // In a key mapped to custom statuses alone, only a value that says nothing (0) or
            // open is one to write for open: any other reads back as a field.
            if map.namesCustomStatusesAlone {
                switch field.value {
                case .integer(0): break
                case .string(let s) where ItemBuilder.status(fromWord: s) == .open: break
                default: return
                }
            }
            // Of the kind of the key's values in the file (an integer beside integer codes,
            // text beside text, `"1"` beside `"3"`), and not a word another app reads as
            // done (`x` beside `doing` and `finished`).
            switch (field.value, layout.mappedSamples[key]) {
            case (.integer, .integer?): layout.unmappedValues[key] = field.value
            case (.string(let s), .string?)
            where ItemBuilder.status(fromWord: s) != .done && (Int(s) != nil || ItemBuilder.truth(of: s) != true):
                layout.unmappedValues[key] = field.value
            default: break
            }
        }

        /// What `fields`' keys tell, learned for the first time.
        private mutating func learnShape(of fields: [Field]) -> Shape {
            var shape = Shape()
            shape.keys = fields.map(\.key)
            shape.roles = shape.keys.map { layout.schema.role(of: $0) }
            shape.hasStatusKey = shape.roles.contains(.status)
            var lastRank = -1
            var lastClass = -1
            for (key, role) in zip(shape.keys, shape.roles) {
                let rank: Int
                if let known = layout.keyOrder[key] {
                    rank = known
                } else {
                    rank = layout.keyOrder.count
                    layout.keyOrder[key] = rank
                }
                if rank < lastRank { shape.inOrder = false }
                lastRank = rank
                let kind = Self.classes[role] ?? 4
                if kind < lastClass { allCanonical = false }
                lastClass = kind
                if let role, !seen.contains(role) {
                    seen.insert(role)
                    // A key the user named for the role stays the one written.
                    if !layout.schema.isNamed(key) || layout.schema.keys[role] == nil {
                        layout.schema.keys[role] = key
                    }
                }
            }
            if items <= limit {
                for key in shape.keys { shape.slots.append(slot(of: key)) }
            }
            return shape
        }

        /// Puts the items noted out of order in `orders` (`layout.keyOrderByName`), as many as
        /// it keeps: each name's first item, each key's first place in it.
        private static func put(
            _ pending: inout [(name: String, keys: [String])], in orders: inout [String: [String: Int]], limit: Int
        ) {
            for (name, keys) in pending where orders.count < limit && orders[name] == nil {
                var order: [String: Int] = [:]
                for (i, key) in keys.enumerated() where order[key] == nil { order[key] = i }
                orders[name] = order
            }
            pending = []
        }

        /// Notes an item's name for `names`, which keeps the first `limit` distinct ones: in
        /// `pending`, put in the set when `limit` are pending or the set is wanted.
        private static func note(_ name: String, in pending: inout [String], for names: inout Set<String>, limit: Int) {
            guard names.count < limit else { return }
            pending.append(name)
            if pending.count == limit { put(&pending, in: &names, limit: limit) }
        }

        /// Puts the pending names in the set, as many as it keeps.
        private static func put(_ pending: inout [String], in names: inout Set<String>, limit: Int) {
            for name in pending where names.count < limit { names.insert(name) }
            pending = []
        }

        /// Where `key` stands in `keyCounts`, which it joins (with no items counted) if new.
        private mutating func slot(of key: String) -> Int {
            if let slot = keySlots[key] { return slot }
            let normal = ItemSchema.normalizedKey(key)
            var kind: KeyKind = []
            if Self.idKeys.contains(normal) { kind.insert(.id) }
            if Self.identityKeys.contains(normal) { kind.insert(.identity) }
            if Self.creationKeys.contains(normal) { kind.insert(.creation) }
            if Self.creationKeys.contains(normal) || ItemSchema.completionDateKeys.contains(normal) {
                kind.insert(.date)
            }
            keySlots[key] = keyCounts.count
            keyCounts.append((key, 0, kind))
            return keyCounts.count - 1
        }

        /// Counts a key (at `slot` in `keyCounts`), and what its values say: integers, dates,
        /// distinct identities.
        private mutating func count(_ field: Field, slot: Int) {
            let key = field.key
            if keyCounts[slot].count == 0 { firstCounted.append(slot) }
            keyCounts[slot].count += 1
            let kind = keyCounts[slot].kind
            if kind.isEmpty { return }
            if kind.contains(.id) {
                if case .integer(let v) = field.value {
                    largest[key] = max(largest[key] ?? v, v)
                } else {
                    notInteger.insert(key)
                }
            }
            if kind.contains(.identity), !notIdentity.contains(key) {
                switch field.value {
                case .integer, .string, .bigInteger:
                    if identities[key, default: []].insert(field.value).inserted == false { notIdentity.insert(key) }
                default: notIdentity.insert(key)
                }
            }
            if kind.contains(.date), !notDate.contains(key) {
                switch field.value {
                case .date(let d):
                    let whole = d.timeIntervalSince1970 == d.timeIntervalSince1970.rounded(.down)
                    dateValues[key] = (dateValues[key] ?? true) && whole
                case .string(let s):
                    if let spelling = DateSpelling(of: s) {
                        if let known = dateSpellings[key] {
                            dateSpellings[key] = known.merged(with: spelling)
                        } else {
                            dateSpellings[key] = spelling
                        }
                    } else {
                        notDate.insert(key)
                    }
                case .null where !kind.contains(.creation): break
                default: notDate.insert(key)
                }
            }
        }

        func finish() -> ItemLayout {
            var layout = self.layout
            var pending = (integers: integerNames, booleans: booleanNames, orders: outOfOrder)
            layout.itemCount = items
            layout.rolesInFile = seen
            // A file whose items have no checked key gets one only on done items.
            if !seen.contains(.checked) && items > 0 {
                if let named = layout.schema.keys[.checked], layout.schema.isNamed(named) {
                    layout.addedCheckedKey = named
                }
                layout.schema.keys[.checked] = nil
            }
            layout.checkedIsIntegerByDefault = integers > booleans && integers >= words
            if items > 0 {
                if words > integers && words > booleans {
                    let done = doneWord ?? openWord.flatMap { ItemLayout.word(true, like: $0) } ?? "true"
                    let open = openWord ?? ItemLayout.word(false, like: done) ?? "false"
                    layout.checkedSpelling = .words(done: done, open: open)
                } else if integers + booleans > 0 {
                    layout.checkedSpelling = layout.checkedIsIntegerByDefault ? .integer : .boolean
                }
            }
            if statusDone != nil || statusOpen != nil {
                let done = statusDone ?? ItemLayout.cased("done", like: statusOpen!)
                // Where some item has no status key and none holds an open word, an open item
                // has no key: an `open` word would be one the file never has (its items
                // `{"status": "x"}` beside `{"checked": false}` alone).
                let open = statusOpen ?? statusEmpty ?? (someWithoutStatus ? nil : ItemLayout.cased("open", like: done))
                // A null status is the next spelling of open, before no key.
                layout.statusWords = StatusWords(
                    done: done, open: open, doneInFile: statusDone != nil,
                    openInFile: statusOpen != nil || statusEmpty != nil,
                    openIsNull: statusOpen == nil && statusEmpty == nil && statusNull)
            }
            for key in unmappedNulls where layout.unmappedValues[key] == nil { layout.unmappedValues[key] = .null }
            layout.statusHoldsNull = statusNull
            // Only the minority needs remembering.
            if layout.checkedIsIntegerByDefault {
                layout.integerChecked = []
                Self.put(&pending.booleans, in: &layout.booleanChecked, limit: limit)
            } else {
                layout.booleanChecked = []
                Self.put(&pending.integers, in: &layout.integerChecked, limit: limit)
            }
            // Keys already in the order todofmt writes them need no reordering.
            if !allCanonical {
                Self.put(&pending.orders, in: &layout.keyOrderByName, limit: limit)
            } else {
                layout.keyOrder = [:]
                layout.keyOrderByName = [:]
            }
            let counted = min(items, limit)
            let universal =
                counted == 0 ? [] : firstCounted.map { keyCounts[$0] }.filter { $0.count == counted }.map(\.key)
            let roleKeys = Set(ItemRole.allCases.compactMap { layout.schema.keys[$0] })
            var unfillable: [String] = []
            for key in universal where !roleKeys.contains(key) && layout.schema.role(of: key) != .order {
                let normal = ItemSchema.normalizedKey(key)
                if layout.integerID == nil, Self.idKeys.contains(normal), !notInteger.contains(key),
                    let top = largest[key]
                {
                    layout.integerID = key
                    layout.largestID = top
                    continue
                }
                if layout.creationDate == nil, Self.creationKeys.contains(normal), !notDate.contains(key) {
                    if let whole = dateValues[key], dateSpellings[key] == nil {
                        layout.creationDate = CreationDate(key: key, values: .dates(wholeSeconds: whole))
                        continue
                    }
                    if let spelling = dateSpellings[key], dateValues[key] == nil {
                        layout.creationDate = CreationDate(key: key, values: .text(spelling))
                        continue
                    }
                }
                unfillable.append(key)
            }
            layout.unfillableKeys = unfillable
            layout.dateSpellings = dateSpellings.filter { !notDate.contains($0.key) }
            layout.identityKey = universal.first {
                Self.identityKeys.contains(ItemSchema.normalizedKey($0)) && !notIdentity.contains($0)
            }
            layout.hasOrder = orderValues.contains { $0 != nil }
            layout.orderDescending = Ordering.isDescending(orderValues)
            return layout
        }
    }
}

extension WarningLog {
    /// Notes the fields of an item whose key its status took in an existing file
    /// (`ItemPatch.edits`: a `status: idea` todofmt cannot read, where the item is checked).
    mutating func note(displaced fields: [Field], item: @autoclosure () -> String) {
        for field in fields {
            note(
                .fields,
                "the field '\(field.key)' was overwritten by the item's status, which the file keeps under that key",
                item: item())
        }
    }

    /// Notes each of `keys` that todofmt had to choose for the file (`ItemLayout.chosenKeyWarning(for:)`).
    mutating func note<S: Sequence<String>>(chosen keys: S, by layout: ItemLayout, item: @autoclosure () -> String) {
        for key in keys {
            guard let (kind, message) = layout.chosenKeyWarning(for: key) else { continue }
            note(kind, message, item: item())
        }
    }
}

/// Which fields of an item in todofmt's own layout go under `fields` rather than under their
/// own key, as `ItemLayout.entries(of:keys:hasChildren:)` decides for that layout: a field
/// whose key would be read back as a role, or that a role's key took. For writers that write
/// such items without building their entries (JSON's, XML's).
struct FieldNesting {
    private let schema: ItemSchema
    private let keys: ItemLayout.EntryKeys
    /// When a field of each of the last few keys goes under `fields`: items repeat their
    /// keys, and the answer takes several comparisons and a dictionary look-up or two.
    private var known: [(key: String, nests: Nests)] = []

    /// When a field goes under `fields`: always, or for an item of a custom status, with a
    /// section, or with children (whose entries then take the key).
    private struct Nests: OptionSet {
        let rawValue: UInt8
        static let always = Nests(rawValue: 1)
        static let custom = Nests(rawValue: 2)
        static let section = Nests(rawValue: 4)
        static let children = Nests(rawValue: 8)
    }

    init(_ layout: ItemLayout) {
        schema = layout.schema
        keys = layout.entryKeys
    }

    /// Where `item`'s fields start going under `fields`: from the first whose key would be
    /// read back as a role or another entry took, every field goes there, so that they read
    /// back in their order (`fields` is read where it stands); the fields' count where none
    /// does. `hasChildren` tells whether the item has children (their key is then taken).
    mutating func firstNested(in item: TodoItem, hasChildren: Bool) -> Int {
        firstNested(in: item.fields, status: item.status, hasSection: item.section != nil, hasChildren: hasChildren)
    }

    /// `firstNested(in:hasChildren:)` for an item's fields, status and whether it has a
    /// section, without the item.
    mutating func firstNested(in fields: [Field], status: TodoStatus, hasSection: Bool, hasChildren: Bool) -> Int {
        var applies = Nests.always
        if case .custom = status { applies.insert(.custom) }
        if hasSection { applies.insert(.section) }
        if hasChildren { applies.insert(.children) }
        return fields.firstIndex { !nests($0.key).isDisjoint(with: applies) } ?? fields.count
    }

    /// When the field keyed `key` goes under `fields`, by its key alone.
    private mutating func nests(_ key: String) -> Nests {
        if let answer = known.first(where: { $0.key == key }) { return answer.nests }
        var nests: Nests = []
        if key == keys.name || key == keys.checked || key == keys.fields || schema.mustNest(key) {
            nests.insert(.always)
        }
        if key == keys.status { nests.insert(.custom) }
        if key == keys.section { nests.insert(.section) }
        if key == keys.children { nests.insert(.children) }
        if known.count >= 16 { known.removeFirst() }
        known.append((key, nests))
        return nests
    }
}
