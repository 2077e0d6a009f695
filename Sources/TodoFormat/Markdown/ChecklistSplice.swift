/// Writes a list into a checklist's text, changing only what changed (FORMAT.md section 6).
///
/// It works on a window of the old text that holds whole top-level items (with everything
/// nested in them) and the text between them, and gives the window's new bytes:
///
/// - the old items are aligned with the new ones (``ItemAlignment``); an item stays where it
///   was when its parent is the same and it is in order among its siblings (and, at the top,
///   in the same section): its lines stay byte for byte, or, when it changed, only its status
///   character, name and fields are rewritten (its marker and indentation stay);
/// - text that is not an item (prose, headings, code, blank lines, an item's own notes) stays
///   in order between the items that stay, and goes with the item it belongs to;
/// - a removed item's lines go with one blank separator; a moved item's lines move;
/// - a new or moved item goes after the item it follows in the list, in the style of its
///   neighbours (their marker and indentation), under the right parent, and at the top under
///   the heading of its section: before the first item of that section, after the heading, or
///   under a new heading when the file has none.
struct ChecklistSplice {
    /// An old item: where it stands and what it holds.
    struct OldItem {
        var record: ItemRecord
        var parsed: ParsedItem
        var item: TodoItem
    }

    /// The old text; it ends with a line ending.
    let bytes: UnsafeBufferPointer<UInt8>
    let lineEnding: [UInt8]
    /// The bytes the splice replaces.
    let window: Range<Int>
    /// The old items in the window, in order: whole top-level items with their nested ones;
    /// then (from `windowCount` on) items from elsewhere in the text that new items may
    /// continue (an item moved into the window, with its nested items).
    let old: [OldItem]
    private let windowCount: Int
    /// The top-level headings inside the window, in order.
    let headings: [HeadingRecord]
    /// The top-level items before and after the window, which stay (the first may end before
    /// a heading at the window's start).
    let before: OldItem?
    let after: OldItem?
    /// The section at the window's start.
    let startSection: String?
    /// The window's new items in order (children emptied) and their depths (the first 0).
    let new: [TodoItem]
    let newDepths: [Int]
    /// The old item (an index into `old`) each new item is, where the caller knows it (an
    /// editing command knows which item it removed or moved); nil: paired by content.
    let pairing: [Int?]?

    // The trees, the alignment and what is placed where.
    private var oldParent: [Int] = []
    private var oldKids: [[Int]] = []
    private var oldRoots: [Int] = []
    private var newParent: [Int] = []
    private var newKids: [[Int]] = []
    private var newRoots: [Int] = []
    private var source: [Int?] = []
    private var anchored: [Bool] = []
    private var anchoredByOld: [Int?] = []
    /// The text before each emitted new item's box, and the same with anything before its
    /// list marker blanked (what a sibling copies).
    private var emittedPrefix: [[UInt8]?] = []
    private var emittedTemplate: [[UInt8]?] = []
    private var out: [UInt8] = []
    /// The section each new top-level item reads with: its own, else (without one) the one of
    /// the item before it, as a reader sees it.
    private var sections: [String?] = []
    /// A heading the splice wrote, whose section the items after it would fall into.
    private var createdSection: String? = nil
    /// Whether the last text emitted ends an item (its own lines, or what is inside it).
    private var lastWasItem = false
    /// The block quote markers the items being emitted stand in: a blank line between them
    /// starts with them.
    private var quote: [UInt8] = []

    init(
        bytes: UnsafeBufferPointer<UInt8>, lineEnding: [UInt8], window: Range<Int>, old: [OldItem],
        headings: [HeadingRecord],
        before: OldItem?, after: OldItem?, startSection: String?, new: [TodoItem], newDepths: [Int],
        foreign: [OldItem] = [], pairing: [Int?]? = nil
    ) {
        self.bytes = bytes
        self.lineEnding = lineEnding
        self.window = window
        self.old = old + foreign
        windowCount = old.count
        self.headings = headings
        self.before = before
        self.after = after
        self.startSection = startSection
        self.new = new
        self.newDepths = newDepths
        self.pairing = pairing
    }

    /// The window's new bytes.
    mutating func run() throws(DuplicateIdentity) -> [UInt8] {
        buildTrees()
        // Items pair by their content and depth; a section is where an item stands, not what it is.
        func entry(_ item: TodoItem, _ depth: Int) -> ItemAlignment.Entry {
            var item = item
            item.section = nil
            return ItemAlignment.Entry(item, depth: depth)
        }
        var section = startSection
        sections = new.indices.map { j in
            guard newDepths[j] == 0 else { return nil }
            section = new[j].section ?? section
            return section
        }
        let oldEntries = old.map { entry($0.item, $0.record.depth) }
        let newEntries = zip(new, newDepths).map(entry)
        // Where the window's items and the new ones differ in their statuses alone (boxes
        // checked, the usual edit), in their sections too, each pairs with the one in its
        // place, as `ItemPairing` pairs such lists: the alignment pairs by content, and
        // would pair an item with another of its name and new status elsewhere (the file's
        // `a` under one heading with the list's under another, both boxes changed), moving
        // both, which wrote the first heading a second time.
        if let pairing {
            // (Items of one name and content pair by content as the first that fits: the
            // note of an item removed went under its namesake, which lost its lines: helper
            // hunt 98.)
            source = pairing
        } else if ItemPairing.differOnlyInStatus(oldEntries[..<windowCount], newEntries[...]),
            new.indices.allSatisfy({ newDepths[$0] != 0 || old[$0].item.section == sections[$0] })
        {
            source = Array(new.indices)
        } else {
            let alignment = try ItemAlignment(old: oldEntries, new: newEntries)
            source = new.indices.map { alignment.oldIndex(of: $0) }
        }
        anchorItems()
        emittedPrefix = Array(repeating: nil, count: new.count)
        emittedTemplate = Array(repeating: nil, count: new.count)
        lastWasItem = before.map { $0.record.extentEnd == window.lowerBound } ?? false
        out.reserveCapacity(window.count + 256)
        emitLevel(parent: nil, oldNode: nil, reprefix: nil)
        return out
    }

