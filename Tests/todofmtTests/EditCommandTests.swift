import Foundation
import Testing

/// The editing commands and list's filters, run as a user runs them, on real files of every
/// format: each edit changes the edited item only.
@Suite("Editing commands")
struct EditCommandTests {
    static let checklist = """
        # Today
        - [ ] Milk [prio:: 2]
        - [x] Eggs
          - [ ] Brown ones
        - [/] Bread [store:: Bakery Lane]

        # Later
        - [ ] Coffee beans [qty:: 2]
        - [ ] Milk

        """

    /// The checklist with line `line` (1-based) replaced.
    static func replacing(_ line: Int, with text: String, in original: String = checklist) -> String {
        var lines = original.components(separatedBy: "\n")
        lines[line - 1] = text
        return lines.joined(separator: "\n")
    }

    func edit(_ arguments: [String], _ expected: String, file: String = "TODO.md", original: String = checklist) throws
    {
        let ws = try Workspace([file: original])
        let run = try Run(arguments.map { $0 == "FILE" ? file : $0 }, in: ws.url)
        #expect(run.status == 0 && run.stderr.isEmpty, "\(arguments): \(run.stderr)")
        #expect(try ws.read(file) == expected, "\(arguments)")
    }

    @Test("each command on a checklist changes only the lines it must")
    func checklistCommands() throws {
        try edit(["done", "FILE", "1"], Self.replacing(2, with: "- [x] Milk [prio:: 2]"))
        try edit(
            ["undo", "FILE", "2", "3"],
            Self.replacing(5, with: "- [ ] Bread [store:: Bakery Lane]", in: Self.replacing(3, with: "- [ ] Eggs")))
        try edit(
            ["toggle", "FILE", "Eggs", "2.1"],
            Self.replacing(4, with: "  - [x] Brown ones", in: Self.replacing(3, with: "- [ ] Eggs")))
        try edit(["rename", "FILE", "4", "Decaf beans"], Self.replacing(8, with: "- [ ] Decaf beans [qty:: 2]"))
        try edit(
            ["set", "FILE", "1", "prio=3", "due=2024-06-01T09:00:00Z", "note=two words"],
            Self.replacing(2, with: "- [ ] Milk [prio:: 3] [due:: 2024-06-01T09:00:00Z] [note:: two words]"))
        try edit(["set", "FILE", "2", "code=\"7\""], Self.replacing(3, with: "- [x] Eggs [code:: \"7\"]"))
        try edit(["unset", "FILE", "Bread", "store", "absent"], Self.replacing(5, with: "- [/] Bread"))
        try edit(
            ["rm", "FILE", "2"], Self.checklist.replacingOccurrences(of: "- [x] Eggs\n  - [ ] Brown ones\n", with: ""))
        try edit(["add", "FILE", "Tea"], Self.checklist + "- [ ] Tea\n")
        try edit(
            ["add", "FILE", "White ones", "--under", "Eggs"],
            Self.checklist.replacingOccurrences(of: "Brown ones\n", with: "Brown ones\n  - [ ] White ones\n"))
        try edit(
            ["add", "FILE", "First", "--at", "1"],
            Self.checklist.replacingOccurrences(of: "# Today\n", with: "# Today\n- [ ] First\n"))
        try edit(
            ["add", "--at", "2.1", "FILE", "Large"],
            Self.checklist.replacingOccurrences(of: "- [x] Eggs\n", with: "- [x] Eggs\n  - [ ] Large\n"))
        try edit(
            ["mv", "FILE", "2", "3"],
            Self.checklist.replacingOccurrences(
                of: "- [x] Eggs\n  - [ ] Brown ones\n- [/] Bread [store:: Bakery Lane]\n",
                with: "- [/] Bread [store:: Bakery Lane]\n- [x] Eggs\n  - [ ] Brown ones\n"))
        try edit(
            ["mv", "FILE", "2.1", "1.1"],
            Self.checklist.replacingOccurrences(
                of: "- [ ] Milk [prio:: 2]\n- [x] Eggs\n  - [ ] Brown ones\n",
                with: "- [ ] Milk [prio:: 2]\n  - [ ] Brown ones\n- [x] Eggs\n"))
    }

