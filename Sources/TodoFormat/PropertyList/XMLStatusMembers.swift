import Foundation

/// What `StreamedUpdate.sameItems` needs to take an item whose statuses changed from the
/// new writer's text alone. That text puts each element on a line of its own, tabs before
/// it: an item's `<dict>`, then its members one tab deeper, `<key>name</key>` and the name,
/// `<key>checked</key>` and `<true/>` or `<false/>`, perhaps `<key>status</key>` and a
/// string, then the rest; its children in an `<array>` under `<key>children</key>`. Text
/// escapes `<`, so no line of a string looks like an element.
extension XMLListSyntax {
    /// The names, where every `<dict>` of `new` is an item's (it starts the text, or an
    /// `<array>` or an item's `</dict>` comes before it) and every `<array>` a children's;
    /// a field that holds a dictionary or an array could look like an item.
    static func itemNames(in new: UnsafeBufferPointer<UInt8>, into names: inout [Range<Int>]) -> Bool {
        names.removeAll(keepingCapacity: true)
        var previous: Line? = nil
        var at = 0
        while at < new.count {
            let line = Line(at: at, in: new)
            if line.is("<dict>", in: new) {
                if let previous {
                    guard previous.is("<array>", in: new) || previous.is("</dict>", in: new) else { return false }
                }
                let key = Line(at: line.end, in: new)
                guard key.is("<key>name</key>", in: new), let name = plainString(Line(at: key.end, in: new), in: new)
                else { return false }
                names.append(name)
            } else if line.is("<array>", in: new) {
                guard let previous, previous.is("<key>children</key>", in: new) else { return false }
            } else if line.is("<dict/>", in: new) || line.is("<array/>", in: new) {
                return false
            }
            previous = line
            at = line.end
        }
        return true
    }

    static var statusReach: Int { 512 }

    /// Where the status members of the item whose own members hold `offset` start, and how
    /// deep their lines are: the `<key>checked</key>` line (the offset's, or one of the three
    /// before it), after the item's name key and name, and its `<dict>` one tab less deep,
    /// from `floor` on.
    static func statusStart(in text: UnsafeBufferPointer<UInt8>, before offset: Int, floor: Int)
        -> (start: Int, depth: Int)?
    {
        var start = Line.start(before: offset, in: text)
        var checked = Line(at: start, in: text)
        var back = 0
        while !checked.is("<key>checked</key>", in: text) {
            guard back < 3, start > floor else { return nil }
            start = Line.start(before: start - 1, in: text)
            checked = Line(at: start, in: text)
            back += 1
        }
        guard start > floor else { return nil }
        let nameLine = Line(at: Line.start(before: start - 1, in: text), in: text)
        guard nameLine.tabs == checked.tabs, plainString(nameLine, in: text) != nil, nameLine.start > floor else {
            return nil
        }
        let keyLine = Line(at: Line.start(before: nameLine.start - 1, in: text), in: text)
        guard keyLine.tabs == checked.tabs, keyLine.is("<key>name</key>", in: text), keyLine.start > floor else {
            return nil
        }
        // (A top-level item's text, where it is all of the text, starts at its `<dict>`,
        // after the line's tab.)
        let dict = Line(at: Line.start(before: keyLine.start - 1, in: text), in: text)
        guard dict.tabs + 1 == checked.tabs || dict.start == 0 && dict.tabs == 0 && checked.tabs == 2,
            dict.is("<dict>", in: text), dict.start >= floor
        else { return nil }
        return (start, checked.tabs)
    }

    /// Whether the members after status members ending at `end` (lines `tabs` deep), to the
    /// children's array or the item's end, each hold a scalar under a key `follows` takes.
    static func keysFollow(
        in text: UnsafeBufferPointer<UInt8>, from end: Int, depth tabs: Int,
        _ follows: (UnsafeBufferPointer<UInt8>) -> Bool
    ) -> Bool {
        var at = end
        while at < text.count {
            let key = Line(at: at, in: text)
            guard key.tabs == tabs else { return true }  // `</dict>`
            let content = UnsafeBufferPointer(rebasing: text[key.content])
            guard ByteScan.has("<key>", at: 0, in: content), content.count > 11,
                ByteScan.has("</key>", at: content.count - 6, in: content)
            else { return false }
            let name = UnsafeBufferPointer(rebasing: content[5..<content.count - 6])
            if name.elementsEqual("children".utf8) { return true }
            guard follows(name) else { return false }
            let value = Line(at: key.end, in: text)
            guard value.tabs == tabs, isScalar(value, in: text) else { return false }
            at = value.end
        }
        return true
    }

