import Foundation
import Testing

@testable import TodoFormat

/// Telling a file's format from its head (`FormatRegistry.recognize`): the recognisers look
/// at its first lines one at a time (`HeadLines`), which must split them as splitting the
/// head's whole text splits it.
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
    ]

    /// YAML's and SQL dumps' recognisers give what they gave when they split the head's
    /// whole text into lines (the reference below, which took 30 million instructions on
    /// the head of a database).
    @Test(arguments: heads)
    func linesAsTheWholeTextSplitsThem(_ head: String) {
        let bytes = Array(head.utf8)
        bytes.withUnsafeBufferPointer { buffer in
            #if YAML
            #expect(YAMLFormat().recognition(of: buffer) == Self.yamlReference(head))
            #endif
            #expect(SQLDumpFormat().recognition(of: buffer) == Self.dumpReference(head))
            var lines: [String] = []
            for line in HeadLines(buffer, limit: 200) { lines.append(line) }
            #expect(lines == head.split(separator: "\n", maxSplits: 200).prefix(200).map(String.init))
        }
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

    static func yamlReference(_ head: String) -> Recognition {
        for line in head.split(separator: "\n", maxSplits: 200).prefix(200) {
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

    static func dumpReference(_ head: String) -> Recognition {
        for line in head.split(separator: "\n", maxSplits: 50).prefix(50) {
            let words = line.uppercased().split(separator: " ")
            guard let first = words.first, !first.hasPrefix("--") else { continue }
            return ["PRAGMA", "BEGIN", "CREATE", "INSERT"].contains(String(first)) && line.contains(";") ? .likely : .no
        }
        return .no
    }
}
