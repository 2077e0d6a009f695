/// Which elements form a longest strictly increasing run of the present values (patience
/// sorting, O(n log n)); nil elements are never part of it: the values order renumbering
/// keeps.
func longestIncreasingRun<S: Sequence, T: Comparable>(_ values: S) -> [Bool] where S.Element == T? {
    let values = Array(values)
    var tails: [Int] = []
    var previous = [Int](repeating: -1, count: values.count)
    for (i, value) in values.enumerated() {
        guard let v = value else { continue }
        var lo = 0
        var hi = tails.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if values[tails[mid]]! < v { lo = mid + 1 } else { hi = mid }
        }
        if lo > 0 { previous[i] = tails[lo - 1] }
        if lo == tails.count { tails.append(i) } else { tails[lo] = i }
    }
    var keep = [Bool](repeating: false, count: values.count)
    var k = tails.last ?? -1
    while k >= 0 {
        keep[k] = true
        k = previous[k]
    }
    return keep
}
