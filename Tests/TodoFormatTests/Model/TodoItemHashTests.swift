import Foundation
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

/// Reals compare by their bits: `-0.0` is not `0.0`, so a list written back with one changed
/// to the other changes the file (found by a hunt for data loss: the change was dropped, the
/// file left as it was, with no warning).
struct FieldValueEqualityTests {
    @Test("-0.0 and 0.0 are two values, a NaN is itself, and equal values hash alike")
    func realsByTheirBits() {
        #expect(FieldValue.double(-0.0) != .double(0.0))
        #expect(FieldValue.double(.nan) == .double(.nan))
        #expect(FieldValue.double(1.5) == .double(1.5))
        #expect(FieldValue.array([.double(-0.0)]) != .array([.double(0.0)]))
        #expect(FieldValue.integer(0) != .double(0))
        #expect(Set([FieldValue.double(-0.0), .double(0.0), .double(0.0)]).count == 2)
        let nested = FieldValue.dictionary([Field("k", .array([.string("é"), .date(Date(timeIntervalSince1970: 5))]))])
        #expect(nested == nested && nested.hashValue == nested.hashValue)
        #expect(
            TodoItem(name: "a", fields: [Field("z", .double(-0.0))])
                != TodoItem(name: "a", fields: [Field("z", .double(0))]))
    }

    @Test(
        "a field changed from 0.0 to -0.0 is written into an existing file of every format that holds it",
        arguments: ["json", "plist", "bplist"] + (buildHasYAML ? ["yaml"] : []))
    func negativeZeroWrittenBack(format: String) throws {
        let directory = try TemporaryDirectory()
        let checklist = directory.path("a.md")
        let path = directory.path("f." + (format == "bplist" ? "plist" : format))
        try "- [ ] a [z:: 0.0]\n- [ ] b [z:: 1.5]\n".write(toFile: checklist, atomically: false, encoding: .utf8)
        _ = try Conversion(
            input: .at(checklist), output: .at(path), outputFormat: format == "bplist" ? .bplist : nil
        ).run()
        try "- [ ] a [z:: -0.0]\n- [ ] b [z:: 1.5]\n".write(toFile: checklist, atomically: false, encoding: .utf8)
        _ = try Conversion(input: .at(checklist), output: .at(path)).run()
        let value = try TodoList(contentsOf: .file(path)).items[0].fields[key: "z"]
        guard case .double(let z)? = value else {
            Issue.record("z is \(String(describing: value))")
            return
        }
        #expect(z == 0 && z.sign == .minus)
    }
}
