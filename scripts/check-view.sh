#!/bin/sh
# SPDX-License-Identifier: MIT
# The live view in a real headless browser: a stand-in daemon socket
# (scripts/fake-touchd.py) serves a replayed real recording, `touchctl view`
# relays it, and Debian's chromium loads the page and dumps its DOM, which must
# hold the touch paths and gesture labels of the recording. A second pass
# replays the derived hold-then-drag with docs/examples/drag-surfaces.yaml:
# the page must draw the drag session (items, target, proposal, end) from the
# `drag-session` lines, with no item data anywhere. Installs chromium when
# missing. Usage: scripts/check-view.sh [path/to/touchctl]
set -eu
TOUCHCTL=${1:-.build/debug/touchctl}
TRACE="Tests/Fixtures/real/evemu-devices/touchscreens/Atmel maXTouch Touchscreen.4-finger-drag-down.events"
DRAG_TRACE="Tests/Fixtures/derived/Atmel maXTouch Touchscreen.hold-then-drag.events"
DRAG_CONFIG="docs/examples/drag-surfaces.yaml"

if ! command -v chromium >/dev/null 2>&1; then
    if [ "$(id -u)" != 0 ]; then echo "check-view: chromium is missing and installing it needs root (apt-get install chromium)" >&2; exit 1; fi
    echo "check-view: installing chromium"
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends chromium >/dev/null
fi
[ -x "$TOUCHCTL" ] || { echo "check-view: $TOUCHCTL is not built" >&2; exit 1; }

work=$(mktemp -d /tmp/touchd-check-view.XXXXXX)
fake_pid=""; view_pid=""
cleanup() {
    [ -n "$view_pid" ] && kill "$view_pid" 2>/dev/null || true
    [ -n "$fake_pid" ] && kill "$fake_pid" 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT INT TERM

# serve EVENTS PREFIX: the stand-in daemon serves EVENTS, touchctl view relays them, chromium
# writes PREFIX.html (the DOM) and PREFIX.png.
serve() {
events=$1; prefix=$2
rm -f "$work/touchd.sock" "$work/url"
python3 scripts/fake-touchd.py "$work/touchd.sock" "$events" &
fake_pid=$!
"$TOUCHCTL" view --socket "$work/touchd.sock" --http 127.0.0.1:0 > "$work/url" 2> "$work/view.log" &
view_pid=$!

# Wait (up to 20 s) for the URL, then for the relay to have the recording's last event.
url=""
for _ in $(seq 1 200); do
    url=$(head -n 1 "$work/url" 2>/dev/null || true)
    if [ -n "$url" ] && python3 - "$url" "$events" <<'PY'
import sys, urllib.request
url, events = sys.argv[1], sys.argv[2]
want = sum(1 for l in open(events) if l.strip()) - 1
body = urllib.request.urlopen(url + "events?snapshot", timeout=2).read().decode()
got = sum(1 for l in body.splitlines() if l.startswith("data: ")) - 1
sys.exit(0 if got >= want else 1)
PY
    then break; fi
    url=""
    sleep 0.1
done
[ -n "$url" ] || { echo "check-view: touchctl view did not relay the events" >&2; cat "$work/view.log" >&2; exit 1; }

chromium --headless --no-sandbox --disable-gpu --disable-dev-shm-usage --user-data-dir="$work/profile" \
    --virtual-time-budget=3000 --dump-dom "${url}?snapshot" > "$prefix.html" 2> "$work/chromium.log" || true
chromium --headless --no-sandbox --disable-gpu --disable-dev-shm-usage --user-data-dir="$work/profile" \
    --virtual-time-budget=3000 --window-size=1000,700 --screenshot="$prefix.png" "${url}?snapshot" > /dev/null 2>&1 || true
kill "$view_pid" "$fake_pid" 2>/dev/null || true
wait "$view_pid" "$fake_pid" 2>/dev/null || true
view_pid=""; fake_pid=""
}

"$TOUCHCTL" replay "$TRACE" --events touch,gesture,system > "$work/events.jsonl"
serve "$work/events.jsonl" "$work/dom"
"$TOUCHCTL" replay "$DRAG_TRACE" --config "$DRAG_CONFIG" --events touch,gesture,system > "$work/drag.jsonl"
serve "$work/drag.jsonl" "$work/drag"

python3 - "$work/dom.html" "$work/events.jsonl" "$work/dom.png" <<'PY'
import json, os, re, sys
dom, events, shot = open(sys.argv[1]).read(), [json.loads(l) for l in open(sys.argv[2]) if l.strip()], sys.argv[3]
touches = {e["id"] for e in events if e["type"] == "touch"}
gestures = [e for e in events if e["type"] == "gesture" and e["state"] != "changed"]
paths = re.findall(r'<g class="touch-path" data-touch="(\d+)"', dom)
marks = re.findall(r'<g class="gesture" data-recognizer="([^"]+)" data-kind="[^"]+" data-state="([^"]+)"', dom)
labels = re.findall(r'<text class="gesture-label"[^>]*>([^<]+)</text>', dom)
problems = []
if not re.search(r'<rect class="screen-outline"', dom): problems.append("no screen outline")
if sorted(int(p) for p in paths) != sorted(touches): problems.append(f"touch paths {sorted(paths)} != touches {sorted(touches)}")
if marks != [(g["recognizer"], g["state"]) for g in gestures]: problems.append(f"gestures {marks} != {[(g['recognizer'], g['state']) for g in gestures]}")
if not any(l.startswith("pan ▶") for l in labels): problems.append(f"no 'pan ▶' label in {labels}")
if not os.path.exists(shot) or os.path.getsize(shot) < 5000: problems.append("no screenshot")
if problems:
    print("check-view: FAILED: " + "; ".join(problems), file=sys.stderr)
    sys.exit(1)
print(f"check-view: chromium drew {len(paths)} touch paths and {len(marks)} gesture labels ({', '.join(labels)})")
PY

python3 - "$work/drag.html" "$work/drag.jsonl" "$work/drag.png" <<'PY'
import json, os, re, sys
dom, events, shot = open(sys.argv[1]).read(), [json.loads(l) for l in open(sys.argv[2]) if l.strip()], sys.argv[3]
records = [e for e in events if e["type"] == "drag-session"]
badges = re.findall(r'<g class="drag-session" data-session="(\d+)"[^>]*>', dom)
tags = re.findall(r'<g class="drag-session"[^>]*>', dom)
labels = re.findall(r'<text class="drag-session-label"[^>]*>([^<]+)</text>', dom)
problems = []
if not records: problems.append("the replay printed no drag-session line")
if sorted(set(badges)) != sorted({str(r["session"]) for r in records}): problems.append(f"sessions drawn {badges} != {sorted({r['session'] for r in records})}")
if not any('data-ended="copy (lifted)"' in t and 'data-items="2"' in t for t in tags): problems.append(f"no ended session with 2 items in {tags}")
if not any("session 1: 2 items (text/plain, text/uri-list) ended copy (lifted)" == l for l in labels): problems.append(f"labels {labels}")
if "Lyon" in dom or "Paris" in dom: problems.append("item data in the page")
if not os.path.exists(shot) or os.path.getsize(shot) < 5000: problems.append("no screenshot")
if problems:
    print("check-view: FAILED (drag session): " + "; ".join(problems), file=sys.stderr)
    sys.exit(1)
print(f"check-view: chromium drew drag session(s) {sorted(set(badges))} from {len(records)} decisions ({'; '.join(labels)})")
PY
