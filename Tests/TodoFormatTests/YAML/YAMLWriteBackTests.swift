#if YAML
import Foundation
import Testing

@testable import TodoFormat

/// Writing into YAML files that exist (issue 8): files made by PyYAML and laid out as
/// ruamel.yaml and people write them; after an edit only the edited item's lines change,
/// and PyYAML reads the result as the edited list.
@Suite("Writing into existing YAML")
struct YAMLWriteBackTests {
    /// Converts the checklist `markdown` into the file at `path`; returns the warnings.
    @discardableResult
    static func write(_ markdown: String, into path: String, options: ListOptions = ListOptions(), strict: Bool = false)
        throws
        -> [ConversionWarning]
    {
        let checklist = path + ".md"
        try markdown.write(toFile: checklist, atomically: false, encoding: .utf8)
        return try Conversion(input: .at(checklist), output: .at(path), options: options, strict: strict).run()
    }

    static func text(_ path: String) throws -> String { try String(contentsOfFile: path, encoding: .utf8) }

    /// The YAML text `file` in a new directory (kept while it is in use), with `checklist`
    /// written into it; returns the directory and the file's path.
    static func rewritten(_ file: String, with checklist: String) throws -> (TemporaryDirectory, String) {
        let directory = try TemporaryDirectory()
        let path = directory.path("list.yaml")
        try file.write(toFile: path, atomically: false, encoding: .utf8)
        try write(checklist, into: path)
        return (directory, path)
    }

    /// The checklist todofmt reads from a file.
    static func checklist(_ path: String, options: ListOptions = ListOptions()) throws -> String {
        try TodoList(contentsOf: .file(path), options: options).encoded(as: .markdown).string
    }

    /// What PyYAML reads from a file, as JSON.
    static func pyyaml(_ path: String) throws -> String {
        let script =
            "import sys, yaml, json; print(json.dumps(list(yaml.safe_load_all(open(sys.argv[1]))), default=str))"
        let result = try ExternalTool.run("python3", ["-c", script, path])
        #expect(result.status == 0, "\(result.stderr)")
        return result.text
    }

    static let pyyamlLayouts: [(name: String, dump: String)] = [
        ("safe_dump", "yaml.safe_dump(v, sort_keys=False, allow_unicode=True)"),
        ("indent4", "yaml.safe_dump(v, sort_keys=False, indent=4, allow_unicode=False)"),
        ("sorted", "yaml.dump(v, explicit_start=True)"),
    ]

