import Foundation
import Testing

@testable import TodoFormat

/// Ids and order numbers at the ends of 64 bits (Int64.max, Int64.min): adding, moving and
/// converting items once trapped on an overflow (the next id, renumbering past the ends).
/// Files are made by Python's json, PyYAML, plistlib and sqlite3, as apps make them.
@Suite("Ids and order numbers at the ends of 64 bits")
struct IntegerLimitTests {
    /// Writes `value` (Python source) as `name` in the format its extension says.
    static func make(_ name: String, _ value: String, in directory: TemporaryDirectory) throws -> String {
        try Python.run(
            Python.prelude + """
                import yaml
                v = \(value)
                p = os.path.join(d, \(String(reflecting: name)))
                if p.endswith('.json'): open(p, 'w').write(json.dumps(v, indent=2))
                elif p.endswith('.yaml'): open(p, 'w').write(yaml.safe_dump({'todos': v}, sort_keys=False))
                else: plistlib.dump(v, open(p, 'wb'), fmt=plistlib.FMT_BINARY)
                """, in: directory)
        return directory.path(name)
    }

    /// The list in `path` as the app reads it: `[name, value of key]` per item.
    static func read(_ path: String, key: String, in directory: TemporaryDirectory) throws -> String {
        try Python.run(
            Python.prelude + """
                import yaml
                p = \(String(reflecting: path))
                if p.endswith('.json'): v = json.load(open(p))
                elif p.endswith('.yaml'): v = yaml.safe_load(open(p))['todos']
                else: v = plistlib.load(open(p, 'rb'))
                print(json.dumps([[i['title'], i.get(\(String(reflecting: key)))] for i in v]))
                """, in: directory)
    }

    @discardableResult
    static func write(_ list: TodoList, into path: String) throws -> [ConversionWarning] {
        let checklist = path + ".md"
        try list.encoded(as: .markdown).string.write(toFile: checklist, atomically: false, encoding: .utf8)
        return try Conversion(input: .at(checklist), output: .at(path), options: ListOptions()).run()
    }

    @Test(
        "a new item after an id of Int64.max goes without an id, with a warning naming it", .needsYAML,
        arguments: ["json", "yaml", "plist"])
    func largestID(ext: String) throws {
        let directory = try TemporaryDirectory()
        let path = try Self.make("todos.\(ext)", "[{'id': 2**63 - 1, 'title': 'a', 'done': False}]", in: directory)
        var list = try TodoList(contentsOf: .file(path))
        list.items.append(TodoItem(name: "b"))
        let warnings = try Self.write(list, into: path)
        #expect(try Self.read(path, key: "id", in: directory) == "[[\"a\", 9223372036854775807], [\"b\", null]]\n")
        #expect(warnings.contains { $0.message.contains("leave out id") && $0.firstItem == "2 b" })
    }

    @Test("an id of Int64.max converts into a new file")
    func convertLargestID() throws {
        let directory = try TemporaryDirectory()
        let checklist = directory.path("a.md")
        try "- [ ] a [id:: 9223372036854775807]\n- [ ] b\n".write(toFile: checklist, atomically: false, encoding: .utf8)
        let path = directory.path("a.json")
        try Conversion(input: .at(checklist), output: .at(path), options: ListOptions()).run()
        #expect(try TodoList(contentsOf: .file(path)).items.map(\.name) == ["a", "b"])
    }

    @Test(
        "order numbers at the ends are renumbered, not overflowed, on add and move", .needsYAML,
        arguments: ["json", "yaml", "plist"])
    func orderAtTheEnds(ext: String) throws {
        let directory = try TemporaryDirectory()
        let path = try Self.make(
            "todos.\(ext)",
            "[{'title': 'a', 'done': False, 'order': 1}, {'title': 'b', 'done': False, 'order': 2**63 - 1}]",
            in: directory)
        var list = try TodoList(contentsOf: .file(path))
        list.items.append(TodoItem(name: "c"))
        try Self.write(list, into: path)
        #expect(try Self.read(path, key: "order", in: directory) == "[[\"a\", 1], [\"b\", 2], [\"c\", 3]]\n")

        let ends = try Self.make(
            "ends.\(ext)",
            "[{'title': 'a', 'done': False, 'order': -2**63}, {'title': 'b', 'done': False, 'order': 2**63 - 1}]",
            in: directory)
        var moved = try TodoList(contentsOf: .file(ends))
        moved.items.reverse()
        try Self.write(moved, into: ends)
        #expect(
            try Self.read(ends, key: "order", in: directory)
                == "[[\"b\", -9223372036854775808], [\"a\", -9223372036854775807]]\n")
    }

    @Test("a table's order column at Int64.max takes a new row")
    func sqliteOrder() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("app.db")
        _ = try Databases.sqlite3(
            path,
            [
                "create table t(id integer primary key, title text, done int, position int); insert into t values(1,'a',0,1),(2,'b',0,9223372036854775807);"
            ])
        var list = try TodoList(contentsOf: .file(path))
        list.items.append(TodoItem(name: "c"))
        _ = try list.write(to: .file(path), options: ListOptions())
        #expect(try TodoList(contentsOf: .file(path)).items.map(\.name) == ["a", "b", "c"])
    }

    @Test(
        "renumbering never leaves 64 bits",
        arguments: [
            ([1, Int.max, nil], [1, 2, 3]),
            ([Int.max, Int.min], [Int.min, Int.min + 1]),
            ([nil, Int.min], [Int.min, Int.min + 1]),
            ([Int.max, nil, nil], [Int.max - 2, Int.max - 1, Int.max]),
            ([Int.min, nil, Int.max], [Int.min, Int.min + 1, Int.max]),
        ] as [([Int?], [Int?])])
    func renumber(values: [Int?], expected: [Int?]) {
        #expect(Ordering.renumber(values) == expected)
    }
}
