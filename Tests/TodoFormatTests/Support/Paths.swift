import Foundation

@testable import TodoFormat

// The tests name files by path, as a user does on the command line.
extension URL {
    static func file(_ path: String) -> URL { URL(fileURLWithPath: path) }
}

extension Conversion.Source {
    /// A path as the command line takes it: `-` is standard input.
    static func at(_ path: String) -> Self { path == "-" ? .standardInput : .file(URL(fileURLWithPath: path)) }
}

extension Conversion.Destination {
    /// A path as the command line takes it: `-` is standard output.
    static func at(_ path: String) -> Self { path == "-" ? .standardOutput : .file(URL(fileURLWithPath: path)) }
}

extension DocumentFormat {
    /// The format an input with these bytes and no extension is read as.
    static func read(from bytes: [UInt8]) -> DocumentFormat {
        FormatRegistry.inputFormat(given: nil, path: nil, head: bytes)
    }
}
