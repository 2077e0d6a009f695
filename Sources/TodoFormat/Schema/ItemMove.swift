/// A top-level item moved from place `from` to place `to` (both from 0) among a list's
/// top-level items (`ListFormat.moveItem`): which old item each place of the list as
/// written holds, for the formats that move an item's bytes without reading the others.
struct ItemMove {
    let from: Int
    let to: Int

    /// The places whose item changes; every other place keeps its own.
    var span: ClosedRange<Int> { min(from, to)...max(from, to) }

    /// The old place of the item at place `i` of the list as written.
    func origin(_ i: Int) -> Int {
        !span.contains(i) ? i : i == to ? from : from < to ? i + 1 : i - 1
    }

    /// The old places of the moved item's new neighbours, before and after it, in a list of
    /// `count` items.
    func neighbours(count: Int) -> (before: Int?, after: Int?) {
        (to > 0 ? origin(to - 1) : nil, to + 1 < count ? origin(to + 1) : nil)
    }
}
