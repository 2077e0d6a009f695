import Foundation

extension TodoDocument {
    /// Problems a person should fix: lines that look like tasks but are not, mixed line endings,
    /// carriage returns that end no line.
    public func problems() -> [Problem] {
        var problems = nearMisses.map { $0.problem(path: path) }
        if let notFrontMatter {
            problems.append(
                Problem(
                    location: SourceLocation(file: path, line: 1, column: 1), severity: .warning,
                    message: notFrontMatter))
        }
        var crlf = 0
        var lf = 0
        var firstMixed = 0
        var line = 1
        // A carriage return alone (classic Mac OS line endings) ends no line here, though
        // CommonMark ends one there: a file of them reads as one item (helper hunt 97).
        var loneCR = 0
        var firstLoneCR: (line: Int, column: Int)? = nil
        var lineStart = 0
        text.withBytes { bytes in
            // Without a carriage return every line ends alike: nothing to count (a byte at a
            // time, 47 MB took a quarter of a million-item check).
            guard let base = bytes.baseAddress, memchr(base, 13, bytes.count) != nil else { return }
            for (i, b) in bytes.enumerated() where b == 10 || b == 13 {
                if b == 13 {
                    if i + 1 == bytes.count || bytes[i + 1] != 10 {
                        loneCR += 1
                        if firstLoneCR == nil {
                            let column =
                                String(decoding: UnsafeBufferPointer(rebasing: bytes[lineStart..<i]), as: UTF8.self)
                                .unicodeScalars.count + 1
                            firstLoneCR = (line, column)
                        }
                    }
                    continue
                }
                if i > 0 && bytes[i - 1] == 13 { crlf += 1 } else { lf += 1 }
                if crlf > 0 && lf > 0 && firstMixed == 0 { firstMixed = line }
                line += 1
                lineStart = i + 1
            }
        }
        if let firstLoneCR {
            problems.append(
                Problem(
                    location: SourceLocation(file: path, line: firstLoneCR.line, column: firstLoneCR.column),
                    severity: .warning,
                    message:
                        "\(loneCR) carriage return\(loneCR == 1 ? "" : "s") not followed by a line feed: todofmt ends lines "
                        + "at LF and CR LF only, so the text after one stays on its line (convert it to LF or CR LF)"))
        }
        if firstMixed > 0 {
            problems.append(
                Problem(
                    location: SourceLocation(file: path, line: firstMixed, column: 1), severity: .warning,
                    message: "mixed line endings (\(lf) LF, \(crlf) CRLF)"))
        }
        return problems.sorted { ($0.location.line, $0.location.column) < ($1.location.line, $1.location.column) }
    }
}
