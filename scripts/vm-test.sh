#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Runs the tests that need a real kernel (uinput, evdev, udev) in one QEMU guest
# booted by virtme-ng, after building the test bundle on the host. The host
# kernel has no uinput; the guest boots Debian's stock kernel over a read-only
# view of the host's filesystem, so the host-built bundle runs there as is.
#
# Usage: scripts/vm-test.sh [--install-only] [FILTER]
#   FILTER  Swift Testing filter (default: the suites that touch the kernel).
# Environment: SWIFT (swift binary), VM_MEMORY (default 2G), VM_CPUS (default 2),
#              VM_DIR (tool and result directory, default .build-vm),
#              VM_TIMEOUT (seconds before the guest is killed, default 1800).
# Exit status: the guest test run's status (0 = all passed), 2 when the guest
# could not be booted or reported nothing.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT="$PWD"

VM_DIR="${VM_DIR:-$ROOT/.build-vm}"
VM_MEMORY="${VM_MEMORY:-2G}"
VM_CPUS="${VM_CPUS:-2}"
VM_TIMEOUT="${VM_TIMEOUT:-1800}"
FILTER_DEFAULT='EvdevTests|UdevTests|LiveInputTests|LiveTouchSessionTests|TouchctlLiveTests|DaemonLiveTests|DaemonLiveReloadTests|PassThroughTests|PassThroughRestartTests|ServiceLifecycleTests|PassThroughPenTests|ShortcutKeyboardTests|SecondaryClickTests|LockedKeysTests|FocusKeysTests'
INSTALL_ONLY=0
FILTER="$FILTER_DEFAULT"
for arg in "$@"; do
    case "$arg" in
        --install-only) INSTALL_ONLY=1 ;;
        -h|--help) sed -n '2,12p' "$0"; exit 0 ;;
        *) FILTER="$arg" ;;
    esac
done

log() { printf 'vm-test: %s\n' "$*" >&2; }
now() { date +%s.%N; }
elapsed() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }'; }

t_start=$(now)

# --- (a) tools: qemu, a kernel, busybox for the initramfs, virtme-ng --------
# libinput-tools: MirrorDeviceTests run `libinput debug-events` on touchd's pass-through mirror.
APT_PKGS=(qemu-system-x86 linux-image-amd64 busybox-static libinput-tools dbus-daemon dbus-bin python3-dbusmock)
install_tools() {
    local missing=()
    for p in "${APT_PKGS[@]}"; do
        dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
    done
    if ((${#missing[@]})); then
        if [ "$(id -u)" != 0 ]; then
            log "need root to install: ${missing[*]}"; exit 2
        fi
        log "installing ${missing[*]}"
        apt-get update -qq
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
    fi
    if [ ! -x "$VM_DIR/venv/bin/vng" ]; then
        log "installing virtme-ng into $VM_DIR/venv"
        mkdir -p "$VM_DIR"
        python3 -m venv "$VM_DIR/venv"
        "$VM_DIR/venv/bin/pip" install -q virtme-ng
    fi
}
install_tools
log "tools ready ($(elapsed "$t_start") s)"
[ "$INSTALL_ONLY" = 1 ] && exit 0

# --- (b) build the test bundle on the host ----------------------------------
SWIFT="${SWIFT:-$(command -v swift || echo /opt/swift/usr/bin/swift)}"
t_build=$(now)
"$SWIFT" build --build-tests
BUNDLE="$ROOT/.build/debug/touchdPackageTests.xctest"
[ -x "$BUNDLE" ] || { log "test bundle missing: $BUNDLE"; exit 2; }
log "built ($(elapsed "$t_build") s)"

# --- (c) one guest boot: modprobe uinput, run the bundle ---------------------
KERNEL=$(ls /boot/vmlinuz-* 2>/dev/null | sort -V | tail -n 1)
[ -n "$KERNEL" ] || { log "no kernel in /boot (apt-get install linux-image-amd64)"; exit 2; }
RESULTS="$VM_DIR/results"
rm -rf "$RESULTS"; mkdir -p "$RESULTS"

# KVM only with a real kvm_intel/kvm_amd; other KVM flavours hang or abort QEMU.
KVM_OPT=(--disable-kvm)
if grep -qE '^kvm_(intel|amd) ' /proc/modules 2>/dev/null && [ -w /dev/kvm ]; then KVM_OPT=(); fi

export PATH="$VM_DIR/venv/bin:$PATH"
t_boot=$(now)
log "booting $(basename "$KERNEL") (${KVM_OPT[*]:-kvm}, $VM_MEMORY, $VM_CPUS cpus), filter '$FILTER'"
set +e
# vng's stdout and stderr must go through a pipe, not one file (QEMU opens them separately).
GUEST_CMD=$(printf '/bin/bash %q %q %q %q' "$ROOT/scripts/vm-guest.sh" "$ROOT" "$RESULTS" "$FILTER")
# /etc is a throwaway overlay: the udev rules test creates touchd's groups there.
timeout "$VM_TIMEOUT" vng "${KVM_OPT[@]}" --memory "$VM_MEMORY" --cpus "$VM_CPUS" --rwdir "$RESULTS" --overlay-rwdir /etc \
    --run "$KERNEL" --exec "$GUEST_CMD" \
    </dev/null 2>&1 | cat >"$RESULTS/vng.log"
vng_status=${PIPESTATUS[0]}
set -e

# --- (d) report ---------------------------------------------------------------
if [ ! -f "$RESULTS/status" ]; then
    log "the guest reported nothing (vng exit $vng_status); last lines of $RESULTS/vng.log:"
    tail -n 30 "$RESULTS/vng.log" >&2
    exit 2
fi
status=$(cat "$RESULTS/status")
# Results only: one line per test (with its argument count), issues, skips, the total.
grep -vE ' started\.$|^↳' "$RESULTS/guest.log" || true
log "guest tests: exit $status in $(cat "$RESULTS/seconds" 2>/dev/null || echo '?') s; boot to power-off $(elapsed "$t_boot") s; total $(elapsed "$t_start") s"
log "full guest log: $RESULTS/guest.log"
if [ "$status" != 0 ]; then
    # Last, so that a CI log cut to its tail still names what failed.
    log "what failed:"
    grep -E '✘|error:|Fatal error' "$RESULTS/guest.log" | cut -c1-400 | tail -n 25 >&2 || true
fi
exit "$status"
