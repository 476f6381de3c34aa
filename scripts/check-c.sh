#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Checks libtouchd-client (clients/c): builds the library, its pkg-config
# file, the example and the test program with cc; runs the parser on
# hand-made lines from a stand-in server (test-client --parser);
# starts touchd replaying a recording once two clients subscribe; runs a
# reference client (Python, the raw JSON lines) and clients/c's test program,
# which checks answers, error codes and escapes itself and prints every
# touch, default gesture and device event it parsed as a line; those lines
# must equal the ones made from the reference's JSON. Then the example
# program, built against the installed library with pkg-config, prints the
# replay's gestures.
#
# Then a short libFuzzer pass over the parser (FUZZ_SECONDS_C, default 15).
#
# Environment: BUILD_DIR (default .build; touchd is $BUILD_DIR/release/touchd).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT="$PWD"
BUILD_DIR="${BUILD_DIR:-.build}"
TOUCHD="$(realpath -m "$BUILD_DIR/release/touchd")"
TRACE="$ROOT/Tests/Fixtures/real/evemu-devices/touchscreens/Atmel maXTouch Touchscreen.4-finger-drag-down.events"
[ -x "$TOUCHD" ] || { echo "check-c: $TOUCHD missing (make release)" >&2; exit 2; }
if ! command -v cc >/dev/null || ! command -v pkg-config >/dev/null; then
    [ "$(id -u)" = 0 ] || { echo "check-c: needs cc and pkg-config (apt-get install gcc libc6-dev pkg-config)" >&2; exit 2; }
    echo "check-c: installing gcc libc6-dev pkg-config" >&2
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends gcc libc6-dev pkg-config >/dev/null
fi

TMP=$(mktemp -d /tmp/touchd-check-c.XXXXXX)
pids=()
trap 'for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; rm -rf "$TMP"' EXIT
OUT="$TMP/build"
# The test program and the library it loads under AddressSanitizer and UBSan.
make -s -C clients/c OUT="$OUT" PREFIX=/usr CFLAGS="-O1 -g -fsanitize=address,undefined,float-cast-overflow -fno-sanitize-recover=all" LDFLAGS=-fsanitize=address,undefined,float-cast-overflow >/dev/null
echo "ok    libtouchd-client built (cc -Wall -Wextra -Wpedantic -Werror; ASan and UBSan for the test)"
exported=$(nm -D --defined-only "$OUT/libtouchd-client.so.1" | awk '{ print $3 }' | sed -e 's/@@/@/' -e 's/^\(TOUCHD_CLIENT_[0-9.]*\)$/\1@\1/' | sort)
unexpected=$(printf '%s\n' "$exported" | grep -vE '^(touchd_(client|event|surface)_[a-z_]+@TOUCHD_CLIENT_1\.[0-9]+|TOUCHD_CLIENT_(1\.[0-9]+)@TOUCHD_CLIENT_\2)$' || true)
[ -z "$unexpected" ] || { echo "FAIL  symbols exported beyond touchd_client_*, touchd_event_*, touchd_surface_* in version nodes TOUCHD_CLIENT_1.N: $unexpected"; exit 1; }
listed=$(sed -n 's/^ \([^ ]*\) .*/\1/p' packaging/debian/libtouchd-client1.symbols | sort)
if [ "$exported" != "$listed" ]; then
    echo "FAIL  the exported symbols differ from packaging/debian/libtouchd-client1.symbols (< exported, > listed)"
    diff <(printf '%s\n' "$exported") <(printf '%s\n' "$listed"); exit 1
fi
echo "ok    exports $(printf '%s\n' "$exported" | wc -l) versioned symbols, as the symbols file lists (soname $(objdump -p "$OUT/libtouchd-client.so.1" | awk '/SONAME/ { print $2 }'))"
if grep -E 'struct touchd_[a-z_]+ *\{' clients/c/touchd-client.h | grep -v 'struct touchd_point'; then
    echo "FAIL  touchd-client.h defines a struct a caller allocates"; exit 1
fi
echo "ok    touchd-client.h: every type the library fills is opaque (touchd_point is the caller's value)"

LD_LIBRARY_PATH="$OUT" "$OUT/test-client" --parser || { echo "FAIL  clients/c/tests/test-client --parser"; exit 1; }

# The protocol corpus (every valid server message of docs/schemas/examples.jsonl),
# member by member, as Python's json module reads it.
python3 docs/schemas/corpus.py lines >"$TMP/corpus.jsonl"
python3 docs/schemas/corpus.py members "$TMP/corpus.jsonl" >"$TMP/corpus.expected"
LD_LIBRARY_PATH="$OUT" "$OUT/test-client" --corpus "$TMP/corpus.jsonl" >"$TMP/corpus.actual" \
    || { echo "FAIL  test-client --corpus"; exit 1; }
if cmp -s "$TMP/corpus.expected" "$TMP/corpus.actual"; then
    echo "ok    the protocol corpus: $(wc -l <"$TMP/corpus.jsonl") server messages, every member as Python's json reads it"
else
    echo "FAIL  the protocol corpus read differently (< json, > C)"; diff "$TMP/corpus.expected" "$TMP/corpus.actual" | head -20; exit 1
fi

start_touchd() { # start_touchd SOCKET: replays once 2 clients subscribe
    "$TOUCHD" --replay "$TRACE" --socket "$1" --wait-for-subscribers 2 --speed 0 --exit-after-replay \
        --log-level warning --realtime-priority 0 & pids+=($!)
    local tries=0
    while [ ! -S "$1" ]; do tries=$((tries + 1)); [ $tries -lt 300 ] || { echo "touchd did not start" >&2; exit 1; }; sleep 0.05; done
}

