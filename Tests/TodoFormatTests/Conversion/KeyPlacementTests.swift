import Foundation
import Testing

@testable import TodoFormat

/// An edit of one item changes only the edited value: the item's other keys stay where the
/// app has them. Checking an item once moved a `status` or `children` key todofmt could not
/// use into a new `fields` object, and flattened an app's own `fields` object, so that the
/// app no longer found its data. Files are made by Python's json, PyYAML and plistlib.
@Suite("Keys stay where the app has them")
struct KeyPlacementTests {
    static let items = """
        [{'title': 'a', 'done': False, 'status': 'blocked'},
         {'title': 'b', 'done': False, 'children': 2},
         {'title': 'c', 'done': False, 'fields': {'color': 'red'}}]
        """

    /// Python source writing `v` into the file at `p` as its extension says.
    static let dump = """
        import yaml
        if p.endswith('.json'): open(p, 'w').write(json.dumps(v, indent=2) + '\\n')
        elif p.endswith('.yaml'): open(p, 'w').write(yaml.safe_dump(v, sort_keys=False))
        elif p.endswith('.bplist'): plistlib.dump(v, open(p, 'wb'), fmt=plistlib.FMT_BINARY)
        else: plistlib.dump(v, open(p, 'wb'))
        """

    static func make(_ name: String, _ value: String, in directory: TemporaryDirectory) throws -> String {
        let path = directory.path(name)
        try Python.run(Python.prelude + "p = \(String(reflecting: path))\nv = \(value)\n" + dump, in: directory)
        return path
    }

    /// The file as the app reads it, in canonical JSON.
    static func load(_ path: String, in directory: TemporaryDirectory) throws -> String {
        try Python.run(
            Python.prelude + """
                import yaml
                p = \(String(reflecting: path))
                if p.endswith('.json'): v = json.load(open(p))
                elif p.endswith('.yaml'): v = yaml.safe_load(open(p))
                else: v = plistlib.load(open(p, 'rb'))
                print(canon(v))
                """, in: directory)
    }

    static func write(_ list: TodoList, into path: String) throws {
        let checklist = path + ".md"
        try list.encoded(as: .markdown).string.write(toFile: checklist, atomically: false, encoding: .utf8)
        try Conversion(input: .at(checklist), output: .at(path), options: ListOptions()).run()
    }

    @Test(
        "checking every item changes only done: status, children and an app's fields object stay", .needsYAML,
        arguments: ["json", "yaml", "bplist", "plist"])
    func checkKeepsKeys(ext: String) throws {
        let directory = try TemporaryDirectory()
        let path = try Self.make("todos.\(ext)", Self.items, in: directory)
        var list = try TodoList(contentsOf: .file(path))
        for i in list.items.indices { list.items[i].status = .done }
        try Self.write(list, into: path)
        let expected = try Self.make("expected.\(ext)", Self.items + "\nfor i in v: i['done'] = True", in: directory)
        #expect(try Self.load(path, in: directory) == (try Self.load(expected, in: directory)))
        if ext == "json" || ext == "yaml" {
            #expect(
                try String(contentsOfFile: path, encoding: .utf8)
                    == (try String(contentsOfFile: expected, encoding: .utf8)))
        }
    }

    @Test(
        "checking an item whose status word todofmt cannot read (todo.yaml's idea) writes done in that key", .needsYAML)
    func unknownStatusWord() throws {
        let directory = try TemporaryDirectory()
        let value = """
            [{'task': 'todo.yaml', 'subtasks': [
                {'task': 'add', 'status': 'done', 'version': 'release-1.0'},
                {'task': 'defaults', 'status': 'idea'},
                {'task': 'sort', 'status': 'done'}]}]
            """
        let path = try Self.make("todo.yaml", value, in: directory)
        var list = try TodoList(contentsOf: .file(path))
        list.items[0].children[1].status = .done
        try Self.write(list, into: path)
        let expected = try Self.make("expected.yaml", value + "\nv[0]['subtasks'][1]['status'] = 'done'", in: directory)
        #expect(
            try String(contentsOfFile: path, encoding: .utf8) == (try String(contentsOfFile: expected, encoding: .utf8))
        )
    }
}
