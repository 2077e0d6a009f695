import Foundation

/// Where a writer puts its bytes: memory, or a file descriptor in 1 MiB blocks so
/// that a large output never sits whole in memory.
struct ByteSink {
    private(set) var buffer: [UInt8] = []
    private let descriptor: Int32
    private var failure: Int32 = 0
    private static let blockSize = 1 << 20

    /// A sink that keeps everything in memory.
    init() {
        descriptor = -1
    }

    /// A sink that writes to an open file descriptor.
    init(descriptor: Int32) {
        self.descriptor = descriptor
        buffer.reserveCapacity(Self.blockSize + 4096)
    }

    mutating func write(_ text: String) {
        // The contiguous bytes of a native string: a memcpy rather than a byte-by-byte copy.
        if text.utf8.withContiguousStorageIfAvailable({ buffer.append(contentsOf: $0) }) == nil {
            buffer.append(contentsOf: text.utf8)
        }
        flushIfFull()
    }

    /// Makes room for `count` bytes (a sink that keeps everything in memory).
    mutating func reserveCapacity(_ count: Int) {
        buffer.reserveCapacity(count)
    }

    mutating func write(_ text: Substring) {
        // The contiguous bytes of a native string: a memcpy rather than a byte-by-byte copy.
        if text.utf8.withContiguousStorageIfAvailable({ buffer.append(contentsOf: $0) }) == nil {
            buffer.append(contentsOf: text.utf8)
        }
        flushIfFull()
    }

    mutating func write(_ bytes: UnsafeBufferPointer<UInt8>) {
        buffer.append(contentsOf: bytes)
        flushIfFull()
    }

    mutating func write<C: Collection>(bytes: C) where C.Element == UInt8 {
        buffer.append(contentsOf: bytes)
        flushIfFull()
    }

    mutating func write(byte: UInt8) {
        buffer.append(byte)
    }

    @inline(__always)
    mutating func flushIfFull() {
        if descriptor >= 0 && buffer.count >= Self.blockSize { flush() }
    }

    private mutating func flush() {
        guard descriptor >= 0, failure == 0 else { return }
        buffer.withUnsafeBytes { raw in
            var done = 0
            while done < raw.count {
                let n = Foundation.write(descriptor, raw.baseAddress! + done, raw.count - done)
                if n < 0 {
                    if errno == EINTR { continue }
                    failure = errno
                    return
                }
                done += n
            }
        }
        buffer.removeAll(keepingCapacity: true)
    }

    /// Writes what is left; returns the bytes for a memory sink. Throws the first write error.
    mutating func finish(path: String) throws(ConversionError) -> [UInt8] {
        flush()
        if failure != 0 {
            let kept = path == "<stdout>" ? "" : " (nothing was written; the file is as it was)"
            throw .io(path: path, reason: String(cString: strerror(failure)) + kept)
        }
        return buffer
    }
}
