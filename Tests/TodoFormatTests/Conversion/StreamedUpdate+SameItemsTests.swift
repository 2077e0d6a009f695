import Foundation
import Testing

@testable import TodoFormat

/// A streamed write whose items change in place (`StreamedUpdate.sameItems`): the output's
/// bytes stand only where each changed item of the file is one the new writer writes as the
/// file holds it; otherwise the pieces, or the whole-list write, decide. Either way the
/// bytes are the whole-list write's.
@Suite("Streamed writes whose items change in place")
struct StreamedUpdateSameItemsTests {
    /// A checklist of `count` items: some with fields (one named like the checked role's
    /// key), some with children and grandchildren, in two sections. Names do not repeat:
    /// where they do, the pieces and the whole-list write can pair otherwise, the build
    /// before this test too (`pairedOrPlacedOtherwise` holds such runs to the pieces).
    static func checklist(count: Int, _ rng: inout SeededGenerator) -> [String] {
        var lines = ["# Home"]
        let boxes = ["[ ]", "[x]", "[/]", "[-]"]
        let fields = ["", " [n:: 1]", " [due:: 2026-01-02T09:00:00Z]", " [tag:: rye] [prio:: 2]", " [done:: 6.5]"]
        for i in 1...count {
            if i == count / 2 { lines.append("# Work") }
            let name = "Item \(i) 日本語"
            lines.append(
                "- \(boxes.randomElement(using: &rng)!) \(name)\(fields.randomElement(using: &rng)!)")
            for c in 0..<[0, 0, 0, 0, 1, 2].randomElement(using: &rng)! {
                let child = "Child \(c) of \(i)"
                lines.append("  - \(boxes.randomElement(using: &rng)!) \(child)\(fields.randomElement(using: &rng)!)")
                if Int.random(in: 0..<3, using: &rng) == 0 { lines.append("    - [ ] Grandchild of \(i).\(c)") }
            }
        }
        return lines
    }

    /// The file's item lines as an app may have left them: keys in its own order, a key of
    /// its own, a null, `checked` as a number, other spacing. (Lines of items with children are left alone.)
    static func appEdited(_ text: String, oneIn: Int, _ rng: inout SeededGenerator) -> String {
        var lines = text.components(separatedBy: "\n")
        for i in lines.indices
        where lines[i].hasPrefix("  {\"name\": ") && lines[i].hasSuffix("},")
            && Int.random(in: 0..<oneIn, using: &rng) == 0
        {
            var line = lines[i]
            switch Int.random(in: 0..<5, using: &rng) {
            case 0:
                // `checked` first.
                if let range = line.range(of: #", "checked": (true|false)"#, options: .regularExpression) {
                    let checked = String(line[range].dropFirst(2))
                    line.removeSubrange(range)
                    line = line.replacingOccurrences(of: "  {", with: "  {\(checked), ")
                }
            case 1: line = line.replacingOccurrences(of: "  {", with: "  {\"color\": \"red\", ")
            case 2: line = String(line.dropLast(2)) + ", \"gone\": null},"
            case 3:
                // `checked` as a number.
                line = line.replacingOccurrences(of: "\"checked\": false", with: "\"checked\": 0")
                    .replacingOccurrences(of: "\"checked\": true", with: "\"checked\": 1")
            default: line = line.replacingOccurrences(of: "\": ", with: "\":  ")
            }
            lines[i] = line
        }
        return lines.joined(separator: "\n")
    }

    /// Every tenth box changed (in the whole list, or a stretch of it), some items renamed or
    /// given another field, and now and then an item added or removed.
    static func edited(_ lines: [String], _ rng: inout SeededGenerator) -> [String] {
        var lines = lines
        let end = Bool.random(using: &rng) ? lines.count : Int.random(in: 2...lines.count, using: &rng)
        for i in stride(from: Int.random(in: 1...10, using: &rng), to: end, by: 10)
        where lines[i].contains("- [") {
            let boxes = ["[ ]", "[x]", "[/]", "[-]"]
            for box in boxes where lines[i].contains("- \(box)") {
                let other = boxes.filter { $0 != box }.randomElement(using: &rng)!
                lines[i] = lines[i].replacingOccurrences(of: "- \(box)", with: "- \(other)")
                break
            }
        }
        for k in 0..<Int.random(in: 0...3, using: &rng) {
            let i = Int.random(in: 1..<end, using: &rng)
            guard lines[i].hasPrefix("- [") else { continue }
            lines[i] =
                Bool.random(using: &rng)
                ? lines[i].replacingOccurrences(of: "Item", with: "Renamed")
                : lines[i] + " [extra\(k):: true]"
        }
        switch Int.random(in: 0..<4, using: &rng) {
        case 0: lines.insert("- [ ] Added", at: Int.random(in: 1..<lines.count, using: &rng))
        case 1:
            let i = Int.random(in: 1..<lines.count, using: &rng)
            if lines[i].hasPrefix("- [") { lines.remove(at: i) }
        default: break
        }
        return lines
    }

