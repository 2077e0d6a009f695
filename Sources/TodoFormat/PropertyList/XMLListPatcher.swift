import Foundation

/// Writes a list into an existing XML property list changing only what changed
/// (`TextListPatcher`, FORMAT.md section 7.6): the list is the root array, the array `--key`
/// names or todofmt finds in a dictionary root, or JSON kept in a `<data>` value there.
enum XMLListPatcher {
    static func write(
        _ items: [TodoItem], into bytes: UnsafeBufferPointer<UInt8>, path: String, options: ListOptions,
        embedded: (any EmbeddedListCodec)?, to sink: inout ByteSink, mapped: MappedFile? = nil
    ) throws -> [ConversionWarning] {
        switch try find(in: bytes, path: path, options: options, mapped: mapped) {
        case .array(var patcher):
            return try patcher.write(items, to: &sink)
        case .data(let tag, var reader, let place):
            return try writeData(
                items, at: tag, in: &reader, place: place, path: path, options: options, embedded: embedded, to: &sink)
        }
    }

    /// Where a property list keeps its list: an array, or JSON text in a `<data>` value (its
    /// tag, the reader past it, and its place).
    enum Found {
        case array(TextListPatcher<XMLListSyntax>)
        case data(XMLPropertyListReader.Tag, XMLPropertyListReader, ListPlace)
    }

    /// Finds the list in the property list `bytes` (whose name is `path`).
    static func find(
        in bytes: UnsafeBufferPointer<UInt8>, path: String, options: ListOptions, mapped: MappedFile? = nil
    ) throws -> Found {
        var reader = XMLPropertyListReader(bytes: bytes, path: path)
        let rootTag = try reader.openPlist()
        let list: ListStart
        let listName: String
        var syntax = XMLListSyntax(bytes: bytes, path: path, schema: options.schema)
        if rootTag.is("array") && !rootTag.isClosing {
            if rootTag.isEmpty {
                list = .scanned(ArraySpan(whole: rootTag.offset..<reader.position, inside: nil, elements: []))
                try reader.closePlist()
            } else {
                // The root array is scanned as it is compared; `</plist>` must follow it.
                list = .open(at: rootTag.offset, inside: reader.position)
                syntax.checksEnd = true
            }
            listName = "the list"
        } else {
            let root = try reader.value(rootTag)
            try reader.closePlist()
            guard case .dictionary(let fields) = root else {
                throw reader.error(
                    "the root is neither an array of items nor a dictionary holding one", at: rootTag.offset)
            }
            try PropertyListReader.refuseKeyedArchive(fields, path: path)
            let (place, _) = try ListPlace.locate(in: fields, key: options.key, schema: options.schema, path: path)
            reader.position = rootTag.offset
            let tag = try seek(place, in: &reader)
            if case .jsonData = place { return .data(tag, reader, place) }
            list = .scanned(try arraySpan(tag, &reader))
            listName = "the list under '\(place.keyPath)'"
        }
        return .array(
            try TextListPatcher(
                bytes: bytes, path: path, list: list, listName: listName, schema: options.schema, syntax: syntax,
                dropsNulls: true,
                mapped: mapped))
    }

    /// The array whose opening tag is `tag`, its elements skipped over.
    static func arraySpan(_ tag: XMLPropertyListReader.Tag, _ reader: inout XMLPropertyListReader) throws(ParseError)
        -> ArraySpan
    {
        guard tag.is("array") && !tag.isClosing else {
            throw reader.error("expected <array>, found <\(tag.text)>", at: tag.offset)
        }
        if tag.isEmpty { return ArraySpan(whole: tag.offset..<reader.position, inside: nil, elements: []) }
        let insideStart = reader.position
        var elements: [Range<Int>] = []
        while true {
            let next = try reader.nextTag()
            if next.isClosing && next.is("array") {
                return ArraySpan(
                    whole: tag.offset..<reader.position, inside: insideStart..<next.offset, elements: elements)
            }
            try reader.skipValue(next)
            elements.append(next.offset..<reader.position)
        }
    }

