import Foundation
import Testing

@testable import TodoFormat

/// Writing a list back into tables made like apps' (with the sqlite3 shell): values keep
/// their stored spelling, done-ness goes back in the app's words and codes, what a table
/// cannot hold is a warning, and dumps change only the statements of changed rows.
@Suite("Writing back into databases and dumps")
struct WriteBackTests {
    static let now = ISO8601.parse("2026-01-02T03:04:05.25Z".utf8)!

    /// A database made by the sqlite3 shell from `sql`.
    static func database(_ sql: String, in directory: TemporaryDirectory, name: String = "app.sqlite") throws -> String
    {
        let path = directory.path(name)
        _ = try Databases.sqlite3(path, [sql])
        return path
    }

    /// Reads the database, lets `edit` change the list, writes it back at the pinned time;
    /// returns the lines of `.dump` that went and came.
    static func edit(
        _ path: String, options: ListOptions = ListOptions(), strict: Bool = false, _ edit: (inout TodoList) -> Void
    ) throws -> (gone: [String], new: [String], warnings: [ConversionWarning]) {
        let before = try Databases.dump(path).split(separator: "\n").map(String.init)
        var list = try TodoList(contentsOf: URL(fileURLWithPath: path), options: options)
        edit(&list)
        let warnings = try Clock.$pinned.withValue(now) {
            try list.write(to: URL(fileURLWithPath: path), options: options, strict: strict)
        }
        let after = try Databases.dump(path).split(separator: "\n").map(String.init)
        return (before.filter { !after.contains($0) }, after.filter { !before.contains($0) }, warnings)
    }

    @Test("issue 8's reproduction: text dates from GORM and Rails keep their exact text through a checklist")
    func textDates() throws {
        let directory = try TemporaryDirectory()
        let path = try Self.database(
            "create table items(id integer primary key,title text,done boolean,created_at datetime);"
                + "insert into items values(1,'a',0,'2024-05-01 09:30:00.123456'),(2,'b',0,'2025-10-01 13:33:10.6197688+03:30');",
            in: directory)
        let before = try Databases.dump(path)
        let markdown = directory.path("d.md")
        _ = try Conversion(input: .at(path), output: .at(markdown)).run()
        _ = try Conversion(input: .at(markdown), output: .at(path)).run()
        #expect(try Databases.dump(path) == before)
    }

