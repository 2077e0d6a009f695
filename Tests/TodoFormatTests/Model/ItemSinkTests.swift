import Foundation
import Testing

@testable import TodoFormat

/// A sink that writes down what it is sent.
private struct RecordingSink: ItemSink {
    var events: [String] = []
    /// Throws when it is sent the item of this name.
    var failAt: String? = nil

    struct Refused: Error, Equatable {}

    mutating func begin(metadata: [Field]) {
        events.append("begin " + metadata.map(\.key).joined(separator: ","))
    }

    mutating func item(_ item: TodoItem, depth: Int) throws {
        if item.name == failAt { throw Refused() }
        events.append("\(depth) \(item.name) (\(item.children.count) children)")
    }

    mutating func end() {
        events.append("end")
    }
}

@Suite("Item sinks and the list builder")
struct ItemSinkTests {
    static let tree = TodoList(
        metadata: [Field("title", .string("t")), Field("owner", .string("o"))],
        items: [
            TodoItem(
                name: "a",
                children: [
                    TodoItem(name: "a1", children: [TodoItem(name: "a1x")]),
                    TodoItem(name: "a2", status: .done),
                ]),
            TodoItem(name: "b", status: .custom("/"), fields: [Field("n", .integer(1))], section: "S"),
        ])

    @Test("send(to:) hands over the metadata, every item depth first with its depth, then the end")
    func send() throws {
        var sink = RecordingSink()
        try Self.tree.send(to: &sink)
        #expect(
            sink.events == [
                "begin title,owner", "0 a (2 children)", "1 a1 (1 children)", "2 a1x (0 children)", "1 a2 (0 children)",
                "0 b (0 children)", "end",
            ])
    }

    @Test("a sink's error stops send(to:) where it is thrown, without the end")
    func sinkError() {
        var sink = RecordingSink(failAt: "a2")
        #expect(throws: RecordingSink.Refused()) { try Self.tree.send(to: &sink) }
        #expect(sink.events == ["begin title,owner", "0 a (2 children)", "1 a1 (1 children)", "2 a1x (0 children)"])
    }

    @Test("a list sent to a builder comes back the same")
    func sendThenBuild() throws {
        var builder = ListBuilder()
        try Self.tree.send(to: &builder)
        #expect(builder.finish() == Self.tree)
    }

    @Test(
        "the builder nests items by their depths",
        arguments: [
            ([0, 0, 0], "a b c"),
            ([0, 1, 1, 0], "a(b c) d"),
            ([0, 1, 2, 3, 0], "a(b(c(d))) e"),
            ([0, 1, 2, 1, 0, 1], "a(b(c) d) e(f)"),
            ([0, 1, 2, 3, 1], "a(b(c(d)) e)"),
            ([0, 1, 2, 3], "a(b(c(d)))"),
        ])
    func nesting(depths: [Int], outline: String) {
        var builder = ListBuilder()
        builder.begin(metadata: [])
        let names = "abcdefghij".map(String.init)
        for (depth, name) in zip(depths, names) { builder.item(TodoItem(name: name), depth: depth) }
        builder.end()
        func text(_ items: [TodoItem]) -> String {
            items.map { $0.children.isEmpty ? $0.name : "\($0.name)(\(text($0.children)))" }.joined(separator: " ")
        }
        #expect(text(builder.finish().items) == outline)
    }

    @Test("the builder ignores the children an item arrives with: they come as items of their own")
    func childrenIgnored() {
        var builder = ListBuilder()
        builder.begin(metadata: [])
        builder.item(TodoItem(name: "a", children: [TodoItem(name: "stale")]), depth: 0)
        builder.item(TodoItem(name: "b", children: [TodoItem(name: "stale")]), depth: 0)
        builder.item(TodoItem(name: "b1"), depth: 1)
        builder.end()
        #expect(
            builder.finish()
                == TodoList(items: [TodoItem(name: "a"), TodoItem(name: "b", children: [TodoItem(name: "b1")])]))
    }

    @Test("the builder keeps each item's fields, status and section, and the metadata")
    func keepsEverything() {
        var builder = ListBuilder()
        builder.begin(metadata: [Field("m", .null)])
        let item = TodoItem(name: "x", status: .custom("-"), fields: [Field("k", .bool(true))], section: "S")
        builder.item(item, depth: 0)
        builder.end()
        #expect(builder.finish() == TodoList(metadata: [Field("m", .null)], items: [item]))
    }

    @Test("finish() leaves the builder empty: a second finish gives an empty list")
    func finishEmpties() {
        var builder = ListBuilder()
        builder.begin(metadata: [Field("m", .integer(1))])
        builder.item(TodoItem(name: "a"), depth: 0)
        builder.item(TodoItem(name: "a1"), depth: 1)
        _ = builder.finish()
        #expect(builder.finish() == TodoList())
        builder.item(TodoItem(name: "b"), depth: 0)
        #expect(builder.finish() == TodoList(items: [TodoItem(name: "b")]))
    }

    @Test("a name sliced from a larger text is detached: the built item holds only its own text")
    func detachesNames() throws {
        let text = "- [ ] Milk\n- [x] Eggs\n  - [ ] Brown ones\n"
        var builder = ListBuilder()
        builder.begin(metadata: [])
        for (name, depth) in [("Milk", 0), ("Eggs", 0), ("Brown ones", 1)] {
            let range = try #require(text.range(of: name))
            builder.item(
                TodoItem(nameStorage: text[range], status: .open, fields: [], children: [], section: nil), depth: depth)
        }
        builder.end()
        let list = builder.finish()
        let names = list.flattened().map(\.item.nameStorage)
        #expect(names.map(String.init) == ["Milk", "Eggs", "Brown ones"])
        #expect(names.map { String($0.base) } == ["Milk", "Eggs", "Brown ones"])
    }

    @Test("the builder for a writer that reads the whole list first keeps names as slices")
    func keepsSlices() throws {
        let text = "- [ ] Milk\n- [x] Eggs\n"
        var builder = ListBuilder(keepingSlices: ())
        let range = try #require(text.range(of: "Eggs"))
        builder.item(
            TodoItem(nameStorage: text[range], status: .done, fields: [], children: [], section: nil), depth: 0)
        let item = try #require(builder.finish().items.first)
        #expect(item.name == "Eggs")
        #expect(item.nameStorage.base == text)
    }

    @Test(
        "a checklist read into memory keeps no item name as a slice of the file",
        arguments: Fixture.files(in: "markdown"))
    func readNamesDetached(name: String) throws {
        let list = try TodoList(markdown: Fixture.text(name))
        let entries = list.flattened()
        #expect(entries.count == LosslessTests.itemCounts[name])
        for entry in entries {
            #expect(entry.item.nameStorage.base == entry.item.nameStorage, "\(entry.item.name)")
        }
    }

    @Test("flattened() lists every item depth first with its depth")
    func flattened() {
        #expect(Self.tree.flattened().map { "\($0.depth)\($0.item.name)" } == ["0a", "1a1", "2a1x", "1a2", "0b"])
        #expect(TodoList().flattened().isEmpty)
    }
}

@Suite("ListBuilder with depths that skip levels")
struct ListBuilderDepthTests {
    @Test("a depth two below the item before is a child of it; a first item below the top is a top item")
    func skippedLevels() {
        var builder = ListBuilder()
        builder.begin(metadata: [])
        builder.item(TodoItem(name: "first"), depth: 1)
        builder.item(TodoItem(name: "deep"), depth: 3)
        builder.item(TodoItem(name: "second"), depth: 0)
        let list = builder.finish()
        #expect(list.items.map(\.name) == ["first", "second"])
        #expect(list.items[0].children.map(\.name) == ["deep"])
    }
}