    /// Moves the reader from the root dictionary's tag to the value at the place's key path
    /// (the last of a key's duplicates, as plistlib and `ListPlace` take it); returns its opening tag.
    private static func seek(_ place: ListPlace, in reader: inout XMLPropertyListReader) throws(ParseError)
        -> XMLPropertyListReader.Tag
    {
        let keys: [String]
        switch place {
        case .root: keys = []
        case .key(let path), .jsonData(let path): keys = path
        }
        var tag = try reader.nextTag()
        for key in keys {
            guard tag.is("dict"), !tag.isEmpty else { throw reader.error("expected <dict>", at: tag.offset) }
            var found: (tag: XMLPropertyListReader.Tag, reader: XMLPropertyListReader)? = nil
            while true {
                let keyTag = try reader.nextTag()
                if keyTag.isClosing && keyTag.is("dict") { break }
                let name = try reader.keyText(keyTag)
                let valueTag = try reader.nextTag()
                if name == key { found = (valueTag, reader) }
                try reader.skipValue(valueTag)
            }
            guard let found else { throw reader.error("there is no key '\(key)'", at: tag.offset) }
            tag = found.tag
            reader = found.reader
        }
        return tag
    }

    /// Writes the list into JSON kept in a `<data>` value: the JSON changes only where the
    /// list did, and the element keeps its layout (one line, or lines as plistlib writes them).
    private static func writeData(
        _ items: [TodoItem], at tag: XMLPropertyListReader.Tag, in reader: inout XMLPropertyListReader,
        place: ListPlace,
        path: String, options: ListOptions, embedded: (any EmbeddedListCodec)?, to sink: inout ByteSink
    ) throws -> [ConversionWarning] {
        let bytes = reader.bytes
        let textStart = reader.position
        guard case .data(let old) = try reader.value(tag) else { throw reader.error("expected <data>", at: tag.offset) }
        guard let embedded else {
            throw ConversionError.unsupported("\(path): the list is kept as JSON, which this build cannot write")
        }
        let end = reader.position
        let (json, warnings) = try embedded.update(
            Array(old), with: items, options: options, name: "\(path): the JSON data under '\(place.keyPath)'")
        if json == Array(old) {
            sink.write(bytes)
            return warnings
        }
        var closeStart = end
        while closeStart > textStart && bytes[closeStart - 1] != UInt8(ascii: "<") { closeStart -= 1 }
        closeStart -= 1
        let text = Array(bytes[textStart..<closeStart])
        let base64 = Data(json).base64EncodedString()
        var element = Array(bytes[tag.offset..<textStart])
        if let firstBreak = text.firstIndex(of: 10) {
            // Lines: each as long as the first, indented like it; the closing tag as it was.
            let lines = text.split(separator: 10, omittingEmptySubsequences: false)
            let indent = lines.count > 1 ? Array(lines[1].prefix { $0 == 32 || $0 == 9 }) : []
            let first = lines.count > 2 ? lines[1].count - indent.count : 0
            let width = first > 0 && lines.count > 3 ? first : XMLRenderer.dataLineWidth(indent: indent)
            let closing = Array(text[(text.lastIndex(of: 10) ?? firstBreak)...])
            var chars = Substring(base64)
            element += Array(text[..<firstBreak])
            while !chars.isEmpty {
                element += [10] + indent + Array(chars.prefix(width).utf8)
                chars = chars.dropFirst(width)
            }
            element += closing
        } else {
            element += Array(base64.utf8)
        }
        element += Array(bytes[closeStart..<end])
        sink.write(UnsafeBufferPointer(rebasing: bytes[0..<tag.offset]))
        sink.write(bytes: element)
        sink.write(UnsafeBufferPointer(rebasing: bytes[end..<bytes.count]))
        return warnings
    }
}

/// XML property lists for `TextListPatcher`: items read where they stand, the file's layout
/// learned (tabs, one element a line, `<real>1.0</real>` or `<real>1</real>`, `<data>` on
/// lines), values and items written in it.
struct XMLListSyntax: TextListSyntax {
    let bytes: UnsafeBufferPointer<UInt8>
    let path: String
    let schema: ItemSchema
    private(set) var renderer = XMLRenderer()
    private(set) var arrayLines = true
    private(set) var itemLines = true
    /// Whether the list is the root: `</plist>` must follow it.
    var checksEnd = false
    private var layout = ItemLayout()
    private var keys = ItemLayout().entryKeys

    init(bytes: UnsafeBufferPointer<UInt8>, path: String, schema: ItemSchema) {
        self.bytes = bytes
        self.path = path
        self.schema = schema
    }

    var indent: [UInt8] { renderer.indent }

    static var members: MemberLayout { .keyLines }

