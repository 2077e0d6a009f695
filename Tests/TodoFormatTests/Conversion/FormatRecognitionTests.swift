import Foundation
import Testing

@testable import TodoFormat

/// Telling a file's format from its head (`FormatRegistry.recognize`): the recognisers look
/// at its first lines one at a time (`HeadLines`), split at every line feed, CRLF as LF.
struct FormatRecognitionTests {
    /// Heads, with what YAML's and SQL dumps' recognisers make of them and the format read.
    static let heads: [(String, yaml: Recognition, dump: Recognition, DocumentFormat)] = [
        ("- name: milk\n  checked: false\n", .possibly, .no, .yaml),
        ("- name: milk\r\n  checked: false\r\n", .possibly, .no, .yaml),
        ("# groceries\n---\n\n- &chore name: milk\n", .possibly, .no, .yaml),
        ("title: Groceries\nitems:\n  - name: milk\n", .possibly, .no, .yaml),
        ("\n\n   \n- {name: milk}\n", .possibly, .no, .yaml),
        ("- milk\n- eggs\n", .no, .no, .markdown),
        ("Milk: yes\r\n", .possibly, .no, .yaml),
        ("-- a dump\n\nPRAGMA foreign_keys=OFF;\nBEGIN TRANSACTION;\n", .no, .likely, .sql),
        ("  create table todo(name text);\n", .no, .likely, .sql),
        ("INSERT INTO todo VALUES('a');", .no, .likely, .sql),
        ("insert into todo values('a')\n;\n", .no, .likely, .sql),
        ("BEGIN;\r\nCREATE TABLE t(x);\r\n", .no, .likely, .sql),
        ("CREATE TABLE t(\n  name TEXT\n);\n", .no, .likely, .sql),
        ("/* made by hand\n   VALUES */ PRAGMA x;\n", .no, .likely, .sql),
        ("/* a */ /* b */\n\tinsert into t values(1);\n", .no, .likely, .sql),
        ("Create a list (no dump)\n- [ ] milk\n", .no, .no, .markdown),
        // The statement on line 62: past the 50 lines a dump is looked for in.
        ("--\n" + String(repeating: "-- comment\n", count: 60) + "CREATE TABLE t(x);\n", .no, .no, .markdown),
        ("straße ß;\n", .no, .no, .markdown),
        ("- [ ] milk\n- [x] eggs\n", .no, .no, .markdown),
        ("Some prose\r\n\r\n- [ ] milk\r\n", .no, .no, .markdown),
        ("[{\"name\": \"milk\"}]", .no, .no, .json),
        ("<?xml version=\"1.0\"?>\n<plist version=\"1.0\"><array/></plist>\n", .no, .no, .plist),
        ("", .no, .no, .markdown),
        ("\u{FEFF}- name: milk\n", .possibly, .no, .yaml),
        ("e\u{301}: accent\n\n- name: x\n", .possibly, .no, .yaml),
        ("a\rb: c\n", .no, .no, .markdown),
    ]

    @Test(arguments: 0..<heads.count)
    func recognises(_ index: Int) {
        let (head, yaml, dump, format) = Self.heads[index]
        let bytes = Array(head.utf8)
        bytes.withUnsafeBufferPointer { buffer in
            #if YAML
            #expect(YAMLFormat().recognition(of: buffer) == yaml)
            #expect(DocumentFormat.read(from: bytes) == format)
            #else
            if format != .yaml { #expect(DocumentFormat.read(from: bytes) == format) }
            #endif
            #expect(SQLDumpFormat().recognition(of: buffer) == dump)
            var lines: [String] = []
            for line in HeadLines(buffer, limit: 200) { lines.append(line) }
            #expect(lines == Self.lines(head, 200))
        }
    }

    /// Front matter of 250 keys.
    static let longFrontMatter: String =
        "---\n" + (0..<250).map { (i: Int) -> String in "k\(i): v\n" }.joined() + "---\n"

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
        // Task lines past 200 lines of front matter: the lines are counted after it.
        (Self.longFrontMatter + "- [ ] milk\n", .markdown),
        (Self.longFrontMatter + "- name: milk\n", .yaml),
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
}
