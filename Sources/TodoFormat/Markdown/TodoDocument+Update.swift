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
        if case (let mark, var bare) = try withoutByteOrderMark(), !mark.isEmpty {
            try bare.update(with: list)
            self = try TodoDocument(parsing: mark + bare.text, path: path)
            return
        }
        let new = ItemAlignment.entries(of: list.items)
        let document = try TodoDocument(parsing: spliced(with: list, entries: new), path: path)
        try document.verify(reads: new[...], from: 0, section: nil)
        // Front matter taken away, where the text after it opens with a block that then
        // reads as front matter (metadata the list has not).
        // (Front matter kept as it was, empty or not parsed, is no such block: hunt 96.)
        if list.metadata.isEmpty && metadata != list.metadata && document.bodyStart > 0 {
            throw ConversionError.encoding(
                "\(path): taking the front matter away (the list has no metadata) would make the '---' block "
                    + "after it front matter; nothing was written")
        }
        self = document
    }

    /// The document without its byte order mark, and the mark (empty where there is none). The
    /// mark is no part of the first line, whose lines an item that moves takes along: an
    /// update or an edit is made on the document without it, whose text then gets it back.
    func withoutByteOrderMark() throws -> (mark: String, document: TodoDocument) {
        guard text.unicodeScalars.first == "\u{FEFF}" else { return ("", self) }
        return ("\u{FEFF}", try TodoDocument(parsing: String(text.unicodeScalars.dropFirst()), path: path))
    }

    /// The text with `list` written in (not yet checked); the text ends with a line ending.
    func spliced(with list: TodoList, entries new: [ItemAlignment.Entry]) throws -> String {
        var updated = text
        if let splice = try splice(new[...], over: 0..<records.count) {
            updated = text.withBytes { bytes in
                var out = [UInt8]()
                out.reserveCapacity(bytes.count + splice.bytes.count - splice.range.count)
                out.append(contentsOf: bytes[..<splice.range.lowerBound])
                out.append(contentsOf: splice.bytes)
                out.append(contentsOf: bytes[splice.range.upperBound...])
                return String(decoding: out, as: UTF8.self)
            }
        }
        if list.metadata != metadata {
            updated = try Self.replacingFrontMatter(
                of: updated, bodyStart: bodyStart, with: list.metadata, lineEnding: lineEnding)
        }
        return updated
    }

    /// What writing `new` in place of the items `items` (whole top-level items) changes: the
    /// bytes that replace a range of the text. Nil when the items are the same. The text must
    /// end with a line ending.
    ///
    /// Where every item of the window stays in its place (`inPlace`, on by default; a test
    /// turns it off to compare), the changed items are rewritten without a `ChecklistSplice`.
    /// `read` holds the items `items` already read (as `item(at:bytes:)` reads them), or none.
    /// `pairing`, where given, is the old item (a record index) each of `new` is, or nil for
    /// one that is new: the items pair so rather than by their content.
    func splice(
        _ new: ArraySlice<ItemAlignment.Entry>, over items: Range<Int>, within bounds: Range<Int>? = nil,
        movingIn foreign: Range<Int> = 0..<0, inPlace: Bool = true, read: [TodoItem] = [], pairing: [Int?]? = nil
    ) throws -> (range: Range<Int>, bytes: [UInt8])? {
        try text.withBytes { bytes in
            /// Item `i`, read once.
            func item(_ i: Int) -> TodoItem {
                if !read.isEmpty && items.contains(i) { return read[i - items.lowerBound] }
                return self.item(at: i, bytes: bytes)
            }
            func same(_ o: Int, _ n: Int) -> Bool {
                guard records[o].depth == new[n].depth else { return false }
                let a = item(o)
                let b = new[n].item
                return a.status == b.status && a.section == b.section && a.fields == b.fields
                    && a.nameStorage.sameBytes(as: b.nameStorage)
            }
            // The same items at the start and at the end stay out of the window.
            var prefix = 0
            while prefix < items.count && prefix < new.count && same(items.lowerBound + prefix, new.startIndex + prefix)
            { prefix += 1 }
            if prefix == items.count && prefix == new.count { return nil }
            var suffix = 0
            while suffix < items.count - prefix && suffix < new.count - prefix
                && same(items.upperBound - 1 - suffix, new.endIndex - 1 - suffix)
            {
                suffix += 1
            }
            // From the top-level item that holds the first difference (on both sides), to the
            // top-level item after the last.
            var start = prefix
            while start > 0
                && ((start < items.count && records[items.lowerBound + start].depth > 0)
                    || (start < new.count && new[new.startIndex + start].depth > 0))
            {
                start -= 1
            }
            var end = items.count - suffix
            while end < items.count && records[items.lowerBound + end].depth > 0 { end += 1 }
            let oldWindow = (items.lowerBound + start)..<(items.lowerBound + end)
            let newWindow = (new.startIndex + start)..<(new.startIndex + new.count - (items.count - end))

            func oldItem(_ i: Int) -> ChecklistSplice.OldItem {
                ChecklistSplice.OldItem(record: records[i], parsed: parsed(i), item: item(i))
            }
            // The top-level item before the window and the one after it stay.
            var beforeIndex = oldWindow.lowerBound - 1
            while beforeIndex >= 0 && records[beforeIndex].depth > 0 { beforeIndex -= 1 }
            let afterIndex = oldWindow.upperBound
            var rangeStart = beforeIndex >= 0 ? records[beforeIndex].extentEnd : bodyStart
            var rangeEnd = afterIndex < records.count ? records[afterIndex].lineStart : bytes.count
            if let bounds {
                rangeStart = max(rangeStart, bounds.lowerBound)
                rangeEnd = min(rangeEnd, bounds.upperBound)
            }
            let range = rangeStart..<max(rangeStart, rangeEnd)
            let windowHeadings = Array(headings(in: range))
            if inPlace, foreign.isEmpty, windowHeadings.isEmpty,
                let written = rewrittenInPlace(
                    oldWindow.map(oldItem), new[newWindow], range: range, section: section(before: range.lowerBound),
                    bytes: bytes)
            {
                return (range, written)
            }
            // (The items beside the window are read only here: rewritten in place, only
            // their lines count.)
            var splice = ChecklistSplice(
                bytes: bytes, lineEnding: Array(lineEnding.utf8), window: range, old: oldWindow.map(oldItem),
                headings: windowHeadings, before: beforeIndex >= 0 ? oldItem(beforeIndex) : nil,
                after: afterIndex < records.count ? oldItem(afterIndex) : nil,
                startSection: section(before: range.lowerBound),
                new: new[newWindow].map(\.item), newDepths: new[newWindow].map(\.depth), foreign: foreign.map(oldItem),
                pairing: pairing.map { pairing in
                    newWindow.map { n in
                        pairing[n - new.startIndex].flatMap { o in
                            oldWindow.contains(o)
                                ? o - oldWindow.lowerBound
                                : foreign.contains(o) ? oldWindow.count + o - foreign.lowerBound : nil
                        }
                    }
                })
            return (range, try splice.run())
        }
    }

    /// `text` with its front matter (which ends at `bodyStart`, 0 for none) holding `metadata`:
    /// rewritten, added after a byte order mark, or taken away when there is no metadata.
    /// Throws where the metadata cannot be front matter (a build without YAML writes only
    /// the front matter it read), which had been taken away without a word.
    static func replacingFrontMatter(of text: String, bodyStart: Int, with metadata: [Field], lineEnding: String)
        throws -> String
    {
        var bytes = Array(text.utf8)
        let start = ByteOrderMark.length(in: bytes)
        let block = metadata.isEmpty ? [] : Array(try FrontMatter.render(metadata, lineEnding: lineEnding).utf8)
        bytes.replaceSubrange(start..<max(start, bodyStart), with: block)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The bytes of `range` with the items `old` (the window's, in order) rewritten as `new`,
    /// where a `ChecklistSplice` would keep each item where it stands and rewrite only its
    /// status, name and fields; nil where it might not. That is so where both sides hold as
    /// many items at the same depths, each top-level item in its section, and the changed
    /// ones pair among themselves only: no changed item has the content of another item on
    /// the other side (which the alignment would pair it with instead), and where changed
    /// items stand next to each other, each keeps its name (which pairs them by name). A
    /// list edited in many places (every tenth box checked) is so written a few items at a
    /// time without building a splice's trees and alignment for each.
    private func rewrittenInPlace(
        _ old: [ChecklistSplice.OldItem], _ new: ArraySlice<ItemAlignment.Entry>, range: Range<Int>,
        section: String?, bytes: UnsafeBufferPointer<UInt8>
    ) -> [UInt8]? {
        // (Checking for another item of a changed one's content takes each pair of items.)
        guard old.count == new.count, old.count <= 64 else { return nil }
        // (Items are looked at in their arrays by index: copies of them, and of the items
        // without their sections to compare, were most of such a piece's writing.)
        let base = new.startIndex
        /// Whether two items have the same content, as the alignment compares them: their
        /// sections aside.
        func sameContent(_ a: TodoItem, _ b: TodoItem) -> Bool {
            a.status == b.status && a.fields == b.fields && a.children == b.children && a.nameStorage == b.nameStorage
        }
        var changed: [Int] = []
        var section = section
        for i in old.indices {
            guard old[i].record.depth == new[base + i].depth else { return nil }
            if new[base + i].depth == 0 {
                section = new[base + i].item.section ?? section
                guard section == old[i].item.section else { return nil }
            }
            if !sameContent(old[i].item, new[base + i].item) { changed.append(i) }
        }
        for (k, i) in changed.enumerated() {
            guard !old.indices.contains(where: { sameContent(old[$0].item, new[base + i].item) }),
                !new.indices.contains(where: { sameContent(new[$0].item, old[i].item) })
            else { return nil }
            // Changed items side by side keep their names.
            let alone =
                (k == 0 || changed[k - 1] != i - 1) && (k + 1 == changed.count || changed[k + 1] != i + 1)
            guard alone || old[i].item.nameStorage == new[base + i].item.nameStorage else { return nil }
        }
        var out: [UInt8] = []
        out.reserveCapacity(range.count + 64)
        var copied = range.lowerBound
        let ending = lineEnding
        for i in old.indices {
            let (a, b) = (old[i].item, new[base + i].item)
            if a.status == b.status && a.fields == b.fields && a.nameStorage.sameBytes(as: b.nameStorage) { continue }
            let (rewritten, replacement) = Self.rewrite(old[i].parsed, from: a, as: b, lineEnding: ending, in: bytes)
            guard rewritten.lowerBound >= copied, rewritten.upperBound <= range.upperBound else { return nil }
            out.append(contentsOf: bytes[copied..<rewritten.lowerBound])
            out.append(contentsOf: replacement)
            copied = rewritten.upperBound
        }
        out.append(contentsOf: bytes[copied..<range.upperBound])
        return out
    }

    /// Throws unless the document's items from `first` on are `expected` (sections as a
    /// reader sees them: an item without one after an item with one takes that one; `section`
    /// is the one before the first). With `total`, the items after those need not be checked,
    /// but the document must hold `total` items.
    func verify(reads expected: ArraySlice<ItemAlignment.Entry>, from first: Int, section: String?, total: Int? = nil)
        throws
    {
        var mismatch: Int? = nil
        if let total {
            if records.count != total || records.count - first < expected.count {
                mismatch = min(first + expected.count, records.count)
            }
        } else if records.count - first != expected.count {
            mismatch = first + min(expected.count, records.count - first)
        }
        text.withBytes { bytes in
            var section = section
            for (k, want) in zip(first..<records.count, expected) where mismatch == nil {
                let got = item(at: k, bytes: bytes)
                if want.depth == 0 { section = want.item.section ?? section }
                if !Self.reads(got, depth: records[k].depth, as: want.item, depth: want.depth, section: section) {
                    mismatch = k
                }
            }
        }
        if let mismatch { throw meaningChanged(near: mismatch) }
    }

    /// Throws unless the document's items are those of `source` (a fragment of the source
    /// read into this one), as `verify(reads:…)` checks them. An item whose line is the same
    /// in both (`ItemRecord.sameLine`) is not read: most of a checklist edited in many places.
    func verify(readsAs source: TodoDocument, section: String?) throws {
        var mismatch = records.count != source.records.count ? min(records.count, source.records.count) : nil
        text.withBytes { bytes in
            source.text.withBytes { sourceBytes in
                var section = section
                for k in records.indices where mismatch == nil {
                    let record = records[k]
                    let want = source.records[k]
                    if want.depth == 0 { section = source.section(of: k) ?? section }
                    if record.sameLine(as: want, in: bytes, sourceBytes) {
                        if want.depth == 0 && self.section(of: k) != section { mismatch = k }
                        continue
                    }
                    let got = item(at: k, bytes: bytes)
                    let wanted = source.item(at: k, bytes: sourceBytes)
                    if !Self.reads(got, depth: record.depth, as: wanted, depth: want.depth, section: section) {
                        mismatch = k
                    }
                }
            }
        }
        if let mismatch { throw meaningChanged(near: mismatch) }
    }

    /// Whether an item read back (`got`, at `depth`) is the item written (`want`, at
    /// `wantDepth`): its status, fields and name bytes, and at the top its section as a reader
    /// sees it (`section`).
    private static func reads(_ got: TodoItem, depth: Int, as want: TodoItem, depth wantDepth: Int, section: String?)
        -> Bool
    {
        depth == wantDepth && got.status == want.status && got.fields == want.fields
            && (wantDepth != 0 || got.section == section) && got.nameStorage.sameBytes(as: want.nameStorage)
    }

    private func meaningChanged(near index: Int) -> ConversionError {
        ConversionError.encoding(
            "\(path): writing the list into this checklist would change its meaning near item \(index + 1); "
                + "nothing was written (todofmt fmt may untangle the file)")
    }
}
