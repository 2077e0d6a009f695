import Foundation
import Testing

@Suite("The README's library example")
struct ExampleTests {
    @Test("builds and runs as the README says")
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
        #expect(try String(contentsOf: ws.url.appendingPathComponent("todo.json"), encoding: .utf8).contains("Call the bank"))
        #expect(try ws.read("todo.yaml").hasPrefix("- name: Milk"))
    }
}
