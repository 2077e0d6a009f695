extension CLI {
    /// todofmt's version, the one place it is written: `--version` prints it and the man page
    /// carries it. `-dev` marks a build of what CHANGELOG.md's top section, "unreleased",
    /// describes; a release drops it, dates that section and tags the commit `v<version>`
    /// (a test keeps this and the changelog in step).
    ///
    /// It lives in the command, not the library: nothing the library writes carries it, and an
    /// app that depends on the package knows the version it resolved.
    static let version = "0.4.0-dev"
}
