#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Runs every touchctl command on every real trace and description we have:
# Tests/Fixtures/real always, ../shared/realdata too when it is beside the clone.
# Checks exit codes, the hello line, and that native/evemu/libinput-yaml
# conversions replay to exactly the same touches as the original.
set -uo pipefail
TOUCHCTL=${1:?usage: check-cli.sh PATH/TO/touchctl}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
passed=0
failed=0
fail() { echo "FAIL: $*" >&2; failed=$((failed + 1)); }
ok() { passed=$((passed + 1)); }

dirs=("$ROOT/Tests/Fixtures/real")
if [ -d "$ROOT/../shared/realdata" ]; then dirs+=("$(cd "$ROOT/../shared/realdata" && pwd)"); fi

files=()
for d in "${dirs[@]}"; do
    while IFS= read -r -d '' f; do files+=("$f"); done < <(find "$d" -type f \( -name '*.events' -o -name '*.event' -o -name '*.evemu' -o -name '*.desc' -o -name '*.prop' -o -name '*.device' -o -name '*.yml' -o -name '*.yaml' \) -print0 | sort -z)
done

check_files() {
    local shard=$1 shards=$2 i=0 f
    local TMP="$TMP/shard$shard"
    mkdir -p "$TMP"
    for f in "${files[@]}"; do
        i=$((i + 1)); [ $((i % shards)) = "$shard" ] || continue
        if ! "$TOUCHCTL" describe "$f" >"$TMP/describe" 2>"$TMP/err"; then fail "describe $f: $(head -3 "$TMP/err")"; continue; fi
        ok
        if ! "$TOUCHCTL" touches "$f" >/dev/null 2>"$TMP/err"; then fail "touches $f: $(head -3 "$TMP/err")"; continue; fi
        ok
        if ! "$TOUCHCTL" motion-quality "$f" >/dev/null 2>"$TMP/err"; then fail "motion-quality $f: $(head -3 "$TMP/err")"; continue; fi
        ok
        if ! "$TOUCHCTL" replay "$f" --events touch >"$TMP/orig.jsonl" 2>"$TMP/err"; then fail "replay $f: $(head -3 "$TMP/err")"; continue; fi
        if ! head -1 "$TMP/orig.jsonl" | grep -q '^{"type":"hello","protocol":1,'; then fail "replay $f: first line is not hello"; continue; fi
        ok
        ndev=$(head -1 "$TMP/orig.jsonl" | python3 -c 'import json,sys; print(len(json.load(sys.stdin)["devices"]))')
        formats="native libinput-yaml"
        [ "$ndev" = 1 ] && formats="$formats evemu"
        for fmt in $formats; do
            ext=$fmt; [ "$fmt" = libinput-yaml ] && ext=yml; [ "$fmt" = native ] && ext=touchd
            if ! "$TOUCHCTL" convert "$f" --to "$fmt" -o "$TMP/conv.$ext" 2>"$TMP/err"; then fail "convert $f --to $fmt: $(head -3 "$TMP/err")"; continue; fi
            if ! "$TOUCHCTL" replay "$TMP/conv.$ext" --events touch >"$TMP/conv.jsonl" 2>"$TMP/err"; then fail "replay of $fmt conversion of $f: $(head -3 "$TMP/err")"; continue; fi
            # libinput-yaml stores times relative to the first event: compare touches without times for it.
            if [ "$fmt" = libinput-yaml ]; then
                if ! python3 - "$TMP/orig.jsonl" "$TMP/conv.jsonl" <<'PY'
import json, sys
def load(p):
    out = []
    for line in open(p):
        o = json.loads(line)
        if o["type"] == "hello":
            for d in o["devices"]: d.pop("name", None)
            o.pop("server", None)
        o.pop("time", None)
        out.append(o)
    return out
a, b = load(sys.argv[1]), load(sys.argv[2])
sys.exit(0 if a == b else 1)
PY
                then fail "libinput-yaml round trip of $f changes the touches"; continue; fi
            elif ! cmp -s "$TMP/orig.jsonl" "$TMP/conv.jsonl"; then
                fail "$fmt round trip of $f changes the touches ($(diff "$TMP/orig.jsonl" "$TMP/conv.jsonl" | head -3))"; continue
            fi
            ok
        done
    done
    echo "$passed $failed" > "$TMP/counts"
}

# The files are shared out over the machine's cores (each shard counts its own results).
shards=$(nproc 2>/dev/null || echo 1)
for ((shard = 0; shard < shards; shard++)); do check_files "$shard" "$shards" & done
wait
for ((shard = 0; shard < shards; shard++)); do
    read -r p f < "$TMP/shard$shard/counts" || { fail "shard $shard of the per-file checks did not finish"; continue; }
    passed=$((passed + p)); failed=$((failed + f))
done

# Issue 4: the synthetic edge-swipe trace, replayed with each configuration,
# gives exactly the reviewed event stream, line by line.
syn="$ROOT/Tests/Fixtures/synthetic"
for c in edge-swipes edge-swipes-deferred; do
    if ! "$TOUCHCTL" replay "$syn/edge-swipes.touchd" --config "$syn/$c.yaml" --events gesture,system >"$TMP/$c.jsonl" 2>"$TMP/err"; then
        fail "replay edge-swipes.touchd --config $c.yaml: $(head -3 "$TMP/err")"
    elif ! diff -u "$syn/$c.expected.jsonl" "$TMP/$c.jsonl" >"$TMP/diff"; then
        fail "edge-swipes.touchd with $c.yaml differs from $c.expected.jsonl: $(head -20 "$TMP/diff")"
    else ok; fi
