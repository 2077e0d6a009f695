/// A writer that refuses items nested deeper than todofmt reads (`Limits.itemLevels`), so
/// that it never writes a file it cannot read back; the refusal comes before anything is
/// committed.
struct DepthLimitedWriter: ListWriter {
    var base: any ListWriter

    mutating func begin(metadata: [Field]) throws { try base.begin(metadata: metadata) }

    mutating func item(_ item: TodoItem, depth: Int) throws {
        guard depth < Limits.itemLevels else { throw ConversionError.unsupported(Limits.itemDepthMessage) }
        try base.item(item, depth: depth)
    }

    var takesPlainNames: Bool { base.takesPlainNames }

    mutating func item(plainName: UnsafeBufferPointer<UInt8>, status: TodoStatus, section: String?, depth: Int) throws {
        guard depth < Limits.itemLevels else { throw ConversionError.unsupported(Limits.itemDepthMessage) }
        try base.item(plainName: plainName, status: status, section: section, depth: depth)
    }

    mutating func items(plain: ArraySlice<PlainItem>, text: UnsafeBufferPointer<UInt8>, sections: [String]) throws {
        guard !plain.contains(where: { $0.depth >= Limits.itemLevels }) else {
            throw ConversionError.unsupported(Limits.itemDepthMessage)
        }
        try base.items(plain: plain, text: text, sections: sections)
    }

    mutating func end() throws { try base.end() }
    mutating func finish() throws -> Written { try base.finish() }
}

extension TodoList {
    /// Refuses a list nested deeper than todofmt reads.
    func checkDepth() throws {
        func check(_ items: [TodoItem], _ depth: Int) throws {
            for item in items where !item.children.isEmpty {
                guard depth + 1 < Limits.itemLevels else { throw ConversionError.unsupported(Limits.itemDepthMessage) }
                try check(item.children, depth + 1)
            }
        }
        try check(items, 0)
    }
}

extension DepthLimitedWriter {
    /// `writer` behind the checks every new file gets: the nesting limit, and in a build
    /// without YAML, raw front matter left out of formats other than a checklist.
    static func guarding(_ writer: any ListWriter, format: DocumentFormat) -> any ListWriter {
        #if YAML
        return DepthLimitedWriter(base: writer)
        #else
        let limited = DepthLimitedWriter(base: writer)
        return format == .markdown ? limited : RawFrontMatterDroppingWriter(base: limited)
        #endif
    }
}

#if !YAML
/// In a build without YAML a checklist's front matter is raw text (`FrontMatter.rawKey`),
/// which only a checklist can hold: other formats get the list without it, and a warning.
struct RawFrontMatterDroppingWriter: ListWriter {
    var base: any ListWriter
    private var dropped = false

    init(base: any ListWriter) { self.base = base }

    mutating func begin(metadata: [Field]) throws {
        let kept = TodoList.withoutRawFrontMatter(metadata)
        dropped = kept.count != metadata.count
        try base.begin(metadata: kept)
    }

    mutating func item(_ item: TodoItem, depth: Int) throws { try base.item(item, depth: depth) }
    var takesPlainNames: Bool { base.takesPlainNames }

    mutating func item(plainName: UnsafeBufferPointer<UInt8>, status: TodoStatus, section: String?, depth: Int) throws {
        try base.item(plainName: plainName, status: status, section: section, depth: depth)
    }

    mutating func items(plain: ArraySlice<PlainItem>, text: UnsafeBufferPointer<UInt8>, sections: [String]) throws {
        try base.items(plain: plain, text: text, sections: sections)
    }

    mutating func end() throws { try base.end() }

    mutating func finish() throws -> Written {
        var written = try base.finish()
        if dropped { written.warnings.append(TodoList.rawFrontMatterLeftOut) }
        return written
    }
}

extension TodoList {
    /// The warning for front matter this build cannot parse, left out of another format.
    static let rawFrontMatterLeftOut = ConversionWarning(
        .metadata, "the checklist's front matter was left out: \(YAMLFormat.missing)")

    static func withoutRawFrontMatter(_ metadata: [Field]) -> [Field] {
        metadata.filter { $0.key != FrontMatter.rawKey }
    }
}
#endif
