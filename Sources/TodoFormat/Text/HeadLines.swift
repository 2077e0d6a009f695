/// The first lines of a file's head, as the formats' recognisers look at them: split at
/// every line feed, a carriage return before it left out (CRLF files split as LF ones),
/// a byte order mark before the first left out, empty lines skipped, at most `limit`.
/// Each is made a string only when it is reached, not the whole head: splitting 64 KiB
/// into characters takes tens of millions of instructions, the head of a binary file (one
/// long line) the most.
struct HeadLines: Sequence, IteratorProtocol {
    private let head: UnsafeBufferPointer<UInt8>
    private var start: Int
    private var left: Int

    init(_ head: UnsafeBufferPointer<UInt8>, limit: Int) {
        self.head = head
        start = ByteOrderMark.length(in: head)
        left = limit
    }

    mutating func next() -> String? {
        while start < head.count && left > 0 {
            var end = start
            while end < head.count && head[end] != 10 { end += 1 }
            let line = start..<(end > start && head[end - 1] == 13 ? end - 1 : end)
            start = end + 1
            if !line.isEmpty {
                left -= 1
                return String(decoding: UnsafeBufferPointer(rebasing: head[line]), as: UTF8.self)
            }
        }
        return nil
    }
}