    @Test("a changed or new date is written in the column's layout: fraction digits and offset style")
    func dateLayouts() throws {
        let directory = try TemporaryDirectory()
        let path = try Self.database(
            """
            create table t(id integer primary key, title text, fixed datetime, varying datetime, zoned datetime, plain datetime, iso datetime);
            insert into t values(1,'a','2024-05-01 09:30:00.123456','2024-05-01 09:30:00.1+03:30','2024-05-01 09:30:00Z','2024-05-01 09:30:00','2024-05-01T09:30:00.5Z');
            insert into t values(2,'b','2024-05-01 09:30:00','2024-05-01 09:30:00.12345+03:30','2024-05-01 09:30:01Z','2024-05-01 09:30:01','2024-05-01T09:30:01.25Z');
            """, in: directory)
        let date = FieldValue.date(Self.now)
        let change = try Self.edit(path) { list in
            for key in ["fixed", "varying", "zoned", "plain", "iso"] {
                list.items[0].fields[list.items[0].fields.firstIndex { $0.key == key }!].value = date
            }
        }
        #expect(
            change.new == [
                "INSERT INTO t VALUES(1,'a','2026-01-02 03:04:05.250000','2026-01-02 03:04:05.25+00:00','2026-01-02 03:04:05Z','2026-01-02 03:04:05','2026-01-02T03:04:05.25Z');"
            ])
        #expect(change.gone.count == 1)
    }

    @Test("done-ness goes back in the app's own words and codes, only where the meaning changed")
    func statusWords() throws {
        let directory = try TemporaryDirectory()
        let tracks = try Self.database(
            """
            create table todos(id integer primary key, description text, state varchar(20) default 'immediate' not null, completed_at datetime, updated_at datetime);
            insert into todos values(1,'Call',  'active',NULL,'2008-03-01 10:00:00');
            insert into todos values(2,'Buy',   'completed','2008-03-05 16:30:00','2008-03-05 16:30:00');
            insert into todos values(3,'Ask',   'deferred',NULL,'2008-03-02 09:00:00');
            insert into todos values(4,'Paint', 'pending',NULL,'2008-03-02 09:10:00');
            """, in: directory, name: "tracks.sqlite")
        let options = ListOptions(schema: ItemSchema(naming: [.name: "description"]))
        var list = try TodoList(contentsOf: URL(fileURLWithPath: tracks), options: options)
        #expect(list.items.map(\.status) == [.open, .done, .open, .open])
        #expect(list.items[2].fields[key: "state"] == .string("deferred"))
        #expect(list.items[3].fields[key: "state"] == nil)
        // Check the first and the deferred one, uncheck the completed one: 'pending' stays.
        let change = try Self.edit(tracks, options: options) { list in
            list.items[0].status = .done
            list.items[1].status = .open
            list.items[2].status = .done
        }
        #expect(
            change.new == [
                "INSERT INTO todos VALUES(1,'Call','completed',NULL,'2026-01-02 03:04:05');",
                "INSERT INTO todos VALUES(2,'Buy','active','2008-03-05 16:30:00','2026-01-02 03:04:05');",
                "INSERT INTO todos VALUES(3,'Ask','completed',NULL,'2026-01-02 03:04:05');",
            ])
        list = try TodoList(contentsOf: URL(fileURLWithPath: tracks), options: options)
        #expect(list.items.map(\.status) == [.done, .open, .done, .open])

        // Things 3's codes: 3 done, 2 cancelled, anything else open; written back as such.
        let things = try Self.database(
            """
            create table TMTask('uuid' TEXT PRIMARY KEY, 'title' TEXT, 'status' INTEGER, 'index' INTEGER, 'userModificationDate' REAL);
            insert into TMTask values('A','One',0,-10,1714555800.5),('B','Two',3,-5,1714555800.5),('C','Three',2,0,1714555800.5);
            """, in: directory, name: "things.sqlite")
        var schema = ItemSchema(naming: [.order: "index"])
        schema.mapping("3", of: "status", to: .done)
        schema.mapping("2", of: "status", to: .custom("-"))
        let thingsOptions = ListOptions(schema: schema, table: "TMTask")
        let thingsChange = try Self.edit(things, options: thingsOptions) { list in
            #expect(list.items.map(\.status) == [.open, .done, .custom("-")])
            list.items[0].status = .custom("-")
            list.items[1].status = .open
            list.items[2].status = .done
        }
        // A modification date in a number of an epoch todofmt cannot know is left alone.
        #expect(
            thingsChange.new == [
                "INSERT INTO TMTask VALUES('A','One',2,-10,1714555800.5);",
                "INSERT INTO TMTask VALUES('B','Two',0,-5,1714555800.5);",
                "INSERT INTO TMTask VALUES('C','Three',3,0,1714555800.5);",
            ])

        // GORM's numeric is_completed, and a status column of words with no row to learn from.
        let gorm = try Self.database(
            """
            CREATE TABLE `todos` (`id` integer PRIMARY KEY AUTOINCREMENT,`title` text,`is_completed` numeric,`status` text);
            INSERT INTO todos VALUES(1,'a',0,NULL);
            """, in: directory, name: "gorm.sqlite")
        let gormChange = try Self.edit(gorm) { list in
            list.items[0].status = .custom("/")
            list.items.append(TodoItem(name: "b", status: .done))
        }
        #expect(
            gormChange.new == [
                "INSERT INTO todos VALUES(1,'a',0,'/');", "INSERT INTO todos VALUES(2,'b',1,'done');",
                "INSERT INTO sqlite_sequence VALUES('todos',2);",
            ])
    }

    @Test("open is NULL where the status column's open rows are NULL, else a word cased as the column's done word")
    func openSpelling() throws {
        let directory = try TemporaryDirectory()
        let sql = "create table tasks(id integer primary key, title text, state text);"
        let nulls = try Self.database(
            sql + "insert into tasks values(1,'A','Done'),(2,'B',NULL),(3,'C','Done');", in: directory,
            name: "nulls.sqlite")
        let change = try Self.edit(nulls) { list in
            list.items[0].status = .open
            list.items[1].status = .done
            list.items.append(TodoItem(name: "D"))
        }
        #expect(
            change.new == [
                "INSERT INTO tasks VALUES(1,'A',NULL);", "INSERT INTO tasks VALUES(2,'B','Done');",
                "INSERT INTO tasks VALUES(4,'D',NULL);",
            ])
        let words = try Self.database(
            sql + "insert into tasks values(1,'A','CLOSED'),(2,'B','CLOSED');", in: directory, name: "words.sqlite")
        let wordsChange = try Self.edit(words) { list in
            list.items[0].status = .open
            list.items.append(TodoItem(name: "D"))
        }
        #expect(
            wordsChange.new == ["INSERT INTO tasks VALUES(1,'A','OPEN');", "INSERT INTO tasks VALUES(3,'D','OPEN');"])
        #expect(try TodoList(contentsOf: URL(fileURLWithPath: words)).items.map(\.status) == [.open, .done, .open])
    }

    @Test("a status column mapped to custom statuses alone leaves done-ness to the checked column")
    func customOnlyMapping() throws {
        let directory = try TemporaryDirectory()
        let path = try Self.database(
            "create table items(name text, done boolean, phase integer);"
                + " insert into items values ('a',1,0),('b',0,0),('c',0,2),('d',1,NULL),('g',0,1);",
            in: directory)
        var schema = ItemSchema(naming: [.checked: "done"])
        schema.mapping("2", of: "phase", to: .custom("/"))
        let options = ListOptions(schema: schema)
        let list = try TodoList(contentsOf: URL(fileURLWithPath: path), options: options)
        #expect(list.items.map(\.status) == [.done, .open, .custom("/"), .done, .open])
        // 0 says nothing; another value that names no status is a field (`g`'s 1).
        #expect(
            list.items.map { $0.fields.map(\.key) } == [
                ["rowid"], ["rowid"], ["rowid"], ["rowid"], ["rowid", "phase"],
            ])
        let change = try Self.edit(path, options: options) { list in
            list.items[0].status = .open
            list.items[1].status = .done
            list.items[2].status = .done
            list.items[4].status = .done
            list.items.append(TodoItem(name: "e"))
        }
        #expect(
            change.new == [
                "INSERT INTO items VALUES('a',0,0);", "INSERT INTO items VALUES('b',1,0);",
                "INSERT INTO items VALUES('c',1,0);", "INSERT INTO items VALUES('g',1,1);",
                "INSERT INTO items VALUES('e',0,0);",
            ])
    }

    /// A value that names no status is a field: new rows got the column's commonest such
    /// value (`idea`), which read back as a field they never had.
    @Test("a new row in a column mapped to custom statuses alone gets a value that says nothing")
    func customOnlyNewRow() throws {
        let directory = try TemporaryDirectory()
        let path = try Self.database(
            "create table t(id integer primary key, name text, done integer, phase text);"
                + " insert into t(name, done, phase) values ('a',0,'idea'),('b',1,'idea'),('c',0,'doing');",
            in: directory)
        var schema = ItemSchema(naming: [.checked: "done"])
        schema.mapping("doing", of: "phase", to: .custom("/"))
        let options = ListOptions(schema: schema)
        let change = try Self.edit(path, options: options, strict: true) { list in
            list.items[2].status = .done
            list.items.append(TodoItem(name: "e"))
            list.items.append(TodoItem(name: "f", status: .done))
        }
        #expect(
            change.new == [
                "INSERT INTO t VALUES(3,'c',1,'');", "INSERT INTO t VALUES(4,'e',0,'');",
                "INSERT INTO t VALUES(5,'f',1,'');",
            ])
        let list = try TodoList(contentsOf: URL(fileURLWithPath: path), options: options)
        #expect(list.items.map(\.status) == [.open, .done, .done, .open, .done])
        #expect(
            list.items.map { $0.fields.map(\.key) } == [["id", "phase"], ["id", "phase"], ["id"], ["id"], ["id"]])
    }

    /// Helper hunt 119: a text column gave rows made open or done, and new rows, the text
    /// `'0'`, which reads back as the custom status `0`; a field removed stayed; a field that
    /// reads as a status was written without a word.
    @Test("a text column mapped to custom statuses alone: rows get a value that says nothing, fields go and warn")
    func customOnlyTextColumn() throws {
        let directory = try TemporaryDirectory()
        let path = try Self.database(
            "create table t(id integer primary key, name text, done integer, phase text);"
                + " insert into t(name, done, phase) values ('a',0,'2'),('b',0,'2'),('c',1,'idea'),('d',0,'2');",
            in: directory)
        var schema = ItemSchema(naming: [.checked: "done"])
        schema.mapping("2", of: "phase", to: .custom("/"))
        let options = ListOptions(schema: schema)
        let change = try Self.edit(path, options: options, strict: true) { list in
            list.items[0].status = .open
            list.items[1].status = .done
            list.items[2].fields.removeAll { $0.key == "phase" }
            list.items.append(TodoItem(name: "e", status: .done))
        }
        #expect(
            change.new == [
                "INSERT INTO t VALUES(1,'a',0,'');", "INSERT INTO t VALUES(2,'b',1,'');",
                "INSERT INTO t VALUES(3,'c',1,'');", "INSERT INTO t VALUES(5,'e',1,'');",
            ])
        let list = try TodoList(contentsOf: URL(fileURLWithPath: path), options: options)
        #expect(list.items.map(\.status) == [.open, .done, .done, .custom("/"), .done])
        #expect(list.items.allSatisfy { $0.fields.map(\.key) == ["id"] })
        // A field that would read back as a status (`x`, done) has no place: a warning, and
        // --strict refuses.
        #expect(throws: ConversionError.self) {
            try Self.edit(path, options: options, strict: true) { list in
                list.items[0].fields.append(Field("phase", .string("x")))
            }
        }
    }

    /// Helper hunt 114: checking a row wrote `done` into its NULL status beside the checked
    /// column.
    @Test("a NULL status beside a checked column stays as the row is checked and unchecked")
    func nullStatusBesideChecked() throws {
        let directory = try TemporaryDirectory()
        let path = try Self.database(
            "create table t(id integer primary key, name text, checked integer not null, status text);"
                + " insert into t values (1,'a',1,NULL),(2,'b',0,NULL),(3,'c',0,'/');",
            in: directory)
        let change = try Self.edit(path) { list in
            list.items[0].status = .open
            list.items[1].status = .done
        }
        #expect(change.new == ["INSERT INTO t VALUES(1,'a',0,NULL);", "INSERT INTO t VALUES(2,'b',1,NULL);"])
    }

    /// Helper hunt 115: such a column's `done` rows read as open, and a row checked stayed
    /// open with a warning that said done-ness was written.
    @Test("a status column mapped to custom statuses alone reads and writes its words; without them, done is a warning")
    func wordsBesideCustomCodes() throws {
        let directory = try TemporaryDirectory()
        var schema = ItemSchema()
        schema.mapping("2", of: "status", to: .custom("/"))
        let options = ListOptions(schema: schema)
        let words = try Self.database(
            "create table t(id integer primary key, name text, status text);"
                + " insert into t(name, status) values ('a','done'),('b','open'),('c','2'),('d','idea');",
            in: directory, name: "words.sqlite")
        #expect(
            try TodoList(contentsOf: URL(fileURLWithPath: words), options: options).items.map(\.status) == [
                .done, .open, .custom("/"), .open,
            ])
        // `idea` is no spelling of open (helper hunt 116: open items got it).
        let change = try Self.edit(words, options: options, strict: true) { list in
            list.items[0].status = .open
            list.items[1].status = .done
            list.items[2].status = .done
            list.items.append(TodoItem(name: "e"))
        }
        #expect(
            change.new == [
                "INSERT INTO t VALUES(1,'a','open');", "INSERT INTO t VALUES(2,'b','done');",
                "INSERT INTO t VALUES(3,'c','done');", "INSERT INTO t VALUES(5,'e','open');",
            ])
        // Beside a checked column, a value that names no status stays as the row is checked.
        let checked = try Self.database(
            "create table t(id integer primary key, name text, checked integer, status text);"
                + " insert into t(name, checked, status) values ('a',1,'done'),('d',0,'idea');",
            in: directory, name: "checked.sqlite")
        let kept = try Self.edit(checked, options: options, strict: true) { $0.items[1].status = .done }
        #expect(kept.new == ["INSERT INTO t VALUES(2,'d',1,'idea');"])
        var codes = ItemSchema()
        codes.mapping("2", of: "phase", to: .custom("/"))
        let phases = try Self.database(
            "create table t(id integer primary key, name text, phase integer); insert into t(name, phase) values ('a',0),('b',2);",
            in: directory, name: "codes.sqlite")
        let lost = try Self.edit(phases, options: ListOptions(schema: codes)) { $0.items[0].status = .done }
        #expect(lost.new.isEmpty)
        #expect(
            lost.warnings.map(\.kind) == [.status]
                && lost.warnings.first?.message.hasPrefix("the table has no value for done") == true)
    }

    @Test("a status column's value todofmt cannot read, overwritten as its row is checked, is a warning")
    func unreadableStatusOverwritten() throws {
        let directory = try TemporaryDirectory()
        let path = try Self.database(
            "create table tasks(id integer primary key, name text, status text);"
                + " insert into tasks(name, status) values ('one','Done'),('two',NULL),('three','Doing');",
            in: directory)
        let before = try Databases.dump(path)
        #expect(throws: ConversionError.self) {
            try Self.edit(path, strict: true) { $0.items[2].status = .done }
        }
        #expect(try Databases.dump(path) == before)
        let change = try Self.edit(path) { $0.items[2].status = .done }
        #expect(change.new == ["INSERT INTO tasks VALUES(3,'three','Done');"])
        #expect(change.warnings.map(\.kind) == [.fields] && change.warnings.first?.firstItem == "3 three")
    }

    @Test("Rails: checking sets completed_at in the column's layout, unchecking clears it")
    func completionDate() throws {
        let directory = try TemporaryDirectory()
        let path = try Self.database(
            """
            CREATE TABLE "todos" ("id" integer PRIMARY KEY AUTOINCREMENT NOT NULL, "title" varchar, "completed_at" datetime(6), "created_at" datetime(6) NOT NULL, "updated_at" datetime(6) NOT NULL);
            INSERT INTO todos VALUES(1,'a',NULL,'2024-05-01 09:30:00.123456','2024-05-01 09:30:00.123456');
            INSERT INTO todos VALUES(2,'b','2024-05-02 18:00:00.250000','2024-05-01 09:32:40','2024-05-02 18:00:00.250000');
            """, in: directory)
        let change = try Self.edit(path) { list in
            #expect(list.items.map(\.isChecked) == [false, true])
            list.items[0].status = .done
            list.items[1].status = .open
        }
        #expect(
            change.new == [
                "INSERT INTO todos VALUES(1,'a','2026-01-02 03:04:05.250000','2024-05-01 09:30:00.123456','2026-01-02 03:04:05.250000');",
                "INSERT INTO todos VALUES(2,'b',NULL,'2024-05-01 09:32:40','2026-01-02 03:04:05.250000');",
            ])
    }

    @Test(
        "what a table cannot hold is a warning, once per kind with a count and the first item; --strict writes nothing")
    func warnings() throws {
        let directory = try TemporaryDirectory()
        let path = try Self.database(
            "CREATE TABLE Note (cdate text primary key, content text); INSERT INTO Note VALUES('2024-05-01 09:30:00','A'),('2024-05-02 09:30:00','B'),('2024-05-03 09:30:00','C');",
            in: directory)
        let before = try Databases.dump(path)
        let edit: (inout TodoList) -> Void = { list in
            list.metadata = [Field("title", .string("Notes"))]
            list.items.swapAt(0, 2)
            list.items[0].status = .done
            list.items[1].status = .custom("/")
            list.items[2].fields.append(Field("tag", .string("x")))
            list.items[2].children = [TodoItem(name: "Nested")]
            list.items[1].section = "Today"
        }
        let change = try Self.edit(path, edit)
        #expect(change.new == ["INSERT INTO Note VALUES('2026-01-02 03:04:05','Nested');"])
        #expect(
            change.warnings.map(\.description) == [
                "an SQLite table has no place for the list's metadata (title); it was left out",
                "the table has no place for sections (headings); they were left out (item 2 B)",
                "the table has no parent column; nested items were written one after another (item 3.1 Nested)",
                "the table has no column for tag; those fields were left out (item 3 A)",
                "the table has no order column; the items' new order was not kept (they come back in the order of their rows) (2 items, the first 1 C)",
                "the table has no column for done-ness or a status; checked items and custom statuses were not written (2 items, the first 1 C)",
            ])
        // With --strict nothing is written (the nested item would have been).
        _ = try Databases.sqlite3(path, ["DELETE FROM Note WHERE content = 'Nested'"])
        #expect(try Databases.dump(path) == before)
        #expect(throws: ConversionError.self) { try Self.edit(path, strict: true, edit) }
        #expect(try Databases.dump(path) == before)
    }

    @Test("an emptied table stays, and reads back empty")
    func emptied() throws {
        let directory = try TemporaryDirectory()
        let path = try Self.database(
            "CREATE TABLE todo(pk INTEGER PRIMARY KEY, text VARCHAR(25), complete BOOLEAN); INSERT INTO todo VALUES(1,'a',0),(2,'b',1);",
            in: directory)
        _ = try Self.edit(path) { $0.items = [] }
        #expect(
            try Databases.dump(path).contains(
                "CREATE TABLE todo(pk INTEGER PRIMARY KEY, text VARCHAR(25), complete BOOLEAN);"))
        #expect(try TodoList(contentsOf: URL(fileURLWithPath: path)).items.isEmpty)
        _ = try Self.edit(path) { $0.items = [TodoItem(name: "again")] }
        #expect(try Databases.sqlite3(path, ["SELECT * FROM todo"]) == "1|again|0\n")
    }

    @Test("a WITHOUT ROWID table keyed by two columns reads and writes by its key")
    func withoutRowID() throws {
        let directory = try TemporaryDirectory()
        let path = try Self.database(
            "CREATE TABLE task(list TEXT, n INTEGER, title TEXT NOT NULL, done INTEGER NOT NULL DEFAULT 0, PRIMARY KEY (list, n)) WITHOUT ROWID;"
                + "INSERT INTO task VALUES('home',1,'a',0),('home',2,'b',0),('work',1,'c',1);", in: directory)
        let change = try Self.edit(path) { list in
            #expect(list.items.map(\.name) == ["a", "b", "c"])
            #expect(list.items[0].fields == [Field("list", .string("home")), Field("n", .integer(1))])
            list.items[1].status = .done
            list.items.remove(at: 2)
            list.items.append(TodoItem(name: "d", fields: [Field("list", .string("work")), Field("n", .integer(2))]))
        }
        #expect(
            change.gone == ["INSERT INTO task VALUES('home',2,'b',0);", "INSERT INTO task VALUES('work',1,'c',1);"])
        #expect(change.new == ["INSERT INTO task VALUES('home',2,'b',1);", "INSERT INTO task VALUES('work',2,'d',0);"])
    }

    @Test("a new row without the text key its table needs fails naming the column; nothing is written")
    func missingKey() throws {
        let directory = try TemporaryDirectory()
        let path = try Self.database(
            "CREATE TABLE tasks (id TEXT PRIMARY KEY NOT NULL, title TEXT NOT NULL) WITHOUT ROWID; INSERT INTO tasks VALUES('x','a');",
            in: directory)
        let before = try Databases.dump(path)
        #expect { _ = try Self.edit(path) { $0.items.append(TodoItem(name: "b")) } } throws: { error in
            "\(error)".contains("NOT NULL constraint failed: tasks.id")
        }
        #expect(try Databases.dump(path) == before)
    }

    @Test(
        "Core Data: entities by name, and errors that name them",
        arguments: [
            (
                ListOptions(),
                "several entities could be the list (Note in ZNOTE, TodoItem in ZTODOITEM); pick one with --entity"
            ),
            (ListOptions(entity: "Nope"), "there is no entity 'Nope' (entities: Note, TodoItem)"),
            (ListOptions(table: "ZNOTE", entity: "TodoItem"), "entity 'TodoItem' is in table 'ZTODOITEM', not 'ZNOTE'"),
        ])
    func entities(options: ListOptions, message: String) throws {
        let directory = try TemporaryDirectory()
        let path = try Self.database(
            """
            CREATE TABLE ZNOTE ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZCONTENT VARCHAR );
            CREATE TABLE ZTODOITEM ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZTITLE VARCHAR );
            CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER);
            CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB);
            INSERT INTO Z_PRIMARYKEY VALUES(1,'Note',0,0),(2,'TodoItem',0,0);
            """, in: directory)
        #expect(throws: ConversionError.noList(path: path, reason: message)) {
            try TodoList(contentsOf: URL(fileURLWithPath: path), options: options)
        }
        #expect(
            try TodoList(contentsOf: URL(fileURLWithPath: path), options: ListOptions(entity: "todoitem")).items.isEmpty
        )
        let plain = try Self.database("CREATE TABLE t(name TEXT);", in: directory, name: "plain.sqlite")
        #expect(
            throws: ConversionError.noList(
                path: plain,
                reason:
                    "--entity names a Core Data entity, and this is not a Core Data store (it has no Z_PRIMARYKEY table)"
            )
        ) {
            try TodoList(contentsOf: URL(fileURLWithPath: plain), options: ListOptions(entity: "Note"))
        }
    }

    @Test("--table names the table a new database or dump gets, and it reads back as todofmt's table")
    func namedTable() throws {
        let directory = try TemporaryDirectory()
        let list = TodoList(items: [
            TodoItem(name: "a", children: [TodoItem(name: "b", status: .done)]),
            TodoItem(name: "c", fields: [Field("n", .integer(1))]),
        ])
        for name in ["new.sqlite", "new.sql"] {
            let url = URL(fileURLWithPath: directory.path(name))
            try list.write(to: url, options: ListOptions(table: "groceries"))
            #expect(try TodoList(contentsOf: url, options: ListOptions(table: "groceries")) == list)
            #expect(try TodoList(contentsOf: url) == list)
        }
        #expect(
            try Databases.dump(directory.path("new.sqlite")).contains(
                "CREATE TABLE groceries (\"id\" INTEGER PRIMARY KEY, \"parent\" INTEGER REFERENCES groceries(id)"))
        // Into an existing database without that table, --table makes it beside the others.
        let app = try Self.database("CREATE TABLE other(x); INSERT INTO other VALUES(1);", in: directory)
        try list.write(to: URL(fileURLWithPath: app), options: ListOptions(table: "mine"))
        #expect(try TodoList(contentsOf: URL(fileURLWithPath: app), options: ListOptions(table: "mine")) == list)
        #expect(try Databases.sqlite3(app, ["SELECT x FROM other"]) == "1\n")
    }

    @Test("todofmt's own table: one changed item changes one row, an unchanged list nothing")
    func ownTable() throws {
        let directory = try TemporaryDirectory()
        let url = URL(fileURLWithPath: directory.path("own.sqlite"))
        var list = TodoList(items: (1...5).map { TodoItem(name: "item \($0)", fields: [Field("n", .integer($0))]) })
        list.items[1].children = [TodoItem(name: "child")]
        try list.write(to: url)
        let before = try Databases.dump(url.path)
        try list.write(to: url)
        #expect(try Databases.dump(url.path) == before)
        let change = try Self.edit(url.path) { $0.items[3].status = .done }
        #expect(change.gone == ["INSERT INTO todo_items VALUES(5,NULL,3,'item 4',0,NULL,NULL,4);"])
        #expect(change.new == ["INSERT INTO todo_items VALUES(5,NULL,3,'item 4',1,NULL,NULL,4);"])
        // Whatever the edit, the table ends with the rows a new one of the same list would
        // have; a column no item uses any more stays, empty.
        for (edit, unused) in [
            ({ (list: inout TodoList) in list.items.remove(at: 1) }, false),
            ({ $0.items.insert(TodoItem(name: "new"), at: 0) }, false), ({ $0.items = [] }, true),
        ] {
            var edited = try TodoList(contentsOf: url)
            edit(&edited)
            try edited.write(to: url)
            let fresh = URL(fileURLWithPath: directory.path("fresh-\(UUID().uuidString).sqlite"))
            try edited.write(to: fresh)
            if unused {
                _ = try Databases.sqlite3(fresh.path, ["ALTER TABLE todo_items ADD COLUMN \"n\" INTEGER"])
            }
            #expect(try Databases.dump(url.path) == Databases.dump(fresh.path))
        }
    }

    @Test(
        "todofmt's own table keeps its indexes and triggers when the list needs a new column, or the table is made again"
    )
    func ownTableSchemaKept() throws {
        let directory = try TemporaryDirectory()
        let url = URL(fileURLWithPath: directory.path("schema.sqlite"))
        let list = TodoList(items: [
            TodoItem(name: "a", fields: [Field("n", .integer(1))]),
            TodoItem(name: "b", fields: [Field("t", .string("x"))]),
        ])
        try list.write(to: url)
        let schema = [
            "CREATE INDEX by_name ON todo_items(name)", "CREATE INDEX by_t ON todo_items(t)",
            "CREATE TABLE log(id INTEGER)",
            "CREATE TRIGGER logged AFTER UPDATE ON todo_items BEGIN INSERT INTO log VALUES (new.id); END",
        ]
        _ = try Databases.sqlite3(url.path, [schema.joined(separator: ";")])
        let objects = "SELECT type, name FROM sqlite_schema WHERE tbl_name = 'todo_items' ORDER BY name"
        let before = try Databases.sqlite3(url.path, [objects])
        // A new key: its column is added, every row and object stays.
        let added = try Self.edit(url.path) { $0.items[1].fields.append(Field("due", .string("soon"))) }
        #expect(added.warnings.isEmpty)
        #expect(try Databases.sqlite3(url.path, [objects]) == before)
        #expect(try Databases.sqlite3(url.path, ["SELECT * FROM log"]) == "2\n")
        #expect(try TodoList(contentsOf: url).items[1].fields.map(\.key) == ["t", "due"])
        // A value its column cannot hold: the table is made again with every column (one no
        // item uses any more too), that one retyped, and its indexes and trigger with it.
        let remade = try Self.edit(url.path) {
            $0.items[0].fields = [Field("n", .string("one"))]
            $0.items[1].fields.removeAll { $0.key == "t" }
        }
        #expect(remade.warnings.isEmpty)
        #expect(try Databases.sqlite3(url.path, [objects]) == before)
        #expect(
            try Databases.sqlite3(
                url.path,
                ["SELECT group_concat(name || ' ' || type, ', ') FROM pragma_table_info('todo_items') WHERE cid > 6"])
                == "n TEXT, t TEXT, due TEXT\n")
        #expect(try TodoList(contentsOf: url).items[0].fields == [Field("n", .string("one"))])
        // A unique index the rows would break: the write fails and changes nothing.
        _ = try Databases.sqlite3(url.path, ["CREATE UNIQUE INDEX one_due ON todo_items(due)"])
        let unchanged = try Databases.dump(url.path)
        #expect(throws: StoreError.self) {
            _ = try Self.edit(url.path) {
                $0.items[0].fields = [Field("n", .integer(1)), Field("due", .string("soon"))]
            }
        }
        #expect(try Databases.dump(url.path) == unchanged)
    }

    @Test("todofmt's table: a date or JSON text written otherwise stays, until its value changes")
    func ownTableTextsWrittenOtherwise() throws {
        let directory = try TemporaryDirectory()
        let url = URL(fileURLWithPath: directory.path("texts.sqlite"))
        let day = try #require(ISO8601.parse("2024-06-01T09:00:00Z".utf8))
        try TodoList(items: [
            TodoItem(name: "a", fields: [Field("due", .date(day)), Field("tags", .array([.string("x")]))]),
            TodoItem(name: "b", fields: [Field("due", .date(day))]),
        ]).write(to: url)
        _ = try Databases.sqlite3(
            url.path,
            [
                "UPDATE todo_items SET due = '2024-06-01T11:00:00.000+02:00', tags = '[ \"x\" ]' WHERE id = 1;"
                    + "UPDATE todo_items SET due = '2024-06-01 09:00:00' WHERE id = 2"
            ])
        let added = try Self.edit(url.path) { $0.items.append(TodoItem(name: "c")) }
        #expect(added.gone.isEmpty)
        #expect(added.new == ["INSERT INTO todo_items VALUES(3,NULL,2,'c',0,NULL,NULL,NULL,NULL);"])
        let moved = try Self.edit(url.path) { $0.items[1].fields = [Field("due", .date(day.addingTimeInterval(60)))] }
        #expect(moved.new == ["INSERT INTO todo_items VALUES(2,NULL,1,'b',0,NULL,NULL,'2024-06-01T09:01:00Z',NULL);"])
    }

    @Test(
        "field keys SQLite takes for one name (`k` and `K`, `Parent`) get columns of their own, in databases and dumps")
    func ownTableKeysInOtherCase() throws {
        let directory = try TemporaryDirectory()
        let list = TodoList(items: [
            TodoItem(name: "a", fields: [Field("k", .integer(1)), Field("K", .integer(2))]),
            TodoItem(name: "b", fields: [Field("Parent", .integer(5))]),
        ])
        for name in ["keys.sqlite", "keys.sql"] {
            let url = URL(fileURLWithPath: directory.path(name))
            try list.write(to: url)
            #expect(try TodoList(contentsOf: url) == list, "\(name)")
            // A key of another case written into the table later gets its own column too.
            var edited = list
            edited.items[1].fields.append(Field("kk", .integer(3)))
            edited.items[1].fields.append(Field("KK", .integer(4)))
            try edited.write(to: url)
            #expect(try TodoList(contentsOf: url) == edited, "\(name)")
        }
        let dump = try String(contentsOfFile: directory.path("keys.sql"), encoding: .utf8)
        _ = try Databases.sqlite3(directory.path("loaded.sqlite"), [], stdin: dump)
    }

    @Test("an app's column types hold the list's values as todofmt's would: no table made again")
    func ownTableAppTypes() throws {
        let directory = try TemporaryDirectory()
        let path = try Self.database(
            "CREATE TABLE todo_items (id INTEGER PRIMARY KEY, parent INTEGER, position INTEGER NOT NULL, "
                + "name TEXT NOT NULL, checked BOOLEAN NOT NULL, status TEXT, section TEXT, owner VARCHAR(40) "
                + "COLLATE NOCASE, n INT CHECK (n >= 0), spare TEXT, flag BOOLEAN, price DOUBLE);"
                + "INSERT INTO todo_items VALUES (1,NULL,0,'a',0,NULL,NULL,'bob',1,NULL,2,1.5),"
                + "(2,NULL,1,'b',0,NULL,NULL,NULL,NULL,NULL,-1,NULL),(3,NULL,2,'c',0,NULL,NULL,NULL,NULL,NULL,1,NULL);",
            in: directory)
        let schema = try Databases.sqlite3(path, [".schema"])
        let change = try Self.edit(path) {
            $0.items.append(TodoItem(name: "d", fields: [Field("owner", .string("12"))]))
        }
        #expect(try Databases.sqlite3(path, [".schema"]) == schema)
        #expect(change.gone.isEmpty)
        #expect(change.new == ["INSERT INTO todo_items VALUES(4,NULL,3,'d',0,NULL,NULL,'12',NULL,NULL,NULL,NULL);"])
        // A BOOLEAN column's 2 and -1 are the numbers they are, not `true`.
        let items = try TodoList(contentsOf: URL(fileURLWithPath: path)).items
        #expect(
            items.map { $0.fields.first { $0.key == "flag" }?.value } == [.integer(2), .integer(-1), .bool(true), nil])
        // A new row gets a column's default where its item has no value.
        _ = try Databases.sqlite3(path, ["ALTER TABLE todo_items ADD COLUMN extra TEXT NOT NULL DEFAULT 'x'"])
        let added = try Self.edit(path) { $0.items.append(TodoItem(name: "e")) }
        #expect(added.new == ["INSERT INTO todo_items VALUES(5,NULL,4,'e',0,NULL,NULL,NULL,NULL,NULL,NULL,NULL,'x');"])
    }
}

