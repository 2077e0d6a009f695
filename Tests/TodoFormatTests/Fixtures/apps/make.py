#!/usr/bin/env python3
"""Writes the app fixtures: small files made the way real apps and tools write their todo
lists, the checklist todofmt should read from each (NAME.expected.md), and for some of them
the file after one edit of that checklist (NAME.after-EDIT.md, and NAME.after-EDIT.EXT as the
app's own writer would leave the file; for databases NAME.after-EDIT.dump, the `sqlite3 .dump`
text of the database after the edit). README.md beside this script says what each file
mirrors and what reading and writing it must do; manifest.json says the same for the tests.

Run from the repository root:  python3 Tests/TodoFormatTests/Fixtures/apps/make.py

Every file is written by the tool the real file comes from: Python's sqlite3 and the sqlite3
shell (and its .dump), plistlib (XML and binary), json (in the layouts of Swift's
JSONEncoder, Python, JavaScript and Go), PyYAML, and YAML typed by hand as people write it.
The output is deterministic: running the script twice gives the same bytes (with the same
SQLite version). Each file is read back here with the reader the app would use.
"""
import copy
import datetime as dt
import hashlib
import json
import os
import plistlib
import re
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import zlib

import yaml

OUT = "Tests/TodoFormatTests/Fixtures/apps"
UTC = dt.timezone.utc
# The time of every write in the after-files: tests pin todofmt's clock to it.
NOW = dt.datetime(2026, 1, 2, 3, 4, 5, 250000, tzinfo=UTC)
NOW_TEXT = "2026-01-02T03:04:05.25Z"
REFERENCE_DATE = dt.datetime(2001, 1, 1, tzinfo=UTC)  # Core Data and NSDate count from here
EDITS = ["check", "rename", "add", "remove", "move"]
RENAMED = "Renamed item"
ADDED = "Added item"

MANIFEST = []


# ---------------------------------------------------------------------------------------------
# The checklist side: items and their canonical Markdown (FORMAT.md sections 3, 4 and 10).

class D:
    """A date as a checklist writes it: UTC, `Z`, the fraction's digits exactly as stored."""

    def __init__(self, text):
        self.text = text

    def __repr__(self):
        return "D(%r)" % self.text


class Item:
    def __init__(self, name, box=" ", fields=(), children=()):
        self.name, self.box, self.fields, self.children = name, box, list(fields), list(children)


def utc(text):
    """A stored date text (`2025-10-01 13:33:10.6197688+03:30`, `2024-05-01 09:30:00.123456`,
    `2024-05-01T09:30:00.000Z`) as the checklist's date, keeping every digit of the fraction."""
    m = re.fullmatch(r"(\d{4})-(\d\d)-(\d\d)[T ](\d\d):(\d\d):(\d\d)(?:\.(\d+))?(Z|[+-]\d\d:?\d\d)?", text)
    assert m, text
    whole = dt.datetime(*map(int, m.groups()[:6]), tzinfo=UTC)
    zone = m[8]
    if zone and zone != "Z":
        sign = 1 if zone[0] == "+" else -1
        hours, minutes = int(zone[1:3]), int(zone[-2:])
        whole -= sign * dt.timedelta(hours=hours, minutes=minutes)
    fraction = (m[7] or "").rstrip("0")
    if len(fraction) > 6:
        # Dates are doubles (seconds since 1970) in todofmt as in Foundation: past the
        # microsecond the checklist shows the shortest fraction that reads back to the same
        # double, as Python's repr does; the stored text itself is kept on write-back.
        fraction = repr(whole.timestamp() + float("0." + fraction)).partition(".")[2]
    return D(whole.strftime("%Y-%m-%dT%H:%M:%S") + ("." + fraction if fraction else "") + "Z")


def since2001(seconds):
    """Core Data's TIMESTAMP (seconds since 2001-01-01 UTC) as the checklist's date: the
    fraction with the fewest digits that read back to the same double."""
    whole, _, fraction = repr(float(seconds)).partition(".")
    date = REFERENCE_DATE + dt.timedelta(seconds=int(whole))
    fraction = fraction.rstrip("0")
    return D(date.strftime("%Y-%m-%dT%H:%M:%S") + ("." + fraction if fraction else "") + "Z")


def to2001(date):
    return (date - REFERENCE_DATE).total_seconds()


NUMBER = re.compile(r"-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?")
# What a checklist reads as a date: a time and a zone are required (a bare `2024-05-01 10:00:00` is text).
DATE_LIKE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}[Tt ][0-9]{2}:[0-9]{2}:[0-9]{2}(\.[0-9]+)?([Zz]|[+-][0-9]{2}:?[0-9]{2})")


def bare_string_ok(s):
    return not (s == "" or s != s.strip() or "[" in s or "]" in s or s[0] in '"[{<'
                or s in ("true", "false", "null", "nan", "inf", "-inf")
                or NUMBER.fullmatch(s) or DATE_LIKE.fullmatch(s)
                or any(ord(c) < 32 or ord(c) == 127 for c in s))


def md_value(v, inner=False):
    if v is True:
        return "true"
    if v is False:
        return "false"
    if v is None:
        return "null"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        if v != v:
            return "nan"
        if v in (float("inf"), float("-inf")):
            return "inf" if v > 0 else "-inf"
        return repr(v)
    if isinstance(v, D):
        return v.text
    if isinstance(v, bytes):
        return "<" + v.hex() + ">"
    if isinstance(v, list):
        return "[" + ", ".join(md_value(x, True) for x in v) + "]"
    if isinstance(v, dict):
        return "{" + ", ".join(json.dumps(k, ensure_ascii=False) + ": " + md_value(x, True) for k, x in v.items()) + "}"
    assert isinstance(v, str), v
    return json.dumps(v, ensure_ascii=False) if inner or not bare_string_ok(v) else v


def md_key(k):
    plain = k and k == k.strip() and not any(c in k for c in '[]:"\\\n\r')
    return k if plain else json.dumps(k, ensure_ascii=False)


def ref(c):
    return "&#%d;" % ord(c)


def md_name_lines(name):
    """A name as the lines of its paragraph. White space at either end of a line, and every
    control character but a tab inside a line, is written as a decimal character reference
    (cmark-gfm turns it back into the character; `&#0;` is the one it cannot: see README);
    a line feed inside the name starts a continuation line."""
    assert "\\" not in name and "&#" not in name and not re.search(r"\[[^\]]*::", name), name
    lead = len(name) - len(name.lstrip("\n"))
    trail = len(name) - len(name.rstrip("\n")) if name.strip("\n") else 0
    core = name[lead:len(name) - trail]
    assert "\n\n" not in core, name
    lines = core.split("\n")
    out = []
    for line in lines:
        chars = list(line)
        n = len(chars)
        start = 0
        while start < n and chars[start] in " \t":
            start += 1
        end = n
        while end > start and chars[end - 1] in " \t":
            end -= 1
        text = ""
        for i, c in enumerate(chars):
            if i < start or i >= end or (ord(c) < 32 and c != "\t") or ord(c) == 127:
                text += ref(c)
            else:
                text += c
        out.append(text)
    out[0] = ref("\n") * lead + out[0]
    out[-1] = out[-1] + ref("\n") * trail
    return out


def md_lines(item, depth=0):
    indent = "  " * depth
    lines = md_name_lines(item.name)
    groups = " ".join("[%s:: %s]" % (md_key(k), md_value(v)) for k, v in item.fields)
    if groups:
        lines[-1] = lines[-1] + (" " if lines[-1] else "") + groups
    out = [indent + "- [%s] " % item.box + lines[0]] + [indent + "  " + l for l in lines[1:]]
    for child in item.children:
        out += md_lines(child, depth + 1)
    return out


def markdown(items, front=None):
    lines = []
    if front is not None:
        lines += ["---"] + front.rstrip("\n").split("\n") + ["---"]
    for item in items:
        lines += md_lines(item)
    assert not any(l.endswith((" ", "\t")) for l in lines), lines
    return "".join(l + "\n" for l in lines)


def md_edit(items, edit, added=None):
    """The five edits of a checklist, as a person makes them in an editor."""
    items = copy.deepcopy(items)
    if edit == "check":
        assert items[1].box == " "
        items[1].box = "x"
    elif edit == "rename":
        items[0].name = RENAMED
    elif edit == "add":
        items.append(added or Item(ADDED))
    elif edit == "remove":
        del items[2]
    elif edit == "move":
        items.insert(0, items.pop(2))
    return items


# ---------------------------------------------------------------------------------------------
# Files.

def path(name):
    return os.path.join(OUT, name)


def write(name, data):
    if isinstance(data, str):
        data = data.encode("utf-8")
    with open(path(name), "wb") as f:
        f.write(data)


def fresh_db(name):
    for suffix in ("", "-wal", "-shm", "-journal"):
        if os.path.exists(path(name) + suffix):
            os.remove(path(name) + suffix)
    return sqlite3.connect(path(name))


def shell(args, stdin=None):
    out = subprocess.run(["sqlite3", *args], input=stdin, capture_output=True, text=True)
    assert out.returncode == 0 and not out.stderr, out.stderr
    return out.stdout


def dump(db_path):
    return shell([db_path, ".dump"])


def dump_after(name, change):
    """The .dump text of a copy of database NAME after `change(connection)`."""
    with tempfile.TemporaryDirectory() as tmp:
        copy_path = os.path.join(tmp, "copy.db")
        shutil.copy(path(name), copy_path)
        db = sqlite3.connect(copy_path)
        change(db)
        db.commit()
        db.close()
        text = dump(copy_path)
        # The dump must load back into an empty database, as `sqlite3 new.db < dump` does.
        shell([":memory:"], stdin=text)
        return text


def register(file, fmt, mirrors, notable, flags=(), expected=None, error=None, readings=(),
             edits=None, compare=None, keep="", notes=""):
    MANIFEST.append({
        "file": file, "format": fmt, "mirrors": mirrors, "notable": notable, "flags": list(flags),
        "expected": expected, "error": error, "readings": list(readings), "edits": edits or {},
        "compare": compare or {"json": "bytes", "yaml": "bytes", "plist": "bytes", "bplist": "plist-data",
                               "sqlite": "dump", "sql": "bytes"}[fmt],
        "keep": keep, "notes": notes})


def expect(name, items, front=None):
    text = markdown(items, front)
    write(name + ".expected.md", text)
    return text


def edit_set(base, ext, items, results, edits=EDITS, added=None, warnings=None, md_override=None):
    """Writes NAME.after-EDIT.md and NAME.after-EDIT.EXT for each edit; returns the manifest entry."""
    entry = {}
    for edit in edits:
        md = (md_override or {}).get(edit) or markdown(md_edit(items, edit, added))
        write("%s.after-%s.md" % (base, edit), md)
        write("%s.after-%s.%s" % (base, edit, ext), results[edit])
        entry[edit] = {"checklist": "%s.after-%s.md" % (base, edit), "result": "%s.after-%s.%s" % (base, edit, ext),
                       "warnings": (warnings or {}).get(edit, [])}
    return entry


# ---------------------------------------------------------------------------------------------
# SQLite databases.

