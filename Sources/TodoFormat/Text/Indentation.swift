/// Runs of spaces for indenting nested items: checklists and JSON both indent two spaces a level.
enum Indentation {
    private static let levels: [String] = (0..<64).map { String(repeating: "  ", count: $0) }

    /// Two spaces for each level of `depth`.
    static func twoSpaces(_ depth: Int) -> String {
        depth < levels.count ? levels[depth] : String(repeating: "  ", count: depth)
    }
}