    // MARK: Trees and anchors

    private mutating func buildTrees() {
        func tree(_ depths: [Int]) -> (parent: [Int], kids: [[Int]], roots: [Int]) {
            var parent = [Int](repeating: -1, count: depths.count)
            var kids = [[Int]](repeating: [], count: depths.count)
            var roots: [Int] = []
            var stack: [Int] = []
            for (i, depth) in depths.enumerated() {
                while let top = stack.last, depths[top] >= depth { stack.removeLast() }
                if let top = stack.last {
                    parent[i] = top
                    kids[top].append(i)
                } else {
                    roots.append(i)
                }
                stack.append(i)
            }
            return (parent, kids, roots)
        }
        (oldParent, oldKids, oldRoots) = tree(old[..<windowCount].map(\.record.depth))
        // Items from elsewhere form trees of their own, whose tops have no parent here (-2).
        let foreign = tree(old[windowCount...].map(\.record.depth))
        oldParent += foreign.parent.map { $0 < 0 ? -2 : $0 + windowCount }
        oldKids += foreign.kids.map { $0.map { $0 + windowCount } }
        (newParent, newKids, newRoots) = tree(newDepths)
    }

    /// An item stays where it was when it continues an old item under the same parent, in
    /// order among the siblings that do, and at the top in the same section.
    private mutating func anchorItems() {
        anchored = Array(repeating: false, count: new.count)
        anchoredByOld = Array(repeating: nil, count: old.count)
        func anchor(_ kids: [Int], under oldNode: Int) {
            let candidates = kids.compactMap { n -> (Int, Int)? in
                guard let o = source[n], oldParent[o] == oldNode else { return nil }
                if oldNode == -1 && sections[n] != old[o].item.section { return nil }
                return (n, o)
            }
            let keep = longestIncreasingRun(candidates.map { Optional($0.1) })
            for (k, (n, o)) in candidates.enumerated() where keep[k] {
                anchored[n] = true
                anchoredByOld[o] = n
            }
        }
        anchor(newRoots, under: -1)
        for j in new.indices {
            if let o = source[j] { anchor(newKids[j], under: o) }
        }
    }

    // MARK: Emitting

    /// How the lines inside a re-indented item change: `old` at their start becomes `new`.
    private struct Reprefix {
        var old: [UInt8]
        var new: [UInt8]
    }

    /// Where new or moved items go when they do not simply follow the item before them.
    private enum Target: Equatable {
        /// Where the splice is now: after the item before, or at the window's start.
        case here
        /// Right before an old item that stays (after the text before it).
        case beforeOld(Int)
        /// After a heading and the text under it.
        case afterHeading(Int)
        /// Right before a heading.
        case beforeHeading(Int)
        /// At the end of the content.
        case end
        /// Here, under a new heading.
        case newHeading
    }

    /// Kids that wait for their place, in order; `heading` when they start a section the
    /// file has no heading for.
    private struct Group {
        var target: Target
        var kids: [Int]
        var heading = false
    }

