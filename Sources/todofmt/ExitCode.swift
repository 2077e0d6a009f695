/// How the process ends: 0 success, 1 failure, 64 a bad command line (sysexits' EX_USAGE).
enum ExitCode: Int32 {
    case success = 0
    case failure = 1
    case usage = 64
}
