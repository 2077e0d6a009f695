"""Timing one command: whole process, pinned to one core, peak RSS from wait4; and
instruction counts from callgrind."""
import os
import re
import signal
import statistics
import subprocess
import threading
import time
from dataclasses import dataclass, field

CORE = os.environ.get("CORE", "0")      # the core every timed process runs on
TIMEOUT = float(os.environ.get("TIMEOUT", "600"))   # a run that takes longer is killed
BUDGET = float(os.environ.get("BUDGET", "60"))      # stop repeating a row after this many seconds
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


def run_once(command, stderr_path):
    """Seconds, peak bytes and exit status of one run of `command` on CORE."""
    stdin = open(command.stdin, "rb") if command.stdin else subprocess.DEVNULL
    with open(command.stdout, "wb") as stdout, open(stderr_path, "wb") as stderr:
        start = time.perf_counter()
        process = subprocess.Popen(["taskset", "-c", CORE] + command.argv,
                                   stdin=stdin, stdout=stdout, stderr=stderr)
        killer = threading.Timer(TIMEOUT, lambda: os.kill(process.pid, signal.SIGKILL))
        killer.start()
        _, status, usage = os.wait4(process.pid, 0)
        elapsed = time.perf_counter() - start
        killer.cancel()
    if command.stdin:
        stdin.close()
    process.returncode = os.waitstatus_to_exitcode(status)   # so Popen does not wait again
    return elapsed, usage.ru_maxrss * 1024, process.returncode


def failure(command, status, elapsed, stderr_path):
    if status == -signal.SIGKILL and elapsed >= TIMEOUT:
        return f"timed out after {TIMEOUT:.0f} s"
    with open(stderr_path, errors="replace") as f:
        first = next((line.strip() for line in f if line.strip()), "")
    return f"exit {status}: {first[:80]}"


def measure(command, runs, prepare=lambda: None, scratch="/tmp"):
    """Runs `command` `runs` times (fewer once BUDGET seconds are spent; one more, untimed, when
    it is cheap enough for a warm-up to cost little), calling
    `prepare` (untimed) before each run and flushing dirty pages so that writing back an
    earlier run's output does not land in the next run's time."""
    stderr_path = os.path.join(scratch, "stderr.txt")
    times, peaks = [], []
    for attempt in range(runs + 1):
        prepare()
        os.sync()
        elapsed, peak, status = run_once(command, stderr_path)
        if status not in command.ok:
            return Timing(error=failure(command, status, elapsed, stderr_path))
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
