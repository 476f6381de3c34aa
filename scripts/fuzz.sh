#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Builds the libFuzzer harnesses of Fuzz/ (with AddressSanitizer) and the C
# client's parser harness (clients/c/fuzz, ASan and UBSan), and runs each
# for a bounded time; prints the executions each reached. See docs/reliability.md.
#
#   scripts/fuzz.sh                       every harness, FUZZ_SECONDS (60) each
#   FUZZ_SECONDS=20 scripts/fuzz.sh       shorter (make fuzz-short)
#   FUZZ_JOBS=1 scripts/fuzz.sh           one harness at a time (default: one per core)
#   scripts/fuzz.sh fuzz-evemu ...        only these harnesses
#
# Per harness, under .build-fuzz/fuzz-runs/<harness>/: seeds/ (regenerated
# from Tests/Fixtures/real and docs/schemas on every run), corpus/ (what
# libFuzzer found interesting; kept between runs, so later runs start further),
# artifacts/ (crashing inputs) and log. Exits 1 when a harness finds a crash or
# an invariant violation; rerun one input with
#   SWIFT_BACKTRACE=enable=no .build-fuzz/debug/<harness> <artifact>
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
SWIFT=${SWIFT:-swift}
SECONDS_EACH=${FUZZ_SECONDS:-60}
OUT=${FUZZ_OUT:-$ROOT/.build-fuzz/fuzz-runs}
ALL="fuzz-evemu fuzz-libinput-yaml fuzz-yaml-config fuzz-native-trace fuzz-wire-request fuzz-request-frames fuzz-pipeline-engine fuzz-c-parser"
HARNESSES=${*:-$ALL}

declare -A MAXLEN=([fuzz-pipeline-engine]=1024 [fuzz-wire-request]=2048 [fuzz-request-frames]=2048)
declare -A DICT=(
    [fuzz-evemu]=Fuzz/dictionaries/evemu.dict [fuzz-libinput-yaml]=Fuzz/dictionaries/libinput-yaml.dict
    [fuzz-yaml-config]=Fuzz/dictionaries/yaml-config.dict [fuzz-native-trace]=Fuzz/dictionaries/native-trace.dict
    [fuzz-wire-request]=Fuzz/dictionaries/wire.dict [fuzz-request-frames]=Fuzz/dictionaries/wire.dict
    [fuzz-c-parser]=clients/c/fuzz/server-lines.dict
)

# The harnesses are targets of the main package declared with
# TOUCHD_EXTRA_TARGETS=fuzz (Package.swift), built in .build-fuzz.
# --sanitize=fuzzer: libFuzzer provides main. -Xswiftc -sanitize=fuzzer,address:
# coverage and ASan in every Swift module (SwiftPM's two separate --sanitize
# flags reach the compiler as the last one only, which leaves the code
# uninstrumented).
FUZZ_BUILD=(env TOUCHD_EXTRA_TARGETS=fuzz "$SWIFT" build --scratch-path "$ROOT/.build-fuzz" --sanitize=fuzzer -Xswiftc -sanitize=fuzzer,address)
if [ -n "$(echo " $HARNESSES " | sed 's/ fuzz-c-parser / /g' | tr -d ' ')" ]; then
    echo "== building the harnesses (debug, -sanitize=fuzzer,address)"
    start=$(date +%s)
    mkdir -p "$OUT"
    : >"$OUT/build.log"
    # One product at a time: touchd's and touchctl's own `main` would clash with libFuzzer's.
    rc=0
    for h in $HARNESSES; do
        [ "$h" = fuzz-c-parser ] && continue
        (cd "$ROOT" && "${FUZZ_BUILD[@]}" --product "$h") >>"$OUT/build.log" 2>&1 || { rc=1; break; }
    done
    grep -E "error|warning: " "$OUT/build.log" | grep -v "Cannot export local symbol" | grep -v "/checkouts/"
    if [ $rc != 0 ]; then echo "building the harnesses failed (see $OUT/build.log)" >&2; exit 1; fi
    BIN=$(cd "$ROOT" && "${FUZZ_BUILD[@]}" --show-bin-path)
    echo "== built in $(( $(date +%s) - start )) s"
