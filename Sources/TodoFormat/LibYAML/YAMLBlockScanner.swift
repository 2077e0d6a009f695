#if YAML
/// `YAMLParser`'s fast path: the events libyaml gives, with libyaml's marks, for the block
/// YAML todofmt writes and most hand-written lists keep to; nil at the first thing outside
/// it, and the parser hands over to libyaml (which reads from the start and skips the
/// events already given, so a file is read the same either way).
///
/// Why our own: libyaml is a general parser. It moves every character through its reader
/// buffer, allocates each token and each event and copies its text twice; on a 94 MB list
/// that is 1.3 s of one core before todofmt sees an item, more than the whole goal for
/// reading it (issue 11). This reads the same text in place, line by line.
///
/// What it reads (anything else gives over to libyaml):
/// - lines indented with spaces, ending in LF or CR LF;
/// - `---` alone on a line, starting a document;
/// - block sequences (`- `, indentless under a key too) and block mappings whose keys are
///   plain words (`[A-Za-z0-9_]` then also `-./`, under 1,000 bytes);
/// - values on one line: plain scalars (no `: `, no ` #`, not starting with an indicator),
///   single- and double-quoted scalars (the escapes libyaml reads), `[]` and `{}`.
/// Comments, tabs, anchors, tags, aliases, multi-line scalars, other flow collections,
/// directives, `...`, characters outside YAML's printable set, and the characters libyaml
/// takes as line breaks or a byte order mark (U+0085, U+2028, U+2029, U+FEFF) are libyaml's.
/// `YAMLBlockScannerTests` checks every event against libyaml's.
struct YAMLBlockScanner {
    private let base: UnsafePointer<UInt8>
    private let count: Int
    private let lineOffset: Int
    /// The bytes before `base` in the parser's input (a byte order mark), for events' byte offsets.
    private let byteOrderMark: Int
    /// Where the next line starts, its number from 0 and the characters before it.
    private var lineStart = 0
    private var lineNumber = 0
    private var charactersBefore = 0
    private enum Kind { case mapping, sequence, indentless }
    /// The block collections open, innermost last, with their columns.
    private var open: [(column: Int, kind: Kind)] = []
    private enum Expecting: Equatable {
        case nothing
        /// A document's root node (after its start).
        case root
        /// The node after `key:` or `-` at the end of a line: on a later line indented past
        /// `indent`, else empty (libyaml's empty scalar, marked where the indicator ends).
        case node(indent: Int, afterKey: Bool, empty: Mark)
    }
    private var expecting = Expecting.nothing
    private var started = false
    private var inDocument = false
    private var ended = false
    /// An event as the scanner keeps it until it is given: plain values only (a scalar's
    /// text as a range of the input or of `scratch`), so that keeping it copies no string.
    private enum Token {
        case streamStart, streamEnd, documentStart, documentEnd
        case sequenceStart, sequenceEnd, mappingStart, mappingEnd
        case scalar(YAMLScalarStyle, text: Range<Int>, inScratch: Bool)
    }
    /// A kept event: where it starts, its width in bytes and the continuation bytes in it.
    private struct Pending {
        var token: Token
        var mark: Mark
        var width: Int
        var extra: Int
        var isFlow: Bool
    }
    /// The events of the line read, `queued` of them, `head` of those given; the array's
    /// slots are written over, not emptied. `scratch` holds the line's unescaped texts.
    private var queue: [Pending] = []
    private var scratch: [UInt8] = []
    private var queued = 0
    private var head = 0

    /// `bytes` start after any byte order mark (`byteOrderMark` bytes long), as libyaml's
    /// input does; lines are reported `lineOffset` further down.
    init(_ bytes: UnsafeBufferPointer<UInt8>, byteOrderMark: Int, lineOffset: Int) {
        self.byteOrderMark = byteOrderMark
        base = bytes.baseAddress ?? UnsafePointer(bitPattern: 1)!
        count = bytes.count
        self.lineOffset = lineOffset
        queue.reserveCapacity(16)
    }

