#if YAML
internal import CYAML

/// The thin wrapper around libyaml's parser: all of todofmt's YAML reading goes through it.
/// Events come from `YAMLBlockScanner` while the text keeps to the block YAML it reads, then
/// from libyaml, set going only then.
final class YAMLParser {
    // The C state lives outside Swift's stored properties, so reading an event costs
    // no exclusivity checks; the same goes for the scanner's.
    private var parser: UnsafeMutablePointer<yaml_parser_t>?
    private let scanner: UnsafeMutablePointer<YAMLBlockScanner>
    private var scanning: Bool
    /// The events the scanner gave, which libyaml skips when it takes over.
    private var scanned = 0
    private let bytes: UnsafeBufferPointer<UInt8>
    private let file: String
    private let lineOffset: Int

    /// Parses `bytes`, which must stay alive as long as the parser; positions are
    /// reported `lineOffset` lines further down `file` (for front matter). With
    /// `scanning` false every event is libyaml's (for tests that hold the two side by side).
    init(bytes: UnsafeBufferPointer<UInt8>, file: String, lineOffset: Int = 0, scanning: Bool = true) {
        self.bytes = bytes
        self.file = file
        self.lineOffset = lineOffset
        self.scanning = scanning
        // With the encoding given, libyaml keeps a byte order mark as a character of the
        // first line, which then no longer lines up with the lines below it: both start
        // after it.
        scanner = .allocate(capacity: 1)
        scanner.initialize(
            to: YAMLBlockScanner(
                UnsafeBufferPointer(rebasing: bytes[Self.start(of: bytes)...]), byteOrderMark: Self.start(of: bytes),
                lineOffset: lineOffset))
    }

    private static func start(of bytes: UnsafeBufferPointer<UInt8>) -> Int {
        ByteOrderMark.length(in: bytes)
    }

    /// Sets libyaml going from the start, past the events the scanner gave.
    private func startLibYAML() throws(ParseError) -> UnsafeMutablePointer<yaml_parser_t> {
        let parser = UnsafeMutablePointer<yaml_parser_t>.allocate(capacity: 1)
        // Fails only when out of memory.
        guard yaml_parser_initialize(parser) == 1 else {
            parser.deallocate()
            throw ParseError("yaml: out of memory", at: SourceLocation(file: file, line: lineOffset + 1, column: 1))
        }
        self.parser = parser
        yaml_parser_set_encoding(parser, YAML_UTF8_ENCODING)
        let start = Self.start(of: bytes)
        yaml_parser_set_input_string(
            parser, bytes.baseAddress.map { $0 + start } ?? UnsafePointer(bitPattern: 1)!, bytes.count - start)
        for _ in 0..<scanned { _ = try libYAMLEvent(parser) }
        return parser
    }

    /// The length of the input in bytes.
    var byteCount: Int { bytes.count }

    /// Whether every event so far came from the scanner (for tests).
    var isScanning: Bool { scanning }

    deinit {
        if let parser {
            yaml_parser_delete(parser)
            parser.deallocate()
        }
        scanner.deinitialize(count: 1)
        scanner.deallocate()
    }

    /// Where the last event with a width ended, in characters: after a scalar, an alias,
    /// a flow collection's bracket. A node ends there when its last event has been read
    /// (a block collection's end event has no width, and a block scalar's end takes in
    /// the line breaks after it: trim white space back from the byte offset).
    private(set) var lastContentEnd = 0
    /// `lastContentEnd` in bytes when the scanner gave that event, else -1.
    private var lastContentEndByte = -1

    /// `lastContentEnd` in bytes.
    var lastContentEndOffset: Int {
        lastContentEndByte >= 0 ? lastContentEndByte : byteOffset(ofCharacter: lastContentEnd)
    }

    /// Where an event starts in the input, in bytes: as the scanner gave it, else counted on
    /// from the last offset asked for (`byteOffset(ofCharacter:)`).
    func offset(of event: YAMLEvent) -> Int {
        event.byteOffset >= 0 ? event.byteOffset : byteOffset(ofCharacter: event.characterOffset)
    }

    /// Where an event ends in the input, in bytes, as `offset(of:)` finds its start.
    func endOffset(of event: YAMLEvent) -> Int {
        event.endByteOffset >= 0 ? event.endByteOffset : byteOffset(ofCharacter: event.endCharacterOffset)
    }

