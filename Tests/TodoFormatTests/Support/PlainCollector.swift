@testable import TodoFormat

/// A sink that takes plain items and makes the list of them and of the other items, in
/// order, and counts how many came as plain items, and as plain names with fields.
struct PlainCollector: PlainItemSink {
    var builder = ListBuilder()
    var plainCount = 0
    var fieldedCount = 0

    mutating func begin(metadata: [Field]) { builder.begin(metadata: metadata) }
    mutating func item(_ item: TodoItem, depth: Int) { builder.item(item, depth: depth) }
    mutating func items(plain: ArraySlice<PlainItem>, text: UnsafeBufferPointer<UInt8>, sections: [String]) {
        for entry in plain {
            plainCount += 1
            let name = String(
                decoding: UnsafeBufferPointer(rebasing: text[entry.nameStart..<entry.nameEnd]), as: UTF8.self)
            let section = entry.depth == 0 && entry.section >= 0 ? sections[entry.section] : nil
            builder.item(TodoItem(name: name, status: entry.status, section: section), depth: entry.depth)
        }
    }
    mutating func item(
        plainName: UnsafeBufferPointer<UInt8>, fields: [Field], status: TodoStatus, section: String?, depth: Int
    ) {
        fieldedCount += 1
        let name = String(decoding: plainName, as: UTF8.self)
        builder.item(
            TodoItem(name: name, status: status, fields: fields, section: depth == 0 ? section : nil), depth: depth)
    }
    mutating func end() {}
}
