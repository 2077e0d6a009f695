#!/usr/bin/env python3
"""todofmt's speed benchmark (issue 11): one table, every command beside its reference.

Usage:
  scripts/bench.sh [SIZE...] [--quick] [--no-callgrind] [--only TEXT]...

  SIZE             item counts: 10k 100k 1M (the default), or any count; SIZES="10k 1M" too
  --quick          10k and 100k items, one run, no callgrind, no slow rows: a sanity check
  --no-callgrind   do not count instructions (callgrind takes a minute or two)
  --only TEXT      only the rows whose key or label contains TEXT (may repeat)
  RUNS=5           runs of every command; the table shows the median
  CORE=0           the core every timed process is pinned to
  TIMEOUT=600      seconds after which a run is killed (and its row reported as failed)
  BUDGET=60        seconds after which a row's runs stop (the median of those done counts)
  DEEP=4000        depth of the deep-nesting row's checklist
  CLOCK=wall       or cpu: time as user + system seconds instead of wall-clock, for when
                   other processes share the core (the issue's goals are wall-clock)

It builds todofmt as scripts/install.sh does (`swift build -c release`, with the Swift runtime
linked in on Linux), makes the inputs under bench/inputs/
(gitignored; see inputs.py and make_checklist.py), then measures each row of rows.py at
each size: the whole process, from start to exit, pinned with `taskset -c CORE` (todofmt
and the reference tools alike, in the same run), with peak memory the process's maximum
resident set size from wait4 (in spawn.c: a child of this Python script would start from
the script's own high-water mark). Rows are printed as they finish, the whole table at the
end, and saved to bench/results.md. The load average is printed before and after: other
processes on the machine make the times (and their ± spread) worse.

Columns (at the largest size unless the header says otherwise):
  reference / ref s   the reference command and its time
  s                   todofmt's time, ± the spread of its runs ((slowest - fastest) / median)
  ×ref                todofmt's time over the reference's (file size for size rows)
  I/B                 instructions per input byte, todofmt/reference, by callgrind on the
                      first ~5 MB of the checklist
  MB/s, peak, ×in     input megabytes a second; peak RSS; peak over the input's size
  ns/item N           time per item at each size (bytes per item for size rows)
  goals               each goal with ✓ or ✗; `flat` means the time per item at the largest
                      size is at most FLAT times the lowest at a smaller size (process start-up
                      makes small sizes dearer per item, so only growth counts against it)
"""
import argparse
import datetime
import functools
import os
import re
import shlex
import shutil
import subprocess
import sys

import inputs as inputs_module
import measure
from rows import REFS, ROWS

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
WORK = os.path.join(ROOT, "bench")
HERE = os.path.join(ROOT, "scripts", "bench")
FLAT = 1.3
DEFAULT_SIZES = [10_000, 100_000, 1_000_000]
SHORT = {"md": "x.md", "md1": "x1.md", "md2": "x2.md", "md10": "x10.md", "json": "x.json", "json1": "x1.json", "mdj": "xj.md", "yaml": "x.yaml",
         "xml": "x.plist", "bplist": "x.bplist", "sqlite": "x.sqlite", "sql": "x.sql",
         "generic": "generic.db", "deep": "deep.md", "deepest": "deepest.md", "head": "head.md", "bplist_py": "plistlib.bplist",
         "mid": "ITEM", "half": "N/2", "section": "SECTION", "n": "N", "yaml_events": "yaml_events",
         "sqlite_rows": "sqlite_rows"}


# ---------------------------------------------------------------- arguments and set-up

def parse_size(text):
    text = text.replace(",", "").replace("_", "")
    scale = {"k": 1_000, "K": 1_000, "m": 1_000_000, "M": 1_000_000}.get(text[-1:], 1)
    return int(float(text.rstrip("kKmM")) * scale)


def arguments():
    parser = argparse.ArgumentParser(description="todofmt's speed benchmark; see the docstring of scripts/bench/bench.py")
    parser.add_argument("sizes", nargs="*", help="item counts (10k 100k 1M)")
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--no-callgrind", dest="callgrind", action="store_false")
    parser.add_argument("--only", action="append", default=[])
    args = parser.parse_args()
    sizes = args.sizes or os.environ.get("SIZES", "").split()
    args.sizes = sorted({parse_size(s) for s in sizes}) or ([10_000, 100_000] if args.quick else DEFAULT_SIZES)
    args.runs = 1 if args.quick else int(os.environ.get("RUNS", "5"))
    if args.quick:
        measure.WARM_UP = 0     # one run and no warm-up: a sanity check, not a measurement
    args.callgrind = args.callgrind and not args.quick and shutil.which("valgrind") is not None
    return args