def gorm():
    """Go GORM v2 with gorm.io/driver/sqlite (mattn/go-sqlite3): `type Todo struct { gorm.Model;
    Title string; IsCompleted bool }` after db.AutoMigrate(&Todo{}). The DDL is GORM's text;
    time.Time is stored as text in go-sqlite3's layout `2006-01-02 15:04:05.999999999-07:00`
    (fraction trimmed, local offset); bool as 0/1 in a `numeric` column."""
    name = "gorm-todos.db"
    db = fresh_db(name)
    db.execute("CREATE TABLE `todos` (`id` integer PRIMARY KEY AUTOINCREMENT,`created_at` datetime,`updated_at` datetime,`deleted_at` datetime,`title` text,`is_completed` numeric)")
    db.execute("CREATE INDEX `idx_todos_deleted_at` ON `todos`(`deleted_at`)")
    rows = [
        (1, "2025-09-30 08:12:45.1234567+03:30", "2025-09-30 08:12:45.1234567+03:30", "Buy milk ", 0),
        (2, "2025-10-01 13:33:10.6197688+03:30", "2025-10-01 13:33:10.6197688+03:30", "Renew the car insurance", 0),
        (3, "2025-10-01 13:35:02.5+03:30", "2025-10-02 09:00:00+03:30", "Call the plumber", 1),
        (4, "2025-10-02 21:07:19.000312+03:30", "2025-10-02 21:07:19.000312+03:30", "Book the dentist", 0),
    ]
    for id_, created, updated, title, done in rows:
        db.execute("INSERT INTO `todos` (`created_at`,`updated_at`,`deleted_at`,`title`,`is_completed`) VALUES (?,?,NULL,?,?)",
                   (created, updated, title, done))
    db.commit()
    db.close()
    items = [Item(t, "x" if d else " ", [("id", i), ("created_at", utc(c)), ("updated_at", utc(u))]) for i, c, u, t, d in rows]
    expect("gorm-todos", items)
    now = "2026-01-02 03:04:05.25+00:00"

    def change(edit):
        def run(db):
            if edit == "check":
                db.execute("UPDATE todos SET is_completed = 1, updated_at = ? WHERE id = 2", (now,))
            elif edit == "rename":
                db.execute("UPDATE todos SET title = ?, updated_at = ? WHERE id = 1", (RENAMED, now))
            elif edit == "add":
                db.execute("INSERT INTO todos (created_at, updated_at, title, is_completed) VALUES (?, ?, ?, 0)", (now, now, ADDED))
            elif edit == "remove":
                db.execute("DELETE FROM todos WHERE id = 3")
            # move: the table has no order column, so nothing changes (a warning says so).
        return run
    edits = edit_set("gorm-todos", "dump", items, {e: dump_after(name, change(e)) for e in EDITS},
                     warnings={"move": ["order"]})
    register(name, "sqlite", "Go GORM v2 + gorm.io/driver/sqlite: gorm.Model plus Title, IsCompleted",
             "`is_completed` numeric 0/1; text dates in go-sqlite3's layout with a +03:30 offset and 1-7 fraction digits "
             "('2025-10-01 13:33:10.6197688+03:30'); deleted_at NULL with its index; AUTOINCREMENT and sqlite_sequence; "
             "a title with a trailing space ('Buy milk '); no order column",
             expected="gorm-todos.expected.md", edits=edits,
             keep="every date text exactly (offset, digits); sqlite_sequence; the index; 'Buy milk ' with its space")


def rails():
    """Rails 7.1 ActiveRecord on sqlite3: `rails g model Todo title:string completed_at:datetime
    position:integer` (acts_as_list). Timestamps are UTC text with 6 fraction digits, or none when
    the microseconds are 0 (ActiveRecord's quoted_date); done is `completed_at` being set."""
    name = "rails-todos.sqlite3"
    db = fresh_db(name)
    db.execute('CREATE TABLE "schema_migrations" ("version" varchar NOT NULL PRIMARY KEY)')
    db.execute('CREATE TABLE "ar_internal_metadata" ("key" varchar NOT NULL PRIMARY KEY, "value" varchar, "created_at" datetime(6) NOT NULL, "updated_at" datetime(6) NOT NULL)')
    db.execute('CREATE TABLE "todos" ("id" integer PRIMARY KEY AUTOINCREMENT NOT NULL, "title" varchar, "completed_at" datetime(6), "position" integer, "created_at" datetime(6) NOT NULL, "updated_at" datetime(6) NOT NULL)')
    db.execute('CREATE INDEX "index_todos_on_position" ON "todos" ("position")')
    db.execute("INSERT INTO schema_migrations VALUES ('20240430201503')")
    db.execute("INSERT INTO ar_internal_metadata VALUES ('environment', 'development', '2024-04-30 20:15:03.411972', '2024-04-30 20:15:03.411972')")
    rows = [
        (1, "Water the plants", None, 1, "2024-05-01 09:30:00.123456", "2024-05-01 09:30:00.123456"),
        (2, "Pay the electricity bill", None, 2, "2024-05-01 09:31:12.5", "2024-05-01 09:31:12.5"),
        (3, "Return the library books", "2024-05-02 18:00:00.250000", 3, "2024-05-01 09:32:40", "2024-05-02 18:00:00.250000"),
        (4, "Fix the bike light", None, 4, "2024-05-03 07:15:09.000001", "2024-05-03 07:15:09.000001"),
    ]
    rows = [(i, t, c, p, a if "." not in a else a.split(".")[0] + "." + a.split(".")[1].ljust(6, "0"),
             u if "." not in u else u.split(".")[0] + "." + u.split(".")[1].ljust(6, "0")) for i, t, c, p, a, u in rows]
    db.executemany("INSERT INTO todos VALUES (?, ?, ?, ?, ?, ?)", rows)
    db.commit()
    db.close()
    items = []
    for i, t, c, p, a, u in rows:
        fields = [("id", i)] + ([("completed_at", utc(c))] if c else []) + [("position", p), ("created_at", utc(a)), ("updated_at", utc(u))]
        items.append(Item(t, "x" if c else " ", fields))
    expect("rails-todos", items)
    now = "2026-01-02 03:04:05.250000"

    def change(edit):
        def run(db):
            if edit == "check":
                db.execute("UPDATE todos SET completed_at = ?, updated_at = ? WHERE id = 2", (now, now))
            elif edit == "rename":
                db.execute("UPDATE todos SET title = ?, updated_at = ? WHERE id = 1", (RENAMED, now))
            elif edit == "add":
                db.execute("INSERT INTO todos (title, completed_at, position, created_at, updated_at) VALUES (?, NULL, 5, ?, ?)", (ADDED, now, now))
            elif edit == "remove":
                db.execute("DELETE FROM todos WHERE id = 3")
            elif edit == "move":
                db.execute("UPDATE todos SET position = 0, updated_at = ? WHERE id = 3", (now,))
        return run
    edits = edit_set("rails-todos", "dump", items, {e: dump_after(name, change(e)) for e in EDITS})
    # The same row key on two lines: a line duplicated in the editor.
    dup = markdown(items).split("\n")
    dup.insert(4, dup[1])
    write("rails-todos.duplicated-line.md", "\n".join(dup))
    edits["duplicated-line"] = {"checklist": "rails-todos.duplicated-line.md", "result": None,
                                "error": ["2", "5", "id"], "warnings": []}
    register(name, "sqlite", "Rails 7.1 ActiveRecord (sqlite3 adapter), acts_as_list",
             "done is `completed_at` being set (no boolean); datetime(6) text in UTC, 6 fraction digits or none; "
             "schema_migrations and ar_internal_metadata beside the table; created_at/updated_at NOT NULL; integer position",
             expected="rails-todos.expected.md", edits=edits,
             keep="the exact text of every date; the other two tables; sqlite_sequence; new rows need created_at and updated_at")


def django():
    """Django 4.2 on SQLite: `class Task(models.Model): title = CharField(max_length=200);
    done = BooleanField(default=False); order = FloatField(); created = DateTimeField(auto_now_add=True)`
    (app `todo`). USE_TZ: datetimes are stored as naive UTC text, str(datetime)."""
    name = "django-tasks.sqlite3"
    db = fresh_db(name)
    db.execute('CREATE TABLE "django_migrations" ("id" integer NOT NULL PRIMARY KEY AUTOINCREMENT, "app" varchar(255) NOT NULL, "name" varchar(255) NOT NULL, "applied" datetime NOT NULL)')
    db.execute('CREATE TABLE "todo_task" ("id" integer NOT NULL PRIMARY KEY AUTOINCREMENT, "title" varchar(200) NOT NULL, "done" bool NOT NULL, "order" real NOT NULL, "created" datetime NOT NULL)')
    db.executemany('INSERT INTO "django_migrations" ("app", "name", "applied") VALUES (?, ?, ?)',
                   [("contenttypes", "0001_initial", "2024-04-30 20:15:03.411972"),
                    ("todo", "0001_initial", "2024-04-30 20:15:03.520114")])
    rows = [  # inserted in creation order; the list order is by "order" (1, 3, 4, 2)
        (1, "Sweep the porch", 0, 1.0, "2024-05-01 09:30:00.123456"),
        (2, "Defrost the freezer", 1, 4.0, "2024-05-01 09:31:00.120000"),
        (3, "Order printer ink", 0, 1.5, "2024-05-02 14:00:00"),
        (4, "Oil the gate hinges", 0, 2.5, "2024-05-03 08:45:30.999999"),
    ]
    db.executemany('INSERT INTO "todo_task" VALUES (?, ?, ?, ?, ?)', rows)
    db.commit()
    db.close()
    ordered = sorted(rows, key=lambda r: r[3])
    items = [Item(t, "x" if d else " ", [("id", i), ("order", o), ("created", utc(c))]) for i, t, d, o, c in ordered]
    expect("django-tasks", items)
    now = "2026-01-02 03:04:05.250000"

    def change(edit):
        def run(db):
            if edit == "check":
                db.execute('UPDATE "todo_task" SET "done" = 1 WHERE "id" = 3')
            elif edit == "rename":
                db.execute('UPDATE "todo_task" SET "title" = ? WHERE "id" = 1', (RENAMED,))
            elif edit == "add":  # after the last (4.0): the last plus one
                db.execute('INSERT INTO "todo_task" ("title", "done", "order", "created") VALUES (?, 0, 5.0, ?)', (ADDED, now))
            elif edit == "remove":
                db.execute('DELETE FROM "todo_task" WHERE "id" = 4')
            elif edit == "move":  # before the first (1.0): the first minus one
                db.execute('UPDATE "todo_task" SET "order" = 0.0 WHERE "id" = 4')
        return run
    edits = edit_set("django-tasks", "dump", items, {e: dump_after(name, change(e)) for e in EDITS})
    register(name, "sqlite", "Django 4.2 ORM on SQLite (models.Model with a FloatField order)",
             "two candidate tables (django_migrations has a `name` column); `bool` column; a REAL order column with "
             "1.0, 1.5, 2.5, 4.0 (row order differs from list order); a column named \"order\" (an SQL keyword); "
             "naive UTC datetime text with 6 or no fraction digits",
             flags=["--table", "todo_task"], expected="django-tasks.expected.md", edits=edits,
             keep="the REAL order values that did not move; the date texts; django_migrations untouched")


