/// The state of a todo item: the character between the brackets of `[ ]`.
public enum TodoStatus: Hashable, Sendable {
    /// `[ ]`: not done.
    case open
    /// `[x]` or `[X]`: done.
    case done
    /// Any other single character, such as Obsidian's `[/]` (in progress) or `[-]` (cancelled).
    ///
    /// A custom status is kept through every conversion; it is never read as done or open.
    case custom(Unicode.Scalar)

    /// Whether the item counts as done: true only for ``done``.
    public var isChecked: Bool { self == .done }

    /// The status for a bracket character: space is open, `x` or `X` is done, anything else is custom.
    public init(marker: Unicode.Scalar) {
        switch marker {
        case " ": self = .open
        case "x", "X": self = .done
        default: self = .custom(marker)
        }
    }

    /// Whether a checklist's box holds `scalar` as a custom status (FORMAT.md, section 3):
    /// any scalar but `[`, `]`, `\`, white space, control and format characters (and `x`,
    /// `X`, which are done).
    public static func isCustomMarker(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case "x", "X", "[", "]", "\\": return false
        case "!"..."~": return true
        default:
            let properties = scalar.properties
            return scalar.value > 0x7F && !properties.isWhitespace && properties.generalCategory != .control
                && properties.generalCategory != .format
        }
    }

    /// The character todofmt writes between the brackets.
    public var marker: Unicode.Scalar {
        switch self {
        case .open: " "
        case .done: "x"
        case .custom(let scalar): scalar
        }
    }
}