def build():
    """The release build of todofmt; the C programs that are references (by placeholder:
    `{yaml_events}`, `{sqlite_rows}`); and spawn.c, which runs and measures each command."""
    # The binary scripts/install.sh installs: on Linux the Swift runtime and Foundation linked
    # in (--static-swift-stdlib), which also spares every run the dynamic linker's lookups
    # (about 4 ms a start, 5% of the instructions on the 5 MB head).
    static = ["--static-swift-stdlib"] if sys.platform.startswith("linux") else []
    print("building todofmt (swift build -c release %s)…" % " ".join(static), file=sys.stderr, flush=True)
    subprocess.run(["swift", "build", "-c", "release", "--product", "todofmt", *static], cwd=ROOT, check=True,
                   stdout=subprocess.DEVNULL)
    tools = {"yaml_events": os.path.join(WORK, "yaml_events"), "sqlite_rows": os.path.join(WORK, "sqlite_rows")}
    for (name, path), library in zip(tools.items(), ["-lyaml", "-lsqlite3"]):
        subprocess.run(["cc", "-O2", "-o", path, os.path.join(HERE, name + ".c"), library], check=True)
    measure.SPAWN = os.path.join(WORK, "spawn")
    subprocess.run(["cc", "-O2", "-o", measure.SPAWN, os.path.join(HERE, "spawn.c")], check=True)
    return os.path.join(ROOT, ".build", "release", "todofmt"), tools


def leave_the_core():
    """Runs this script (and the untimed helpers) off the measured core, where it can."""
    others = os.sched_getaffinity(0) - {int(measure.CORE)}
    if others:
        os.sched_setaffinity(0, others)


@functools.lru_cache(maxsize=None)
def help_text(todofmt, command):
    """`todofmt help COMMAND`'s output, or None when this build has no such command."""
    result = subprocess.run([todofmt, "help", command], capture_output=True, text=True)
    return result.stdout + result.stderr if result.returncode == 0 else None


def available(row, todofmt):
    if not row.needs:
        return True
    command, *options = row.needs.split()
    text = help_text(todofmt, command)
    return text is not None and all(option in text for option in options)


# ---------------------------------------------------------------- labels

def label(row):
    if row.label:
        text = row.label
    else:
        text = row.cmd.replace("{o}/", "").removeprefix("todofmt ")
        text = re.sub(r"\{(\w+)\}", lambda m: SHORT.get(m.group(1), m.group(0)), text)
    return f"{text} ({row.note})" if row.note else text


def size_name(n):
    return f"{n // 1_000_000}M" if n % 1_000_000 == 0 else f"{n // 1000}k" if n % 1000 == 0 else str(n)


# ---------------------------------------------------------------- measuring

class Bench:
    """Measures rows and references at each size, each (key, size) once."""

    def __init__(self, todofmt, tools, files, runs, callgrind):
        self.todofmt, self.tools, self.files, self.runs = todofmt, tools, files, runs
        self.sizes = sorted(files)
        self.callgrind = callgrind
        self.specs = {row.key: row for row in REFS + ROWS}
        self.results = {}

    def values(self, row, n, swap=None):
        scratch = os.path.join(WORK, "run", re.sub(r"\W+", "_", row.key))
        values = dict(self.files[n], o=scratch, **self.tools)
        if swap:
            values.update({key: values[other] for key, other in swap.items()})
        return values

    def command(self, row, values):
        """The row's argv with placeholders filled in and redirections taken out."""
        words = [word.format(**values) for word in shlex.split(row.cmd)]
        if words[0] == "todofmt":
            words[0] = self.todofmt
        stdin = stdout = ""
        while len(words) > 2 and words[-2] in ("<", ">"):
            if words[-2] == "<":
                stdin = words[-1]
            else:
                stdout = words[-1]
            words = words[:-2]
        return measure.Command(words, stdin=stdin, stdout=stdout or os.devnull, ok=row.ok)

    def preparer(self, row, values):
        """Empties the row's scratch folder and runs its `before` command."""
        before = [word.format(**values) for word in shlex.split(row.before)]

        def prepare():
            shutil.rmtree(values["o"], ignore_errors=True)
            os.makedirs(values["o"])
            if before:
                subprocess.run(before, check=True)
        return prepare

    def result(self, key, n):
        if (key, n) not in self.results:
            row = self.specs[key]
            values = self.values(row, n)
            if row.size:
                timing = measure.Timing(size=os.path.getsize(row.cmd.format(**values)))
            else:
                progress(f"{label(row)} @{size_name(n)}")
                timing = measure.measure(self.command(row, values), self.runs, WORK, self.preparer(row, values))
            self.results[key, n] = timing
        return self.results[key, n]

    def instructions_per_byte(self, key, n):
        """Callgrind's count for the row's command run on {head} instead of {md}, per byte."""
        row = self.specs[key]
        if "{md}" not in row.cmd:
            return None
        values = self.values(row, n, swap={"md": "head"})
        progress(f"callgrind: {label(row)} on head.md")
        count = measure.instructions(self.command(row, values), WORK, self.preparer(row, values))
        return count / os.path.getsize(values["head"]) if count else None

    def basis(self, row, n):
        """The size of the row's input: its `basis`, else the first input file in its command."""
        names = [row.basis] if row.basis else re.findall(r"\{(\w+)\}", row.cmd)
        for name in names:
            path = self.files[n].get(name, "")
            if os.path.isfile(path):
                return os.path.getsize(path)
        return 0


