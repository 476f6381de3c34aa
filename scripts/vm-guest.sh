#!/bin/bash
# SPDX-License-Identifier: MIT
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
export TOUCHD_VM_GUEST=1
BUNDLE="$ROOT/.build/debug/touchdPackageTests.xctest"
# UdevRulesInstallTests installs touchd's udev rules into this guest's udevd
# (and its groups into the /etc overlay): it runs alone, after the others,
# so that their devices never see those rules.
RULES_SUITE=UdevRulesInstallTests
# DaemonLiveTests runs touchd on every touch device of the guest: alone too,
# so that other suites' devices neither reach it nor compete with it for time.
# TouchctlLiveTests finds its uinput devices by name, which other suites'
# devices can share: alone as well.
ALONE_SUITES="DaemonLiveTests TouchctlLiveTests"
start=$(/usr/bin/date +%s.%N)
"$BUNDLE" --testing-library swift-testing --filter "$FILTER" --skip "$RULES_SUITE|DaemonLiveTests|TouchctlLiveTests" >"$RESULTS/guest.log" 2>&1
status=$?
for suite in $ALONE_SUITES; do
    if echo "TouchDaemonTests.$suite" | /usr/bin/grep -Eq -- "$FILTER"; then
        "$BUNDLE" --testing-library swift-testing --filter "$suite" >>"$RESULTS/guest.log" 2>&1
        alone_status=$?
        if [ "$status" = 0 ] || [ "$status" = 69 ]; then status=$alone_status; fi
    fi
done
if echo "UdevTests.$RULES_SUITE" | /usr/bin/grep -Eq -- "$FILTER"; then
    "$BUNDLE" --testing-library swift-testing --filter "$RULES_SUITE" >>"$RESULTS/guest.log" 2>&1
    rules_status=$?
    # 69: the first run matched no test (FILTER names only the rules suite).
    if [ "$status" = 0 ] || [ "$status" = 69 ]; then status=$rules_status; fi
fi
end=$(/usr/bin/date +%s.%N)
echo "$status" >"$RESULTS/status"
/usr/bin/awk -v a="$start" -v b="$end" 'BEGIN { printf "%.2f\n", b - a }' >"$RESULTS/seconds"
exit "$status"
