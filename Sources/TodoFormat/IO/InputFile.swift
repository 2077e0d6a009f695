import Foundation

/// Reads whole input files (`-` is standard input), never changing them.
enum InputFile {
    static func displayName(_ path: String) -> String { path == "-" ? "<stdin>" : path }

    /// Whether the file at `path` is there and neither a regular file nor a folder: a named
    /// pipe, a terminal, a device, which can be read only once and not written back in place.
    static func isReadOnce(_ path: String) -> Bool {
        var info = stat()
        guard path != "-", stat(path, &info) == 0 else { return false }
        return (info.st_mode & S_IFMT) != S_IFREG && (info.st_mode & S_IFMT) != S_IFDIR
    }

    /// Up to `count` bytes from the start of a file.
    static func readHead(_ path: String, count: Int) throws(ConversionError) -> [UInt8] {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw .io(path: path, reason: String(cString: strerror(errno))) }
        defer { close(fd) }
        var info = stat()
        if fstat(fd, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR {
            throw .io(path: path, reason: "is a directory")
        }
        var failure: Int32 = 0
        let bytes = [UInt8](unsafeUninitializedCapacity: count) { buffer, n in
            n = readAll(fd, into: buffer, failure: &failure)
        }
        if failure != 0 { throw .io(path: path, reason: String(cString: strerror(failure))) }
        return bytes
    }

    /// Whether an SQLite database keeps a write-ahead log: its header says WAL (bytes 18
    /// and 19 are 2), or a `-wal` file stands beside it.
    static func isWriteAheadLogged(_ path: String) -> Bool {
        if FileManager.default.fileExists(atPath: path + "-wal") { return true }
        guard let handle = FileHandle(forReadingAtPath: path) else { return true }
        defer { try? handle.close() }
        let head = (try? handle.read(upToCount: 20)) ?? Data()
        return head.count < 20 || head[18] == 2 || head[19] == 2
    }

    /// Whether the file starts with SQLite's header (read without reading the whole file).
    static func isSQLite(_ path: String) -> Bool {
        guard path != "-", let handle = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? handle.close() }
        let head = (try? handle.read(upToCount: 16)) ?? Data()
        return head == Data("SQLite format 3\u{0}".utf8)
    }

    static func read(_ path: String) throws(ConversionError) -> [UInt8] {
        let fd = path == "-" ? 0 : open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw .io(path: path, reason: String(cString: strerror(errno))) }
        defer { if fd != 0 { close(fd) } }
        var info = stat()
        if fstat(fd, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR {
            throw .io(path: path, reason: "is a directory")
        }
        let size = (info.st_mode & S_IFMT) == S_IFREG ? Int(info.st_size) : 0
        var failure: Int32 = 0
        // Read into uninitialized storage: zero-filling first would touch every page twice.
        var bytes = [UInt8](unsafeUninitializedCapacity: max(size, 1 << 16)) { buffer, count in
            count = readAll(fd, into: buffer, failure: &failure)
        }
        while failure == 0 && (size == 0 || bytes.count == size) {
            // A pipe, or a file that grew: read on until the end.
            let more = [UInt8](unsafeUninitializedCapacity: max(bytes.count, 1 << 16)) { buffer, count in
                count = readAll(fd, into: buffer, failure: &failure)
            }
            if more.isEmpty { break }
            bytes.append(contentsOf: more)
        }
        if failure != 0 { throw .io(path: path, reason: String(cString: strerror(failure))) }
        return bytes
    }

    /// Reads until the buffer is full or the input ends; returns the count read.
    private static func readAll(_ fd: Int32, into buffer: UnsafeMutableBufferPointer<UInt8>, failure: inout Int32)
        -> Int
    {
        var count = 0
        while count < buffer.count {
            let n = Foundation.read(fd, buffer.baseAddress! + count, buffer.count - count)
            if n < 0 && errno == EINTR { continue }
            if n < 0 { failure = errno }
            if n <= 0 { break }
            count += n
        }
        return count
    }
}

extension InputFile {
    /// Reads a UTF-8 text file straight into a string's storage, or fails at the first byte
    /// that is not UTF-8 (`UTF8Validation.text`, which says why the file may be read twice).
    /// The storage has `room` bytes more, for an edit to make the text longer in place
    /// (`todofmt rename`): a string that must grow is copied whole.
    static func readText(_ path: String, name: String, room: Int = 0) throws -> String {
        var info = stat()
        // (A file that says it is empty may not be: `/proc` files are read to their end.)
        guard path != "-", stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, info.st_size > 0 else {
            return try UTF8Validation.decode(read(path), path: name)
        }
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw ConversionError.io(path: path, reason: String(cString: strerror(errno))) }
        defer { close(fd) }
        return try UTF8Validation.text(
            count: Int(info.st_size), room: room, path: name,
            fill: { buffer in
                var failure: Int32 = 0
                let count = readAll(fd, into: buffer, failure: &failure)
                if failure != 0 { throw ConversionError.io(path: path, reason: String(cString: strerror(failure))) }
                return count
            }, again: { try read(path) })
    }
}
