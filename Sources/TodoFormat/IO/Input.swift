import Foundation

/// An input as formats read it: a file (`-` is standard input) or bytes in memory, with
/// the name its messages use. Reading never changes the file.
struct Input: Sendable {
    private enum Source: Sendable {
        case file(String)
        case memory([UInt8])
    }

    private let source: Source
    /// The name messages use: the path as given, or `<stdin>`.
    let name: String

    /// The file at `path`, named in messages as `name` (the path when not given: a copy a
    /// dry run writes into is named as the file it copies).
    init(file path: String, name: String? = nil) {
        source = .file(path)
        self.name = name ?? path
    }

    /// The file at `path` as a command's source: a file that can be read only once (a named
    /// pipe, `/dev/stdin` from a pipe, a terminal) is read whole now, as standard input is;
    /// it was opened again to be read after its start was read to tell its format, and so
    /// read as empty, or waited for a writer that had gone. A regular file (or one that does
    /// not open) is read where it stands when needed.
    static func reading(_ path: String, name: String? = nil) throws -> Input {
        guard InputFile.isReadOnce(path) else { return Input(file: path, name: name) }
        return Input(bytes: try InputFile.read(path), name: name ?? path)
    }

    /// Standard input, read whole now (it can be read only once).
    static func standardInput() throws -> Input {
        Input(bytes: try InputFile.read("-"), name: "<stdin>")
    }

    /// Bytes already in memory; `name` is used in messages.
    init(bytes: [UInt8], name: String) {
        source = .memory(bytes)
        self.name = name
    }

    /// The path of the file, or nil for bytes in memory.
    var path: String? {
        if case .file(let path) = source { return path }
        return nil
    }

    /// The whole content.
    func bytes() throws -> [UInt8] {
        switch source {
        case .file(let path): try InputFile.read(path)
        case .memory(let bytes): bytes
        }
    }

    /// Runs `body` with the whole content: a regular file mapped read-only and read in place
    /// (a large file is not copied into memory first), else read whole.
    func withBytes<T>(_ body: (UnsafeBufferPointer<UInt8>) throws -> T) throws -> T {
        if case .file(let path) = source, path != "-", let mapped = MappedFile(path: path) {
            return try withExtendedLifetime(mapped) { try body(mapped.bytes) }
        }
        return try bytes().withUnsafeBufferPointer(body)
    }

    /// The whole content as UTF-8 text, or an error at the first byte that is not UTF-8;
    /// read from a file, the text's storage has `room` bytes more, to grow into in place.
    func text(room: Int = 0) throws -> String {
        switch source {
        case .file(let path): try InputFile.readText(path, name: name, room: room)
        case .memory(let bytes): try UTF8Validation.decode(bytes, path: name)
        }
    }

    /// Up to `count` bytes from the start, for telling the format.
    func head(_ count: Int = 64 * 1024) throws -> [UInt8] {
        switch source {
        case .file(let path): try InputFile.readHead(path, count: count)
        case .memory(let bytes): Array(bytes.prefix(count))
        }
    }

    /// Runs `body` with a file on disk that holds the content: the file itself, or a
    /// temporary copy of bytes in memory (SQLite opens only files).
    func withFile<T>(_ body: (String) throws -> T) throws -> T {
        switch source {
        case .file(let path): return try body(path)
        case .memory(let bytes):
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("todofmt-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: file) }
            do {
                try Data(bytes).write(to: file)
            } catch {
                throw ConversionError.io(path: name, reason: (error as NSError).localizedDescription)
            }
            return try body(file.path)
        }
    }
}

extension URL {
    /// The file's path as it was given: relative paths stay relative, so messages name the
    /// file as the user did. A folder's path ends in `/`: `URL` drops the slash of `q/`, and
    /// the file `q` was then read and written in its place.
    var filePath: String {
        let path = relativePath
        return hasDirectoryPath && !path.hasSuffix("/") ? path + "/" : path
    }
}