/// Dumps written into: only the statements of changed rows change.
@Suite("Writing back into SQL dumps")
struct DumpWriteBackTests {
    static func write(
        _ list: TodoList, into dump: String, in directory: TemporaryDirectory, options: ListOptions = ListOptions()
    ) throws -> String {
        let path = directory.path("x.sql")
        try dump.write(toFile: path, atomically: false, encoding: .utf8)
        try Clock.$pinned.withValue(WriteBackTests.now) {
            _ = try list.write(to: URL(fileURLWithPath: path), options: options)
        }
        return try String(contentsOfFile: path, encoding: .utf8)
    }

    static let tracks = """
        PRAGMA foreign_keys=OFF;
        BEGIN TRANSACTION;
        CREATE TABLE IF NOT EXISTS "todos" ("id" INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL, "description" varchar(255) NOT NULL, "state" varchar(20) DEFAULT 'immediate' NOT NULL, "updated_at" datetime);
        INSERT INTO todos VALUES(1,'Call the timber yard',  'active','2008-03-01 10:00:00');
        INSERT INTO todos VALUES(2,'Buy roofing felt','completed','2008-03-05 16:30:00');
        INSERT INTO todos VALUES(3,'He''ll know',  'deferred','2008-03-02 09:00:00');
        DELETE FROM sqlite_sequence;
        INSERT INTO sqlite_sequence VALUES('todos',3);
        CREATE INDEX "index_todos_on_state" ON "todos" ("state");
        COMMIT;

        """

