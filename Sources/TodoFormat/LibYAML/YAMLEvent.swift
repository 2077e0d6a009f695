#if YAML
/// One event of a YAML stream, as `YAMLParser` reads it: Swift values only, copied out of
/// libyaml's memory, so an event stays valid after the parser moves on.
struct YAMLEvent: Equatable {
    /// What the event is, with what it carries.
    enum Kind: Equatable {
        case streamStart, streamEnd, documentStart, documentEnd
        case scalar(Scalar)
        case sequenceStart(Properties)
        case sequenceEnd
        case mappingStart(Properties)
        case mappingEnd
        /// A reference to an earlier node by the name of its anchor (`*name`).
        case alias(anchor: String)
    }

    /// A scalar node: its text and how it was written.
    struct Scalar: Equatable {
        var text: String
        var style: YAMLScalarStyle
        var properties = Properties()

        var tag: String? { properties.tag }
        var anchor: String? { properties.anchor }
    }

    /// A node's tag (`!!str`) and anchor (`&name`). Both are rare: without them, an event
    /// has nothing here to copy or free.
    struct Properties: Equatable {
        private enum Storage: Equatable {
            case none
            indirect case some(tag: String?, anchor: String?)
        }
        private var storage: Storage

        init(tag: String? = nil, anchor: String? = nil) {
            storage = tag == nil && anchor == nil ? .none : .some(tag: tag, anchor: anchor)
        }

        /// Neither a tag nor an anchor: the common case, checked without making strings.
        var isEmpty: Bool { if case .none = storage { true } else { false } }
        var tag: String? { if case .some(let tag, _) = storage { tag } else { nil } }
        var anchor: String? { if case .some(_, let anchor) = storage { anchor } else { nil } }
    }

    var kind: Kind
    /// 1-based line and column in the whole file; columns count characters.
    var line: Int
    var column: Int
    /// The characters before the event, as libyaml counts them (not bytes: see
    /// `YAMLParser.byteOffset(of:)`).
    var characterOffset: Int
    /// The characters before the event's end (after a scalar's last character or closing
    /// quote, a flow collection's closing bracket; for a block collection's end, where the
    /// next token starts).
    var endCharacterOffset: Int = 0
    /// Whether a collection's start is in flow style (`[`, `{`) rather than block style.
    var isFlow = false
    /// Where the event starts and ends in bytes, from the start of the input, when
    /// `YAMLBlockScanner` gave it; -1 from libyaml, which counts characters only
    /// (`YAMLParser.offset(of:)` gives either).
    var byteOffset = -1
    var endByteOffset = -1

    /// The anchor a node event defines (`&name`); nil for other events, aliases included.
    var anchor: String? {
        switch kind {
        case .scalar(let scalar): scalar.anchor
        case .sequenceStart(let properties), .mappingStart(let properties): properties.anchor
        default: nil
        }
    }
}

/// How a scalar is written; the parser reports it and the emitter takes it.
enum YAMLScalarStyle: Equatable {
    case plain, singleQuoted, doubleQuoted, literal, folded
}
#endif