    /// Emits the new children of `parent` (nil: the top-level items), walking the old
    /// content of `oldNode` (nil: the window), whose lines change by `reprefix`.
    private mutating func emitLevel(parent: Int?, oldNode: Int?, reprefix: Reprefix?) {
        let kids = parent.map { newKids[$0] } ?? newRoots
        var previous: Int? = nil  // the new sibling emitted last
        guard parent == nil || oldNode != nil else {
            // A new item: its children are new too, or moved in.
            for kid in kids {
                emitItem(kid, prefix: insertedPrefix(kid, previous: previous, parent: parent, hint: nil))
                previous = kid
            }
            return
        }
        let isTop = parent == nil
        let outerQuote = quote
        quote = parent.flatMap { emittedPrefix[$0] }.map(Self.quotePart) ?? []
        defer { quote = outerQuote }
        let oldChildren = oldNode.map { oldKids[$0] } ?? oldRoots
        let end = oldNode.map { old[$0].record.extentEnd } ?? window.upperBound
        var cursor = oldNode.map { headEnd($0) } ?? window.lowerBound
        let firstStaying = oldChildren.first { anchoredByOld[$0] != nil }
        // Nested, the number the level's ordered list starts at: the one its first item takes.
        let listStart = isTop ? nil : oldChildren.first.flatMap { Self.number(of: oldPrefix($0)) }

        var placed: [Group] = []
        var k = 0
        func takeRun() -> [Int] {
            var run: [Int] = []
            while k < kids.count && !anchored[kids[k]] {
                run.append(kids[k])
                k += 1
            }
            return run
        }
        func emit(_ group: Group) {
            // The first takes the style of where it goes: the item it goes before, or (as the
            // start of a list) its previous sibling's, numbered from 1.
            var hint: [UInt8]? = nil
            switch group.target {
            case .here: break
            case .beforeOld(let o): hint = reprefix.map { rebase(o, $0) } ?? template(o)
            default: hint = previous.flatMap { emittedTemplate[$0] }.map(Self.firstNumber)
            }
            if group.heading {
                emitNewHeading(sections[group.kids[0]])
            } else {
                let first = group.kids[0]
                let prefix =
                    insertedPrefix(first, previous: previous, parent: parent, hint: hint)
                    ?? source[first].map(oldPrefix)
                separateFromText(itemPrefix: prefix)
            }
            for kid in group.kids {
                if isTop, let created = createdSection, created != sections[kid] { emitNewHeading(sections[kid]) }
                let start = out.count
                emitItem(kid, prefix: insertedPrefix(kid, previous: previous, parent: parent, hint: hint))
                // First in a nested ordered list, it takes the list's first number, not the
                // number of its own line or of the item it goes before (`2.` right under the
                // parent's line would join it: helper hunt 97).
                if previous == nil, let listStart { renumber(kid, emittedAt: start, as: listStart) }
                previous = kid
                hint = nil
            }
        }
        // A run of kids after `previous` (nil: before the first that stays): each follows the
        // one before it, except where, at the top, the section changes: then where that
        // section is; and once one waits for its place, those after it follow it there.
        func placeRun(_ run: [Int]) {
            var groups: [Group] = []
            var lastSection: String?? = nil
            if isTop {
                if let previous {
                    lastSection = .some(sections[previous])
                } else if lastWasItem {
                    lastSection = .some(startSection)
                }
            }
            var from = cursor
            var waiting: Target? = nil
            for kid in run {
                if !isTop {
                    if groups.isEmpty {
                        groups.append(
                            Group(
                                target: previous == nil ? firstStaying.map { .beforeOld($0) } ?? .end : .here, kids: [])
                        )
                    }
                    groups[groups.count - 1].kids.append(kid)
                    continue
                }
                let section = sections[kid]
                if let last = lastSection, last == section, !groups.isEmpty || waiting == nil {
                    if groups.isEmpty { groups.append(Group(target: .here, kids: [])) }
                    groups[groups.count - 1].kids.append(kid)
                } else {
                    var target = sectionTarget(section, after: kid, searchFrom: from)
                    var heading = false
                    if target == .newHeading {
                        heading = true
                        target = waiting ?? .here
                    } else if target == .here {
                        target = waiting ?? .here
                    }
                    switch target {
                    case .afterHeading(let h): from = headings[h].end
                    case .beforeHeading(let h): from = headings[h].start
                    case .beforeOld(let o): from = old[o].record.lineStart
                    default: break
                    }
                    if target != .here { waiting = target }
                    groups.append(Group(target: target, kids: [kid], heading: heading))
                }
                lastSection = .some(section)
            }
            for group in groups {
                if group.target == .here {
                    emit(group)
                    ensureBlankLine(before: cursor, after: previous)
                } else {
                    placed.append(group)
                }
            }
        }
        func emitPlaced(where matches: (Target) -> Bool) {
            while let i = placed.firstIndex(where: { matches($0.target) }) {
                emit(placed.remove(at: i))
            }
        }
        // Where kids placed by a heading go inside a gap: after the heading and the text under
        // it (before the next heading), or before a heading.
        func point(of target: Target, in range: Range<Int>) -> Int? {
            switch target {
            case .afterHeading(let h) where range.contains(headings[h].start):
                let next = headings[(h + 1)...].first { range.contains($0.start) }?.start
                return next ?? range.upperBound
            case .beforeHeading(let h) where range.contains(headings[h].start):
                return headings[h].start
            default:
                return nil
            }
        }
        // The text of a gap, with the kids placed by a heading inside it.
        func emitGap(_ range: Range<Int>) {
            var position = range.lowerBound
            func nextPlaced() -> (Int, Int)? {
                placed.indices.compactMap { i in point(of: placed[i].target, in: range).map { (i, $0) } }.min {
                    $0.1 < $1.1
                }
            }
            while let (i, at) = nextPlaced() {
                if at > position {
                    if headings.contains(where: { (position..<at).contains($0.start) }) { createdSection = nil }
                    copy(position..<at, reprefix: reprefix)
                    lastWasItem = false
                }
                position = max(position, at)
                let target = placed[i].target
                emitPlaced { $0 == target }
                ensureBlankLine(before: position, after: previous)
            }
            if position < range.upperBound {
                if headings.contains(where: { (position..<range.upperBound).contains($0.start) }) {
                    createdSection = nil
                }
                copy(position..<range.upperBound, reprefix: reprefix)
                lastWasItem = false
            }
        }

        placeRun(takeRun())
        var removedBefore = false
        for (t, child) in oldChildren.enumerated() {
            let lineStart = old[child].record.lineStart
            if let n = anchoredByOld[child] {
                emitGap(cursor..<lineStart)
                let placedBefore = placed.contains { $0.target == .beforeOld(child) }
                emitPlaced { $0 == .beforeOld(child) }
                if isTop, let created = createdSection, created != sections[n] { emitNewHeading(sections[n]) }
                // An ordered item not numbered 1 cannot follow a paragraph that a removed item ended.
                // Nested, where the items before it in its list went, it takes the first one's
                // number instead (its parent's line is that paragraph; hunt 96's F7): the list
                // starts where it started, and the item's line changes only in its number.
                let renumbered =
                    removedBefore && previous == nil && !Self.startsAtOne(oldPrefix(child)) ? listStart : nil
                if removedBefore && !placedBefore && !Self.startsAtOne(oldPrefix(child)) {
                    separateFromText(itemPrefix: oldPrefix(child))
                }
                let start = out.count
                emitItem(n, prefix: reprefix.map { rebase(child, $0) })
                if let renumbered { renumber(n, emittedAt: start, as: renumbered) }
                previous = n
                if k < kids.count && kids[k] == n { k += 1 }
                cursor = old[child].record.extentEnd
                removedBefore = false
                placeRun(takeRun())
            } else {
                // Removed, or moved elsewhere: its lines go, and with them one blank separator.
                // (Blank lines before the first item of a level, where an item after it stays,
                // separate the list from the text above, its parent's line or front matter,
                // not from a sibling: they stay. Taken, they had put a nested list right under
                // its parent's line, where an item not numbered 1 joins it, and a list right
                // under its front matter. Where the list goes whole, so do they.)
                let next = t + 1 < oldChildren.count ? old[oldChildren[t + 1]].record.lineStart : end
                let gapBefore = cursor..<lineStart
                let gapAfter = old[child].record.extentEnd..<next
                let opensList =
                    previous == nil && !(isTop && before != nil)
                    && (oldChildren[(t + 1)...].contains { anchoredByOld[$0] != nil } || (isTop && after != nil))
                let dropsSeparator =
                    !gapBefore.isEmpty && isBlank(gapBefore)
                    && ((gapAfter.isEmpty && !opensList) || startsWithBlankLine(gapAfter))
                if !dropsSeparator { emitGap(gapBefore) }
                cursor = old[child].record.extentEnd
                // Text, a blank line, the item, a blank line: one blank line stays. A list's
                // first item right under the text above (or first in the file), then a blank
                // line: the next item takes its place, and the blank line goes (it had begun
                // the file, hunt 99).
                if !dropsSeparator && !gapAfter.isEmpty && isBlank(gapAfter)
                    && (Self.endsWithBlankLine(bytes[gapBefore]) || opensList)
                {
                    cursor = gapAfter.upperBound
                }
                // Text right after the item's lines (an item that ends in a code block, then a
                // paragraph) and text right before them: without the item, the two would read
                // as one paragraph, or the text as the item above's (helper hunt 101). A blank
                // line keeps them apart.
                // The blank line is in the quote the item was in (a quoted list's item between
                // quoted text and a quoted paragraph: helper hunt 102), and outside one the item
                // was not in (it had parted two quotes).
                if cursor < next, !startsWithBlankLine(cursor..<next), !isBlank(cursor..<next), joinsTextAbove(cursor) {
                    out.append(contentsOf: quote.isEmpty ? Self.quotePart(oldPrefix(child)) : quote)
                    out.append(contentsOf: lineEnding)
                    lastWasItem = false
                }
                removedBefore = true
            }
        }
        emitGap(cursor..<end)
        if !placed.isEmpty {
            emitPlaced { _ in true }
            ensureBlankLine(before: end, after: previous)
        }
        if isTop, let created = createdSection, let after, created != after.item.section {
            emitNewHeading(after.item.section)
        }
        if isTop, let after, removedBefore, placed.isEmpty,
            !Self.startsAtOne(Array(bytes[after.record.lineStart..<after.record.boxStart]))
        {
            separateFromText(itemPrefix: Array(bytes[after.record.lineStart..<after.record.boxStart]))
        }
    }