    /// The next event, or nil where the text leaves what this reads.
    mutating func next() -> YAMLEvent? {
        if head == queued {
            queued = 0
            head = 0
            scratch.removeAll(keepingCapacity: true)
            // A line may give no event (`-` alone, for one): read on to one that does.
            while queued == 0 {
                guard !ended, fill() else { return nil }
            }
        }
        let pending = queue[head]
        head += 1
        return event(pending)
    }

    // MARK: Lines

    /// The events of the next line that has a token (or of the end); false to give over.
    private mutating func fill() -> Bool {
        if !started {
            started = true
            emit(.streamStart, at: Mark(line: 0, column: 0, index: 0, byte: 0))
            return true
        }
        while true {
            var p = lineStart
            while p < count && base[p] == 32 { p += 1 }
            if p == count { return finish() }
            switch base[p] {
            case 10: advance(to: p + 1)
            case 13:
                guard p + 1 < count && base[p + 1] == 10 else { return false }
                advance(to: p + 2)
            default: return line(at: p)
            }
        }
    }

    /// Moves to the line starting at `start`; the line before holds no character beyond ASCII
    /// but those `extra` continuation bytes.
    private mutating func advance(to start: Int, continuationBytes extra: Int = 0) {
        charactersBefore += start - lineStart - extra
        lineStart = start
        lineNumber += 1
    }

    /// A line whose first token is at `p`.
    private mutating func line(at p: Int) -> Bool {
        let column = p - lineStart
        let mark = self.mark(at: p)
        let b = base[p]
        if column == 0 && b == UInt8(ascii: "-") && p + 3 <= count && base[p + 1] == b && base[p + 2] == b {
            // `---`, alone on its line: the end of a document and the start of the next.
            guard let next = lineEnd(after: spaces(from: p + 3)) else { return false }
            closeNode(at: mark)
            closeAll(at: mark)
            if inDocument { emit(.documentEnd, at: mark) }
            emit(.documentStart, at: mark, width: 3)
            inDocument = true
            expecting = .root
            advance(to: next)
            return true
        }
        let isEntry = b == UInt8(ascii: "-") && isBlank(p + 1)
        let keyEnd = isEntry ? nil : self.keyEnd(from: p)
        guard isEntry || keyEnd != nil else { return false }
        if !inDocument {
            emit(.documentStart, at: mark)
            inDocument = true
            expecting = .root
        }
        switch expecting {
        case .root:
            openCollection(isEntry ? .sequence : .mapping, at: mark)
        case .node(let indent, _, _) where column > indent:
            openCollection(isEntry ? .sequence : .mapping, at: mark)
        case .node(let indent, true, _) where column == indent && isEntry:
            open.append((column, .indentless))
            emit(.sequenceStart, at: mark, width: 1)
        case .node, .nothing:
            closeNode(at: mark)
            while let top = open.last, top.column > column || (top.kind == .indentless && !isEntry) {
                close(at: mark)
            }
            guard let top = open.last, top.column == column, isEntry == (top.kind != .mapping) else {
                return false
            }
        }
        expecting = .nothing
        return isEntry ? entry(at: p, column: column) : keyValue(at: p, keyEnd: keyEnd!, column: column)
    }

    /// A sequence entry whose dash is at `p`.
    private mutating func entry(at p: Int, column: Int) -> Bool {
        let q = spaces(from: p + 1)
        if let next = lineEnd(after: q) {
            expecting = .node(indent: column, afterKey: false, empty: mark(at: p + 1))
            advance(to: next)
            return true
        }
        if let keyEnd = keyEnd(from: q) {
            // A mapping starting on the dash's line.
            openCollection(.mapping, at: mark(at: q))
            return keyValue(at: q, keyEnd: keyEnd, column: q - lineStart)
        }
        return value(at: q, indent: column)
    }

