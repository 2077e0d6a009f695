#if YAML
/// A write of a list into an existing YAML file laid out as todofmt writes a new one (a file
/// todofmt wrote, edited since), as the list streams: what `YAMLListPatcher.write` writes,
/// without reading the file into items. JSON and XML property lists do the same through
/// `StreamedUpdate`; this is that for YAML, whose items the patcher reads by events.
///
/// The list goes through a new file's writer whose bytes are compared with the file's as
/// they come (`ByteComparison`). A new file's top-level items start their lines with a dash
/// at the first column, which nothing else in its list does. Where the output first
/// differs, the file's bytes before are that writer's, so the item there starts at the last
/// such line (or is the list's first). From there the file's item lines are passed over
/// until one starts where the rest of the file is the rest of the output and the output has
/// an item line too: the rest is the same items. Only the run of items between is read:
/// from the file, where it must read as exactly that many items of the list
/// (`YAMLListPatcher.readRun`), and from the output; the patcher writes it
/// (`YAMLListPatcher.write(run:…)`) and copies every other byte as it stands.
enum YAMLStreamedUpdate {
    /// How a top-level item's line starts in a new file; the item's line starts at the dash.
    static let marker = LineMarker(bytes: Array("\n- ".utf8), itemOffset: 1)

    /// Writes into the file at `path` (named `name` in messages, its bytes `old`) the list
    /// that `read` hands to `writer`, a new file's writer into the sink it is given. Nil,
    /// with nothing written and `read` perhaps called, where this does not apply (the
    /// caller builds the list and calls the whole-list write): the file does not start as a
    /// new file does, the output differs before the list's first item, two items have one
    /// identity, the list holds a value the format cannot hold, the run does not read as
    /// items of the list, or the patcher needs the whole list.
    static func write(
        into path: String, name: String, old: UnsafeBufferPointer<UInt8>, mapped: MappedFile, options: ListOptions,
        writer: (ByteSink) throws -> any ListWriter, read: (inout any ListWriter) throws -> Void
    ) throws -> PendingWrite? {
        // The list is compared before the file's head is read: a list written back unchanged
        // needs no layout (reading a thousand items to learn it was a fifth of such a write),
        // unless two items share a value under a key that may be the file's identity key.
        // Until the head tells where the list starts, any item line before the first
        // difference keeps the comparison going.
        guard
            let (written, comparison, noted) = try ComparedWriter.compare(
                old, format: .yaml, writer: writer, noting: options.schema,
                keepsItems: { marker.lastStart(before: $0, in: old) != nil }, read: read)
        else { return nil }
        if comparison.isSame && noted.sharedIdentities.isEmpty { return .unchanged(written.warnings) }
        guard let head = YAMLListPatcher.head(of: old, path: name, options: options, mapped: mapped),
            !noted.sharesIdentity(under: head.patcher.identityKey)
        else { return nil }
        if comparison.isSame { return .unchanged(written.warnings) }
        var patcher = head.patcher
        let listStart = head.listStart
        // The output's list must start where the file's does: its first dash and space are
        // the file's (not front matter the file lacks, `---`, nor an empty list's `[]`).
        guard comparison.matched >= listStart + 2 else { return nil }

        // The item the first difference is in, and the run of items to the first after it
        // from which the file is the output's end; each with one unchanged item more on
        // either side (where there is one), so that the gaps the patcher keeps or takes
        // after are those the whole-list write does.
        var start = max(listStart, marker.lastStart(before: comparison.matched, in: old) ?? listStart)
        if start > listStart { start = max(listStart, marker.lastStart(before: start - 1, in: old) ?? listStart) }
        let sameFrom = old.count - comparison.commonSuffix()
        let shift = comparison.outputCount - old.count
        var end = old.count
        var outputEnd = comparison.outputCount
        var count = 1
        var line = start
        while let next = marker.nextStart(from: line, in: old) {
            let there = next + shift
            if next >= sameFrom, there > start,
                marker.isStart(there, count: comparison.outputCount, comparison.outputByte)
            {
                // The output is the file from here on: the item here is the same in both.
                count += 1
                if let after = marker.nextStart(from: next, in: old) {
                    end = after
                    outputEnd = after + shift
                }
                break
            }
            count += 1
            line = next
        }
        guard patcher.readRun(start..<end, count: count, stopsShort: end < old.count) else { return nil }
        let run = comparison.output(start..<outputEnd)
        guard
            let items = try? TodoList(
                bytes: run, format: .yaml, name: name, options: ListOptions(schema: options.schema)
            ).items, !items.isEmpty
        else { return nil }

        let itemsBefore = {
            start == listStart ? 0 : 1 + marker.starts(in: old, before: start).count { $0 > listStart }
        }
        return try ComparedWriter.writeRun(into: path) { sink in
            try patcher.write(run: items, itemsBefore: itemsBefore, to: &sink).map { written.warnings + $0 }
        }
    }
}
#endif
