import Foundation

/// Writes the plain JSON shape, one item object a line so that diffs stay readable.
///
/// `[Todo]` with `struct Todo: Codable { var name: String; var checked: Bool }` decodes it.
struct JSONListWriter: ListWriter {
    private var sink: ByteSink
    private let outputName: String
    private var open = OpenItems()
    private var started = false
    private let layout: ItemLayout
    /// Plain JSON has no place for metadata: what `begin` received, for a warning.
    private var leftOutMetadata: [Field] = []
    /// What JSON cannot hold of the values written (NaN, -0.0), and where items stand.
    private var warnings = WarningLog()
    private var positions: [Int] = []

    /// Whether the layout is todofmt's own: items are then written without building entries.
    private let isStandard: Bool

    /// A writer into `sink`; `outputName` names the output in errors.
    init(into sink: ByteSink, outputName: String, layout: ItemLayout = ItemLayout()) {
        self.sink = sink
        self.outputName = outputName
        self.layout = layout
        isStandard = layout == ItemLayout()
    }

    mutating func begin(metadata: [Field]) {
        leftOutMetadata = metadata
    }

    mutating func item(_ item: TodoItem, depth: Int) {
        if positions.count > depth + 1 { positions.removeLast(positions.count - depth - 1) }
        while positions.count < depth + 1 { positions.append(0) }
        positions[depth] += 1
        for field in item.fields {
            if case .double(let d) = field.value, d.isFinite && !(d == 0 && d.sign == .minus) { continue }
            for message in JSONListSyntax.losses(in: field.value) {
                let position = positions.map(String.init).joined(separator: ".")
                warnings.note(.values, message, item: ItemPositions.describe(position, item))
            }
        }
        let step = open.advance(to: depth)
        if !started {
            sink.write("[\n")
            started = true
        } else if step.opensChildren {
            sink.write(", ")
            JSONText.writeString(Substring(layout.keys[.children] ?? "children"), to: &sink)
            sink.write(": [\n")
        } else {
            sink.write("}")
            closeLevels(from: depth + step.closes, downTo: depth + 1)
            sink.write(",\n")
        }
        sink.write(Indentation.twoSpaces(depth + 1))
        sink.write("{")
        var first = true
        if item.fields.isEmpty && isStandard {
            // The common case, written without building the entries.
            sink.write("\"name\": ")
            JSONText.writeString(item.nameStorage, to: &sink)
            sink.write(item.status == .done ? ", \"checked\": true" : ", \"checked\": false")
            if case .custom(let scalar) = item.status {
                sink.write(", \"status\": ")
                JSONText.writeString(Substring(String(scalar)), to: &sink)
            }
            if let section = item.section {
                sink.write(", \"section\": ")
                JSONText.writeString(Substring(section), to: &sink)
            }
            return
        }
        for entry in layout.entries(of: item) {
            guard case .value(let value) = entry.value else { continue }  // children follow as items
            if !first { sink.write(", ") }
            first = false
            JSONText.writeString(Substring(entry.key), to: &sink)
            sink.write(": ")
            JSONText.writeValue(value, to: &sink)
        }
    }

    mutating func end() {
        if !started {
            sink.write("[]\n")
            return
        }
        sink.write("}")
        closeLevels(from: open.lastDepth, downTo: 1)
        sink.write("\n]\n")
    }

    mutating func finish() throws -> Written {
        var written = Written(bytes: try sink.finish(path: outputName))
        if !leftOutMetadata.isEmpty { written.warnings.append(.metadataLeftOut(leftOutMetadata, by: "plain JSON")) }
        written.warnings += warnings.warnings
        return written
    }

    /// Ends the children arrays of depths `from` down to `downTo`: `]}` under their parents.
    private mutating func closeLevels(from: Int, downTo: Int) {
        var level = from
        while level >= downTo {
            sink.write("\n")
            sink.write(Indentation.twoSpaces(level))
            sink.write("]}")
            level -= 1
        }
    }
}