    /// Where status members starting at `start` end, each line `tabs` deep:
    /// `<key>checked</key>`, `<true/>` or `<false/>`, then perhaps `<key>status</key>` and
    /// a string.
    static func statusEnd(from start: Int, depth tabs: Int, in text: UnsafeBufferPointer<UInt8>) -> Int? {
        let key = Line(at: start, in: text)
        guard key.tabs == tabs, key.is("<key>checked</key>", in: text) else { return nil }
        let value = Line(at: key.end, in: text)
        guard value.tabs == tabs, value.is("<true/>", in: text) || value.is("<false/>", in: text) else { return nil }
        let status = Line(at: value.end, in: text)
        guard status.tabs == tabs, status.is("<key>status</key>", in: text) else { return value.end }
        let string = Line(at: status.end, in: text)
        guard string.tabs == tabs, isScalar(string, in: text) else { return nil }
        return string.end
    }

    /// The text of a `<string>` line whose text is its bytes (no reference, no control
    /// character), without the tags.
    private static func plainString(_ line: Line, in text: UnsafeBufferPointer<UInt8>) -> Range<Int>? {
        let content = UnsafeBufferPointer(rebasing: text[line.content])
        guard content.count >= 17, ByteScan.has("<string>", at: 0, in: content),
            ByteScan.has("</string>", at: content.count - 9, in: content)
        else { return nil }
        let inner = line.content.lowerBound + 8..<line.content.upperBound - 9
        guard !text[inner].contains(where: { $0 == UInt8(ascii: "&") || $0 == UInt8(ascii: "<") || $0 < 32 }) else {
            return nil
        }
        return inner
    }

    /// Whether the line is a whole value that is not a dictionary or an array: its element
    /// opens and closes on it (`<true/>`, or `<string>…</string>` and the like).
    private static func isScalar(_ line: Line, in text: UnsafeBufferPointer<UInt8>) -> Bool {
        let content = UnsafeBufferPointer(rebasing: text[line.content])
        guard content.count >= 3, content[0] == UInt8(ascii: "<"), content[content.count - 1] == UInt8(ascii: ">")
        else { return false }
        if content[content.count - 2] == UInt8(ascii: "/") {
            return ByteScan.has("<true/>", at: 0, in: content) || ByteScan.has("<false/>", at: 0, in: content)
        }
        // `<x>…</x>`: the element's name, and its closing tag at the end.
        var end = 1
        while end < content.count, content[end] != UInt8(ascii: ">") { end += 1 }
        let name = UnsafeBufferPointer(rebasing: content[1..<end])
        guard !name.elementsEqual("dict".utf8), !name.elementsEqual("array".utf8),
            content.count >= 2 * name.count + 5,
            content[content.count - name.count - 3] == UInt8(ascii: "<"),
            content[content.count - name.count - 2] == UInt8(ascii: "/"),
            UnsafeBufferPointer(rebasing: content[(content.count - name.count - 1)..<(content.count - 1)])
                .elementsEqual(name)
        else { return false }
        return true
    }

    /// A line of the text: its tabs, what follows them up to its line break, and where the
    /// next line starts.
    private struct Line {
        let start: Int
        let tabs: Int
        let content: Range<Int>
        let end: Int

        init(at start: Int, in text: UnsafeBufferPointer<UInt8>) {
            self.start = start
            var i = start
            while i < text.count && text[i] == 9 { i += 1 }
            tabs = i - start
            var stop = i
            if i < text.count, let found = memchr(text.baseAddress! + i, 10, text.count - i) {
                stop = text.baseAddress!.distance(to: found.assumingMemoryBound(to: UInt8.self))
                end = stop + 1
            } else {
                stop = text.count
                end = text.count
            }
            content = i..<stop
        }

        /// Where the line that holds `offset` starts.
        static func start(before offset: Int, in text: UnsafeBufferPointer<UInt8>) -> Int {
            ByteScan.lineStart(before: offset, in: text)
        }

        /// Whether the line holds `element` and nothing else.
        func `is`(_ element: StaticString, in text: UnsafeBufferPointer<UInt8>) -> Bool {
            content.count == element.utf8CodeUnitCount && ByteScan.has(element, at: content.lowerBound, in: text)
        }
    }
}
