import Foundation

/// A problem that has no place in a file: a missing file, an unknown format, a list that is not there.
public enum ConversionError: Error, Hashable, Sendable, CustomStringConvertible, LocalizedError {
    /// The file could not be read or written; the text is the system's reason.
    case io(path: String, reason: String)
    /// `--from` or `--to` named a format todofmt does not know.
    case unknownFormat(String)
    /// Neither the extension nor the content says what format the file is.
    case undetectableFormat(path: String)
    /// The format can be read but not written, or the other way round.
    case unsupported(String)
    /// The input holds no todo list todofmt recognises.
    case noList(path: String, reason: String)
    /// An output could not be encoded (a library refused it); the text says why.
    case encoding(String)
    /// `--strict`: the output could not hold everything, so nothing was written.
    case lossRefused(path: String, [ConversionWarning])

    /// The message, without the `todofmt: error:` prefix the command adds.
    public var description: String {
        switch self {
        case .io(let path, let reason): "\(path): \(reason)"
        case .unknownFormat(let name): "unknown format '\(name)'"
        case .undetectableFormat(let path): "\(path): cannot tell the format; name it with --from or --to"
        case .unsupported(let text): text
        case .noList(let path, let reason): "\(path): \(reason)"
        case .encoding(let text): text
        case .lossRefused(let path, let warnings):
            "\(path): not written (--strict): " + warnings.map(\.description).joined(separator: "; ")
        }
    }
    /// The same as `description`, for `localizedDescription`.
    public var errorDescription: String? { description }
}