    @Test("todofmt's table given a new column or made again: its index and trigger stay once, where they were")
    func ownTableDependents() throws {
        let directory = try TemporaryDirectory()
        let dump = """
            PRAGMA foreign_keys=OFF;
            BEGIN TRANSACTION;
            CREATE TABLE todo_items ("id" INTEGER PRIMARY KEY, "parent" INTEGER REFERENCES todo_items(id), \
            "position" INTEGER NOT NULL, "name" TEXT NOT NULL, "checked" BOOLEAN NOT NULL, "status" TEXT, \
            "section" TEXT, "qty" INTEGER);
            INSERT INTO todo_items VALUES(1,NULL,0,'a',0,NULL,NULL,1);
            INSERT INTO todo_items VALUES(2,NULL,1,'b',0,NULL,NULL,2);
            CREATE TABLE log(x);
            CREATE INDEX by_qty ON todo_items(qty);
            CREATE TRIGGER logged AFTER DELETE ON todo_items BEGIN INSERT INTO log VALUES(old.id); END;
            COMMIT;

            """
        let tail = """
            CREATE TABLE log(x);
            CREATE INDEX by_qty ON todo_items(qty);
            CREATE TRIGGER logged AFTER DELETE ON todo_items BEGIN INSERT INTO log VALUES(old.id); END;
            COMMIT;

            """
        var list = try TodoList(bytes: Array(dump.utf8), format: .sql)
        for change in [
            { (list: inout TodoList) in list.items[0].fields.append(Field("new", .integer(1))) },  // a column added
            { $0.items[0].fields = [Field("qty", .string("abc"))] },  // the table made again
        ] {
            var edited = list
            change(&edited)
            let written = try Self.write(edited, into: dump, in: directory)
            #expect(written.hasSuffix(tail), "\(written)")
            #expect(written.components(separatedBy: "CREATE INDEX").count == 2)
            #expect(try TodoList(bytes: Array(written.utf8), format: .sql) == edited)
            let loaded = directory.path("loaded-\(UUID().uuidString).sqlite")
            _ = try Databases.sqlite3(loaded, [], stdin: written)
        }
    }

