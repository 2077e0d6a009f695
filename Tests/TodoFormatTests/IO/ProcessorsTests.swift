import Foundation
import Testing

@testable import TodoFormat

@Suite("Processors")
struct ProcessorsTests {
    #if os(Linux)
    @Test("the processors this process may run on are those nproc counts (its affinity, not the machine's)")
    func available() throws {
        let nproc = try ExternalTool.run("nproc", [])
        #expect(Processors.available == Int(nproc.text.trimmingCharacters(in: .whitespacesAndNewlines)))
    }
    #endif
}