# The reference: the raw lines, made into the test program's line format.
reference() {
    python3 - "$1" <<'PY'
import json, socket, sys
s = socket.socket(socket.AF_UNIX); s.connect(sys.argv[1]); f = s.makefile("r")
f.readline()
s.sendall(b'{"op":"subscribe","id":1,"events":["gesture","touch","device"]}\n')
n = lambda v, d: "nan" if v is None else f"{v:.{d}f}"
p = lambda m, k, a: (m.get(k) or {}).get(a)
for line in f:
    m = json.loads(line)
    t = m["type"]
    if t == "goodbye": break
    if t == "gesture":
        print(f'gesture {m.get("surface", "-")} {m.get("recognizer", "-")} {m.get("kind", "-")} {m.get("state", "-")} '
              f'{m.get("touches", -1)} {m.get("device", -1)} {n(m.get("time"), 6)} {n(p(m, "location", "x"), 2)} '
              f'{n(p(m, "location", "y"), 2)} {n(p(m, "translation", "x"), 2)} {n(p(m, "translation", "y"), 2)} '
              f'{n(p(m, "velocity", "x"), 1)} {n(p(m, "velocity", "y"), 1)} {m.get("direction", "-")}')
    elif t == "touch":
        print(f'touch {m["device"]} {m["id"]} {m["phase"]} {m["touchType"]} {m["tool"]} {m["screen"]} {n(m["time"], 6)} '
              f'{n(m["location"]["x"], 2)} {n(m["location"]["y"], 2)} {n(m["locationMM"]["x"], 2)} {n(m["locationMM"]["y"], 2)}')
    elif t == "device":
        print(f'device {m["change"]} {m["device"]["id"]} {m["device"]["name"]}')
PY
}

S="$TMP/touchd.sock"
start_touchd "$S"
reference "$S" >"$TMP/expected" & ref=$!
LD_LIBRARY_PATH="$OUT" "$OUT/test-client" "$S" >"$TMP/actual" || { echo "FAIL  clients/c/tests/test-client"; exit 1; }
wait "$ref"
count() { grep -c "^$1 " "$TMP/expected" || true; }
if [ "$(count gesture)" -gt 10 ] && [ "$(count touch)" -gt 10 ] && cmp -s "$TMP/expected" "$TMP/actual"; then
    echo "ok    C client: $(count touch) touch and $(count gesture) gesture events parsed as the raw JSON says"
else
    echo "FAIL  C client events differ from the raw JSON (expected <, parsed >)"; diff "$TMP/expected" "$TMP/actual" | head -20; exit 1
fi

# The example, compiled against the installed library as an application would be.
make -s -C clients/c OUT="$TMP/release" PREFIX=/usr install DESTDIR="$TMP/dest" >/dev/null
pc="$TMP/dest/usr/lib/pkgconfig"
flags=$(PKG_CONFIG_SYSROOT_DIR="$TMP/dest" PKG_CONFIG_PATH="$pc" pkg-config --cflags --libs touchd-client)
cc -o "$TMP/touchd-events" clients/c/examples/touchd-events.c $flags
echo "ok    the example builds with pkg-config --cflags --libs touchd-client ($flags)"
S2="$TMP/touchd2.sock"
start_touchd "$S2"
reference "$S2" >/dev/null & ref=$!
LD_LIBRARY_PATH="$TMP/dest/usr/lib" "$TMP/touchd-events" "$S2" gesture,device >"$TMP/example"
wait "$ref"
if head -1 "$TMP/example" | grep -q '^hello touchd .* protocol 1: 1 devices, 1 screens$' \
    && grep -q '^gesture swipe swipe recognized on screen: 4 touches' "$TMP/example" \
    && tail -1 "$TMP/example" | grep -qx 'goodbye: shutdown'; then
    echo "ok    the example prints the hello, the swipe and the goodbye ($(wc -l <"$TMP/example") lines)"
else
    echo "FAIL  example output"; cat "$TMP/example"; exit 1
fi

# The parser under libFuzzer (ASan, UBSan): a short pass from the protocol's
# example server lines (make fuzz runs it longer, with the Swift harnesses).
FUZZ_SECONDS_C="${FUZZ_SECONDS_C:-15}"
if make -s -C clients/c FUZZ_OUT="$TMP/fuzz" fuzz >"$TMP/fuzz-build.log" 2>&1; then
    mkdir -p "$TMP/fuzz/seeds" "$TMP/fuzz/corpus"
    i=0; while IFS= read -r line; do i=$((i + 1)); printf '%s' "$line" >"$TMP/fuzz/seeds/$i"; done <"$TMP/corpus.jsonl"
    if "$TMP/fuzz/fuzz-parser" -max_total_time="$FUZZ_SECONDS_C" -max_len=4096 -print_final_stats=1 -dict=clients/c/fuzz/server-lines.dict \
        -artifact_prefix="$TMP/fuzz/" "$TMP/fuzz/corpus" "$TMP/fuzz/seeds" >"$TMP/fuzz/log" 2>&1; then
        echo "ok    the parser fuzzed for ${FUZZ_SECONDS_C} s: $(grep -o 'stat::number_of_executed_units: *[0-9]*' "$TMP/fuzz/log" | grep -o '[0-9]*$') inputs, no crash"
    else
        echo "FAIL  the parser's fuzzer found a crash:"; tail -30 "$TMP/fuzz/log"; cp "$TMP"/fuzz/crash-* "$ROOT/" 2>/dev/null; exit 1
    fi
else
    echo "FAIL  the fuzz harness does not build (clang with -fsanitize=fuzzer)"; cat "$TMP/fuzz-build.log"; exit 1
fi
