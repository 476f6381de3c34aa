#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Writes Tests/Fixtures/synthetic/edge-swipes.touchd: a synthetic touchd-trace (docs/trace-format.md)
of a 10-slot touchscreen, 240 x 135 mm (resolution 16 units/mm), with three one-finger strokes near
the bottom edge. Expected behaviour: Tests/Fixtures/synthetic/README.md. Deterministic: run it again
and the file does not change.

Usage: scripts/gen-edge-swipes-trace.py [OUTPUT]
"""
import json
import sys

RES = 16                 # units per mm
MAX_X, MAX_Y = 3839, 2159  # 240 x 135 mm: 0..3839 spans 239.9 mm
FRAME_US = 8000          # 125 Hz
EV_SYN, EV_KEY, EV_ABS = 0, 1, 3
SYN_REPORT, BTN_TOUCH = 0, 330
ABS_X, ABS_Y, ABS_MT_SLOT, ABS_MT_POSITION_X, ABS_MT_POSITION_Y, ABS_MT_TRACKING_ID = 0, 1, 47, 53, 54, 57

lines = []
def line(obj):
    lines.append(json.dumps(obj, separators=(",", ":")))

line({"type": "header", "format": "touchd-trace", "version": 1})
line({"type": "device", "id": 0, "name": "touchd synthetic 10-slot touchscreen", "bus": 3, "vendor": 4660,
      "product": 22136, "version": 1, "properties": [1],
      "codes": {"0": [0], "1": [BTN_TOUCH], "3": [ABS_X, ABS_Y, ABS_MT_SLOT, ABS_MT_POSITION_X, ABS_MT_POSITION_Y, ABS_MT_TRACKING_ID]},
      "absinfo": {str(ABS_X): [0, MAX_X, 0, 0, RES], str(ABS_Y): [0, MAX_Y, 0, 0, RES],
                  str(ABS_MT_SLOT): [0, 9, 0, 0, 0],
                  str(ABS_MT_POSITION_X): [0, MAX_X, 0, 0, RES], str(ABS_MT_POSITION_Y): [0, MAX_Y, 0, 0, RES],
                  str(ABS_MT_TRACKING_ID): [0, 65535, 0, 0, 0]}})

def frame(t, events):
    line({"type": "frame", "device": 0, "time": t, "events": events + [[EV_SYN, SYN_REPORT, 0]]})

def units(mm):
    return int(round(mm * RES))

def stroke(t0, tracking_id, start, end, duration_ms):
    """One finger in slot 0: down at `start` (mm), straight to `end`, lifted one frame later."""
    x, y = units(start[0]), units(start[1])
    frame(t0, [[EV_ABS, ABS_MT_SLOT, 0], [EV_ABS, ABS_MT_TRACKING_ID, tracking_id], [EV_ABS, ABS_MT_POSITION_X, x],
               [EV_ABS, ABS_MT_POSITION_Y, y], [EV_KEY, BTN_TOUCH, 1], [EV_ABS, ABS_X, x], [EV_ABS, ABS_Y, y]])
    steps = max(1, int(duration_ms * 1000 // FRAME_US))
    for i in range(1, steps + 1):
        a = i / steps
        nx = units(start[0] + (end[0] - start[0]) * a)
        ny = units(start[1] + (end[1] - start[1]) * a)
        events = []
        if nx != x: events += [[EV_ABS, ABS_MT_POSITION_X, nx]]
        if ny != y: events += [[EV_ABS, ABS_MT_POSITION_Y, ny]]
        if nx != x: events += [[EV_ABS, ABS_X, nx]]
        if ny != y: events += [[EV_ABS, ABS_Y, ny]]
        x, y = nx, ny
        if events: frame(t0 + i * FRAME_US, events)
    frame(t0 + (steps + 1) * FRAME_US, [[EV_ABS, ABS_MT_TRACKING_ID, -1], [EV_KEY, BTN_TOUCH, 0]])

# 1. Swipe up from the bottom edge: starts 1 mm from it, 40 mm up in 200 ms.
stroke(1_000_000, 1, (120, 134), (120, 94), 200)
# 2. Tap near the bottom edge: 2 mm from it, moves 0.3 mm, lifted after 80 ms.
stroke(3_000_000, 2, (60, 133), (60.3, 133), 72)
# 3. Along the bottom edge: starts 1 mm from it, 40 mm to the right in 300 ms.
stroke(5_000_000, 3, (40, 134), (80, 134), 296)

out = sys.argv[1] if len(sys.argv) > 1 else "Tests/Fixtures/synthetic/edge-swipes.touchd"
with open(out, "w", encoding="utf-8") as f:
    f.write("\n".join(lines) + "\n")
