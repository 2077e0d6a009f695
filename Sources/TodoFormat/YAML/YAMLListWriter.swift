/// Writes todofmt's YAML form through libyaml's emitter.
enum YAMLListWriter {
    static func write(_ list: TodoList, to sink: inout ByteSink) {
        let emitter = YAMLEmitter()
        emitter.streamStart()
        if !list.metadata.isEmpty {
            emitter.documentStart(implicit: false)
            YAMLValue.emit(.dictionary(list.metadata), to: emitter)
            emitter.documentEnd()
        }
        emitter.documentStart(implicit: list.metadata.isEmpty)
        emitter.sequenceStart(flow: list.items.isEmpty)
        for item in list.items {
            emit(item, to: emitter)
            // Hand finished text on so a long list never sits whole in memory.
            if emitter.output.count > 1 << 16 {
                sink.write(bytes: emitter.output)
                emitter.output.removeAll(keepingCapacity: true)
            }
        }
        emitter.sequenceEnd()
        emitter.documentEnd()
        emitter.streamEnd()
        sink.write(bytes: emitter.output)
    }

    private static func emit(_ item: TodoItem, to emitter: YAMLEmitter) {
        emitter.mappingStart()
        emitter.scalar("name")
        YAMLValue.emitString(item.name, to: emitter)
        emitter.scalar("checked")
        emitter.scalar(item.status == .done ? "true" : "false")
        if case .custom(let scalar) = item.status {
            emitter.scalar("status")
            YAMLValue.emitString(String(scalar), to: emitter)
        }
        if let section = item.section {
            emitter.scalar("section")
            YAMLValue.emitString(section, to: emitter)
        }
        var colliding: [Field] = []
        for field in item.fields {
            if ItemKey.reserved.contains(field.key) {
                colliding.append(field)
                continue
            }
            YAMLValue.emitString(field.key, to: emitter)
            YAMLValue.emit(field.value, to: emitter)
        }
        if !colliding.isEmpty {
            emitter.scalar("fields")
            YAMLValue.emit(.dictionary(colliding), to: emitter)
        }
        if !item.children.isEmpty {
            emitter.scalar("children")
            emitter.sequenceStart()
            for child in item.children { emit(child, to: emitter) }
            emitter.sequenceEnd()
        }
        emitter.mappingEnd()
    }
}
