/// Writes todofmt's YAML form through libyaml's emitter.
struct YAMLListWriter: ListWriter {
    private let emitter = YAMLEmitter()
    private var open = OpenItems()

    mutating func begin(metadata: [Field], to sink: inout ByteSink) {
        emitter.streamStart()
        if !metadata.isEmpty {
            emitter.documentStart(implicit: false)
            YAMLValue.emit(.dictionary(metadata), to: emitter)
            emitter.documentEnd()
        }
        emitter.documentStart(implicit: metadata.isEmpty)
        emitter.sequenceStart()
    }

    mutating func item(_ item: TodoItem, depth: Int, to sink: inout ByteSink) {
        let step = open.advance(to: depth)
        if step.opensChildren {
            emitter.scalar("children")
            emitter.sequenceStart()
        } else if open.lastDepth >= 0 && (step.closes > 0 || depth == open.lastDepth) && !isFirst {
            emitter.mappingEnd()
            for _ in 0..<step.closes {
                emitter.sequenceEnd()
                emitter.mappingEnd()
            }
        }
        isFirst = false
        emitItem(item)
        // Hand finished text on so a long list never sits whole in memory.
        if emitter.output.count > 1 << 16 {
            sink.write(bytes: emitter.output)
            emitter.output.removeAll(keepingCapacity: true)
        }
    }

    private var isFirst = true

    mutating func end(to sink: inout ByteSink) {
        if !isFirst {
            emitter.mappingEnd()
            for _ in 0..<open.lastDepth {
                emitter.sequenceEnd()
                emitter.mappingEnd()
            }
        }
        emitter.sequenceEnd()
        emitter.documentEnd()
        emitter.streamEnd()
        sink.write(bytes: emitter.output)
        emitter.output.removeAll()
    }

    /// The item's mapping, left open for its children.
    private func emitItem(_ item: TodoItem) {
        emitter.mappingStart()
        for entry in ItemSchema.standard.entries(of: item) {
            guard case .value(let value) = entry.value else { continue }  // children follow as items
            YAMLValue.emitString(entry.key, to: emitter)
            YAMLValue.emit(value, to: emitter)
        }
    }
}