    /// A key (from `p` to its colon at `keyEnd`) and its value, in the mapping at `column`.
    private mutating func keyValue(at p: Int, keyEnd: Int, column: Int) -> Bool {
        emit(.scalar(.plain, text: p..<keyEnd, inScratch: false), at: mark(at: p), width: keyEnd - p)
        let q = spaces(from: keyEnd + 1)
        if let next = lineEnd(after: q) {
            expecting = .node(indent: column, afterKey: true, empty: mark(at: keyEnd + 1))
            advance(to: next)
            return true
        }
        return value(at: q, indent: column)
    }

    /// A value on its line from `p` (after `key: ` or `- `), a node of the collection whose
    /// column is `indent`; the line ends after it.
    private mutating func value(at p: Int, indent: Int) -> Bool {
        let mark = self.mark(at: p)
        switch base[p] {
        case UInt8(ascii: "\""), UInt8(ascii: "'"):
            guard let (text, inScratch, end, extra) = quoted(from: p), let next = lineEnd(after: spaces(from: end))
            else {
                return false
            }
            let style: YAMLScalarStyle = base[p] == UInt8(ascii: "'") ? .singleQuoted : .doubleQuoted
            emit(.scalar(style, text: text, inScratch: inScratch), at: mark, width: end - p, extra: extra)
            advance(to: next, continuationBytes: extra)
            return true
        case UInt8(ascii: "["), UInt8(ascii: "{"):
            let isSequence = base[p] == UInt8(ascii: "[")
            guard p + 1 < count, base[p + 1] == (isSequence ? UInt8(ascii: "]") : UInt8(ascii: "}")),
                let next = lineEnd(after: spaces(from: p + 2))
            else { return false }
            emit(isSequence ? .sequenceStart : .mappingStart, at: mark, width: 1, isFlow: true)
            emit(isSequence ? .sequenceEnd : .mappingEnd, at: self.mark(at: p + 1), width: 1)
            advance(to: next)
            return true
        default:
            guard let (end, extra, next) = plain(from: p), continuesNot(from: next, indent: indent) else {
                return false
            }
            emit(.scalar(.plain, text: p..<end, inScratch: false), at: mark, width: end - p, extra: extra)
            advance(to: next, continuationBytes: extra)
            return true
        }
    }

    /// The end of the text: an empty node, then the open collections and the document close
    /// at a mark on the line after the last, where libyaml moves when the text has no final
    /// break; collections right of where the text ends close at that end first.
    private mutating func finish() -> Bool {
        let total = charactersBefore + count - lineStart
        var breaks = lineNumber
        if count > 0 && base[count - 1] != 10 {
            var start = count
            while start > 0 && base[start - 1] != 10 { start -= 1 }
            var column = 0
            for i in start..<count where base[i] & 0xC0 != 0x80 { column += 1 }
            if lineStart == count { breaks -= 1 }
            let end = Mark(line: breaks, column: column, index: total, byte: count)
            if case .node = expecting { closeNode(at: end) }
            while let top = open.last, top.column > column { close(at: end) }
            breaks += 1
        }
        let mark = Mark(line: breaks, column: 0, index: total, byte: count)
        closeNode(at: mark)
        closeAll(at: mark)
        if inDocument { emit(.documentEnd, at: mark) }
        emit(.streamEnd, at: mark)
        ended = true
        return true
    }

    // MARK: Structure

    private struct Mark: Equatable {
        var line: Int
        var column: Int
        /// Characters before it, as libyaml counts them.
        var index: Int
        var byte: Int
    }

    /// A node expected and not given: libyaml's empty plain scalar, at the end of the key's
    /// colon or the dash, or at the next token for a document's root.
    private mutating func closeNode(at next: Mark) {
        let empty = Token.scalar(.plain, text: 0..<0, inScratch: false)
        switch expecting {
        case .nothing: return
        case .root: emit(empty, at: next)
        case .node(_, _, let mark): emit(empty, at: mark)
        }
        expecting = .nothing
    }

    private mutating func openCollection(_ kind: Kind, at mark: Mark) {
        open.append((mark.column, kind))
        emit(kind == .mapping ? .mappingStart : .sequenceStart, at: mark)
    }