    /// The next event: the scanner's while it reads the text, then libyaml's (its text
    /// copied out of libyaml's memory).
    func next() throws(ParseError) -> YAMLEvent {
        if scanning {
            if let event = scanner.pointee.next() {
                scanned += 1
                if event.endCharacterOffset > event.characterOffset {
                    lastContentEnd = event.endCharacterOffset
                    lastContentEndByte = event.endByteOffset
                } else if case .scalar = event.kind, event.characterOffset > lastContentEnd {
                    // An empty value, as below.
                    lastContentEnd = event.characterOffset
                    lastContentEndByte = event.byteOffset
                }
                return event
            }
            scanning = false
        }
        if let parser { return try libYAMLEvent(parser) }
        return try libYAMLEvent(startLibYAML())
    }

    private func libYAMLEvent(_ parser: UnsafeMutablePointer<yaml_parser_t>) throws(ParseError) -> YAMLEvent {
        var event = yaml_event_t()
        guard yaml_parser_parse(parser, &event) == 1 else { throw currentError() }
        defer { yaml_event_delete(&event) }
        let kind: YAMLEvent.Kind
        switch event.type {
        case YAML_SCALAR_EVENT:
            let scalar = event.data.scalar
            kind = .scalar(
                YAMLEvent.Scalar(
                    text: Self.text(scalar.value, count: scalar.length), style: Self.style(scalar.style),
                    properties: Self.properties(scalar.tag, scalar.anchor)))
        case YAML_MAPPING_START_EVENT:
            let start = event.data.mapping_start
            kind = .mappingStart(Self.properties(start.tag, start.anchor))
        case YAML_MAPPING_END_EVENT: kind = .mappingEnd
        case YAML_SEQUENCE_START_EVENT:
            let start = event.data.sequence_start
            kind = .sequenceStart(Self.properties(start.tag, start.anchor))
        case YAML_SEQUENCE_END_EVENT: kind = .sequenceEnd
        case YAML_STREAM_START_EVENT: kind = .streamStart
        case YAML_DOCUMENT_START_EVENT: kind = .documentStart
        case YAML_DOCUMENT_END_EVENT: kind = .documentEnd
        case YAML_ALIAS_EVENT: kind = .alias(anchor: Self.text(event.data.alias.anchor) ?? "")
        default: kind = .streamEnd
        }
        let mark = event.start_mark
        if event.end_mark.index > mark.index {
            lastContentEnd = Int(event.end_mark.index)
            lastContentEndByte = -1
        } else if event.type == YAML_SCALAR_EVENT && Int(mark.index) > lastContentEnd {
            // An empty value (`status:` with nothing after): the content goes on to its place,
            // past the colon, which a span of the mapping must hold.
            lastContentEnd = Int(mark.index)
            lastContentEndByte = -1
        }
        var result = YAMLEvent(
            kind: kind, line: Int(mark.line) + 1 + lineOffset, column: Int(mark.column) + 1,
            characterOffset: Int(mark.index), endCharacterOffset: Int(event.end_mark.index))
        switch event.type {
        case YAML_SEQUENCE_START_EVENT: result.isFlow = event.data.sequence_start.style == YAML_FLOW_SEQUENCE_STYLE
        case YAML_MAPPING_START_EVENT: result.isFlow = event.data.mapping_start.style == YAML_FLOW_MAPPING_STYLE
        default: break
        }
        return result
    }

    /// Where an event starts in the input, in bytes. libyaml counts characters, after a
    /// byte order mark; this counts them off from the start, so call it rarely.
    func byteOffset(of event: YAMLEvent) -> Int {
        if event.byteOffset >= 0 { return event.byteOffset }
        var offset = ByteOrderMark.length(in: bytes)
        for _ in 0..<event.characterOffset where offset < bytes.count {
            offset += 1
            while offset < bytes.count && bytes[offset] & 0xC0 == 0x80 { offset += 1 }
        }
        return offset
    }

