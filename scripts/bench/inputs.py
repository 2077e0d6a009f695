"""The benchmark's input files, made once per size under bench/inputs/N/ and made again
only when what they are made from (the generator, todofmt's binary) is newer.

`inputs(n)` returns the placeholders the rows' commands use:

  {md}      the checklist (make_checklist.py)           {n}     the item count
  {md1}     the same with one item's box changed (middle of the file)
  {md2}     the same with another item's box changed (three quarters in), for merges
  {md10}    the same with every tenth item's box changed: an edit of many items
  {json} {yaml} {xml} {bplist} {sqlite} {sql}   the same list written by todofmt
  {json1}   {md1} written as a new JSON file by todofmt
  {mdj}     {json} written as a new checklist by todofmt (a JSON list's dates are strings: the
            checklist a JSON file gives, which it can be written back into)
  {bplist_py}  Python's plistlib.dump of the list read from {bplist}: the same data
  {generic} a SQLite database with one generic table todo(id, name, checked, position),
            one row an item (nested items too), positions shuffled so readers must sort
  {mid}     the position (as `list` prints it, `512` or `512.1`) of the middle item
  {half}    n // 2
  {section} the name of the section in the middle of the file
  {head}    the first ~5 MB of the checklist (whole lines), for callgrind
  {deep}    a checklist of DEEP items each nested in the one before (the hardening issue)
  {deepest} stacks of items nested 256 levels deep, the most todofmt reads (16 MB)
"""
import os
import random
import re
import sqlite3
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
HEAD_BYTES = 5_000_000
DEEP = int(os.environ.get("DEEP", "4000"))
ITEM = re.compile(r"^( *)- \[(.)\] (.*)$")
FIELDS = re.compile(r"(?:\s+\[[^\[\]:]+::[^\[\]]*\])+$")


def stale(path, *sources):
    """True when `path` is missing or older than any of `sources`."""
    if not os.path.exists(path):
        return True
    return any(os.path.getmtime(source) > os.path.getmtime(path) for source in sources)


def make(path, sources, build):
    """Calls build(temporary path) when `path` is stale, then renames it into place."""
    if stale(path, *sources):
        print(f"  making {os.path.relpath(path)}", file=sys.stderr, flush=True)
        temporary = os.path.join(os.path.dirname(path), ".tmp-" + os.path.basename(path))  # same extension
        if os.path.exists(temporary):
            os.remove(temporary)
        build(temporary)
        os.replace(temporary, path)
    return path


