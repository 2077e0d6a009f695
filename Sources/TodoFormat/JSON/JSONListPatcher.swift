import Foundation

/// Writes a list into existing JSON text changing only what changed (`TextListPatcher`,
/// FORMAT.md section 7.6): the list is the root array, or the array `--key` names or
/// todofmt finds in an object root.
enum JSONListPatcher {
    /// Writes `items` into the JSON text `bytes` (whose name is `path`) into `sink`; returns
    /// what the text could not hold.
    static func write(
        _ items: [TodoItem], into bytes: UnsafeBufferPointer<UInt8>, path: String, options: ListOptions,
        to sink: inout ByteSink,
        mapped: MappedFile? = nil
    ) throws -> [ConversionWarning] {
        var patcher = try self.patcher(for: bytes, path: path, options: options, mapped: mapped)
        return try patcher.write(items, to: &sink)
    }

    /// The patcher of the list in the JSON text `bytes` (whose name is `path`).
    static func patcher(
        for bytes: UnsafeBufferPointer<UInt8>, path: String, options: ListOptions, mapped: MappedFile? = nil
    ) throws -> TextListPatcher<JSONListSyntax> {
        var scanner = JSONScanner(bytes: bytes, path: path)
        let list: ListStart
        let listName: String
        var syntax = JSONListSyntax(bytes: bytes, path: path, schema: options.schema)
        switch scanner.peek() {
        case UInt8(ascii: "["):
            // The root array is scanned as it is compared; only white space may follow it.
            list = .open(at: scanner.position, inside: scanner.position + 1)
            syntax.checksEnd = true
            listName = "the list"
        case UInt8(ascii: "{"):
            let start = scanner.position
            guard case .dictionary(let root) = try scanner.value() else { throw scanner.error("expected an object") }
            try scanner.expectEnd()
            let (place, _) = try ListPlace.locate(in: root, key: options.key, schema: options.schema, path: path)
            guard case .key(let keys) = place else {
                throw ConversionError.noList(path: path, reason: "the list is not an array")
            }
            scanner.position = start
            try seek(keys, in: &scanner)
            list = .scanned(try scanner.arraySpan(passed: mapped.map { mapped in { mapped.release(before: $0) } }))
            listName = "the list under '\(place.keyPath)'"
        default:
            throw scanner.unexpected(expecting: "a JSON array of items, or an object holding one")
        }
        return try TextListPatcher(
            bytes: bytes, path: path, list: list, listName: listName, schema: options.schema, syntax: syntax,
            dropsNulls: false,
            mapped: mapped)
    }

    /// Moves the scanner from an object to the value at a path of keys (the last of a key's
    /// duplicates, as JSON's readers and `ListPlace` take it).
    private static func seek(_ keys: [String], in scanner: inout JSONScanner) throws(ParseError) {
        for key in keys {
            try scanner.expect(UInt8(ascii: "{"), "'{'")
            var found: Int? = nil
            var first = true
            while try scanner.nextElement(close: UInt8(ascii: "}"), first: &first) {
                let name = try scanner.string()
                try scanner.expect(UInt8(ascii: ":"), "':'")
                scanner.skipWhitespace()
                if name == key { found = scanner.position }
                try scanner.skipValue()
            }
            guard let found else { throw scanner.error("there is no key '\(key)'") }
            scanner.position = found
        }
    }
}

/// JSON for `TextListPatcher`: items read where they stand, the file's style learned from
/// its text, values and items written in that style.
struct JSONListSyntax: TextListSyntax {
    let bytes: UnsafeBufferPointer<UInt8>
    let path: String
    let schema: ItemSchema
    private(set) var style = JSONStyle.todofmt
    /// Whether the list is the root: nothing but white space may follow it.
    var checksEnd = false
    private var renderer = JSONRenderer(style: .todofmt, layout: ItemLayout())

    init(bytes: UnsafeBufferPointer<UInt8>, path: String, schema: ItemSchema) {
        self.bytes = bytes
        self.path = path
        self.schema = schema
    }

    func readItem(at offset: Int, depth: Int, arrayIDs: inout Int) throws -> SpannedItem {
        var scanner = JSONScanner(bytes: bytes, path: path)
        scanner.position = offset
        return try scanner.spannedItem(schema: schema, depth: depth, arrayIDs: &arrayIDs)
    }

    static var members: MemberLayout { .inline }

    func listItem(at offset: Int) -> TodoItem? {
        var scanner = scanner(at: offset)
        return try? JSONListReader.readItem(&scanner, schema: schema, depth: 0)
    }

