#!/usr/bin/env python3
"""Writes a checklist of N task items: headings every 1,000 items, nesting up to
three levels, custom statuses, a field now and then, and names in several scripts."""
import random
import sys

def main():
    count = int(sys.argv[1])
    out = sys.argv[2]
    rng = random.Random(2026)
    # Plain words in several scripts: what todo items mostly hold (no inline markup,
    # which would slow cmark-gfm's inline parsing and flatter todofmt).
    words = ["milk", "eggs", "call the bank", "café crème", "ünïcödé", "日本語のメモ", "Ελληνικά",
             "emoji 🚀", "fix the build", "review the pull request", "water the plants", "renew passport"]
    lines = ["---", "title: Benchmark list", "owner: bench", "---"]
    depth = 0
    for i in range(count):
        if i % 1000 == 0:
            lines.append("")
            lines.append(f"## Section {i // 1000}")
            depth = 0
        box = rng.choice([" ", " ", " ", "x", "x", "/", "-"])
        name = f"{rng.choice(words)} {i} {rng.choice(words)} {rng.choice(words)}"
        if i % 50 == 0:
            name += f" [id:: {i}]"
        lines.append("  " * depth + f"- [{box}] {name}")
        depth = rng.choice([0, 0, 0, min(depth + 1, 3), depth])
    with open(out, "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")

if __name__ == "__main__":
    main()