def run(*argv):
    subprocess.run(argv, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def change_one_box(source, fraction):
    """A builder writing `source` with the box of the item found `fraction` into the file flipped."""
    def build(out):
        with open(source, encoding="utf-8") as f:
            lines = f.readlines()
        at = int(len(lines) * fraction)
        while not ITEM.match(lines[at]):
            at += 1
        indent, box, rest = ITEM.match(lines[at]).groups()
        lines[at] = f"{indent}- [{'x' if box == ' ' else ' '}] {rest}\n"
        with open(out, "w", encoding="utf-8", newline="\n") as f:
            f.writelines(lines)
    return build


def change_every_tenth_box(source):
    """A builder writing `source` with the box of every tenth item flipped."""
    def build(out):
        with open(source, encoding="utf-8") as f:
            lines = f.readlines()
        count = 0
        for at, line in enumerate(lines):
            found = ITEM.match(line)
            if found:
                count += 1
                if count % 10 == 0:
                    indent, box, rest = found.groups()
                    lines[at] = f"{indent}- [{'x' if box == ' ' else ' '}] {rest}\n"
        with open(out, "w", encoding="utf-8", newline="\n") as f:
            f.writelines(lines)
    return build


def items(md):
    """(depth, checked, name without fields) of every item, in order."""
    with open(md, encoding="utf-8") as f:
        for line in f:
            found = ITEM.match(line)
            if found:
                indent, box, text = found.groups()
                yield len(indent) // 2, box in "xX", FIELDS.sub("", text)


def middle_position(md):
    """The position `todofmt list` prints for the middle item: top-level items are
    numbered through the whole file, children within their parent."""
    total = sum(1 for _ in items(md))
    numbers = []
    for index, (depth, _, _) in enumerate(items(md)):
        del numbers[depth + 1:]
        if len(numbers) <= depth:
            numbers.append(0)
        numbers[depth] += 1
        if index == total // 2:
            return ".".join(map(str, numbers))


def generic_table(md):
    def build(out):
        rows = [(name, int(checked)) for _, checked, name in items(md)]
        positions = list(range(1, len(rows) + 1))
        random.Random(2026).shuffle(positions)
        with sqlite3.connect(out) as db:
            db.execute("create table todo(id integer primary key, name text, checked integer, position integer)")
            db.executemany("insert into todo(name, checked, position) values (?, ?, ?)",
                           [(name, checked, positions[i]) for i, (name, checked) in enumerate(rows)])
        db.close()
    return build


def plistlib_dump(bplist):
    def build(out):
        run(sys.executable, "-c", "import plistlib, sys; "
            "plistlib.dump(plistlib.load(open(sys.argv[1], 'rb')), open(sys.argv[2], 'wb'), fmt=plistlib.FMT_BINARY)",
            bplist, out)
    return build


def head(md):
    def build(out):
        with open(md, "rb") as f:
            data = f.read(HEAD_BYTES + 1)
        if len(data) > HEAD_BYTES:
            data = data[:data.rindex(b"\n", 0, HEAD_BYTES) + 1]
        with open(out, "wb") as f:
            f.write(data)
    return build


def deep(out):
    with open(out, "w", encoding="utf-8") as f:
        f.write("# Deep\n")
        for depth in range(DEEP):
            f.write("  " * depth + f"- [ ] level {depth}\n")


def deepest(out):
    """Stacks of items nested as deep as todofmt reads (256 levels), about 16 MB."""
    with open(out, "w", encoding="utf-8") as f:
        f.write("# Deepest\n")
        for _ in range(240):
            for depth in range(256):
                f.write("  " * depth + f"- [ ] level {depth}\n")


def inputs(n, root, todofmt):
    """Makes (when stale) the inputs for `n` items under root/inputs/n; returns the placeholders."""
    folder = os.path.join(root, "inputs", str(n))
    os.makedirs(folder, exist_ok=True)
    path = lambda name: os.path.join(folder, name)
    generator = os.path.join(HERE, "make_checklist.py")
    md = make(path("list.md"), [generator], lambda out: run(sys.executable, generator, str(n), out))
    files = {"md": md, "n": str(n), "half": str(n // 2), "section": f"Section {n // 2 // 1000}"}
    files["md1"] = make(path("list-1.md"), [md], change_one_box(md, 0.5))
    files["md2"] = make(path("list-2.md"), [md], change_one_box(md, 0.75))
    files["md10"] = make(path("list-10.md"), [md], change_every_tenth_box(md))
    for key, name, options in [("json", "list.json", []), ("yaml", "list.yaml", []),
                               ("xml", "list.plist", ["--to", "plist"]), ("bplist", "list.bplist", ["--to", "bplist"]),
                               ("sqlite", "list.sqlite", []), ("sql", "list.sql", [])]:
        files[key] = make(path(name), [md, todofmt], lambda out: run(todofmt, "convert", *options, md, out))
    files["json1"] = make(path("list-1.json"), [files["md1"], todofmt], lambda out: run(todofmt, "convert", files["md1"], out))
    files["mdj"] = make(path("list-json.md"), [files["json"], todofmt], lambda out: run(todofmt, "convert", files["json"], out))
    files["bplist_py"] = make(path("plistlib.bplist"), [files["bplist"]], plistlib_dump(files["bplist"]))
    files["generic"] = make(path("generic.db"), [md], generic_table(md))
    files["head"] = make(path("head.md"), [md], head(md))
    files["deep"] = make(os.path.join(root, "inputs", f"deep-{DEEP}.md"), [__file__], deep)
    files["deepest"] = make(os.path.join(root, "inputs", "deepest.md"), [__file__], deepest)
    mid_file = make(path("mid.txt"), [md], lambda out: open(out, "w").write(middle_position(md)))
    files["mid"] = open(mid_file).read().strip()
    return files
