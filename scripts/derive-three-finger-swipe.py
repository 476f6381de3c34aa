#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Derives a three-finger swipe to the right from the real recording
`Atmel maXTouch Touchscreen.4-finger-drag-down.events` (evemu-devices, MIT):
the fourth finger (slot 3) is left out and the axes are exchanged (y becomes
x, scaled from 0..479 onto 0..799, and the other way round), so the fingers'
real timing and jitter are kept and the drag down becomes a drag to the right.

Run from the repository root; the output is byte-for-byte reproducible:
scripts/derive-three-finger-swipe.py > "Tests/Fixtures/derived/Atmel maXTouch Touchscreen.3-finger-swipe-right.events"
"""
import sys

SOURCE = "Tests/Fixtures/real/evemu-devices/touchscreens/Atmel maXTouch Touchscreen.4-finger-drag-down.events"
MAX_X, MAX_Y = 799, 479
SWAP = {0x00: 0x01, 0x01: 0x00, 0x35: 0x36, 0x36: 0x35}
NAMES = {0x00: "ABS_X", 0x01: "ABS_Y", 0x35: "ABS_MT_POSITION_X", 0x36: "ABS_MT_POSITION_Y"}

out = sys.stdout
out.write("# Derived by scripts/derive-three-finger-swipe.py from the evemu-devices recording\n")
out.write("# 'Atmel maXTouch Touchscreen.4-finger-drag-down.events' (github.com/whot/evemu-devices @3fa3058, MIT):\n")
out.write("# slot 3 left out, x and y exchanged (scaled to each axis's range). Not a recording as such.\n")
slot = 0
for line in open(SOURCE):
    if not line.startswith("E: "):
        if not line.startswith("# "):
            out.write(line)
        continue
    fields = line.split("\t")[0].split()
    time, etype, code, value = fields[1], int(fields[2], 16), int(fields[3], 16), int(fields[4])
    if etype == 3 and code == 0x2F:
        slot = value
        if slot == 3:
            continue
    elif etype == 3 and code in (0x39, 0x35, 0x36) and slot == 3:
        continue
    if etype == 3 and code in SWAP:
        new = SWAP[code]
        scale = MAX_X / MAX_Y if new in (0x00, 0x35) else MAX_Y / MAX_X
        code, value = new, int(round(value * scale))
        out.write(f"E: {time} {etype:04x} {code:04x} {value:04d}\t# EV_ABS / {NAMES[code]:<20} {value}\n")
        continue
    out.write(line)
