#!/bin/bash
# Runs inside the virtme-ng guest started by scripts/vm-test.sh (PATH is reset
# there, so every tool is called by its full path).
# Usage: vm-guest.sh REPO_ROOT RESULT_DIR FILTER
ROOT="$1"; RESULTS="$2"; FILTER="$3"
cd "$ROOT" || exit 2
export NO_COLOR=1
for m in /usr/sbin/modprobe /sbin/modprobe; do
    if [ -x "$m" ]; then "$m" uinput; break; fi
done
if [ ! -e /dev/uinput ]; then
    echo "vm-guest: /dev/uinput missing after modprobe uinput" >"$RESULTS/guest.log"
    echo 2 >"$RESULTS/status"
    exit 2
fi
start=$(/usr/bin/date +%s.%N)
"$ROOT/.build/debug/touchdPackageTests.xctest" --testing-library swift-testing --filter "$FILTER" \
    >"$RESULTS/guest.log" 2>&1
status=$?
end=$(/usr/bin/date +%s.%N)
echo "$status" >"$RESULTS/status"
/usr/bin/awk -v a="$start" -v b="$end" 'BEGIN { printf "%.2f\n", b - a }' >"$RESULTS/seconds"
exit "$status"
