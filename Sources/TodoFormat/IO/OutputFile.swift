import Foundation

/// Writes an output file safely: into a temporary file beside it, renamed into
/// place only when everything is written, so a failure leaves the old file as it was.
enum OutputFile {
    static func write(
        _ path: String, _ body: (inout ByteSink) throws -> Void
    ) throws {
        if path == "-" {
            var sink = ByteSink(descriptor: 1)
            try body(&sink)
            _ = try sink.finish(path: "<stdout>")
            return
        }
        // Write through a symbolic link to the file it points at, keeping the link.
        var target = path
        var linkInfo = stat()
        if lstat(path, &linkInfo) == 0 && (linkInfo.st_mode & S_IFMT) == S_IFLNK, let resolved = realpath(path, nil) {
            target = String(cString: resolved)
            free(resolved)
        }
        let directory = (target as NSString).deletingLastPathComponent
        let base = (target as NSString).lastPathComponent
        var template = Array(((directory.isEmpty ? "." : directory) + "/." + base + ".todofmt-XXXXXX").utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { throw ConversionError.io(path: path, reason: String(cString: strerror(errno))) }
        let temporary = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        var keep = false
        defer {
            if !keep { unlink(temporary) }
        }
        // Keep an existing file's permissions; a new file gets the usual 0666 less the umask.
        var existing = stat()
        if stat(target, &existing) == 0 {
            fchmod(fd, existing.st_mode & 0o7777)
        } else {
            let mask = umask(0)
            umask(mask)
            fchmod(fd, 0o666 & ~mask)
        }
        do {
            var sink = ByteSink(descriptor: fd)
            try body(&sink)
            _ = try sink.finish(path: path)
        } catch {
            close(fd)
            throw error
        }
        guard close(fd) == 0 else { throw ConversionError.io(path: path, reason: String(cString: strerror(errno))) }
        guard rename(temporary, target) == 0 else {
            throw ConversionError.io(path: path, reason: String(cString: strerror(errno)))
        }
        keep = true
    }
}
