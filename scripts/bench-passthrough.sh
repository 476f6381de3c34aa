#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Pass-through's forwarding cost in a QEMU guest, side by side with
# interception-tools (`interception -g DEV | uinput -d DEV`, Debian's name for
# `intercept`, which forwards
# without recognizing anything) in the same boot: the same 10-finger 240 Hz
# stream, the latency from a frame's write into the touchscreen to its
# forwarded copy (p50/p99), and the forwarder's CPU time. Prints a table;
# docs/performance.md, "Pass-through", explains the method.
#
# Usage: scripts/bench-passthrough.sh
# Environment: SWIFT, VM_DIR (default .build-vm), VM_MEMORY (2G), VM_CPUS (2),
#              STREAM_SECONDS (default 20), VM_TIMEOUT (default 900 s).
# Needs (installed when missing, as root): what scripts/vm-test.sh installs, interception-tools.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT="$PWD"
VM_DIR="${VM_DIR:-$ROOT/.build-vm}"
VM_MEMORY="${VM_MEMORY:-2G}"
VM_CPUS="${VM_CPUS:-2}"
VM_TIMEOUT="${VM_TIMEOUT:-900}"
STREAM_SECONDS="${STREAM_SECONDS:-20}"
SWIFT="${SWIFT:-$(command -v swift || echo /opt/swift/usr/bin/swift)}"
log() { printf 'bench-passthrough: %s\n' "$*" >&2; }

VM_DIR="$VM_DIR" scripts/vm-test.sh --install-only
if [ ! -x /usr/bin/interception ] || [ ! -x /usr/bin/uinput ]; then
    [ "$(id -u)" = 0 ] || { log "need root to install interception-tools"; exit 2; }
    log "installing interception-tools"
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends interception-tools >/dev/null
fi
"$SWIFT" build -c release --static-swift-stdlib --product touchd
RESULTS="$VM_DIR/bench-passthrough"
rm -rf "$RESULTS"; mkdir -p "$RESULTS"

KERNEL=$(ls /boot/vmlinuz-* 2>/dev/null | sort -V | tail -n 1)
[ -n "$KERNEL" ] || { log "no kernel in /boot"; exit 2; }
KVM_OPT=(--disable-kvm)
if grep -qE '^kvm_(intel|amd) ' /proc/modules 2>/dev/null && [ -w /dev/kvm ]; then KVM_OPT=(); fi
export PATH="$VM_DIR/venv/bin:$PATH"
# touchd, interception-tools, twice each: the spread within the boot.
cat >"$RESULTS/guest.sh" <<GUEST_EOF
for m in /usr/sbin/modprobe /sbin/modprobe; do [ -x \$m ] && \$m uinput && break; done
cd "$ROOT"
for mode in touchd interception touchd interception; do
  if [ \$mode = touchd ]; then set -- touchd "$ROOT/.build/release/touchd"; else set -- interception; fi
  /usr/bin/python3 scripts/bench-passthrough.py "\$@" $STREAM_SECONDS >>"$RESULTS/results.txt" 2>>"$RESULTS/guest.log"
done
echo 0 > "$RESULTS/status"
GUEST_EOF
log "booting $(basename "$KERNEL") (${KVM_OPT[*]:-kvm}, $VM_MEMORY, $VM_CPUS cpus)"
set +e
timeout "$VM_TIMEOUT" vng "${KVM_OPT[@]}" --memory "$VM_MEMORY" --cpus "$VM_CPUS" --rwdir "$RESULTS" \
    --run "$KERNEL" --exec "/bin/bash $RESULTS/guest.sh" </dev/null 2>&1 | cat >"$RESULTS/vng.log"
set -e
if [ "$(cat "$RESULTS/status" 2>/dev/null)" != 0 ] || [ ! -s "$RESULTS/results.txt" ]; then
    log "the guest run failed:"; tail -n 30 "$RESULTS/guest.log" "$RESULTS/vng.log" >&2 || true
    exit 2
fi
printf '| forwarder | frames written / forwarded | latency p50 | p99 | max | CPU s over %s s |\n|---|---|---|---|---|---|\n' "$STREAM_SECONDS"
sed 's/=/ /g' "$RESULTS/results.txt" | awk '{ v["mode"]=$2; printf "| %s | %s / %s | %s us | %s us | %s us | %s |\n", $2, $4, $6, $8, $10, $12, $14 }'
