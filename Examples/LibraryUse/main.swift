// The README's "Library use" example as a program: built on every build, and run by the
// tests (Tests/todofmtTests/ExampleTests.swift), so the README cannot drift from the API.
// Usage: library-example FOLDER   (it writes its files there)
import Foundation
import TodoFormat

let folder = CommandLine.arguments.count > 1 ? CommandLine.arguments[1] : "."
guard FileManager.default.changeCurrentDirectoryPath(folder) else { fatalError("cannot enter \(folder)") }
try "# Today\n- [ ] Milk [due:: 2026-12-01T09:00:00Z]\n- [x] Eggs\n".write(toFile: "TODO.md", atomically: true, encoding: .utf8)
try """
    <?xml version="1.0" encoding="UTF-8"?>
    <plist version="1.0"><dict><key>Records</key><array>
    <dict><key>ToDo</key><string>Add help</string><key>CheckBox</key><integer>1</integer></dict>
    </array></dict></plist>
    """.write(toFile: "To Do.edenlist", atomically: true, encoding: .utf8)

// Read any format into the list model.
var list = try TodoList(contentsOf: "TODO.md")
for item in list.items where !item.isChecked {
    print(item.name, item.fields[key: "due"] ?? .null)
}

// Write it in another format (atomically); into an existing file, only the list changes.
list.items.append(TodoItem(name: "Call the bank", fields: [Field("id", .integer(7))]))
try list.write(to: "todo.json")
let yaml: [UInt8] = list.encoded(as: .yaml)
print(yaml.count > 0)

// Files of other schemas: name the list's key and the item keys.
let options = ListOptions(key: "Records", schema: ItemSchema(naming: [.name: "ToDo", .checked: "CheckBox"]))
let records = try TodoList(contentsOf: "To Do.edenlist", format: .plist, options: options)
print(records.items.map(\.name), records.items.map(\.isChecked))

// Edit a checklist in place: only the changed item's lines change.
var document = try TodoDocument(contentsOf: "TODO.md")
if let index = document.entries.firstIndex(where: { $0.item.name == "Milk" }) {
    var milk = document.entries[index].item
    milk.status = .done
    try document.replaceItem(at: index, with: milk)
    try document.write(to: "TODO.md")
}
print(try String(contentsOfFile: "TODO.md", encoding: .utf8), terminator: "")

// Or convert files as the command does.
let warnings = try Conversion(input: "TODO.md", output: "todo.yaml").run()
print(warnings)