    private func slice(_ range: Range<Int>) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(rebasing: bytes[range])
    }

    private func scanner(at offset: Int) -> JSONScanner {
        var scanner = JSONScanner(bytes: bytes, path: path)
        scanner.position = offset
        return scanner
    }

    func firstElement(inside offset: Int) throws -> ElementStep {
        var scanner = scanner(at: offset)
        switch scanner.peek() {
        case UInt8(ascii: "]"): return try closed(at: scanner.position, &scanner)
        case 0: throw scanner.unexpected(expecting: "an item object or ']'")
        default: return .element(at: scanner.position)
        }
    }

    func element(after end: Int) throws -> ElementStep {
        var scanner = scanner(at: end)
        var first = false
        if try scanner.nextElement(close: UInt8(ascii: "]"), first: &first) {
            scanner.skipWhitespace()
            return .element(at: scanner.position)
        }
        return try closed(at: scanner.position - 1, &scanner)
    }

    private func closed(at close: Int, _ scanner: inout JSONScanner) throws -> ElementStep {
        scanner.position = close + 1
        if checksEnd { try scanner.expectEnd() }
        return .end(closeAt: close, arrayEnd: close + 1)
    }

    func elementEnd(from start: Int) throws -> Int {
        var scanner = scanner(at: start)
        try scanner.skipValue()
        return scanner.position
    }
    private func lineIndent(at offset: Int) -> [UInt8] { TextListPatcher<Self>.lineIndent(in: bytes, at: offset) }
    private func indentAfterBreak(_ gap: Range<Int>) -> [UInt8]? {
        TextListPatcher<Self>.indentAfterBreak(in: bytes, gap)
    }
    private func hasBreak(_ range: Range<Int>) -> Bool { bytes[range].contains(10) }

    /// One level of indentation: what `line` adds to `outer`.
    private static func unit(_ line: [UInt8], below outer: [UInt8]) -> [UInt8]? {
        guard line.count > outer.count, line.starts(with: outer) else { return nil }
        return Array(line[outer.count...])
    }

    mutating func learn(sample: [SpannedItem], list: ArraySpan) throws {
        // Strings: escapes only some writers make, in the sample and outside the list.
        let sampleEnd = sample.last?.span.upperBound ?? list.whole.lowerBound
        var head = JSONStyle()
        var inList = JSONStyle()
        var tail = JSONStyle()
        var zeroFraction = head.learnText(slice(0..<list.whole.lowerBound))
        zeroFraction = inList.learnText(slice(list.whole.lowerBound..<sampleEnd)) || zeroFraction
        zeroFraction = tail.learnText(slice(list.whole.upperBound..<bytes.count)) || zeroFraction
        let parts = [head, inList, tail]
        style.escapes.asciiOnly =
            inList.escapes.asciiOnly || (sample.isEmpty && (head.escapes.asciiOnly || tail.escapes.asciiOnly))
        style.escapes.escapeSlash = parts.contains { $0.escapes.escapeSlash }
        style.escapes.escapeHTML = parts.contains { $0.escapes.escapeHTML }
        style.escapes.upperHex = parts.contains { $0.escapes.upperHex }
        style.escapes.shortEscapes = parts.contains { $0.escapes.shortEscapes }
        // Whole reals: `5.0` where a number shows a zero fraction, `5` where a key holds
        // both integers and reals (JavaScript, Go); todofmt's `5.0` otherwise.
        var kinds: [String: (integer: Bool, real: Bool)] = [:]
        for item in sample {
            for member in item.members {
                switch member.value {
                case .integer: kinds[member.key, default: (false, false)].integer = true
                case .double: kinds[member.key, default: (false, false)].real = true
                default: break
                }
            }
        }
        style.realsKeepFraction = zeroFraction || !kinds.values.contains { $0.integer && $0.real }

        // Layout: from the array and the first items.
        if let first = list.elements.first, let inside = list.inside {
            style.arrayLines = hasBreak(inside.lowerBound..<first.lowerBound)
            if style.arrayLines, let line = indentAfterBreak(inside.lowerBound..<first.lowerBound),
                let unit = Self.unit(line, below: lineIndent(at: list.whole.lowerBound))
            {
                style.indent = unit
            }
        }
        if let item = sample.first(where: { !$0.keySpans.isEmpty }) {
            let lead = item.inside.lowerBound..<item.keySpans[0].lowerBound
            style.itemLines = hasBreak(lead)
            style.colon = Array(bytes[item.keySpans[0].upperBound..<item.valueSpans[0].lowerBound])
            if style.itemLines, let member = indentAfterBreak(lead),
                let unit = Self.unit(member, below: lineIndent(at: item.span.lowerBound))
            {
                style.indent = unit
            }
        }
        if !style.itemLines {
            // The first gap between members that is only a comma and spaces (not one that also
            // holds a key given twice, whose earlier value the reader passes over).
            search: for item in sample where item.keySpans.count >= 2 {
                for m in 1..<item.keySpans.count {
                    let gap = bytes[item.valueSpans[m - 1].upperBound..<item.keySpans[m].lowerBound]
                    if gap.allSatisfy({ [32, 9, 10, 13, 44].contains($0) }) && gap.count(where: { $0 == 44 }) == 1 {
                        style.comma = Array(gap)
                        break search
                    }
                }
            }
        }
        style.valueColon = style.colon
        style.valueComma = style.comma
        style.valueLines = style.itemLines
        // Arrays and objects inside items: one element a line, or on one line, and how.
        search: for item in sample {
            for (m, member) in item.members.enumerated() where member.role != .children {
                let span = item.valueSpans[m]
                let open = bytes[span.lowerBound]
                guard open == UInt8(ascii: "[") || open == UInt8(ascii: "{") else { continue }
                var scanner = JSONScanner(bytes: bytes, path: path)
                scanner.position = span.lowerBound + 1
                scanner.skipWhitespace()
                guard scanner.position < span.upperBound - 1 else { continue }
                style.valueLines = hasBreak((span.lowerBound + 1)..<scanner.position)
                if !style.valueLines {
                    if open == UInt8(ascii: "{") {
                        try scanner.skipString()
                        let colonStart = scanner.position
                        scanner.skipWhitespace()
                        scanner.position += 1
                        scanner.skipWhitespace()
                        style.valueColon = Array(bytes[colonStart..<scanner.position])
                    }
                    try scanner.skipValue()
                    let end = scanner.position
                    scanner.skipWhitespace()
                    if scanner.position < span.upperBound, bytes[scanner.position] == UInt8(ascii: ",") {
                        scanner.position += 1
                        scanner.skipWhitespace()
                        style.valueComma = Array(bytes[end..<scanner.position])
                    }
                }
                break search
            }
        }
    }

    var arrayLines: Bool { style.arrayLines }
    var itemLines: Bool { style.itemLines }
    var indent: [UInt8] { style.indent }

    mutating func use(_ layout: ItemLayout) { renderer = JSONRenderer(style: style, layout: layout) }

    func item(_ item: TodoItem, line: [UInt8], to out: inout [UInt8]) -> Bool {
        renderer.item(item, line: line, to: &out)
        return Self.isExact(item) && renderer.keepsStatus(of: item)
    }

    /// Whether JSON holds an item (with its children) exactly.
    static func isExact(_ item: TodoItem) -> Bool {
        if item.fields.isEmpty && item.children.isEmpty { return true }
        for field in item.fields where !losses(in: field.value).isEmpty { return false }
        for i in item.children.indices where !isExact(item.children[i]) { return false }
        return true
    }
    func value(_ value: FieldValue, line: [UInt8], to out: inout [UInt8]) {
        renderer.value(value, line: line, to: &out)
    }
    func key(_ key: String, to out: inout [UInt8]) { renderer.string(Substring(key), to: &out) }

    func colon(line: [UInt8]) -> [UInt8] { style.colon }
    func memberSeparator(line: [UInt8]) -> [UInt8] { style.itemLines ? [UInt8(ascii: ","), 10] + line : style.comma }
    func elementSeparator(line: [UInt8]) -> [UInt8] { style.arrayLines ? [UInt8(ascii: ","), 10] + line : style.comma }
    var arrayOpen: [UInt8] { [UInt8(ascii: "[")] }
    var arrayClose: [UInt8] { [UInt8(ascii: "]")] }
    var emptyArray: [UInt8] { Array("[]".utf8) }
    var objectOpen: [UInt8] { [UInt8(ascii: "{")] }
    var objectClose: [UInt8] { [UInt8(ascii: "}")] }

    func losses(in value: FieldValue) -> [String] { Self.losses(in: value) }

    /// What JSON cannot hold of a value: NaN and the infinities (written as strings) and
    /// -0.0 (written `-0.0`, which JavaScript and others read as 0).
    static func losses(in value: FieldValue) -> [String] {
        switch value {
        case .double(let d) where !d.isFinite:
            return ["JSON has no NaN or infinity: they were written as the strings \"nan\", \"inf\", \"-inf\""]
        case .double(let d) where d == 0 && d.sign == .minus:
            return ["-0.0 was written as -0.0, which JavaScript and other JSON readers take for 0"]
        case .array(let values): return Array(Set(values.flatMap(losses))).sorted()
        case .dictionary(let fields): return Array(Set(fields.flatMap { losses(in: $0.value) })).sorted()
        default: return []
        }
    }
}
