import Foundation

/// What a difference between a file's text and the new writer's output is, as the output
/// streams (`TextListSyntax.statusChange`, `ByteComparison`): the status members of one
/// item, changed; or maybe that, once more of the output has come; or something else.
enum StatusChange: Equatable {
    /// The file's status members at `old` become the first `newCount` bytes of the file's
    /// from `old`'s start to the difference followed by the output's from there; the
    /// output's bytes from the difference on are the last `outputCount` of them. Where the
    /// output's members end before the difference, `outputCount` is less than nought: the
    /// output's bytes from their end to the difference come after them.
    case replace(old: Range<Int>, newCount: Int, outputCount: Int)
    case needMore
    case none

    /// The change where the file's status members run from `start` to `oldEnd` and the
    /// output first differs from the file at `offset` (`output` holds the output from there):
    /// the output's status members are the file's bytes from `start` to `offset`, then the
    /// output's, as far as `end` finds them in that text. `needMore` where fewer than
    /// `reach` bytes of output are at hand and the output goes on (`isWhole` false): `end`
    /// could stop short of members that go on past them.
    static func resolve(
        old: UnsafeBufferPointer<UInt8>, start: Int, offset: Int, oldEnd: Int, output: UnsafeBufferPointer<UInt8>,
        isWhole: Bool, reach: Int, end: (UnsafeBufferPointer<UInt8>) -> Int?
    ) -> StatusChange {
        if !isWhole && output.count < reach { return .needMore }
        let before = offset - start
        let taken = min(output.count, reach)
        let newEnd = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: before + taken) { text -> Int? in
            _ = text.initialize(fromContentsOf: UnsafeBufferPointer(rebasing: old[start..<offset]))
            _ = UnsafeMutableBufferPointer(rebasing: text[before...]).initialize(
                fromContentsOf: UnsafeBufferPointer(rebasing: output[..<taken]))
            return end(UnsafeBufferPointer(text))
        }
        guard let newEnd, offset < max(oldEnd, start + newEnd) else { return .none }
        return .replace(old: start..<oldEnd, newCount: newEnd, outputCount: newEnd - before)
    }
}
