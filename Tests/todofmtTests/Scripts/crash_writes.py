#!/usr/bin/env python3
"""Writes into existing files of every format while things go wrong, and checks that the file
is always either the old one or the new one, that the app's reader (json, plistlib, PyYAML,
sqlite3) reads it, and that at most one temporary file is left beside it.

    crash_writes.py TODOFMT FOLDER kill ROUNDS   SIGKILL at random moments of the write (convert,
                                              and `done` a third as often)
    crash_writes.py TODOFMT FOLDER full          a write past `ulimit -f` (a full disk)
    crash_writes.py TODOFMT FOLDER symlink       writing through symbolic links

Prints one line per format and exits non-zero on the first broken promise.
"""
import glob, json, os, plistlib, random, shutil, signal, sqlite3, subprocess, sys, time

TODOFMT, FOLDER, MODE = sys.argv[1], sys.argv[2], sys.argv[3]
FORMATS = ["md", "json", "yaml", "plist", "bplist", "sqlite", "sql"]
ITEMS = 800


def checklist(changed):
    lines = ["# Work\n"]
    for i in range(ITEMS):
        done = "x" if changed and i == ITEMS // 2 else " "
        name = f"task {i} renamed" if changed and i == ITEMS // 3 else f"task {i} with some words"
        lines.append(f"- [{done}] {name}\n")
        if i % 10 == 0:
            lines.append(f"  - [ ] step {i}\n")
    if changed:
        lines.append("- [ ] a new task\n")
    return "".join(lines)


def run(*args, limit=None, check=True):
    prefix = ["sh", "-c", f'ulimit -f {limit}; exec "$@"', "sh"] if limit else []
    done = subprocess.run(prefix + [TODOFMT, *args], capture_output=True, text=True)
    if check and done.returncode != 0:
        sys.exit(f"todofmt {' '.join(args)} failed: {done.stderr}")
    return done


def state(path, fmt):
    """What the app sees: the database's rows, else the file's bytes."""
    if fmt == "sqlite":
        db = sqlite3.connect(path)
        assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        rows = "\n".join(db.iterdump())
        db.close()
        return rows
    with open(path, "rb") as f:
        return f.read()


def readable(path, fmt):
    data = open(path, "rb").read()
    if fmt == "json":
        json.loads(data)
    elif fmt in ("plist", "bplist"):
        plistlib.loads(data)
    elif fmt == "yaml":
        import yaml
        list(yaml.safe_load_all(data))
    elif fmt == "sql":
        db = sqlite3.connect(":memory:")
        db.executescript(data.decode())
    elif fmt == "sqlite":
        state(path, fmt)


def temporaries(path):
    folder, base = os.path.split(path)
    return glob.glob(os.path.join(folder, "." + base + ".todofmt-*"))


def prepare(fmt):
    """The file before, the checklist to write into it, and the file after."""
    folder = os.path.join(FOLDER, fmt)
    os.makedirs(folder, exist_ok=True)
    old_md, new_md = os.path.join(folder, "old.md"), os.path.join(folder, "new.md")
    open(old_md, "w").write(checklist(False))
    open(new_md, "w").write(checklist(True))
    target = os.path.join(folder, "list." + ("plist" if fmt == "bplist" else fmt))
    run("convert", *(["--to", "bplist"] if fmt == "bplist" else []), old_md, target)
    old = os.path.join(folder, "old.bytes")
    shutil.copyfile(target, old)
    run("convert", new_md, target)
    new = os.path.join(folder, "new.bytes")
    shutil.copyfile(target, new)
    for path in (old, new):
        readable(path, fmt)
    return folder, target, old, new, new_md


def restore(old, target):
    for extra in (target + "-journal", target + "-wal", target + "-shm"):
        if os.path.exists(extra):
            os.unlink(extra)
    shutil.copyfile(old, target)


