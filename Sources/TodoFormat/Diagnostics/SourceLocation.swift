/// A place in an input file: its path and a line and column counted from 1.
///
/// Binary inputs have no lines; their locations carry a byte offset instead.
public struct SourceLocation: Hashable, Sendable, CustomStringConvertible {
    /// The path as the user gave it, or `<stdin>`.
    public var file: String
    /// The line, from 1; 0 when the location is a byte offset.
    public var line: Int
    /// The column in Unicode scalars, from 1.
    public var column: Int
    /// The byte offset from the start of the file, for binary formats.
    public var byteOffset: Int?

    /// A place in a text file.
    public init(file: String, line: Int, column: Int) {
        self.file = file
        self.line = line
        self.column = column
    }

    /// A place in a binary file.
    public init(file: String, byteOffset: Int) {
        self.file = file
        self.line = 0
        self.column = 0
        self.byteOffset = byteOffset
    }

    /// `path:line:column`, or `path: byte N` for a byte offset.
    public var description: String {
        if let byteOffset { return "\(file): byte \(byteOffset)" }
        return "\(file):\(line):\(column)"
    }

    /// The line and column of a byte offset in UTF-8 text, columns counted in Unicode scalars.
    static func of(offset: Int, in bytes: UnsafeBufferPointer<UInt8>, file: String) -> SourceLocation {
        var line = 1
        var lineStart = 0
        let end = min(offset, bytes.count)
        var i = 0
        while i < end {
            if bytes[i] == UInt8(ascii: "\n") {
                line += 1
                lineStart = i + 1
            }
            i += 1
        }
        var column = 1
        var j = lineStart
        while j < end {
            // Count scalars, not bytes: continuation bytes (10xxxxxx) do not start a column.
            if bytes[j] & 0xC0 != 0x80 { column += 1 }
            j += 1
        }
        return SourceLocation(file: file, line: line, column: column)
    }
}
