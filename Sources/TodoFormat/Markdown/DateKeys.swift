import Foundation

/// The field keys whose values are dates in an existing checklist, so that a list from a
/// format that keeps dates as text (JSON, SQLite, an SQL dump) gives them back as dates when
/// it is written into that checklist.
///
/// JSON has no dates: `[due:: 2024-06-01T09:00:00Z]` goes to JSON as a string and comes back
/// as one, which a checklist writes quoted (`[due:: "2024-06-01T09:00:00Z"]`) to keep it a
/// string. Written back into the checklist it came from, every item with a date changed its
/// line, though nothing had been edited (helper hunt 100). Under a date key, a string that
/// is a date's own text (the date written reads back as exactly that text) is that date.
///
/// A date key is one that holds dates among the items of the file's first MiB (as
/// `sectionHeadingLevel` reads its first lines) and no string that reads as a date-time
/// (`[due:: "2024-06-02T09:00:00Z"]`: such a key's strings may be meant as strings, helper
/// hunt 101). Keys are told apart by their bytes, as `list` tells them. Both ways of writing
/// a list into a checklist find the same keys, so they write the same text.
struct DateKeys {
    private var keys: [String] = []

    /// No keys: every value stays as it is.
    init() {}

    /// Whether there are no keys.
    var isEmpty: Bool { keys.isEmpty }

    /// The date keys of the checklist `text`.
    init(in text: UnsafeBufferPointer<UInt8>) {
        var head = UnsafeBufferPointer(rebasing: text.prefix(1 << 20))
        if head.count < text.count, let end = head.lastIndex(of: 10) {
            head = UnsafeBufferPointer(rebasing: head[...end])
        }
        var collector = Collector()
        _ = try? MarkdownFormat.read(head, name: "", plainNamesInto: &collector)
        keys = collector.dates.filter { key in !collector.strings.contains { $0.sameBytes(as: key) } }
    }

    /// `fields` with each string under a date key that is a date's own text as that date;
    /// nil where none is.
    func dated(_ fields: [Field]) -> [Field]? {
        guard !keys.isEmpty else { return nil }
        var result: [Field]? = nil
        for (i, field) in fields.enumerated() {
            guard case .string(let text) = field.value, keys.contains(where: { $0.sameBytes(as: field.key) }),
                let date = Self.date(text)
            else { continue }
            if result == nil { result = fields }
            result![i].value = .date(date)
        }
        return result
    }

    /// `item` and the items nested in it with their fields `dated`.
    func dated(_ item: TodoItem) -> TodoItem {
        guard !keys.isEmpty else { return item }
        var item = item
        if let fields = dated(item.fields) { item.fields = fields }
        if !item.children.isEmpty { item.children = item.children.map(dated) }
        return item
    }

    /// The date whose text, as a checklist writes it, is `text`; nil for any other string
    /// (`2024-02-30T09:00:00Z` reads as March 1st, `…+02:00` is written in UTC).
    private static func date(_ text: String) -> Date? {
        var text = text
        guard case .date(let date)? = text.withUTF8({ FieldSyntax.typedToken($0) }),
            FieldSyntax.renderValue(.date(date), bare: true).sameBytes(as: text)
        else { return nil }
        return date
    }

    /// Notes the keys of dates, and of strings that read as date-times.
    private struct Collector: PlainItemSink {
        var dates: [String] = []
        var strings: [String] = []

        mutating func begin(metadata: [Field]) {}
        mutating func item(_ item: TodoItem, depth: Int) { note(item.fields) }
        mutating func item(
            plainName: UnsafeBufferPointer<UInt8>, fields: [Field], status: TodoStatus, section: String?, depth: Int
        ) {
            note(fields)
        }
        mutating func items(plain: ArraySlice<PlainItem>, text: UnsafeBufferPointer<UInt8>, sections: [String]) {}
        mutating func end() {}

        private mutating func note(_ fields: [Field]) {
            for field in fields {
                switch field.value {
                case .date:
                    if !dates.contains(where: { $0.sameBytes(as: field.key) }) { dates.append(field.key) }
                case .string(var text):
                    guard case .date? = text.withUTF8({ FieldSyntax.typedToken($0) }) else { continue }
                    if !strings.contains(where: { $0.sameBytes(as: field.key) }) { strings.append(field.key) }
                default: continue
                }
            }
        }
    }
}
