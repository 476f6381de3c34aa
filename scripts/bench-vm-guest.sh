#!/bin/bash
# SPDX-License-Identifier: MIT
# Runs inside the virtme-ng guest started by scripts/bench-vm.sh (PATH is
# reset there, so every tool is called by its full path).
# Usage: bench-vm-guest.sh REPO_ROOT RESULT_DIR
#
# 1. Memory: touchd (release, live) with 4 idle uinput touchscreens, then with
#    100 subscribed clients, then after a 10-finger stream reached them all.
# 2. CPU: touchd and `libinput debug-events --device NODE` read the same
#    uinput device while a trace is replayed into it; utime+stime of each
#    (/proc/PID/stat) over the stream, stime (the kernel's part) alone, and
#    the task clock of each (`perf stat -e task-clock`) over the stream.
# Results: RESULT_DIR/results.txt (key=value lines), RESULT_DIR/guest.log.
ROOT="$1"; RESULTS="$2"
cd "$ROOT" || exit 2
exec >"$RESULTS/guest.log" 2>&1
export NO_COLOR=1
PY=/usr/bin/python3
TOOLS="$ROOT/scripts/bench-tools.py"
TOUCHD="$ROOT/.build/release/touchd"
TOUCHCTL="$ROOT/.build/release/touchctl"
LIBINPUT=/usr/bin/libinput
TRACES="$RESULTS/traces"
OUT="$RESULTS/results.txt"
SOCK=/tmp/touchd-bench.sock
FORWARD_SOCK=/tmp/libinput-forward.sock
: >"$OUT"
for m in /usr/sbin/modprobe /sbin/modprobe; do
    if [ -x "$m" ]; then "$m" uinput; break; fi
done
[ -e /dev/uinput ] || { echo "no /dev/uinput"; echo 2 >"$RESULTS/status"; exit 2; }

now() { /usr/bin/date +%s.%N; }
result() { echo "$1=$2" | /usr/bin/tee -a "$OUT"; }
cpu() { "$PY" "$TOOLS" cpu "$1"; }
# System (kernel) time alone: what the process's system calls cost.
syscpu() { "$PY" "$TOOLS" cpu --system "$1"; }
rss() { "$PY" "$TOOLS" rss "$1"; }
PERF=/usr/bin/perf
# Ends `perf stat` runs (SIGINT makes them write their counts); one that has
# not finished starting by then ignores it, and is killed after 5 s (its count is then 0).
stop_perf() {
    /usr/bin/kill -INT "$@" 2>/dev/null
    local tries=0
    while [ $tries -lt 50 ] && /usr/bin/kill -0 "$@" 2>/dev/null; do tries=$((tries + 1)); /usr/bin/sleep 0.1; done
    /usr/bin/kill -KILL "$@" 2>/dev/null
    wait "$@" 2>/dev/null
}
# Milliseconds of task-clock in a `perf stat -x,` file (0 when it has none).
task_ms() { /usr/bin/awk -F, '$3 == "task-clock" { printf "%.0f", $1; found = 1 } END { if (!found) print 0 }' "$1"; }
# Waits until FILE has a line matching PATTERN (up to 30 s).
wait_for_line() {
    local file="$1" pattern="$2" tries=0
    until /usr/bin/grep -q -- "$pattern" "$file" 2>/dev/null; do
        tries=$((tries + 1)); [ $tries -gt 300 ] && return 1
        /usr/bin/sleep 0.1
    done
}
# Waits until the Unix socket PATH exists (up to 30 s).
wait_for_socket() {
    local tries=0
    until [ -S "$1" ]; do
        tries=$((tries + 1)); [ $tries -gt 300 ] && return 1
        /usr/bin/sleep 0.1
    done
}

# --- touchd, live, on every touch device of the guest -----------------------
/usr/bin/rm -f "$SOCK"
"$TOUCHD" --socket "$SOCK" --log-level warning >"$RESULTS/touchd.log" 2>&1 &
TOUCHD_PID=$!
wait_for_socket "$SOCK" || { echo "touchd did not start"; echo 2 >"$RESULTS/status"; exit 2; }
# Each memory sample waits for one of touchd's heap trims (every 10 s,
# docs/reliability.md "Memory"): a sample taken just before one counts up
# to 10 s of freed memory, which moved these figures by 2 MB between runs.
/usr/bin/sleep 11
read -r rss0 _ < <(rss $TOUCHD_PID)
result rss_no_device_kb "$rss0"

