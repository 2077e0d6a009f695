import Foundation

/// The processors this process may run on: where it is pinned (`taskset -c 0`), one, however
/// many the machine has. Work is split across threads only when there is a second one to
/// take it: on one core the split costs memory and time (each part is held whole until the
/// parts are joined) and gains nothing.
enum Processors {
    static let available: Int = {
        #if os(Linux)
        // `sched_getaffinity` is a GNU extension Swift's Glibc module leaves out.
        typealias GetAffinity = @convention(c) (pid_t, Int, UnsafeMutableRawPointer) -> Int32
        if let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "sched_getaffinity") {
            let getAffinity = unsafeBitCast(symbol, to: GetAffinity.self)
            var mask = [UInt64](repeating: 0, count: 16)  // 1,024 processors, glibc's cpu_set_t
            if mask.withUnsafeMutableBytes({ getAffinity(0, $0.count, $0.baseAddress!) }) == 0 {
                return max(1, mask.reduce(0) { $0 + $1.nonzeroBitCount })
            }
        }
        #endif
        return ProcessInfo.processInfo.activeProcessorCount
    }()
}
