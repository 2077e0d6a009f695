import Testing

@testable import TodoFormat

/// Items hash as they compare: names and sections by canonical equivalence (NFC and NFD
/// spellings are one name), whether the quick path or the normalizing one hashes them.
struct TodoItemHashTests {
    static let pairs: [(String, String)] = [
        ("café", "cafe\u{301}"),
        ("Åsa", "A\u{30A}sa"),
        ("가", "\u{1100}\u{1161}"),
        ("ガイド", "カ\u{3099}イド"),
        ("Ωmega", "\u{2126}mega"),
        ("milk", "milk"),
        ("日本語 🚀 done ✅", "日本語 🚀 done ✅"),
    ]

    @Test(arguments: pairs)
    func canonicallyEquivalentItemsHashAlike(_ a: String, _ b: String) {
        let x = TodoItem(name: a, status: .done, section: a)
        let y = TodoItem(name: b, status: .done, section: b)
        #expect(x == y)
        #expect(x.hashValue == y.hashValue)
        #expect(Set([x, y]).count == 1)
        // A name that is a slice of a longer text hashes as the name alone.
        let text = "- [x] " + b + " and more"
        let start = text.index(text.startIndex, offsetBy: 6)
        let slice = TodoItem(
            nameStorage: text[start..<text.index(start, offsetBy: b.count)], status: .done, fields: [], children: [],
            section: a)
        #expect(slice == x)
        #expect(slice.hashValue == x.hashValue)
    }

    @Test func differentItemsHashApart() {
        var items: [TodoItem] = []
        for name in ["a", "b", "ab", "a b", "café", "cafe", "日本", "日本語", ""] {
            items.append(TodoItem(name: name))
            items.append(TodoItem(name: name, section: name))
            if !name.isEmpty { items.append(TodoItem(name: name, section: "")) }
            items.append(TodoItem(name: name, children: [TodoItem(name: name)]))
        }
        // Name and section apart: "a" in section "b" is not "ab" without one.
        items.append(TodoItem(name: "a", section: "b"))
        #expect(Set(items).count == items.count)
        #expect(Set(items.map(\.hashValue)).count == items.count)
    }
}
