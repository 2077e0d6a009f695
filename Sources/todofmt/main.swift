import Foundation

// A write past `ulimit -f` fails with an error (EFBIG) that names the file, instead of the
// signal ending the process before it can say anything; the target stays as it was.
signal(SIGXFSZ, SIG_IGN)
exit(CLI.run(Array(CommandLine.arguments.dropFirst())).rawValue)
