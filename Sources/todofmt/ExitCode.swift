/// How the process ends: 0 success, 1 failure, 2 trouble in diff and merge (as diff(1) and
/// git merge-file say it), 64 a bad command line (sysexits' EX_USAGE).
enum ExitCode: Int32, CaseIterable {
    case success = 0
    case failure = 1
    case trouble = 2
    case usage = 64

    /// What the status tells whoever ran todofmt, as the man page's EXIT STATUS says it.
    var meaning: String {
        switch self {
        case .success: "Success, or help was shown."
        case .failure:
            "A file could not be read, converted or written; or check found a problem, fmt --check "
                + "a file not in canonical form, diff a difference, or merge a conflict."
        case .trouble: "diff or merge could not read a file, or merge could not write its result."
        case .usage: "The command line was wrong: an unknown option, a missing argument, a value that cannot be."
        }
    }
}
