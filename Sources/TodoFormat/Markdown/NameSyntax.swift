// An item's name in checklist text: how every character of a name is written so that both
// todofmt and cmark-gfm read the same name back, and how todofmt reads it.
// FORMAT.md (section 3.1, "The name") is the specification of this file.
enum NameSyntax {
    // MARK: Writing

    /// Whether a name can be written as it is: no character the reader or CommonMark would
    /// take for something else. One scan of the bytes; most names pass.
    @inline(__always)
    static func isPlain(_ bytes: UnsafeBufferPointer<UInt8>, allowingBrackets: Bool = false) -> Bool {
        guard let first = bytes.first, let last = bytes.last else { return true }
        if first == 32 || first == 9 || last == 32 || last == 9 { return false }
        // `\`, `[`, `&`, control characters (and the lead byte of U+0080 to U+00BF).
        return !ByteScan.containsNameEscape(bytes, allowingBrackets: allowingBrackets)
    }

    /// Whether `escape` writes the one-line name whose bytes these are as they are: plain, or
    /// plain but for `[` that starts no link definition and no text that reads as fields (so
    /// the name has no fields either). Tells without making a string. False for some names
    /// written as they are too: a writer that skips `escape` must not rely on the converse.
    static func isWrittenAsIs(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard isPlain(bytes, allowingBrackets: true) else { return false }
        if bytes.first == UInt8(ascii: "[") && startsLikeLinkDefinition(bytes) { return false }
        // Fields end the line with `]`.
        return bytes.last != UInt8(ascii: "]") || FieldSyntax.splitFields(ArraySlice(bytes)) == nil
    }

    /// A name as checklist text. Each line feed starts a continuation line (which begins with
    /// `continuation`) unless that would leave a line empty; then, like white space at either
    /// end of a line and every other control character, it is written as a decimal character
    /// reference (`&#10;`, `&#32;`, `&#13;`). An `&` that would start a character reference is
    /// written `\&`; a backslash that the reader would take as an escape is doubled; a
    /// continuation line that would start a block starts with a backslash. Lines end in `lineEnding`.
    static func escape(_ name: Substring, continuation: String, lineEnding: String = "\n") -> String {
        let plain =
            name.utf8.withContiguousStorageIfAvailable { isPlain($0, allowingBrackets: true) }
            ?? Array(name.utf8).withUnsafeBufferPointer { isPlain($0, allowingBrackets: true) }
        if plain {
            // One line that needs no reference or backslash: only a link definition's `[`
            // at the start and the `[` of text that reads as fields need one (as below;
            // rendering it scalar by scalar gives its own bytes).
            let hasBracket =
                name.utf8.withContiguousStorageIfAvailable { ByteScan.contains($0, 0x5B, 0x5B) }
                ?? name.utf8.contains(0x5B)
            guard hasBracket else { return String(name) }
            var bytes = Array(name.utf8)
            escapeBrackets(&bytes)
            return String(decoding: bytes, as: UTF8.self)
        }
        return escapeScalars(name, continuation: continuation, lineEnding: lineEnding)
    }

