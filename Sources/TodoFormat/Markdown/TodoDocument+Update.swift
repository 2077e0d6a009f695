import Foundation

extension TodoDocument {
    /// Writes `list` into the document, changing only what changed (FORMAT.md section 6):
    /// the lines of items that are the same stay byte for byte, a changed item's status,
    /// name and fields are rewritten in place, removed items' lines go, new and moved items
    /// go after the item they follow in the list, in the style of their neighbours; prose,
    /// headings, code and every other line stay. A metadata change rewrites only the front
    /// matter. Afterwards the document reads as `list`, or this throws and nothing changed.
    public mutating func update(with list: TodoList) throws {
        // After a last line without a line ending, new lines need one: the text gets one for
        // the time of the update.
        if let last = text.utf8.last, last != 10 {
            var padded = try TodoDocument(parsing: text + lineEnding, path: path)
            try padded.update(with: list)
            var updated = padded.text
            if updated.utf8.last == 10 { updated.removeLast() }
            self = try TodoDocument(parsing: updated, path: path)
            return
        }
        let new = ItemAlignment.entries(of: list.items)
        let document = try TodoDocument(parsing: spliced(with: list, entries: new), path: path)
        try document.verify(reads: new)
        self = document
    }

    /// The text with `list` written in (not yet checked); the text ends with a line ending.
    func spliced(with list: TodoList, entries new: [ItemAlignment.Entry]) throws -> String {
        var updated = try text.withBytes { bytes -> String in
            let oldItems = records.indices.map { item(at: $0, bytes: bytes) }
            guard let window = Self.window(old: oldItems, oldDepths: records.map(\.depth), new: new) else { return text }
            let splice = try splicedWindow(window, of: oldItems, new: new, bytes: bytes)
            var out = [UInt8]()
            out.reserveCapacity(bytes.count + splice.bytes.count - splice.range.count)
            out.append(contentsOf: bytes[..<splice.range.lowerBound])
            out.append(contentsOf: splice.bytes)
            out.append(contentsOf: bytes[splice.range.upperBound...])
            return String(decoding: out, as: UTF8.self)
        }
        if list.metadata != metadata {
            updated = Self.replacingFrontMatter(of: updated, bodyStart: bodyStart, with: list.metadata, lineEnding: lineEnding)
        }
        return updated
    }

    /// The items a window of the old items is replaced with: old items `old` and new items
    /// `new`, each as indexes, from a top-level item on (or the end).
    struct Window {
        var old: Range<Int>
        var new: Range<Int>
    }

    /// Where the old and new items differ, widened to whole top-level items: the same items
    /// at the start and at the end stay out of it. Nil when nothing differs.
    static func window(old: [TodoItem], oldDepths: [Int], new: [ItemAlignment.Entry]) -> Window? {
        func same(_ o: Int, _ n: Int) -> Bool {
            let a = old[o], b = new[n].item
            return oldDepths[o] == new[n].depth && a.status == b.status && a.section == b.section && a.fields == b.fields
                && a.nameStorage.utf8.elementsEqual(b.nameStorage.utf8)
        }
        var prefix = 0
        while prefix < old.count && prefix < new.count && same(prefix, prefix) { prefix += 1 }
        if prefix == old.count && prefix == new.count { return nil }
        var suffix = 0
        while suffix < old.count - prefix && suffix < new.count - prefix && same(old.count - 1 - suffix, new.count - 1 - suffix) {
            suffix += 1
        }
        // From the top-level item that holds the first difference (on both sides), to the
        // top-level item after the last.
        var start = prefix
        while start > 0 && ((start < old.count && oldDepths[start] > 0) || (start < new.count && new[start].depth > 0)) { start -= 1 }
        var end = old.count - suffix
        while end < old.count && oldDepths[end] > 0 { end += 1 }
        return Window(old: start..<end, new: start..<(new.count - (old.count - end)))
    }

    /// The bytes that replace the window's part of the text.
    private func splicedWindow(
        _ window: Window, of oldItems: [TodoItem], new: [ItemAlignment.Entry], bytes: UnsafeBufferPointer<UInt8>
    ) throws -> (range: Range<Int>, bytes: [UInt8]) {
        func oldItem(_ i: Int) -> ChecklistSplice.OldItem {
            ChecklistSplice.OldItem(record: records[i], parsed: parsed(i), item: oldItems[i])
        }
        // The top-level item before the window and the one after it stay.
        var beforeIndex = window.old.lowerBound - 1
        while beforeIndex >= 0 && records[beforeIndex].depth > 0 { beforeIndex -= 1 }
        let before = beforeIndex >= 0 ? oldItem(beforeIndex) : nil
        let after = window.old.upperBound < records.count ? oldItem(window.old.upperBound) : nil
        let start = before.map { $0.record.extentEnd } ?? bodyStart
        let end = after?.record.lineStart ?? bytes.count
        let range = start..<max(start, end)
        let headings = self.headings.filter { range.contains($0.start) }
        var splice = ChecklistSplice(
            bytes: bytes, lineEnding: Array(lineEnding.utf8), window: range, old: window.old.map(oldItem), headings: headings,
            before: before, after: after, new: new[window.new].map(\.item), newDepths: new[window.new].map(\.depth))
        return (range, try splice.run())
    }

    /// `text` with its front matter (which ends at `bodyStart`, 0 for none) holding `metadata`:
    /// rewritten, added after a byte order mark, or taken away when there is no metadata.
    static func replacingFrontMatter(of text: String, bodyStart: Int, with metadata: [Field], lineEnding: String) -> String {
        var bytes = Array(text.utf8)
        let start = ByteOrderMark.length(in: bytes)
        let block = metadata.isEmpty ? [] : Array(((try? FrontMatter.render(metadata, lineEnding: lineEnding)) ?? "").utf8)
        bytes.replaceSubrange(start..<max(start, bodyStart), with: block)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Throws unless the document's items are `expected` (sections as a reader sees them: an
    /// item without one after an item with one takes that one).
    func verify(reads expected: [ItemAlignment.Entry]) throws {
        var mismatch: Int? = expected.count == records.count ? nil : min(expected.count, records.count)
        text.withBytes { bytes in
            var section: String? = nil
            for i in 0..<min(expected.count, records.count) where mismatch == nil {
                let want = expected[i].item, got = item(at: i, bytes: bytes)
                if expected[i].depth == 0 { section = want.section ?? section }
                let sectionOK = expected[i].depth > 0 || got.section == section
                if records[i].depth != expected[i].depth || got.status != want.status || got.fields != want.fields || !sectionOK
                    || !got.nameStorage.utf8.elementsEqual(want.nameStorage.utf8)
                {
                    mismatch = i
                }
            }
        }
        if let mismatch {
            throw ConversionError.encoding(
                "\(path): writing the list into this checklist would change its meaning near item \(mismatch + 1); nothing was written")
        }
    }
}