    @Test(
        "a null status is open, no field; where open items have one, an item made open gets one, spelled as the file does",
        arguments: [" ~", "", " null", " Null"])
    func openAsNull(null: String) throws {
        let file = "- task: A\n  status: done\n- task: B\n  status:\(null)   # later\n- task: C\n  status: done\n"
        let (directory, path) = try Self.rewritten(file, with: "- [ ] A\n- [ ] B\n- [x] C\n- [ ] D\n")
        defer { withExtendedLifetime(directory) {} }
        #expect(
            try Self.text(path)
                == "- task: A\n  status:\(null)\n- task: B\n  status:\(null)   # later\n- task: C\n  status: done\n"
                + "- task: D\n  status:\(null)\n")
        #expect(try Self.checklist(path) == "- [ ] A\n- [ ] B\n- [x] C\n- [ ] D\n")
        // Checked again, and D gone: the file's bytes.
        try Self.write("- [x] A\n- [ ] B\n- [x] C\n", into: path)
        #expect(try Self.text(path) == file)
    }

    /// Helper hunt 114: `{name: one, status:}` is no flow mapping libyaml reads, and a null
    /// took the spelling of the first null under any key.
    @Test("a null is spelled as the file spells it under its key, and as `null` in a flow mapping")
    func nullSpellings() throws {
        let flow = "- {name: one, status: }\n- {name: two, status: }\n- {name: three, status: done}\n"
        let (directory, path) = try Self.rewritten(flow, with: "- [x] one\n- [ ] two\n- [x] three\n")
        defer { withExtendedLifetime(directory) {} }
        try Self.write("- [ ] one\n- [ ] two\n- [x] three\n- [ ] new\n", into: path)
        #expect(
            try Self.text(path)
                == "- {name: one, status: null}\n- {name: two, status: }\n- {name: three, status: done}\n"
                + "- name: new\n  status:\n")
        #expect(try Self.pyyaml(path).contains(#""name": "one", "status": null"#))
        #expect(try Self.checklist(path) == "- [ ] one\n- [ ] two\n- [x] three\n- [ ] new\n")

        let keyed = "- name: a\n  children:\n  status: ~\n- name: b\n  status: ~\n- name: c\n  status: done\n"
        let (other, keyedPath) = try Self.rewritten(keyed, with: "- [x] a [children:: null]\n- [ ] b\n- [x] c\n")
        defer { withExtendedLifetime(other) {} }
        try Self.write("- [ ] a [children:: null]\n- [ ] b\n- [x] c\n", into: keyedPath)
        #expect(try Self.text(keyedPath) == keyed)
    }

    @Test("a null status beside a checked key stays as the item is checked and unchecked")
    func nullBesideChecked() throws {
        let file =
            "- name: a\n  status: ~   # waiting on Bob\n  checked: false\n- name: b\n  status: ~\n  checked: true\n"
        let (directory, path) = try Self.rewritten(file, with: "- [x] a\n- [x] b\n")
        defer { withExtendedLifetime(directory) {} }
        #expect(try Self.text(path) == file.replacingOccurrences(of: "false", with: "true"))
        try Self.write("- [ ] a\n- [x] b\n", into: path)
        #expect(try Self.text(path) == file)
    }

    @Test("a status todofmt cannot read (`status: idea`), overwritten as its item is checked, is a warning")
    func unreadableStatusOverwritten() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("list.yaml")
        try "- task: Paint it\n  status: idea  # maybe\n- task: Sand it\n  status: done\n".write(
            toFile: path, atomically: false, encoding: .utf8)
        let warnings = try Self.write("- [x] Paint it [status:: idea]\n- [x] Sand it\n", into: path)
        #expect(warnings.map(\.kind) == [.fields] && warnings.first?.firstItem == "1 Paint it")
        #expect(try Self.text(path) == "- task: Paint it\n  status: done  # maybe\n- task: Sand it\n  status: done\n")
    }

    @Test(
        "files PyYAML writes: the unchanged round trip keeps every byte; a check changes one line",
        arguments: pyyamlLayouts.map(\.name))
    func pyyamlFiles(layout: String) throws {
        let directory = try TemporaryDirectory()
        let dump = Self.pyyamlLayouts.first { $0.name == layout }!.dump
        let path = directory.path("todos.yaml")
        let script = """
            import yaml, datetime
            v = {"version": 2, "todos": [
                {"title": "Sort the recycling", "done": False, "created": datetime.datetime(2024, 5, 1, 9, 30, 0, 123456), "tags": ["home", "weekly"]},
                {"title": "Défrost: the freezer", "done": False, "note": "yes", "n": 1.5},
                {"title": "Call #1", "done": True, "sub": [{"title": "a", "done": False}]},
            ]}
            open(\(String(reflecting: path)), "w", encoding="utf-8").write(\(dump))
            """
        let made = try ExternalTool.run("python3", ["-c", script])
        #expect(made.status == 0, "\(made.stderr)")
        let before = try Self.text(path)
        let options = ListOptions(key: "todos")
        let markdown = try Self.checklist(path, options: options)
        try Self.write(markdown, into: path, options: options)
        #expect(try Self.text(path) == before, "unchanged round trip")
        let checked = markdown.replacingOccurrences(
            of: "- [ ] Défrost: the freezer", with: "- [x] Défrost: the freezer")
        try Self.write(checked, into: path, options: options)
        let after = try Self.text(path)
        let changed = zip(
            before.split(separator: "\n", omittingEmptySubsequences: false),
            after.split(separator: "\n", omittingEmptySubsequences: false)
        )
        .filter { $0 != $1 }
        #expect(changed.count == 1, "\(after)")
        #expect(try Self.checklist(path, options: options) == checked)
        #expect(try Self.pyyaml(path).contains(#""done": true"#))
        #expect(try TodoList(contentsOf: .file(path), options: options).items[1].status == .done)
    }

    /// A file laid out as ruamel.yaml keeps people's files: a header comment, sequences
    /// indented under their key, comments inside and between items, quoting kept.
    static let ruamel = """
        # Things to do around the house.
        # Edited by hand and by a ruamel.yaml script (mapping=2, sequence=4, offset=2).
        owner: sam   # who gets the reminders
        todos:
          - title: 'Water the plants'
            done: no
            every: week   # mostly
          # the kitchen ones
          - title: "Take out the recycling"
            done: yes
            subtasks:
              - title: Glass
                done: no
              - title: Paper
                done: no

          - title: Pay the rent
            done: no
            amount: 1_200
        # end of the list
        archived: []

        """

    @Test("a hand-kept file: edits change only their lines, comments and quotes stay")
    func handKept() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("house.yaml")
        try Self.ruamel.write(toFile: path, atomically: false, encoding: .utf8)
        let markdown = try Self.checklist(path)
        #expect(
            markdown == """
                - [ ] Water the plants [every:: week]
                - [x] Take out the recycling
                  - [ ] Glass
                  - [ ] Paper
                - [ ] Pay the rent [amount:: 1_200]

                """)
        try Self.write(markdown, into: path)
        #expect(try Self.text(path) == Self.ruamel)
        // Check a subtask, rename an item, add one at the end, and a subtask.
        var edited = markdown.replacingOccurrences(of: "- [ ] Paper", with: "- [x] Paper")
        edited = edited.replacingOccurrences(of: "Water the plants", with: "Water the plants: all of them")
        edited += "- [ ] Fix the gate\n  - [ ] Buy hinges\n"
        try Self.write(edited, into: path)
        let expected = Self.ruamel
            .replacingOccurrences(of: "- title: Paper\n        done: no", with: "- title: Paper\n        done: yes")
            .replacingOccurrences(of: "'Water the plants'", with: "'Water the plants: all of them'")
            .replacingOccurrences(
                of: "    amount: 1_200\n",
                with:
                    "    amount: 1_200\n\n  - title: Fix the gate\n    done: no\n    subtasks:\n      - title: Buy hinges\n        done: no\n"
            )
        #expect(try Self.text(path) == expected)
        #expect(try Self.checklist(path) == edited)
        #expect(try Self.pyyaml(path).contains(#""archived": []"#))
        // Remove the first item and move the last to the top.
        let lines = edited.split(separator: "\n").map(String.init)
        let moved = ([lines[5], lines[6]] + lines[1..<5]).joined(separator: "\n") + "\n"
        try Self.write(moved, into: path)
        #expect(try Self.checklist(path) == moved)
        let text = try Self.text(path)
        #expect(text.hasPrefix("# Things to do around the house.\n# Edited by hand"))
        #expect(
            text.contains("todos:\n  - title: Fix the gate\n    done: no\n    subtasks:\n      - title: Buy hinges\n"))
        #expect(!text.contains("Water the plants"))
        #expect(text.contains("# the kitchen ones\n  - title: \"Take out the recycling\""))
        #expect(text.hasSuffix("# end of the list\narchived: []\n"))
    }

    /// An empty value (`status:`, null) stands right after its colon: a status written over
    /// it went there with no space, `status:done`, which is no key at all, and the file was
    /// written so, exit 0, unreadable after (helper hunt 111).
    @Test(
        "a status written over an empty one gets the space after the colon, last key or not",
        arguments: [
            // In the middle of the item.
            (
                "items:\n  - title: A\n    status:\n    note: 1\n  - title: B\n    status: done\n",
                "- [x] A [note:: 1]\n- [x] B\n",
                "items:\n  - title: A\n    status: done\n    note: 1\n  - title: B\n    status: done\n"
            ),
            // As the item's last key: the item's text takes in its colon (it ended before it,
            // and every edit of the file failed on the item cut short).
            (
                "items:\n  - title: A\n    status:\n  - title: B\n    status: done\n",
                "- [x] A\n- [x] B\n",
                "items:\n  - title: A\n    status: done\n  - title: B\n    status: done\n"
            ),
        ])
    func overEmptyValue(file: String, markdown: String, expected: String) throws {
        let (directory, path) = try Self.rewritten(file, with: markdown)
        defer { withExtendedLifetime(directory) {} }
        #expect(try Self.text(path) == expected)
        #expect(try Self.pyyaml(path).contains(#""title": "A", "status": "done""#))
    }

    /// An empty `children:` (null) is a field until the item has children: they go there,
    /// not under a second `children` key, which strict readers refuse (helper hunt 112).
    @Test("children added under an empty children key take its place")
    func childrenOverEmptyKey() throws {
        let file = "items:\n  - title: A\n    children:\n    status: done\n  - title: B\n    status: done\n"
        // The field as a read of the file gives it (as `add --under` keeps it).
        let (directory, path) = try Self.rewritten(file, with: "- [x] A [children:: null]\n  - [x] New\n- [x] B\n")
        defer { withExtendedLifetime(directory) {} }
        #expect(
            try Self.text(path)
                == "items:\n  - title: A\n    children:\n      - title: New\n        status: done\n    status: done\n"
                + "  - title: B\n    status: done\n")
        #expect(try Self.checklist(path) == "- [x] A\n  - [x] New\n- [x] B\n")
    }

    /// U+FFFE and U+FFFF are not YAML's printable characters: an item written into a file
    /// that has them as they are made a file libyaml refuses (hunt 83). They go in double
    /// quotes, escaped, as a new file has them; a status `=` is quoted as there.
    @Test("names with U+FFFE or U+FFFF and the status '=' written into a file read back")
    func nonCharacters() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("list.yaml")
        try Self.write("- [ ] old\n", into: path)
        let markdown = "- [ ] old\n- [ ] x\u{FFFF}y\n- [=] a\u{FFFE}\n- [ ] plain \u{FFFE} too\n"
        try Self.write(markdown, into: path)
        let text = try Self.text(path)
        #expect(text.contains(#"name: "x\uFFFFy""#) && text.contains(#"name: "a\uFFFE""#), "\(text)")
        #expect(text.contains(#"status: "=""#) || text.contains("status: '='"), "\(text)")
        #expect(try Self.checklist(path) == markdown)
        #expect(try Self.pyyaml(path).contains(#""status": "=""#))
        // A new file says the same.
        let fresh = directory.path("new.yaml")
        try Self.write(markdown, into: fresh)
        #expect(try Self.checklist(fresh) == markdown)
    }

    /// A space after a key's colon is one character with a combining mark that follows it:
    /// a file whose first name starts with one was taken for no todo list (helper hunt 86).
    @Test(
        "a file whose first name starts with a combining mark or a joiner is written into",
        arguments: ["\u{301}x", "\u{200D}x", "\u{20DD}", "\u{338}y"])
    func combiningFirst(name: String) throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("list.yaml")
        let markdown = "- [ ] \(name)\n- [ ] b\n"
        try Self.write(markdown, into: path)
        let written = try Self.text(path)
        try Self.write(markdown, into: path)
        #expect(try Self.text(path) == written)
        try Self.write(markdown.replacingOccurrences(of: "- [ ] b", with: "- [x] b"), into: path)
        #expect(try Self.checklist(path) == markdown.replacingOccurrences(of: "- [ ] b", with: "- [x] b"))
    }

    @Test("a file todofmt wrote: the unchanged round trip keeps every byte, nesting and odd names included")
    func ownFiles() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("own.yaml")
        let markdown = """
            ---
            title: Groceries
            ---
            - [ ] Milk [added:: 2024-05-01T09:30:00Z]
            - [x] Eggs: brown&#32;&#32;
              - [ ] Ünïcödé [n:: 3] [tags:: ["a", "b"]]
                - [/] deep [yes:: "yes"] [at:: "2024-05-01"]
            - [ ] #1 'quoted' "double" [big:: 123456789012345678901234567890]

            """
        try TodoList(markdown: markdown).write(to: URL(fileURLWithPath: path))
        let before = try Self.text(path)
        try Self.write(markdown, into: path)
        #expect(try Self.text(path) == before)
        let edited = markdown.replacingOccurrences(of: "- [/] deep", with: "- [x] deeper")
        try Self.write(edited, into: path)
        #expect(try TodoList(contentsOf: .file(path)) == (try TodoList(markdown: edited)))
        #expect(
            try Self.text(path)
                == before.replacingOccurrences(
                    of: "- name: deep\n      checked: false\n      status: /",
                    with: "- name: deeper\n      checked: true"))
    }

    @Test("a file that holds the list as todofmt writes it is left as it is, with a new file's warnings")
    func unchangedFileLeftAlone() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("own.yaml")
        let markdown = """
            ---
            title: Week
            ---
            # Home
            - [ ] Milk [added:: 2024-05-01T09:30:00Z] [blob:: null]
              - [/] Ünïcödé 🎉 [tags:: ["a", "b"]]
            - [x] 'quoted' "double" #1

            """
        let warnings = try Self.write(markdown, into: path)
        let before = try Self.text(path)
        let inode = try FileManager.default.attributesOfItem(atPath: path)[.systemFileNumber] as? Int
        #expect(try Self.write(markdown, into: path) == warnings)
        #expect(try Self.text(path) == before)
        // Renamed into place, the file would be another inode.
        #expect(try FileManager.default.attributesOfItem(atPath: path)[.systemFileNumber] as? Int == inode)

        let edited = markdown.replacingOccurrences(of: "- [ ] Milk", with: "- [x] Milk")
        try Self.write(edited, into: path)
        #expect(
            try Self.text(path)
                == before.replacingOccurrences(of: "checked: false\n  section", with: "checked: true\n  section"))
    }

    @Test("an emptied list stays where it was; an empty one takes items in block style")
    func emptied() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("e.yaml")
        try "version: 1\ntodos:\n- title: a\n  done: false\nother: x\n".write(
            toFile: path, atomically: false, encoding: .utf8)
        try Self.write("", into: path)
        #expect(try Self.text(path) == "version: 1\ntodos: []\nother: x\n")
        let options = ListOptions(key: "todos", schema: ItemSchema(naming: [.name: "title", .checked: "done"]))
        try Self.write("- [x] b\n", into: path, options: options)
        #expect(try Self.text(path) == "version: 1\ntodos:\n- title: b\n  done: true\nother: x\n")
        let root = directory.path("root.yaml")
        try "# mine\n- name: a\n".write(toFile: root, atomically: false, encoding: .utf8)
        try Self.write("", into: root)
        #expect(try Self.text(root) == "# mine\n[]\n")
    }

    /// A new file of front matter and no items ends `--- []`; items written into it (or into
    /// a file that is only `--- []`) start on the line after `---`, where a block list can
    /// (on its line the file was one libyaml refused, though the write succeeded: hunt 84).
    @Test("items written into an empty list on the '---' line start on the next line", arguments: ["\n", "\r\n"])
    func emptyAfterDocumentStart(lineBreak: String) throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("list.yaml")
        try Self.write("---\ntitle: t\n---\n", into: path)
        #expect(try Self.text(path).hasSuffix("--- []\n"))
        let crlf = try Self.text(path).replacingOccurrences(of: "\n", with: lineBreak)
        try crlf.write(toFile: path, atomically: false, encoding: .utf8)
        try Self.write("---\ntitle: t\n---\n- [ ] first\n  - [x] child\n", into: path)
        let text = try Self.text(path)
        #expect(
            text.hasSuffix(
                "---\(lineBreak)- name: first\(lineBreak)"
                    + "  checked: false\(lineBreak)  children:\(lineBreak)  - name: child\(lineBreak)    checked: true\(lineBreak)"
            ),
            "\(text.debugDescription)")
        #expect(try Self.checklist(path) == "---\ntitle: t\n---\n- [ ] first\n  - [x] child\n")
        #expect(try Self.pyyaml(path).contains(#""name": "first""#))
        // `todofmt add` into a file that is only `--- []`, with spaces before the list too.
        for empty in ["--- []\n", "---   []\n"] {
            try empty.replacingOccurrences(of: "\n", with: lineBreak).write(
                toFile: path, atomically: false, encoding: .utf8)
            _ = try FileEdit(file: URL(fileURLWithPath: path), edits: [.add(name: "first", under: nil, at: nil)]).run()
            #expect(try Self.text(path) == "---\(lineBreak)- name: first\(lineBreak)  checked: false\(lineBreak)")
            #expect(try Self.checklist(path) == "- [ ] first\n", "\(empty)")
        }
    }

    @Test("a file in flow style, which looks like JSON, is written into as YAML")
    func flowFile() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("flow.yaml")
        try "{version: 2, todos: [{title: a, done: false}]}\n".write(toFile: path, atomically: false, encoding: .utf8)
        try Self.write("- [x] a\n", into: path)
        #expect(try Self.text(path) == "{version: 2, todos: [{title: a, done: true}]}\n")
    }

    @Test("a flow list stays a flow list")
    func flowList() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("f.yaml")
        try "todos: [{title: a, done: no}, {title: \"b: x\", done: yes}]\n".write(
            toFile: path, atomically: false, encoding: .utf8)
        try Self.write("- [x] a\n- [x] b: x\n- [ ] c, d\n", into: path)
        #expect(
            try Self.text(path)
                == "todos: [{title: a, done: yes}, {title: \"b: x\", done: yes}, {title: \"c, d\", done: no}]\n")
    }

    @Test("a changed header document replaces the metadata; the list's lines stay")
    func header() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("h.yaml")
        try "---\ntitle: Shed\n# about it\n---\n- task: a   # first\n".write(
            toFile: path, atomically: false, encoding: .utf8)
        try Self.write("---\ntitle: Barn\nowner: sam\n---\n- [ ] a\n", into: path)
        #expect(try Self.text(path) == "---\ntitle: Barn\nowner: sam\n# about it\n---\n- task: a   # first\n")
    }

    @Test("a change to an anchored value that aliases share is refused, and nothing is written")
    func anchoredValues() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("a.yaml")
        let text = "- name: a\n  room: &k kitchen\n- name: b\n  room: *k\n"
        try text.write(toFile: path, atomically: false, encoding: .utf8)
        #expect(throws: ConversionError.self) {
            try Self.write("- [ ] a [room:: pantry]\n- [ ] b [room:: kitchen]\n", into: path)
        }
        #expect(try Self.text(path) == text)
        // Changing the item that holds the alias replaces only the alias.
        try Self.write("- [ ] a [room:: kitchen]\n- [ ] b [room:: hall]\n", into: path)
        #expect(try Self.text(path) == "- name: a\n  room: &k kitchen\n- name: b\n  room: hall\n")
    }

    @Test("a merged value that the item's own keys cannot change: the item is written in full, with a warning")
    func mergedRewrite() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("m.yaml")
        try "base: &b {every: week, room: hall}\ntodos:\n- <<: *b\n  name: a\n".write(
            toFile: path, atomically: false, encoding: .utf8)
        // Changing a merged value overrides it with the item's own key.
        try Self.write("- [ ] a [every:: day] [room:: hall]\n", into: path)
        #expect(
            try Self.text(path) == "base: &b {every: week, room: hall}\ntodos:\n- <<: *b\n  name: a\n  every: day\n")
        // Removing one cannot be done with merge keys.
        let warnings = try Self.write("- [ ] a [every:: day]\n", into: path)
        #expect(warnings.contains { $0.kind == .values }, "\(warnings)")
        #expect(try Self.checklist(path) == "- [ ] a [every:: day]\n")
        #expect(try Self.text(path).hasPrefix("base: &b {every: week, room: hall}\ntodos:\n- name: a\n"))
    }

    @Test("an alias of an anchored item: the file is written into, the alias stays, an edit elsewhere is one line")
    func aliasedItem() throws {
        let directory = try TemporaryDirectory()
        for text in [
            "- &x\n  title: a\n  done: false\n- title: b\n  done: false\n- *x\n",
            "todos:\n- &x {title: a, done: false}\n- {title: b, done: false}\n- *x\n",
        ] {
            let path = directory.path("c.yaml")
            try text.write(toFile: path, atomically: false, encoding: .utf8)
            #expect(try Self.checklist(path) == "- [ ] a\n- [ ] b\n- [ ] a\n")
            #expect(try Self.write("- [ ] a\n- [ ] b\n- [ ] a\n", into: path).isEmpty)
            #expect(try Self.text(path) == text)
            try Self.write("- [ ] a\n- [x] b\n- [ ] a\n", into: path)
            let expected = text.replacingOccurrences(of: "title: b, done: false", with: "title: b, done: true")
                .replacingOccurrences(of: "title: b\n  done: false", with: "title: b\n  done: true")
            #expect(try Self.text(path) == expected)
        }
    }

    @Test("a done-ness that comes from a merge key stays merged when another key changes")
    func mergedStatus() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("d.yaml")
        let text = "defaults: &d\n  prio: 1\n  done: true\ntodos:\n  - <<: *d\n    title: m\n  - {<<: *d, title: o}\n"
        try text.write(toFile: path, atomically: false, encoding: .utf8)
        #expect(try Self.write("- [x] m [prio:: 1] [note:: x]\n- [x] o [prio:: 1]\n", into: path).isEmpty)
        #expect(try Self.text(path) == text.replacingOccurrences(of: "title: m\n", with: "title: m\n    note: x\n"))
    }

    @Test("a key given twice: the earlier one and its comments stay through an edit; a list key twice is refused")
    func repeatedKeys() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("f.yaml")
        let text = "- title: a   # old name\n  # about the note\n  note: x  # keep me\n  title: a2\n  done: true\n"
        try text.write(toFile: path, atomically: false, encoding: .utf8)
        #expect(try Self.checklist(path) == "- [x] a2 [note:: x]\n")
        try Self.write("- [ ] a2 [note:: x]\n", into: path)
        #expect(try Self.text(path) == text.replacingOccurrences(of: "done: true", with: "done: false"))
        // A children key given twice: the last holds the children, edited in place.
        let nested = "- title: a\n  subtasks:\n    - title: x\n  subtasks:\n    - title: p   # pc\n      done: false\n"
        try nested.write(toFile: path, atomically: false, encoding: .utf8)
        #expect(try Self.checklist(path) == "- [ ] a\n  - [ ] p\n")
        try Self.write("- [ ] a\n  - [x] p\n", into: path)
        #expect(try Self.text(path) == nested.replacingOccurrences(of: "done: false", with: "done: true"))
        // The list under a key given twice: readers take the last; writing is refused.
        let twice = "todos:\n  - title: a\ntodos:\n  - title: b\n"
        try twice.write(toFile: path, atomically: false, encoding: .utf8)
        #expect(try Self.checklist(path) == "- [ ] b\n")
        #expect(throws: ParseError.self) { try Self.write("- [x] b\n", into: path) }
        #expect(try Self.text(path) == twice)
    }

    @Test("an item in flow style in a block list takes new keys and children in flow style; the file stays YAML")
    func flowItemInBlockList() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("fl.yaml")
        try "todos:\n  - {title: o, done: false}\n  - title: p\n".write(
            toFile: path, atomically: false, encoding: .utf8)
        try Self.write("- [ ] o [note:: x]\n  - [ ] z\n- [ ] p\n", into: path)
        #expect(
            try Self.text(path)
                == "todos:\n  - {title: o, done: false, note: x, children: [{title: z, done: false}]}\n  - title: p\n")
        #expect(try Self.checklist(path) == "- [ ] o [note:: x]\n  - [ ] z\n- [ ] p\n")
        #expect(try Self.pyyaml(path).contains(#""children": [{"title": "z", "done": false}]"#))
    }

    @Test("a changed block mapping value keeps the comments after its key and gains no blank line")
    func changedMapping() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("c.yaml")
        try "- name: a\n  checked: false\n  fields:   # c\n    # the status word\n    status: idea\n    k: 1\n".write(
            toFile: path, atomically: false, encoding: .utf8)
        try Self.write("- [ ] a [status:: idea] [k:: 3]\n", into: path)
        #expect(
            try Self.text(path)
                == "- name: a\n  checked: false\n  fields:   # c\n    # the status word\n    status: idea\n    k: 3\n")
    }

    @Test("an item moved to another depth keeps its lines, indented anew; its old parent keeps its key as []")
    func moveAcrossDepths() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("m.yaml")
        let text =
            "- task: a\n  subtasks:\n  - task: b   # cb\n    status: done\n    # own\n    note: \"q\"\n- task: c\n"
        try text.write(toFile: path, atomically: false, encoding: .utf8)
        try Self.write("- [ ] a\n- [ ] c\n- [x] b [note:: q]\n", into: path)
        #expect(
            try Self.text(path)
                == "- task: a\n  subtasks: []\n- task: c\n- task: b   # cb\n  status: done\n  # own\n  note: \"q\"\n")
        // And back: the file as it was.
        try Self.write("- [ ] a\n  - [x] b [note:: q]\n- [ ] c\n", into: path)
        #expect(try Self.text(path) == text)
    }

    @Test("an item with a name key and a title key keeps each once")
    func keyCollision() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("c.yaml")
        try "- title: T\n  name: slug\n  done: false\n".write(toFile: path, atomically: false, encoding: .utf8)
        try Self.write("- [x] T2 [name:: slug2]\n", into: path)
        #expect(try Self.text(path) == "- title: T2\n  name: slug2\n  done: true\n")
    }

    @Test("a file with CR LF line ends gets them in new lines too")
    func crlf() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("w.yaml")
        try "- name: a\r\n  checked: false\r\n".write(toFile: path, atomically: false, encoding: .utf8)
        try Self.write("- [x] a\n- [ ] b\n", into: path)
        #expect(try Self.text(path) == "- name: a\r\n  checked: true\r\n- name: b\r\n  checked: false\r\n")
    }

    @Test(
        "an item whose children take more than 64 KB is written whole when it changes, in LF and CR LF files",
        arguments: ["\n", "\r\n"])
    func largeChangedItem(lineEnd: String) throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("big.yaml")
        // Children written anew (their parent changes them), past the 64 KB a write holds.
        let children = (1...3000).map { "  - [ ] child \($0) with a name long enough to fill the lines" }
        let old = (["- [ ] parent"] + children + ["- [ ] last"]).joined(separator: "\n") + "\n"
        try Self.write(old, into: path)
        let text = try Self.text(path).replacingOccurrences(of: "\n", with: lineEnd)
        try text.write(toFile: path, atomically: false, encoding: .utf8)
        // A hand-made line keeps the file from being todofmt's own layout.
        try ("# mine" + lineEnd + text).write(toFile: path, atomically: false, encoding: .utf8)
        var edited = children
        edited[10] = "  - [x] child 11 with a name long enough to fill the lines"
        edited.insert("    - [ ] grandchild", at: 2000)
        let new = (["- [ ] parent"] + edited).joined(separator: "\n") + "\n"
        try Self.write(new, into: path)
        #expect(try Self.checklist(path) == new)
        let written = try Self.text(path)
        #expect(written.hasPrefix("# mine" + lineEnd + "- name: parent" + lineEnd))
        #expect(written.replacingOccurrences(of: lineEnd, with: "").contains("\n") == false || lineEnd == "\n")
        #expect(!written.contains("\r\r"))
    }

    @Test("a block list's value that becomes text goes on its key's line, before the key's comment")
    func blockListBecomesText() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("k.yaml")
        try "- name: a\n  k:   # why\n  - 1\n  - 2\n  j: 1\n  children:\n  - name: c\n    k:\n    - 1\n".write(
            toFile: path, atomically: false, encoding: .utf8)
        try Self.write("- [ ] a [k:: 2] [j:: 1]\n  - [ ] c [k:: x]\n", into: path)
        #expect(try Self.text(path) == "- name: a\n  k: 2 # why\n  j: 1\n  children:\n  - name: c\n    k: x\n")
    }

    @Test("front matter for a file that starts with a byte order mark goes after the mark")
    func byteOrderMarkAndFrontMatter() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("b.yaml")
        try "\u{FEFF}- name: a\n".write(toFile: path, atomically: false, encoding: .utf8)
        try Self.write("---\ntitle: T\n---\n- [x] a\n", into: path)
        // (Bytes: reading text drops the mark.)
        #expect(
            Array(try Data(contentsOf: URL(fileURLWithPath: path)))
                == Array("\u{FEFF}---\ntitle: T\n---\n- name: a\n  checked: true\n".utf8))
        #expect(try Self.checklist(path) == "---\ntitle: T\n---\n- [x] a\n")
    }

    @Test(
        "a comment in a gap is written once, and stays with the item before it",
        arguments: [
            // An item moved to the end keeps the comment that followed it.
            (
                "- name: a\n# after a\n- name: b\n- name: c\n", "- [ ] b\n- [ ] c\n- [ ] a\n",
                "- name: b\n- name: c\n- name: a\n# after a\n"
            ),
            (
                "- name: a\r\n# after a\r\n- name: b\r\n# end\r\n", "- [ ] b\n- [ ] a\n",
                "- name: b\r\n- name: a\r\n# after a\r\n# end\r\n"
            ),
            // An item put in after `a`, whose gap holds a comment: the comment stays after `a`.
            (
                "- name: a\n  checked: false\n# about b\n- name: b\n  checked: false\n",
                "- [ ] a\n- [ ] new\n- [ ] b\n",
                "- name: a\n  checked: false\n# about b\n- name: new\n  checked: false\n- name: b\n  checked: false\n"
            ),
            // Blank lines around the comment: the new item's gap keeps one blank line.
            (
                "- name: a\n\n# about b\n\n- name: b\n", "- [ ] a\n- [ ] new\n- [ ] b\n",
                "- name: a\n\n# about b\n\n- name: new\n\n- name: b\n"
            ),
        ])
    func commentWrittenOnce(file: String, checklist: String, expected: String) throws {
        let (directory, path) = try Self.rewritten(file, with: checklist)
        defer { withExtendedLifetime(directory) {} }
        #expect(try Self.text(path) == expected)
        #expect(try Self.checklist(path) == checklist)
    }

    /// A gap between keys is written whole only between the keys it stood between; where a
    /// key is put in between or the keys move apart, its comments go with their keys: the
    /// comment lines before a key with it, a comment after a value with that value.
    @Test(
        "a comment between keys stays with its key when a key is put in or the keys move",
        arguments: [
            // A key put in after a value with a comment on its line: the next key still
            // starts a line, and the comment line before `due` stays before it.
            (
                "- name: a\n  prio: 1  # urgent\n  due: x\n", "- [ ] a [prio:: 1] [tag:: t] [due:: x]\n",
                "- name: a\n  prio: 1  # urgent\n  tag: t\n  due: x\n"
            ),
            (
                "- name: a\r\n  prio: 1  # urgent\r\n  # about due\r\n  due: x\r\n",
                "- [ ] a [prio:: 1] [tag:: t] [due:: x]\n",
                "- name: a\r\n  prio: 1  # urgent\r\n  tag: t\r\n  # about due\r\n  due: x\r\n"
            ),
            // A removed key takes the comment on its line, and leaves the comment lines before it.
            (
                "- name: a\n  checked: false\n  # about due\n  due: 4  # c4\n", "- [ ] a [est:: 18]\n",
                "- name: a\n  checked: false\n  est: 18\n  # about due\n"
            ),
            // The last key's comment, after its value, stays with it.
            (
                "- name: a\n  f0: x  # after f0\n  # before f1\n  f1: y  # after f1\n  # tail\n- name: b\n",
                "- [ ] a [f1:: y] [f0:: x]\n- [ ] b\n",
                "- name: a\n  # before f1\n  f1: y  # after f1\n  f0: x  # after f0\n  # tail\n- name: b\n"
            ),
            (
                "- name: a\n  done: false\n  note: x\n  # real comment\n  prio: 1\n", "- [ ] a [prio:: 1] [note:: x]\n",
                "- name: a\n  done: false\n  # real comment\n  prio: 1\n  note: x\n"
            ),
            (
                "- name: a\r\n  done: false\r\n  note: x\r\n  # real comment\r\n  prio: 1\r\n",
                "- [ ] a [prio:: 1] [note:: x]\n",
                "- name: a\r\n  done: false\r\n  # real comment\r\n  prio: 1\r\n  note: x\r\n"
            ),
            // A comment after a value stays on its key's line.
            (
                "- name: a\n  note: x\n  prio: 1  # urgent\n  tag: t\n", "- [ ] a [tag:: t] [prio:: 1] [note:: x]\n",
                "- name: a\n  tag: t\n  prio: 1  # urgent\n  note: x\n"
            ),
            (
                "- name: a\n  note: x  # about x\n  # about prio\n  prio: 1\n  tag: t\n",
                "- [ ] a [tag:: t] [prio:: 2] [note:: x]\n",
                "- name: a\n  tag: t\n  # about prio\n  prio: 2\n  note: x  # about x\n"
            ),
        ])
    func commentOfMovedKey(file: String, checklist: String, expected: String) throws {
        try commentWrittenOnce(file: file, checklist: checklist, expected: expected)
    }

    /// An item that moved and changed pairs with its old self by its name: its lines move
    /// with it (its comments, a block scalar), not written anew.
    @Test("an item that moved and changed, or changed after a new item, keeps its comments and block scalar")
    func moveAndChange() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("m.yaml")
        try
            "todos:\n  - title: A\n    note: |\n      line one\n      line two\n    # body of A\n  # after A\n  - title: B\n"
            .write(toFile: path, atomically: false, encoding: .utf8)
        try Self.write("- [ ] B\n- [x] A [note:: \"line one\\nline two\\n\"]\n", into: path)
        #expect(
            try Self.text(path)
                == "todos:\n  - title: B\n  - title: A\n    note: |\n      line one\n      line two\n    checked: true\n"
                + "    # body of A\n  # after A\n")
        // An item put in just before an item that changed: the changed one keeps its lines.
        try "- name: a\n- name: b\n  # about b\n  prio: 1\n- name: c\n".write(
            toFile: path, atomically: false, encoding: .utf8)
        try Self.write("- [ ] a\n- [ ] new\n- [ ] b [prio:: 2]\n- [ ] c\n", into: path)
        #expect(try Self.text(path) == "- name: a\n- name: new\n- name: b\n  # about b\n  prio: 2\n- name: c\n")
        // An item that moved under another and changed keeps its lines too.
        try "- name: a\n  checked: false\n  k: 1  # about k\n- name: b\n  checked: false\n".write(
            toFile: path, atomically: false, encoding: .utf8)
        try Self.write("- [x] b\n  - [x] a [k:: 1]\n", into: path)
        #expect(
            try Self.text(path)
                == "- name: b\n  checked: true\n  children:\n  - name: a\n    checked: true\n    k: 1  # about k\n")
        // The new item keeps its fields in its order, also where the file has one of them.
        try "- name: b\n  checked: false\n  zz: 2\n".write(toFile: path, atomically: false, encoding: .utf8)
        try Self.write("- [ ] new [est:: 8] [zz:: 1]\n- [x] b [zz:: 2]\n", into: path)
        #expect(
            try Self.text(path)
                == "- name: new\n  checked: false\n  est: 8\n  zz: 1\n- name: b\n  checked: true\n  zz: 2\n")
    }

    /// The byte order mark is no column: the first item's keys line up with its name, and
    /// it is read (and written) whole.
    @Test("the first item of a file that starts with a byte order mark keeps its keys", arguments: [true, false])
    func byteOrderMarkFirstItem(alone: Bool) throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("b.yaml")
        try "\u{FEFF}- name: a\n  checked: false\n  note: x\n- name: b\n  checked: false\n".write(
            toFile: path, atomically: false, encoding: .utf8)
        var edit = FileEdit(file: URL(fileURLWithPath: path), edits: [.check([.position([1])])])
        edit.editsItemAlone = alone
        _ = try edit.run()
        #expect(
            Array(try Data(contentsOf: URL(fileURLWithPath: path)))
                == Array("\u{FEFF}- name: a\n  checked: true\n  note: x\n- name: b\n  checked: false\n".utf8))
    }

    /// An item in flow style in a block list owns the comment on its line, as a block item does.
    @Test("a flow item's comment on its line moves with it")
    func flowItemComment() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("f.yaml")
        try "- {name: a, checked: false}  # ca\n- {name: b, checked: false}  # cb\n".write(
            toFile: path, atomically: false, encoding: .utf8)
        try Self.write("- [ ] b\n- [x] a\n", into: path)
        #expect(try Self.text(path) == "- {name: b, checked: false}  # cb\n- {name: a, checked: true}  # ca\n")
    }

    @Test("order keys are renumbered; ids continue")
    func order() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("o.yaml")
        try "- id: 1\n  name: a\n  order: 1.0\n- id: 7\n  name: b\n  order: 2.0\n- id: 3\n  name: c\n  order: 3.0\n"
            .write(toFile: path, atomically: false, encoding: .utf8)
        try Self.write(
            "- [ ] c [id:: 3] [order:: 3.0]\n- [ ] a [id:: 1] [order:: 1.0]\n- [ ] b [id:: 7] [order:: 2.0]\n- [ ] d\n",
            into: path)
        #expect(
            try Self.text(path)
                == "- id: 3\n  name: c\n  order: 0.0\n- id: 1\n  name: a\n  order: 1.0\n- id: 7\n  name: b\n  order: 2.0\n- id: 8\n  name: d\n  order: 3.0\n"
        )
    }
}

