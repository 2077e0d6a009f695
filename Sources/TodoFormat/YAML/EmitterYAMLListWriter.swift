#if YAML
/// Writes todofmt's YAML form with every event through libyaml's emitter: for a layout
/// whose children key libyaml writes as a complex key (`? key`, indenting the children
/// otherwise), which `YAMLListWriter` does not write; and the reference the tests hold
/// `YAMLListWriter` to, byte for byte.
struct EmitterYAMLListWriter: ListWriter {
    private var sink: ByteSink
    private let outputName: String
    private let layout: ItemLayout
    private let emitter: YAMLEmitter
    private var open = OpenItems()
    private var isFirst = true

    init(into sink: ByteSink, outputName: String, layout: ItemLayout = ItemLayout()) throws(ConversionError) {
        emitter = try YAMLEmitter()
        self.sink = sink
        self.outputName = outputName
        self.layout = layout
    }

    mutating func begin(metadata: [Field]) throws {
        try emitter.streamStart()
        if !metadata.isEmpty {
            try emitter.documentStart(implicit: false)
            try YAMLValue.emit(.dictionary(metadata), to: emitter)
            try emitter.documentEnd()
        }
        try emitter.documentStart(implicit: metadata.isEmpty)
        try emitter.sequenceStart()
    }

    mutating func item(_ item: TodoItem, depth: Int) throws {
        let step = open.advance(to: depth)
        if step.opensChildren {
            try YAMLValue.emitString(layout.keys[.children] ?? "children", to: emitter)
            try emitter.sequenceStart()
        } else if !isFirst {
            try emitter.mappingEnd()
            for _ in 0..<step.closes {
                try emitter.sequenceEnd()
                try emitter.mappingEnd()
            }
        }
        isFirst = false
        try emitItem(item)
        // Hand finished text on so a long list never sits whole in memory.
        if emitter.output.count > 1 << 16 {
            sink.write(bytes: emitter.output)
            emitter.output.removeAll(keepingCapacity: true)
        }
    }

    mutating func end() throws {
        if !isFirst {
            try emitter.mappingEnd()
            for _ in 0..<open.lastDepth {
                try emitter.sequenceEnd()
                try emitter.mappingEnd()
            }
        }
        try emitter.sequenceEnd()
        try emitter.documentEnd()
        try emitter.streamEnd()
        sink.write(bytes: emitter.output)
        emitter.output.removeAll()
    }

    mutating func finish() throws -> Written {
        Written(bytes: try sink.finish(path: outputName))
    }

    /// The item's mapping, left open for its children.
    private func emitItem(_ item: TodoItem) throws {
        try emitter.mappingStart()
        try Self.emit(layout.entries(of: item), to: emitter)
    }

    /// An item's entries as keys and values of its mapping (children follow as items).
    static func emit(_ entries: [OutputEntry], to emitter: YAMLEmitter) throws {
        for entry in entries {
            guard case .value(let value) = entry.value else { continue }
            try YAMLValue.emitString(entry.key, to: emitter)
            try YAMLValue.emit(value, to: emitter)
        }
    }
}
#endif
