/// The limits every reader and writer shares, so that todofmt never writes a file it cannot
/// read back (FORMAT.md, section 12).
public enum Limits {
    /// How many levels items may nest: depths 0 to 255. Reading a deeper item is an error at
    /// its place; writing one is an error before anything is written.
    public static let itemLevels = 256
    /// How many levels values (arrays and dictionaries) may nest inside a file.
    public static let valueLevels = 512

    /// The error message for an item nested deeper than `itemLevels`.
    static let itemDepthMessage = "items nested too deep (todofmt reads and writes \(itemLevels) levels at most)"
}