def progress(text):
    if sys.stderr.isatty():
        print(f"\r\033[K  measuring {text}…", end="", file=sys.stderr, flush=True)


def clear_progress():
    if sys.stderr.isatty():
        print("\r\033[K", end="", file=sys.stderr, flush=True)


# ---------------------------------------------------------------- one row of the table

def met(goal, value):
    """Whether `value` meets a goal written "≤0.25x" or "<1x"."""
    limit = float(goal.lstrip("≤<").rstrip("x"))
    return value <= limit if goal.startswith("≤") else value < limit


def mark(ok):
    return "✓" if ok else "✗"


def row_cells(bench, row, sizes):
    """The table cells of one row, measuring what it needs."""
    sizes = sizes[-1:] if row.once else sizes
    largest = sizes[-1]
    ours = {n: bench.result(row.key, n) for n in sizes}
    ref = bench.result(row.ref, largest) if row.ref else None
    ref_label = label(bench.specs[row.ref]) if row.ref else ""
    failed = [t.error for t in list(ours.values()) + [ref] if t and t.error]
    if failed:
        return [label(row), ref_label] + ["—"] * (7 + len(bench.sizes)) + [f"failed: {failed[0]}"]

    cells, ratio, goals = (size_cells if row.size else time_cells)(bench, row, ours[largest], ref, largest)
    if row.goal and ratio is not None:
        goals.insert(0, f"{row.goal} {mark(met(row.goal, ratio))}")
    per_item = {n: (ours[n].size if row.size else ours[n].seconds * 1e9) / n for n in sizes}
    if len(sizes) > 1:
        goals.append(f"flat {mark(per_item[largest] <= FLAT * min(per_item[n] for n in sizes[:-1]))}")
    unit = " B" if row.size else ""
    per_item_cells = [f"{per_item[n]:.0f}{unit}" if n in per_item and not row.once else "" for n in bench.sizes]
    return [label(row), ref_label] + cells + per_item_cells + [" · ".join(goals)]


def size_cells(bench, row, ours, ref, n):
    """Cells, ratio and goals of a row that compares file sizes."""
    ratio = ours.size / ref.size
    return [f"{ref.size / 1e6:.1f} MB", f"{ours.size / 1e6:.1f} MB", f"{ratio:.2f}x", "", "", "", ""], ratio, []


def time_cells(bench, row, ours, ref, n):
    """Cells, ratio and goals (instructions, memory) of a timed row at size n."""
    basis = bench.basis(row, n)
    ratio = ours.seconds / ref.seconds if ref else None
    spread = f" ±{ours.spread * 100:.0f}%" if ours.runs > 1 else ""
    ipb, goals = instruction_cells(bench, row, n)
    if row.mem and basis:
        goals.append(f"mem ≤{row.mem:g}x {mark(ours.peak / basis <= row.mem)}")
    cells = [f"{ref.seconds:.3f}" if ref else "", f"{ours.seconds:.3f}{spread}", f"{ratio:.2f}x" if ratio else "",
             ipb, f"{basis / ours.seconds / 1e6:.0f}" if basis else "", f"{ours.peak / (1 << 20):.0f}",
             f"{ours.peak / basis:.1f}" if basis else ""]
    return cells, ratio, goals


def instruction_cells(bench, row, n):
    """The I/B cell ("ours/reference") and its goal, for rows that have one."""
    if not row.ipb:
        return "", []
    if not bench.callgrind:
        return "", [f"≤{row.ipb:g} I/B (not counted)"]
    ours = bench.instructions_per_byte(row.key, n)
    ref = bench.instructions_per_byte(row.ref, n) if row.ref else None
    cell = f"{ours or 0:.0f}" + (f"/{ref:.0f}" if ref else "")
    return cell, [f"≤{row.ipb:g} I/B {mark(ours is not None and ours <= row.ipb)}"]


