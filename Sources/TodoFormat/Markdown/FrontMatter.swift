import Foundation

/// YAML front matter: the list's metadata between `---` lines at the top of a checklist.
enum FrontMatter {
    /// Where the front matter is: its YAML text, where the Markdown body starts, and
    /// how many lines it takes (fences included). Nil when the file has none.
    static func locate(in bytes: UnsafeBufferPointer<UInt8>) -> (yaml: Range<Int>, bodyStart: Int, lineCount: Int)? {
        let start = ByteOrderMark.length(in: bytes)
        guard let firstEnd = fenceLineEnd(bytes, at: start, fence: "---") else { return nil }
        var line = firstEnd
        var count = 1
        while line < bytes.count {
            count += 1
            if let end = fenceLineEnd(bytes, at: line, fence: "---") ?? fenceLineEnd(bytes, at: line, fence: "...") {
                return (firstEnd..<line, end, count)
            }
            while line < bytes.count && bytes[line] != 10 { line += 1 }
            line += 1
        }
        return nil
    }

    /// If the line at `i` is the fence (trailing white space allowed), the offset after its line ending.
    private static func fenceLineEnd(_ bytes: UnsafeBufferPointer<UInt8>, at i: Int, fence: StaticString) -> Int? {
        var j = i
        let f = UnsafeBufferPointer(start: fence.utf8Start, count: fence.utf8CodeUnitCount)
        for b in f {
            guard j < bytes.count && bytes[j] == b else { return nil }
            j += 1
        }
        while j < bytes.count && (bytes[j] == 32 || bytes[j] == 9 || bytes[j] == 13) { j += 1 }
        if j == bytes.count { return j }
        return bytes[j] == 10 ? j + 1 : nil
    }

    /// The front matter of a checklist: its metadata and where the body starts. Lines that
    /// would enclose front matter but hold no YAML mapping are Markdown (a thematic break
    /// first): then there is none, and `notFrontMatter` says why for `check`.
    static func read(
        _ bytes: UnsafeBufferPointer<UInt8>, file: String
    ) -> (metadata: [Field], bodyStart: Int, firstBodyLine: Int, notFrontMatter: String?) {
        guard let front = locate(in: bytes) else { return ([], 0, 1, nil) }
        #if !YAML
        let yaml = UnsafeBufferPointer(rebasing: bytes[front.yaml])
        guard let raw = rawMetadata(yaml) else {
            let why =
                "the '---' lines 1 and \(front.lineCount) enclose no front matter: what lies between does not start with a 'key:' line, so they are read as Markdown"
            return ([], 0, 1, why)
        }
        return (raw, front.bodyStart, front.lineCount + 1, nil)
        #else
        do {
            let metadata = try parse(UnsafeBufferPointer(rebasing: bytes[front.yaml]), file: file, lineOffset: 1)
            return (metadata, front.bodyStart, front.lineCount + 1, nil)
        } catch {
            let reason =
                error.location.line > 0
                ? "\(error.message) at line \(error.location.line), column \(error.location.column)" : error.message
            let why =
                "the '---' lines 1 and \(front.lineCount) enclose no front matter: what lies between is not a YAML mapping "
                + "(\(reason)), so they are read as Markdown"
            return ([], 0, 1, why)
        }
        #endif
    }

    #if YAML
    /// The metadata in the YAML text: a mapping, or nothing but white space. Anything else
    /// (YAML that is not a mapping, only comments, several documents, not YAML) is an error
    /// that says what it is.
    static func parse(_ yaml: UnsafeBufferPointer<UInt8>, file: String, lineOffset: Int) throws(ParseError) -> [Field] {
        let parser = YAMLParser(bytes: yaml, file: file, lineOffset: lineOffset)
        var anchors: [String: FieldValue] = [:]
        var metadata: [Field] = []
        var sawMapping = false
        var documents = 0
        while true {
            let event = try parser.next()
            switch event.kind {
            case .streamEnd:
                if !sawMapping && yaml.contains(where: { $0 != 32 && $0 != 9 && $0 != 10 && $0 != 13 }) {
                    throw ParseError(
                        "no YAML mapping, only comments or an empty value",
                        at: SourceLocation(file: file, line: 0, column: 0))
                }
                return metadata
            case .documentStart:
                documents += 1
                if documents > 1 { throw parser.error("more than one YAML document", at: event) }
            case .mappingStart, .sequenceStart, .scalar, .alias:
                let value = try YAMLValue.read(from: parser, startingWith: event, anchors: &anchors)
                switch value {
                case .dictionary(let fields):
                    metadata = fields
                    sawMapping = true
                case .null: break
                case .array: throw parser.error("a YAML sequence", at: event)
                default: throw parser.error("YAML text", at: event)
                }
            default:
                break
            }
        }
    }

    /// `---`, the metadata as a YAML mapping, `---`, each line ending in `lineEnding`.
    static func render(_ metadata: [Field], lineEnding: String = "\n") throws -> String {
        let emitter = try YAMLEmitter()
        try emitter.streamStart()
        try emitter.documentStart(implicit: true)
        try YAMLValue.emit(.dictionary(metadata), to: emitter)
        try emitter.documentEnd()
        try emitter.streamEnd()
        var yaml = String(decoding: emitter.output, as: UTF8.self)
        if yaml.hasSuffix("...\n") { yaml.removeLast(4) }
        if lineEnding != "\n" { yaml = yaml.replacingEvery("\n", with: lineEnding) }
        return "---" + lineEnding + yaml + "---" + lineEnding
    }
    #else
    /// A build without YAML keeps front matter as its raw text, in one metadata field with
    /// this key: written back to a checklist byte for byte, left out of other formats.
    static let rawKey = "---"

    /// The raw front matter as metadata, when its first line that is not blank or a comment
    /// is a `key:` line (the shape of a YAML mapping) or there is none and no comment either
    /// (as YAML reads it: only comments is no mapping); nil otherwise.
    static func rawMetadata(_ yaml: UnsafeBufferPointer<UInt8>) -> [Field]? {
        let text = String(decoding: yaml, as: UTF8.self)
        let first = text.split(whereSeparator: { $0 == "\n" || $0 == "\r\n" }).first { line in
            let trimmed = line.drop { $0 == " " || $0 == "\t" }
            return !trimmed.isEmpty && !trimmed.hasPrefix("#") && trimmed != "\r"
        }
        guard let first else { return text.contains("#") ? nil : [Field(rawKey, .string(text))] }
        guard let colon = first.firstIndex(of: ":"), colon > first.startIndex, !"-#[{ \t".contains(first.first!) else {
            return nil
        }
        let after = first[first.index(after: colon)...]
        guard after.isEmpty || after.first == " " || after.first == "\t" || after.first == "\r" else { return nil }
        return [Field(rawKey, .string(text))]
    }

    /// Raw front matter (`rawMetadata`) as it was read; any other metadata needs YAML.
    static func render(_ metadata: [Field], lineEnding: String = "\n") throws -> String {
        guard metadata.count == 1, metadata[0].key == rawKey, case .string(let text) = metadata[0].value else {
            throw ConversionError.unsupported(
                "the list's metadata (\(metadata.map(\.key).joined(separator: ", "))) cannot be written as front matter: \(YAMLFormat.missing)"
            )
        }
        return "---" + lineEnding + text + "---" + lineEnding
    }
    #endif
}
