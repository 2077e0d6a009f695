import Foundation

/// The time todofmt stamps on what it writes (a new row's creation date, a completion
/// date). `TODOFMT_NOW` (an ISO 8601 date-time) pins it, so that tests and reproducible
/// builds get the same bytes on every run.
enum Clock {
    static var now: Date {
        if let pinned = ProcessInfo.processInfo.environment["TODOFMT_NOW"], let date = ISO8601.parse(pinned.utf8) {
            return date
        }
        return Date()
    }
}
