internal import CYAML

/// One event of libyaml's event stream, with its text still in libyaml's memory.
struct YAMLEvent {
    enum Kind {
        case streamStart, streamEnd, documentStart, documentEnd, alias, scalar
        case sequenceStart, sequenceEnd, mappingStart, mappingEnd
    }
    var kind: Kind
    /// 1-based position in the whole file, and the byte offset.
    var line: Int
    var column: Int
    var offset: Int
    /// A scalar's bytes; valid until the parser's next event.
    var value: UnsafeBufferPointer<UInt8>
    /// A plain (unquoted, not block) scalar, whose type comes from its text.
    var isPlain: Bool
    // Tags and anchors are rare: kept as libyaml's C strings until asked for.
    var tagPointer: UnsafeMutablePointer<UInt8>?
    var anchorPointer: UnsafeMutablePointer<UInt8>?

    var tag: String? { tagPointer.map { String(cString: $0) } }
    var anchor: String? { anchorPointer.map { String(cString: $0) } }
}

/// The thin wrapper around libyaml's parser: all of todofmt's YAML reading goes through it.
final class YAMLParser {
    // The C state lives outside Swift's stored properties, so reading an event costs
    // no exclusivity checks.
    private let parser: UnsafeMutablePointer<yaml_parser_t>
    private let event: UnsafeMutablePointer<yaml_event_t>
    private let file: String
    private let lineOffset: Int
    private let bytes: UnsafeBufferPointer<UInt8>

    /// Parses `bytes`, which must stay alive as long as the parser; positions are
    /// reported `lineOffset` lines further down `file` (for front matter).
    init(bytes: UnsafeBufferPointer<UInt8>, file: String, lineOffset: Int = 0) {
        self.file = file
        self.lineOffset = lineOffset
        self.bytes = bytes
        parser = .allocate(capacity: 1)
        event = .allocate(capacity: 1)
        event.initialize(to: yaml_event_t())
        yaml_parser_initialize(parser)
        yaml_parser_set_encoding(parser, YAML_UTF8_ENCODING)
        yaml_parser_set_input_string(parser, bytes.baseAddress ?? UnsafePointer(bitPattern: 1)!, bytes.count)
    }

    deinit {
        yaml_event_delete(event)
        yaml_parser_delete(parser)
        event.deallocate()
        parser.deallocate()
    }

    /// The next event; the previous event's scalar bytes are no longer valid.
    func next() throws(ParseError) -> YAMLEvent {
        // Deleting a zeroed or already deleted event is a no-op in libyaml.
        yaml_event_delete(event)
        guard yaml_parser_parse(parser, event) == 1 else { throw currentError() }
        let e = event.pointee
        let mark = e.start_mark
        var result = YAMLEvent(
            kind: .streamStart, line: Int(mark.line) + 1 + lineOffset, column: Int(mark.column) + 1,
            offset: Int(mark.index), value: UnsafeBufferPointer(start: nil, count: 0), isPlain: false,
            tagPointer: nil, anchorPointer: nil)
        switch e.type {
        case YAML_SCALAR_EVENT:
            result.kind = .scalar
            let scalar = e.data.scalar
            result.value = UnsafeBufferPointer(start: scalar.value, count: scalar.length)
            result.isPlain = scalar.style == YAML_PLAIN_SCALAR_STYLE
            result.tagPointer = scalar.tag
            result.anchorPointer = scalar.anchor
        case YAML_MAPPING_START_EVENT:
            result.kind = .mappingStart
            result.tagPointer = e.data.mapping_start.tag
            result.anchorPointer = e.data.mapping_start.anchor
        case YAML_MAPPING_END_EVENT: result.kind = .mappingEnd
        case YAML_SEQUENCE_START_EVENT:
            result.kind = .sequenceStart
            result.tagPointer = e.data.sequence_start.tag
            result.anchorPointer = e.data.sequence_start.anchor
        case YAML_SEQUENCE_END_EVENT: result.kind = .sequenceEnd
        case YAML_STREAM_START_EVENT: result.kind = .streamStart
        case YAML_STREAM_END_EVENT: result.kind = .streamEnd
        case YAML_DOCUMENT_START_EVENT: result.kind = .documentStart
        case YAML_DOCUMENT_END_EVENT: result.kind = .documentEnd
        case YAML_ALIAS_EVENT:
            result.kind = .alias
            result.anchorPointer = e.data.alias.anchor
        default: result.kind = .streamEnd
        }
        return result
    }

    /// An error at an event's position.
    func error(_ message: String, at event: YAMLEvent) -> ParseError {
        ParseError(message, at: place(line: event.line - lineOffset, column: event.column))
    }

    /// The location of a libyaml mark (line and column from 1, not yet moved by `lineOffset`).
    private func place(line: Int, column: Int) -> SourceLocation {
        // At the end of a text without a final newline, libyaml moves its mark to the start
        // of a line after the last one; the place to show is the end of the last line.
        // Counting the lines costs a pass over the text, so only errors pay for it.
        if column == 1 && line > 1 && bytes.last != UInt8(ascii: "\n") {
            var end = SourceLocation.of(offset: bytes.count, in: bytes, file: file)
            if line > end.line {
                end.line += lineOffset
                return end
            }
        }
        return SourceLocation(file: file, line: line + lineOffset, column: column)
    }

    private func currentError() -> ParseError {
        // libyaml counts lines and columns from 0; its columns count characters.
        let p = parser.pointee
        let problem = p.problem.map { String(cString: $0) } ?? "invalid YAML"
        var message = "yaml: " + problem
        if let context = p.context.map({ String(cString: $0) }) {
            message += " " + context
        }
        let mark = p.problem_mark
        return ParseError(message, at: place(line: Int(mark.line) + 1, column: Int(mark.column) + 1))
    }
}