def things3():
    """Things 3 (Cultured Code), its `main.sqlite`: TMTask with Things' own column names and types
    (a subset of its ~40 columns), the table DDL quoted with single quotes as Things writes it,
    beside TMArea, TMTag and TMChecklistItem (all with a `title`). status: 0 open, 2 cancelled,
    3 done; dates are REAL Unix seconds; the sort key is the integer "index" (sparse, negative)."""
    name = "things3-main.sqlite"
    db = fresh_db(name)
    db.execute("CREATE TABLE 'TMArea' ('uuid' TEXT PRIMARY KEY, 'title' TEXT, 'visible' INTEGER, 'index' INTEGER, 'cachedTags' BLOB, 'experimental' BLOB)")
    db.execute("CREATE TABLE 'TMTag' ('uuid' TEXT PRIMARY KEY, 'title' TEXT, 'shortcut' TEXT, 'usedDate' REAL, 'parent' TEXT, 'index' INTEGER, 'experimental' BLOB)")
    db.execute("CREATE TABLE 'TMTask' ('uuid' TEXT PRIMARY KEY, 'leavesTombstone' INTEGER, 'creationDate' REAL, 'userModificationDate' REAL, "
               "'type' INTEGER, 'status' INTEGER, 'stopDate' REAL, 'trashed' INTEGER, 'title' TEXT, 'notes' TEXT, 'notesSync' INTEGER, "
               "'cachedTags' BLOB, 'start' INTEGER, 'startDate' INTEGER, 'startBucket' INTEGER, 'deadline' INTEGER, 'index' INTEGER, "
               "'todayIndex' INTEGER, 'area' TEXT, 'project' TEXT, 'heading' TEXT, 'checklistItemsCount' INTEGER, 'openChecklistItemsCount' INTEGER)")
    db.execute("CREATE TABLE 'TMChecklistItem' ('uuid' TEXT PRIMARY KEY, 'userModificationDate' REAL, 'creationDate' REAL, 'title' TEXT, "
               "'status' INTEGER, 'stopDate' REAL, 'index' INTEGER, 'task' TEXT, 'leavesTombstone' INTEGER, 'experimental' BLOB)")
    db.execute("CREATE INDEX index_TMTask_area ON TMTask(area)")
    db.execute("CREATE INDEX index_TMChecklistItem_task ON TMChecklistItem(task)")
    db.execute("CREATE TABLE Meta (key TEXT PRIMARY KEY, value TEXT)")
    db.execute("INSERT INTO Meta VALUES ('databaseVersion', '<?xml version=\"1.0\" encoding=\"UTF-8\"?><plist version=\"1.0\"><integer>26</integer></plist>')")
    db.execute("INSERT INTO TMArea VALUES ('8nVfKTd9Qp2WbX1mZc4hRs', 'Home', 1, -465, NULL, NULL)")
    db.execute("INSERT INTO TMTag VALUES ('Lq3ZyVt7Bn5Kd8Rw2Xc6Hm', 'Errand', NULL, 1714555800.0, NULL, 0, NULL)")
    # uuid, creation, modification, status, stop, title, notes, start, index, today, area, checklist counts
    rows = [
        ("AkR4d9TqW2mVx7ZbN3cLpE", 1714642200.25, 1714728600.75, 3, 1714728600.75, "Call the insurance", "", 1, -1120, 0, None, 0, 0),
        ("F2hGk8sYt6QwPz1XnB5vJm", 1714555800.5, 1714555800.5, 0, None, "Renew passport", "Photos from the booth on Main St", 1, -320, 0, None, 1, 1),
        ("Q9wErT5yU3iO1pA7sD2fGh", 1714812000.0, 1714900000.125, 2, 1714900000.125, "Book flights for June", "", 2, 15, 0, None, 0, 0),
        ("Zx8Cv6Bn4Mq2Wl0Ka9Sd7F", 1714986000.0625, 1714986000.0625, 0, None, "Water the plants", "", 1, 240, 3, "8nVfKTd9Qp2WbX1mZc4hRs", 0, 0),
    ]
    for u, c, m, st, stop, title, notes, start, idx, today, area, cl, ocl in [rows[1], rows[0], rows[3], rows[2]]:
        db.execute("INSERT INTO TMTask (uuid, leavesTombstone, creationDate, userModificationDate, type, status, stopDate, trashed, title, notes, "
                   "notesSync, start, \"index\", todayIndex, area, checklistItemsCount, openChecklistItemsCount) "
                   "VALUES (?, 0, ?, ?, 0, ?, ?, 0, ?, ?, 0, ?, ?, ?, ?, ?, ?)", (u, c, m, st, stop, title, notes, start, idx, today, area, cl, ocl))
    db.execute("INSERT INTO TMChecklistItem VALUES ('Hy7Ju6Ki5Lo4Pm3Nb2Vc1Xz', 1714555800.5, 1714555800.5, 'Old passport', 0, NULL, 0, 'F2hGk8sYt6QwPz1XnB5vJm', 0, NULL)")
    db.commit()
    db.close()
    items = []
    for u, c, m, st, stop, title, notes, start, idx, today, area, cl, ocl in rows:
        fields = [("uuid", u), ("leavesTombstone", 0), ("creationDate", c), ("userModificationDate", m), ("type", 0)]
        fields += [("stopDate", stop)] if stop is not None else []
        fields += [("trashed", 0), ("notes", notes), ("notesSync", 0), ("start", start), ("index", idx), ("todayIndex", today)]
        fields += [("area", area)] if area else []
        fields += [("checklistItemsCount", cl), ("openChecklistItemsCount", ocl)]
        items.append(Item(title, {0: " ", 2: "-", 3: "x"}[st], fields))
    expect("things3-main", items)
    register(name, "sqlite", "Things 3 (Cultured Code) main.sqlite: TMTask and its neighbours",
             "numeric status 0/2/3 (open/cancelled/done); four tables with a `title`; single-quoted identifiers in the DDL; "
             "a column named 'index' (SQL keyword) holding sparse negative integers that order the list; REAL Unix dates; "
             "text primary keys; empty-string notes",
             flags=["--table", "TMTask", "--field", "order=index", "--field", "checked=status:3", "--field", "status=status:2=-"],
             expected="things3-main.expected.md",
             keep="status written back as 3/2/0; the other tables (TMChecklistItem rows are not children)")


def uuid_tasks():
    """A table keyed by UUID text, declared WITHOUT ROWID (as SQLite's docs advise for such keys;
    common in apps built on rusqlite/sqlx), with a REAL position. Names carry what editors and
    Markdown lose: end spaces, a tab, line feeds, CR LF, NUL, ESC, BEL and DEL."""
    name = "uuid-tasks.sqlite"
    db = fresh_db(name)
    db.execute("CREATE TABLE tasks (\n    id TEXT PRIMARY KEY NOT NULL,\n    title TEXT NOT NULL,\n    done INTEGER NOT NULL DEFAULT 0,\n"
               "    position REAL NOT NULL\n) WITHOUT ROWID")
    rows = [
        ("c0a8012e-7b1d-4f7e-9a3c-5d2e8f1b6a40", "Buy milk ", 0, 1.5),
        ("4f6c2d1a-93b8-4e25-b7a0-e1d2c3b4a596", "  Call mom\tafter work", 0, 2.5),
        ("e7d9b3f1-0a2c-4b6e-8d4f-1c3e5a7b9d02", "Line one\nLine two", 1, 3.25),
        ("9a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d", "Ends with a newline\n", 0, 4.0),
        ("2b4d6f80-1a3c-4e5f-9b7d-0c2e4a6b8d1f", "NUL\x00inside, bell\x07, escape\x1b[1mbold\x1b[0m, DEL\x7f", 0, 8.0),
        ("7e5c3a1f-9d8b-4c6a-8e4f-2d0b9a7c5e31", "Carriage\r\nreturn", 0, 9.5),
    ]
    db.executemany("INSERT INTO tasks VALUES (?, ?, ?, ?)", rows)
    db.commit()
    db.close()
    items = [Item(t, "x" if d else " ", [("id", i), ("position", p)]) for i, t, d, p in rows]
    expect("uuid-tasks", items)
    new_id = "5d1c7a0e-8f2b-4c3d-9e4f-a1b2c3d4e5f6"

    def change(edit):
        def run(db):
            if edit == "check":
                db.execute("UPDATE tasks SET done = 1 WHERE id = ?", (rows[1][0],))
            elif edit == "rename":
                db.execute("UPDATE tasks SET title = ? WHERE id = ?", (RENAMED, rows[0][0]))
            elif edit == "add":
                db.execute("INSERT INTO tasks VALUES (?, ?, 0, 10.5)", (new_id, ADDED))
            elif edit == "remove":
                db.execute("DELETE FROM tasks WHERE id = ?", (rows[2][0],))
            elif edit == "move":
                db.execute("UPDATE tasks SET position = 0.5 WHERE id = ?", (rows[2][0],))
        return run
    edits = edit_set("uuid-tasks", "dump", items, {e: dump_after(name, change(e)) for e in EDITS},
                     added=Item(ADDED, " ", [("id", new_id)]))
    register(name, "sqlite", "an app keying rows by UUID text in a WITHOUT ROWID table (rusqlite/sqlx style)",
             "WITHOUT ROWID (no rowid to fall back on); REAL positions 1.5, 2.5, 3.25 ...; names with end spaces, a tab, "
             "LF, a final LF, CR LF, NUL, BEL, ESC and DEL; the DDL spans several lines",
             expected="uuid-tasks.expected.md", edits=edits,
             keep="every name byte for byte (the NUL row too: .dump stops at a NUL, so check it with Python's sqlite3); "
                  "a new row needs its id: the added checklist line carries [id:: ...], without it the write fails naming the id column",
             notes="The row with NUL is dumped by the sqlite3 shell only up to the NUL; tests compare it with Python's sqlite3.")


CORE_DATA_HISTORY = [
    "CREATE TABLE ACHANGE ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZCHANGETYPE INTEGER, ZENTITY INTEGER, ZENTITYPK INTEGER, ZTRANSACTIONID INTEGER, ZCOLUMNS BLOB )",
    "CREATE TABLE ATRANSACTION ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZAUTHORTS INTEGER, ZBUNDLEIDTS INTEGER, ZCONTEXTNAMETS INTEGER, ZPROCESSIDTS INTEGER, ZTIMESTAMP FLOAT, ZAUTHOR VARCHAR, ZBUNDLEID VARCHAR, ZCONTEXTNAME VARCHAR, ZPROCESSID VARCHAR, ZQUERYGEN BLOB )",
    "CREATE TABLE ATRANSACTIONSTRING ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZNAME VARCHAR NOT NULL UNIQUE )",
    "CREATE INDEX ACHANGE_ZTRANSACTIONID_INDEX ON ACHANGE (ZTRANSACTIONID)",
    "CREATE INDEX Z_TRANSACTION_TransactionAuthorIndex ON ATRANSACTION (ZAUTHORTS)",
    "CREATE INDEX Z_TRANSACTION_TransactionTimestampIndex ON ATRANSACTION (ZTIMESTAMP)",
]


def core_data_bookkeeping(db, entities, uuid, history=False):
    """Z_PRIMARYKEY (one row per entity: number, name, super entity, largest key), Z_METADATA
    (the store's UUID and a binary plist naming the entities, as NSPersistentStore writes it)
    and Z_MODELCACHE (the compiled model, compressed)."""
    db.execute("CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER)")
    db.executemany("INSERT INTO Z_PRIMARYKEY VALUES (?, ?, ?, ?)", entities)
    hashes = {e[1]: hashlib.sha256(e[1].encode()).digest() for e in entities if e[0] < 16000}
    metadata = {
        "NSPersistenceFrameworkVersion": 1341,
        "NSStoreModelVersionChecksumKey": "bMpud663vz0bXQE8Blkv2hRIbP2pHjRKFNUPTLC6Kq8=",
        "NSStoreModelVersionHashes": hashes,
        "NSStoreModelVersionHashesDigest": "SWQvqpFAn+d4hQ0yD5FQ3gvXbT7JdDWsRX6RQpbYcEj9Wv3gqzvOKYpjT0SgCdVFwDz8q0c8m4uL8Zi2zK2o3g==",
        "NSStoreModelVersionHashesVersion": 3,
        "NSStoreModelVersionIdentifiers": [""],
        "NSStoreType": "SQLite",
        "_NSAutoVacuumLevel": "2",
    }
    if history:
        metadata["NSPersistentHistoryTracking"] = True
    db.execute("CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB)")
    db.execute("INSERT INTO Z_METADATA VALUES (1, ?, ?)", (uuid, plistlib.dumps(metadata, fmt=plistlib.FMT_BINARY)))
    db.execute("CREATE TABLE Z_MODELCACHE (Z_CONTENT BLOB)")
    deflate = zlib.compressobj(9, zlib.DEFLATED, -15)
    model = plistlib.dumps({"entities": sorted(hashes)}, fmt=plistlib.FMT_BINARY)
    db.execute("INSERT INTO Z_MODELCACHE VALUES (?)", (deflate.compress(model) + deflate.flush(),))


