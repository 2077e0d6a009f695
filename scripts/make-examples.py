#!/usr/bin/env python3
"""Writes the example files of the shapes apps store todo lists in (SHAPES.md sections 1
and 2), with Python's own plistlib and json, so that they are the real thing:

- userdefaults-tasks.plist     a UserDefaults preferences file (binary), the list as an
                               array of {title, done} dictionaries under "tasks" (seed 002)
- userdefaults-todoskey.plist  a UserDefaults preferences file (binary), the list as the
                               JSON bytes of [{name, checked}] in a data value under
                               "TodosKey" (seed 000)
- items.plist                  a top-level array of {title, done} (PropertyListEncoder's shape)
- todos.json                   the Codable JSON [{name, checked}] (seed 000)

Run from the repository root: python3 scripts/make-examples.py
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

with open("examples/userdefaults-tasks.plist", "wb") as f:
    plistlib.dump({**app_keys, "tasks": tasks}, f, fmt=plistlib.FMT_BINARY, sort_keys=False)

with open("examples/userdefaults-todoskey.plist", "wb") as f:
    data = json.dumps(todos, separators=(",", ":")).encode()
    plistlib.dump({**app_keys, "TodosKey": data}, f, fmt=plistlib.FMT_BINARY, sort_keys=False)

with open("examples/items.plist", "wb") as f:
    plistlib.dump(tasks, f, fmt=plistlib.FMT_BINARY, sort_keys=False)

with open("examples/todos.json", "w") as f:
    json.dump(todos, f, indent=2)
    f.write("\n")
