#!/usr/bin/env bash
# Coverage-guided fuzzing of todofmt's readers with libFuzzer (Fuzz/FuzzTargets.swift).
#
#   scripts/fuzz.sh [TARGET|all] [SECONDS]     default: all, 600 seconds each
#   scripts/fuzz.sh --list                     the targets
#
# Builds .build/fuzz/todofmt-fuzz from the library's sources with
# `swiftc -sanitize=fuzzer,address -parse-as-library`, then runs each target for SECONDS
# with its corpus in .build/fuzz/corpus/TARGET (seeded from samples/ and the test fixtures;
# .build is outside git, so new corpus entries never land in the repository). An input that
# crashes or breaks a property is kept in .build/fuzz/crashes/TARGET/; make it a regression
# test in Tests/TodoFormatTests/Fuzz/ before fixing it. JOBS=2 runs two targets at a time.
set -euo pipefail
cd "$(dirname "$0")/.."
targets=(markdown yaml json plist bplist sql merge)
if [ "${1:-}" = --list ]; then printf '%s\n' "${targets[@]}"; exit 0; fi
which="${1:-all}"
seconds="${2:-600}"
work=.build/fuzz
binary=$work/todofmt-fuzz
mkdir -p "$work"

sources=$(find Sources/TodoFormat Fuzz -name '*.swift' | sort)
if [ ! -x "$binary" ] || [ -n "$(find $sources -newer "$binary" | head -1)" ]; then
    echo "== building $binary"
    # shellcheck disable=SC2086
    swiftc -sanitize=fuzzer,address -parse-as-library -O -g -module-name TodoFormat -D YAML \
        -I Sources/CYAML -I Sources/CSQLite $sources -lyaml -lsqlite3 -o "$binary" >"$work/build.log" 2>&1 ||
        { grep -E 'error' "$work/build.log" | head -20; exit 1; }
fi

seed() {
    local target=$1 corpus=$work/corpus/$1
    [ -d "$corpus" ] && return
    mkdir -p "$corpus"
    local patterns
    case $target in
        markdown) patterns='*.md' ;;
        yaml) patterns='*.yaml *.yml' ;;
        json) patterns='*.json' ;;
        plist | bplist) patterns='*.plist' ;;
        sql) patterns='*.sql *.dump' ;;
        merge) patterns='' ;;
    esac
    for pattern in $patterns; do
        find samples Tests -name "$pattern" -size -64k -exec cp {} "$corpus/" \; 2>/dev/null || true
    done
    if [ "$target" = merge ]; then
        # Three checklists a seed, NUL between them: the base and two edits of it.
        local i=0
        for f in $(find samples Tests -name '*.md' -size -8k | head -40); do
            { cat "$f"; printf '\0'; sed 's/- \[ \]/- [x]/' "$f"; printf '\0'; cat "$f"; echo '- [ ] added'; } >"$corpus/seed-$i"
            i=$((i + 1))
        done
    fi
    if [ "$target" = bplist ] || [ "$target" = plist ]; then
        # Keep the kind the target reads: binary ones start with bplist00.
        for f in "$corpus"/*; do
            [ -f "$f" ] || continue
            if head -c 8 "$f" | grep -q bplist00; then [ "$target" = plist ] && rm "$f"; else [ "$target" = bplist ] && rm "$f"; fi
        done
    fi
    return 0
}

run() {
    local target=$1
    seed "$target"
    mkdir -p "$work/crashes/$target"
    echo "== $target for ${seconds}s"
    TODOFMT_FUZZ_TARGET=$target "$binary" "$work/corpus/$target" -max_total_time="$seconds" -timeout=10 \
        -rss_limit_mb=2048 -artifact_prefix="$work/crashes/$target/" -print_final_stats=1 \
        >"$work/$target.log" 2>&1 || true
    grep -E '^(stat::number_of_executed_units|stat::peak_rss_mb|#[0-9]+.*(DONE|cov))' "$work/$target.log" | tail -3 | sed "s/^/$target: /"
    local found
    found=$(find "$work/crashes/$target" -type f | wc -l)
    echo "$target: $found input(s) kept in $work/crashes/$target"
}

if [ "$which" = all ]; then
    if [ "${JOBS:-1}" -ge 2 ]; then
        printf '%s\n' "${targets[@]}" | xargs -P "$JOBS" -I{} "$0" {} "$seconds"
    else
        for t in "${targets[@]}"; do run "$t"; done
    fi
else
    run "$which"
fi