def swiftdata():
    """A SwiftData app's default.store (Core Data's SQLite layout): @Model classes TodoItem
    (title, isDone, order: Int, createdAt, list, tags), TodoList (name), Tag (name, items) and
    Note (content, createTime), a notes entity with no done flag. Entity numbers
    are alphabetical; TodoItem.tags <<->> Tag.items is the join table Z_3TAGS; persistent history
    (ACHANGE, ATRANSACTION, ATRANSACTIONSTRING) is on, as SwiftData turns it on; WAL mode."""
    name = "swiftdata-default.store"
    db = fresh_db(name)
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("CREATE TABLE ZNOTE ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZCREATETIME TIMESTAMP, ZCONTENT VARCHAR )")
    db.execute("CREATE TABLE ZTAG ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZNAME VARCHAR )")
    db.execute("CREATE TABLE ZTODOITEM ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZISDONE INTEGER, ZORDER INTEGER, ZLIST INTEGER, ZCREATEDAT TIMESTAMP, ZTITLE VARCHAR )")
    db.execute("CREATE TABLE Z_3TAGS ( Z_3ITEMS INTEGER, Z_2TAGS INTEGER, PRIMARY KEY (Z_3ITEMS, Z_2TAGS) )")
    db.execute("CREATE TABLE ZTODOLIST ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZNAME VARCHAR )")
    for statement in CORE_DATA_HISTORY:
        db.execute(statement)
    db.execute("CREATE INDEX ZTODOITEM_ZLIST_INDEX ON ZTODOITEM (ZLIST)")
    db.execute("CREATE INDEX Z_3TAGS_Z_2TAGS_INDEX ON Z_3TAGS (Z_2TAGS, Z_3ITEMS)")
    core_data_bookkeeping(db, [(1, "Note", 0, 2), (2, "Tag", 0, 2), (3, "TodoItem", 0, 5), (4, "TodoList", 0, 1),
                               (16001, "CHANGE", 0, 3), (16002, "TRANSACTION", 0, 2), (16003, "TRANSACTIONSTRING", 0, 2)],
                          "8F3C2B1A-6D5E-4F70-9A8B-C1D2E3F40516", history=True)
    db.executemany("INSERT INTO ZNOTE VALUES (?, 1, 1, ?, ?)", [
        (1, 736243200.5, "Gate code is 4711"), (2, 736329600.25, "Ask about the Sunday opening hours")])
    db.executemany("INSERT INTO ZTAG VALUES (?, 2, 1, ?)", [(1, "errand"), (2, "home")])
    db.execute("INSERT INTO ZTODOLIST VALUES (1, 4, 2, 'Weekend')")
    # Z_PK 3 was deleted earlier; Z_PK 5 was moved to the top of the list.
    items_rows = [  # Z_PK, Z_OPT, ZISDONE, ZORDER, ZLIST, ZCREATEDAT, ZTITLE
        (1, 2, 0, 1, 1, 736243260.5, "Pick up the dry cleaning"),
        (2, 1, 0, 2, 1, 736243320.25, "Buy birthday candles"),
        (4, 3, 1, 3, 1, 736329600.0, "Clean the gutters"),
        (5, 4, 0, 0, None, 736416000.125, "Post the parcel"),
    ]
    db.executemany("INSERT INTO ZTODOITEM VALUES (?, 3, ?, ?, ?, ?, ?, ?)", items_rows)
    db.executemany("INSERT INTO Z_3TAGS VALUES (?, ?)", [(1, 1), (2, 2), (4, 2), (5, 1)])
    db.executemany("INSERT INTO ATRANSACTIONSTRING VALUES (?, 16003, 1, ?)", [(1, "NSCoreDataCoreSpotlightExporter"), (2, "com.example.Weekend")])
    db.executemany("INSERT INTO ATRANSACTION VALUES (?, 16002, 1, NULL, 2, NULL, 2, ?, NULL, NULL, NULL, NULL, NULL)", [(1, 736416000.2), (2, 736416100.7)])
    db.executemany("INSERT INTO ACHANGE VALUES (?, 16001, NULL, ?, 3, ?, ?, ?)", [(1, 0, 5, 1, None), (2, 1, 5, 2, b"\x10"), (3, 2, 3, 2, None)])
    db.commit()
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    db.close()
    ordered = sorted(items_rows, key=lambda r: r[3])
    items = [Item(t, "x" if d else " ", [("Z_PK", pk), ("ZORDER", o)] + ([("ZLIST", l)] if l else []) + [("ZCREATEDAT", since2001(c))])
             for pk, opt, d, o, l, c, t in ordered]
    expect("swiftdata-default", items)
    notes = [Item(t, " ", [("Z_PK", pk), ("ZCREATETIME", since2001(c))]) for pk, c, t in [(1, 736243200.5, "Gate code is 4711"), (2, 736329600.25, "Ask about the Sunday opening hours")]]
    write("swiftdata-default.entity-Note.expected.md", markdown(notes))
    now = to2001(NOW)
    # List order: Z_PK 5 (0), 1 (1), 2 (2), 4 (3).

    def change(edit):
        def run(db):
            if edit == "check":
                db.execute("UPDATE ZTODOITEM SET ZISDONE = 1, Z_OPT = Z_OPT + 1 WHERE Z_PK = 1")
            elif edit == "rename":
                db.execute("UPDATE ZTODOITEM SET ZTITLE = ?, Z_OPT = Z_OPT + 1 WHERE Z_PK = 5", (RENAMED,))
            elif edit == "add":
                db.execute("INSERT INTO ZTODOITEM VALUES (6, 3, 1, 0, 4, NULL, ?, ?)", (now, ADDED))
                db.execute("UPDATE Z_PRIMARYKEY SET Z_MAX = 6 WHERE Z_ENT = 3")
            elif edit == "remove":
                db.execute("DELETE FROM ZTODOITEM WHERE Z_PK = 2")
                db.execute("DELETE FROM Z_3TAGS WHERE Z_3ITEMS = 2")  # its many-to-many rows go with it
            elif edit == "move":  # before the first (0): the first minus one
                db.execute("UPDATE ZTODOITEM SET ZORDER = -1, Z_OPT = Z_OPT + 1 WHERE Z_PK = 2")
        return run
    edits = edit_set("swiftdata-default", "dump", items, {e: dump_after(name, change(e)) for e in EDITS})
    dup = markdown(items).split("\n")
    dup.insert(2, dup[0])
    write("swiftdata-default.duplicated-line.md", "\n".join(dup))
    edits["duplicated-line"] = {"checklist": "swiftdata-default.duplicated-line.md", "result": None,
                                "error": ["1", "3", "Z_PK"], "warnings": []}
    register(name, "sqlite", "a SwiftData app's default.store (Core Data SQLite layout, persistent history on)",
             "four entities in four tables with a name-like column (ZTITLE, ZNAME twice, ZCONTENT): --entity picks one, by "
             "Z_PRIMARYKEY.Z_NAME; a many-to-many join table Z_3TAGS; ACHANGE/ATRANSACTION/ATRANSACTIONSTRING (ZNAME!) and "
             "Z_PRIMARYKEY rows 16001-16003; key gaps (Z_PK 3 deleted); list order by ZORDER differs from Z_PK order; WAL header",
             flags=["--entity", "TodoItem"], expected="swiftdata-default.expected.md",
             readings=[{"flags": ["--entity", "Note"], "expected": "swiftdata-default.entity-Note.expected.md"}],
             edits=edits,
             keep="Z_OPT + 1 on changed rows; Z_MAX raised for a new row; a removed item's Z_3TAGS rows go with it; "
                  "no history rows are added; Note, Tag, TodoList rows untouched")


def notes_sti():
    """Apple Notes-style Core Data single-table inheritance (NoteStore.sqlite's shape): the
    abstract entity ICCloudSyncingObject and its sub-entities ICAccount, ICFolder and ICNote share
    the table ZICCLOUDSYNCINGOBJECT, told apart by Z_ENT; attributes of the same name in different
    sub-entities get numbered columns (ZTITLE1 for notes, ZTITLE2 for folders, ZCREATIONDATE1 ...).
    Notes have no done flag. Keys are shared by the hierarchy: Z_MAX lives on the root entity."""
    name = "notes-sti.sqlite"
    db = fresh_db(name)
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("CREATE TABLE ZICCLOUDSYNCINGOBJECT ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZMARKEDFORDELETION INTEGER, "
               "ZNEEDSINITIALFETCHFROMCLOUD INTEGER, ZACCOUNT2 INTEGER, ZISPINNED INTEGER, ZFOLDER INTEGER, ZPARENT INTEGER, "
               "ZCREATIONDATE1 TIMESTAMP, ZMODIFICATIONDATE1 TIMESTAMP, ZFOLDERMODIFICATIONDATE TIMESTAMP, ZIDENTIFIER VARCHAR, "
               "ZNAME VARCHAR, ZSNIPPET VARCHAR, ZTITLE1 VARCHAR, ZTITLE2 VARCHAR )")
    db.execute("CREATE INDEX ZICCLOUDSYNCINGOBJECT_ZFOLDER_INDEX ON ZICCLOUDSYNCINGOBJECT (ZFOLDER)")
    core_data_bookkeeping(db, [(1, "ICCloudSyncingObject", 0, 7), (2, "ICAccount", 1, 0), (3, "ICFolder", 1, 0), (4, "ICNote", 1, 0)],
                          "0E1F2A3B-4C5D-4E6F-8091-A2B3C4D5E6F7")
    ins = ("INSERT INTO ZICCLOUDSYNCINGOBJECT (Z_PK, Z_ENT, Z_OPT, ZMARKEDFORDELETION, ZNEEDSINITIALFETCHFROMCLOUD, ZACCOUNT2, ZISPINNED, ZFOLDER, "
           "ZCREATIONDATE1, ZMODIFICATIONDATE1, ZFOLDERMODIFICATIONDATE, ZIDENTIFIER, ZNAME, ZSNIPPET, ZTITLE1, ZTITLE2) VALUES "
           "(?, ?, ?, 0, 0, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")
    N = None
    objects = [
        (1, 2, 3, N, N, N, N, N, N, "6C1E0B9A-2D3F-4A5B-8C7D-9E0F1A2B3C4D", "iCloud", N, N, N),
        (2, 3, 5, 1, N, N, N, N, 736243100.0, "B0A1C2D3-E4F5-4061-8293-A4B5C6D7E8F9", N, N, N, "Notes"),
        (3, 4, 4, N, 0, 2, 736243200.5, 736500000.75, N, "1F2E3D4C-5B6A-4798-8A9B-0C1D2E3F4A5B", N, "Four eggs, flour, milk", "Pancakes", N),
        (4, 3, 2, 1, N, N, N, N, 736243150.0, "C3D4E5F6-0718-4293-A4B5-C6D7E8F90A1B", N, N, N, "Recipes"),
        (5, 4, 2, N, 1, 2, 736160000.25, 736160000.25, N, "2A3B4C5D-6E7F-4081-9203-B4C5D6E7F809", N, "Bring the blue folder", "Tax papers", N),
        (6, 4, 7, N, 0, 4, 736329600.125, 736416000.5, N, "3B4C5D6E-7F80-4192-A314-C5D6E7F8091A", N, "Milk, bread, apples", "Shopping", N),
        (7, 4, 1, N, 0, 2, 736420000.0, 736420000.0, N, "4C5D6E7F-8091-42A3-B425-D6E7F8091A2B", N, "Leave the key under the mat", "Key for the neighbours", N),
    ]
    db.executemany(ins, objects)
    db.commit()
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    db.close()
    notes = sorted([o for o in objects if o[1] == 4], key=lambda o: o[6])
    items = [Item(o[12], " ", [("Z_PK", o[0]), ("ZMARKEDFORDELETION", 0), ("ZNEEDSINITIALFETCHFROMCLOUD", 0), ("ZISPINNED", o[4]),
                                ("ZFOLDER", o[5]), ("ZCREATIONDATE1", since2001(o[6])), ("ZMODIFICATIONDATE1", since2001(o[7])),
                                ("ZIDENTIFIER", o[9]), ("ZSNIPPET", o[11])]) for o in notes]
    expect("notes-sti", items)
    now = to2001(NOW)
    # List order by ZCREATIONDATE1: Z_PK 5, 3, 6, 7.

    def change(edit):
        def run(db):
            if edit == "rename":
                db.execute("UPDATE ZICCLOUDSYNCINGOBJECT SET ZTITLE1 = ?, ZMODIFICATIONDATE1 = ?, Z_OPT = Z_OPT + 1 WHERE Z_PK = 5", (RENAMED, now))
            elif edit == "add":
                db.execute("INSERT INTO ZICCLOUDSYNCINGOBJECT (Z_PK, Z_ENT, Z_OPT, ZCREATIONDATE1, ZMODIFICATIONDATE1, ZTITLE1) VALUES (8, 4, 1, ?, ?, ?)",
                           (now, now, ADDED))
                db.execute("UPDATE Z_PRIMARYKEY SET Z_MAX = 8 WHERE Z_ENT = 1")
            elif edit == "remove":
                db.execute("DELETE FROM ZICCLOUDSYNCINGOBJECT WHERE Z_PK = 6")
            # check: a note has no done flag; move: notes are ordered by their creation date. Both change nothing.
        return run
    edits = edit_set("notes-sti", "dump", items, {e: dump_after(name, change(e)) for e in EDITS},
                     warnings={"check": ["done"], "move": ["order"]})
    register(name, "sqlite", "Apple Notes' NoteStore.sqlite shape: Core Data single-table inheritance",
             "one table for four entities (Z_ENT 2 account, 3 folders, 4 notes; 1 the abstract root, Z_SUPER links them); "
             "numbered columns ZTITLE1/ZTITLE2, ZCREATIONDATE1; other entities' columns are NULL in a note's row; "
             "no done column; keys shared by the hierarchy (Z_MAX on ICCloudSyncingObject); key order differs from creation order",
             flags=["--entity", "ICNote"], expected="notes-sti.expected.md", edits=edits,
             keep="the account and folder rows; Z_ENT 4 and Z_OPT 1 on a new note, key from the root's Z_MAX; "
                  "modification date set on a changed note")