    func listItem(at offset: Int) -> TodoItem? {
        var reader = XMLPropertyListReader(bytes: bytes, path: path)
        reader.position = offset
        guard let tag = try? reader.nextTag(), tag.is("dict"), !tag.isClosing,
            case .dictionary(let fields)? = try? reader.value(tag)
        else { return nil }
        return try? schema.item(from: fields, depth: 0) { reader.error($0) }
    }

    func readItem(at offset: Int, depth: Int, arrayIDs: inout Int) throws -> SpannedItem {
        var reader = XMLPropertyListReader(bytes: bytes, path: path)
        reader.position = offset
        let tag = try reader.nextTag()
        guard depth < Limits.itemLevels else { throw reader.error(Limits.itemDepthMessage, at: tag.offset) }
        guard tag.is("dict"), !tag.isClosing else {
            throw reader.error("an item is not a dictionary of keys and values", at: tag.offset)
        }
        var members = MemberReader(schema: schema, depth: depth)
        var keySpans: [Range<Int>] = []
        var valueSpans: [Range<Int>] = []
        var children: [SpannedItem] = []
        var childrenArray: ArraySpan? = nil
        var childrenArrayID = -1
        let insideStart = reader.position
        var insideEnd = reader.position
        if !tag.isEmpty {
            while true {
                let keyTag = try reader.nextTag()
                if keyTag.isClosing && keyTag.is("dict") {
                    insideEnd = keyTag.offset
                    break
                }
                guard keyTag.is("key"), !keyTag.isClosing else {
                    throw reader.error(
                        "expected <key> in <dict>, found <\(keyTag.isClosing ? "/" : "")\(keyTag.text)>",
                        at: keyTag.offset)
                }
                let key = try reader.keyText(keyTag)
                let keySpan = keyTag.offset..<reader.position
                let valueTag = try reader.nextTag()
                if childrenArray == nil, valueTag.is("array"), !valueTag.isClosing, members.takesChildren(key) {
                    var probe = reader
                    let first = valueTag.isEmpty ? nil : try probe.nextTag()
                    if first == nil || (first!.is("dict") && !first!.isClosing)
                        || (first!.is("array") && first!.isClosing)
                    {
                        arrayIDs += 1
                        childrenArrayID = arrayIDs
                        if valueTag.isEmpty {
                            childrenArray = ArraySpan(
                                whole: valueTag.offset..<reader.position, inside: nil, elements: [])
                        } else {
                            let arrayInside = reader.position
                            var elements: [Range<Int>] = []
                            while true {
                                let next = try reader.nextTag()
                                if next.isClosing && next.is("array") {
                                    childrenArray = ArraySpan(
                                        whole: valueTag.offset..<reader.position, inside: arrayInside..<next.offset,
                                        elements: elements)
                                    break
                                }
                                let child = try readItem(at: next.offset, depth: depth + 1, arrayIDs: &arrayIDs)
                                children.append(child)
                                elements.append(child.span)
                                reader.position = child.span.upperBound
                            }
                        }
                        members.addChildren(key, children.map(\.item))
                        keySpans.append(keySpan)
                        valueSpans.append(valueTag.offset..<reader.position)
                        continue
                    }
                }
                let value = try reader.value(valueTag)
                if let message = members.add(key, value) { throw reader.error(message, at: valueTag.offset) }
                keySpans.append(keySpan)
                valueSpans.append(valueTag.offset..<reader.position)
            }
        }
        // A key given twice has its last value, as plistlib and Foundation read it: the item
        // is read again without the earlier ones, which stay in the file untouched. (The
        // members are the keys in file order, each with its value.)
        let read = members.members
        if let superseded = read.lazy.map(\.key).positionsGivenAgain() {
            members = MemberReader(schema: schema, depth: depth)
            var kept = (keys: [Range<Int>](), values: [Range<Int>]())
            for (i, member) in read.enumerated() where !superseded.contains(i) {
                if member.role == .children {
                    members.addChildren(member.key, children.map(\.item))
                } else if let message = members.add(member.key, member.value) {
                    throw reader.error(message, at: valueSpans[i].lowerBound)
                }
                kept.keys.append(keySpans[i])
                kept.values.append(valueSpans[i])
            }
            if let c = read.firstIndex(where: { $0.role == .children }), superseded.contains(c) {
                children = []
                childrenArray = nil
                childrenArrayID = -1
            }
            (keySpans, valueSpans) = kept
        }
        guard let item = members.build() else {
            throw reader.error(members.missingNameMessage, at: tag.offset)
        }
        return SpannedItem(
            item: item, span: tag.offset..<reader.position, inside: insideStart..<insideEnd, members: members.members,
            keySpans: keySpans, valueSpans: valueSpans, children: children, childrenArray: childrenArray,
            childrenArrayID: childrenArrayID)
    }

