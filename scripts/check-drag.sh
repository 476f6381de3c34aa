#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Drag sessions across clients end to end (semantics §12), in different
# languages against a real touchd: touchd replays a hold-then-drag (the
# derived trace Tests/Fixtures/derived/...hold-then-drag.events, at its
# recorded pace) from the surface of a Python source (docs/examples/drag_source.py)
# onto the surface of a C target (clients/c/examples/drop-target.c), while a
# second finger taps the source's shelf. Three runs:
#   copy: the target gets entered/moved, the data once on perform ("Lyon"
#         and the tap's "Paris"), the end once; the source the outcome; a
#         Python bystander whose surface the touch crosses sees nothing;
#   forbidden: the session ends cancelled, no data;
#   the source hanging up mid-drag: it ends for the target (source-gone).
# Every run also checks the clients' exit status and touchd's.
#
# Environment: BUILD_DIR (default .build; touchd is $BUILD_DIR/release/touchd),
# TOUCHD (another touchd binary, e.g. .build/debug/touchd).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT="$PWD"
BUILD_DIR="${BUILD_DIR:-.build}"
TOUCHD="${TOUCHD:-$(realpath -m "$BUILD_DIR/release/touchd")}"
TRACE="$ROOT/Tests/Fixtures/derived/Atmel maXTouch Touchscreen.hold-then-drag.events"
[ -x "$TOUCHD" ] || { echo "check-drag: $TOUCHD missing (make release)" >&2; exit 2; }
if ! command -v cc >/dev/null; then
    [ "$(id -u)" = 0 ] || { echo "check-drag: needs cc (apt-get install gcc libc6-dev)" >&2; exit 2; }
    echo "check-drag: installing gcc libc6-dev" >&2
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends gcc libc6-dev >/dev/null
fi

TMP=$(mktemp -d /tmp/touchd-check-drag.XXXXXX)
pids=()
trap 'for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; rm -rf "$TMP"' EXIT
make -s -C clients/c OUT="$TMP/c" >/dev/null
export LD_LIBRARY_PATH="$TMP/c"
fail=0
check() { # check DESCRIPTION COMMAND...
    if "${@:2}"; then echo "ok    $1"; else echo "FAIL  $1"; fail=1; fi
}

start_touchd() { # start_touchd SOCKET SUBSCRIBERS
    "$TOUCHD" --replay "$TRACE" --socket "$1" --wait-for-subscribers "$2" --exit-after-replay \
        --log-level warning --realtime-priority 0 & touchd_pid=$!; pids+=($touchd_pid)
    local tries=0
    while [ ! -S "$1" ]; do tries=$((tries + 1)); [ $tries -lt 300 ] || { echo "touchd did not start" >&2; exit 1; }; sleep 0.05; done
}

screen_width() { # the first screen's width and height from hello
    python3 - "$1" <<'PY'
import json, socket, sys
s = socket.socket(socket.AF_UNIX); s.connect(sys.argv[1])
screen = json.loads(s.makefile("r").readline())["screens"][0]
print(screen["width"], screen["height"])
PY
}

bystander() { # a client with a surface on the touch's path, no drop target: prints any drag event
    python3 - "$1" "$2" "$3" <<'PY'
import json, socket, sys
s = socket.socket(socket.AF_UNIX); s.connect(sys.argv[1]); f = s.makefile("r")
f.readline()
w, h = float(sys.argv[2]), float(sys.argv[3])
s.sendall(json.dumps({"op": "register", "id": 1, "surface": {"id": "strip", "z": 5,
    "rect": {"x": w * 0.4, "y": 0, "width": w * 0.05, "height": h}}}).encode() + b"\n")
s.sendall(b'{"op":"subscribe","id":2,"events":["gesture","touch"]}\n')
for line in f:
    m = json.loads(line)
    if m["type"] == "goodbye": break
    if m["type"] == "drag": print(line.strip())
PY
}

run() { # run NAME OPERATION SUBSCRIBERS [SOURCE ARGS...]: outputs in $TMP/NAME.{source,target,bystander}
    local name=$1 operation=$2 subscribers=$3; shift 3
    local sock="$TMP/$name.sock"
    start_touchd "$sock" "$subscribers"
    read -r w h < <(screen_width "$sock")
    python3 docs/examples/drag_source.py --socket "$sock" "$@" > "$TMP/$name.source" & local source=$!
    "$TMP/c/drop-target" "$sock" "$(python3 -c "print($w / 2)")" 0 "$(python3 -c "print($w / 2)")" "$h" "$operation" \
        > "$TMP/$name.target" & local target=$!
    local by=""
    if [ "$subscribers" = 3 ]; then bystander "$sock" "$w" "$h" > "$TMP/$name.bystander" & by=$!; fi
    check "$name: the source exits 0" wait $source
    check "$name: the C target exits 0" wait $target
    [ -z "$by" ] || check "$name: the bystander exits 0" wait $by
    check "$name: touchd exits 0" wait $touchd_pid
}

has() { grep -qx -- "$2" "$1"; }
hasnt() { ! grep -q -- "$2" "$1"; }
count() { [ "$(grep -c -- "$2" "$1" || true)" = "$3" ]; }

run copy copy 3
check "copy: the target entered with the items' types and count" has "$TMP/copy.target" "entered 1 text/plain,text/uri-list 1"
check "copy: the target entered again with the tap's item" has "$TMP/copy.target" "entered 1 text/plain,text/uri-list 2"
check "copy: the target got moves" has "$TMP/copy.target" "moved 1"
check "copy: the target got the data once on perform" count "$TMP/copy.target" "^perform 1 copy Lyon|Paris$" 1
check "copy: the target's last line is its end" test "$(tail -1 "$TMP/copy.target")" = "ended 1 copy lifted"
check "copy: the source was asked for items and for the tap's" test "$(head -2 "$TMP/copy.source" | tr '\n' ' ')" = "items-requested 1 add-requested 1 "
check "copy: the source learned the outcome once" count "$TMP/copy.source" "^ended 1 copy lifted$" 1
check "copy: a client without a target surface saw nothing of the session" test ! -s "$TMP/copy.bystander"

run forbidden forbidden 2
check "forbidden: the target entered" has "$TMP/forbidden.target" "entered 1 text/plain,text/uri-list 1"
check "forbidden: no data" hasnt "$TMP/forbidden.target" "perform"
check "forbidden: the target's end is cancelled" test "$(tail -1 "$TMP/forbidden.target")" = "ended 1 cancelled lifted"
check "forbidden: the source's end is cancelled" has "$TMP/forbidden.source" "ended 1 cancelled lifted"

# The source hangs up once the drag is two thirds across (over the target).
run gone copy 2 --hang-up-at 0.65
check "gone: the source hung up mid-drag" has "$TMP/gone.source" "hang-up"
check "gone: the target entered" has "$TMP/gone.target" "entered 1 text/plain,text/uri-list 1"
check "gone: the session ended for the target, once" count "$TMP/gone.target" "^ended " 1
check "gone: ... as source-gone, without data" test "$(tail -1 "$TMP/gone.target")" = "ended 1 cancelled source-gone"

[ $fail = 0 ] || { for f in "$TMP"/*.source "$TMP"/*.target; do echo "--- $f"; cat "$f"; done; exit 1; }