fi

export SWIFT_BACKTRACE=enable=no  # a crash otherwise takes minutes to symbolicate
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0:handle_abort=1}

# Runs one harness; its result line goes to <dir>/result, 1 to <dir>/failed on a finding.
run_one() {
    local h=$1 dir="$OUT/$1" harness rc execs cov corpus verdict
    rm -rf "$dir/seeds" "$dir/result" "$dir/failed"
    mkdir -p "$dir/corpus" "$dir/artifacts"
    if [ "$h" = fuzz-c-parser ]; then
        # The C client's parser (clients/c/fuzz), seeded with the protocol's example lines.
        make -s -C "$ROOT/clients/c" FUZZ_OUT="$OUT/c-build" fuzz >"$dir/build.log" 2>&1 \
            || { echo "$h: does not build (clang -fsanitize=fuzzer): see $dir/build.log" >"$dir/result"; echo 1 >"$dir/failed"; return; }
        harness="$OUT/c-build/fuzz-parser"
        mkdir -p "$dir/seeds"
        i=0; python3 "$ROOT/docs/schemas/corpus.py" lines | while IFS= read -r l; do i=$((i + 1)); printf '%s' "$l" >"$dir/seeds/$i"; done
    else
        if [ ! -x "$BIN/$h" ]; then echo "no harness $h in $BIN" >"$dir/result"; echo 1 >"$dir/failed"; return; fi
        harness="$BIN/$h"
        TOUCHD_FUZZ_SEEDS="$dir/seeds" "$harness" >/dev/null || { echo "$h: cannot write its seeds" >"$dir/result"; echo 1 >"$dir/failed"; return; }
    fi
    args=(-max_total_time="$SECONDS_EACH" -print_final_stats=1 -timeout=10 -rss_limit_mb=2048
          -artifact_prefix="$dir/artifacts/" -close_fd_mask=1)
    [ -n "${DICT[$h]:-}" ] && args+=(-dict="$ROOT/${DICT[$h]}")
    # Small inputs run faster; the readers work line by line, so size adds little coverage.
    args+=(-max_len="${MAXLEN[$h]:-8192}")
    echo "== $h: ${SECONDS_EACH} s, seeds $(ls "$dir/seeds" | wc -l), corpus $(ls "$dir/corpus" | wc -l)"
    "$harness" "${args[@]}" "$dir/corpus" "$dir/seeds" >"$dir/log" 2>&1
    rc=$?
    execs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$dir/log" | grep -o '[0-9]*$' | tail -1)
    cov=$(grep -o 'cov: [0-9]*' "$dir/log" | tail -1 | grep -o '[0-9]*')
    corpus=$(ls "$dir/corpus" | wc -l)
    if [ $rc -ne 0 ]; then
        echo 1 >"$dir/failed"
        verdict="FOUND (exit $rc): $(ls -t "$dir/artifacts" | head -1)"
        grep -m3 "FUZZ INVARIANT VIOLATED\|Fatal error\|ERROR: AddressSanitizer\|ERROR: libFuzzer" "$dir/log" | sed 's/^/    /'
    else
        verdict="ok"
    fi
    printf '%-22s %12s execs %6s s  cov %6s  corpus %5s  %s\n' "$h" "${execs:-?}" "$SECONDS_EACH" "${cov:-?}" "$corpus" "$verdict" >"$dir/result"
    cat "$dir/result"
}

# libFuzzer runs one thread: FUZZ_JOBS harnesses at a time (default: one per core).
JOBS=${FUZZ_JOBS:-$(nproc)}
for h in $HARNESSES; do
    while [ "$(jobs -rp | wc -l)" -ge "$JOBS" ]; do wait -n; done
    run_one "$h" &
done
wait

status=0
results=()
for h in $HARNESSES; do
    results+=("$(cat "$OUT/$h/result" 2>/dev/null || echo "$h: no result")")
    if [ -e "$OUT/$h/failed" ] || [ ! -e "$OUT/$h/result" ]; then status=1; fi
done
echo
echo "== summary"
for r in "${results[@]}"; do echo "$r"; done
exit $status
