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
        do {
            let metadata = try parse(UnsafeBufferPointer(rebasing: bytes[front.yaml]), file: file, lineOffset: 1)
            return (metadata, front.bodyStart, front.lineCount + 1, nil)
        } catch {
            let reason = error.location.line > 0 ? "\(error.message) at line \(error.location.line), column \(error.location.column)" : error.message
            let why =
                "the '---' lines 1 and \(front.lineCount) enclose no front matter: what lies between is not a YAML mapping "
                + "(\(reason)), so they are read as Markdown"
            return ([], 0, 1, why)
        }
    }

    /// The metadata in the YAML text: a mapping, or nothing but white space. Anything else
    /// (YAML that is not a mapping, only comments, several documents, not YAML) is an error
    /// that says what it is.
    static func parse(_ yaml: UnsafeBufferPointer<UInt8>, file: String, lineOffset: Int) throws(ParseError) -> [Field] {
        let parser = try YAMLParser(bytes: yaml, file: file, lineOffset: lineOffset)
        var anchors: [String: FieldValue] = [:]
        var metadata: [Field] = []
        var sawMapping = false
        var documents = 0
        while true {
            let event = try parser.next()
            switch event.kind {
            case .streamEnd:
                if !sawMapping && yaml.contains(where: { $0 != 32 && $0 != 9 && $0 != 10 && $0 != 13 }) {
                    throw ParseError("no YAML mapping, only comments or an empty value", at: SourceLocation(file: file, line: 0, column: 0))
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
        if lineEnding != "\n" { yaml = yaml.replacingOccurrences(of: "\n", with: lineEnding) }
        return "---" + lineEnding + yaml + "---" + lineEnding
    }
}
