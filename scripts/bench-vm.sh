#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Daemon cost in a QEMU guest (the host has no uinput): touchd's memory with
# 4 idle touchscreens and 100 subscribed clients, and its CPU time against
# `libinput debug-events` reading the same uinput device while a 10-finger
# 240 Hz synthetic stream and real recordings are replayed into it. Prints a
# table; docs/performance.md explains the method.
#
# Usage: scripts/bench-vm.sh
# Environment: SWIFT, VM_MEMORY (default 2G), VM_CPUS (default 2),
#              VM_DIR (default .build-vm), VM_TIMEOUT (default 1800 s),
#              STREAM_SECONDS (synthetic stream length, default 20),
#              BENCH_VM_PROFILE=1 (instead: `perf record` of touchd with one
#              client on the synthetic stream; reports in .build-vm/bench).
# Needs (installed when missing, as root): what scripts/vm-test.sh installs,
# libinput-tools, linux-perf (the task clock of each process), and
# libinput-dev with a C compiler (scripts/libinput-forward.c, libinput
# forwarding each frame to a socket client: the -forwarded row).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT="$PWD"
VM_DIR="${VM_DIR:-$ROOT/.build-vm}"
VM_MEMORY="${VM_MEMORY:-2G}"
VM_CPUS="${VM_CPUS:-2}"
VM_TIMEOUT="${VM_TIMEOUT:-1800}"
STREAM_SECONDS="${STREAM_SECONDS:-20}"
SWIFT="${SWIFT:-$(command -v swift || echo /opt/swift/usr/bin/swift)}"
log() { printf 'bench-vm: %s\n' "$*" >&2; }

# --- tools: the guest machinery of vm-test.sh, and libinput ------------------
VM_DIR="$VM_DIR" scripts/vm-test.sh --install-only
if ! command -v libinput >/dev/null || [ ! -x /usr/libexec/libinput/libinput-debug-events ]; then
    [ "$(id -u)" = 0 ] || { log "need root to install libinput-tools"; exit 2; }
    log "installing libinput-tools"
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends libinput-tools >/dev/null
fi
if [ ! -x /usr/bin/perf ]; then
    [ "$(id -u)" = 0 ] || { log "need root to install linux-perf"; exit 2; }
    log "installing linux-perf"
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends linux-perf >/dev/null
fi
if [ ! -f /usr/include/libinput.h ]; then
    [ "$(id -u)" = 0 ] || { log "need root to install libinput-dev"; exit 2; }
    log "installing libinput-dev"
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends libinput-dev gcc libc6-dev >/dev/null
fi

# --- release binaries and the traces, on the host -----------------------------
"$SWIFT" build -c release --static-swift-stdlib --product touchd && "$SWIFT" build -c release --static-swift-stdlib --product touchctl
RESULTS="$VM_DIR/bench"
TRACES="$RESULTS/traces"
rm -rf "$RESULTS"; mkdir -p "$TRACES"
cc -O2 -Wall -Wextra -Werror -o "$RESULTS/libinput-forward" scripts/libinput-forward.c -linput
TS="Tests/Fixtures/real/evemu-devices/touchscreens"
DESC="$TS/Atmel maXTouch Touchscreen.desc"
tools() { python3 scripts/bench-tools.py "$@"; }
tools idle "$DESC" "$TRACES/idle.events" --seconds 600
tools synthetic "$DESC" "$TRACES/synthetic-short.events" --seconds 2 --rate 240 >/dev/null
tools synthetic "$DESC" "$TRACES/synthetic.events" --seconds "$STREAM_SECONDS" --rate 240 >"$TRACES/synthetic.count"
echo "$STREAM_SECONDS" >"$TRACES/synthetic.seconds"
list="synthetic synthetic-1-client synthetic-1-client-16ms synthetic-1-client-piped synthetic-1-client-forwarded"
# The three rows that compare touchd with and without a client, once more (the spread within a boot).
list="$list synthetic.2 synthetic-1-client.2 synthetic-1-client-forwarded.2"
# Two real recordings: a 4-finger drag (Atmel) and a 2-finger scroll (EP0430M09).
add_real() {
    local name="$1" events="$2" desc="$3"
    tools lead-in "$events" "$TRACES/$name.events" --desc "$desc" >"$TRACES/$name.count"
    # Stream length: last event time minus first (the lead-in excluded).
    awk '/^E:/ { t = $2; if (first == "") first = t } END { printf "%.2f\n", t - first }' "$events" >"$TRACES/$name.seconds"
    list="$list $name"
}
add_real atmel-4-finger-drag "$TS/Atmel maXTouch Touchscreen.4-finger-drag-down.events" "$DESC"
add_real ep0430m09-2-finger-scroll "$TS/EP0430M09.2-finger-scroll-down.events" "$TS/EP0430M09.desc"
echo "$list" >"$TRACES/cpu-list"
if [ "${BENCH_VM_PROFILE:-0}" = 1 ]; then : >"$TRACES/profile"; fi