def misnamed_db():
    """The classic iPhone SQLite tutorial table, made with the sqlite3 shell, in a file someone
    named .json: an existing output's content, not its extension, says what it is."""
    name = "tutorial-db.json"
    if os.path.exists(path(name)):
        os.remove(path(name))
    shell([path(name), "CREATE TABLE todo(pk INTEGER PRIMARY KEY, text VARCHAR(25), priority INTEGER, complete BOOLEAN);"
                       "INSERT INTO todo VALUES(1,'Take out the trash',3,0);"
                       "INSERT INTO todo VALUES(2,'Learn Objective-C',1,0);"
                       "INSERT INTO todo VALUES(3,'Read the SQLite tutorial',2,1);"])
    items = [Item("Take out the trash", " ", [("pk", 1), ("priority", 3)]), Item("Learn Objective-C", " ", [("pk", 2), ("priority", 1)]),
             Item("Read the SQLite tutorial", "x", [("pk", 3), ("priority", 2)])]
    expect("tutorial-db", items)
    edits = edit_set("tutorial-db", "dump", items,
                     {"check": dump_after(name, lambda db: db.execute("UPDATE todo SET complete = 1 WHERE pk = 2"))}, edits=["check"])
    register(name, "sqlite", "the classic iPhone SQLite tutorial todo(pk, text, priority, complete), made with the sqlite3 shell",
             "an SQLite database whose name ends in .json; BOOLEAN 0/1; text VARCHAR(25)",
             expected="tutorial-db.expected.md", edits=edits,
             keep="it stays a database: writing into it updates the table, it is never replaced by JSON")


# ---------------------------------------------------------------------------------------------
# SQL dumps.

def notes_dump():
    """An iOS notes tutorial's Note(cdate text primary key, content text) table, dumped by the sqlite3 shell:
    `sqlite3 NotesList.sqlite3 .dump > NotesList.sql`. A note with line breaks is dumped with
    replace(..., '\n', char(10)); a quote is doubled."""
    name = "notes-list.sql"
    with tempfile.TemporaryDirectory() as tmp:
        db_path = os.path.join(tmp, "NotesList.sqlite3")
        shell([db_path, "create table if not exists Note (cdate text primary key, content text);"])
        db = sqlite3.connect(db_path)
        rows = [("2024-05-01 09:30:00", "Buy stamps"),
                ("2024-05-02 18:05:12", "Call the plumber about the kitchen tap:\nit drips at night"),
                ("2024-05-03 07:45:00", "Renew Sam's library card"),
                ("2024-05-04 12:00:30", "Water the plants")]
        db.executemany("insert into Note values (?, ?)", rows)
        db.commit()
        db.close()
        text = dump(db_path)
        write(name, text)
        items = [Item(c, " ", [("cdate", utc(d))]) for d, c in rows]
        expect("notes-list", items)

        def after(change):
            with tempfile.TemporaryDirectory() as tmp2:
                p = os.path.join(tmp2, "n.db")
                shell([p], stdin=text)
                db = sqlite3.connect(p)
                change(db)
                db.commit()
                db.close()
                return dump(p)
        results = {
            "check": text,  # a note has no done flag: nothing changes, a warning says so
            "rename": after(lambda db: db.execute("update Note set content = ? where cdate = '2024-05-01 09:30:00'", (RENAMED,))),
            "add": after(lambda db: db.execute("insert into Note values ('2026-01-02 03:04:05', ?)", (ADDED,))),
            "remove": after(lambda db: db.execute("delete from Note where cdate = '2024-05-03 07:45:00'")),
            "move": text,  # the order is the creation time, which is also the key: nothing changes, a warning says so
        }
    edits = edit_set("notes-list", "sql", items, results, warnings={"check": ["done"], "move": ["order"]})
    register(name, "sql", "an iOS notes tutorial's NotesList.sqlite3 (raw SQLite from Swift) as `sqlite3 .dump` writes it",
             "Note(cdate text primary key, content text): the key is the creation time as text, no done column; "
             "a multi-line note as replace('...\\n...','\\n',char(10)); a doubled quote; unquoted table name in INSERTs",
             expected="notes-list.expected.md", edits=edits,
             keep="the Note schema (never todo_items); the dump's statements and their order; cdate texts; "
                  "a new note's cdate is the write time in the column's layout, without a fraction")


def tracks_dump():
    """Tracks (the Rails GTD app): its SQLite schema from the Rails 2 era and sample data, dumped by
    the sqlite3 shell. The todo text is `description`; done-ness is `state` ('active',
    'completed', 'deferred', 'pending'), with `completed_at` set when completed; booleans 't'/'f'."""
    name = "tracks.sql"
    with tempfile.TemporaryDirectory() as tmp:
        db_path = os.path.join(tmp, "tracks.db")
        shell([db_path], stdin="""
CREATE TABLE "contexts" ("id" INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL, "name" varchar(255) NOT NULL, "position" integer, "hide" boolean DEFAULT 'f', "user_id" integer DEFAULT 1, "created_at" datetime, "updated_at" datetime);
CREATE TABLE "projects" ("id" INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL, "name" varchar(255) NOT NULL, "position" integer, "user_id" integer DEFAULT 1, "description" text, "state" varchar(20) DEFAULT 'active' NOT NULL, "created_at" datetime, "updated_at" datetime, "default_context_id" integer, "completed_at" datetime);
CREATE TABLE "todos" ("id" INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL, "context_id" integer NOT NULL, "project_id" integer, "description" varchar(255) NOT NULL, "notes" text, "created_at" datetime, "due" date, "completed_at" datetime, "user_id" integer DEFAULT 1, "show_from" date, "state" varchar(20) DEFAULT 'immediate' NOT NULL, "recurring_todo_id" integer, "updated_at" datetime);
CREATE INDEX "index_todos_on_context_id" ON "todos" ("context_id");
CREATE INDEX "index_todos_on_project_id" ON "todos" ("project_id");
INSERT INTO "contexts" VALUES(1,'agenda',1,'f',1,'2008-02-25 20:21:09','2008-03-24 19:23:53');
INSERT INTO "contexts" VALUES(2,'call',2,'f',1,'2008-02-25 20:21:09','2008-03-24 19:23:53');
INSERT INTO "contexts" VALUES(3,'errand',3,'t',1,'2008-02-25 20:21:09','2008-03-24 19:23:53');
INSERT INTO "projects" VALUES(1,'Build a garden shed',1,1,'','active','2008-02-25 20:21:09','2008-03-24 19:23:53',NULL,NULL);
INSERT INTO "todos" VALUES(1,2,1,'Call the timber yard for a quote',NULL,'2008-03-01 10:00:00','2008-03-10 00:00:00',NULL,1,NULL,'active',NULL,'2008-03-01 10:00:00');
INSERT INTO "todos" VALUES(2,3,1,'Buy roofing felt','Two rolls, the heavy kind.','2008-03-01 10:05:00',NULL,'2008-03-05 16:30:00',1,NULL,'completed',NULL,'2008-03-05 16:30:00');
INSERT INTO "todos" VALUES(3,1,NULL,'Ask Bill about the paradox','He''ll know','2008-03-02 09:00:00',NULL,NULL,1,'2008-04-01','deferred',NULL,'2008-03-02 09:00:00');
INSERT INTO "todos" VALUES(4,3,1,'Paint the shed',NULL,'2008-03-02 09:10:00',NULL,NULL,1,NULL,'pending',NULL,'2008-03-02 09:10:00');
""")
        text = dump(db_path)
    write(name, text)
    items = [
        Item("Call the timber yard for a quote", " ", [("id", 1), ("context_id", 2), ("project_id", 1), ("created_at", utc("2008-03-01 10:00:00")),
                                                         ("due", utc("2008-03-10 00:00:00")), ("user_id", 1), ("updated_at", utc("2008-03-01 10:00:00"))]),
        Item("Buy roofing felt", "x", [("id", 2), ("context_id", 3), ("project_id", 1), ("notes", "Two rolls, the heavy kind."),
                                       ("created_at", utc("2008-03-01 10:05:00")), ("completed_at", utc("2008-03-05 16:30:00")), ("user_id", 1),
                                       ("updated_at", utc("2008-03-05 16:30:00"))]),
        Item("Ask Bill about the paradox", " ", [("id", 3), ("context_id", 1), ("notes", "He'll know"), ("created_at", utc("2008-03-02 09:00:00")),
                                                  ("user_id", 1), ("show_from", "2008-04-01"), ("state", "deferred"), ("updated_at", utc("2008-03-02 09:00:00"))]),
        # 'pending' is open (FORMAT.md 7.1: open, todo, to do, active, pending): no field, and
        # written back as it is while the item stays open.
        Item("Paint the shed", " ", [("id", 4), ("context_id", 3), ("project_id", 1), ("created_at", utc("2008-03-02 09:10:00")), ("user_id", 1),
                                     ("updated_at", utc("2008-03-02 09:10:00"))]),
    ]
    expect("tracks", items)
    register(name, "sql", "Tracks (Rails GTD app) SQLite schema and sample data, dumped by the sqlite3 shell",
             "the text is `description`; contexts and projects also have `name` (three candidates); done-ness is "
             "state = 'completed' (with completed_at), 'active' and 'pending' are open (FORMAT.md 7.1), 'deferred' stays a field; 't'/'f' booleans; "
             "DELETE FROM sqlite_sequence in the dump; a doubled quote",
             flags=["--table", "todos", "--field", "name=description"], expected="tracks.expected.md",
             keep="the three tables; state written back as 'completed' or 'active', 'pending' kept while the item stays open")


# ---------------------------------------------------------------------------------------------
# JSON, in the layouts of the writers apps use.

