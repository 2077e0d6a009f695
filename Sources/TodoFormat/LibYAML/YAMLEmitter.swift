internal import CYAML

/// The thin wrapper around libyaml's emitter: all of todofmt's YAML writing goes through it.
///
/// Emitted text collects in `output`; callers move it on to a file as they go.
final class YAMLEmitter {
    private let emitter: UnsafeMutablePointer<yaml_emitter_t>
    var output: [UInt8] = []

    init() {
        emitter = .allocate(capacity: 1)
        yaml_emitter_initialize(emitter)
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

    /// Hands libyaml an event (which it then owns); any refusal is an error.
    private func emit(_ event: inout yaml_event_t) throws(ConversionError) {
        guard yaml_emitter_emit(emitter, &event) == 1 else { throw failure() }
    }

    /// libyaml's reason for the last failure.
    private func failure() -> ConversionError {
        let problem = emitter.pointee.problem.map { String(cString: $0) } ?? "the YAML emitter failed"
        return .encoding("yaml: " + problem)
    }

    func streamStart() throws(ConversionError) {
        var event = yaml_event_t()
        yaml_stream_start_event_initialize(&event, YAML_UTF8_ENCODING)
        try emit(&event)
    }

    func streamEnd() throws(ConversionError) {
        var event = yaml_event_t()
        yaml_stream_end_event_initialize(&event)
        try emit(&event)
        guard yaml_emitter_flush(emitter) == 1 else { throw failure() }
    }

    func documentStart(implicit: Bool) throws(ConversionError) {
        var event = yaml_event_t()
        yaml_document_start_event_initialize(&event, nil, nil, nil, implicit ? 1 : 0)
        try emit(&event)
    }

    func documentEnd() throws(ConversionError) {
        var event = yaml_event_t()
        yaml_document_end_event_initialize(&event, 1)
        try emit(&event)
    }

    func scalar(_ value: String, style: YAMLScalarStyle = .plain, tag: String? = nil) throws(ConversionError) {
        var event = yaml_event_t()
        let yamlStyle: yaml_scalar_style_t =
            switch style {
            case .plain: YAML_PLAIN_SCALAR_STYLE
            case .singleQuoted: YAML_SINGLE_QUOTED_SCALAR_STYLE
            case .doubleQuoted: YAML_DOUBLE_QUOTED_SCALAR_STYLE
            case .literal: YAML_LITERAL_SCALAR_STYLE
            case .folded: YAML_FOLDED_SCALAR_STYLE
            }
        var value = value
        value.withUTF8 { bytes in
            let pointer = UnsafeMutablePointer(mutating: bytes.baseAddress ?? UnsafePointer(bitPattern: 1)!)
            if let tag {
                var tag = tag
                tag.withUTF8 { tagBytes in
                    var tagCopy = Array(tagBytes) + [0]
                    _ = tagCopy.withUnsafeMutableBufferPointer { t in
                        yaml_scalar_event_initialize(
                            &event, nil, t.baseAddress, pointer, Int32(bytes.count), 0, 0, yamlStyle)
                    }
                }
            } else {
                yaml_scalar_event_initialize(
                    &event, nil, nil, pointer, Int32(bytes.count), 1, 1, yamlStyle)
            }
        }
        try emit(&event)
    }

    func sequenceStart(flow: Bool = false) throws(ConversionError) {
        var event = yaml_event_t()
        yaml_sequence_start_event_initialize(
            &event, nil, nil, 1, flow ? YAML_FLOW_SEQUENCE_STYLE : YAML_BLOCK_SEQUENCE_STYLE)
        try emit(&event)
    }

    func sequenceEnd() throws(ConversionError) {
        var event = yaml_event_t()
        yaml_sequence_end_event_initialize(&event)
        try emit(&event)
    }

    func mappingStart(flow: Bool = false) throws(ConversionError) {
        var event = yaml_event_t()
        yaml_mapping_start_event_initialize(
            &event, nil, nil, 1, flow ? YAML_FLOW_MAPPING_STYLE : YAML_BLOCK_MAPPING_STYLE)
        try emit(&event)
    }

    func mappingEnd() throws(ConversionError) {
        var event = yaml_event_t()
        yaml_mapping_end_event_initialize(&event)
        try emit(&event)
    }
}