    /// Where a top-level item that starts a run of `section` goes: before the next item of
    /// that section that stays, after a heading of that section (and the text under it), at
    /// the end when the item after the window is in it, here when the window starts in it and
    /// no heading of the window comes before, else under a new heading. Without a
    /// section (no item with one is before it): before the first heading, or at the end.
    private func sectionTarget(_ section: String?, after kid: Int, searchFrom position: Int) -> Target {
        let next = newRoots.first { $0 > kid && anchored[$0] }
        let limit = next.flatMap { source[$0] }.map { old[$0].record.lineStart } ?? window.upperBound
        if let next, let o = source[next], sections[next] == section { return .beforeOld(o) }
        guard let section else {
            if let h = headings.firstIndex(where: { $0.start >= position }) { return .beforeHeading(h) }
            return .end
        }
        if let h = headings.firstIndex(where: { $0.start >= position && $0.end <= limit && $0.text == section }) {
            return .afterHeading(h)
        }
        if next == nil, let after, after.item.section == section { return .end }
        // Still in the section the window starts in (the window may start after its
        // heading, where the text before it is the same on both sides): here, not under a
        // second heading of that name.
        if section == startSection && !headings.contains(where: { $0.start < position }) { return .here }
        return .newHeading
    }

    // MARK: Items

    /// Emits new item `j`: its own lines with `prefix` before its box (nil: as they are, for
    /// an item that stays), then what is inside it.
    private mutating func emitItem(_ j: Int, prefix: [UInt8]?) {
        let item = new[j]
        guard let o = source[j] else {
            let prefix = prefix ?? [UInt8(ascii: "-"), 32]
            emittedPrefix[j] = prefix
            emittedTemplate[j] = prefix
            render(item, prefix: prefix)
            lastWasItem = true
            emitLevel(parent: j, oldNode: nil, reprefix: nil)
            lastWasItem = true
            return
        }
        let record = old[o].record
        let ownPrefix = oldPrefix(o)
        let oldItem = old[o].item
        let sameContent =
            oldItem.status == item.status && oldItem.fields == item.fields
            && oldItem.nameStorage.utf8.elementsEqual(item.nameStorage.utf8)
        var reprefix: Reprefix? = nil
        if prefix == nil || prefix! == ownPrefix {
            emittedPrefix[j] = ownPrefix
            emittedTemplate[j] = template(o)
            if sameContent {
                copy(record.lineStart..<headEnd(o), reprefix: nil)
            } else {
                let (range, replacement) = TodoDocument.rewrite(
                    old[o].parsed, from: oldItem, as: item, lineEnding: String(decoding: lineEnding, as: UTF8.self),
                    in: bytes)
                copy(record.lineStart..<range.lowerBound, reprefix: nil)
                out.append(contentsOf: replacement)
                copy(range.upperBound..<headEnd(o), reprefix: nil)
            }
        } else {
            emittedPrefix[j] = prefix!
            emittedTemplate[j] = prefix!
            render(item, prefix: prefix!)
            reprefix = Reprefix(old: LinePrefix.blanked(ownPrefix), new: LinePrefix.blanked(prefix!))
        }
        lastWasItem = true
        emitLevel(parent: j, oldNode: o, reprefix: reprefix)
        lastWasItem = true
    }

