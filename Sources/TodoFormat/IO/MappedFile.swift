import Foundation

/// A file's bytes mapped read-only into memory, for a writer that passes over a large file a
/// few times in order (writing a list back into it): `release(before:)` hands the pages it
/// has passed back to the system, so a pass over a 100 MB file keeps little of it resident.
/// Passing over them again reads them back from the system's cache.
final class MappedFile {
    let bytes: UnsafeBufferPointer<UInt8>
    private let base: UnsafeMutableRawPointer
    private let length: Int
    private static let pageSize = Int(sysconf(Int32(_SC_PAGESIZE)))

    /// The file at `path` mapped; nil when it cannot be (empty, not a regular file), and the
    /// caller reads it instead.
    init?(path: String) {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, info.st_size > 0 else { return nil }
        length = Int(info.st_size)
        guard let pointer = mmap(nil, length, PROT_READ, MAP_PRIVATE, fd, 0), pointer != MAP_FAILED else { return nil }
        base = pointer
        bytes = UnsafeBufferPointer(start: pointer.assumingMemoryBound(to: UInt8.self), count: length)
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

    deinit { munmap(base, length) }
}
