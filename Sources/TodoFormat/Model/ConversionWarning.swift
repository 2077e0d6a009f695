/// Something a conversion could not carry into its output, or carried only in part:
/// what `todofmt` prints as `warning:` and `--strict` turns into an error.
///
/// A conversion reports each kind once, with how many items it concerns and the first of them.
public struct ConversionWarning: Hashable, Sendable, CustomStringConvertible {
    /// What was lost.
    public enum Kind: String, Hashable, Sendable, CaseIterable {
        /// The list's metadata (a checklist's front matter).
        case metadata
        /// Item fields the output has no place for.
        case fields
        /// Nesting: nested items were written one after another.
        case nesting
        /// Done-ness or a custom status.
        case status
        /// The order of the items.
        case order
        /// Values the output cannot represent exactly (nulls, date fractions, large integers, NaN).
        case values
        /// Item keys todofmt had to choose because the file could not say which it uses.
        case keys
        /// A checklist's text that is not its items: prose, headings that name no section, code.
        case prose
        /// Keys of a dictionary root beside the list (an app's other data, other settings),
        /// which a list read out of the file leaves behind.
        case besideList
        /// The output's format: an existing property list stays XML or binary where `--to`
        /// named the other.
        case format
    }

    /// What was lost.
    public var kind: Kind
    /// What happened, in lower case without a final period.
    public var message: String
    /// How many items it concerns (at least 1).
    public var count: Int
    /// The first item it concerns, as `list` shows it (`3.2 Milk`), when it concerns items.
    public var firstItem: String?

    /// A warning about `count` items, the first of which is `firstItem`.
    public init(_ kind: Kind, _ message: String, count: Int = 1, firstItem: String? = nil) {
        self.kind = kind
        self.message = message
        self.count = count
        self.firstItem = firstItem
    }

    /// The message, with the count and the first item when there are any.
    public var description: String {
        guard let firstItem else { return message }
        return count == 1 ? "\(message) (item \(firstItem))" : "\(message) (\(count) items, the first \(firstItem))"
    }
}

/// Collects warnings as a writer meets them: one per kind and message, counting items.
struct WarningLog: Sendable {
    private(set) var warnings: [ConversionWarning] = []

    /// Notes one more item (or none) that `message` concerns.
    mutating func note(_ kind: ConversionWarning.Kind, _ message: String, item: @autoclosure () -> String? = nil) {
        if let i = warnings.firstIndex(where: { $0.kind == kind && $0.message == message }) {
            warnings[i].count += 1
        } else {
            warnings.append(ConversionWarning(kind, message, firstItem: item()))
        }
    }

    mutating func append(contentsOf other: [ConversionWarning]) {
        for warning in other {
            if let i = warnings.firstIndex(where: { $0.kind == warning.kind && $0.message == warning.message }) {
                warnings[i].count += warning.count
            } else {
                warnings.append(warning)
            }
        }
    }
}

extension ConversionWarning {
    /// The keys `keys` of a dictionary root beside the list at `place` in the file `file`
    /// (an app's other data, a preference file's other settings) are not part of the list.
    static func keysBesideList(_ keys: [String], place: ListPlace, file: String) -> ConversionWarning {
        let quoted = keys.map { "'\($0)'" }
        let shown =
            keys.count > 8
            ? quoted.prefix(8).joined(separator: ", ") + " and \(keys.count - 8) more" : quoted.joined(separator: ", ")
        return ConversionWarning(
            .besideList,
            "only the list under '\(place.keyPath)' is read from \(file): the keys beside it (\(shown)) were left out")
    }

    /// The message for an item that gives the field key `key` more than once with different
    /// values, written into a format that keeps one value a key.
    static func repeatedKeyMessage(_ key: String) -> String {
        "the field '\(key)' is given more than once in an item, with different values; read back, the item has one of them"
    }

    /// The list's metadata has no place in `target` (`plain JSON`, `a property list`…).
    static func metadataLeftOut(_ metadata: [Field], by target: String) -> ConversionWarning {
        ConversionWarning(
            .metadata,
            "\(target) has no place for the list's metadata (\(metadata.map(\.key).joined(separator: ", "))); it was left out"
        )
    }
}