    /// An old item's text before its box with anything before its list marker blanked: the
    /// prefix a new sibling takes after it.
    private func template(_ o: Int) -> [UInt8] {
        let record = old[o].record
        return LinePrefix.blanked(bytes[record.lineStart..<record.markerStart])
            + Array(bytes[record.markerStart..<record.boxStart])
    }

    /// An item's own lines: `prefix`, its box, its name and fields.
    private mutating func render(_ item: TodoItem, prefix: [UInt8]) {
        out.append(contentsOf: prefix)
        out.append(UInt8(ascii: "["))
        out.append(contentsOf: String(item.status.marker).utf8)
        out.append(contentsOf: "] ".utf8)
        let continuation = String(decoding: LinePrefix.blanked(prefix), as: UTF8.self)
        out.append(
            contentsOf: FieldSyntax.render(
                name: item.nameStorage, fields: item.fields, continuation: continuation,
                lineEnding: String(decoding: lineEnding, as: UTF8.self)
            ).utf8)
        out.append(contentsOf: lineEnding)
    }

    /// A heading for `section`, at the level of the window's
    /// headings (else 1), after a blank line.
    private mutating func emitNewHeading(_ section: String?) {
        guard let section else { return }
        let level = headings.first?.level ?? 1
        let blankBefore =
            out.isEmpty
            ? window.lowerBound == 0 || Self.endsWithBlankLine(bytes[..<window.lowerBound])
            : Self.endsWithBlankLine(out[...])
        if !blankBefore { out.append(contentsOf: lineEnding) }
        out.append(contentsOf: Array(repeating: UInt8(ascii: "#"), count: level))
        out.append(32)
        out.append(contentsOf: section.onOneLine.utf8)
        out.append(contentsOf: lineEnding)
        createdSection = section
        lastWasItem = false
    }

    /// The text before the box of a new or moved item: like its previous sibling (a number one
    /// more), else (at the top) the item before the window, else its next sibling that stays,
    /// else inside its parent (a bullet like the parent's, else `-`), else like the item after
    /// the window, else `- `.
    private func insertedPrefix(_ kid: Int, previous: Int?, parent: Int?, hint: [UInt8]?) -> [UInt8]? {
        // A moved item keeps its own marker and indentation where they still fit: under the
        // same parent (whose lines stay), or at the top when nothing but quotes is before its marker.
        if let o = source[kid] {
            let sameParent =
                parent.map { p in
                    source[p] == oldParent[o] && source[p].map { emittedPrefix[p] == oldPrefix($0) } == true
                }
                ?? (oldParent[o] == -1 || (oldParent[o] == -2 && old[o].record.depth == 0))
            let record = old[o].record
            let lead = bytes[record.lineStart..<record.markerStart]
            let quoteOnly =
                parent != nil
                || lead.drop { $0 == 0xEF || $0 == 0xBB || $0 == 0xBF }.allSatisfy {
                    $0 == UInt8(ascii: ">") || $0 == 32
                } && lead.first != 32
            if sameParent && quoteOnly { return nil }
        }
        if let hint { return hint }
        if let previous, let prefix = emittedTemplate[previous] { return Self.nextNumber(prefix) }
        if parent == nil, let before {
            let record = before.record
            return Self.nextNumber(
                LinePrefix.blanked(bytes[record.lineStart..<record.markerStart])
                    + Array(bytes[record.markerStart..<record.boxStart]))
        }
        let siblings = parent.map { newKids[$0] } ?? newRoots
        if let next = siblings.first(where: { $0 > kid && anchored[$0] }), let o = source[next] {
            if let parent, let p = source[parent], let parentPrefix = emittedPrefix[parent],
                parentPrefix != oldPrefix(p)
            {
                return rebase(o, Reprefix(old: LinePrefix.blanked(oldPrefix(p)), new: LinePrefix.blanked(parentPrefix)))
            }
            return template(o)
        }
        if let parent, let parentPrefix = emittedPrefix[parent] {
            var prefix = LinePrefix.blanked(parentPrefix)
            let marker = Self.markerByte(of: parentPrefix)
            let bullets: [UInt8] = [UInt8(ascii: "-"), UInt8(ascii: "*"), UInt8(ascii: "+")]
            prefix.append(marker.flatMap { bullets.contains($0) ? $0 : nil } ?? UInt8(ascii: "-"))
            prefix.append(32)
            return prefix
        }
        if let after {
            let record = after.record
            return LinePrefix.blanked(bytes[record.lineStart..<record.markerStart])
                + Array(bytes[record.markerStart..<record.boxStart])
        }
        return [UInt8(ascii: "-"), 32]
    }

    /// The bullet or delimiter byte of a prefix's list marker (the last one before the spaces).
    private static func markerByte(of prefix: [UInt8]) -> UInt8? {
        var i = prefix.count
        while i > 0 && (prefix[i - 1] == 32 || prefix[i - 1] == 9) { i -= 1 }
        return i > 0 ? prefix[i - 1] : nil
    }

    /// Whether a prefix's marker is a bullet or an ordered marker numbered 1 (which may follow a paragraph).
    static func startsAtOne(_ prefix: [UInt8]) -> Bool {
        number(of: prefix).map { Int(String(decoding: $0, as: UTF8.self)) == 1 } ?? true
    }

