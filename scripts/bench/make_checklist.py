#!/usr/bin/env python3
"""Writes the benchmark's checklist: N task items, about 48 bytes each (1,000,000 items
make about 48 MB), the shape issue 11 measures.

Usage: make_checklist.py N OUT.md

- front matter, and a `## Section` heading before every 1,000 items;
- statuses open, done and custom (`[/]`, `[-]`);
- nesting up to four levels (three below the top);
- names in several scripts: Latin with accents, CJK, Greek, Cyrillic, emoji
  (also a ZWJ sequence and a flag);
- now and then a link `[text](https://…)`, a code span, and `[key:: value]` fields
  (integers, dates, strings).

Deterministic: the same seed gives the same file, and the first K items do not depend
on N, so the first 5 MB are the same for every N large enough to have them.
The file is in canonical form (`todofmt fmt --check` passes on it).
"""
import random
import sys

SEED = 2026

WORDS = [
    "milk", "eggs", "call the bank", "fix the build", "review the pull request",
    "water the plants", "renew passport", "café crème", "ünïcödé", "naïve résumé",
    "日本語のメモ", "買い物リスト", "会議の準備", "整理报告", "회의 준비", "Ελληνικά",
    "Привет мир", "emoji 🚀", "done ✅", "party 🎉", "dev 👩‍💻", "trip 🇯🇵",
]
LINKS = ["docs", "issue", "spec", "ドキュメント", "ticket 🎫"]
CODE = ["`make test`", "`git push`", "`swift build -c release`", "`rm -rf build/`", "`x[i] = 0`"]
BOXES = [" ", " ", " ", "x", "x", "/", "-"]
OWNERS = ["alice", "bob", "山田", "Zoë"]


def name(rng, i):
    """One item's name: a few words around its number, sometimes a link, a code span, fields."""
    words = [rng.choice(WORDS), str(i)]
    if rng.random() < 0.95:
        words.append(rng.choice(WORDS))
    roll = rng.random()
    if roll < 0.08:
        words.append(f"[{rng.choice(LINKS)}](https://example.com/t/{i})")
    elif roll < 0.16:
        words.append(rng.choice(CODE))
    roll = rng.random()
    if roll < 0.03:
        words.append(f"[id:: {i}]")
    elif roll < 0.05:
        words.append(f"[due:: 2026-{rng.randint(1, 12):02}-{rng.randint(1, 28):02}T09:00:00Z]")
    elif roll < 0.07:
        words.append(f"[prio:: {rng.randint(1, 3)}] [owner:: {rng.choice(OWNERS)}]")
    return " ".join(words)


def lines(count, rng):
    yield from ["---", "title: Benchmark list", "owner: bench", "---"]
    depth = 0
    for i in range(count):
        if i % 1000 == 0:
            yield ""
            yield f"## Section {i // 1000}"
            depth = 0
        yield "  " * depth + f"- [{rng.choice(BOXES)}] {name(rng, i)}"
        depth = rng.choice([0, 0, 0, min(depth + 1, 3), depth])


def main():
    count, out = int(sys.argv[1]), sys.argv[2]
    with open(out, "w", encoding="utf-8", newline="\n") as f:
        for line in lines(count, random.Random(SEED)):
            f.write(line + "\n")


if __name__ == "__main__":
    main()
