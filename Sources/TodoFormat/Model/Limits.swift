/// The limits every reader and writer shares, so that todofmt never writes a file it cannot
/// read back (FORMAT.md, section 14).
public enum Limits {
    /// How many levels items may nest: depths 0 to 255. Reading a deeper item is an error at
    /// its place; writing one is an error before anything is written.
    public static let itemLevels = 256
    /// How many levels values (arrays and dictionaries) may nest inside a file.
    public static let valueLevels = 512

    /// How many nodes YAML aliases may stand for in one file, counted as they expand (an
    /// alias of a list of ten aliases of lists counts every node it repeats): this many, or
    /// one a byte of the file when it is larger. Past it reading stops with an error, so
    /// a small file cannot expand to billions of nodes ("billion laughs").
    public static let aliasNodes = 1_000_000
    static let aliasNodesRule = "todofmt expands aliases to at most 1,000,000 nodes, or one a byte of a larger file"

    /// The error message for an item nested deeper than `itemLevels`.
    static let itemDepthMessage = "items nested too deep (todofmt reads and writes \(itemLevels) levels at most)"

    /// How many SQLite virtual machine steps one statement of an SQL dump may take, plus
    /// `dumpStepsPerStatementBefore` for each statement before it: about a second's work,
    /// more than any statement `sqlite3 .dump` writes needs (an index over the rows inserted
    /// before it takes about 9 steps a row), so a recursive query without an end stops quickly.
    public static let dumpStatementSteps = 50_000_000
    /// The steps one statement of a dump may take in addition for each statement before it.
    public static let dumpStepsPerStatementBefore = 20
    /// How long a YAML mapping key may be as text: a mapping or sequence used as a key is
    /// its text, and keys nested in keys would otherwise double in length a level.
    public static let keyBytes = 65_536

    /// How many bytes one value or row made by an SQL dump may hold (a `zeroblob`, a string).
    public static let dumpValueBytes = 100_000_000

    /// How often SQLite checks the step budget, in steps.
    static let dumpStepsPerCall = 10_000

    /// The error message for a dump statement that ran past `dumpStatementSteps`.
    static let dumpStepsMessage =
        "the statement ran past \(dumpStatementSteps) steps, todofmt's limit for one statement of a dump (a recursive query without an end?)"
}
