#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Builds the unit tests under AddressSanitizer and ThreadSanitizer and runs
# them (docs/reliability.md, "Sanitizers"). Suites that need /dev/uinput skip
# themselves on a host without it; `make test-vm` runs those in a guest.
#
#   scripts/sanitize.sh              address, then thread
#   scripts/sanitize.sh thread       one of them
#
# Build directories: .build-asan and .build-tsan (kept, so a rerun is incremental).
# Logs: .build-asan/sanitize.log, .build-tsan/sanitize.log. Exits 1 when a
# build fails, a test fails, or a sanitizer reports anything.
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
SWIFT=${SWIFT:-swift}
KINDS=${*:-address thread}
cd "$ROOT"

export SWIFT_BACKTRACE=enable=no
# halt_on_error=0: report every problem of the run, not only the first.
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0:halt_on_error=0}
export TSAN_OPTIONS=${TSAN_OPTIONS:-halt_on_error=0:second_deadlock_stack=1:suppressions=$ROOT/scripts/tsan-suppressions.txt}

status=0
for kind in $KINDS; do
    case $kind in
        address) dir=.build-asan; tag="AddressSanitizer" ;;
        thread) dir=.build-tsan; tag="ThreadSanitizer" ;;
        *) echo "unknown sanitizer $kind (address or thread)" >&2; exit 2 ;;
    esac
    mkdir -p "$dir"
    log="$dir/sanitize.log"
    echo "== $kind: swift build --build-tests --sanitize=$kind --build-path $dir"
    start=$(date +%s)
    "$SWIFT" build --build-tests --sanitize="$kind" --build-path "$dir" >"$dir/build.log" 2>&1
    rc=$?
    grep -E "error|warning: " "$dir/build.log" | grep -v "Cannot export local symbol" | grep -v "/checkouts/"
    if [ $rc != 0 ]; then echo "$kind: build failed (see $dir/build.log)" >&2; status=1; continue; fi
    built=$(date +%s)
    echo "== $kind: built in $((built - start)) s; swift test --skip-build --no-parallel --sanitize=$kind --build-path $dir"
    "$SWIFT" test --skip-build --no-parallel --sanitize="$kind" --build-path "$dir" >"$log" 2>&1
    rc=$?
    reports=$(grep -c "WARNING: $tag\|ERROR: $tag" "$log")
    summary=$(grep -E "Test run with [0-9]+ tests.*(passed|failed)" "$log" | tail -1)
    echo "== $kind: tests exit $rc in $(( $(date +%s) - built )) s; $tag reports: $reports; $summary"
    grep -A12 "WARNING: $tag\|ERROR: $tag" "$log" | head -60
    if [ $rc -ne 0 ] || [ "$reports" != 0 ]; then status=1; fi
done
exit $status
