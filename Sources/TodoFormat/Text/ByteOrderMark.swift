/// UTF-8's byte order mark (EF BB BF), which every text format allows before its first byte.
enum ByteOrderMark {
    /// 3 when the bytes start with a byte order mark, else 0.
    static func length<C: Collection>(in bytes: C) -> Int where C.Element == UInt8 {
        bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
    }
}