def swift_json_encoder(value):
    """Foundation's JSONEncoder with default options: compact, keys in declaration order,
    `/` escaped as `\\/`, other characters as UTF-8, no final newline."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":")).replace("/", "\\/")


def python_json_dump(value):
    """json.dump(value, f, indent=4): ASCII with \\uXXXX escapes, no final newline."""
    return json.dumps(value, indent=4)


def js_stringify(value):
    """JSON.stringify(value, null, 2) + "\\n" as a Node app writes its state file."""
    return json.dumps(value, indent=2, ensure_ascii=False) + "\n"


def go_encoder(value):
    """Go's json.NewEncoder(f) with SetIndent("", "\\t"): tabs, <, > and & escaped as \\u003c,
    \\u003e, \\u0026 (HTML-safe, the default), a final newline from Encode."""
    text = json.dumps(value, indent="\t", ensure_ascii=False)
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026") + "\n"


def json_edits(base, ext, doc, items, writer, get_list, change, added=None, warnings=None, flags=()):
    results = {}
    for edit in EDITS:
        d = copy.deepcopy(doc)
        change(edit, get_list(d), d)
        results[edit] = writer(d)
        json.loads(results[edit])
    return edit_set(base, ext, items, results, added=added, warnings=warnings)


def simple_change(new_item, check_key, name_key, order=None):
    """The five edits on a list of item dicts, as the app would make them."""
    def change(edit, todos, doc):
        if edit == "check":
            todos[1][check_key] = True
        elif edit == "rename":
            todos[0][name_key] = RENAMED
        elif edit == "add":
            todos.append(new_item)
        elif edit == "remove":
            del todos[2]
        elif edit == "move":
            todos.insert(0, todos.pop(2))
            if order:
                key, value = order
                todos[0][key] = value
    return change


def codable_json():
    name = "codable-todos.json"
    todos = [
        {"id": "3F2504E0-4F89-41D3-9A0C-0305E82C3301", "title": "Order the birthday cake", "isDone": False, "createdAt": 736243200.5,
         "link": "https://bakery.example.com/order?cake=chocolate"},
        {"id": "E621E1F8-C36C-495A-93FC-0C247A3E6E5F", "title": "Crème fraîche for the soup", "isDone": False, "createdAt": 736329600.25},
        {"id": "7D444840-9DC0-11D1-B245-5FFDCE74FAD2", "title": "Return the drill", "isDone": True, "createdAt": 736416000.125,
         "link": "https://wiki.example.com/tools/drill"},
        {"id": "A8098C1A-F86E-11DA-BD1A-00112444BE1E", "title": "Email the landlord", "isDone": False, "createdAt": 736502400.75},
    ]
    write(name, swift_json_encoder(todos))
    items = [Item(t["title"], "x" if t["isDone"] else " ", [(k, v) for k, v in t.items() if k not in ("title", "isDone")]) for t in todos]
    expect("codable-todos", items)
    edits = json_edits("codable-todos", "json", todos, items, swift_json_encoder, lambda d: d,
                       simple_change({"title": ADDED, "isDone": False}, "isDone", "title"),
                       warnings={"add": ["id", "createdAt"]})
    register(name, "json", "Swift Codable [Todo] written by JSONEncoder() with default options (Identifiable, Date, URL?)",
             "one line, no final newline; `\\/` escapes in the link key; non-ASCII as UTF-8; isDone; UUID ids; "
             "createdAt as seconds since 2001 (deferredToDate), a plain number to todofmt; an optional key absent on some items",
             expected="codable-todos.expected.md", edits=edits,
             keep="the one-line layout and no final newline; `\\/` in untouched values; key order id, title, isDone, createdAt, link",
             notes="A new item gets only title and isDone: todofmt cannot make the UUID and the 2001-based date the app's "
                   "decoder needs, and the warning names id and createdAt.")


def python_json():
    name = "python-todos.json"
    todos = [
        {"id": 1, "title": "Buy oat milk", "name": "milk", "done": False, "tags": ["shopping"], "note": "Café au lait"},
        {"id": 2, "title": "Fix the bike", "done": False, "tags": [], "note": ""},
        {"id": 3, "title": "Crème brûlée for Sunday", "done": True, "tags": ["cooking", "weekend"], "note": "Ramekins 🍮"},
        {"id": 4, "title": "Call the bank", "done": False, "tags": [], "note": "Ask for the \"fixed\" rate"},
    ]
    write(name, python_json_dump(todos))
    items = [Item(t["title"], "x" if t["done"] else " ", [(k, v) for k, v in t.items() if k not in ("title", "done")]) for t in todos]
    expect("python-todos", items)
    edits = json_edits("python-todos", "json", todos, items, python_json_dump, lambda d: d,
                       simple_change({"id": 5, "title": ADDED, "done": False}, "done", "title"),
                       warnings={"add": ["tags", "note"]})
    register(name, "json", "a Python script's json.dump(todos, f, indent=4)",
             "4-space layout, no final newline; \\u00e9 and surrogate-pair \\ud83c\\udf6e escapes (ensure_ascii); item 1 has both "
             "`title` and `name` (a slug): title is the name, name a field; empty lists and an empty string",
             expected="python-todos.expected.md", edits=edits,
             keep="\\uXXXX escapes in untouched lines; `name` stays the slug when item 1 is renamed (one `title`, one `name`); "
                  "a new item's id is the largest id plus one")


def js_json():
    name = "node-state.json"
    doc = {
        "version": 3,
        "data": {
            "filter": "all",
            "todos": [
                {"id": 1714812000000, "text": "Renew passport", "completed": False, "completedAt": None, "order": 4.5},
                {"id": 1714555800123, "text": "Pick up the dry cleaning", "completed": False, "completedAt": None, "order": 3},
                {"id": 1714560000456, "text": "Buy stamps", "completed": True, "completedAt": "2024-05-02T18:00:00.000Z", "order": 2.5},
                {"id": 1714570000789, "text": "Call the bank", "completed": False, "completedAt": None, "order": 1},
            ],
            "tags": ["home", "work"],
        },
        "savedAt": "2024-05-03T18:00:00.000Z",
    }
    write(name, js_stringify(doc))
    todos = doc["data"]["todos"]
    items = [Item(t["text"], "x" if t["completed"] else " ", [(k, v) for k, v in t.items() if k not in ("text", "completed")]) for t in todos]
    expect("node-state", items)
    edits = json_edits("node-state", "json", doc, items, js_stringify, lambda d: d["data"]["todos"],
                       simple_change({"id": 1714812000001, "text": ADDED, "completed": False, "order": 0}, "completed", "text",
                                     order=("order", 5.5)),
                       warnings={"add": ["completedAt"]})
    register(name, "json", "a Node/Electron app's state file: fs.writeFileSync(f, JSON.stringify(state, null, 2) + '\\n')",
             "the list at data.todos beside other keys; `text`/`completed`; a DESCENDING order key mixing 4.5, 3, 2.5, 1 "
             "(JS writes 3, not 3.0); Date.now() ids; completedAt null or an ISO string; final newline",
             flags=["--key", "data.todos"], expected="node-state.expected.md", edits=edits,
             keep="version, filter, tags, savedAt; descending order: a moved-to-top item gets the first order plus one (5.5), "
                  "a new last item the last minus one (0); completedAt is left as it is when an item is checked")


def go_json():
    name = "go-todos.json"
    todos = [
        {"id": 1, "title": "Review the pull request", "completed": False, "created_at": "2025-10-01T13:33:10.6197688+03:30",
         "tags": ["work"], "note": "Check <details> & the CI log"},
        {"id": 2, "title": "Renew the domain", "completed": False, "created_at": "2025-10-01T14:02:00+03:30", "tags": None},
        {"id": 3, "title": "Back up the photos", "completed": True, "created_at": "2025-10-02T09:15:30.5+03:30",
         "tags": ["home", "weekend"], "note": "Use the \"Photos\" export → NAS"},
        {"id": 4, "title": "Reply to Sam", "completed": False, "created_at": "2025-10-03T20:45:00.000000001+03:30", "tags": []},
    ]
    write(name, go_encoder(todos))
    items = [Item(t["title"], "x" if t["completed"] else " ", [(k, v) for k, v in t.items() if k not in ("title", "completed")]) for t in todos]
    expect("go-todos", items)
    edits = json_edits("go-todos", "json", todos, items, go_encoder, lambda d: d,
                       simple_change({"id": 5, "title": ADDED, "completed": False, "created_at": "2026-01-02T03:04:05.25+00:00"},
                                     "completed", "title"),
                       warnings={"add": ["tags"]})
    register(name, "json", "Go encoding/json: json.NewEncoder(f) with SetIndent(\"\", \"\\t\") and Encode([]Todo)",
             "tab indentation, final newline; \\u003c \\u003e \\u0026 escapes in other keys; RFC 3339 times with +03:30 and "
             "1-9 fraction digits (strings to todofmt); a nil slice as null, an empty one as []; omitempty note",
             expected="go-todos.expected.md", edits=edits,
             keep="tabs; \\u003c-style escapes in untouched values; a new item's created_at in the same layout (UTC as +00:00) "
                  "and id the largest plus one")


def gh_issues_json():
    name = "gh-issues.json"
    issues = [
        {"createdAt": "2024-05-01T09:30:00Z", "labels": [{"id": "LA_kwDOBx1Fb88AAAABc3Rt1Q", "name": "bug", "description": "Something isn't working", "color": "d73a4a"}],
         "number": 12, "state": "OPEN", "title": "Crash when the list is empty"},
        {"createdAt": "2024-05-02T11:00:00Z", "labels": [], "number": 11, "state": "CLOSED", "title": "Document the --key option"},
        {"createdAt": "2024-05-03T08:15:42Z", "labels": [], "number": 9, "state": "OPEN", "title": "Support <details> in names & notes"},
    ]
    text = json.dumps(issues, ensure_ascii=False, separators=(",", ":")) + "\n"
    write(name, text)
    items = [Item(i["title"], "x" if i["state"] == "CLOSED" else " ", [("createdAt", i["createdAt"]), ("labels", i["labels"]), ("number", i["number"])]) for i in issues]
    expect("gh-issues", items)
    register(name, "json", "GitHub CLI: gh issue list --state all --json number,title,state,labels,createdAt > gh-issues.json",
             "state OPEN/CLOSED (upper case) in a `state` key; keys sorted; compact with a final newline, HTML not escaped; "
             "labels are objects with a `name` key inside an item (a field, not items)",
             expected="gh-issues.expected.md", keep="state written back as OPEN or CLOSED")


# ---------------------------------------------------------------------------------------------
# Property lists.

USERDEFAULTS_APP_KEYS = {
    "NSWindow Frame MainWindow": "120 340 480 640 0 0 1512 944 ",
    "NSNavLastRootDirectory": "~/Documents",
    "AppleLanguages": ["en-GB", "de-DE"],
    "WebKitDefaultFontSize": 16,
    "launchCount": 42,
    "installationID": 0xF3A1B2C3D4E5F607,  # a UInt64 >= 2^63: 16 bytes in a binary plist
    "lastSyncAnchor": 2 ** 64 - 1,
    "timezoneOffset": -12600,
    "lastOpened": dt.datetime(2026, 1, 1, 9, 30, 0),
}


def plist_edits(base, ext, doc, items, fmt, get_list, change, added=None, warnings=None, edits=EDITS, sort_keys=False):
    results = {}
    for edit in edits:
        d = copy.deepcopy(doc)
        change(edit, get_list(d), d)
        results[edit] = plistlib.dumps(d, fmt=fmt, sort_keys=sort_keys)
        assert plistlib.loads(results[edit]) == d
    return edit_set(base, ext, items, results, edits=edits, added=added, warnings=warnings)


def userdefaults():
    tasks = [{"title": "Milk", "done": False}, {"title": "Eggs", "done": False},
             {"title": "Bread from the bakery", "done": True}, {"title": "Coffee beans", "done": False}]
    prefs = dict(USERDEFAULTS_APP_KEYS)
    prefs["tasks"] = tasks
    prefs["widgetState"] = {"size": "medium", "showsCompleted": False, "refreshInterval": 900.5}
    prefs["SUEnableAutomaticChecks"] = True
    prefs["deviceToken"] = bytes.fromhex("8a1f03c47e2b9d5060a1b2c3d4e5f60718293a4b5c6d7e8f9012a3b4c5d6e7f8")
    items = [Item(t["title"], "x" if t["done"] else " ") for t in tasks]
    change = simple_change({"title": ADDED, "done": False}, "done", "title")

    name = "userdefaults-prefs.plist"
    write(name, plistlib.dumps(prefs, fmt=plistlib.FMT_BINARY, sort_keys=False))
    expect("userdefaults-prefs", items)
    edits = plist_edits("userdefaults-prefs", "plist", prefs, items, plistlib.FMT_BINARY, lambda d: d["tasks"], change)
    register(name, "bplist", "a UserDefaults preferences file (Library/Preferences/<bundle-id>.plist, binary) with a [[String: Any]] under \"tasks\"",
             "the list under `tasks` ([{title, done}]) among unrelated app keys: UInt64 values >= 2^63 written as 16-byte "
             "integers (installationID, lastSyncAnchor = 2^64-1), a negative integer, a date, data, a nested dictionary",
             expected="userdefaults-prefs.expected.md", edits=edits,
             keep="every other key and value, the 128-bit integers included; title/done as the key names")

    name = "userdefaults-prefs-xml.plist"
    write(name, plistlib.dumps(prefs, fmt=plistlib.FMT_XML, sort_keys=True))
    expect("userdefaults-prefs-xml", items)
    edits = plist_edits("userdefaults-prefs-xml", "plist", prefs, items, plistlib.FMT_XML, lambda d: d["tasks"], change, sort_keys=True)
    register(name, "plist", "the same preferences as `defaults export` writes them: XML, keys sorted, tab indentation",
             "<integer>18446744073709551615</integer> and %d under unrelated keys; <data> in base64 lines; "
             % USERDEFAULTS_APP_KEYS["installationID"] + 
             "<real>900.5</real>; keys sorted as CFPreferences writes XML",
             expected="userdefaults-prefs-xml.expected.md", edits=edits, keep="every byte outside the changed item's lines")

    name = "userdefaults-empty.plist"
    empty = {"NSWindow Frame MainWindow": "120 340 480 640 0 0 1512 944 ", "launchCount": 3, "tasks": [],
             "lastOpened": dt.datetime(2026, 1, 1, 9, 30, 0)}
    write(name, plistlib.dumps(empty, fmt=plistlib.FMT_BINARY, sort_keys=False))
    expect("userdefaults-empty", [])
    edits = plist_edits("userdefaults-empty", "plist", empty, [], plistlib.FMT_BINARY, lambda d: d["tasks"], change, edits=["add"])
    register(name, "bplist", "the same app after every task was deleted: an empty `tasks` array",
             "an empty list is found by itself only as the file's one empty array: --key names it for sure; "
             "--field gives the item keys the app reads, since the empty array cannot tell them",
             flags=["--key", "tasks", "--field", "name=title", "--field", "checked=done"],
             expected="userdefaults-empty.expected.md", edits=edits,
             keep="the other keys; a new item as {title, done} (without the --field options: {name, checked} and a "
                  "warning naming the keys used)")


def nested_plist():
    name = "document-nested.plist"
    doc = {"version": 2, "data": {"owner": "Sam", "todos": [
        {"title": "Paint the fence", "isDone": False, "order": 1.0, "due": dt.datetime(2024, 6, 1, 9, 0, 0)},
        {"title": "Oil the lawnmower", "isDone": False, "order": 1.5},
        {"title": "Sharpen the shears", "isDone": True, "order": 2.5, "due": dt.datetime(2024, 5, 20, 17, 30, 0)},
        {"title": "Order compost", "isDone": False, "order": 4.0},
    ]}}
    write(name, plistlib.dumps(doc, fmt=plistlib.FMT_XML, sort_keys=True))
    items = []
    for t in doc["data"]["todos"]:
        fields = [("due", D(t["due"].strftime("%Y-%m-%dT%H:%M:%SZ")))] if "due" in t else []
        items.append(Item(t["title"], "x" if t["isDone"] else " ", fields + [("order", t["order"])]))
    expect("document-nested", items)
    edits = plist_edits("document-nested", "plist", doc, items, plistlib.FMT_XML, lambda d: d["data"]["todos"],
                        simple_change({"title": ADDED, "isDone": False, "order": 5.0}, "isDone", "title", order=("order", 0.0)),
                        sort_keys=True)
    register(name, "plist", "a document-based app's file from PropertyListEncoder (outputFormat = .xml) of a Codable document",
             "the list at data.todos; keys sorted (so `due` and `isDone` come before `title`); REAL order 1.0, 1.5, 2.5, 4.0; "
             "<date> in whole seconds; an optional date absent on some items",
             flags=["--key", "data.todos"], expected="document-nested.expected.md", edits=edits,
             keep="version and owner; sorted keys in a new item; the order values that did not move")


def odd_names_plist():
    name = "odd-names.plist"
    todos = [
        {"title": "Buy milk ", "done": False},
        {"title": "  Call mom", "done": True},
        {"title": "Tab\tinside", "done": False},
        {"title": "Line one\nLine two", "done": False},
        {"title": "Ends with a newline\n", "done": False},
        {"title": "NUL\x00inside", "done": False},
        {"title": "Bell\x07, escape\x1b[1mbold\x1b[0m", "done": False},
        {"title": "Carriage\r\nreturn", "done": False},
        {"title": "DEL\x7f", "done": False},
    ]
    write(name, plistlib.dumps(todos, fmt=plistlib.FMT_BINARY, sort_keys=False))
    items = [Item(t["title"], "x" if t["done"] else " ") for t in todos]
    expect("odd-names", items)
    register(name, "bplist", "PropertyListEncoder's binary [{title, done}] (as Todoey's Items.plist) with names a text field let through",
             "names with end spaces, a tab, LF inside and at the end, NUL, BEL, ESC, CR LF and DEL: a binary plist holds them, "
             "an XML plist cannot (plistlib refuses them), the checklist writes them as character references",
             expected="odd-names.expected.md",
             keep="every name exactly through plist -> md -> plist; into an XML plist only what XML 1.0 allows, with a warning")


def keyed_archiver_plist():
    name = "keyed-archive.plist"
    U = plistlib.UID
    objects = [
        "$null",
        {"NS.objects": [U(2), U(7)], "$class": U(10)},
        {"title": U(3), "done": False, "createdAt": U(4), "$class": U(6)},
        "Water the plants",
        {"NS.time": 736243200.5, "$class": U(5)},
        {"$classname": "NSDate", "$classes": ["NSDate", "NSObject"]},
        {"$classname": "Todo", "$classes": ["Todo", "NSObject"]},
        {"title": U(8), "done": True, "createdAt": U(9), "$class": U(6)},
        "Call the vet",
        {"NS.time": 736329600.25, "$class": U(5)},
        {"$classname": "NSMutableArray", "$classes": ["NSMutableArray", "NSArray", "NSObject"]},
    ]
    archive = {"$version": 100000, "$archiver": "NSKeyedArchiver", "$top": {"root": U(1)}, "$objects": objects}
    write(name, plistlib.dumps(archive, fmt=plistlib.FMT_BINARY, sort_keys=False))
    register(name, "bplist", "an Objective-C app's NSKeyedArchiver.archiveRootObject(todos, toFile:) of NSMutableArray<Todo>",
             "a keyed archive: $archiver/$objects/$top/$version, values referenced by CF$UID; no array of item dictionaries "
             "anywhere (names are UIDs pointing at strings)",
             error=["$archiver", "$objects", "$top", "$version"],
             keep="an error listing the keys, never a crash; the UIDs (CF$UID) read as integers wherever a reader meets them")


# ---------------------------------------------------------------------------------------------
# YAML: typed by hand as people write it (comments, blank lines, anchors), and from PyYAML.

def yaml_text_edits(base, head, blocks, sep, items, new_block, check, rename, front=None):
    """The five edits on a hand-written YAML list whose items are text blocks: the changed item's
    lines change, in the file's own spelling; comment lines inside an item go with it."""
    results = {}
    for edit in EDITS:
        b = list(blocks)
        if edit == "check":
            assert check[0] in b[1]
            b[1] = b[1].replace(check[0], check[1], 1)
        elif edit == "rename":
            assert rename[0] in b[0]
            b[0] = b[0].replace(rename[0], rename[1], 1)
        elif edit == "add":
            b.append(new_block)
        elif edit == "remove":
            del b[2]
        elif edit == "move":
            b.insert(0, b.pop(2))
        results[edit] = head + sep.join(b)
        list(yaml.safe_load_all(results[edit]))
    md = {e: markdown(md_edit(items, e), front) for e in EDITS}
    return edit_set(base, "yaml", items, results, md_override=md)