# --- profile (BENCH_VM_PROFILE=1): where touchd's CPU goes with one client ---
# `perf record` (cpu-clock samples, the guest kernel included) on touchd and
# `libinput debug-events` while the synthetic stream is replayed and one
# client reads every touch and gesture from touchd; the reports (by process
# with `--sort comm,...`) go to RESULT_DIR/profile-*.txt and nothing else runs.
if [ -f "$TRACES/profile" ]; then
    "$PY" "$TOOLS" clients "$SOCK" 1 --events gesture,touch >"$RESULTS/client-profile.out" 2>"$RESULTS/client-profile.log" &
    CLIENT_PID=$!
    wait_for_line "$RESULTS/client-profile.out" ready || echo "profile: client not ready"
    "$TOUCHCTL" replay --live "$TRACES/synthetic.events" 2>"$RESULTS/replay-profile.log" &
    REPLAY_PID=$!
    wait_for_line "$RESULTS/replay-profile.log" "created /dev/input/event" || echo "profile: no device"
    node=$(/usr/bin/grep -o '/dev/input/event[0-9]*' "$RESULTS/replay-profile.log" | /usr/bin/head -1)
    "$LIBINPUT" debug-events --device "$node" >/dev/null 2>"$RESULTS/libinput-profile.log" &
    LIBINPUT_PID=$!
    /usr/bin/sleep 2
    # No throttling of the sampling (under TCG a sample's interrupt is slow, and the
    # kernel would otherwise lower the rate to a few samples per second).
    echo 0 >/proc/sys/kernel/perf_cpu_time_max_percent
    "$PY" "$TOOLS" threads $TOUCHD_PID >"$RESULTS/threads-before.txt"
    t0=$(cpu $TOUCHD_PID); l0=$(cpu $LIBINPUT_PID)
    # STREAM_SECONDS of the stream (which started 2 s ago with the lead-in's last seconds);
    # perf stops by itself.
    stream=$(/usr/bin/cat "$TRACES/synthetic.seconds")
    "$PERF" record -e cpu-clock -F 997 -g -p "$TOUCHD_PID,$LIBINPUT_PID" -o "$RESULTS/perf.data" -- /usr/bin/sleep "$stream"
    t1=$(cpu $TOUCHD_PID); l1=$(cpu $LIBINPUT_PID)
    "$PY" "$TOOLS" threads $TOUCHD_PID >"$RESULTS/threads-after.txt"
    /usr/bin/dmesg | /usr/bin/grep -i perf | /usr/bin/tail -5
    wait $REPLAY_PID
    /usr/bin/kill -TERM $LIBINPUT_PID; wait $LIBINPUT_PID 2>/dev/null
    /usr/bin/kill -TERM $CLIENT_PID; wait $CLIENT_PID 2>/dev/null
    /usr/bin/tail -1 "$RESULTS/client-profile.log"
    result profile_touchd_seconds "$(/usr/bin/awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }')"
    result profile_libinput_seconds "$(/usr/bin/awk -v a="$l0" -v b="$l1" 'BEGIN { printf "%.2f", b - a }')"
    "$PERF" report -i "$RESULTS/perf.data" --stdio --no-children -g none --sort comm,dso >"$RESULTS/profile-dso.txt" 2>&1
    "$PERF" report -i "$RESULTS/perf.data" --stdio --no-children -g none --sort comm,sym >"$RESULTS/profile-sym.txt" 2>&1
    "$PERF" report -i "$RESULTS/perf.data" --stdio --children -g none --sort comm,sym >"$RESULTS/profile-children.txt" 2>&1
    /usr/bin/kill -TERM $TOUCHD_PID; wait $TOUCHD_PID 2>/dev/null
    echo 0 >"$RESULTS/status"
    exit 0
fi

# --- memory: 4 idle devices, then 100 clients, then a stream through them ----
IDLE_PIDS=()
for i in 1 2 3 4; do
    "$TOUCHCTL" replay --live "$TRACES/idle.events" 2>"$RESULTS/idle-$i.log" &
    IDLE_PIDS+=($!)
done
for i in 1 2 3 4; do wait_for_line "$RESULTS/idle-$i.log" "created" || echo "idle device $i not created"; done
/usr/bin/sleep 11
read -r rss4 _ < <(rss $TOUCHD_PID)
result rss_4_devices_kb "$rss4"