    @Test("a name several items have is an error listing them; a missing item too; nothing is written")
    func ambiguous() throws {
        let ws = try Workspace(["TODO.md": Self.checklist])
        let run = try Run(["done", "TODO.md", "Milk"], in: ws.url)
        #expect(run.status == 1)
        #expect(
            run.stderr
                == "todofmt: error: TODO.md: 2 items are named 'Milk'; name one by its position:\n  1 [ ] Milk [prio:: 2]\n  5 [ ] Milk\n"
        )
        let missing = try Run(["rm", "TODO.md", "9", "Tea"], in: ws.url)
        #expect(missing.status == 1 && missing.stderr.contains("there is no item 9"))
        let beyond = try Run(["mv", "TODO.md", "1", "9"], in: ws.url)
        #expect(beyond.status == 1 && beyond.stderr.contains("at most 5"), "\(beyond.stderr)")
        let bad = try Run(["mv", "TODO.md", "1", "first"], in: ws.url)
        #expect(bad.status == 64)
        #expect(try ws.read("TODO.md") == Self.checklist)
    }

    @Test("--dry-run prints a unified diff and writes nothing")
    func dryRun() throws {
        let ws = try Workspace(["TODO.md": Self.checklist])
        let run = try Run(["done", "--dry-run", "TODO.md", "4"], in: ws.url)
        #expect(run.status == 0)
        #expect(
            run.stdout == """
                --- a/TODO.md
                +++ b/TODO.md
                @@ -5,5 +5,5 @@
                 - [/] Bread [store:: Bakery Lane]
                 
                 # Later
                -- [ ] Coffee beans [qty:: 2]
                +- [x] Coffee beans [qty:: 2]
                 - [ ] Milk

                """)
        #expect(try ws.read("TODO.md") == Self.checklist)
    }

    @Test("an edit that needs a key the app's items never use warns, naming it; --strict refuses it and writes nothing")
    func strict() throws {
        let app = "[{\"title\": \"a\", \"done\": false}, {\"title\": \"b\", \"done\": true}]\n"
        let ws = try Workspace(["app.json": app])
        let refused = try Run(["add", "--strict", "app.json", "child", "--under", "1"], in: ws.url)
        #expect(refused.status == 1)
        #expect(
            refused.stderr
                == "todofmt: error: app.json: not written (--strict): the file's items have no key for nested items: "
                + "todofmt used the key children, which the app may not read (name the key with --field children=KEY) "
                + "(item 1 a)\n")
        #expect(try ws.read("app.json") == app)
        // A dry run says so too.
        let dry = try Run(["add", "--dry-run", "--strict", "app.json", "child", "--under", "1"], in: ws.url)
        #expect(dry.status == 1 && dry.stdout.isEmpty && dry.stderr == refused.stderr)
        let warned = try Run(["add", "app.json", "child", "--under", "1"], in: ws.url)
        #expect(warned.status == 0)
        #expect(warned.stderr.hasPrefix("todofmt: warning: the file's items have no key for nested items"))
        #expect(try ws.read("app.json").contains(#""children": [{"title": "child", "done": false}]"#))
        // An edit the file takes as it is passes --strict.
        #expect(try Run(["done", "--strict", "app.json", "1"], in: ws.url).status == 0)
    }

    @Test("set changes a nested item's section, which is a field; a top-level item's section is refused")
    func nestedSection() throws {
        let app = #"[{"title": "a", "section": "Home", "subtasks": [{"title": "b", "section": "Inner"}]}]"# + "\n"
        let ws = try Workspace(["h.json": app])
        let run = try Run(["set", "h.json", "1.1", "section=Other"], in: ws.url)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try ws.read("h.json") == app.replacingOccurrences(of: "Inner", with: "Other"))
        let refused = try Run(["set", "h.json", "1", "section=Work"], in: ws.url)
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("'section' is a top-level item's section"), "\(refused.stderr)")
        #expect(try ws.read("h.json") == app.replacingOccurrences(of: "Inner", with: "Other"))
    }

    @Test("the file's mode is kept")
    func mode() throws {
        let ws = try Workspace(["TODO.md": Self.checklist])
        let path = ws.url.appendingPathComponent("TODO.md").path
        try FileManager.default.setAttributes([.posixPermissions: 0o640], ofItemAtPath: path)
        #expect(try Run(["done", "TODO.md", "1"], in: ws.url).status == 0)
        #expect((try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int) == 0o640)
    }

    // MARK: Other formats

    static let make = """
        import json, plistlib, sqlite3, sys, os, yaml
        os.chdir(sys.argv[1])
        items = [{"name": "Milk", "checked": False, "prio": 2}, {"name": "Eggs", "checked": True}, {"name": "Bread", "checked": False}]
        json.dump(items, open("l.json", "w"), indent=2)
        open("l.yaml", "w").write(yaml.safe_dump(items, sort_keys=False))
        plistlib.dump(items, open("l.plist", "wb"), fmt=plistlib.FMT_XML)
        plistlib.dump(items, open("b.plist", "wb"), fmt=plistlib.FMT_BINARY)
        db = sqlite3.connect("l.sqlite")
        db.execute("CREATE TABLE todos (id INTEGER PRIMARY KEY, name TEXT, checked INTEGER, prio INTEGER)")
        db.executemany("INSERT INTO todos (name, checked, prio) VALUES (?, ?, ?)", [(i["name"], int(i["checked"]), i.get("prio")) for i in items])
        db.commit()
        open("l.sql", "w").write("\\n".join(db.iterdump()) + "\\n")
        """

    func files() throws -> Workspace {
        let ws = try Workspace([:])
        let python = try Tools.run(try Tools.path(of: "python3"), ["-c", Self.make, ws.url.path])
        #expect(python.status == 0, "\(python.stderr)")
        return ws
    }

    static func dump(_ url: URL) throws -> String {
        try Tools.run(try Tools.path(of: "sqlite3"), [url.path, ".dump"]).stdout
    }

    @Test(
        "done in JSON, YAML, XML property list and SQL dump files changes that item's line", .needsYAML,
        arguments: ["l.json", "l.yaml", "l.plist", "l.sql"])
    func textFormats(_ file: String) throws {
        let ws = try files()
        let before = try ws.read(file)
        let run = try Run(["done", file, "3"], in: ws.url)
        #expect(run.status == 0 && run.stderr.isEmpty, "\(run.stderr)")
        let after = try ws.read(file)
        let old = before.components(separatedBy: "\n")
        let new = after.components(separatedBy: "\n")
        #expect(old.count == new.count, "\(after)")
        let changed = zip(old, new).filter { $0 != $1 }
        #expect(changed.count == 1, "\(file): \(changed)")
        #expect(try Run(["list", file, "--done"], in: ws.url).stdout.contains("3 [x] Bread"))
    }

    @Test("add, mv and rm in a JSON file keep nested items with their item and sections as a checklist would")
    func structure() throws {
        let ws = try files()
        for command in [
            ["add", "l.json", "Brown ones", "--under", "Eggs"], ["add", "l.json", "White ones", "--at", "2.1"],
            ["mv", "l.json", "2", "1"], ["rm", "l.json", "3"], ["mv", "l.json", "1.2", "2.1"],
        ] {
            let run = try Run(command, in: ws.url)
            #expect(run.status == 0, "\(command): \(run.stderr)")
        }
        #expect(
            try Run(["list", "l.json"], in: ws.url).stdout
                == "1 [x] Eggs\n1.1 [ ] White ones\n2 [ ] Milk [prio:: 2]\n2.1 [ ] Brown ones\n")
    }

    @Test("every command on an SQLite database changes only its rows; --dry-run shows them and writes nothing")
    func database() throws {
        let ws = try files()
        let db = ws.url.appendingPathComponent("l.sqlite")
        let before = try Self.dump(db)
        let dry = try Run(["set", "l.sqlite", "Eggs", "prio=5", "--dry-run"], in: ws.url)
        #expect(dry.status == 0)
        #expect(dry.stdout == "--- todos (id, name, checked, prio)\n-(2, 'Eggs', 1, NULL)\n+(2, 'Eggs', 1, 5)\n")
        #expect(try Self.dump(db) == before)
        #expect(try Run(["set", "l.sqlite", "Eggs", "prio=5"], in: ws.url).status == 0)
        let after = try Self.dump(db)
        #expect(after == before.replacingOccurrences(of: "VALUES(2,'Eggs',1,NULL)", with: "VALUES(2,'Eggs',1,5)"))
        #expect(try Run(["rename", "l.sqlite", "1", "Oat milk"], in: ws.url).status == 0)
        #expect(try Run(["rm", "l.sqlite", "3"], in: ws.url).status == 0)
        #expect(try Run(["add", "l.sqlite", "Tea"], in: ws.url).status == 0)
        #expect(
            try Run(["list", "l.sqlite"], in: ws.url).stdout
                == "1 [ ] Oat milk [id:: 1] [prio:: 2]\n2 [x] Eggs [id:: 2] [prio:: 5]\n3 [ ] Tea [id:: 3]\n")
    }

    @Test(
        "mv renumbers the moved item's order, not a neighbour's, in any format", .needsYAML,
        arguments: ["o.json", "o.yaml", "o.sqlite"])
    func moveRenumbersMovedItem(_ file: String) throws {
        let ws = try Workspace([:])
        let make = """
            import json, sqlite3, sys, os, yaml
            os.chdir(sys.argv[1])
            items = [{"id": i, "title": "t%d" % i, "done": False, "order": i * 10} for i in range(1, 5)]
            json.dump(items, open("o.json", "w"), indent=1)
            open("o.yaml", "w").write(yaml.safe_dump(items, sort_keys=False))
            db = sqlite3.connect("o.sqlite")
            db.execute("CREATE TABLE tasks (id INTEGER PRIMARY KEY, title TEXT NOT NULL, completed BOOLEAN, sort_order INTEGER, updated_at TEXT)")
            db.executemany("INSERT INTO tasks VALUES (?, ?, 0, ?, '2024-01-01T00:00:00.000000Z')", [(i, "t%d" % i, i * 10) for i in range(1, 5)])
            db.commit()
            """
        let python = try Tools.run(try Tools.path(of: "python3"), ["-c", make, ws.url.path])
        #expect(python.status == 0, "\(python.stderr)")
        let url = ws.url.appendingPathComponent(file)
        let read = { file.hasSuffix("sqlite") ? try Self.dump(url) : try ws.read(file) }
        let before = try read()
        let run = try Run(["mv", file, "2", "3"], in: ws.url)
        #expect(run.status == 0 && run.stderr.isEmpty, "\(run.stderr)")
        #expect(
            try Run(["list", file], in: ws.url).stdout.components(separatedBy: "\n").map {
                $0.split(separator: " ").dropFirst(3).first ?? ""
            } == ["t1", "t3", "t2", "t4", ""])
        // t3 keeps its line (or row) as it was: only t2's changed.
        let after = try read()
        let gone = Set(before.components(separatedBy: "\n")).subtracting(after.components(separatedBy: "\n"))
        #expect(gone.allSatisfy { !$0.contains("30") && !$0.contains("t3") }, "\(gone)")
        #expect(gone.contains { $0.contains("20") || $0.contains("t2") }, "\(gone)")
    }

    @Test("rm in a Core Data store refuses an item another entity's to-one relationship holds, naming it; others go")
    func coreDataReferencedRemoval() throws {
        let ws = try Workspace([:])
        // The shape of a real store (a crafting app): items, recipes producing an item,
        // components naming an item and a recipe; every to-one column indexed.
        let make = """
            import sqlite3, sys, os
            os.chdir(sys.argv[1])
            db = sqlite3.connect("c.store")
            for sql in [
                "CREATE TABLE ZCOMPONENT ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZCOUNT INTEGER, ZCRAFTINGRECIPE INTEGER, ZITEM INTEGER, ZID BLOB )",
                "CREATE TABLE ZCRAFTINGRECIPE ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZPRODUCEDITEM INTEGER, ZPRODUCEDITEMCOUNT VARCHAR )",
                "CREATE TABLE ZITEM ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZCRAFTINGRECIPE INTEGER, ZNAME VARCHAR )",
                "CREATE INDEX ZCOMPONENT_ZCRAFTINGRECIPE_INDEX ON ZCOMPONENT (ZCRAFTINGRECIPE)",
                "CREATE INDEX ZCOMPONENT_ZITEM_INDEX ON ZCOMPONENT (ZITEM)",
                "CREATE INDEX ZCRAFTINGRECIPE_ZPRODUCEDITEM_INDEX ON ZCRAFTINGRECIPE (ZPRODUCEDITEM)",
                "CREATE INDEX ZITEM_ZCRAFTINGRECIPE_INDEX ON ZITEM (ZCRAFTINGRECIPE)",
                "CREATE UNIQUE INDEX Z_Item_UNIQUE_name ON ZITEM (ZNAME COLLATE BINARY ASC)",
                "CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER)",
                "CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB)",
                "CREATE TABLE Z_MODELCACHE (Z_CONTENT BLOB)",
            ]:
                db.execute(sql)
            db.executemany("INSERT INTO Z_PRIMARYKEY VALUES (?, ?, 0, ?)", [(1, "Component", 2), (2, "CraftingRecipe", 2), (3, "Item", 4)])
            db.execute("INSERT INTO Z_METADATA VALUES (1, 'AAAA-BBBB', NULL)")
            db.executemany("INSERT INTO ZITEM VALUES (?, 3, 1, ?, ?)", [(1, 2, "Plank"), (2, None, "Log"), (3, None, "Nail"), (4, None, "Glue")])
            db.executemany("INSERT INTO ZCRAFTINGRECIPE VALUES (?, 2, 1, ?, '4')", [(1, 3), (2, 1)])
            db.executemany("INSERT INTO ZCOMPONENT VALUES (?, 1, 1, 1, ?, ?, NULL)", [(1, 2, 2), (2, 4, 2)])
            db.commit()
            """
        let python = try Tools.run(try Tools.path(of: "python3"), ["-c", make, ws.url.path])
        #expect(python.status == 0, "\(python.stderr)")
        let store = ws.url.appendingPathComponent("c.store")
        let before = try Self.dump(store)
        // Plank (Z_PK 1) is what recipe 2 produces.
        let refused = try Run(["rm", "c.store", "Plank"], in: ws.url)
        #expect(refused.status != 0)
        #expect(refused.stderr.contains("ZCRAFTINGRECIPE.ZPRODUCEDITEM"), "\(refused.stderr)")
        #expect(try Self.dump(store) == before)
        // Glue (Z_PK 4) is held by no relationship (ZCOMPONENT.ZCRAFTINGRECIPE = 4 is a recipe's key).
        let removed = try Run(["rm", "c.store", "Glue"], in: ws.url)
        #expect(removed.status == 0, "\(removed.stderr)")
        #expect(try Run(["list", "c.store"], in: ws.url).stdout.contains("Glue") == false)
    }

    @Test("done in a binary property list changes that value only")
    func binaryPropertyList() throws {
        let ws = try files()
        let run = try Run(["toggle", "b.plist", "Milk"], in: ws.url)
        #expect(run.status == 0, "\(run.stderr)")
        let data = try Tools.run(
            try Tools.path(of: "python3"),
            [
                "-c", "import plistlib, sys; print(plistlib.load(open(sys.argv[1], 'rb')))",
                ws.url.appendingPathComponent("b.plist").path,
            ])
        #expect(
            data.stdout
                == "[{'checked': True, 'name': 'Milk', 'prio': 2}, {'checked': True, 'name': 'Eggs'}, {'checked': False, 'name': 'Bread'}]\n"
        )
        let dry = try Run(["undo", "b.plist", "1", "--dry-run"], in: ws.url)
        #expect(dry.stdout.contains("-- [x] Milk [prio:: 2]\n+- [ ] Milk [prio:: 2]\n"), "\(dry.stdout)")
    }

    @Test("done in a Core Data store (an app fixture) changes that row, its Z_OPT with it")
    func coreData() throws {
        let ws = try Workspace([:])
        let fixture = AppFixture.fixtures(["sqlite"]).first { $0.file == "swiftdata-default.store" }!
        let copy = try fixture.copy(into: ws)
        let before = try Self.dump(copy).components(separatedBy: "\n")
        let run = try Run(["done", copy.lastPathComponent, "1", "--entity", "TodoItem"], in: ws.url)
        #expect(run.status == 0, "\(run.stderr)")
        let after = try Self.dump(copy).components(separatedBy: "\n")
        let changed = zip(before, after).filter { $0 != $1 }
        #expect(before.count == after.count && changed.count == 1, "\(changed)")
        #expect(changed.first?.1.contains("'Post the parcel'") == true)
    }

    // MARK: list

    @Test("list's filters, paging, order and JSON keep each item's position")
    func listFilters() throws {
        let ws = try Workspace(["TODO.md": Self.checklist])
        func list(_ options: String...) throws -> String {
            let run = try Run(["list", "TODO.md"] + options, in: ws.url)
            #expect(run.status == 0, "\(run.stderr)")
            return run.stdout
        }
        #expect(
            try list("--open")
                == "1 [ ] Milk [prio:: 2]\n2.1 [ ] Brown ones\n4 [ ] Coffee beans [qty:: 2]\n5 [ ] Milk\n")
        #expect(try list("--done", "--status", "/") == "2 [x] Eggs\n3 [/] Bread [store:: Bakery Lane]\n")
        #expect(try list("--section", "Today", "--open") == "1 [ ] Milk [prio:: 2]\n2.1 [ ] Brown ones\n")
        #expect(try list("--grep", "mIlK") == "1 [ ] Milk [prio:: 2]\n5 [ ] Milk\n")
        #expect(try list("--field", "qty=2") == "4 [ ] Coffee beans [qty:: 2]\n")
        #expect(try list("--limit", "2", "--offset", "1") == "2 [x] Eggs\n2.1 [ ] Brown ones\n")
        #expect(
            try list("--sort", "prio:desc,name", "--limit", "3")
                == "1 [ ] Milk [prio:: 2]\n3 [/] Bread [store:: Bakery Lane]\n2.1 [ ] Brown ones\n")
        #expect(
            try list("--format", "json", "--grep", "e") == """
                [
                  {"at": "2", "name": "Eggs", "checked": true, "section": "Today"},
                  {"at": "2.1", "name": "Brown ones", "checked": false},
                  {"at": "3", "name": "Bread", "checked": false, "status": "/", "store": "Bakery Lane", "section": "Today"},
                  {"at": "4", "name": "Coffee beans", "checked": false, "qty": 2, "section": "Later"}
                ]

                """)
    }
}
