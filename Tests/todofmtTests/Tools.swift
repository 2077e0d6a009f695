import Foundation

/// The programs other than todofmt that tests drive: shells, man, groff, the install script.
enum Tools {
    /// A program on PATH; scripts/setup.sh installs the ones the tests need.
    static func path(of name: String) throws -> URL {
        for directory in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":") {
            let candidate = URL(fileURLWithPath: String(directory)).appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        throw CocoaError(
            .fileNoSuchFile, userInfo: [NSLocalizedDescriptionKey: "\(name) is not installed; run scripts/test.sh"])
    }

    /// man-db's man, whose -l reads a file: `gman` where Homebrew installed it beside the system's.
    static func man() throws -> URL {
        try (try? path(of: "gman")) ?? path(of: "man")
    }

    /// The checkout's root folder.
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// Runs `program` and returns what it printed.
    static func run(
        _ program: URL, _ arguments: [String], stdin: String? = nil, in directory: URL? = nil,
        environment: [String: String] = [:]
    ) throws -> Run {
        try Run(arguments, stdin: stdin, in: directory, environment: environment, program: program)
    }
}
