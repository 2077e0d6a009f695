import Foundation

/// The time todofmt stamps on what it writes (a new row's creation date, a completion
/// date). `TODOFMT_NOW` (an ISO 8601 date-time) pins it, so that tests and reproducible
/// builds get the same bytes on every run; within a task, `Clock.$pinned` does too.
enum Clock {
    /// A time that wins over the environment's and the system's, for the current task.
    @TaskLocal static var pinned: Date?

    static var now: Date {
        if let pinned { return pinned }
        if let pinned = ProcessInfo.processInfo.environment["TODOFMT_NOW"], let date = ISO8601.parse(pinned.utf8) {
            return date
        }
        return Date()
    }
}
