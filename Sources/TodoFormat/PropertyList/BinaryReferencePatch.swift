/// A change to a binary property list laid out as todofmt writes a new one, made where it
/// stands: the list written anew (`BinaryListWriter`, its bytes compared with the file's)
/// differs from the file only in what some dictionaries' values refer to, every object
/// keeping its bytes and its place. A box checked is such a change: the item's `checked`
/// now refers to the shared `true`, which the file already holds. The file is then copied
/// with those references changed, and the list is not read again for `BinaryListRewriter`,
/// which would write every object anew.
enum BinaryReferencePatch {
    /// Whether each of `differences` (the output's from the file `old`, named `name`, of the
    /// same length) lies among the value references of one dictionary, under keys of
    /// neither the order role nor named as identities are (by `schema`): the whole-list
    /// write keeps an order of the file's own, and names two items that share an identity.
    static func applies(
        _ differences: [ByteComparison.Difference], in old: UnsafeBufferPointer<UInt8>, name: String,
        schema: ItemSchema
    ) -> Bool {
        guard !differences.isEmpty, let reader = try? BinaryPropertyListReader(bytes: old, path: name) else {
            return false
        }
        let size = reader.referenceSize
        let holders = holders(of: differences.map(\.offset), reader: reader)
        for (difference, object) in zip(differences, holders) {
            guard object >= 0, let h = try? reader.header(of: object), h.marker >> 4 == 0xD,
                reader.referencesFit(start: h.start, count: 2 * h.count)
            else { return false }
            let values = h.start + h.count * size
            let end = difference.offset + difference.bytes.count
            guard difference.offset >= values, end <= values + h.count * size else { return false }
            for slot in (difference.offset - values) / size...(end - 1 - values) / size {
                guard let key = try? reader.string(reader.reference(from: h.start, slot)),
                    schema.role(of: key) != .order,
                    !ItemLayout.Learner.identityKeys.contains(ItemSchema.normalizedKey(key))
                else { return false }
            }
        }
        return true
    }

    /// Writes `old` with `differences` (in order) in place of its bytes.
    static func write(
        _ old: UnsafeBufferPointer<UInt8>, with differences: [ByteComparison.Difference], to sink: inout ByteSink
    ) {
        var at = 0
        for difference in differences {
            sink.write(UnsafeBufferPointer(rebasing: old[at..<difference.offset]))
            difference.bytes.withUnsafeBufferPointer { sink.write($0) }
            at = difference.offset + difference.bytes.count
        }
        sink.write(UnsafeBufferPointer(rebasing: old[at...]))
    }

    /// For each of `offsets` (ascending), the object that starts last at or before it; -1
    /// where none does. One pass over the offset table: each object's start is a candidate
    /// for the first offset at or after it, and the last candidate of an offset without one
    /// is its predecessor's.
    private static func holders(of offsets: [Int], reader: BinaryPropertyListReader) -> [Int] {
        var holders = Array(repeating: -1, count: offsets.count)
        var starts = Array(repeating: -1, count: offsets.count)
        for object in 0..<reader.objectCount {
            guard let start = try? reader.offset(of: object) else { continue }
            var low = 0
            var high = offsets.count
            while low < high {
                let middle = (low + high) / 2
                if offsets[middle] < start { low = middle + 1 } else { high = middle }
            }
            if low < offsets.count && start > starts[low] {
                holders[low] = object
                starts[low] = start
            }
        }
        for i in offsets.indices.dropFirst() where holders[i] < 0 { holders[i] = holders[i - 1] }
        return holders
    }
}
