#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Pass-through under real compositors, in one QEMU guest boot: cage, sway,
# weston, mutter and KWin (Debian's) read a uinput touchscreen directly and through touchd's
# mirror; a Wayland client of ours (scripts/touch-recorder.c) records what
# the app gets; scripts/compositor_cases.py plays the cases and prints a
# table (compositor, case, without touchd, with touchd, verdict).
# docs/pass-through.md, "Testing under real compositors".
#
# Usage: scripts/compositor-test.sh [--bench] [--compositors LIST] [--cases LIST]
#   --bench        the latency from a write into the touchscreen to the app (p50/p99),
#                  without and with touchd and interception-tools, instead of the cases.
# Environment: SWIFT, VM_DIR (default .build-vm), VM_MEMORY (2G), VM_CPUS (2),
#              VM_TIMEOUT (default 1800 s), COMPOSITORS (default cage,sway,weston,mutter,kwin;
#              with --bench, sway; each installed when missing),
#              BENCH_TAPS (default 100 taps per pass, two rounds of passes),
#              TOUCHD (a touchd binary to use instead of building one), TOUCHCTL
#              (default: touchctl beside TOUCHD).
# Exit status: 0 every case passed with and without touchd, 1 a case failed,
#              2 the guest could not run.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT="$PWD"
VM_DIR="${VM_DIR:-$ROOT/.build-vm}"
VM_MEMORY="${VM_MEMORY:-2G}"
VM_CPUS="${VM_CPUS:-2}"
VM_TIMEOUT="${VM_TIMEOUT:-1800}"
BENCH_TAPS="${BENCH_TAPS:-100}"
SWIFT="${SWIFT:-$(command -v swift || echo /opt/swift/usr/bin/swift)}"
MODE=test
CASES=""
while (($#)); do
    case "$1" in
        --bench) MODE=bench ;;
        --compositors) COMPOSITORS="$2"; shift ;;
        --cases) CASES="$2"; shift ;;
        -h|--help) sed -n '2,18p' "$0"; exit 0 ;;
        *) echo "compositor-test: unknown argument $1" >&2; exit 2 ;;
    esac
    shift
done
if [ -z "${COMPOSITORS:-}" ]; then
    if [ "$MODE" = bench ]; then COMPOSITORS=sway; else COMPOSITORS=cage,sway,weston,mutter,kwin; fi
fi
log() { printf 'compositor-test: %s\n' "$*" >&2; }
now() { date +%s.%N; }
elapsed() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }'; }
t_start=$(now)

