#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Derives a hold-then-drag to the right, with a second finger's tap during
the drag, from the real recording `Atmel maXTouch Touchscreen.4-finger-drag-down.events`
(evemu-devices, MIT): the device description is the recording's, and the
drag's motion is the recording's second finger (slot 1) with its timing and
jitter kept, its downward travel turned into travel to the right (scaled to
go from x 150 to x 600 of 0..799). Before it moves, the finger is held still
for 700 ms (a drag begins on a hold, then a move: semantics §7); after it,
it rests 500 ms before lifting, and a second finger taps the lower left
quarter meanwhile (60 ms, still). The hold, the rest and the tap are made
up: not a recording as such.

Run from the repository root; the output is byte-for-byte reproducible:
scripts/derive-hold-then-drag.py > "Tests/Fixtures/derived/Atmel maXTouch Touchscreen.hold-then-drag.events"
"""
import sys

SOURCE = "Tests/Fixtures/real/evemu-devices/touchscreens/Atmel maXTouch Touchscreen.4-finger-drag-down.events"
START_X, END_X, Y = 150, 600, 120
HOLD = 0.700
NAMES = {0x2F: "ABS_MT_SLOT", 0x39: "ABS_MT_TRACKING_ID", 0x35: "ABS_MT_POSITION_X", 0x36: "ABS_MT_POSITION_Y",
         0x00: "ABS_X", 0x01: "ABS_Y", 0x14A: "BTN_TOUCH"}

header, motion = [], []  # motion: (time, x, y) of slot 1 at each report that moved it
slot, x, y, t0, moved = 0, None, None, None, False
for line in open(SOURCE):
    if not line.startswith("E: "):
        if not line.startswith("# "):
            header.append(line)
        continue
    fields = line.split("\t")[0].split()
    time, etype, code, value = float(fields[1]), int(fields[2], 16), int(fields[3], 16), int(fields[4])
    if etype == 3 and code == 0x2F:
        slot = value
    elif etype == 3 and slot == 1 and code == 0x35:
        x, moved = value, True
    elif etype == 3 and slot == 1 and code == 0x36:
        y, moved = value, True
    elif etype == 3 and slot == 1 and code == 0x39 and value == -1:
        break
    elif etype == 0 and code == 0 and moved and x is not None and y is not None:
        if t0 is None:
            t0 = time
        motion.append((time - t0, x, y))
        moved = False

first, last = motion[0], motion[-1]
scale = (END_X - START_X) / (last[2] - first[2])
out = sys.stdout
out.write("# Derived by scripts/derive-hold-then-drag.py from the evemu-devices recording\n")
out.write("# 'Atmel maXTouch Touchscreen.4-finger-drag-down.events' (github.com/whot/evemu-devices @3fa3058, MIT):\n")
out.write("# its slot 1's motion turned to the right after a 700 ms hold; a rest and a second finger's tap added. Not a recording as such.\n")
for line in header:
    out.write(line)


def event(t, etype, code, value):
    name = "EV_SYN / SYN_REPORT" if etype == 0 else ("EV_KEY / " if etype == 1 else "EV_ABS / ") + NAMES[code]
    out.write(f"E: {t:.6f} {etype:04x} {code:04x} {value:04d}\t# {name} {value}\n")


def report(t):
    event(t, 0, 0, 0)


start = 0.100
event(start, 3, 0x2F, 0); event(start, 3, 0x39, 1); event(start, 3, 0x35, START_X); event(start, 3, 0x36, Y)
event(start, 1, 0x14A, 1); report(start)
end = start
for (t, mx, my) in motion[1:]:
    end = start + HOLD + t
    nx = START_X + round((my - first[2]) * scale)
    ny = Y + (mx - first[1])
    event(end, 3, 0x35, nx); event(end, 3, 0x36, ny); report(end)
tap = end + 0.150
event(tap, 3, 0x2F, 1); event(tap, 3, 0x39, 2); event(tap, 3, 0x35, 100); event(tap, 3, 0x36, 400); report(tap)
event(tap + 0.060, 3, 0x39, -1); report(tap + 0.060)
lift = end + 0.500
event(lift, 3, 0x2F, 0); event(lift, 3, 0x39, -1); event(lift, 1, 0x14A, 0); report(lift)
