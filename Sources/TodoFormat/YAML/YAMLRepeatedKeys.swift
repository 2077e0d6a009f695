#if YAML
/// Keys a YAML mapping gives again (`todofmt check`): readers take the last value, as
/// PyYAML does, but the file says two things (FORMAT.md, section 7.3).
enum YAMLRepeatedKeys {
    /// Each key given again in one mapping, with where its later occurrence stands.
    static func find(in bytes: UnsafeBufferPointer<UInt8>, path: String) throws -> [(key: String, at: SourceLocation)] {
        let parser = YAMLParser(bytes: bytes, file: path)
        /// An open mapping (its keys so far, whether the next node is a key) or sequence.
        struct Frame {
            var isMapping: Bool
            var atKey = true
            var keys: Set<String> = []
        }
        var stack: [Frame] = []
        var found: [(key: String, at: SourceLocation)] = []
        /// A node ended: in a mapping, a key is followed by a value and a value by a key.
        func ended() {
            if let last = stack.indices.last, stack[last].isMapping { stack[last].atKey.toggle() }
        }
        while true {
            let event = try parser.next()
            switch event.kind {
            case .streamEnd:
                return found
            case .scalar(let scalar):
                if let last = stack.indices.last, stack[last].isMapping, stack[last].atKey,
                    !YAMLValue.isMergeKey(event), !stack[last].keys.insert(YAMLValue.key(scalar)).inserted
                {
                    found.append((YAMLValue.key(scalar), parser.location(of: event)))
                }
                ended()
            case .alias:
                ended()
            case .mappingStart:
                stack.append(Frame(isMapping: true))
            case .sequenceStart:
                stack.append(Frame(isMapping: false))
            case .mappingEnd, .sequenceEnd:
                stack.removeLast()
                ended()
            default:
                continue
            }
        }
    }
}
#endif