    @Test("a check, a removal and an addition change only their statements and sqlite_sequence's")
    func edits() throws {
        let directory = try TemporaryDirectory()
        let options = ListOptions(schema: ItemSchema(naming: [.name: "description"]))
        var list = try TodoList(bytes: Array(Self.tracks.utf8), format: .sql, options: options)
        #expect(try Self.write(list, into: Self.tracks, in: directory, options: options) == Self.tracks)
        list.items[0].status = .done
        list.items.remove(at: 1)
        list.items.append(TodoItem(name: "New\nline"))
        let written = try Self.write(list, into: Self.tracks, in: directory, options: options)
        #expect(
            written == """
                PRAGMA foreign_keys=OFF;
                BEGIN TRANSACTION;
                CREATE TABLE IF NOT EXISTS "todos" ("id" INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL, "description" varchar(255) NOT NULL, "state" varchar(20) DEFAULT 'immediate' NOT NULL, "updated_at" datetime);
                INSERT INTO todos VALUES(1,'Call the timber yard','completed','2026-01-02 03:04:05');
                INSERT INTO todos VALUES(3,'He''ll know',  'deferred','2008-03-02 09:00:00');
                INSERT INTO todos VALUES(4,replace('New\\nline','\\n',char(10)),'active','2026-01-02 03:04:05');
                DELETE FROM sqlite_sequence;
                INSERT INTO sqlite_sequence VALUES('todos',4);
                CREATE INDEX "index_todos_on_state" ON "todos" ("state");
                COMMIT;

                """)
        // The sqlite3 shell loads it, and it reads back as the list.
        let loaded = directory.path("loaded.db")
        _ = try Databases.sqlite3(loaded, [], stdin: written)
        #expect(
            try TodoList(contentsOf: URL(fileURLWithPath: loaded), options: options).items.map(\.name) == [
                "Call the timber yard", "He'll know", "New\nline",
            ])
    }

    @Test("a NUL inside a name is written as char(0) and loads back whole, in new and existing dumps")
    func nul() throws {
        let directory = try TemporaryDirectory()
        let list = TodoList(items: [TodoItem(name: "a\u{0}b"), TodoItem(name: "\u{0}'x'\u{0}")])
        let url = URL(fileURLWithPath: directory.path("new.sql"))
        try list.write(to: url)
        let text = try String(contentsOf: url, encoding: .utf8)
        #expect(text.contains("VALUES(1,NULL,0,'a'||char(0)||'b',0,NULL,NULL);"))
        #expect(text.contains("VALUES(2,NULL,1,char(0)||'''x'''||char(0),0,NULL,NULL);"))
        let names = try Self.loadedNames(text, "repr(names)", in: directory)
        #expect(names == "['a\\x00b', \"\\x00'x'\\x00\"]\n")
        // Into an existing dump of an app's table.
        let dump = "CREATE TABLE n(title TEXT);\nINSERT INTO n VALUES('a');\n"
        let written = try Self.write(
            TodoList(items: [TodoItem(name: "a\u{0}b", fields: [Field("rowid", .integer(1))])]), into: dump,
            in: directory)
        #expect(written == "CREATE TABLE n(title TEXT);\nINSERT INTO n VALUES('a'||char(0)||'b');\n")
    }

    /// The dump `text` loaded by the `sqlite3` shell, its items' names (`names`, by id) read
    /// by Python's sqlite3 and printed as `expression` makes them.
    static func loadedNames(_ text: String, _ expression: String, in directory: TemporaryDirectory) throws -> String {
        let loaded = directory.path("loaded-\(UUID().uuidString).db")
        _ = try Databases.sqlite3(loaded, [], stdin: text)
        let program =
            "import sqlite3, sys; names = [r[0] for r in sqlite3.connect(sys.argv[1]).execute('select name from todo_items order by id')]; print(\(expression))"
        return try ExternalTool.run("python3", ["-c", program, loaded]).text
    }

    @Test("a name of hundreds of NULs makes a dump the shell and todofmt load back whole")
    func manyNULs() throws {
        let directory = try TemporaryDirectory()
        // A chain of 2,000 `||` is deeper than SQLite parses (1,000); halves in parentheses are not.
        let names = ["a" + String(repeating: "\u{0}a", count: 1000), String(repeating: "\u{0}", count: 700) + "'\n"]
        let list = TodoList(items: names.map { TodoItem(name: $0) })
        let url = URL(fileURLWithPath: directory.path("new.sql"))
        try list.write(to: url)
        let text = try String(contentsOf: url, encoding: .utf8)
        let lengths = try Self.loadedNames(text, "[len(n) for n in names]", in: directory)
        #expect(lengths == "[2001, 702]\n")
        #expect(try TodoList(contentsOf: url).items.map(\.name) == names)
    }

    @Test("a carriage return in a new dump is written as the shell writes it, and the shell loads it back")
    func carriageReturn() throws {
        let directory = try TemporaryDirectory()
        let list = TodoList(items: [TodoItem(name: "a\rb"), TodoItem(name: "t\tq\r\n")])
        let url = URL(fileURLWithPath: directory.path("new.sql"))
        try list.write(to: url)
        let text = try String(contentsOf: url, encoding: .utf8)
        #expect(text.contains("VALUES(1,NULL,0,replace('a\\rb','\\r',char(13)),0,NULL,NULL);"))
        #expect(
            text.contains("VALUES(2,NULL,1,replace(replace('t\tq\\r\\n','\\r',char(13)),'\\n',char(10)),0,NULL,NULL);"))
        let loaded = directory.path("loaded.db")
        _ = try Databases.sqlite3(loaded, [], stdin: text)
        #expect(
            try Databases.sqlite3(loaded, ["SELECT hex(name) FROM todo_items ORDER BY id"]) == "610D62\n7409710D0A\n")
    }

    @Test(
        "values SQLite cannot give back are warnings, in a new database, a new dump and an app's table",
        arguments: ["new.sqlite", "new.sql", "app"])
    func valueLosses(_ target: String) throws {
        let directory = try TemporaryDirectory()
        let fields = [
            Field("big", .bigInteger("18446744073709551616")), Field("nan", .double(.nan)), Field("neg", .double(-0.0)),
            Field("gone", .null),
        ]
        let list = TodoList(items: [
            TodoItem(name: "a"), TodoItem(name: "b", fields: fields), TodoItem(name: "c", fields: fields),
        ])
        let path: String
        if target == "app" {
            path = try WriteBackTests.database(
                "CREATE TABLE t(id INTEGER PRIMARY KEY, title TEXT, big INTEGER, nan REAL, neg REAL, gone TEXT);",
                in: directory)
        } else {
            path = directory.path(target)
        }
        let warnings = try list.write(to: URL(fileURLWithPath: path))
        #expect(
            warnings.map(\.description) == [
                "SQLite integers are 64 bits: larger integers were written as text (2 items, the first 2 b)",
                "SQLite has no NaN: it was written as NULL, which reads back as no field (2 items, the first 2 b)",
                "SQLite stores -0.0 as 0 in a numeric column: it was written as 0 (2 items, the first 2 b)",
                "SQLite has no null field: null values were written as NULL, which reads back as no field (2 items, the first 2 b)",
            ])
        // --strict writes nothing.
        let strict = directory.path("strict-" + (target == "app" ? "app.sqlite" : target))
        #expect(throws: ConversionError.self) { try list.write(to: URL(fileURLWithPath: strict), strict: true) }
        #expect(!FileManager.default.fileExists(atPath: strict))
    }

    @Test("rows of a WITHOUT ROWID table, and rows several to a statement, go back where they were")
    func keysAndMultiRowStatements() throws {
        let directory = try TemporaryDirectory()
        let keyed =
            "CREATE TABLE t(id TEXT PRIMARY KEY, title TEXT) WITHOUT ROWID;\nINSERT INTO t VALUES('b','B');\nINSERT INTO t VALUES('a','A');\n"
        var list = try TodoList(bytes: Array(keyed.utf8), format: .sql)
        #expect(list.items.map(\.name) == ["A", "B"])
        list.items[1].name = "Bee"
        #expect(
            try Self.write(list, into: keyed, in: directory)
                == "CREATE TABLE t(id TEXT PRIMARY KEY, title TEXT) WITHOUT ROWID;\nINSERT INTO t VALUES('b','Bee');\nINSERT INTO t VALUES('a','A');\n"
        )
        // Several rows to a statement: which row came from where is not known, so the
        // table's statements are written again, one row each, where the first was.
        let multi = "CREATE TABLE n(title TEXT);\nINSERT INTO n VALUES('a'),('b');\nCREATE TABLE other(x);\n"
        var rows = try TodoList(bytes: Array(multi.utf8), format: .sql)
        #expect(try Self.write(rows, into: multi, in: directory) == multi)
        rows.items[0].name = "A"
        #expect(
            try Self.write(rows, into: multi, in: directory)
                == "CREATE TABLE n(title TEXT);\nINSERT INTO n VALUES('A');\nINSERT INTO n VALUES('b');\nCREATE TABLE other(x);\n"
        )
    }

    @Test("a dump without a list gets todofmt's table before its COMMIT; its other statements stay")
    func noList() throws {
        let directory = try TemporaryDirectory()
        let dump =
            "PRAGMA foreign_keys=OFF;\nBEGIN TRANSACTION;\nCREATE TABLE app(x INTEGER);\nINSERT INTO app VALUES(42);\nCOMMIT;\n"
        let written = try Self.write(TodoList(items: [TodoItem(name: "a")]), into: dump, in: directory)
        #expect(
            written == """
                PRAGMA foreign_keys=OFF;
                BEGIN TRANSACTION;
                CREATE TABLE app(x INTEGER);
                INSERT INTO app VALUES(42);
                CREATE TABLE todo_items ("id" INTEGER PRIMARY KEY, "parent" INTEGER REFERENCES todo_items(id), "position" INTEGER NOT NULL, "name" TEXT NOT NULL, "checked" BOOLEAN NOT NULL, "status" TEXT, "section" TEXT);
                INSERT INTO todo_items VALUES(1,NULL,0,'a',0,NULL,NULL);
                COMMIT;

                """)
        // Written into again, with a new field (a new column): the table is made again in place.
        let again = try Self.write(
            TodoList(items: [TodoItem(name: "a", fields: [Field("n", .double(2.5))])]), into: written, in: directory)
        #expect(again.contains("INSERT INTO app VALUES(42);\nCREATE TABLE todo_items ("))
        #expect(
            again.contains(
                "\"section\" TEXT, \"n\" REAL);\nINSERT INTO todo_items VALUES(1,NULL,0,'a',0,NULL,NULL,2.5);\nCOMMIT;\n"
            ))
    }
}
