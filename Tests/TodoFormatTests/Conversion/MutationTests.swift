import Foundation
import Testing

@testable import TodoFormat

/// Readers take files from anywhere: damaged input must give an error, never a crash.
@Suite("Damaged input")
struct MutationTests {
    static let formats: [DocumentFormat] = [.json, .yaml, .plist, .bplist, .markdown, .sql]

    /// The list every sample holds: fields of every type, nesting, sections.
    static func list() throws -> TodoList {
        try TodoList(markdown: Fixture.text("markdown/fields.md") + Fixture.text("markdown/groceries.md"))
    }

    /// What each format keeps of `list` (see the round-trip tests of each format).
    static func kept(_ list: TodoList, by format: DocumentFormat) -> TodoList {
        switch format {
        case .markdown, .yaml: return list
        case .json: return JSONListTests.jsonView(of: TodoList(items: list.items))
        case .plist: return PropertyListTests.wholeSeconds(PropertyListTests.withoutNulls(TodoList(items: list.items)))
        case .bplist: return PropertyListTests.withoutNulls(TodoList(items: list.items))
        default:
            // An SQL dump: a NULL column is an absent field; nulls inside arrays and dictionaries stay.
            func dropNullFields(_ item: TodoItem) -> TodoItem {
                var item = item
                item.fields.removeAll { $0.value == .null }
                item.children = item.children.map(dropNullFields)
                return item
            }
            return TodoList(items: list.items.map(dropNullFields))
        }
    }

    /// Why an error from reading `bytes` is not a clear error with a place inside them, or nil when it is.
    static func problem(with error: any Error, in bytes: [UInt8]) -> String? {
        let lines = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        func outside(_ location: TodoFormat.SourceLocation) -> String? {
            guard location.file == "damaged" else { return "names \(location.file)" }
            if let offset = location.byteOffset {
                return (0...bytes.count).contains(offset) ? nil : "byte \(offset) of \(bytes.count)"
            }
            guard (1...lines.count).contains(location.line) else { return "line \(location.line) of \(lines.count)" }
            // Columns count scalars, so there are at most as many as the line has bytes, plus its end.
            let width = lines[location.line - 1].count + 1
            return (1...width).contains(location.column) ? nil : "column \(location.column) of \(width)"
        }
        switch error {
        case let error as ParseError: return outside(error.location)
        case let error as StoreError:
            guard let location = error.location else { return "no place" }
            return outside(location)
        case let error as ConversionError:
            // No place in the file, but the file is named.
            return error.description.hasPrefix("damaged: ") ? nil : "does not name the file"
        default: return "not a ParseError, ConversionError or StoreError"
        }
    }

    @Test("the undamaged samples read back to what each format keeps", .needsYAML, arguments: formats)
    func undamaged(format: DocumentFormat) throws {
        let list = try Self.list()
        let bytes = try list.encoded(as: format)
        #expect(try TodoList(bytes: bytes, format: format, name: "damaged") == Self.kept(list, by: format))
    }

    @Test(
        "random byte changes give a list or a clear error inside the input, never a crash", .needsYAML,
        arguments: formats)
    func mutations(format: DocumentFormat) throws {
        let original = try Self.list().encoded(as: format)
        var rng = SeededGenerator(seed: format.rawValue.utf8.reduce(7) { $0 &* 31 &+ UInt64($1) })
        let rounds = Int(ProcessInfo.processInfo.environment["TODOFMT_MUTATIONS"] ?? "") ?? 300
        for round in 0..<rounds {
            var bytes = original
            for _ in 0..<(1 + round % 4) {
                let i = Int.random(in: 0..<bytes.count, using: &rng)
                switch Int.random(in: 0..<3, using: &rng) {
                case 0: bytes[i] = UInt8.random(in: 0...255, using: &rng)
                case 1: bytes.remove(at: i)
                default: bytes = Array(bytes.prefix(i))
                }
                if bytes.isEmpty { break }
            }
            do {
                _ = try TodoList(bytes: bytes, format: format, name: "damaged")
            } catch {
                if let problem = Self.problem(with: error, in: bytes) {
                    Issue.record("round \(round): \(problem): \(error)")
                }
            }
        }
    }

    @Test("a binary property list whose objects refer to themselves is an error")
    func cycle() throws {
        // An array (object 0) whose one element is itself.
        var bytes = Array("bplist00".utf8) + [0xA1, 0x00]
        let table = bytes.count
        bytes += [0x08]
        bytes +=
            [0, 0, 0, 0, 0, 0, 1, 1] + [0, 0, 0, 0, 0, 0, 0, 1] + [0, 0, 0, 0, 0, 0, 0, 0] + [
                0, 0, 0, 0, 0, 0, 0, UInt8(table),
            ]
        #expect(
            throws: ParseError(
                "objects nested too deep (512 levels at most; a reference cycle?)",
                at: TodoFormat.SourceLocation(file: "cycle.plist", byteOffset: 8))
        ) {
            try TodoList(bytes: bytes, format: .bplist, name: "cycle.plist")
        }
    }
}
