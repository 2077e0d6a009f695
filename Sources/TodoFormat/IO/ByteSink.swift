import Foundation

/// Where a writer puts its bytes: memory, or a file descriptor in 1 MiB blocks so
/// that a large output never sits whole in memory.
struct ByteSink {
    // The bytes live in memory of their own rather than in an array: appending to an array
    // costs a hundred or more instructions a call on Linux, and a JSON item is a dozen writes.
    // A copied sink gets its own memory at its first write (copy on write, like an array).
    private var storage: Storage
    private var base: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    private var count = 0
    /// The file descriptor; -1 for a sink that keeps its bytes in memory, -2 for one that
    /// hands them to `comparison`, -3 for one that drops them.
    private let descriptor: Int32
    private var failure: Int32 = 0
    private var comparison: ByteComparison? = nil
    private static let blockSize = 1 << 20

    /// Owns the memory, and frees it.
    private final class Storage {
        let base: UnsafeMutablePointer<UInt8>

        init(capacity: Int) {
            base = .allocate(capacity: capacity)
        }

        deinit {
            base.deallocate()
        }
    }

    /// A sink that keeps everything in memory.
    init() {
        descriptor = -1
        capacity = 256
        storage = Storage(capacity: capacity)
        base = storage.base
    }

    /// A sink that writes to an open file descriptor.
    init(descriptor: Int32) {
        self.descriptor = descriptor
        capacity = Self.blockSize + 4096
        storage = Storage(capacity: capacity)
        base = storage.base
    }

    /// A sink that writes nothing: its bytes go, a block at a time, to `comparison`, which
    /// compares them with an existing file's.
    init(comparingWith comparison: ByteComparison) {
        descriptor = -2
        self.comparison = comparison
        capacity = Self.blockSize + 4096
        storage = Storage(capacity: capacity)
        base = storage.base
    }

    /// A sink that drops what is written to it: for a writer run only to count what it
    /// would write.
    init(discarding: Void) {
        descriptor = -3
        capacity = Self.blockSize + 4096
        storage = Storage(capacity: capacity)
        base = storage.base
    }

    /// The bytes written and not yet flushed: all of them for a memory sink (a copy).
    var buffer: [UInt8] { Array(UnsafeBufferPointer(start: base, count: count)) }

    /// How many bytes `buffer` holds, without copying them.
    var byteCount: Int { count }

