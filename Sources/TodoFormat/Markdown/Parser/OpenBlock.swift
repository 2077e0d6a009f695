/// A block that is open on the parser's stack, with the data its kind needs: cmark's
/// `cmark_node` and its `as` union, cut down to what finding task items takes.
enum OpenBlock {
    /// The document itself, always at the bottom of the stack.
    case document
    case blockQuote
    case listItem(ListItemBlock)
    case fencedCode(CodeFence)
    case indentedCode
    case html(HTMLBlockCondition)
    /// A paragraph, whose lines the parser keeps; `isItemName` when it is the name of the task
    /// item the parser holds as pending (there is at most one: a name paragraph is the last
    /// open block, and any new block closes it); `isText` when it is text that is not an
    /// item's (reported when it closes).
    case paragraph(isItemName: Bool, isText: Bool)

    /// Whether the block holds lines of text rather than blocks, so that a new block start
    /// closes it.
    var isLeaf: Bool {
        switch self {
        case .document, .blockQuote, .listItem: false
        case .fencedCode, .indentedCode, .html, .paragraph: true
        }
    }

    /// Whether every line the block continues on is its text, so no block can start inside it.
    var isVerbatim: Bool {
        switch self {
        case .fencedCode, .indentedCode, .html: true
        case .document, .blockQuote, .listItem, .paragraph: false
        }
    }

    var isParagraph: Bool {
        if case .paragraph = self { true } else { false }
    }
}

/// What the parser keeps of an open list item.
struct ListItemBlock {
    /// Columns of indentation before the marker (at most 3).
    var markerOffset: Int
    /// Columns from the marker to the content (at most 14); a line continues the item when it
    /// is indented at least `contentIndent`.
    var padding: Int
    /// The content starts with a checkbox.
    var isTask: Bool
    var isOrdered: Bool
    /// The bullet character or ordered delimiter: another one starts another list.
    var listChar: UInt8
    /// 1-based line of the marker.
    var startLine: Int
    /// The item holds a block; only then does a blank line continue it.
    var hasChildren = false

    /// Columns from the item's indentation to its content.
    var contentIndent: Int { markerOffset + padding }
}

/// The opening fence of a fenced code block.
struct CodeFence {
    /// `` ` `` or `~`.
    var char: UInt8
    /// How many; the closing fence needs at least as many.
    var length: Int
    /// Spaces and tabs before the opening fence; up to as many are removed from each line.
    var indentation: Int
}
