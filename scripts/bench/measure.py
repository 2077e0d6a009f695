"""Timing one command: whole process, pinned to one core, with its peak RSS (wait4, in
spawn.c); and instruction counts from callgrind."""
import os
import re
import signal
import statistics
import subprocess
from dataclasses import dataclass, field

CORE = os.environ.get("CORE", "0")      # the core every timed process runs on
TIMEOUT = float(os.environ.get("TIMEOUT", "600"))   # a run that takes longer is killed
BUDGET = float(os.environ.get("BUDGET", "60"))      # stop repeating a row after this many seconds
CLOCK = os.environ.get("CLOCK", "wall")   # or "cpu": user + system time, for a busy machine
SPAWN = ""          # the compiled spawn.c; bench.py sets it
WARM_UP = 1.0      # commands whose first run takes less than this get one untimed run first


@dataclass
class Timing:
    """The median of a command's runs (or a file's size); `error` says why there is none."""
    seconds: float = 0.0
    size: int = 0                    # bytes, for rows that compare file sizes
    peak: int = 0                    # bytes, the largest of the runs
    spread: float = 0.0              # (slowest - fastest) / median
    runs: int = 0
    error: str = ""
    times: list = field(default_factory=list)


@dataclass
class Command:
    """A process to run: argv, and the files its stdin and stdout are redirected from and to."""
    argv: list
    stdin: str = ""
    stdout: str = os.devnull
    ok: tuple = (0,)                 # exit statuses that mean success


def run_once(command, scratch):
    """Seconds, peak bytes and exit status of one run of `command` on CORE, as spawn.c
    measures them (wait4 in a small process, so the peak is the command's own)."""
    report = os.path.join(scratch, "spawn.txt")
    stdin = open(command.stdin, "rb") if command.stdin else subprocess.DEVNULL
    with open(command.stdout, "wb") as stdout, open(os.path.join(scratch, "stderr.txt"), "wb") as stderr:
        subprocess.run([SPAWN, report, str(int(TIMEOUT)), "taskset", "-c", CORE] + command.argv,
                       stdin=stdin, stdout=stdout, stderr=stderr, check=True)
    if command.stdin:
        stdin.close()
    with open(report) as f:
        wall, peak, status, cpu = f.read().split()
    return float(cpu if CLOCK == "cpu" else wall), int(peak), int(status)


def failure(status, scratch):
    if status == -signal.SIGKILL:
        return f"killed after {TIMEOUT:.0f} s (TIMEOUT)"
    with open(os.path.join(scratch, "stderr.txt"), errors="replace") as f:
        first = next((line.strip() for line in f if line.strip()), "")
    return f"exit {status}: {first[:80]}"


def measure(command, runs, scratch, prepare=lambda: None):
    """Runs `command` `runs` times (fewer once BUDGET seconds are spent; one more, untimed, when
    it is cheap enough for a warm-up to cost little), calling
    `prepare` (untimed) before each run and flushing dirty pages so that writing back an
    earlier run's output does not land in the next run's time."""
    times, peaks = [], []
    for attempt in range(runs + 1):
        prepare()
        os.sync()
        elapsed, peak, status = run_once(command, scratch)
        if status not in command.ok:
            return Timing(error=failure(status, scratch))
        if attempt == 0 and elapsed < WARM_UP:
            continue     # a cheap command's first run is a warm-up: it is often slower (cold caches)
        times.append(elapsed)
        peaks.append(peak)
        if len(times) == runs or sum(times) > BUDGET:
            break
    median = statistics.median(times)
    return Timing(seconds=median, peak=max(peaks), spread=(max(times) - min(times)) / median,
                  runs=len(times), times=times)


def instructions(command, scratch, prepare=lambda: None):
    """Instructions the whole process executes, counted by callgrind (not pinned: counts
    do not depend on the core)."""
    out = os.path.join(scratch, "callgrind.out")
    prepare()
    argv = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}"] + command.argv
    stdin = open(command.stdin, "rb") if command.stdin else subprocess.DEVNULL
    with open(command.stdout, "wb") as stdout:
        result = subprocess.run(argv, stdin=stdin, stdout=stdout, stderr=subprocess.PIPE)
    if result.returncode not in command.ok:
        return None
    with open(out) as f:
        for line in f:
            found = re.match(r"(?:summary|totals):\s*(\d+)", line)
            if found:
                return int(found.group(1))
    return None
