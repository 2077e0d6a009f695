import Foundation

/// The field keys whose values are dates in an existing checklist, so that a list written
/// into it gives such a key's date-time strings back as dates.
///
/// JSON has no dates: `[due:: 2024-06-01T09:00:00Z]` goes to JSON as a string and comes back
/// as one, which a checklist writes quoted (`[due:: "2024-06-01T09:00:00Z"]`) to keep it a
/// string. Written back into the checklist it came from, every item with a date changed its
/// line, though nothing had been edited (helper hunt 100). Under a key the file holds dates
/// in, a string that reads as a date-time is that date; under any other key it stays a string.
///
/// The keys are those of the items in the file's first MiB (as `sectionHeadingLevel` reads
/// its first lines): both ways of writing a list into a checklist find the same ones, so
/// they write the same text.
struct DateKeys {
    private(set) var keys: Set<String> = []

    /// No keys: every value stays as it is.
    init() {}

    /// The keys of date values among the items of the checklist `text`'s first MiB.
    init(in text: UnsafeBufferPointer<UInt8>) {
        var head = UnsafeBufferPointer(rebasing: text.prefix(1 << 20))
        if head.count < text.count, let end = head.lastIndex(of: 10) {
            head = UnsafeBufferPointer(rebasing: head[...end])
        }
        // (A checklist without a field has no `::`: the head is not parsed.)
        guard Self.containsDoubleColon(head) else { return }
        var collector = Collector()
        _ = try? MarkdownFormat.read(head, name: "", plainNamesInto: &collector)
        keys = collector.keys
    }

    /// `fields` with each string under one of the keys that reads as a date-time as that
    /// date; nil where none is.
    func dated(_ fields: [Field]) -> [Field]? {
        guard !keys.isEmpty else { return nil }
        var result: [Field]? = nil
        for (i, field) in fields.enumerated() {
            guard case .string(var text) = field.value, keys.contains(field.key) else { continue }
            guard case .date(let date)? = text.withUTF8({ FieldSyntax.typedToken($0) }) else { continue }
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

    private static func containsDoubleColon(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = bytes.baseAddress else { return false }
        var at = 0
        while at + 1 < bytes.count, let colon = memchr(base + at, 58, bytes.count - at - 1) {
            let i = base.distance(to: colon.assumingMemoryBound(to: UInt8.self))
            if bytes[i + 1] == 58 { return true }
            at = i + 1
        }
        return false
    }

    /// Notes the keys of date values.
    private struct Collector: PlainItemSink {
        var keys: Set<String> = []

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
                if case .date = field.value { keys.insert(field.key) }
            }
        }
    }
}