    private mutating func close(at mark: Mark) {
        let kind = open.removeLast().kind
        emit(kind == .mapping ? .mappingEnd : .sequenceEnd, at: mark)
    }

    private mutating func closeAll(at mark: Mark) {
        while !open.isEmpty { close(at: mark) }
    }

    /// Where `p`, a byte on the line being read before any character beyond ASCII, is.
    private func mark(at p: Int) -> Mark {
        Mark(line: lineNumber, column: p - lineStart, index: charactersBefore + p - lineStart, byte: p)
    }

    /// An event at `mark`, `width` bytes wide, `extra` of them continuation bytes.
    private mutating func emit(
        _ token: Token, at mark: Mark, width: Int = 0, extra: Int = 0, isFlow: Bool = false
    ) {
        let pending = Pending(token: token, mark: mark, width: width, extra: extra, isFlow: isFlow)
        if queued < queue.count { queue[queued] = pending } else { queue.append(pending) }
        queued += 1
    }

    /// The event a kept one gives, its text made now.
    private func event(_ pending: Pending) -> YAMLEvent {
        let kind: YAMLEvent.Kind
        switch pending.token {
        case .streamStart: kind = .streamStart
        case .streamEnd: kind = .streamEnd
        case .documentStart: kind = .documentStart
        case .documentEnd: kind = .documentEnd
        case .sequenceStart: kind = .sequenceStart(YAMLEvent.Properties())
        case .sequenceEnd: kind = .sequenceEnd
        case .mappingStart: kind = .mappingStart(YAMLEvent.Properties())
        case .mappingEnd: kind = .mappingEnd
        case .scalar(let style, let range, let inScratch):
            let text =
                inScratch
                ? scratch.withUnsafeBufferPointer {
                    YAMLParser.text($0.baseAddress! + range.lowerBound, count: range.count)
                }
                : YAMLParser.text(base + range.lowerBound, count: range.count)
            kind = .scalar(YAMLEvent.Scalar(text: text, style: style))
        }
        let mark = pending.mark
        var event = YAMLEvent(
            kind: kind, line: mark.line + 1 + lineOffset, column: mark.column + 1, characterOffset: mark.index,
            endCharacterOffset: mark.index + pending.width - pending.extra)
        event.isFlow = pending.isFlow
        event.byteOffset = byteOrderMark + mark.byte
        event.endByteOffset = byteOrderMark + mark.byte + pending.width
        return event
    }

    // MARK: Tokens

    private func spaces(from p: Int) -> Int {
        var p = p
        while p < count && base[p] == 32 { p += 1 }
        return p
    }

    /// Whether `p` is a space, a line break or the end (what may follow `-` or `:`).
    private func isBlank(_ p: Int) -> Bool {
        p >= count || base[p] == 32 || base[p] == 10 || base[p] == 13
    }

    /// Where the next line starts when `p` ends this one (the end, LF, CR LF); else nil.
    private func lineEnd(after p: Int) -> Int? {
        if p >= count { return count }
        if base[p] == 10 { return p + 1 }
        if base[p] == 13 && p + 1 < count && base[p + 1] == 10 { return p + 2 }
        return nil
    }

    /// The end of a plain word key at `p` followed by `:` and a blank; nil if there is none.
    private func keyEnd(from p: Int) -> Int? {
        func isWord(_ b: UInt8) -> Bool {
            (b | 0x20) >= UInt8(ascii: "a") && (b | 0x20) <= UInt8(ascii: "z")
                || b >= UInt8(ascii: "0")
                    && b <= UInt8(ascii: "9")
                || b == UInt8(ascii: "_")
        }
        guard p < count, isWord(base[p]) else { return nil }
        var e = p + 1
        while e < count && e - p < 1000,
            isWord(base[e]) || base[e] == UInt8(ascii: "-") || base[e] == UInt8(ascii: ".")
                || base[e] == UInt8(ascii: "/")
        {
            e += 1
        }
        return e < count && base[e] == UInt8(ascii: ":") && isBlank(e + 1) ? e : nil
    }

