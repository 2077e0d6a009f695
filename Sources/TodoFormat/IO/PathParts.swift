/// A file path split at its last `/`. Foundation's `NSString.deletingLastPathComponent` and
/// `lastPathComponent` trap on Linux for a one-character path (`q`): every write into a
/// file named so crashed, so todofmt splits paths itself.
enum PathParts {
    /// The folder part: "" for a bare name, "/" for a name at the root.
    static func directory(of path: String) -> String {
        guard let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")) else { return "" }
        return slash == path.utf8.startIndex ? "/" : String(path[..<slash])
    }

    /// The name after the last `/` (the whole path when there is none).
    static func base(of path: String) -> String {
        guard let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")) else { return path }
        return String(path[path.utf8.index(after: slash)...])
    }
}
