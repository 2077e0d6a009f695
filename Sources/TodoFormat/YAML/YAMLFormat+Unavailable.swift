#if !YAML
/// A build without the `YAML` trait (no libyaml): YAML files are still named and told by
/// their extension, so that asking for one gets a clear error instead of another format.
struct YAMLFormat: ListFormat {
    var id: DocumentFormat { .yaml }
    var aliases: [String] { ["yml"] }
    var extensions: [String] { ["yaml", "yml"] }

    func recognition(of head: UnsafeBufferPointer<UInt8>) -> Recognition { .no }

    func read<S: ItemSink>(_ input: Input, options: ListOptions, into sink: inout S) throws {
        throw ConversionError.unsupported("\(input.name): \(Self.missing)")
    }

    func writer(to output: Output, options: ListOptions) throws -> any ListWriter {
        throw ConversionError.unsupported("\(output.name): \(Self.missing)")
    }

    static let missing = "this build of todofmt has no YAML (it was built without the YAML trait, so without libyaml)"
}
#endif