    /// A plain scalar from `p` to the end of its line: where it ends (before trailing
    /// spaces), its continuation bytes, and where the next line starts.
    private func plain(from p: Int) -> (end: Int, continuationBytes: Int, next: Int)? {
        let first = base[p]
        switch first {
        case UInt8(ascii: "-"), UInt8(ascii: "?"), UInt8(ascii: ":"):
            if isBlank(p + 1) { return nil }
        case UInt8(ascii: ","), UInt8(ascii: "]"), UInt8(ascii: "}"), UInt8(ascii: "#"), UInt8(ascii: "&"),
            UInt8(ascii: "*"), UInt8(ascii: "!"), UInt8(ascii: "|"), UInt8(ascii: ">"), UInt8(ascii: "%"),
            UInt8(ascii: "@"), UInt8(ascii: "`"):
            return nil
        default: break
        }
        var end = p
        var extra = 0
        var i = p
        while i < count {
            let b = base[i]
            if b >= 0x80 {
                guard let next = character(at: i, extra: &extra) else { return nil }
                i = next
                end = i
                continue
            }
            switch b {
            case 10:
                return (end, extra, i + 1)
            case 13:
                guard i + 1 < count && base[i + 1] == 10 else { return nil }
                return (end, extra, i + 2)
            case 32:
                if i + 1 < count && base[i + 1] == UInt8(ascii: "#") { return nil }
            case UInt8(ascii: ":"):
                if isBlank(i + 1) { return nil }
                end = i + 1
            case 0..<32, 127:
                return nil
            default:
                end = i + 1
            }
            i += 1
        }
        return (end, extra, count)
    }

    /// Whether the line starting at `p` (or the next with a token) does not go on a plain
    /// scalar in a collection at column `indent`: its token is at `indent` or left of it.
    private func continuesNot(from p: Int, indent: Int) -> Bool {
        var start = p
        while true {
            let q = spaces(from: start)
            guard q < count else { return true }
            switch base[q] {
            case 10: start = q + 1
            case 13:
                guard q + 1 < count && base[q + 1] == 10 else { return false }
                start = q + 2
            case 9: return false
            default: return q - start <= indent
            }
        }
    }

    /// A quoted scalar from its quote at `p` to the closing one on the same line: its text
    /// (a range of the input, or of `scratch` where quotes or escapes were undone), where
    /// it ends (after the quote) and its continuation bytes.
    private mutating func quoted(from p: Int) -> (Range<Int>, inScratch: Bool, end: Int, continuationBytes: Int)? {
        let quote = base[p]
        let scratchStart = scratch.count
        var unescaped = false
        var extra = 0
        var i = p + 1
        var runStart = i
        while i < count {
            let b = base[i]
            if b >= 0x80 {
                guard let next = character(at: i, extra: &extra) else { return nil }
                i = next
                continue
            }
            if b < 32 || b == 127 { return nil }
            if b == quote {
                if quote == UInt8(ascii: "'") && i + 1 < count && base[i + 1] == quote {
                    scratch.append(contentsOf: UnsafeBufferPointer(start: base + runStart, count: i + 1 - runStart))
                    unescaped = true
                    i += 2
                    runStart = i
                    continue
                }
                if !unescaped { return (runStart..<i, false, i + 1, extra) }
                scratch.append(contentsOf: UnsafeBufferPointer(start: base + runStart, count: i - runStart))
                return (scratchStart..<scratch.count, true, i + 1, extra)
            }
            if b == UInt8(ascii: "\\") && quote == UInt8(ascii: "\"") {
                scratch.append(contentsOf: UnsafeBufferPointer(start: base + runStart, count: i - runStart))
                unescaped = true
                guard i + 1 < count, let length = Self.unescape(base + i + 1, limit: count - i - 1, into: &scratch)
                else {
                    return nil
                }
                i += 1 + length
                runStart = i
                continue
            }
            i += 1
        }
        return nil
    }

