import Foundation
import TodoFormat

/// File arguments as the command line spells them: `-` is standard input or output; the
/// library never sees `-`.
enum FileArguments {
    static func source(_ path: String) -> Conversion.Source {
        path == "-" ? .standardInput : .file(URL(fileURLWithPath: path))
    }

    static func destination(_ path: String) -> Conversion.Destination {
        path == "-" ? .standardOutput : .file(URL(fileURLWithPath: path))
    }

    /// The name messages use for a file argument.
    static func name(_ path: String) -> String { path == "-" ? "<stdin>" : path }

    /// Everything on standard input.
    static func standardInput() -> [UInt8] {
        Array(FileHandle.standardInput.readDataToEndOfFile())
    }

    /// Reads a list from a file argument.
    static func list(_ path: String, format: DocumentFormat?, options: ListOptions) throws -> TodoList {
        if path == "-" {
            return try TodoList(bytes: standardInput(), format: format, name: name(path), options: options)
        }
        return try TodoList(contentsOf: URL(fileURLWithPath: path), format: format, options: options)
    }
}