    /// The digits of a prefix's ordered marker (`12` of `  12. `); nil for a bullet.
    static func number(of prefix: [UInt8]) -> ArraySlice<UInt8>? {
        var i = prefix.count
        while i > 0 && (prefix[i - 1] == 32 || prefix[i - 1] == 9) { i -= 1 }
        guard i > 1, prefix[i - 1] == UInt8(ascii: ".") || prefix[i - 1] == UInt8(ascii: ")") else { return nil }
        var start = i - 1
        while start > 0 && prefix[start - 1] >= 48 && prefix[start - 1] <= 57 { start -= 1 }
        return start < i - 1 ? prefix[start..<(i - 1)] : nil
    }

    /// A prefix with `digits` for its ordered marker's number; a bullet's stays.
    static func numbered(_ prefix: [UInt8], _ digits: ArraySlice<UInt8>) -> [UInt8] {
        guard let number = number(of: prefix) else { return prefix }
        var prefix = prefix
        prefix.replaceSubrange(number.indices, with: digits)
        return prefix
    }

    /// A prefix whose ordered marker counts from 1 (`1.`), for a list of its own.
    static func firstNumber(_ prefix: [UInt8]) -> [UInt8] { numbered(prefix, [UInt8(ascii: "1")]) }

    /// A prefix whose ordered marker (`3.`) counts one more (`4.`); bullets stay.
    static func nextNumber(_ prefix: [UInt8]) -> [UInt8] {
        let prefix = ByteOrderMark.length(in: prefix) > 0 ? Array(prefix.dropFirst(3)) : prefix
        guard let digits = number(of: prefix), let value = Int(String(decoding: digits, as: UTF8.self)),
            value < 999_999_999
        else { return prefix }
        return numbered(prefix, ArraySlice(String(value + 1).utf8))
    }

    /// Gives new item `j`, whose first line was emitted at `start`, the ordered marker
    /// number `digits` in place of its own (in the output and in what its new siblings copy).
    private mutating func renumber(_ j: Int, emittedAt start: Int, as digits: ArraySlice<UInt8>) {
        // (Never wider: the lines under it are indented for its own number's width.)
        guard let prefix = emittedPrefix[j], let own = Self.number(of: prefix), digits.count <= own.count,
            out[start..<min(out.count, start + prefix.count)].elementsEqual(prefix)
        else { return }
        out.replaceSubrange((start + own.startIndex)..<(start + own.endIndex), with: digits)
        emittedPrefix[j] = Self.numbered(prefix, digits)
        emittedTemplate[j] = emittedTemplate[j].map { Self.numbered($0, digits) }
    }

    /// An old item's text before its box.
    private func oldPrefix(_ o: Int) -> [UInt8] {
        let record = old[o].record
        return Array(bytes[record.lineStart..<record.boxStart])
    }

    /// An old item's text before its box, inside a parent whose lines change by `reprefix`:
    /// the parent's old prefix at its start becomes the new one, else its marker follows the
    /// new one.
    private func rebase(_ o: Int, _ reprefix: Reprefix) -> [UInt8] {
        let prefix = oldPrefix(o)
        guard prefix.starts(with: reprefix.old) else {
            let record = old[o].record
            return reprefix.new + Array(bytes[record.markerStart..<record.boxStart])
        }
        return reprefix.new + prefix.dropFirst(reprefix.old.count)
    }

    /// Just past the line ending of an old item's last name line.
    private func headEnd(_ o: Int) -> Int {
        var i = old[o].record.nameEndOffset
        while i < bytes.count && bytes[i] != 10 { i += 1 }
        return min(i + 1, bytes.count)
    }

    // MARK: Text

    /// Copies old text; with `reprefix`, each line that starts with its old prefix gets the new one.
    private mutating func copy(_ range: Range<Int>, reprefix: Reprefix?) {
        guard !range.isEmpty else { return }
        guard let reprefix else {
            out.append(contentsOf: bytes[range])
            return
        }
        var start = range.lowerBound
        while start < range.upperBound {
            var end = start
            while end < range.upperBound && bytes[end] != 10 { end += 1 }
            if end < range.upperBound { end += 1 }
            let line = bytes[start..<end]
            let oldQuote = Self.quotePart(reprefix.old)
            let newQuote = Self.quotePart(reprefix.new)
            if isBlank(start..<end) {
                // A blank line inside a quote stays inside it.
                if newQuote != oldQuote { out.append(contentsOf: newQuote) }
                out.append(contentsOf: line)
            } else if line.starts(with: reprefix.old) {
                out.append(contentsOf: reprefix.new)
                out.append(contentsOf: line.dropFirst(reprefix.old.count))
            } else if !oldQuote.isEmpty && line.starts(with: oldQuote) {
                out.append(contentsOf: newQuote)
                out.append(contentsOf: line.dropFirst(oldQuote.count))
            } else {
                out.append(contentsOf: newQuote)
                out.append(contentsOf: line)
            }
            start = end
        }
    }

    /// The block quote markers at the start of a prefix (`> > `), without what follows the last.
    private static func quotePart(_ prefix: [UInt8]) -> [UInt8] {
        guard let last = prefix.lastIndex(of: UInt8(ascii: ">")) else { return [] }
        return Array(prefix[...last])
    }

    private func isBlank(_ range: Range<Int>) -> Bool {
        bytes[range].allSatisfy { $0 == 32 || $0 == 9 || $0 == 10 || $0 == 13 }
    }

    private func startsWithBlankLine(_ range: Range<Int>) -> Bool {
        var i = range.lowerBound
        while i < range.upperBound && (bytes[i] == 32 || bytes[i] == 9 || bytes[i] == 13) { i += 1 }
        return i < range.upperBound && bytes[i] == 10
    }

