#!/usr/bin/env bash
# The speed benchmark: whole-process timings of todofmt beside the reference tools.
# Usage: scripts/bench.sh [ITEMS]   (RUNS=n sets the repetitions; default 5)
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
exec python3 scripts/bench/bench.py "$@"
