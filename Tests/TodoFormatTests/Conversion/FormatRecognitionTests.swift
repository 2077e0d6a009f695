import Foundation
import Testing

@testable import TodoFormat

/// Telling a file's format from its head (`FormatRegistry.recognize`): the recognisers look
/// at its first lines one at a time (`HeadLines`), split at every line feed, CRLF as LF.
struct FormatRecognitionTests {
    static let heads: [String] = [
        "- name: milk\n  checked: false\n",
        "- name: milk\r\n  checked: false\r\n",
        "# groceries\n---\n\n- &chore name: milk\n",
        "title: Groceries\nitems:\n  - name: milk\n",
        "\n\n   \n- {name: milk}\n",
        "- milk\n- eggs\n",
        "Milk: yes\r\n",
        "-- a dump\n\nPRAGMA foreign_keys=OFF;\nBEGIN TRANSACTION;\n",
        "  create table todo(name text);\n",
        "INSERT INTO todo VALUES('a');",
        "insert into todo values('a')\n;\n",
        "--\n" + String(repeating: "-- comment\n", count: 60) + "CREATE TABLE t(x);\n",
        "straße ß;\n",
        "- [ ] milk\n- [x] eggs\n",
        "Some prose\r\n\r\n- [ ] milk\r\n",
        "[{\"name\": \"milk\"}]",
        "<?xml version=\"1.0\"?>\n<plist version=\"1.0\"><array/></plist>\n",
        "",
        "\u{FEFF}- name: milk\n",
        "e\u{301}: accent\n\n- name: x\n",
        "a\rb: c\n",
    ]

    /// YAML's and SQL dumps' recognisers give what they gave when they split the head's
    /// whole text into lines (the reference below, which took 30 million instructions on
    /// the head of a database), the lines split as `HeadLines` splits them.
    @Test(arguments: heads)
    func linesAsTheWholeTextSplitsThem(_ head: String) {
        let bytes = Array(head.utf8)
        bytes.withUnsafeBufferPointer { buffer in
            #if YAML
            #expect(YAMLFormat().recognition(of: buffer) == Self.yamlReference(Self.lines(head, 200)))
            #endif
            #expect(SQLDumpFormat().recognition(of: buffer) == Self.dumpReference(Self.lines(head, 50)))
            var lines: [String] = []
            for line in HeadLines(buffer, limit: 200) { lines.append(line) }
            #expect(lines == Self.lines(head, 200))
        }
    }

    /// Files that need CRLF lines, a byte order mark or a tab to be told apart (found reading
    /// as checklists): a comment or a document marker first, statements after comments.
    @Test(arguments: [
        ("# my list\r\n- name: a\r\n  checked: false\r\n", DocumentFormat.yaml),
        ("---\r\ntitle: x\r\n---\r\n- name: a\r\n", .yaml),
        ("\u{FEFF}- name: a\n  checked: false\n", .yaml),
        ("-- made by hand\r\n-- twice\r\nCREATE TABLE t(name TEXT);\r\n", .sql),
        ("\u{FEFF}PRAGMA foreign_keys=OFF;\n", .sql),
        ("\tINSERT INTO t VALUES('a');\n", .sql),
        ("Note: bring bags\r\n- [ ] milk\r\n", .markdown),
    ])
    func crlfAndByteOrderMarks(_ head: String, _ format: DocumentFormat) {
        #if YAML
        #expect(DocumentFormat.read(from: Array(head.utf8)) == format)
        #else
        if format != .yaml { #expect(DocumentFormat.read(from: Array(head.utf8)) == format) }
        #endif
    }

    /// The head's lines as `HeadLines` gives them, by another way: the text's scalars split
    /// at line feeds, a carriage return before one and a byte order mark left out.
    static func lines(_ head: String, _ limit: Int) -> [String] {
        let text = head.hasPrefix("\u{FEFF}") ? String(head.unicodeScalars.dropFirst()) : head
        return text.unicodeScalars.split(separator: "\n").map { line in
            String(line.last == "\r" ? line.dropLast() : line)
        }.filter { !$0.isEmpty }.prefix(limit).map { $0 }
    }

    /// A database's and a binary property list's heads (one long line of binary) are told
    /// by their magic numbers, whatever the text recognisers make of them.
    @Test func binaryFilesByTheirMagicNumbers() throws {
        let directory = try TemporaryDirectory()
        var list = TodoList(items: [TodoItem(name: "milk"), TodoItem(name: "eggs", status: .done)])
        list.items += (0..<2000).map { TodoItem(name: "item \($0) 日本語 🚀") }
        for (name, format) in [("l.sqlite", DocumentFormat.sqlite), ("l.plist", .bplist)] {
            let url = directory.url.appendingPathComponent(name)
            _ = try list.write(to: url, format: format, options: ListOptions())
            let head = try Input(file: url.path).head()
            #expect(head.count == 64 * 1024 || format == .bplist)
            #expect(FormatRegistry.recognize(head)?.format == format)
            #expect(FormatRegistry.recognize(head)?.recognition == .certainly)
        }
    }

    static func yamlReference(_ lines: [String]) -> Recognition {
        for line in lines {
            if line.hasPrefix("#") || line.hasPrefix("---") || line.hasPrefix("%")
                || line.allSatisfy({ $0 == " " || $0 == "\r" })
            {
                continue
            }
            var rest = line[...]
            if rest.hasPrefix("- ") { rest = rest.dropFirst(2).drop { $0 == " " } }
            while rest.first == "&" || rest.first == "!" {
                rest = rest.drop { $0 != " " }.drop { $0 == " " }
            }
            if rest.first == "*" || rest.isEmpty || rest.allSatisfy({ $0 == "\r" }) { continue }
            if rest.first == "{" { rest = rest.dropFirst().drop { $0 == " " } }
            if rest.first == "#" { continue }
            let key = rest.prefix { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" || $0 == "<" }
            if !key.isEmpty, rest.dropFirst(key.count).first == ":" {
                let after = rest.dropFirst(key.count + 1).first
                if after == nil || after == " " || after == "\r" { return .possibly }
            }
            if line.hasPrefix("- ") || line.first?.isLetter == true { return .no }
        }
        return .no
    }

    static func dumpReference(_ lines: [String]) -> Recognition {
        for line in lines {
            let words = line.uppercased().split(whereSeparator: { $0 == " " || $0 == "\t" })
            guard let first = words.first, !first.hasPrefix("--") else { continue }
            return ["PRAGMA", "BEGIN", "CREATE", "INSERT"].contains(String(first)) && line.contains(";") ? .likely : .no
        }
        return .no
    }
}
