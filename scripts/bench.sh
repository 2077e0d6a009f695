#!/usr/bin/env bash
# The speed benchmark (issue 11): every command beside its reference tool, pinned to one core,
# at 10k, 100k and 1M items, printed as one table. See scripts/bench/bench.py for the options.
# Usage: scripts/bench.sh [SIZE...] [--quick] [--no-callgrind] [--only TEXT]   (RUNS=5 by default)
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
exec python3 scripts/bench/bench.py "$@"
