import Foundation

/// Where a new file's bytes go: a temporary file beside the target that `commit()` renames
/// into place, standard output, or memory. A failure before `commit()` leaves the target
/// as it was.
struct Output: Sendable {
    enum Destination: Sendable {
        /// A temporary file, renamed to `target` on commit.
        case file(target: String, temporary: String)
        case standardOutput
        /// A file that is not a regular file (`/dev/null`, a FIFO, a terminal): written where
        /// it is, since renaming a new file over it would replace the device.
        case special(target: String)
        case memory
    }

    let destination: Destination
    /// The name messages use: the path as given, or `<stdout>`.
    let name: String
    /// The temporary file's descriptor, for `.file`.
    private let descriptor: Int32

    private init(destination: Destination, name: String, descriptor: Int32) {
        self.destination = destination
        self.name = name
        self.descriptor = descriptor
    }

    /// Bytes kept in memory (see `Written.bytes`).
    static let memory = Output(destination: .memory, name: "<memory>", descriptor: -1)

    /// A new file at `path` (`-` is standard output). Through a symbolic link the file it
    /// points at is written and the link stays; an existing file's permissions stay.
    static func file(_ path: String) throws -> Output {
        if path == "-" { return Output(destination: .standardOutput, name: "<stdout>", descriptor: 1) }
        // (A new file's temporary would go into that folder, and the rename over it fail.)
        if path.hasSuffix("/") { throw folderName(path) }
        var target = path
        var linkInfo = stat()
        if lstat(path, &linkInfo) == 0 && (linkInfo.st_mode & S_IFMT) == S_IFLNK {
            if let resolved = realpath(path, nil) {
                target = String(cString: resolved)
                free(resolved)
            } else {
                target = danglingTarget(of: path)
            }
        }
        var info = stat()
        if stat(target, &info) == 0 && (info.st_mode & S_IFMT) != S_IFREG && (info.st_mode & S_IFMT) != S_IFDIR {
            let fd = open(target, O_WRONLY | O_CLOEXEC)
            guard fd >= 0 else { throw ConversionError.io(path: path, reason: String(cString: strerror(errno))) }
            return Output(destination: .special(target: target), name: path, descriptor: fd)
        }
        let directory = PathParts.directory(of: target)
        let base = PathParts.base(of: target)
        removeStaleTemporaries(in: directory.isEmpty ? "." : directory, of: base)
        let prefix = (directory.isEmpty ? "." : directory) + "/" + temporaryPrefix(of: base)
        var template = Array((prefix + "\(getpid())-XXXXXX").utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { throw ConversionError.io(path: path, reason: String(cString: strerror(errno))) }
        let temporary = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        // Keep an existing file's permissions; a new file gets the usual 0666 less the umask.
        var existing = stat()
        if stat(target, &existing) == 0 {
            fchmod(fd, existing.st_mode & 0o7777)
        } else {
            let mask = umask(0)
            umask(mask)
            fchmod(fd, 0o666 & ~mask)
        }
        return Output(destination: .file(target: target, temporary: temporary), name: path, descriptor: fd)
    }

    /// The error for an output path that ends in `/`, which names a folder, whether there is
    /// one or not (`q/`, `file.md/`), or that names a folder there is (`filePath` gives its
    /// name the `/`).
    static func folderName(_ path: String) -> ConversionError {
        ConversionError.io(path: path, reason: "names a folder, not a file")
    }

    /// Where a symbolic link to a file that does not exist yet points, following links to
    /// links (at most 40, as the system does), so that the new file is made there.
    private static func danglingTarget(of path: String) -> String {
        var current = path
        for _ in 0..<40 {
            guard let destination = try? FileManager.default.destinationOfSymbolicLink(atPath: current) else {
                return current
            }
            let folder = PathParts.directory(of: current)
            current =
                destination.hasPrefix("/") || folder.isEmpty
                ? destination : folder + (folder == "/" ? "" : "/") + destination
        }
        return current
    }

    /// How the temporary files for `base` start: `.base.todofmt-`, then the writing process's
    /// ID, `-` and six random characters (and SQLite's `-journal` when it made one).
    private static func temporaryPrefix(of base: String) -> String { "." + base + ".todofmt-" }

    /// Removes the temporary files beside a target that processes no longer running left
    /// (a todofmt killed while it wrote): however many writes were killed, at most the last
    /// one's temporary file remains until the next write.
    private static func removeStaleTemporaries(in directory: String, of base: String) {
        let prefix = temporaryPrefix(of: base)
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return }
        for name in names where name.hasPrefix(prefix) {
            let rest = name.dropFirst(prefix.count)
            guard let dash = rest.firstIndex(of: "-"), let pid = pid_t(rest[..<dash]), pid > 0, pid != getpid() else {
                continue
            }
            if kill(pid, 0) != 0 && errno == ESRCH { unlink(directory + "/" + name) }
        }
    }

