#!/usr/bin/env python3
"""Writes the example files of the shapes apps store todo lists in (docs/APP-SHAPES.md sections 1
and 2), with Python's own plistlib and json, so that they are the real thing:

- userdefaults-tasks.plist     a UserDefaults preferences file (binary), the list as an
                               array of {title, done} dictionaries under "tasks" (the task app)
- userdefaults-todoskey.plist  a UserDefaults preferences file (binary), the list as the
                               JSON bytes of [{name, checked}] in a data value under
                               "TodosKey" (the todo app)
- items.plist                  a top-level array of {title, done} (PropertyListEncoder's shape)
- todos.json                   the Codable JSON [{name, checked}] (the todo app)

Run from the repository root: python3 scripts/make-samples.py
"""
import datetime
import json
import plistlib

todos = [
    {"name": "Milk", "checked": False},
    {"name": "Eggs", "checked": True},
    {"name": "Bread from the bakery", "checked": False},
]
tasks = [{"title": t["name"], "done": t["checked"]} for t in todos]
# Other keys an app keeps in its preferences file; a write must leave them as they are.
app_keys = {
    "NSWindow Frame main": "0 0 390 844",
    "launchCount": 12,
    "lastOpened": datetime.datetime(2026, 11, 28, 9, 30, 0),
}

with open("samples/userdefaults-tasks.plist", "wb") as f:
    plistlib.dump({**app_keys, "tasks": tasks}, f, fmt=plistlib.FMT_BINARY, sort_keys=False)

with open("samples/userdefaults-todoskey.plist", "wb") as f:
    data = json.dumps(todos, separators=(",", ":")).encode()
    plistlib.dump({**app_keys, "TodosKey": data}, f, fmt=plistlib.FMT_BINARY, sort_keys=False)

with open("samples/items.plist", "wb") as f:
    plistlib.dump(tasks, f, fmt=plistlib.FMT_BINARY, sort_keys=False)

with open("samples/todos.json", "w") as f:
    json.dump(todos, f, indent=2)
    f.write("\n")

# SQLite (docs/APP-SHAPES.md sections 3 and 4), written with Python's own sqlite3.
import os
import sqlite3

def fresh(path):
    for suffix in ("", "-wal", "-shm"):
        if os.path.exists(path + suffix):
            os.remove(path + suffix)
    return sqlite3.connect(path)

# The notes app: notes keyed by their creation time, as text.
notes = [("2024-05-01 09:30:00", "Buy stamps"), ("2024-05-02 18:05:12", "Call the plumber"), ("2024-05-03 07:45:00", "Renew the library card")]
db = fresh("samples/NotesList.sqlite3")
db.execute("create table if not exists Note (cdate text primary key, content text)")
db.executemany("insert into Note values (?, ?)", notes)
db.commit()
with open("samples/NotesList.sql", "w") as f:
    for line in db.iterdump():
        f.write(line + "\n")
db.close()

def core_data(path, entity, columns, rows):
    """A store in Core Data's layout: Z<ENTITY> with Z_PK, Z_ENT, Z_OPT, then Z_PRIMARYKEY,
    Z_METADATA and Z_MODELCACHE, in WAL mode as Core Data keeps it."""
    db = fresh(path)
    db.execute("PRAGMA journal_mode=WAL")
    table = "Z" + entity.upper()
    db.execute(f"CREATE TABLE {table} ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, {columns} )")
    db.execute("CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER)")
    db.execute("CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB)")
    db.execute("CREATE TABLE Z_MODELCACHE (Z_CONTENT BLOB)")
    for i, row in enumerate(rows, 1):
        db.execute(f"INSERT INTO {table} VALUES (?, 1, 1, {', '.join('?' * len(row))})", (i, *row))
    db.execute("INSERT INTO Z_PRIMARYKEY VALUES (1, ?, 0, ?)", (entity, len(rows)))
    db.execute("INSERT INTO Z_METADATA VALUES (1, '6A0B1E5C-2F35-4B9A-9C51-0D7E3A1F2B44', X'62706C6973743030D00800000000000001010000000000000001000000000000000000000000000000000009')")
    db.commit()
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    db.close()

# The todo app: Todo with name, checked and orderID (listed by orderID).
core_data("samples/TodoCoreData.sqlite", "Todo", "ZCHECKED INTEGER, ZORDERID INTEGER, ZNAME VARCHAR",
          [(0, 0, "Milk"), (1, 1, "Eggs"), (0, 2, "Bread")])
# The note app: Note with content and createTime (seconds since 2001-01-01, listed by it).
core_data("samples/NoteCoreData.sqlite", "Note", "ZCREATETIME TIMESTAMP, ZCONTENT VARCHAR",
          [(736243200.0, "Pick up the parcel"), (736329600.5, "Book the dentist"), (736416000.0, "Water the plants")])
