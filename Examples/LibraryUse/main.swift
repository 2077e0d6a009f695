// The README's "Library use" example as a program: built on every build, and run by the
// tests (Tests/todofmtTests/ExampleTests.swift), so the README cannot drift from the API.
// Usage: library-example FOLDER   (it writes its files there)
import Foundation
import TodoFormat

let folder = URL(fileURLWithPath: CommandLine.arguments.count > 1 ? CommandLine.arguments[1] : ".")
let todo = folder.appendingPathComponent("TODO.md")
try "# Today\n- [ ] Milk [due:: 2026-12-01T09:00:00Z]\n- [x] Eggs\n".write(to: todo, atomically: true, encoding: .utf8)
try """
<?xml version="1.0" encoding="UTF-8"?>
<plist version="1.0"><dict><key>Records</key><array>
<dict><key>ToDo</key><string>Add help</string><key>CheckBox</key><integer>1</integer></dict>
</array></dict></plist>
""".write(to: folder.appendingPathComponent("To Do.edenlist"), atomically: true, encoding: .utf8)

// Read any format into the list model.
var list = try TodoList(contentsOf: todo)
for item in list.items where !item.isChecked {
    print(item.name, item[field: "due"] ?? .null)
}

// Write it in another format (atomically); into an existing file, only the list changes.
list.items.append(TodoItem(name: "Call the bank", fields: [Field("id", .integer(7))]))
let warnings = try list.write(to: folder.appendingPathComponent("todo.json"))
print(warnings.map(\.kind))
let yaml: [UInt8] = try list.encoded(as: .yaml)
print(String(decoding: yaml, as: UTF8.self).prefix { $0 != "\n" })

// Files of other schemas: name the list's key and the item keys.
let options = ListOptions(key: "Records", schema: ItemSchema(naming: [.name: "ToDo", .checked: "CheckBox"]))
let records = try TodoList(contentsOf: folder.appendingPathComponent("To Do.edenlist"), options: options)
print(records.items.map(\.name), records.items.map(\.isChecked))

// Edit a checklist in place: only the changed item's lines change.
var document = try TodoDocument(contentsOf: todo)
if let index = document.entries.firstIndex(where: { $0.item.name == "Milk" }) {
    document.updateItem(at: index) { $0.status = .done }
    try document.write(to: todo)
}
print(try String(contentsOf: todo, encoding: .utf8), terminator: "")

// Or convert files as the command does.
let conversion = Conversion(input: .file(todo), output: .file(folder.appendingPathComponent("todo.yaml")))
print(try conversion.run())
