import Foundation

/// The plain items of a JSON list, read without making an item of each: objects of
/// todofmt's own keys (`name`, `checked`, `status`, `section`, `children`), each given once,
/// whose name, status and section are strings without escapes and whose `checked` is `true`
/// or `false`. What a sink that takes plain names (`PlainItemSink`) gets from the bytes:
/// a name is its string's bytes, the value exactly, so a `diff` hashes them and a JSON
/// writer copies them as they are. Any other object is left to `JSONListReader.readItem`,
/// which also reports what is wrong with it.
struct JSONPlainItems {
    private(set) var items: [PlainItem] = []
    private(set) var sections: [String] = []
    /// The bytes of the last section read (the same section is one entry for a run of items).
    private var lastSection: Range<Int>? = nil

    /// Reads the item object at the scanner into `items` (its children after it, in order).
    /// Returns false, the scanner anywhere in the object and `items` as they were, for an
    /// object that is not plain or not well formed.
    mutating func read(_ scanner: inout JSONScanner, depth: Int) -> Bool {
        let mark = items.count
        if readObject(&scanner, depth: depth) { return true }
        items.removeSubrange(mark...)
        return false
    }

    /// Hands the items read so far to `sink`, names as ranges of `text`.
    mutating func flush<S: PlainItemSink>(into sink: inout S, text: UnsafeBufferPointer<UInt8>) throws {
        guard !items.isEmpty else { return }
        try sink.items(plain: items[...], text: text, sections: sections)
        items.removeAll(keepingCapacity: true)
        sections.removeAll(keepingCapacity: true)
        lastSection = nil
    }

    private mutating func readObject(_ scanner: inout JSONScanner, depth: Int) -> Bool {
        guard depth < Limits.itemLevels, scanner.peek() == UInt8(ascii: "{") else { return false }
        scanner.position += 1
        let index = items.count
        items.append(PlainItem(nameStart: -1, nameEnd: -1, status: .open, depth: depth, section: -1))
        var seen: UInt8 = 0
        // As `ItemBuilder` takes them: the last of `checked` and `status` says whether the
        // item is done (`ItemBuilder.status(checked:custom:fields:)`).
        var checked: Bool?
        var custom: TodoStatus? = nil
        var first = true
        while true {
            // (What is not well formed is not plain: `readItem` reports it.)
            guard let more = try? scanner.nextElement(close: UInt8(ascii: "}"), first: &first) else { return false }
            guard more else { break }
            guard scanner.peek() == UInt8(ascii: "\""), let key = try? scanner.rawString(),
                let role = ItemSchema.ownRole(of: key), seen & ItemBuilder.bit(role) == 0,
                scanner.peek() == UInt8(ascii: ":")
            else { return false }
            seen |= ItemBuilder.bit(role)
            scanner.position += 1
            switch role {
            case .name:
                guard let name = text(&scanner) else { return false }
                items[index].nameStart = name.lowerBound
                items[index].nameEnd = name.upperBound
            case .checked:
                if scanner.peek() == UInt8(ascii: "t") && scanner.literal("true") {
                    checked = true
                } else if scanner.peek() == UInt8(ascii: "f") && scanner.literal("false") {
                    checked = false
                } else {
                    return false
                }
            case .status:
                guard let range = text(&scanner),
                    let status = ItemBuilder.status(
                        fromWord: String(decoding: UnsafeBufferPointer(rebasing: scanner.bytes[range]), as: UTF8.self))
                else { return false }
                if case .custom = status { custom = status } else { checked = status == .done }
            case .section:
                // Below the top, a section is an ordinary field.
                guard depth == 0, let range = text(&scanner, checked: false),
                    let section = section(range, in: scanner.bytes)
                else { return false }
                items[index].section = section
            case .children:
                guard scanner.peek() == UInt8(ascii: "[") else { return false }
                scanner.position += 1
                var firstChild = true
                while true {
                    guard let more = try? scanner.nextElement(close: UInt8(ascii: "]"), first: &firstChild) else {
                        return false
                    }
                    guard more else { break }
                    guard readObject(&scanner, depth: depth + 1) else { return false }
                }
            case .fields, .order:
                return false
            }
        }
        guard items[index].nameStart >= 0 else { return false }
        items[index].status = ItemBuilder.status(checked: checked, custom: custom, fields: [])
        return true
    }

    /// The bytes of a string without escapes that are UTF-8 (unless not `checked`); nil
    /// for another value.
    private func text(_ scanner: inout JSONScanner, checked: Bool = true) -> Range<Int>? {
        guard scanner.peek() == UInt8(ascii: "\""), let raw = try? scanner.rawString() else { return nil }
        guard !checked || UTF8Validation.isValid(raw) else { return nil }
        let start = scanner.position - 1 - raw.count
        return start..<(scanner.position - 1)
    }

    /// The index of a section in `sections`, added unless it is the last one's text (which
    /// was checked to be UTF-8); nil when a new text is not UTF-8.
    private mutating func section(_ range: Range<Int>, in bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        if let last = lastSection, last.count == range.count,
            memcmp(bytes.baseAddress! + last.lowerBound, bytes.baseAddress! + range.lowerBound, range.count) == 0
        {
            return sections.count - 1
        }
        guard UTF8Validation.isValid(UnsafeBufferPointer(rebasing: bytes[range])) else { return nil }
        lastSection = range
        sections.append(String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self))
        return sections.count - 1
    }
}
