import Foundation

extension TodoDocument {
    /// Problems a person should fix: lines that look like tasks but are not, mixed line endings.
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
        text.withBytes { bytes in
            for (i, b) in bytes.enumerated() where b == 10 {
                if i > 0 && bytes[i - 1] == 13 { crlf += 1 } else { lf += 1 }
                if crlf > 0 && lf > 0 && firstMixed == 0 { firstMixed = line }
                line += 1
            }
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
