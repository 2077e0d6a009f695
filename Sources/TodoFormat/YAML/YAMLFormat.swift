extension DocumentFormat {
    /// todofmt's YAML list (`.yaml`, `.yml`).
    public static let yaml = DocumentFormat(rawValue: "yaml")
}

/// YAML lists through libyaml (FORMAT.md, section 7.3): an optional metadata document,
/// then a sequence of item mappings.
struct YAMLFormat: ListFormat {
    var id: DocumentFormat { .yaml }
    var aliases: [String] { ["yml"] }
    var extensions: [String] { ["yaml", "yml"] }

    /// A leading `- name:` or a `key: value` line at the start of a line.
    func recognition(of head: UnsafeBufferPointer<UInt8>) -> Recognition {
        let text = String(decoding: head, as: UTF8.self)
        for line in text.split(separator: "\n", maxSplits: 200).prefix(200) {
            let trimmed = line.drop { $0 == " " || $0 == "\t" }
            if trimmed.hasPrefix("- name:")
                || (line.first.map { $0.isLetter } == true && trimmed.contains(": ") && !trimmed.hasPrefix("#"))
            {
                return .possibly
            }
        }
        return .no
    }

    func read<S: ItemSink>(_ input: Input, options: ListOptions, into sink: inout S) throws {
        let bytes = try input.bytes()
        try bytes.withUnsafeBufferPointer { buffer in
            try YAMLListReader.read(buffer, path: input.name, schema: options.schema, key: options.key, into: &sink)
        }
    }

    func writer(to output: Output, options: ListOptions) throws -> any ListWriter {
        try YAMLListWriter(into: output.makeSink(), outputName: output.name, layout: ItemLayout(options.schema))
    }
}
