import Foundation

/// A problem in the text or bytes of an input file, with where it is.
public struct ParseError: Error, Hashable, Sendable, CustomStringConvertible, LocalizedError {
    /// Where the problem is.
    public var location: SourceLocation
    /// What is wrong, in lower case without a final period.
    public var message: String

    /// An error with its message and place.
    public init(_ message: String, at location: SourceLocation) {
        self.message = message
        self.location = location
    }

    /// `path:line:column: error: message`, the form editors and CI jump to.
    public var description: String { "\(location): error: \(message)" }
    /// The same as `description`, for `localizedDescription`.
    public var errorDescription: String? { description }
}