    @Test(
        "a list edited in many places, into a file an app may have edited: the whole-list write's bytes",
        arguments: 0..<60, [DocumentFormat.json, .plist])
    func editedInManyPlaces(seed: Int, format: DocumentFormat) throws {
        var rng = SeededGenerator(seed: UInt64(seed))
        let directory = try TemporaryDirectory()
        let lines = Self.checklist(count: Int.random(in: 30...160, using: &rng), &rng)
        let path = try StreamedUpdateTests.newFile(
            lines.joined(separator: "\n") + "\n", "list.\(format)", in: directory)
        // None of the file's items an app's, or one in 8, 40 or 200 (JSON).
        if seed % 4 != 0 && format == .json {
            let text = try String(contentsOfFile: path, encoding: .utf8)
            try Self.appEdited(text, oneIn: [8, 40, 200][seed % 4 - 1], &rng).write(
                toFile: path, atomically: false, encoding: .utf8)
        }
        let checklist = try StreamedUpdateTests.checklist(
            Self.edited(lines, &rng).joined(separator: "\n") + "\n", in: directory)
        let whole = directory.path("whole.\(format)")
        try FileManager.default.copyItem(atPath: path, toPath: whole)
        _ = try StreamedUpdateTests.streamed(checklist, into: path)
        try StreamedUpdateTests.whole(checklist, into: whole)
        #expect(try StreamedUpdateTests.bytes(path) == (try StreamedUpdateTests.bytes(whole)))
    }

    /// Found by helper hunt 75 against the build before: where the output's bytes do not
    /// stand for the whole-list write's, the run goes to the pieces.
    @Test(
        "boxes changed where the whole-list write pairs or places otherwise: its bytes",
        arguments: [
            // Two children of one name, one with a child, whose boxes change places: the
            // whole-list write pairs them by content, and keeps an empty `children`.
            (
                "- [ ] eggs\n  - [>] code\n  - [ ] milk\n  - [/] code\n    - [ ] a\n",
                "- [ ] eggs\n  - [ ] code\n  - [ ] milk\n  - [>] code\n    - [ ] a\n"
            ),
            // A field named like the checked role's key, and a custom status given: the
            // whole-list write puts `status` after the field.
            ("- [x] a [done:: 6.61]\n- [ ] b\n", "- [-] a [done:: 6.61]\n- [ ] b\n"),
            ("- [ ] b\n  - [x] c [completed:: 2026-02-16]\n", "- [ ] b\n  - [/] c [completed:: 2026-02-16]\n"),
            // The same, after an item whose box changed alike without such a field: its
            // window is the same, and the output's item is still checked whole.
            ("- [x] z\n- [x] a [done:: 6.61]\n- [ ] b\n", "- [-] z\n- [-] a [done:: 6.61]\n- [ ] b\n"),
            (
                "- [ ] b\n  - [x] y\n  - [x] c [completed:: 2026-02-16]\n",
                "- [ ] b\n  - [/] y\n  - [/] c [completed:: 2026-02-16]\n"
            ),
        ], [DocumentFormat.json, .plist])
    func pairedOrPlacedOtherwise(lists: (String, String), format: DocumentFormat) throws {
        let directory = try TemporaryDirectory()
        let path = try StreamedUpdateTests.newFile(lists.0, "list.\(format)", in: directory)
        let checklist = try StreamedUpdateTests.checklist(lists.1, in: directory)
        let whole = directory.path("whole.\(format)")
        try FileManager.default.copyItem(atPath: path, toPath: whole)
        _ = try StreamedUpdateTests.streamed(checklist, into: path)
        try StreamedUpdateTests.whole(checklist, into: whole)
        #expect(try StreamedUpdateTests.bytes(path) == (try StreamedUpdateTests.bytes(whole)))
    }