    /// The escape after a backslash at `p` (as libyaml reads it) appended to `text`; its
    /// length, or nil for one left to libyaml.
    private static func unescape(_ p: UnsafePointer<UInt8>, limit: Int, into text: inout [UInt8]) -> Int? {
        var digits = 0
        switch p[0] {
        case UInt8(ascii: "0"): text.append(0)
        case UInt8(ascii: "a"): text.append(7)
        case UInt8(ascii: "b"): text.append(8)
        case UInt8(ascii: "t"): text.append(9)
        case UInt8(ascii: "n"): text.append(10)
        case UInt8(ascii: "v"): text.append(11)
        case UInt8(ascii: "f"): text.append(12)
        case UInt8(ascii: "r"): text.append(13)
        case UInt8(ascii: "e"): text.append(0x1B)
        case UInt8(ascii: " "), UInt8(ascii: "\""), UInt8(ascii: "\\"): text.append(p[0])
        case UInt8(ascii: "N"): text.append(contentsOf: [0xC2, 0x85])
        case UInt8(ascii: "_"): text.append(contentsOf: [0xC2, 0xA0])
        case UInt8(ascii: "L"): text.append(contentsOf: [0xE2, 0x80, 0xA8])
        case UInt8(ascii: "P"): text.append(contentsOf: [0xE2, 0x80, 0xA9])
        case UInt8(ascii: "x"): digits = 2
        case UInt8(ascii: "u"): digits = 4
        case UInt8(ascii: "U"): digits = 8
        default: return nil
        }
        guard digits > 0 else { return 1 }
        guard limit > digits else { return nil }
        var value: UInt32 = 0
        for k in 1...digits {
            let d = p[k]
            let v: UInt8
            switch d {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): v = d - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): v = d - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): v = d - UInt8(ascii: "A") + 10
            default: return nil
            }
            value = value << 4 | UInt32(v)
        }
        guard let scalar = Unicode.Scalar(value) else { return nil }
        text.append(contentsOf: UTF8.encode(scalar)!)
        return 1 + digits
    }

    /// Past the character beyond ASCII at `i` (`printableCharacter`), counting its
    /// continuation bytes into `extra`; nil for one left to libyaml.
    private func character(at i: Int, extra: inout Int) -> Int? {
        guard let length = Self.printableCharacter(base + i, limit: count - i) else { return nil }
        extra += length - 1
        return i + length
    }

    /// The length of the UTF-8 character at `p` (its first byte 0x80 or above) when it is
    /// well formed, printable to YAML (U+00A0 and up, no surrogate, not U+FFFE or U+FFFF)
    /// and none of the characters libyaml takes as a break or a byte order mark.
    private static func printableCharacter(_ p: UnsafePointer<UInt8>, limit: Int) -> Int? {
        let b0 = UInt32(p[0])
        func next(_ k: Int) -> UInt32? {
            k < limit && p[k] & 0xC0 == 0x80 ? UInt32(p[k] & 0x3F) : nil
        }
        let value: UInt32
        let length: Int
        if b0 & 0xE0 == 0xC0 {
            guard let b1 = next(1) else { return nil }
            value = (b0 & 0x1F) << 6 | b1
            length = 2
            guard value >= 0xA0 else { return nil }
        } else if b0 & 0xF0 == 0xE0 {
            guard let b1 = next(1), let b2 = next(2) else { return nil }
            value = (b0 & 0x0F) << 12 | b1 << 6 | b2
            length = 3
            guard value >= 0x800, value < 0xD800 || value > 0xDFFF, value <= 0xFFFD,
                value != 0x2028, value != 0x2029, value != 0xFEFF
            else { return nil }
        } else if b0 & 0xF8 == 0xF0 {
            guard let b1 = next(1), let b2 = next(2), let b3 = next(3) else { return nil }
            value = (b0 & 0x07) << 18 | b1 << 12 | b2 << 6 | b3
            length = 4
            guard value >= 0x10000, value <= 0x10FFFF else { return nil }
        } else {
            return nil
        }
        return length
    }
}
#endif
