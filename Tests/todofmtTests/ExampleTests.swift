import Foundation
import Testing

@Suite("The README's library example")
struct ExampleTests {
    @Test("builds and runs as the README says", .needsYAML)
    func libraryExample() throws {
        let program = Run.executable.deletingLastPathComponent().appendingPathComponent("library-example")
        let ws = try Workspace([:])
        let process = Process()
        process.executableURL = program
        process.arguments = [ws.url.path]
        let output = ws.url.appendingPathComponent("stdout")
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        process.standardOutput = try FileHandle(forWritingTo: output)
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(
            try String(contentsOf: output, encoding: .utf8) == """
                Milk 2026-12-01T09:00:00Z
                []
                - name: Milk
                ["Add help"] [true]
                # Today
                - [x] Milk [due:: 2026-12-01T09:00:00Z]
                - [x] Eggs
                []

                """)
        // The list as read, with the added item, as JSON.
        #expect(
            try ws.read("todo.json") == """
                [
                  {"name": "Milk", "checked": false, "section": "Today", "due": "2026-12-01T09:00:00Z"},
                  {"name": "Eggs", "checked": true, "section": "Today"},
                  {"name": "Call the bank", "checked": false, "id": 7}
                ]

                """)
        // The checklist after its edit (Milk done), converted to YAML.
        #expect(
            try ws.read("todo.yaml") == """
                - name: Milk
                  checked: true
                  section: Today
                  due: 2026-12-01T09:00:00Z
                - name: Eggs
                  checked: true
                  section: Today

                """)
    }
}