# --- one guest boot -------------------------------------------------------------
KERNEL=$(ls /boot/vmlinuz-* 2>/dev/null | sort -V | tail -n 1)
[ -n "$KERNEL" ] || { log "no kernel in /boot"; exit 2; }
KVM_OPT=(--disable-kvm)
if grep -qE '^kvm_(intel|amd) ' /proc/modules 2>/dev/null && [ -w /dev/kvm ]; then KVM_OPT=(); fi
export PATH="$VM_DIR/venv/bin:$PATH"
log "booting $(basename "$KERNEL") (${KVM_OPT[*]:-kvm}, $VM_MEMORY, $VM_CPUS cpus)"
GUEST_CMD=$(printf '/bin/bash %q %q %q' "$ROOT/scripts/bench-vm-guest.sh" "$ROOT" "$RESULTS")
set +e
timeout "$VM_TIMEOUT" vng "${KVM_OPT[@]}" --memory "$VM_MEMORY" --cpus "$VM_CPUS" --rwdir "$RESULTS" \
    --run "$KERNEL" --exec "$GUEST_CMD" </dev/null 2>&1 | cat >"$RESULTS/vng.log"
set -e
if [ "$(cat "$RESULTS/status" 2>/dev/null)" != 0 ]; then
    log "the guest run failed; $RESULTS/guest.log:"
    tail -n 30 "$RESULTS/guest.log" >&2 || tail -n 30 "$RESULTS/vng.log" >&2
    exit 2
fi

if [ -f "$TRACES/profile" ]; then
    log "CPU while profiled: touchd $(grep '^profile_touchd_seconds=' "$RESULTS/results.txt" | cut -d= -f2) s, libinput $(grep '^profile_libinput_seconds=' "$RESULTS/results.txt" | cut -d= -f2) s"
    # CPU seconds of each touchd thread over the profiled stream.
    join <(sort "$RESULTS/threads-before.txt") <(sort "$RESULTS/threads-after.txt") |
        awk '{ printf "touchd thread %-20s %6.2f s\n", $2, $5 - $3 }' | sort -k4 -rn
    head -n 40 "$RESULTS/profile-dso.txt"
    log "profiles: $RESULTS/profile-{dso,sym,children}.txt (perf.data beside them)"
    exit 0
fi

# --- the table -------------------------------------------------------------------
awk -F= '
    { v[$1] = $2 }
    END {
        printf "| touchd memory (guest, release, live) | VmRSS |\n|---|---|\n"
        printf "| no device | %.1f MB |\n", v["rss_no_device_kb"] / 1024
        printf "| 4 idle touchscreens | %.1f MB |\n", v["rss_4_devices_kb"] / 1024
        printf "| 4 touchscreens, 100 subscribed clients | %.1f MB |\n", v["rss_4_devices_100_clients_kb"] / 1024
        printf "| after a 10-finger stream to the 100 clients | %.1f MB (peak %.1f MB) |\n", v["rss_after_stream_100_clients_kb"] / 1024, v["hwm_after_stream_100_clients_kb"] / 1024
        printf "\n| trace | events | stream s | touchd CPU s | libinput CPU s | touchd ms / 1000 events | libinput ms / 1000 events | touchd / libinput | task clock: touchd / libinput ms | touchd / libinput (task clock) | touchd CPU ms per stream s | touchd resyncs | of which touchd kernel s | of which libinput kernel s |\n"
        printf "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n"
        n = split(list, names, " ")
        for (i = 1; i <= n; i++) {
            k = "cpu_" names[i] "_"
            e = v[k "events"]; s = v[k "stream_seconds"]; t = v[k "touchd_seconds"]; l = v[k "libinput_seconds"]
            if (e == "") continue
            ratio = l > 0 ? sprintf("%.2f", t / l) : "n/a"
            tt = v[k "touchd_task_ms"]; tl = v[k "libinput_task_ms"]
            taskRatio = tl > 0 ? sprintf("%.2f", tt / tl) : "n/a"
            printf "| %s | %d | %.1f | %.2f | %.2f | %.2f | %.2f | %s | %d / %d | %s | %.1f | %d | %s | %s |\n", names[i], e, s, t, l, 1e6 * t / e, 1e6 * l / e, ratio, tt, tl, taskRatio, (s > 0 ? 1000 * t / s : 0), v[k "touchd_resyncs"], v[k "touchd_system_seconds"], v[k "libinput_system_seconds"]
        }
    }' list="$list" "$RESULTS/results.txt"
log "guest log: $RESULTS/guest.log"
