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

    /// The metadata in the YAML text: a mapping (or nothing).
    static func parse(_ yaml: UnsafeBufferPointer<UInt8>, file: String, lineOffset: Int) throws(ParseError) -> [Field] {
        let parser = try YAMLParser(bytes: yaml, file: file, lineOffset: lineOffset)
        var anchors: [String: FieldValue] = [:]
        var metadata: [Field] = []
        var documents = 0
        while true {
            let event = try parser.next()
            switch event.kind {
            case .streamEnd:
                return metadata
            case .documentStart:
                documents += 1
                if documents > 1 { throw parser.error("front matter holds more than one YAML document", at: event) }
            case .mappingStart, .sequenceStart, .scalar, .alias:
                let value = try YAMLValue.read(from: parser, startingWith: event, anchors: &anchors)
                switch value {
                case .dictionary(let fields): metadata = fields
                case .null: metadata = []
                default: throw parser.error("front matter must be a YAML mapping of keys to values", at: event)
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
