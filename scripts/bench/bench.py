#!/usr/bin/env python3
"""todofmt's speed benchmark: whole-process timings beside the reference tools, in one run.

Usage: scripts/bench.sh [ITEMS]   (default 1,000,000; RUNS=5 repetitions, median reported)

Every row is a separate process, timed from start to exit; peak memory is the
process's maximum resident set size (wait4). Files go to bench/ (not committed).
"""
import os
import statistics
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
WORK = os.path.join(ROOT, "bench")
RUNS = int(os.environ.get("RUNS", "5"))


def sh(*argv, **kw):
    subprocess.run(argv, check=True, **kw)


def measure(argv, runs=RUNS, output=None):
    """Median seconds and peak bytes of `argv`; `output` is removed before each run (not timed),
    so every run writes a new file rather than updating the last run's."""
    times, peaks = [], []
    for _ in range(runs):
        if output and os.path.exists(output):
            os.remove(output)
        start = time.perf_counter()
        process = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        _, status, usage = os.wait4(process.pid, 0)
        elapsed = time.perf_counter() - start
        if status != 0:
            sys.exit(f"failed ({status}): {' '.join(argv)}")
        times.append(elapsed)
        peaks.append(usage.ru_maxrss * 1024)
    return statistics.median(times), max(peaks)


def row(label, seconds, peak, note=""):
    print(f"  {label:<52} {seconds:7.3f} s {peak / (1 << 20):8.1f} MiB  {note}", flush=True)


def size(path):
    return os.path.getsize(path)


def main():
    items = int(sys.argv[1]) if len(sys.argv) > 1 else 1_000_000
    os.makedirs(WORK, exist_ok=True)
    sh("swift", "build", "-c", "release", "--product", "todofmt", cwd=ROOT, stdout=subprocess.DEVNULL)
    todofmt = os.path.join(ROOT, ".build", "release", "todofmt")
    events = os.path.join(WORK, "yaml_events")
    sh("cc", "-O2", "-o", events, os.path.join(ROOT, "scripts", "bench", "yaml_events.c"), "-lyaml")

    def files(n):
        md = os.path.join(WORK, f"list-{n}.md")
        if not os.path.exists(md):
            sh(sys.executable, os.path.join(ROOT, "scripts", "bench", "make_checklist.py"), str(n), md)
        yaml = os.path.join(WORK, f"list-{n}.yaml")
        if not os.path.exists(yaml) or os.path.getmtime(yaml) < os.path.getmtime(todofmt):
            sh(todofmt, "convert", md, yaml)
        return md, yaml

    print(f"todofmt benchmark: {items:,} items, median of {RUNS} runs, peak RSS")
    small = max(items // 10, 1)
    md_small, _ = files(small)
    md, yaml = files(items)
    out_json = os.path.join(WORK, "out.json")
    out_md = os.path.join(WORK, "out.md")

    print(f"\nChecklist to JSON ({size(md) / 1e6:.0f} MB of Markdown) beside cmark-gfm")
    cmark = measure(["cmark-gfm", "-e", "tasklist", md])
    row("cmark-gfm -e tasklist big.md > /dev/null", *cmark)
    ours = measure([todofmt, "convert", md, out_json], output=out_json)
    row("todofmt convert big.md big.json", *ours,
        f"{cmark[0] / ours[0]:.2f}x faster (goal 2x); memory {ours[1] / size(md):.2f}x input (goal < 3x)")
    ours_small = measure([todofmt, "convert", md_small, out_json], output=out_json)
    row(f"todofmt convert ({small:,} items)", *ours_small,
        f"per item: {ours_small[0] / small * 1e9:.0f} ns at {small:,}, {ours[0] / items * 1e9:.0f} ns at {items:,}")

    print(f"\nYAML list to checklist ({size(yaml) / 1e6:.0f} MB of YAML) beside a bare libyaml event parse")
    bare = measure([events, yaml])
    row("yaml_events big.yaml (C, libyaml events only)", *bare)
    ours_yaml = measure([todofmt, "convert", yaml, out_md], output=out_md)
    row("todofmt convert big.yaml big.md", *ours_yaml, f"{ours_yaml[0] / bare[0]:.2f}x the bare parse (goal <= 1.5x)")

    def memory_note(peak, *paths):
        larger = max(size(p) for p in paths)
        return f"memory {peak / larger:.2f}x the larger file (goal < 4x)"

    big_json = os.path.join(WORK, "big.json")
    if not os.path.exists(big_json):
        sh(todofmt, "convert", md, big_json, stderr=subprocess.DEVNULL)
    print(f"\nJSON to checklist ({size(big_json) / 1e6:.0f} MB of JSON) beside Python's json.load")
    py_json = measure([sys.executable, "-c", "import json, sys; json.load(open(sys.argv[1]))", big_json])
    row("python3 json.load(big.json)", *py_json)
    ours_json = measure([todofmt, "convert", big_json, out_md], output=out_md)
    row("todofmt convert big.json big.md", *ours_json,
        f"{py_json[0] / ours_json[0]:.2f}x faster (goal > 1x); " + memory_note(ours_json[1], big_json, out_md))

    for label, fmt, name, loader in [("binary", "bplist", "big.plist", "plistlib"), ("XML", "plist", "big.xml.plist", "plistlib")]:
        plist = os.path.join(WORK, name)
        write = measure([todofmt, "convert", "--to", fmt, md, plist], output=plist)
        print(f"\nChecklist to {label} property list and back ({size(plist) / 1e6:.0f} MB) beside Python's plistlib")
        py = measure([sys.executable, "-c", "import plistlib, sys; plistlib.load(open(sys.argv[1], 'rb'))", plist])
        row(f"python3 plistlib.load({name})", *py)
        row(f"todofmt convert --to {fmt} big.md {name}", *write,
            f"{write[0] / py[0]:.2f}x plistlib's load (goal <= 0.5x); " + memory_note(write[1], md, plist))
        read = measure([todofmt, "convert", plist, out_md], output=out_md)
        row(f"todofmt convert {name} big.md", *read,
            f"{read[0] / py[0]:.2f}x plistlib's load (goal <= 0.5x); " + memory_note(read[1], plist, out_md))


    print("\nChecklist to SQLite beside the sqlite3 shell loading the same list as a dump")
    dump = os.path.join(WORK, "big.sql")
    database = os.path.join(WORK, "big.sqlite")
    loaded = os.path.join(WORK, "loaded.db")
    sh(todofmt, "convert", md, dump, stderr=subprocess.DEVNULL)
    shell_load = measure(["sh", "-c", f"sqlite3 {loaded} < {dump}"], output=loaded)
    row("sqlite3 x.db < big.sql", *shell_load)
    ours_db = measure([todofmt, "convert", md, database], output=database)
    row("todofmt convert big.md big.sqlite", *ours_db, f"{shell_load[0] / ours_db[0]:.2f}x faster (goal > 1x)")
    select = measure(["sh", "-c", f"sqlite3 {database} 'select * from todo_items' > /dev/null"])
    row("sqlite3 big.sqlite 'select * from todo_items'", *select)
    ours_read = measure([todofmt, "convert", database, out_md], output=out_md)
    row("todofmt convert big.sqlite big.md", *ours_read, f"{ours_read[0] / select[0]:.2f}x the select (goal <= 2x)")


if __name__ == "__main__":
    main()
