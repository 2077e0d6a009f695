/// Every format todofmt knows, each once: the one place a new format is added.
enum FormatRegistry {
    /// The formats in the order help lists them; when two recognise the same content equally
    /// surely, the earlier wins.
    static let formats: [any ListFormat] = [
        MarkdownFormat(),
        YAMLFormat(),
        JSONFormat(),
        PropertyListFormat(isBinary: false, embedded: JSONEmbedding()),
        PropertyListFormat(isBinary: true, embedded: JSONEmbedding()),
        SQLiteFormat(),
        SQLDumpFormat(),
    ]

    /// The format type of an identity.
    static func format(_ id: DocumentFormat) throws -> any ListFormat {
        guard let format = formats.first(where: { $0.id == id }) else {
            throw ConversionError.unknownFormat(id.rawValue)
        }
        return format
    }

    /// The format a command-line name or alias stands for, ignoring case.
    static func format(named name: String) -> DocumentFormat? {
        let lower = name.lowercased()
        return formats.first { $0.id.rawValue == lower || $0.aliases.contains(lower) }?.id
    }

    /// The format a file name's extension stands for (`.plist` is XML; its content may say binary).
    static func format(ofExtensionIn path: String) -> DocumentFormat? {
        let name = path.split(separator: "/").last ?? ""
        guard let dot = name.lastIndex(of: ".") else { return nil }
        let ext = name[name.index(after: dot)...].lowercased()
        return formats.first { $0.extensions.contains(ext) }?.id
    }

    /// The format content is most surely in, and how sure; nil for empty content.
    static func recognize(_ head: [UInt8]) -> (format: DocumentFormat, recognition: Recognition)? {
        guard head.contains(where: { $0 != 32 && $0 != 9 && $0 != 10 && $0 != 13 }) else { return nil }
        return head.withUnsafeBufferPointer { buffer in
            var best: (DocumentFormat, Recognition)? = nil
            for format in formats {
                let recognition = format.recognition(of: buffer)
                if recognition > (best?.1 ?? .no) { best = (format.id, recognition) }
            }
            return best
        }
    }

    /// The format to read an input in: the one given (a property list's content still says
    /// XML or binary), else what its content surely is, else its extension's, else what its
    /// content looks like most; an empty input is an empty checklist.
    static func inputFormat(given: DocumentFormat?, path: String?, head: [UInt8]) -> DocumentFormat {
        inputFormat(given: given, path: path, seen: recognize(head))
    }

    /// `inputFormat(given:path:head:)` of a head recognised as `seen` (`recognize`).
    static func inputFormat(
        given: DocumentFormat?, path: String?, seen: (format: DocumentFormat, recognition: Recognition)?
    ) -> DocumentFormat {
        let propertyLists: Set<DocumentFormat> = [.plist, .bplist]
        if let given {
            if propertyLists.contains(given), let seen, propertyLists.contains(seen.format) { return seen.format }
            return given
        }
        if let seen, seen.recognition == .certainly { return seen.format }
        if let path, let named = format(ofExtensionIn: path) { return named }
        return seen?.format ?? .markdown
    }
}

extension DocumentFormat: CaseIterable {
    /// Every format todofmt reads and writes, in the order help lists them.
    public static var allCases: [DocumentFormat] { FormatRegistry.formats.map(\.id) }

    /// A format from its command-line name; `markdown`, `yml`, `xml`, `binary`, `db`,
    /// `dump` are accepted too. Nil for an unknown name.
    public init?(name: String) {
        guard let format = FormatRegistry.format(named: name) else { return nil }
        self = format
    }

    /// The other names `init(name:)` takes for this format: `markdown` for `md`.
    public var aliases: [String] {
        FormatRegistry.formats.first { $0.id == self }?.aliases ?? []
    }

    /// The format a file name's extension stands for; nil when it names none.
    public init?(path: String) {
        guard let format = FormatRegistry.format(ofExtensionIn: path) else { return nil }
        self = format
    }
}
