import Foundation

/// A file's bytes mapped read-only into memory, for a writer that passes over a large file a
/// few times in order (writing a list back into it): `release(before:)` hands the pages it
/// has passed back to the system, so a pass over a 100 MB file keeps little of it resident.
/// Passing over them again reads them back from the system's cache.
///
/// While mapped, the file is open too, and known to `ByteSink`: a large piece of its bytes
/// written to a file (the unchanged start or end of a file written back) is copied by the
/// system from this file (`copy(_:to:)`), not through the mapping, whose pages handed back
/// made the write fault them in again one by one.
final class MappedFile {
    let bytes: UnsafeBufferPointer<UInt8>
    private let base: UnsafeMutableRawPointer
    private let length: Int
    private let descriptor: Int32
    private static let pageSize = Int(sysconf(Int32(_SC_PAGESIZE)))

    /// The files mapped now, for `copy(_:to:)` (not the objects, which this would keep).
    nonisolated(unsafe) private static var mapped:
        [(file: ObjectIdentifier, base: UnsafeRawPointer, length: Int, descriptor: Int32)] = []
    private static let lock = NSLock()

    /// The file at `path` mapped; nil when it cannot be (empty, not a regular file), and the
    /// caller reads it instead.
    init?(path: String) {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { return nil }
        var info = stat()
        guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, info.st_size > 0,
            let pointer = mmap(nil, Int(info.st_size), PROT_READ, MAP_PRIVATE, fd, 0), pointer != MAP_FAILED
        else {
            close(fd)
            return nil
        }
        descriptor = fd
        length = Int(info.st_size)
        base = pointer
        bytes = UnsafeBufferPointer(start: pointer.assumingMemoryBound(to: UInt8.self), count: length)
        Self.lock.withLock {
            Self.mapped.append((ObjectIdentifier(self), UnsafeRawPointer(pointer), length, fd))
        }
    }

    /// Copies `piece`, where it lies in a file mapped now, to the file open as `output` (at
    /// its position, which moves on); returns how many bytes were copied from the start of
    /// the piece: 0 where it lies in no mapped file or the system cannot copy between these
    /// files, and the caller writes the rest.
    static func copy(_ piece: UnsafeBufferPointer<UInt8>, to output: Int32) -> Int {
        guard let start = piece.baseAddress else { return 0 }
        let file = lock.withLock {
            mapped.first {
                UnsafeRawPointer(start) >= $0.base && UnsafeRawPointer(start) - $0.base + piece.count <= $0.length
            }
        }
        guard let file else { return 0 }
        var offset = off_t(UnsafeRawPointer(start) - file.base)
        var done = 0
        while done < piece.count {
            // `sendfile` between two files: the system copies the cached pages itself.
            let n = sendfile(output, file.descriptor, &offset, min(piece.count - done, 1 << 30))
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { break }
            done += n
        }
        return done
    }

    /// Hands back the whole pages before `offset`.
    func release(before offset: Int) {
        let end = min(offset, length) / Self.pageSize * Self.pageSize
        if end > 0 { madvise(base, end, MADV_DONTNEED) }
    }

    /// Hands back the whole pages of `range`.
    func release(_ range: Range<Int>) {
        let start = (range.lowerBound + Self.pageSize - 1) / Self.pageSize * Self.pageSize
        let end = min(range.upperBound, length) / Self.pageSize * Self.pageSize
        if end > start { madvise(base + start, end - start, MADV_DONTNEED) }
    }

    deinit {
        let file = ObjectIdentifier(self)
        Self.lock.withLock { Self.mapped.removeAll { $0.file == file } }
        munmap(base, length)
        close(descriptor)
    }
}