    /// A sink that writes to this output.
    func makeSink() -> ByteSink {
        descriptor >= 0 ? ByteSink(descriptor: descriptor) : ByteSink()
    }

    /// The temporary file a writer that needs a path (a database) writes, for `.file`.
    var temporaryPath: String? {
        if case .file(_, let temporary) = destination { return temporary }
        return nil
    }

    /// Puts the written file in place: flushed to disk, then renamed over the target.
    func commit() throws {
        if case .special = destination {
            guard close(descriptor) == 0 else {
                throw ConversionError.io(path: name, reason: String(cString: strerror(errno)))
            }
            return
        }
        guard case .file = destination else { return }
        try seal()
        try commitSealed()
    }

    /// Flushes a temporary file to disk and closes it, so that putting it in place is only a
    /// rename (`commitSealed()`): a command that writes many files before it puts any in
    /// place keeps none open. On failure the temporary file goes.
    func seal() throws {
        guard case .file(_, let temporary) = destination else { return }
        guard fsync(descriptor) == 0, close(descriptor) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            throw ConversionError.io(path: name, reason: reason)
        }
    }

    /// `commit()` of a sealed output: the rename.
    func commitSealed() throws {
        guard case .file(let target, let temporary) = destination else { return try commit() }
        guard rename(temporary, target) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            throw ConversionError.io(path: name, reason: reason)
        }
    }

    /// `discard()` of a sealed output.
    func discardSealed() {
        guard case .file(_, let temporary) = destination else { return discard() }
        unlink(temporary)
    }

    /// Leaves the target as it was: the temporary file goes.
    func discard() {
        if case .special = destination { close(descriptor) }
        guard case .file(_, let temporary) = destination else { return }
        close(descriptor)
        unlink(temporary)
    }
}

/// A write that is ready but not yet in place: `commit()` puts it there, `discard()` leaves
/// the file as it was. Its warnings say what the file could not hold, so a caller can refuse
/// them (`--strict`) before anything changes.
struct PendingWrite {
    /// What the written file could not hold.
    var warnings: [ConversionWarning]
    private let commitAction: () throws -> Void
    private let discardAction: () -> Void

    init(warnings: [ConversionWarning], commit: @escaping () throws -> Void, discard: @escaping () -> Void) {
        self.warnings = warnings
        self.commitAction = commit
        self.discardAction = discard
    }

    func commit() throws { try commitAction() }
    func discard() { discardAction() }

    /// A write that leaves the file as it is (it already holds what would be written).
    static func unchanged(_ warnings: [ConversionWarning]) -> PendingWrite {
        PendingWrite(warnings: warnings, commit: {}, discard: {})
    }

    /// The file at `path` as `write` writes it into a sink, pending: written into a
    /// temporary file beside it, renamed into place on `commit`. Nil, with nothing left
    /// behind, where `write` gives nil (it wrote nothing to keep) instead of its warnings.
    static func file(_ path: String, _ write: (inout ByteSink) throws -> [ConversionWarning]?) throws -> PendingWrite? {
        let output = try Output.file(path)
        do {
            var sink = output.makeSink()
            guard let warnings = try write(&sink) else {
                output.discard()
                return nil
            }
            _ = try sink.finish(path: output.name)
            return PendingWrite(warnings: warnings, commit: output.commit, discard: output.discard)
        } catch {
            output.discard()
            throw error
        }
    }
}