def killed(fmt, target, old, command, rounds):
    """Kills `todofmt COMMAND` `rounds` times at random moments of its write into `target`."""
    restore(old, target)
    before = state(target, fmt)
    start = time.monotonic()
    run(*command)
    took = time.monotonic() - start
    after = state(target, fmt)
    seen = {"old": 0, "new": 0}
    for _ in range(rounds):
        restore(old, target)
        process = subprocess.Popen([TODOFMT, *command], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        # Most of a short run is starting up: the kills fall over its second part.
        time.sleep(random.uniform(0.2, 1.05) * took)
        process.send_signal(signal.SIGKILL)
        process.wait()
        now = state(target, fmt)
        if now == before:
            seen["old"] += 1
        elif now == after:
            seen["new"] += 1
        else:
            sys.exit(f"{fmt}: after a kill of todofmt {command[0]} the file is neither the old one nor the new one")
        readable(target, fmt)
        left = temporaries(target)
        if len(left) > 1:
            sys.exit(f"{fmt}: {len(left)} temporary files left beside the file: {left}")
    return took, seen


def kill(rounds):
    for fmt in FORMATS:
        folder, target, old, new, new_md = prepare(fmt)
        took, seen = killed(fmt, target, old, ["convert", new_md, target], rounds)
        # An editing command writes through the same update.
        edit_took, edit_seen = killed(fmt, target, old, ["done", target, str(ITEMS // 2)], max(rounds // 3, 1))
        print(f"{fmt}: {rounds} kills in a {took * 1000:.0f} ms write: {seen['old']} old, {seen['new']} new; "
              f"{max(rounds // 3, 1)} kills of done in {edit_took * 1000:.0f} ms: {edit_seen['old']} old, {edit_seen['new']} new; "
              f"{len(temporaries(target))} temporary file left")


def full():
    for fmt in FORMATS:
        folder, target, old, new, new_md = prepare(fmt)
        restore(old, target)
        # Every file here is far past 16 KB; a database is written anew under another name.
        out = target if fmt != "sqlite" else os.path.join(folder, "fresh.sqlite")
        done = run("convert", new_md, out, limit=16, check=False)
        said = "File too large" in done.stderr or "file size limit" in done.stderr
        if done.returncode == 0 or os.path.basename(out) not in done.stderr or not said:
            sys.exit(f"{fmt}: a write past the file size limit gave {done.returncode}: {done.stderr!r}")
        if fmt == "sqlite":
            if os.path.exists(out):
                sys.exit("sqlite: a new database that failed was left in place")
        elif state(target, fmt) != state(old, fmt):
            sys.exit(f"{fmt}: a failed write changed the file")
        if temporaries(out):
            sys.exit(f"{fmt}: a failed write left {temporaries(out)}")
        if fmt == "sqlite":
            # Updated in place: the rows after the limit cannot be written, the transaction
            # rolls back, and the database is as it was.
            done = run("convert", new_md, target, limit=16, check=False)
            if done.returncode == 0 or state(target, fmt) != state(old, fmt):
                sys.exit(f"sqlite: a database update past the file size limit gave {done.returncode} and changed it")
        print(f"{fmt}: {done.stderr.strip()}")


def symlink():
    for fmt in FORMATS:
        folder, target, old, new, new_md = prepare(fmt)
        restore(old, target)
        link = os.path.join(folder, "link." + os.path.basename(target).split(".")[-1])
        os.symlink(os.path.basename(target), link)
        run("convert", new_md, link)
        if not os.path.islink(link) or state(target, fmt) != state(new, fmt):
            sys.exit(f"{fmt}: writing through a symbolic link did not write its target")
        # A link to a file that does not exist yet: the new file is made where it points.
        dangling = os.path.join(folder, "dangling." + os.path.basename(link).split(".")[-1])
        os.symlink("made-" + os.path.basename(target), dangling)
        run("convert", *(["--to", "bplist"] if fmt == "bplist" else []), new_md, dangling)
        made = os.path.join(folder, "made-" + os.path.basename(target))
        if not os.path.islink(dangling) or not os.path.exists(made):
            sys.exit(f"{fmt}: writing through a link to no file did not make the file it points to")
        readable(made, fmt)
        print(f"{fmt}: written through links")


{"kill": lambda: kill(int(sys.argv[4])), "full": full, "symlink": symlink}[MODE]()