done
# A bad configuration is refused with the file and key named.
printf 'devices:\n  - rotation: 45\n' > "$TMP/bad.yaml"
if "$TOUCHCTL" replay "$syn/edge-swipes.touchd" --config "$TMP/bad.yaml" >/dev/null 2>"$TMP/err"; then fail "bad configuration accepted"
elif ! grep -q "bad.yaml:2: devices\[0\].rotation: " "$TMP/err"; then fail "bad configuration error does not name the file, line and key: $(cat "$TMP/err")"
else ok; fi

# Bad input: a clear error naming the file and line, and a non-zero exit.
good=$(find "$ROOT/Tests/Fixtures/real/evemu-devices/touchscreens" -name 'Atmel*2-fingers*.events' | head -1)
head -30 "$good" > "$TMP/broken.evemu"
echo "E: 0.100000 0003 zz 12" >> "$TMP/broken.evemu"
if "$TOUCHCTL" replay "$TMP/broken.evemu" >/dev/null 2>"$TMP/err"; then fail "garbage event line accepted"
elif ! grep -q "broken.evemu:31" "$TMP/err"; then fail "garbage line error does not name file:line: $(cat "$TMP/err")"
else ok; fi
printf 'not a trace\n' > "$TMP/garbage.txt"
if "$TOUCHCTL" describe "$TMP/garbage.txt" >/dev/null 2>"$TMP/err"; then fail "garbage file accepted"
elif ! grep -q "garbage.txt" "$TMP/err"; then fail "garbage file error does not name the file"
else ok; fi

# libinput quirks (--quirks DIR): the section that applied, with file and line, in describe;
# a malformed quirks file is an error naming file and line.
QUIRKS="$ROOT/Tests/Fixtures/real/libinput-quirks"
for dev in bcm5974 apple-appletouch; do
    "$TOUCHCTL" describe --quirks "$QUIRKS" "$ROOT/Tests/Fixtures/real/libinput-litest-devices/$dev.desc" >"$TMP/describe" 2>"$TMP/err"
    if ! grep -q "size: 104 x 75 mm (quirk)" "$TMP/describe"; then fail "describe --quirks $dev: no quirk size: $(cat "$TMP/describe" "$TMP/err" | head -12)"
    elif ! grep -q "AttrSizeHint=104x75 (.*50-system-apple.quirks:8 \[Apple Touchpads USB\])" "$TMP/describe"; then fail "describe --quirks $dev: quirk not reported"
    else ok; fi
done
if ! "$TOUCHCTL" describe "$ROOT/Tests/Fixtures/real/libinput-litest-devices/bcm5974.desc" | grep -q "quirks: none"; then fail "describe without --quirks applied quirks"; else ok; fi
mkdir -p "$TMP/quirks"
printf '[bad]\nMatchBus=usb\nModelAppleTouchpad=2\n' > "$TMP/quirks/10-bad.quirks"
if "$TOUCHCTL" describe --quirks "$TMP/quirks" "$ROOT/Tests/Fixtures/real/libinput-litest-devices/bcm5974.desc" >/dev/null 2>"$TMP/err"; then fail "malformed quirks accepted"
elif ! grep -q "10-bad.quirks:3" "$TMP/err"; then fail "malformed quirks error does not name file:line: $(cat "$TMP/err")"
else ok; fi

# motion-quality over every real recording: the three groups of strokes, each
# with its prediction and jitter tables (docs/performance.md shows them).
real_traces=()
while IFS= read -r -d '' f; do real_traces+=("$f"); done < <(find "$ROOT/Tests/Fixtures/real" -type f \( -name '*.events' -o -name '*.event' -o -name '*.evemu' -o -name '*.yml' -o -name '*.yaml' \) -print0 | sort -z)
if ! "$TOUCHCTL" motion-quality "${real_traces[@]}" >"$TMP/mq" 2>"$TMP/err"; then fail "motion-quality on every recording: $(head -3 "$TMP/err")"
elif [ "$(grep -c -E '^(touchscreen fingers|touchpad fingers|pens): ' "$TMP/mq")" != 3 ] || [ "$(grep -c -E '^ +(60|120) Hz ' "$TMP/mq")" != 6 ]; then fail "motion-quality: not three groups with jitter at 60 and 120 Hz: $(head -5 "$TMP/mq")"
else ok; fi
if "$TOUCHCTL" motion-quality --min-reports 2 "$good" >/dev/null 2>"$TMP/err"; then fail "motion-quality --min-reports 2 accepted"
elif ! grep -q -- "--min-reports" "$TMP/err"; then fail "motion-quality --min-reports 2: error does not name the option: $(cat "$TMP/err")"
else ok; fi

# Started under the name touchd (the Debian package's hard link), touchctl is touchd:
# its options, and a replay served on a socket.
ln -s "$(realpath "$TOUCHCTL")" "$TMP/touchd"
help=$("$TMP/touchd" --help 2>&1)
if ! grep -q '^USAGE: touchd ' <<<"$help" || ! grep -q -- '--check-config' <<<"$help"; then fail "touchctl started as touchd is not touchd: $(head -5 <<<"$help")"
elif ! "$TMP/touchd" --check-config --config "$ROOT/config/touchd.yaml" >/dev/null 2>"$TMP/err"; then fail "touchctl as touchd --check-config: $(cat "$TMP/err")"
elif "$TOUCHCTL" --help 2>&1 | grep -q '^USAGE: touchd '; then fail "touchctl under its own name runs touchd"
else ok; fi

echo "touchctl on ${#files[@]} real files:"
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
