import Foundation
import Testing

@testable import TodoFormat

@Suite("JSON's plain items")
struct JSONPlainItemsTests {
    /// The list read through plain items, how many came so, and the list read as items.
    private func bothWays(_ json: String, options: ListOptions = ListOptions()) throws -> (TodoList, Int, TodoList) {
        let input = Input(bytes: Array(json.utf8), name: "t.json")
        var collector = PlainCollector()
        try JSONFormat().read(input, options: options, plainNamesInto: &collector)
        var builder = ListBuilder()
        try JSONFormat().read(input, options: options, into: &builder)
        return (collector.builder.finish(), collector.plainCount, builder.finish())
    }

    @Test("plain items give the list the items do, in order, with other items among them")
    func sameList() throws {
        let json = #"""
            [
              {"name": "Milk", "checked": true, "section": "Shop"},
              {"section": "Shop", "name": "Eggs", "children": [
                {"checked": false, "name": "Brown ones", "status": "/"},
                {"name": "", "children": []}
              ]},
              {"name": "caf\u00e9 escaped", "section": "Shop"},
              {"name": "With a field", "prio": 2},
              {"name": "日本語 🎉 & [x] *b*", "status": "done", "section": "Home"},
              {"name": "status then checked", "status": "x", "checked": false},
              {"name": "checked then status", "checked": false, "status": "completed"},
              {"name": "custom wins", "status": "-", "checked": true},
              {"name": "checked null", "checked": null},
              {"name": "nested section", "children": [{"name": "c", "section": "S"}]},
              {"name": "given twice", "name": "second"},
              {"name": "status word kept as a field", "status": "someday"},
              {"name": "last", "section": "Home"}
            ]
            """#
        let (plain, count, items) = try bothWays(json)
        #expect(plain == items)
        #expect(items.items.count == 13)
        // Milk, Eggs, Brown ones, "", 日本語, status then checked, checked then status,
        // custom wins and last come as plain items; the others are read as items.
        #expect(count == 9)
        #expect(items.items[4].section == "Home" && items.items[4].status == .done)
        #expect(items.items[5].status == .open && items.items[6].status == .done)
        #expect(items.items[7].status == .custom("-"))
    }

    @Test("a list of only plain items, across many sink calls, and one that is wholly not")
    func many() throws {
        var lines: [String] = []
        for i in 0..<10_000 {
            let section = "S\(i / 3000)"
            lines.append(#"{"name": "item \#(i)", "checked": \#(i % 2 == 0), "section": "\#(section)"}"#)
        }
        let (plain, count, items) = try bothWays("[" + lines.joined(separator: ",\n") + "]")
        #expect(plain == items)
        #expect(count == 10_000)
        #expect(Set(items.items.map { $0.section ?? "" }) == ["S0", "S1", "S2", "S3"])
        let (plainNamed, countNamed, itemsNamed) = try bothWays(
            #"[{"title": "a"}, {"name": "b"}]"#, options: ListOptions(schema: ItemSchema(naming: [.name: "title"])))
        #expect(plainNamed == itemsNamed)
        #expect(countNamed == 0)
    }

    @Test("what is wrong in an item is reported as the item reader reports it")
    func errors() throws {
        for (json, message) in [
            (#"[{"name": "ok"}, {"name": "a" "checked": true}]"#, "1:31"),
            (#"[{"name": "ok"},]"#, "trailing comma"),
            (#"[{"name": "a",}]"#, "1:15: error: trailing comma"),
            (#"[{"name": "a", "children": [{"name": "b"},]}]"#, "1:43: error: trailing comma"),
            (#"[{"checked": true}]"#, "item has no name"),
            ("[{\"name\": \"a\u{1}b\"}]", "control character"),
        ] {
            let input = Input(bytes: Array(json.utf8), name: "t.json")
            var collector = PlainCollector()
            #expect(throws: ParseError.self) {
                try JSONFormat().read(input, options: ListOptions(), plainNamesInto: &collector)
            }
            do {
                try JSONFormat().read(input, options: ListOptions(), plainNamesInto: &collector)
            } catch {
                #expect("\(error)".contains(message), "\(json): \(error)")
            }
        }
        var bad = Array(#"[{"name": "ok"}, {"name": "a"#.utf8)
        bad += [0xE9] + Array(#"b"}]"#.utf8)
        var collector = PlainCollector()
        #expect(throws: ParseError.self) {
            try JSONFormat().read(Input(bytes: bad, name: "t.json"), options: ListOptions(), plainNamesInto: &collector)
        }
    }

    @Test("keys that differ in their characters are two keys, even when Swift's == takes them for one")
    func keysByCharacters() throws {
        // `K` and the Kelvin sign; a composed and a decomposed é.
        let json = "[{\"name\": \"c\", \"K\": 1, \"\u{212A}\": 2, \"caf\u{E9}\": 3, \"cafe\u{301}\": 4}]"
        let (plain, _, items) = try bothWays(json)
        #expect(plain == items)
        #expect(
            items.items[0].fields.map(\.key).map { Array($0.unicodeScalars) } == [
                ["K"], ["\u{212A}"], ["c", "a", "f", "\u{E9}"], ["c", "a", "f", "e", "\u{301}"],
            ])
        #expect(items.items[0].fields.map(\.value) == [.integer(1), .integer(2), .integer(3), .integer(4)])
    }

    @Test("a value a later key replaces is no error, as JSON's readers take it")
    func replacedValueIsNoError() throws {
        let (_, _, named) = try bothWays(#"[{"name": 5, "name": "a"}]"#)
        #expect(named.items.map(\.name) == ["a"])
        let (_, _, children) = try bothWays(#"[{"name": "a", "children": [{"x": 1}], "children": []}]"#)
        #expect(children.items[0].children.isEmpty)
        // A value no later key replaces is still an error where it stands.
        #expect(
            throws: ParseError(
                "an item's name ('name') must be text", at: SourceLocation(file: "t.json", line: 1, column: 24))
        ) {
            _ = try bothWays(#"[{"name": "a", "name": 5}]"#)
        }
    }

    @Test("diff of a JSON file against a checklist, by item")
    func diffAcrossFormats() throws {
        let dir = try TemporaryDirectory()
        let json = dir.url.appendingPathComponent("a.json")
        let md = dir.url.appendingPathComponent("b.md")
        try Data(
            #"[{"name": "Milk", "checked": false}, {"name": "Eggs", "checked": false, "children": [{"name": "Brown"}]}]"#
                .utf8
        )
        .write(to: json)
        try Data("- [ ] Milk\n- [x] Eggs\n  - [ ] Brown\n".utf8).write(to: md)
        let diff = try ListDiff(old: json, new: md)
        #expect(diff.changes.map(\.kind) == [.checked])
        #expect(diff.changes.first?.item?.name == "Eggs")
    }
}
