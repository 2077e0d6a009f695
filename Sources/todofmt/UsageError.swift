import Foundation

/// A command-line mistake: reported with the command's usage line, exit status 64.
struct UsageError: Error, Equatable, CustomStringConvertible, LocalizedError {
    /// What is wrong, in lower case without a final period: `unknown option '--fast'`.
    var message: String

    init(_ message: String) {
        self.message = message
    }

    var description: String { message }
    var errorDescription: String? { message }
}