    /// Where a character offset (as events count them) is in the input, in bytes. Offsets
    /// asked for in order cost little: the count goes on from the last one.
    func byteOffset(ofCharacter character: Int) -> Int {
        guard let base = bytes.baseAddress else { return 0 }
        while cursorCharacter < character && cursorByte < bytes.count {
            // Eight characters at a time while they are ASCII.
            if character - cursorCharacter >= 8 && cursorByte + 8 <= bytes.count
                && UnsafeRawPointer(base + cursorByte).loadUnaligned(as: UInt64.self) & 0x8080_8080_8080_8080 == 0
            {
                cursorByte += 8
                cursorCharacter += 8
                continue
            }
            cursorByte += 1
            while cursorByte < bytes.count && bytes[cursorByte] & 0xC0 == 0x80 { cursorByte += 1 }
            cursorCharacter += 1
        }
        while cursorCharacter > character && cursorByte > byteOrderMark {
            cursorByte -= 1
            while cursorByte > byteOrderMark && bytes[cursorByte] & 0xC0 == 0x80 { cursorByte -= 1 }
            cursorCharacter -= 1
        }
        return cursorByte
    }

    private lazy var byteOrderMark = ByteOrderMark.length(in: bytes)
    private lazy var cursorByte = byteOrderMark
    private var cursorCharacter = 0

    /// A scalar's text: one copy, with no allocation for the short texts of keys and most
    /// values (small strings).
    static func text(_ bytes: UnsafePointer<UInt8>?, count: Int) -> String {
        if count <= 8, let bytes {
            var packed: UInt64 = 0
            for i in 0..<count { packed |= UInt64(bytes[i]) << (8 * i) }
            if let word = commonWord(packed) { return word }
        }
        return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
    }

    /// The keys of todofmt's own layout and the truth values, which every item repeats, by
    /// their bytes packed as `text(_:count:)` packs them (the first byte lowest): such a
    /// scalar is a string literal, not a string made and checked as UTF-8 again.
    private static func commonWord(_ packed: UInt64) -> String? {
        switch packed {
        case 0x656d_616e: "name"
        case 0x64_656b_6365_6863: "checked"
        case 0x7375_7461_7473: "status"
        case 0x6e_6f69_7463_6573: "section"
        case 0x6e65_7264_6c69_6863: "children"
        case 0x6575_7274: "true"
        case 0x65_736c_6166: "false"
        default: nil
        }
    }

    // Tags and anchors are NUL-terminated, and rare.
    private static func text(_ cString: UnsafeMutablePointer<yaml_char_t>?) -> String? {
        cString.map { String(cString: $0) }
    }

    @inline(__always)
    private static func properties(
        _ tag: UnsafeMutablePointer<yaml_char_t>?, _ anchor: UnsafeMutablePointer<yaml_char_t>?
    ) -> YAMLEvent.Properties {
        tag == nil && anchor == nil
            ? YAMLEvent.Properties() : YAMLEvent.Properties(tag: text(tag), anchor: text(anchor))
    }

    @inline(__always)
    private static func style(_ style: yaml_scalar_style_t) -> YAMLScalarStyle {
        switch style {
        case YAML_SINGLE_QUOTED_SCALAR_STYLE: .singleQuoted
        case YAML_DOUBLE_QUOTED_SCALAR_STYLE: .doubleQuoted
        case YAML_LITERAL_SCALAR_STYLE: .literal
        case YAML_FOLDED_SCALAR_STYLE: .folded
        default: .plain
        }
    }

    /// An error at an event's position.
    func error(_ message: String, at event: YAMLEvent) -> ParseError {
        ParseError(message, at: location(of: event))
    }

    /// An event's position in the file.
    func location(of event: YAMLEvent) -> SourceLocation {
        place(line: event.line - lineOffset, column: event.column)
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
        guard let p = parser?.pointee else { return ParseError("invalid YAML", at: place(line: 1, column: 1)) }
        let problem = p.problem.map { String(cString: $0) } ?? "invalid YAML"
        var message = "yaml: " + problem
        if let context = p.context.map({ String(cString: $0) }) {
            message += " " + context
        }
        if p.error == YAML_READER_ERROR {
            // A reader error (a byte that is not UTF-8) has no mark: libyaml gives the byte's
            // offset (after a byte order mark) and value instead.
            let offset = ByteOrderMark.length(in: bytes) + Int(p.problem_offset)
            if p.problem_value >= 0 { message += String(format: " (byte 0x%02X)", p.problem_value) }
            var location = SourceLocation.of(offset: offset, in: bytes, file: file)
            location.line += lineOffset
            return ParseError(message, at: location)
        }
        let mark = p.problem_mark
        return ParseError(message, at: place(line: Int(mark.line) + 1, column: Int(mark.column) + 1))
    }
}
#endif
