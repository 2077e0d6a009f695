import Foundation
import TodoFormat

/// Where a command's output and diagnostics go; tests pass the descriptors of temporary files.
struct Terminal {
    var out: Int32 = 1
    var err: Int32 = 2

    func print(_ text: String) { write(text + "\n", to: out) }
    func printError(_ text: String) { write(text + "\n", to: err) }

    /// Writes text to standard output as it is.
    func write(_ text: String) { write(text, to: out) }

    private func write(_ text: String, to fd: Int32) {
        var text = text
        text.withUTF8 { bytes in
            var done = 0
            while done < bytes.count {
                let n = Foundation.write(fd, bytes.baseAddress! + done, bytes.count - done)
                if n <= 0 { return }
                done += n
            }
        }
    }

    /// Reports an error: `path:line:col: error: message` when it has a place, else `todofmt: error: message`.
    func report(_ error: Error) {
        if let error = error as? ParseError {
            printError(error.description)
        } else if let error = error as? StoreError, let line = error.location?.line, line > 0 {
            // A dump's statement has a line: the description starts with it.
            printError(error.description)
        } else if let error = error as? ConversionError {
            printError("todofmt: error: \(error.description)")
        } else {
            printError("todofmt: error: \(error.localizedDescription)")
        }
    }

    func warn(_ message: String) { printError("todofmt: warning: \(message)") }

    /// Reports a command-line mistake: `todofmt: error: message`, then the usage line.
    func reportUsage(_ error: UsageError, usage: String) {
        printError("todofmt: error: \(error.message)")
        printError("USAGE: \(usage)")
    }
}