    private func containsHeading(_ range: Range<Int>) -> Bool {
        headings.contains { range.contains($0.start) }
    }

    /// Whether text ends with a blank line (or is empty up to its last line ending).
    private static func endsWithBlankLine<C: BidirectionalCollection>(_ bytes: C) -> Bool where C.Element == UInt8 {
        var i = bytes.endIndex
        guard i > bytes.startIndex, bytes[bytes.index(before: i)] == 10 else { return false }
        i = bytes.index(before: i)
        while i > bytes.startIndex, case let b = bytes[bytes.index(before: i)], b == 32 || b == 9 || b == 13 {
            i = bytes.index(before: i)
        }
        return i == bytes.startIndex || bytes[bytes.index(before: i)] == 10
    }

    /// Before new items that follow text rather than an item: a blank line after text that is
    /// not a heading, so that the items read as a list of their own and never as part of a
    /// paragraph.
    private mutating func separateFromText(itemPrefix: [UInt8]? = nil) {
        guard !lastWasItem else { return }
        let line = lineAbove()
        guard let line, let first = line.first(where: { $0 != 32 && $0 != 9 }), first != 10, first != 13,
            !Self.isHeading(line.drop { $0 == 32 || $0 == 9 })
        else { return }
        // A setext underline or a thematic break ends what is above it.
        if line.allSatisfy({ [32, 9, 10, 13, first].contains($0) })
            && (first == UInt8(ascii: "=") || first == UInt8(ascii: "-"))
        {
            return
        }
        // Under a list item's own line (`- foo`, a plain item whose nested list holds the
        // items), items that can start a list there (a bullet, or numbered 1) go right under
        // it: a blank line would make that whole list loose (helper hunt 102).
        if let itemPrefix, Self.startsAtOne(itemPrefix) {
            let text = Self.content(of: line)
            if let marker = text.first,
                [UInt8(ascii: "-"), UInt8(ascii: "*"), UInt8(ascii: "+")].contains(marker)
                    || (48...57).contains(marker),
                Self.startsBlock(text)
            {
                return
            }
        }
        // Where, after the same text, a list item stood right under it (a bullet or the
        // number 1 may start a list under a paragraph), items that can start a list there go
        // right under it too: the file had no blank line there (`mv 2 1` and `add --at 1` put
        // one in). Written so far is the window's text as it was, up to that item's line.
        let here = window.lowerBound + out.count
        if let itemPrefix, Self.startsAtOne(itemPrefix), here < bytes.count, startsListUnderText(at: here),
            out.elementsEqual(bytes[window.lowerBound..<here])
        {
            return
        }
        // Inside a quote, the blank line is a quote's (`>`): a line without it would end the
        // quote, and the items after it make a second one (helper hunt 100). Its markers are
        // those of the items that follow (`itemPrefix`, where known), else of the line above
        // (which may be a quote's lazy line without them: helper hunt 101).
        let markers = itemPrefix.map(Self.quotePart) ?? Self.leadingQuote(of: line)
        out.append(contentsOf: quote.isEmpty ? markers : quote)
        out.append(contentsOf: lineEnding)
        lastWasItem = false
    }

    /// Whether a line at `position` is a list item's that may start a list under a paragraph
    /// (a bullet's, or one numbered 1), right under a line of text.
    private func startsListUnderText(at position: Int) -> Bool {
        guard position > 0, position < bytes.count, bytes[position - 1] == 10 else { return false }
        func line(_ range: Range<Int>) -> ArraySlice<UInt8> { Self.content(of: Array(bytes[range])) }
        var end = position
        while end < bytes.count && bytes[end] != 10 { end += 1 }
        var start = position - 1
        while start > 0 && bytes[start - 1] != 10 { start -= 1 }
        let text = line(position..<end)
        // The marker: a bullet alone (`--` or `**` starts a thematic break), or a number.
        let marker = Array(text.prefix { $0 != 32 && $0 != 9 })
        let isBullet =
            marker.count == 1 && [UInt8(ascii: "-"), UInt8(ascii: "*"), UInt8(ascii: "+")].contains(marker[0])
        guard line(start..<(position - 1)).contains(where: { $0 != 32 && $0 != 9 && $0 != 13 }),
            Self.startsBlock(text), isBullet || Self.number(of: marker) != nil
        else { return false }
        return Self.startsAtOne(marker)
    }

    /// The last line written (or before the window, where nothing is yet), with its ending;
    /// nil where there is none, or it ends no line.
    private func lineAbove() -> [UInt8]? {
        func lastLine<C: BidirectionalCollection>(_ text: C) -> [UInt8]? where C.Element == UInt8 {
            guard let last = text.last, last == 10 else { return nil }
            var i = text.index(before: text.endIndex)
            while i > text.startIndex && text[text.index(before: i)] != 10 { i = text.index(before: i) }
            return Array(text[i...])
        }
        return out.isEmpty ? lastLine(bytes[..<window.lowerBound]) : lastLine(out)
    }