    /// `escape` the long way, one scalar at a time (tests compare the two).
    static func escapeScalars(_ name: Substring, continuation: String, lineEnding: String = "\n") -> String {
        var lines: [[Unit]] = [[]]
        for (k, segment) in name.unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            if k > 0 {
                // A line feed between two lines that are not empty is a line break; else it is written as a reference.
                if !lines[lines.count - 1].isEmpty && !segment.isEmpty {
                    lines.append([])
                } else {
                    lines[lines.count - 1].append(.reference(10))
                }
            }
            for scalar in segment { lines[lines.count - 1].append(.scalar(scalar)) }
        }
        var rendered: [String] = []
        for (n, units) in lines.enumerated() {
            rendered.append(render(units, isContinuation: n > 0))
        }
        // `[label]:` at the start would make the name a link reference definition to CommonMark.
        if startsLikeLinkDefinition(rendered[0].utf8) { rendered[0] = "\\" + rendered[0] }
        // Text that would read as fields gets its brackets escaped, one group at a time.
        if var last = rendered.last.map({ Array($0.utf8) }) {
            escapeFieldBrackets(&last)
            rendered[rendered.count - 1] = String(decoding: last, as: UTF8.self)
        }
        return rendered.joined(separator: lineEnding + continuation)
    }

    /// The backslashes a one-line name gets before `[`: at the start of what reads as a link
    /// definition, and before each group of text that reads as fields.
    private static func escapeBrackets(_ bytes: inout [UInt8]) {
        if startsLikeLinkDefinition(bytes) { bytes.insert(UInt8(ascii: "\\"), at: 0) }
        escapeFieldBrackets(&bytes)
    }

    private static func escapeFieldBrackets(_ last: inout [UInt8]) {
        while let split = FieldSyntax.splitFields(last[...]) {
            var start = split.nameEnd
            while start < last.count && last[start] != UInt8(ascii: "[") { start += 1 }
            last.insert(UInt8(ascii: "\\"), at: start)
        }
    }

    /// One character of a name as it will be written: itself, or a character reference.
    private enum Unit {
        case scalar(Unicode.Scalar)
        case reference(UInt32)
    }

    /// One line of a name, escaped.
    private static func render(_ units: [Unit], isContinuation: Bool) -> String {
        var units = units
        // White space at either end of the line, and control characters anywhere but a tab
        // inside the line, become references.
        func isBlank(_ unit: Unit) -> Bool {
            if case .scalar(let s) = unit { return s == " " || s == "\t" }
            return false
        }
        var i = 0
        while i < units.count && isBlank(units[i]) {
            if case .scalar(let s) = units[i] { units[i] = .reference(s.value) }
            i += 1
        }
        var j = units.count - 1
        while j >= 0 && isBlank(units[j]) {
            if case .scalar(let s) = units[j] { units[j] = .reference(s.value) }
            j -= 1
        }
        for k in units.indices {
            if case .scalar(let s) = units[k], s != "\t", isControl(s.value) { units[k] = .reference(s.value) }
        }
        // The text, with `&` escaped where a reference would start.
        var out: [UInt8] = []
        // Where a backslash was written, to double it if what follows makes it an escape.
        var backslashes: [Int] = []
        var text: [UInt8] = []
        for unit in units {
            if case .scalar(let s) = unit { text.append(contentsOf: String(s).utf8) } else { text.append(0) }
        }
        var t = 0  // index into `text`, which has one byte 0 for each reference
        for unit in units {
            switch unit {
            case .reference(let value):
                out.append(contentsOf: "&#\(value);".utf8)
                t += 1
            case .scalar(let s):
                let utf8 = Array(String(s).utf8)
                if s == "\\" { backslashes.append(out.count) }
                if s == "&" && referenceLength(text, at: t) != nil {
                    out.append(UInt8(ascii: "\\"))
                }
                out.append(contentsOf: utf8)
                t += utf8.count
            }
        }
        // Double each backslash that the reader would take as an escape: before `\`, `[`, `]`
        // or an `&` that starts a reference (escaped or not).
        for position in backslashes.reversed() {
            let next = position + 1 < out.count ? out[position + 1] : 0
            if next == UInt8(ascii: "\\") || next == UInt8(ascii: "[") || next == UInt8(ascii: "]")
                || (next == UInt8(ascii: "&") && referenceLength(out, at: position + 1) != nil)
            {
                out.insert(UInt8(ascii: "\\"), at: position)
            }
        }
        if isContinuation { escapeBlockStart(&out) }
        return String(decoding: out, as: UTF8.self)
    }

    /// Whether text starts with `[`, a label without brackets, `]:`: how a link reference
    /// definition starts.
    private static func startsLikeLinkDefinition<C: Collection>(_ bytes: C) -> Bool where C.Element == UInt8 {
        var iterator = bytes.makeIterator()
        guard iterator.next() == UInt8(ascii: "[") else { return false }
        var count = 0
        var escaped = false
        while let b = iterator.next() {
            if escaped {
                escaped = false
            } else if b == UInt8(ascii: "\\") {
                escaped = true
            } else if b == UInt8(ascii: "[") {
                return false
            } else if b == UInt8(ascii: "]") {
                return count > 0 && iterator.next() == UInt8(ascii: ":")
            }
            count += 1
        }
        return false
    }

    /// A continuation line that would start a block (`- x`, `# x`, `1. x`, `===`) gets a
    /// backslash before that character; a backslash already there is doubled, so that the
    /// reader does not drop it.
    private static func escapeBlockStart(_ bytes: inout [UInt8]) {
        var d = 0
        while d < bytes.count && bytes[d] >= 48 && bytes[d] <= 57 { d += 1 }
        let escapable = d == 0 ? blockStartCharacters : orderedDelimiters
        if d < bytes.count && bytes[d] == UInt8(ascii: "\\") && d + 1 < bytes.count && escapable.contains(bytes[d + 1])
        {
            bytes.insert(UInt8(ascii: "\\"), at: d)
        } else if d < bytes.count && escapable.contains(bytes[d]) {
            bytes.insert(UInt8(ascii: "\\"), at: d)
        }
    }

    /// Characters that may start a block at the start of a continuation line.
    static let blockStartCharacters: Set<UInt8> = Set("#>-+*=`~<|_".utf8)
    /// After digits, the characters that make an ordered list marker.
    static let orderedDelimiters: Set<UInt8> = Set(".)".utf8)

    /// C0 controls, DEL and C1 controls (Unicode's general category Cc).
    @inline(__always)
    static func isControl(_ value: UInt32) -> Bool {
        value < 0x20 || (value >= 0x7F && value <= 0x9F)
    }

    /// Whether UTF-8 bytes hold a control character (C0, DEL or C1).
    static func containsControl(_ bytes: ArraySlice<UInt8>) -> Bool {
        var i = bytes.startIndex
        while i < bytes.endIndex {
            let b = bytes[i]
            if b < 0x20 || b == 0x7F { return true }
            if b == 0xC2 && i + 1 < bytes.endIndex && bytes[i + 1] >= 0x80 && bytes[i + 1] <= 0x9F { return true }
            i += 1
        }
        return false
    }

    // MARK: Character references

    /// The length of a character reference CommonMark would decode (or that looks like one)
    /// at `i`: `&#` digits `;`, `&#x` hex digits `;`, or `&` a name `;`. Nil when there is none.
    static func referenceLength<C: RandomAccessCollection>(_ bytes: C, at i: C.Index) -> Int?
    where C.Element == UInt8, C.Index == Int {
        guard i < bytes.endIndex, bytes[i] == UInt8(ascii: "&"), i + 2 < bytes.endIndex else { return nil }
        var j = i + 1
        func isDigit(_ b: UInt8) -> Bool { b >= 48 && b <= 57 }
        func isLetter(_ b: UInt8) -> Bool { (b | 0x20) >= 97 && (b | 0x20) <= 122 }
        func isHex(_ b: UInt8) -> Bool { isDigit(b) || ((b | 0x20) >= 97 && (b | 0x20) <= 102) }
        if bytes[j] == UInt8(ascii: "#") {
            j += 1
            let hex = j < bytes.endIndex && (bytes[j] | 0x20) == UInt8(ascii: "x")
            if hex { j += 1 }
            let start = j
            while j < bytes.endIndex && (hex ? isHex(bytes[j]) : isDigit(bytes[j])) { j += 1 }
            guard j > start else { return nil }
        } else {
            guard isLetter(bytes[j]) else { return nil }
            while j < bytes.endIndex && (isLetter(bytes[j]) || isDigit(bytes[j])) { j += 1 }
        }
        guard j < bytes.endIndex, bytes[j] == UInt8(ascii: ";") else { return nil }
        return j + 1 - i
    }

    /// The character a reference the writer writes stands for: `&#N;` (one to seven digits)
    /// where N is a space or a control character. Nil for any other text.
    static func decodedReference<C: RandomAccessCollection>(_ bytes: C, at i: C.Index) -> (Unicode.Scalar, Int)?
    where C.Element == UInt8, C.Index == Int {
        guard i + 3 < bytes.endIndex, bytes[i] == UInt8(ascii: "&"), bytes[i + 1] == UInt8(ascii: "#") else {
            return nil
        }
        var j = i + 2
        var value: UInt32 = 0
        while j < bytes.endIndex && j - i - 2 < 8, bytes[j] >= 48 && bytes[j] <= 57 {
            value = value * 10 + UInt32(bytes[j] - 48)
            j += 1
        }
        let digits = j - i - 2
        guard digits >= 1 && digits <= 7, j < bytes.endIndex, bytes[j] == UInt8(ascii: ";"),
            value == 32 || isControl(value), let scalar = Unicode.Scalar(value)
        else { return nil }
        return (scalar, j + 1 - i)
    }

    // MARK: Reading

    /// A name as read from its lines of checklist text (each without its leading and
    /// trailing white space; the fields already cut off): `\\`, `\[` and `\]` lose their
    /// backslash, `\&` before a reference is a literal `&`, a reference to a space or a control
    /// character is that character, an escaped block-start character at the start of a
    /// continuation line loses its backslash; the lines are joined with line feeds.
    static func unescape(_ lines: [ArraySlice<UInt8>]) -> String {
        var out: [UInt8] = []
        for (n, line) in lines.enumerated() {
            if n > 0 { out.append(10) }
            var i = line.startIndex
            if n > 0 {
                // `\-`, `\#`… at the start of a continuation line; `1\.` after digits.
                var d = i
                while d < line.endIndex && line[d] >= 48 && line[d] <= 57 { d += 1 }
                let escapable = d == i ? blockStartCharacters : orderedDelimiters
                if d + 1 < line.endIndex && line[d] == UInt8(ascii: "\\") && escapable.contains(line[d + 1]) {
                    out.append(contentsOf: line[i..<d])
                    i = d + 1
                }
            }
            while i < line.endIndex {
                let b = line[i]
                if b == UInt8(ascii: "\\") && i + 1 < line.endIndex {
                    let next = line[i + 1]
                    if next == UInt8(ascii: "\\") || next == UInt8(ascii: "[") || next == UInt8(ascii: "]") {
                        out.append(next)
                        i += 2
                        continue
                    }
                    if next == UInt8(ascii: "&"), let length = referenceLength(line, at: i + 1) {
                        out.append(contentsOf: line[(i + 1)..<(i + 1 + length)])
                        i += 1 + length
                        continue
                    }
                } else if b == UInt8(ascii: "&"), let (scalar, length) = decodedReference(line, at: i) {
                    out.append(contentsOf: String(scalar).utf8)
                    i += length
                    continue
                }
                out.append(b)
                i += 1
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}