def jekyll_yaml():
    name = "jekyll-launch.yml"
    head = ("# Launch checklist for the new site, shown on /launch/ by _includes/checklist.html.\n"
            "# Keep `done` as yes/no: Jekyll reads this file with Ruby's YAML 1.1 parser (Psych).\n\n")
    blocks = [
        "- title: Pick a theme\n  done: yes\n  owner: sam\n",
        "- title: Write the about page\n  done: no\n  owner: alex\n  # waiting for the team photo\n",
        "- title: Set up the custom domain\n  done: no\n  owner: sam\n  url: https://example.org/launch\n",
        "- title: Add the RSS feed\n  done: no\n",
    ]
    text = head + "\n".join(blocks)
    write(name, text)
    loaded = yaml.safe_load(text)
    assert [t["done"] for t in loaded] == [True, False, False, False]
    items = [Item("Pick a theme", "x", [("owner", "sam")]), Item("Write the about page", " ", [("owner", "alex")]),
             Item("Set up the custom domain", " ", [("owner", "sam"), ("url", "https://example.org/launch")]), Item("Add the RSS feed")]
    expect("jekyll-launch", items)
    edits = yaml_text_edits("jekyll-launch", head, blocks, "\n", items, "- title: Added item\n  done: no\n",
                            ("  done: no\n", "  done: yes\n"), ("- title: Pick a theme\n", "- title: %s\n" % RENAMED))
    register(name, "yaml", "a Jekyll site's _data file (site.data), read by Ruby's Psych (YAML 1.1)",
             "done: yes / no (YAML 1.1 booleans; YAML 1.2 strings); comments before the list and inside an item; "
             "a blank line between items",
             expected="jekyll-launch.expected.md", edits=edits,
             keep="comments, blank lines, yes/no spelling, title/done keys; a checked item becomes done: yes")


def anchors_yaml():
    name = "chores-anchors.yaml"
    head = ("# Chores for the household. Each chore starts from a template.\n"
            "templates:\n"
            "  weekly: &weekly\n    every: week\n    checked: off\n"
            "  monthly: &monthly\n    every: month\n    checked: off\n"
            "\n"
            "todos:\n")
    blocks = [
        "  - <<: *weekly\n    text: Water the plants\n    room: &kitchen kitchen\n",
        "  - <<: *weekly\n    text: Take out the recycling\n    room: *kitchen\n",
        "  - <<: *monthly\n    text: Pay the rent\n    checked: on\n",
        "  - text: Descale the kettle\n    <<: [*monthly, *weekly]\n    room: *kitchen\n",
    ]
    text = head + "".join(blocks)
    write(name, text)
    loaded = yaml.safe_load(text)["todos"]
    assert [(t["text"], t["checked"], t["every"], t.get("room")) for t in loaded] == [
        ("Water the plants", False, "week", "kitchen"), ("Take out the recycling", False, "week", "kitchen"),
        ("Pay the rent", True, "month", None), ("Descale the kettle", False, "month", "kitchen")]
    items = [Item(t["text"], "x" if t["checked"] else " ", [(k, v) for k, v in t.items() if k not in ("text", "checked")]) for t in loaded]
    expect("chores-anchors", items)
    edits = yaml_text_edits("chores-anchors", head, blocks, "", items, "  - text: Added item\n    checked: off\n",
                            ("    room: *kitchen\n", "    room: *kitchen\n    checked: on\n"),
                            ("    text: Water the plants\n", "    text: %s\n" % RENAMED))
    register(name, "yaml", "a hand-kept YAML file using anchors, aliases and merge keys (YAML 1.1 `<<`)",
             "the list under `todos` in a mapping root beside `templates` (a mapping, not a list); `<<: *weekly` and "
             "`<<: [*monthly, *weekly]` (the first mapping wins); an anchor on a scalar (&kitchen) used by later items; "
             "checked: on / off",
             expected="chores-anchors.expected.md", edits=edits,
             keep="anchors, aliases and merge keys as written; checking item 2 (checked: off only through its merge) adds "
                  "`checked: on` to it; the templates untouched")


