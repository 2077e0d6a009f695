internal import CYAML

/// The thin wrapper around libyaml's emitter: all of todofmt's YAML writing goes through it.
///
/// Emitted text collects in `output`; callers move it on to a file as they go.
final class YAMLEmitter {
    enum ScalarStyle { case plain, doubleQuoted, literal }

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

    private func emit(_ event: inout yaml_event_t) {
        // libyaml refuses only a malformed sequence of events, which the writers never make.
        let accepted = yaml_emitter_emit(emitter, &event) == 1
        assert(accepted, "libyaml refused an event")
    }

    func streamStart() {
        var event = yaml_event_t()
        yaml_stream_start_event_initialize(&event, YAML_UTF8_ENCODING)
        emit(&event)
    }

    func streamEnd() {
        var event = yaml_event_t()
        yaml_stream_end_event_initialize(&event)
        emit(&event)
        yaml_emitter_flush(emitter)
    }

    func documentStart(implicit: Bool) {
        var event = yaml_event_t()
        yaml_document_start_event_initialize(&event, nil, nil, nil, implicit ? 1 : 0)
        emit(&event)
    }

    func documentEnd() {
        var event = yaml_event_t()
        yaml_document_end_event_initialize(&event, 1)
        emit(&event)
    }

    func scalar(_ value: String, style: ScalarStyle = .plain, tag: String? = nil) {
        var event = yaml_event_t()
        let yamlStyle: yaml_scalar_style_t =
            switch style {
            case .plain: YAML_PLAIN_SCALAR_STYLE
            case .doubleQuoted: YAML_DOUBLE_QUOTED_SCALAR_STYLE
            case .literal: YAML_LITERAL_SCALAR_STYLE
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
        emit(&event)
    }

    func sequenceStart(flow: Bool = false) {
        var event = yaml_event_t()
        yaml_sequence_start_event_initialize(
            &event, nil, nil, 1, flow ? YAML_FLOW_SEQUENCE_STYLE : YAML_BLOCK_SEQUENCE_STYLE)
        emit(&event)
    }

    func sequenceEnd() {
        var event = yaml_event_t()
        yaml_sequence_end_event_initialize(&event)
        emit(&event)
    }

    func mappingStart(flow: Bool = false) {
        var event = yaml_event_t()
        yaml_mapping_start_event_initialize(
            &event, nil, nil, 1, flow ? YAML_FLOW_MAPPING_STYLE : YAML_BLOCK_MAPPING_STYLE)
        emit(&event)
    }

    func mappingEnd() {
        var event = yaml_event_t()
        yaml_mapping_end_event_initialize(&event)
        emit(&event)
    }
}
