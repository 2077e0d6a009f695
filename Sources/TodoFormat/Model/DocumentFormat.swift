/// A file format todofmt reads and writes, named as on the command line (`md`, `json`…).
///
/// Each format's folder declares its value (`DocumentFormat.json`…); `allCases` lists them
/// in the order `--help` shows them.
public struct DocumentFormat: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The command-line name.
    public let rawValue: String

    /// The format of this command-line name, known or not (see `init?(name:)` to check).
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// The command-line name.
    public var description: String { rawValue }
}