"$PY" "$TOOLS" clients "$SOCK" 100 >"$RESULTS/clients.out" 2>"$RESULTS/clients.log" &
CLIENTS_PID=$!
wait_for_line "$RESULTS/clients.out" ready || echo "clients not ready"
/usr/bin/sleep 11
read -r rss100 _ < <(rss $TOUCHD_PID)
result rss_4_devices_100_clients_kb "$rss100"

# The 10-finger stream (short) while the 100 clients receive everything.
"$TOUCHCTL" replay --live "$TRACES/synthetic-short.events" 2>"$RESULTS/stream-100.log"
/usr/bin/sleep 2
read -r rss100s hwm100s < <(rss $TOUCHD_PID)
result rss_after_stream_100_clients_kb "$rss100s"
result hwm_after_stream_100_clients_kb "$hwm100s"
/usr/bin/kill -TERM $CLIENTS_PID; wait $CLIENTS_PID 2>/dev/null
/usr/bin/tail -1 "$RESULTS/clients.log"
for p in "${IDLE_PIDS[@]}"; do /usr/bin/kill -TERM "$p"; done
wait "${IDLE_PIDS[@]}" 2>/dev/null
/usr/bin/sleep 1

# --- CPU: touchd and libinput on the same device, per trace ------------------
# Each trace starts after an idle lead-in: libinput opens the device node
# (printed by touchctl) before the first event arrives.
# A name ending in -1-client replays the trace of the name before it while one
# client subscribed to gesture and touch reads everything touchd sends (libinput
# debug-events likewise formats and prints every event, to /dev/null).
# -1-client-16ms: the client asks for coalescing to 16 ms (a 60 Hz display:
# touch moves and gesture changes at most once per 16 ms, the latest of each).
# -1-client-piped: libinput's output goes through a pipe to a reading process,
# as touchd's goes through a socket to its client (both then wake a reader).
# -1-client-forwarded: libinput's side is scripts/libinput-forward (libinput
# formatting each event as debug-events does and sending each frame's lines to
# a socket client in one write, as touchd does), read by the same client program.
# A name with a suffix (`synthetic-1-client.2`) repeats that row: the same
# stream and setup again later in the same boot, to show the spread.
for name in $(/usr/bin/cat "$TRACES/cpu-list"); do
    plain=${name%%.*}
    base=${plain%%-1-client*}
    variant=${plain#"$base"}
    trace="$TRACES/$base.events"
    events=$(/usr/bin/cat "$TRACES/$base.count")
    seconds=$(/usr/bin/cat "$TRACES/$base.seconds")
    log="$RESULTS/replay-$name.log"
    CLIENT_PID=
    if [ "$base" != "$plain" ]; then
        coalesce=0
        [ "$variant" = -1-client-16ms ] && coalesce=16
        "$PY" "$TOOLS" clients "$SOCK" 1 --events gesture,touch --coalesce "$coalesce" >"$RESULTS/client-$name.out" 2>"$RESULTS/client-$name.log" &
        CLIENT_PID=$!
        wait_for_line "$RESULTS/client-$name.out" ready || echo "$name: client not ready"
    fi
    "$TOUCHCTL" replay --live "$trace" 2>"$log" &
    REPLAY_PID=$!
    wait_for_line "$log" "created /dev/input/event" || { echo "$name: no device"; continue; }
    node=$(/usr/bin/grep -o '/dev/input/event[0-9]*' "$log" | /usr/bin/head -1)
    FORWARD_CLIENT_PID=
    if [ "$variant" = -1-client-piped ]; then
        "$LIBINPUT" debug-events --device "$node" 2>"$RESULTS/libinput-$name.log" > >(/usr/bin/cat >/dev/null) &
    elif [ "$variant" = -1-client-forwarded ]; then
        /usr/bin/rm -f "$FORWARD_SOCK"
        "$RESULTS/libinput-forward" "$FORWARD_SOCK" "$node" 2>"$RESULTS/libinput-$name.log" &
    else
        "$LIBINPUT" debug-events --device "$node" >/dev/null 2>"$RESULTS/libinput-$name.log" &
    fi
    LIBINPUT_PID=$!
    if [ "$variant" = -1-client-forwarded ]; then
        wait_for_socket "$FORWARD_SOCK" || echo "$name: libinput-forward has no socket"
        "$PY" "$TOOLS" clients "$FORWARD_SOCK" 1 --events gesture,touch >"$RESULTS/forward-client-$name.out" 2>"$RESULTS/forward-client-$name.log" &
        FORWARD_CLIENT_PID=$!
        wait_for_line "$RESULTS/forward-client-$name.out" ready || echo "$name: libinput-forward's client not ready"
    fi
    # Both readers have the device open before the lead-in ends.
    /usr/bin/sleep 2
    r0=$(/usr/bin/grep -c 'events dropped' "$RESULTS/touchd.log")
    t0=$(cpu $TOUCHD_PID); l0=$(cpu $LIBINPUT_PID); w0=$(now)
    ts0=$(syscpu $TOUCHD_PID); ls0=$(syscpu $LIBINPUT_PID)
    # The same window counted by the kernel's task clock (every thread's run
    # time, to the nanosecond), from the stream's start to its end. Not for
    # the real recordings' half-second streams: `perf stat` takes longer than
    # that to start in the guest.
    PERF_PIDS=()
    if [ -x "$PERF" ] && /usr/bin/awk -v s="$seconds" 'BEGIN { exit !(s >= 5) }'; then
        "$PERF" stat -x, -e task-clock -p "$TOUCHD_PID" -o "$RESULTS/task-touchd-$name.csv" & PERF_PIDS+=($!)
        "$PERF" stat -x, -e task-clock -p "$LIBINPUT_PID" -o "$RESULTS/task-libinput-$name.csv" & PERF_PIDS+=($!)
    fi
    wait $REPLAY_PID
    /usr/bin/sleep 0.5
    if [ ${#PERF_PIDS[@]} -gt 0 ]; then
        stop_perf "${PERF_PIDS[@]}"
        result "cpu_${name}_touchd_task_ms" "$(task_ms "$RESULTS/task-touchd-$name.csv")"
        result "cpu_${name}_libinput_task_ms" "$(task_ms "$RESULTS/task-libinput-$name.csv")"
    fi
    t1=$(cpu $TOUCHD_PID); l1=$(cpu $LIBINPUT_PID); w1=$(now)
    ts1=$(syscpu $TOUCHD_PID); ls1=$(syscpu $LIBINPUT_PID)
    /usr/bin/kill -TERM $LIBINPUT_PID; wait $LIBINPUT_PID 2>/dev/null
    if [ -n "$FORWARD_CLIENT_PID" ]; then
        /usr/bin/kill -TERM $FORWARD_CLIENT_PID; wait $FORWARD_CLIENT_PID 2>/dev/null
        /usr/bin/tail -1 "$RESULTS/libinput-$name.log"
        echo "libinput-forward's client: $(/usr/bin/tail -1 "$RESULTS/forward-client-$name.log")"
    fi
    if [ -n "$CLIENT_PID" ]; then
        /usr/bin/kill -TERM $CLIENT_PID; wait $CLIENT_PID 2>/dev/null
        /usr/bin/tail -1 "$RESULTS/client-$name.log"
    fi
    # Kernel buffer overruns while reading (each one a resync).
    result "cpu_${name}_touchd_resyncs" "$(( $(/usr/bin/grep -c 'events dropped' "$RESULTS/touchd.log") - r0 ))"
    result "cpu_${name}_events" "$events"
    result "cpu_${name}_stream_seconds" "$seconds"
    result "cpu_${name}_wall_seconds" "$(/usr/bin/awk -v a="$w0" -v b="$w1" 'BEGIN { printf "%.2f", b - a }')"
    result "cpu_${name}_touchd_seconds" "$(/usr/bin/awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }')"
    result "cpu_${name}_libinput_seconds" "$(/usr/bin/awk -v a="$l0" -v b="$l1" 'BEGIN { printf "%.2f", b - a }')"
    result "cpu_${name}_touchd_system_seconds" "$(/usr/bin/awk -v a="$ts0" -v b="$ts1" 'BEGIN { printf "%.2f", b - a }')"
    result "cpu_${name}_libinput_system_seconds" "$(/usr/bin/awk -v a="$ls0" -v b="$ls1" 'BEGIN { printf "%.2f", b - a }')"
    /usr/bin/grep -h "wrote" "$log"
done

read -r rssEnd hwmEnd < <(rss $TOUCHD_PID)
result rss_end_kb "$rssEnd"
result hwm_end_kb "$hwmEnd"
/usr/bin/kill -TERM $TOUCHD_PID; wait $TOUCHD_PID 2>/dev/null
echo 0 >"$RESULTS/status"