def subtasks_yaml():
    name = "shed-todo.yaml"
    head = ("# todo.yaml for the garden shed. The first document is the header: defaults and views.\n"
            "title: Garden shed\n"
            "defaults:\n  status: todo\n"
            "views:\n  open:\n    query: .status != \"done\"\n"
            "---\n")
    blocks = [
        "- task: Clear the site\n  status: done\n  subtasks:\n  - task: Remove the old fence\n    status: done\n"
        "  - task: Level the ground\n    status: done\n",
        "- task: Buy materials\n  description: >\n    Timber from the yard on Mill Road;\n    screws and felt from the hardware shop.\n"
        "  subtasks:\n  - task: Timber\n    status: done\n  - task: Roofing felt\n",
        "- task: Build the frame\n  status: todo\n  # needs two people\n",
        "- task: Paint it\n  status: idea\n",
    ]
    text = head + "".join(blocks)
    write(name, text)
    header, todos = list(yaml.safe_load_all(text))
    assert header["title"] == "Garden shed" and len(todos) == 4
    description = todos[1]["description"]
    assert description == "Timber from the yard on Mill Road; screws and felt from the hardware shop.\n"
    items = [
        Item("Clear the site", "x", children=[Item("Remove the old fence", "x"), Item("Level the ground", "x")]),
        Item("Buy materials", " ", [("description", description)], children=[Item("Timber", "x"), Item("Roofing felt")]),
        Item("Build the frame"),
        Item("Paint it", " ", [("status", "idea")]),
    ]
    front = "title: Garden shed\ndefaults:\n  status: todo\nviews:\n  open:\n    query: .status != \"done\"\n"
    expect("shed-todo", items, front)
    edits = yaml_text_edits("shed-todo", head, blocks, "", items, "- task: Added item\n",
                            ("- task: Buy materials\n", "- task: Buy materials\n  status: done\n"),
                            ("- task: Clear the site\n", "- task: %s\n" % RENAMED), front=front)
    register(name, "yaml", "the todo.yaml CLI's file (nested tasks, a header document), as its users write it",
             "a header document first (the list's metadata: front matter); task/subtasks; status: done (checked), "
             "todo (open), idea (a field), absent (open); a folded `>` description; a comment inside an item",
             expected="shed-todo.expected.md", edits=edits,
             keep="the header document and its comment; task/subtasks/status; a checked item gets `status: done` after its "
                  "task line; a new open item gets no status, as most open items have none")


def todotxt_yaml():
    name = "todotxt.yaml"
    text = ("# todo.txt, kept as YAML: one entry per todo.txt line.\n"
            "# status x marks a done task (todo.txt's leading \"x \"); priority is A-Z; dates are YYYY-MM-DD.\n"
            "- text: Call Mom\n  priority: A\n  created: 2024-05-01\n  contexts: [phone]\n  projects: [family]\n"
            "- text: Pick up the dry cleaning\n  status: x\n  created: 2024-04-30\n  completion: 2024-05-03\n  contexts: [errands]\n"
            "- text: Schedule the annual checkup\n  priority: B\n  created: 2024-05-02\n  due: 2024-06-01\n  contexts: [phone]\n  projects: [health]\n"
            "- text: Plan the garden\n  status: open\n  created: 2024-05-03\n  projects: [garden]\n  rec: 1w\n")
    write(name, text)
    assert len(yaml.safe_load(text)) == 4
    items = [
        Item("Call Mom", " ", [("priority", "A"), ("created", "2024-05-01"), ("contexts", ["phone"]), ("projects", ["family"])]),
        Item("Pick up the dry cleaning", "x", [("created", "2024-04-30"), ("completion", "2024-05-03"), ("contexts", ["errands"])]),
        Item("Schedule the annual checkup", " ", [("priority", "B"), ("created", "2024-05-02"), ("due", "2024-06-01"),
                                                   ("contexts", ["phone"]), ("projects", ["health"])]),
        Item("Plan the garden", " ", [("created", "2024-05-03"), ("projects", ["garden"]), ("rec", "1w")]),
    ]
    expect("todotxt", items)
    register(name, "yaml", "todo.txt's fields kept as a YAML list (priority, dates, @contexts, +projects, key:value tags)",
             "status: x is done (todo.txt's mark), status: open is open, no status is open; dates without a time stay "
             "strings; flow sequences [phone]",
             expected="todotxt.expected.md", keep="status x / open as written; flow sequences; dates as plain YYYY-MM-DD")


def pyyaml_nested():
    name = "pyyaml-export.yaml"
    doc = {"version": 2, "data": {"owner": "sam", "todos": [
        {"title": "Sort the recycling", "completed": False, "created": dt.datetime(2024, 5, 1, 9, 30, 0, 123456), "order": 1.0},
        {"title": "Defrost the freezer", "completed": False, "created": dt.datetime(2024, 5, 1, 9, 31, 0, 120000), "order": 1.5},
        {"title": "Return the library books", "completed": True, "created": dt.datetime(2024, 5, 2, 14, 0, 0), "order": 2.5, "tags": ["errand"]},
        {"title": "Oil the gate", "completed": False, "created": dt.datetime(2024, 5, 3, 8, 45, 30, 999999), "order": 4.0},
    ]}}

    def dump_yaml(d):
        return yaml.safe_dump(d, sort_keys=False, allow_unicode=True)
    write(name, dump_yaml(doc))
    assert yaml.safe_load(dump_yaml(doc)) == doc
    items = []
    for t in doc["data"]["todos"]:
        fields = [("created", utc(str(t["created"]))), ("order", t["order"])] + ([("tags", t["tags"])] if "tags" in t else [])
        items.append(Item(t["title"], "x" if t["completed"] else " ", fields))
    expect("pyyaml-export", items)
    results = {}
    change = simple_change({"title": ADDED, "completed": False, "created": NOW.replace(tzinfo=None), "order": 5.0},
                           "completed", "title", order=("order", 0.0))
    for edit in EDITS:
        d = copy.deepcopy(doc)
        change(edit, d["data"]["todos"], d)
        results[edit] = dump_yaml(d)
    edits = edit_set("pyyaml-export", "yaml", items, results)
    register(name, "yaml", "a Python tool's export: yaml.safe_dump(doc, sort_keys=False, allow_unicode=True)",
             "the list at data.todos; title/completed; PyYAML's timestamps `2024-05-01 09:30:00.123456` (dates to todofmt); "
             "REAL order 1.0, 1.5, 2.5, 4.0; PyYAML's layout (sequences not indented under their key)",
             flags=["--key", "data.todos"], expected="pyyaml-export.expected.md", edits=edits,
             keep="version and owner; title/completed; the timestamp layout for a new item's created; order values that did not move")


def retype_yaml():
    name = "retype-strings.yaml"
    names = ["yes", "on", "2024-05-01", "2024-05-01 10:00:00", "+0b1", "685.230_15e+03", "=", "<<", "null", "~"]
    todos = [{"name": n, "checked": False, "code": n} for n in names]
    text = yaml.safe_dump(todos, sort_keys=False)
    write(name, text)
    assert yaml.safe_load(text) == todos
    items = [Item(n, " ", [("code", n)]) for n in names]
    expect("retype-strings", items)
    register(name, "yaml", "PyYAML's safe_dump of strings that YAML 1.1 or 1.2 would read as other types",
             "every name and `code` value is a quoted string that plain would be a bool, date, int, float, null, "
             "the value key `=` or the merge key `<<`",
             expected="retype-strings.expected.md",
             keep="a new YAML file written from the checklist quotes the same strings, so PyYAML and libyaml read strings back")


# ---------------------------------------------------------------------------------------------
# Every file read back with the reader the app would use; the manifest and README's list.

def list_at(value, flags):
    """The list in a loaded file, found as todofmt finds it: --key's path, the root array, or the
    one key of a dictionary root whose value is an array of dictionaries."""
    if "--key" in flags:
        for part in flags[flags.index("--key") + 1].split("."):
            value = value[part]
        return value
    if isinstance(value, list):
        return value
    lists = [v for v in value.values() if isinstance(v, list) and v and all(isinstance(x, dict) for x in v)]
    assert len(lists) == 1, list(value)
    return lists[0]


def md_items(text):
    return [l for l in text.split("\n") if l.startswith("- [")]


def validate_file(name):
    """Reads one fixture file as its app would; returns the number of top-level entries it holds
    (None when the file is not a list of entries)."""
    data = open(path(name), "rb").read()
    if name.endswith(".md"):
        out = subprocess.run(["cmark-gfm", "-e", "tasklist", "-t", "xml"], input=data, capture_output=True)
        assert out.returncode == 0
        return None
    if name.endswith(".json") and not data.startswith(b"SQLite format 3"):
        return json.loads(data.decode("utf-8"))
    if name.endswith((".yaml", ".yml")):
        return list(yaml.safe_load_all(data.decode("utf-8")))
    if name.endswith(".plist"):
        return plistlib.loads(data)
    if name.endswith((".sql", ".dump")):
        shell([":memory:"], stdin=data.decode("utf-8"))
        return None
    if data.startswith(b"SQLite format 3"):
        with tempfile.TemporaryDirectory() as tmp:
            shutil.copy(path(name), os.path.join(tmp, "db"))
            db = sqlite3.connect(os.path.join(tmp, "db"))
            assert db.execute("PRAGMA integrity_check").fetchone() == ("ok",)
            tables = [r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
            db.close()
            return tables
    raise AssertionError("unknown fixture kind: " + name)


def validate():
    names = sorted(n for n in os.listdir(OUT) if n not in ("make.py", "README.md", "manifest.json"))
    for name in names:
        assert not name.endswith(("-wal", "-shm", "-journal")), name
        validate_file(name)
    listed = set()
    for entry in MANIFEST:
        listed.add(entry["file"])
        for reading in [{"expected": entry["expected"], "flags": entry["flags"]}] + entry["readings"]:
            if reading["expected"]:
                listed.add(reading["expected"])
        for edit in entry["edits"].values():
            listed.add(edit["checklist"])
            if edit.get("result"):
                listed.add(edit["result"])
        value = validate_file(entry["file"])
        count = len(md_items(open(path(entry["expected"])).read())) if entry["expected"] else None
        if entry["format"] in ("json", "plist", "bplist") and count is not None:
            assert len(list_at(value, entry["flags"])) == count, entry["file"]
        if entry["format"] == "yaml" and count is not None:
            docs = [d for d in value if isinstance(d, list)] or value
            assert len(list_at(docs[-1], entry["flags"])) == count, entry["file"]
    unlisted = set(names) - listed
    assert not unlisted, unlisted


README_START = "<!-- fixtures: written by make.py from its register() calls -->\n"
README_END = "<!-- end of fixtures -->\n"


def readme_list():
    lines = []
    for e in MANIFEST:
        flags = " ".join(("'%s'" % f if any(c in f for c in " =<>*$") else f) for f in e["flags"]) or "none"
        flags = "`%s`" % flags if e["flags"] else "none"
        lines.append("- **`%s`** (%s) mirrors %s. Notable: %s. Flags: %s." % (e["file"], e["format"], e["mirrors"], e["notable"], flags))
        if e["expected"]:
            lines.append("  Reads as `%s`." % e["expected"])
        for r in e["readings"]:
            lines.append("  With `%s` it reads as `%s`." % (" ".join(r["flags"]), r["expected"]))
        if e["error"]:
            lines.append("  Reading it is an error (exit 1) whose message names %s." % ", ".join("`%s`" % k for k in e["error"]))
        if e["edits"]:
            parts = []
            for edit, spec in e["edits"].items():
                text = edit
                if spec.get("error"):
                    text += " (error naming lines %s and `%s`; nothing written)" % (" and ".join(spec["error"][:2]), spec["error"][2])
                elif spec["warnings"]:
                    text += " (warning about %s)" % ", ".join("`%s`" % w for w in spec["warnings"])
                parts.append(text)
            lines.append("  Edits: %s." % "; ".join(parts))
        lines.append(("  Expect: %s." if e["error"] else "  A write-back keeps: %s.") % e["keep"])
        if e["notes"]:
            lines.append("  " + e["notes"])
    return "".join(l + "\n" for l in lines)


def write_manifest_and_readme():
    manifest = {"now": NOW_TEXT, "renamed": RENAMED, "added": ADDED, "fixtures": MANIFEST}
    write("manifest.json", json.dumps(manifest, indent=2, ensure_ascii=False) + "\n")
    readme = open(path("README.md")).read()
    start, end = readme.index(README_START) + len(README_START), readme.index(README_END)
    write("README.md", readme[:start] + readme_list() + readme[end:])


def main():
    os.makedirs(OUT, exist_ok=True)
    for name in os.listdir(OUT):
        if name not in ("make.py", "README.md"):
            os.remove(path(name))
    gorm()
    rails()
    django()
    things3()
    uuid_tasks()
    swiftdata()
    notes_sti()
    misnamed_db()
    notes_dump()
    tracks_dump()
    codable_json()
    python_json()
    js_json()
    go_json()
    gh_issues_json()
    userdefaults()
    nested_plist()
    odd_names_plist()
    keyed_archiver_plist()
    jekyll_yaml()
    anchors_yaml()
    subtasks_yaml()
    todotxt_yaml()
    pyyaml_nested()
    retype_yaml()
    validate()
    write_manifest_and_readme()


if __name__ == "__main__":
    main()
