import Foundation
import Testing

@testable import TodoFormat

@Suite("Unified diffs, as patch applies them")
struct UnifiedDiffTests {
    /// `new` as `patch` makes it from `old` and the diff.
    private static func patched(_ old: String, with diff: String) throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("udiff-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try old.write(to: folder.appendingPathComponent("f"), atomically: false, encoding: .utf8)
        try diff.write(to: folder.appendingPathComponent("d"), atomically: false, encoding: .utf8)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["patch", "-s", "-p1", "-i", "d"]
        process.currentDirectoryURL = folder
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        return try String(contentsOf: folder.appendingPathComponent("f"), encoding: .utf8)
    }

    @Test("a few changes among many lines: only they are in the diff, and it applies")
    func fewChanges() throws {
        let old = (1...5000).map { "row \($0)\n" }.joined()
        var lines = old.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        for i in stride(from: 10, to: 4990, by: 700) { lines[i] = "changed \(i)" }
        lines.insert("added", at: 2500)
        let new = lines.joined(separator: "\n")
        let diff = UnifiedDiff.text(old: old, new: new, name: "f")
        #expect(diff.split(separator: "\n").filter { $0.hasPrefix("-") && !$0.hasPrefix("---") }.count == 8)
        #expect(diff.split(separator: "\n").filter { $0.hasPrefix("+") && !$0.hasPrefix("+++") }.count == 9)
        #expect(try Self.patched(old, with: diff) == new)
    }

    @Test("more changes than the search takes (every row renumbered): the whole middle, and it applies")
    func manyChanges() throws {
        let count = UnifiedDiff.maxEdits + 500
        let old = (0..<count).map { "INSERT INTO t VALUES(\($0),'item \($0)');\n" }.joined()
        let new = "first\n" + (0..<count).map { "INSERT INTO t VALUES(\($0 + 1),'item \($0)');\n" }.joined() + "last\n"
        let diff = UnifiedDiff.text(old: old, new: new, name: "f")
        #expect(diff.split(separator: "\n").filter { $0.hasPrefix("-") && !$0.hasPrefix("---") }.count == count)
        #expect(diff.split(separator: "\n").filter { $0.hasPrefix("+") && !$0.hasPrefix("+++") }.count == count + 2)
        #expect(try Self.patched(old, with: diff) == new)
    }

    @Test("a change in a run of equal lines past the cap still finds its place, and applies")
    func changesBeyondTheCapWithSharedLines() throws {
        let count = UnifiedDiff.maxEdits * 2
        let old = (0..<count).map { $0 % 2 == 0 ? "same\n" : "old \($0)\n" }.joined()
        let new = (0..<count).map { $0 % 2 == 0 ? "same\n" : "new \($0)\n" }.joined()
        #expect(try Self.patched(old, with: UnifiedDiff.text(old: old, new: new, name: "f")) == new)
    }
}