    /// Whether the line at `position` would go on the paragraph of the line written last:
    /// that line is text (not a heading, a fence or a thematic break), and this one starts no
    /// block and opens no deeper quote. (A guess from two lines: where it errs, a blank line
    /// more separates two blocks.)
    private func joinsTextAbove(_ position: Int) -> Bool {
        guard let above = lineAbove() else { return false }
        var end = position
        while end < bytes.count && bytes[end] != 10 { end += 1 }
        let below = Array(bytes[position..<end])
        func depth(_ line: [UInt8]) -> Int { Self.leadingQuote(of: line).count { $0 == UInt8(ascii: ">") } }
        guard depth(below) <= depth(above) else { return false }
        let aboveText = Self.content(of: above)
        let belowText = Self.content(of: below)
        guard let a = aboveText.first, a != 10, a != 13, !Self.isHeading(aboveText),
            !aboveText.starts(with: "```".utf8), !aboveText.starts(with: "~~~".utf8),
            let b = belowText.first, b != 10, b != 13
        else { return false }
        let thematicBreak =
            (a == UInt8(ascii: "-") || a == UInt8(ascii: "*") || a == UInt8(ascii: "_"))
            && aboveText.allSatisfy { [a, 32, 9, 10, 13].contains($0) }
        guard !thematicBreak else { return false }
        // Under a paragraph, `---` or `===` makes it a heading; an ordered item not numbered 1
        // and HTML of any tag cannot start a block there (helper hunt 102): all join it.
        if (b == UInt8(ascii: "-") || b == UInt8(ascii: "="))
            && belowText.allSatisfy({ [b, 32, 9, 10, 13].contains($0) })
        {
            return true
        }
        if b == UInt8(ascii: "<") { return true }
        if (48...57).contains(b) {
            // (The marker as a prefix: its digits and the `.` or `)` after them.)
            let marker = Array(belowText.prefix(belowText.prefix { (48...57).contains($0) }.count + 1))
            return !Self.startsAtOne(marker) || !Self.startsBlock(belowText)
        }
        return !Self.startsBlock(belowText)
    }

    /// A line's text after its quote markers and indentation.
    private static func content(of line: [UInt8]) -> ArraySlice<UInt8> {
        line[leadingQuote(of: line).count...].drop { $0 == 32 || $0 == 9 }
    }

    /// `startsBlock(_:at:)` of a line's text from its start.
    private static func startsBlock(_ text: ArraySlice<UInt8>) -> Bool {
        Array(text).withUnsafeBufferPointer { startsBlock($0, at: 0) }
    }

    /// The block quote markers that start `line` (`> > `), up to the last `>`; none when it
    /// is not quoted.
    static func leadingQuote(of line: [UInt8]) -> [UInt8] {
        var i = 0
        var end = 0
        while true {
            var j = i
            while j < line.count && j - i < 3 && line[j] == 32 { j += 1 }
            guard j < line.count, line[j] == UInt8(ascii: ">") else { break }
            end = j + 1
            i = end < line.count && line[end] == 32 ? end + 1 : end
        }
        return Array(line[..<end])
    }

    /// After new lines ending with item `j`, text at `position` that would join the item (plain
    /// text it would take as a lazy continuation line, or text indented past its marker) gets
    /// a blank line between.
    private mutating func ensureBlankLine(before position: Int, after j: Int?) {
        guard let j, let prefix = emittedPrefix[j], position < bytes.count else { return }
        if position == window.upperBound && after != nil { return }
        var i = position
        var column = 0
        while i < bytes.count && (bytes[i] == 32 || bytes[i] == 9) {
            column = bytes[i] == 9 ? column + 4 - column % 4 : column + 1
            i += 1
        }
        guard i < bytes.count, bytes[i] != 10, bytes[i] != 13 else { return }
        var contentColumn = 0
        for b in LinePrefix.blanked(prefix) {
            contentColumn = b == 9 ? contentColumn + 4 - contentColumn % 4 : contentColumn + 1
        }
        if column < contentColumn && (Self.startsBlock(bytes, at: i) || startsOldItem(at: position)) { return }
        out.append(contentsOf: quote)
        out.append(contentsOf: lineEnding)
        lastWasItem = false
    }

    /// Whether an old item's line starts at `position`.
    private func startsOldItem(at position: Int) -> Bool {
        var low = 0
        var high = windowCount
        while low < high {
            let mid = (low + high) / 2
            if old[mid].record.lineStart < position { low = mid + 1 } else { high = mid }
        }
        return low < windowCount && old[low].record.lineStart == position
    }

    /// Whether text (after indentation) is an ATX heading's: one to six `#`, then a space, a
    /// tab or the line's end. `#hashtag` is a paragraph's text, which was taken for a heading:
    /// no blank line parted new items from it, and the write was refused (helper hunt 107).
    static func isHeading<C: Collection<UInt8>>(_ text: C) -> Bool {
        let hashes = text.prefix { $0 == UInt8(ascii: "#") }.count
        guard hashes >= 1 && hashes <= 6 else { return false }
        let next = text.dropFirst(hashes).first
        return next == nil || next == 32 || next == 9 || next == 10 || next == 13
    }

    /// Whether the text at `i` (after indentation) starts a block that ends a paragraph before
    /// it: a list marker with text, a heading, a fence, a quote, HTML, a thematic break.
    private static func startsBlock(_ bytes: UnsafeBufferPointer<UInt8>, at i: Int) -> Bool {
        func at(_ k: Int) -> UInt8 { k < bytes.count ? bytes[k] : 10 }
        let c = at(i)
        switch c {
        case UInt8(ascii: "-"), UInt8(ascii: "+"), UInt8(ascii: "*"):
            return at(i + 1) == 32 || at(i + 1) == 9 || (c != UInt8(ascii: "+") && at(i + 1) == c)
        case UInt8(ascii: "#"):
            return isHeading(bytes[i...])
        case UInt8(ascii: "`"), UInt8(ascii: "~"), UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "_"):
            return true
        case UInt8(ascii: "0")...UInt8(ascii: "9"):
            var k = i
            while at(k) >= 48 && at(k) <= 57 { k += 1 }
            return (at(k) == UInt8(ascii: ".") || at(k) == UInt8(ascii: ")")) && (at(k + 1) == 32 || at(k + 1) == 9)
        default:
            return false
        }
    }
}