    /// Calls `body` with the bytes `buffer` holds, without copying them.
    func withBytes<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        try body(UnsafeBufferPointer(start: base, count: count))
    }

    /// Makes room for `total` bytes in all (a sink that keeps everything in memory), so that
    /// it never grows by copying (room not filled costs no memory).
    mutating func reserveCapacity(_ total: Int) {
        if total > capacity { grow(total - count) }
    }

    /// Drops the bytes written after the first `count` (a sink that keeps everything in
    /// memory): a writer that wrote something it then finds it need not keep.
    mutating func truncate(to count: Int) {
        precondition(descriptor == -1 && count <= self.count)
        self.count = count
    }

    mutating func write(_ text: String) {
        var text = text
        text.withUTF8 { write($0) }
    }

    /// Text known when compiling, such as JSON punctuation.
    mutating func write(static text: StaticString) {
        write(UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    mutating func write(_ text: Substring) {
        var text = text
        text.withUTF8 { write($0) }
    }

    mutating func write(_ bytes: UnsafeBufferPointer<UInt8>) {
        let n = bytes.count
        guard n > 0, let source = bytes.baseAddress else { return }
        if n >= Self.blockSize && descriptor >= 0 {
            // A large piece (a file's unchanged start) goes to the file as it is, not through
            // memory of the sink's own; copied by the system where it is a mapped file's.
            flush()
            let copied = failure == 0 ? MappedFile.copy(bytes, to: descriptor) : 0
            put(UnsafeBufferPointer(rebasing: bytes[copied...]))
            return
        }
        makeRoom(n)
        (base + count).update(from: source, count: n)
        count += n
        flushIfFull()
    }

    /// Writes at most `maxCount` bytes, which `body` puts in place from the pointer it gets
    /// and counts: for a writer that knows how much room a piece of text takes at most.
    @inline(__always)
    mutating func write(upTo maxCount: Int, _ body: (UnsafeMutablePointer<UInt8>) -> Int) {
        makeRoom(maxCount)
        let n = body(base + count)
        // A writer that wrote past the room it asked for has overwritten memory: stop at once,
        // where it happened (an SQL dump's row without a section wrote three bytes past it,
        // which corrupted the heap only where the sink's storage ended there).
        precondition(n <= maxCount, "a writer wrote \(n) bytes into room for \(maxCount)")
        count += n
        flushIfFull()
    }

    mutating func write<C: Collection>(bytes: C) where C.Element == UInt8 {
        if bytes.withContiguousStorageIfAvailable({ write($0) }) == nil {
            for b in bytes { write(byte: b) }
            flushIfFull()
        }
    }

    mutating func write(byte: UInt8) {
        makeRoom(1)
        base[count] = byte
        count += 1
    }

    /// Makes room for `n` more bytes in memory of this sink's own.
    @inline(__always)
    private mutating func makeRoom(_ n: Int) {
        if count + n > capacity || !isKnownUniquelyReferenced(&storage) { grow(n) }
    }

    private mutating func grow(_ n: Int) {
        let newCapacity = max(capacity, count + n, capacity * 2)
        let new = Storage(capacity: newCapacity)
        new.base.update(from: base, count: count)
        storage = new
        base = new.base
        capacity = newCapacity
    }

    @inline(__always)
    mutating func flushIfFull() {
        if descriptor != -1 && count >= Self.blockSize { flush() }
    }

    private mutating func flush() {
        if let comparison {
            comparison.take(UnsafeBufferPointer(start: base, count: count))
            count = 0
            return
        }
        if descriptor == -3 {
            count = 0
            return
        }
        guard descriptor >= 0, failure == 0 else { return }
        put(UnsafeBufferPointer(start: base, count: count))
        count = 0
    }

    /// Writes `count` pieces in order, `piece(i)` the i-th. A file sink writes them a thousand
    /// at a time by `writev`, from where they are: a file written back with a change every
    /// thousand bytes (boxes changed all through it) copied them all into its block first,
    /// a twentieth of such a write. Any other sink writes them as `write` does.
    mutating func write(pieces count: Int, _ piece: (Int) -> UnsafeBufferPointer<UInt8>) {
        guard descriptor >= 0 else {
            for i in 0..<count { write(piece(i)) }
            return
        }
        flush()
        var vectors: [iovec] = []
        vectors.reserveCapacity(1024)
        var i = 0
        while i < count && failure == 0 {
            vectors.removeAll(keepingCapacity: true)
            var total = 0
            while i < count && vectors.count < 1024 {
                let bytes = piece(i)
                i += 1
                guard let start = bytes.baseAddress, !bytes.isEmpty else { continue }
                vectors.append(iovec(iov_base: UnsafeMutableRawPointer(mutating: start), iov_len: bytes.count))
                total += bytes.count
            }
            let n = vectors.withUnsafeBufferPointer { Foundation.writev(descriptor, $0.baseAddress, Int32($0.count)) }
            guard n != total else { continue }
            // Written in part, or not at all: the rest a piece at a time.
            var done = max(n, 0)
            if n < 0 && errno != EINTR {
                failure = errno
                return
            }
            for vector in vectors {
                guard done < vector.iov_len else {
                    done -= vector.iov_len
                    continue
                }
                let bytes = UnsafeBufferPointer(
                    start: vector.iov_base!.assumingMemoryBound(to: UInt8.self) + done, count: vector.iov_len - done)
                put(bytes)
                done = 0
            }
        }
    }

    /// Writes bytes to the file descriptor (the first error stops every later write), a block
    /// at a time: one `write` of a hundred megabytes (a run of a streamed update) took 0.2 to
    /// 0.6 s of system time, varying from run to run, where blocks took 0.2 s every time.
    private mutating func put(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard descriptor >= 0, failure == 0, let start = bytes.baseAddress else { return }
        var done = 0
        while done < bytes.count {
            let n = Foundation.write(descriptor, start + done, min(bytes.count - done, Self.blockSize))
            if n < 0 {
                if errno == EINTR { continue }
                failure = errno
                return
            }
            done += n
        }
    }

    /// The descriptor of the regular file this sink writes to, once what it holds is written
    /// there; nil for any other sink, or after a write failed.
    mutating func flushedFile() -> Int32? {
        guard descriptor >= 0 else { return nil }
        flush()
        var info = stat()
        guard failure == 0, fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
        return descriptor
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

/// Writes bytes at a pointer into memory that has room for them.
struct BytePen {
    var at: UnsafeMutablePointer<UInt8>

    init(at start: UnsafeMutablePointer<UInt8>) {
        at = start
    }

    @inline(__always)
    mutating func put(_ text: StaticString) {
        at.update(from: text.utf8Start, count: text.utf8CodeUnitCount)
        at += text.utf8CodeUnitCount
    }

    @inline(__always)
    mutating func put(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let source = bytes.baseAddress else { return }
        at.update(from: source, count: bytes.count)
        at += bytes.count
    }

    @inline(__always)
    mutating func put(byte: UInt8) {
        at.pointee = byte
        at += 1
    }

    /// `value` in decimal digits, with a `-` before a negative one (20 bytes at most).
    @inline(__always)
    mutating func decimal(_ value: Int) {
        if value < 0 { put(byte: UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        var digits = 1
        var rest = magnitude
        while rest >= 10 {
            rest /= 10
            digits += 1
        }
        at += digits
        var p = at
        repeat {
            p -= 1
            p.pointee = UInt8(truncatingIfNeeded: 48 + magnitude % 10)
            magnitude /= 10
        } while magnitude > 0
    }

    /// `n` spaces, stored as `tabs` stores tabs (up to seven bytes after them are written
    /// over too).
    @inline(__always)
    mutating func spaces(_ n: Int) { fill(0x2020_2020_2020_2020, n) }

    /// `n` tabs, stored eight at a time (a loop of single bytes becomes a call of `memset`):
    /// up to seven bytes after them are written over too, so the room asked for must allow
    /// for them.
    @inline(__always)
    mutating func tabs(_ n: Int) { fill(0x0909_0909_0909_0909, n) }

    @inline(__always)
    private mutating func fill(_ word: UInt64, _ n: Int) {
        var i = 0
        while i < n {
            UnsafeMutableRawPointer(at + i).storeBytes(of: word, as: UInt64.self)
            i += 8
        }
        at += n
    }
}