    private func indentAfterBreak(_ gap: Range<Int>) -> [UInt8]? {
        TextListPatcher<Self>.indentAfterBreak(in: bytes, gap)
    }

    func firstElement(inside offset: Int) throws -> ElementStep { try step(at: offset) }
    func element(after end: Int) throws -> ElementStep { try step(at: end) }

    private func step(at offset: Int) throws -> ElementStep {
        var reader = XMLPropertyListReader(bytes: bytes, path: path)
        reader.position = offset
        let tag = try reader.nextTag()
        guard tag.isClosing && tag.is("array") else { return .element(at: tag.offset) }
        let end = reader.position
        if checksEnd { try reader.closePlist() }
        return .end(closeAt: tag.offset, arrayEnd: end)
    }

    func elementEnd(from start: Int) throws -> Int {
        var reader = XMLPropertyListReader(bytes: bytes, path: path)
        reader.position = start
        try reader.skipValue(try reader.nextTag())
        return reader.position
    }
    private func lineIndent(at offset: Int) -> [UInt8] { TextListPatcher<Self>.lineIndent(in: bytes, at: offset) }

    mutating func learn(sample: [SpannedItem], list: ArraySpan) throws {
        if let inside = list.inside, let first = list.elements.first {
            let lead = inside.lowerBound..<first.lowerBound
            arrayLines = bytes[lead].contains(10)
            if let line = indentAfterBreak(lead) {
                let outer = lineIndent(at: list.whole.lowerBound)
                if line.count > outer.count, line.starts(with: outer) { renderer.indent = Array(line[outer.count...]) }
            }
        }
        if let item = sample.first(where: { !$0.keySpans.isEmpty }) {
            itemLines = bytes[item.inside.lowerBound..<item.keySpans[0].lowerBound].contains(10)
        }
        renderer.lines = itemLines
        // Reals and data as the file writes them, in the sample and outside the list.
        let end = sample.last?.span.upperBound ?? list.whole.lowerBound
        for range in [0..<end, list.whole.upperBound..<bytes.count] {
            renderer.learn(from: UnsafeBufferPointer(rebasing: bytes[range]))
        }
    }

    mutating func use(_ layout: ItemLayout) {
        self.layout = layout
        keys = layout.entryKeys
    }

    func item(_ item: TodoItem, line: [UInt8], to out: inout [UInt8]) -> Bool {
        renderer.item(item, layout: layout, keys: keys, line: line, arrayLines: arrayLines, to: &out)
        return Self.isExact(item) && layout.keepsStatus(of: item, keys: keys)
    }

    /// Whether an XML property list holds an item (with its children) exactly.
    static func isExact(_ item: TodoItem) -> Bool {
        !XMLRenderer.mayHaveForbidden(item.nameStorage) && !(item.section.map(XMLRenderer.mayHaveForbidden) ?? false)
            && item.fields.allSatisfy {
                XMLRenderer.losses(in: $0.value).isEmpty && !XMLRenderer.mayHaveForbidden($0.key)
            } && item.children.allSatisfy(isExact)
    }

    func value(_ value: FieldValue, line: [UInt8], to out: inout [UInt8]) {
        renderer.value(value, line: line, to: &out)
    }
    func key(_ key: String, to out: inout [UInt8]) { renderer.key(key, to: &out) }
    func colon(line: [UInt8]) -> [UInt8] { itemLines ? [10] + line : [] }
    func memberSeparator(line: [UInt8]) -> [UInt8] { itemLines ? [10] + line : [] }
    func elementSeparator(line: [UInt8]) -> [UInt8] { arrayLines ? [10] + line : [] }
    var arrayOpen: [UInt8] { Array("<array>".utf8) }
    var arrayClose: [UInt8] { Array("</array>".utf8) }
    var emptyArray: [UInt8] { Array("<array/>".utf8) }
    var objectOpen: [UInt8] { Array("<dict>".utf8) }
    var objectClose: [UInt8] { Array("</dict>".utf8) }

    func losses(in value: FieldValue) -> [String] { XMLRenderer.losses(in: value) }
}
