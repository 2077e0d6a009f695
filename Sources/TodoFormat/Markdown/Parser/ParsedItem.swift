/// What the parser knows of a task item when its name paragraph ends.
struct ParsedItem {
    /// 1-based line of the list marker.
    var line: Int
    /// Byte offset of the line that holds the marker.
    var lineStart: Int
    /// Byte offset of the list marker (`-`, `*`, `+` or the first digit).
    var markerStart: Int
    /// Byte offset of `[`.
    var boxStart: Int
    /// Byte offset just past the status character.
    var statusEnd: Int
    var status: TodoStatus
    /// Number of task items around this one.
    var depth: Int
    var isOrdered: Bool
    /// The content of each line of the name paragraph, without leading and trailing white space.
    var firstNameLine: Range<Int>
    var moreNameLines: [Range<Int>]
    /// Byte offset just past the last name line's content (where a line ending or trailing white space starts).
    var nameEnd: Int
    /// 1-based line of the last name line.
    var lastLine: Int
    /// Inside a block quote (cmark-gfm does not see these).
    var inBlockQuote: Bool
    /// The marker is not the first thing on its line after white space: another marker
    /// (`- - [ ] x`), a `>` or the file's byte order mark precedes it (cmark-gfm does not see these).
    var startsAfterOtherText: Bool
}