# --- tools: the guest's (vm-test.sh), the compositors, the client's build ------
VM_DIR="$VM_DIR" scripts/vm-test.sh --install-only
# xwayland: cage aborts without it. wev: for people reproducing by hand.
# interception-tools: the bench's reference forwarder.
APT_PKGS=(sway cage weston xwayland seatd wev libwayland-dev wayland-protocols gcc util-linux interception-tools)
# KWin (~40 MB) and mutter (~60 MB) when in the list: python3-dbusmock for their stand-in logind.
case ",$COMPOSITORS," in *,kwin,*) APT_PKGS+=(kwin-wayland python3-dbusmock dbus-daemon dbus-bin) ;; esac
case ",$COMPOSITORS," in *,mutter,*) APT_PKGS+=(mutter gsettings-desktop-schemas python3-dbusmock dbus-daemon dbus-bin) ;; esac
missing=()
for p in "${APT_PKGS[@]}"; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
if ((${#missing[@]})); then
    [ "$(id -u)" = 0 ] || { log "need root to install: ${missing[*]}"; exit 2; }
    log "installing ${missing[*]}"
    apt-get -o DPkg::Lock::Timeout=600 update -qq
    DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# --- build: touchd on the host, the recorder client -----------------------------
if [ -n "${TOUCHD:-}" ]; then
    log "touchd: $TOUCHD (as given)"
    TOUCHCTL="${TOUCHCTL:-$(dirname "$TOUCHD")/touchctl}"
else
    # Release, as deployed (and `make test` builds them for the CLI checks anyway).
    "$SWIFT" build -c release --static-swift-stdlib --product touchd
    "$SWIFT" build -c release --static-swift-stdlib --product touchctl
    TOUCHD="$ROOT/.build/release/touchd"
    TOUCHCTL="$ROOT/.build/release/touchctl"
fi
CLIENT_DIR="$VM_DIR/touch-recorder"
mkdir -p "$CLIENT_DIR"
XDG_XML=/usr/share/wayland-protocols/stable/xdg-shell/xdg-shell.xml
wayland-scanner client-header "$XDG_XML" "$CLIENT_DIR/xdg-shell-client-protocol.h"
wayland-scanner private-code "$XDG_XML" "$CLIENT_DIR/xdg-shell-protocol.c"
cc -O2 -Wall -Wextra -Werror -I"$CLIENT_DIR" -o "$CLIENT_DIR/touch-recorder" \
    scripts/touch-recorder.c "$CLIENT_DIR/xdg-shell-protocol.c" -lwayland-client
log "built ($(elapsed "$t_start") s)"

# --- one guest boot --------------------------------------------------------------
KERNEL=$(ls /boot/vmlinuz-* 2>/dev/null | sort -V | tail -n 1)
[ -n "$KERNEL" ] || { log "no kernel in /boot (apt-get install linux-image-amd64)"; exit 2; }
RESULTS="$VM_DIR/compositor-$MODE"
rm -rf "$RESULTS"; mkdir -p "$RESULTS"
chmod 0777 "$RESULTS"
KVM_OPT=(--disable-kvm)
if grep -qE '^kvm_(intel|amd) ' /proc/modules 2>/dev/null && [ -w /dev/kvm ]; then KVM_OPT=(); fi
export PATH="$VM_DIR/venv/bin:$PATH"
cat >"$RESULTS/guest.sh" <<GUEST_EOF
for m in /usr/sbin/modprobe /sbin/modprobe; do [ -x \$m ] && { \$m uinput; \$m virtio_gpu; break; }; done
cd "$ROOT"
/usr/bin/python3 scripts/compositor_cases.py $MODE --touchd "$TOUCHD" --touchctl "$TOUCHCTL" --recorder "$CLIENT_DIR/touch-recorder" \
    --results "$RESULTS" --compositors "$COMPOSITORS" --cases "$CASES" --taps "$BENCH_TAPS" \
    >"$RESULTS/table.md" 2>"$RESULTS/guest.log"
echo \$? > "$RESULTS/status"
GUEST_EOF
log "booting $(basename "$KERNEL") (${KVM_OPT[*]:-kvm}, $VM_MEMORY, $VM_CPUS cpus, virtio-gpu): $MODE on $COMPOSITORS"
t_boot=$(now)
set +e
# A virtual GPU (1280x720) gives weston, mutter and KWin their DRM backend; wlroots runs headless.
# Its second head (max_outputs=2) stays disconnected (QEMU enables the first only) until
# mutter-touchscreen-output forces it on for mutter (/sys/class/drm/card0-Virtual-2/status).
# QEMU gives a disabled head no mode: the kernel's built-in 1024x768 EDID gives it its modes.
timeout "$VM_TIMEOUT" vng "${KVM_OPT[@]}" --memory "$VM_MEMORY" --cpus "$VM_CPUS" --rwdir "$RESULTS" \
    --append "drm.edid_firmware=Virtual-2:edid/1024x768.bin" \
    --qemu-opts="-device virtio-gpu-pci,xres=1280,yres=720,max_outputs=2" \
    --run "$KERNEL" --exec "/bin/bash $RESULTS/guest.sh" </dev/null 2>&1 | cat >"$RESULTS/vng.log"
set -e
if [ ! -f "$RESULTS/status" ]; then
    log "the guest reported nothing; last lines of $RESULTS/vng.log and guest.log:"
    tail -n 30 "$RESULTS/vng.log" "$RESULTS/guest.log" >&2 || true
    exit 2
fi
status=$(cat "$RESULTS/status")
cat "$RESULTS/table.md"
log "guest: exit $status; boot to power-off $(elapsed "$t_boot") s; total $(elapsed "$t_start") s"
log "logs: $RESULTS (guest.log: each case as it ran; compositor, touchd and seatd logs)"
if [ "$status" != 0 ]; then
    # Last, so that a CI log cut to its tail still says what failed and why.
    log "what failed, from guest.log (restarts included):"
    grep -E ': FAIL |did not|restarting|error' "$RESULTS/guest.log" | cut -c1-400 | tail -n 25 >&2 || true
fi
[ "$status" = 0 ] || [ "$status" = 1 ] || status=2
exit "$status"
