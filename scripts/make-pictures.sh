#!/bin/sh
# SPDX-License-Identifier: MIT
# The example pictures of docs/visualisation.md, drawn from bundled recordings
# with `touchctl render`. Deterministic: rerunning gives the same files.
# Usage: scripts/make-pictures.sh [path/to/touchctl]
set -eu
TOUCHCTL=${1:-.build/debug/touchctl}
OUT=docs/images
REAL=Tests/Fixtures/real/evemu-devices
mkdir -p "$OUT"
"$TOUCHCTL" render "$REAL/touchscreens/Atmel maXTouch Touchscreen.4-finger-drag-down.events" -o "$OUT/atmel-4-finger-drag-down.svg"
"$TOUCHCTL" render "$REAL/touchscreens/Atmel maXTouch Touchscreen.1-finger-fast-taps.events" -o "$OUT/atmel-fast-taps.svg"
"$TOUCHCTL" render "$REAL/tablets/Wacom Intuos4 6x9.stylus-drag.events" -o "$OUT/intuos4-stylus-drag.svg"
"$TOUCHCTL" render Tests/Fixtures/synthetic/edge-swipes.touchd --config Tests/Fixtures/synthetic/edge-swipes.yaml -o "$OUT/edge-swipes.svg"
ls -l "$OUT"/*.svg