    /// A streamed write takes the status changes it finds as the list streams only where the
    /// first change from each text to another is shown, by reading its item, to be statuses
    /// the new writer writes so: an item an app left `"checked": true` beside a custom status
    /// reads as that status, which the list keeps, and the whole-list write keeps its text.
    @Test(
        "status members an app wrote otherwise, whose status the list keeps, are kept as the whole-list write keeps them",
        arguments: [DocumentFormat.json, .plist])
    func appStatusKept(format: DocumentFormat) throws {
        let directory = try TemporaryDirectory()
        let items = (1...40).map { "- [\($0 % 7 == 0 ? "/" : " ")] Item \($0)" }
        let path = try StreamedUpdateTests.newFile(
            items.joined(separator: "\n") + "\n", "list.\(format)", in: directory)
        // Item 14 (`[/]`) as an app left it: checked, and its status.
        let original = try String(contentsOfFile: path, encoding: .utf8)
        var text = original
        if format == .json {
            text = text.replacingOccurrences(
                of: #""Item 14", "checked": false"#, with: #""Item 14", "checked": true"#)
        } else {
            text = text.replacingOccurrences(
                of: "<string>Item 14</string>\n\t\t<key>checked</key>\n\t\t<false/>",
                with: "<string>Item 14</string>\n\t\t<key>checked</key>\n\t\t<true/>")
        }
        try text.write(toFile: path, atomically: false, encoding: .utf8)
        #expect(text != original)
        // Boxes checked before it and after it; item 14 as it reads.
        var edited = items
        for i in [2, 9, 20, 30] { edited[i] = edited[i].replacingOccurrences(of: "[ ]", with: "[x]") }
        let checklist = try StreamedUpdateTests.checklist(edited.joined(separator: "\n") + "\n", in: directory)
        let whole = directory.path("whole.\(format)")
        try FileManager.default.copyItem(atPath: path, toPath: whole)
        _ = try StreamedUpdateTests.streamed(checklist, into: path)
        try StreamedUpdateTests.whole(checklist, into: whole)
        #expect(try StreamedUpdateTests.bytes(path) == (try StreamedUpdateTests.bytes(whole)))
        #expect(try String(contentsOfFile: path, encoding: .utf8) != text)
    }

    /// The runs of a file and an output: `names` as a new JSON file's items (one a line),
    /// from the second item on (the run starts at an item), with the file's lines edited.
    private static func run(_ names: [String], checked: Set<Int> = [], edit: (inout [String]) -> Void = { _ in })
        -> [UInt8]
    {
        var lines = names.enumerated().map { i, name in
            "  {\"name\": \"\(name)\", \"checked\": \(checked.contains(i))}"
        }
        edit(&lines)
        return Array(("[\n" + lines.joined(separator: ",\n") + "\n]\n").utf8)
    }

    /// Whether `sameItems` takes the file's run for the output's (both from the first item's
    /// `{`, to the file's end), two changed items at a time (so that the checks span batches).
    private static func takes(_ old: [UInt8], _ new: [UInt8], batchSize: Int = 2) -> Bool {
        let update = JSONFormat.streamedUpdate
        return old.withUnsafeBufferPointer { file in
            new.withUnsafeBufferPointer { output in
                update.sameItems(
                    UnsafeBufferPointer(rebasing: file[4...]), at: 4,
                    output: UnsafeBufferPointer(rebasing: output[4...]),
                    toEnd: true, syntax: JSONListSyntax(bytes: file, path: "x.json", schema: ItemSchema()),
                    layout: ItemLayout(),
                    writer: { JSONListWriter(into: $0, outputName: "x.json", layout: ItemLayout()) },
                    batchSize: batchSize)
            }
        }
    }

    @Test(
        "items the new writer writes as the file holds them, whose boxes changed, are taken; an app's item, a renamed one or one added is not"
    )
    func takesOnlyBoxesOfItemsAsWritten() {
        let names = (1...6).map { "Item \($0)" }
        let old = Self.run(names)
        // Boxes checked, the last item's too (in three batches, the last one alone); a status of
        // its own; nothing changed.
        #expect(Self.takes(old, Self.run(names, checked: [1, 3, 5])))
        #expect(Self.takes(old, Self.run(names, checked: [0, 1, 2, 3, 5])))
        #expect(Self.takes(old, Self.run(names, checked: [0, 1, 2, 3, 5]), batchSize: 4096))
        #expect(Self.takes(old, Self.run(names) { $0[2] = String($0[2].dropLast()) + ", \"status\": \"/\"}" }))
        #expect(Self.takes(old, old))
        // A key of the file's that the new writer writes as the file holds it (a null field),
        // and the box beside it changed: taken; the key gone: the pieces decide.
        let withNull = Self.run(names) { $0[2] = String($0[2].dropLast()) + ", \"gone\": null}" }
        #expect(
            Self.takes(
                withNull, Self.run(names, checked: [2]) { $0[2] = String($0[2].dropLast()) + ", \"gone\": null}" }))
        #expect(!Self.takes(withNull, Self.run(names, checked: [2])))
        // Two changed items of one name, in one batch or in two.
        let twice = names.map { $0 == "Item 5" ? "Item 1" : $0 }
        #expect(!Self.takes(Self.run(twice), Self.run(twice, checked: [0, 4])))
        #expect(!Self.takes(Self.run(twice), Self.run(twice, checked: [0, 4]), batchSize: 1))
        #expect(Self.takes(Self.run(twice), Self.run(twice, checked: [0, 3])))
        // A name changed.
        #expect(!Self.takes(old, Self.run(names.map { $0 == "Item 2" ? "Renamed" : $0 })))
        // A box checked, then a name changed: the name's window is not the box's, and the
        // renamed item is checked whole.
        #expect(!Self.takes(old, Self.run(names.map { $0 == "Item 4" ? "Renamed" : $0 }, checked: [1])))
        // A box checked, then a field's dictionary given `"checked": true`: the same window,
        // not a box (found by helper hunt 79).
        let nested = { (checked: Bool) in
            { (lines: inout [String]) in
                lines[3] = String(lines[3].dropLast()) + ", \"tags\": [{\"x\": 1, \"checked\": \(checked)}]}"
            }
        }
        #expect(!Self.takes(Self.run(names, edit: nested(false)), Self.run(names, checked: [1], edit: nested(true))))
        #expect(
            Self.takes(Self.run(names, edit: nested(false)), Self.run(names, checked: [1, 3], edit: nested(false))))
        // Status members the new writer does not write (`checked` and a custom status), as
        // the first change or after a box checked, once or twice: the first pair of them is
        // read, and not taken.
        let appStatus = { (items: [Int]) in
            { (lines: inout [String]) in
                for i in items {
                    lines[i] = lines[i].replacingOccurrences(
                        of: "\"checked\": false", with: "\"checked\": true, \"status\": \"/\"")
                }
            }
        }
        #expect(!Self.takes(Self.run(names, edit: appStatus([2])), old))
        #expect(!Self.takes(Self.run(names, edit: appStatus([2, 4])), old))
        #expect(!Self.takes(Self.run(names, edit: appStatus([2, 4])), Self.run(names, checked: [0])))
        #expect(Self.takes(Self.run(names, edit: appStatus([2, 4])), Self.run(names, edit: appStatus([2, 4]))))
        // An item added or removed.
        #expect(!Self.takes(old, Self.run(names + ["Item 7"])))
        #expect(!Self.takes(old, Self.run(Array(names.dropLast()))))
        // An item the app wrote its own way (its key, its order, its spacing), first, in the
        // middle or last: not taken, changed or not (the new writer writes it otherwise,
        // where the whole-list write keeps what the app wrote).
        let edits: [(inout String) -> Void] = [
            { $0 = $0.replacingOccurrences(of: "  {", with: "  {\"color\": \"red\", ") },
            { $0 = $0.replacingOccurrences(of: "\": ", with: "\":  ") },
            {
                $0 = $0.replacingOccurrences(
                    of: #"{"name": "(.*)", "checked": false}"#, with: #"{"checked": false, "name": "$1"}"#,
                    options: .regularExpression)
            },
            { $0 = $0.replacingOccurrences(of: ", \"checked\": false}", with: "}") },
        ]
        for i in [0, 3, 5] {
            for (e, edit) in edits.enumerated() {
                let app = Self.run(names) { lines in edit(&lines[i]) }
                #expect(!Self.takes(app, Self.run(names, checked: [i])), "item \(i), edit \(e), changed")
                #expect(!Self.takes(app, Self.run(names, checked: [i == 0 ? 1 : 0])), "item \(i), edit \(e)")
                // After an item of the writer's whose box changed alike (the same window).
                if i > 0 {
                    #expect(!Self.takes(app, Self.run(names, checked: [0, i])), "item \(i), edit \(e), after another")
                }
            }
        }
    }
}