@Suite("Writing into existing YAML with anchors")
struct YAMLAnchoredWriteBackTests {
    @Test("a file with anchors: a moved item is followed by the gap that followed it")
    func movesKeepGaps() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("g.yaml")
        let text = "defaults: &d {every: week}\ntodos:\n- name: a\n  <<: *d\n\n\n- name: b\n# about c\n- name: c\n"
        try text.write(toFile: path, atomically: false, encoding: .utf8)
        try YAMLWriteBackTests.write("- [ ] b\n- [ ] a [every:: week]\n- [ ] c\n", into: path)
        #expect(
            try YAMLWriteBackTests.text(path)
                == "defaults: &d {every: week}\ntodos:\n- name: b\n# about c\n- name: a\n  <<: *d\n\n\n- name: c\n")
    }

    /// An item in flow style (`- {name: Bread}`) equal to a block item with children takes
    /// those children when the list moves (the comparison pairs equal items in order), and
    /// its children were written as block lines inside `[…]`, which do not read: such a
    /// write is read back first and refused, the file left as it was (hunt 60).
    @Test("a write that would break a flow-style item is refused, the file as it was")
    func flowItemRefused() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("f.yaml")
        let text =
            "- name: x\n  checked: false\n- name: Bread\n  checked: false\n  children:\n  - name: Milk\n"
            + "    checked: false\n- name: y\n  checked: false\n- {name: Bread, checked: false}\n"
        try text.write(toFile: path, atomically: false, encoding: .utf8)
        #expect {
            _ = try FileEdit(file: URL(fileURLWithPath: path), edits: [.move(.position([4]), to: [1])]).run()
        } throws: { error in
            "\(error)".contains("flow style") && "\(error)".contains("nothing was written")
        }
        #expect(try YAMLWriteBackTests.text(path) == text)
        // A change the flow item takes as it is stays written in flow style.
        _ = try FileEdit(file: URL(fileURLWithPath: path), edits: [.check([.position([4])])]).run()
        #expect(
            try YAMLWriteBackTests.text(path)
                == text.replacingOccurrences(of: "{name: Bread, checked: false}", with: "{name: Bread, checked: true}"))
    }

    @Test("a NaN value reads back as itself: a file with anchors takes an edit and an unchanged write")
    func nanReadsBack() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("n.yaml")
        let text = "d: &x 1\ntodos:\n  - title: a\n    done: false\n    v: .nan\n  - title: b\n    done: false\n"
        try text.write(toFile: path, atomically: false, encoding: .utf8)
        let checklist = try YAMLWriteBackTests.checklist(path)
        try YAMLWriteBackTests.write(checklist, into: path)
        #expect(try YAMLWriteBackTests.text(path) == text)
        try YAMLWriteBackTests.write(checklist.replacingOccurrences(of: "- [ ] b", with: "- [x] b"), into: path)
        #expect(
            try YAMLWriteBackTests.text(path)
                == text.replacingOccurrences(of: "b\n    done: false", with: "b\n    done: true"))
    }
}
#endif
