#if YAML
internal import CYAML

/// The thin wrapper around libyaml's emitter: all of todofmt's YAML writing goes through it.
///
/// Emitted text collects in `output`; callers move it on to a file as they go.
final class YAMLEmitter {
    private let emitter: UnsafeMutablePointer<yaml_emitter_t>
    var output: [UInt8] = []

    init() throws(ConversionError) {
        let emitter = UnsafeMutablePointer<yaml_emitter_t>.allocate(capacity: 1)
        // Fails only when out of memory.
        guard yaml_emitter_initialize(emitter) == 1 else {
            emitter.deallocate()
            throw .encoding("yaml: out of memory")
        }
        self.emitter = emitter
        yaml_emitter_set_unicode(emitter, 1)
        yaml_emitter_set_width(emitter, -1)
        yaml_emitter_set_indent(emitter, 2)
        yaml_emitter_set_output(
            emitter,
            { data, buffer, size in
                let me = Unmanaged<YAMLEmitter>.fromOpaque(data!).takeUnretainedValue()
                me.output.append(contentsOf: UnsafeBufferPointer(start: buffer, count: size))
                return 1
            }, Unmanaged.passUnretained(self).toOpaque())
    }

    deinit {
        yaml_emitter_delete(emitter)
        emitter.deallocate()
    }

    /// Makes an event with `initialize` (one of libyaml's `yaml_*_event_initialize`) and
    /// hands it to libyaml, which then owns it; any refusal is an error.
    private func emit(_ initialize: (UnsafeMutablePointer<yaml_event_t>) -> Int32) throws(ConversionError) {
        var event = yaml_event_t()
        // Making an event fails only when out of memory or on text that is not UTF-8.
        guard initialize(&event) == 1 else { throw .encoding("yaml: cannot make an event: out of memory or not UTF-8") }
        guard yaml_emitter_emit(emitter, &event) == 1 else { throw failure() }
    }

    /// libyaml's reason for the last failure.
    private func failure() -> ConversionError {
        let problem = emitter.pointee.problem.map { String(cString: $0) } ?? "the YAML emitter failed"
        return .encoding("yaml: " + problem)
    }

    func streamStart() throws(ConversionError) {
        try emit { yaml_stream_start_event_initialize($0, YAML_UTF8_ENCODING) }
    }

    /// Ends the stream and hands the last text to `output`.
    func streamEnd() throws(ConversionError) {
        try emit { yaml_stream_end_event_initialize($0) }
        guard yaml_emitter_flush(emitter) == 1 else { throw failure() }
    }

    func documentStart(implicit: Bool) throws(ConversionError) {
        try emit { yaml_document_start_event_initialize($0, nil, nil, nil, implicit ? 1 : 0) }
    }

    func documentEnd() throws(ConversionError) {
        try emit { yaml_document_end_event_initialize($0, 1) }
    }

    /// A scalar; with a tag, the tag is written, else the text reads back by its style.
    func scalar(_ value: String, style: YAMLScalarStyle = .plain, tag: String? = nil) throws(ConversionError) {
        var value = value
        let tagBytes: [UInt8] = tag.map { Array($0.utf8) + [0] } ?? []
        let implicit: Int32 = tag == nil ? 1 : 0
        let yamlStyle: yaml_scalar_style_t =
            switch style {
            case .plain: YAML_PLAIN_SCALAR_STYLE
            case .singleQuoted: YAML_SINGLE_QUOTED_SCALAR_STYLE
            case .doubleQuoted: YAML_DOUBLE_QUOTED_SCALAR_STYLE
            case .literal: YAML_LITERAL_SCALAR_STYLE
            case .folded: YAML_FOLDED_SCALAR_STYLE
            }
        try emit { event in
            value.withUTF8 { bytes in
                tagBytes.withUnsafeBufferPointer { tagBuffer in
                    yaml_scalar_event_initialize(
                        event, nil, tag == nil ? nil : tagBuffer.baseAddress,
                        bytes.baseAddress ?? UnsafePointer(bitPattern: 1)!, Int32(bytes.count), implicit, implicit,
                        yamlStyle)
                }
            }
        }
    }

    func sequenceStart(flow: Bool = false) throws(ConversionError) {
        try emit {
            yaml_sequence_start_event_initialize(
                $0, nil, nil, 1, flow ? YAML_FLOW_SEQUENCE_STYLE : YAML_BLOCK_SEQUENCE_STYLE)
        }
    }

    func sequenceEnd() throws(ConversionError) {
        try emit { yaml_sequence_end_event_initialize($0) }
    }

    func mappingStart(flow: Bool = false) throws(ConversionError) {
        try emit {
            yaml_mapping_start_event_initialize(
                $0, nil, nil, 1, flow ? YAML_FLOW_MAPPING_STYLE : YAML_BLOCK_MAPPING_STYLE)
        }
    }

    func mappingEnd() throws(ConversionError) {
        try emit { yaml_mapping_end_event_initialize($0) }
    }
}
#endif