# ---------------------------------------------------------------- the table

class Table:
    def __init__(self, rows, sizes):
        largest = size_name(sizes[-1])
        self.header = (["command (todofmt …)", "reference", f"ref s @{largest}", f"s @{largest}", "×ref", "I/B",
                        "MB/s", "peak MiB", "×in"] + [f"ns/item {size_name(n)}" for n in sizes] + ["goals"])
        refs = {row.ref for row in rows if row.ref}
        self.widths = [max([len(self.header[0])] + [len(label(r)) for r in rows]),
                       max([len(self.header[1])] + [len(label(r)) for r in REFS + ROWS if r.key in refs])]
        self.widths += [max(len(h), 9) for h in self.header[2:-1]] + [0]
        self.widths[3] = max(self.widths[3], 13)      # "12.345 ±12%"
        self.lines = []

    def line(self, cells):
        return "| " + " | ".join(c.ljust(w) if i < 2 else c.rjust(w) for i, (c, w) in
                                 enumerate(zip(cells, self.widths))) + " |"

    def start(self):
        text = [self.line(self.header), "|" + "|".join("-" * (w + 2) for w in self.widths[:-1]) + "|---|"]
        print("\n".join(text), flush=True)
        self.lines = text

    def add(self, cells):
        clear_progress()
        text = self.line(cells)
        print(text, flush=True)
        self.lines.append(text)


def describe(args, todofmt):
    commit = subprocess.run(["git", "-C", ROOT, "describe", "--always", "--dirty"], capture_output=True, text=True).stdout.strip()
    cpu = next((line.split(":", 1)[1].strip() for line in open("/proc/cpuinfo") if line.startswith("model name")), "?")
    return (f"todofmt {commit}, {datetime.datetime.now():%Y-%m-%d %H:%M}, {cpu}, {os.cpu_count()} cores; "
            f"every process pinned to core {measure.CORE}; {measure.CLOCK} time, median of {args.runs} run(s); "
            f"sizes {', '.join(size_name(n) for n in args.sizes)}; "
            f"callgrind {'on' if args.callgrind else 'off'}; load average {load()}")


def load():
    return open("/proc/loadavg").read().split()[0]


def main():
    args = arguments()
    os.makedirs(WORK, exist_ok=True)
    todofmt, tools = build()
    leave_the_core()
    chosen = [row for row in ROWS if not args.only or any(t in row.key or t in label(row) for t in args.only)]
    missing = [row for row in chosen if not available(row, todofmt)]
    slow = [row for row in chosen if row.slow and args.quick]
    rows = [row for row in chosen if row not in missing and row not in slow]

    files = {}
    for n in args.sizes:
        print(f"inputs for {n:,} items…", file=sys.stderr, flush=True)
        files[n] = inputs_module.inputs(n, WORK, todofmt)
    bench = Bench(todofmt, tools, files, args.runs, args.callgrind)

    title = describe(args, todofmt)
    print(title + "\n", flush=True)
    table = Table(rows, args.sizes)
    table.start()
    for row in rows:
        table.add(row_cells(bench, row, args.sizes))

    md_size = os.path.getsize(files[args.sizes[-1]]["md"])
    start_up = measure.measure(measure.Command([todofmt, "--version"]), max(args.runs, 3), WORK)
    notes = [f"x.md: {args.sizes[-1]:,} items, {md_size / 1e6:.1f} MB; x1.md/x2.md: one item's box changed; x10.md: every tenth item's box changed; "
             f"ITEM: the middle item's position; rows marked 'existing' write into a copy of that file.",
             f"Process start-up (todofmt --version, pinned, through this script): {start_up.seconds * 1e3:.0f} ms, "
             f"part of every time above, so the smallest size's time per item is higher."]
    if missing:
        notes.append("Not in this build yet (they run once `todofmt help CMD` shows them): "
                     + ", ".join(label(row) for row in missing))
    if slow:
        notes.append("Left out by --quick: " + ", ".join(label(row) for row in slow))
    notes.append(f"Load average at the end: {load()}.")
    print("\n\n" + title + "\n\n" + "\n".join(table.lines) + "\n\n" + "\n".join(notes))
    with open(os.path.join(WORK, "results.md"), "w") as f:
        f.write(title + "\n\n" + "\n".join(table.lines) + "\n\n" + "\n".join(notes) + "\n")


if __name__ == "__main__":
    main()
