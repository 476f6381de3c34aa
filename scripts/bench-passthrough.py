#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Forwarding cost of a touchscreen grabbed and re-created for the compositor
(docs/performance.md, "Pass-through"), in the QEMU guest: a 10-finger 240 Hz
stream written into a uinput touchscreen, forwarded by FORWARDER to a device
a reader opens; per frame, the time from just before the original frame's
write to the forwarded frame's kernel timestamp (both CLOCK_MONOTONIC; the
write system call is in it, the same for every forwarder), and the
forwarder's CPU time over the stream.

Usage: bench-passthrough.py touchd TOUCHD_BINARY SECONDS
       bench-passthrough.py interception SECONDS
Prints one line of key=value pairs.
"""
import array, fcntl, os, select, struct, subprocess, sys, tempfile, threading, time

EV_SYN, EV_KEY, EV_ABS = 0, 1, 3
ABS_X, ABS_Y, ABS_MT_SLOT, ABS_MT_POSITION_X, ABS_MT_POSITION_Y, ABS_MT_TRACKING_ID = 0x00, 0x01, 0x2F, 0x35, 0x36, 0x39
ABS_MT_TOOL_TYPE = 0x37
BTN_TOUCH = 0x14A
INPUT_PROP_DIRECT = 1
UI_SET_EVBIT, UI_SET_KEYBIT, UI_SET_ABSBIT, UI_SET_PROPBIT = 0x40045564, 0x40045565, 0x40045567, 0x4004556E
UI_DEV_CREATE, UI_DEV_DESTROY = 0x5501, 0x5502
EVIOCSCLOCKID = 0x400445A0
EVENT = struct.Struct("llHHi")
NAME = "touchd-bench pass-through panel"
WIDTH, HEIGHT = 4095, 2303


def create_panel():
    fd = os.open("/dev/uinput", os.O_WRONLY | os.O_NONBLOCK)
    for ev in (EV_SYN, EV_KEY, EV_ABS):
        fcntl.ioctl(fd, UI_SET_EVBIT, ev)
    fcntl.ioctl(fd, UI_SET_KEYBIT, BTN_TOUCH)
    fcntl.ioctl(fd, UI_SET_PROPBIT, INPUT_PROP_DIRECT)
    axes = {ABS_X: WIDTH, ABS_Y: HEIGHT, ABS_MT_SLOT: 9, ABS_MT_POSITION_X: WIDTH, ABS_MT_POSITION_Y: HEIGHT,
            ABS_MT_TRACKING_ID: 65535, ABS_MT_TOOL_TYPE: 2}
    absmax = [0] * 64
    for code, top in axes.items():
        fcntl.ioctl(fd, UI_SET_ABSBIT, code)
        absmax[code] = top
    # struct uinput_user_dev: name[80], input_id (4 x u16), ff_effects_max, absmax/min/fuzz/flat[64]
    dev = NAME.encode().ljust(80, b"\0") + struct.pack("HHHHi", 0x18, 0x1234, 0x5678, 1, 0)
    dev += struct.pack("64i", *absmax) + struct.pack("64i", *([0] * 64)) * 3
    os.write(fd, dev)
    fcntl.ioctl(fd, UI_DEV_CREATE)
    return fd


def nodes_named(suffix_or_name, exact):
    found = []
    for n in os.listdir("/sys/class/input"):
        if not n.startswith("event"):
            continue
        try:
            name = open(f"/sys/class/input/{n}/device/name").read().strip()
        except OSError:
            continue
        if (name == suffix_or_name) if exact else name.endswith(suffix_or_name):
            found.append((int(n[5:]), "/dev/input/" + n))
    return [node for _, node in sorted(found)]


def wait_for(predicate, seconds=30):
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        value = predicate()
        if value:
            return value
        time.sleep(0.05)
    raise SystemExit("timed out waiting")


def cpu_seconds(pids):
    ticks = os.sysconf("SC_CLK_TCK")
    total = 0
    for pid in pids:
        fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
        total += int(fields[11]) + int(fields[12])
    return total / ticks


class Reader(threading.Thread):
    """Reads the forwarded device; records each SYN_REPORT's kernel time (CLOCK_MONOTONIC)."""

    def __init__(self, node):
        super().__init__(daemon=True)
        self.fd = os.open(node, os.O_RDONLY | os.O_NONBLOCK)
        fcntl.ioctl(self.fd, EVIOCSCLOCKID, struct.pack("i", time.CLOCK_MONOTONIC))
        self.syns = []
        self.stop = False

    def run(self):
        while not self.stop:
            r, _, _ = select.select([self.fd], [], [], 0.2)
            if not r:
                continue
            try:
                data = os.read(self.fd, EVENT.size * 256)
            except BlockingIOError:
                continue
            for i in range(0, len(data), EVENT.size):
                sec, usec, etype, code, _ = EVENT.unpack_from(data, i)
                if etype == EV_SYN and code == 0:
                    self.syns.append(sec + usec / 1e6)


def frames(seconds, rate=240):
    """The synthetic stream of scripts/bench-tools.py: 10 fingers in columns, moving down and back."""
    count = int(seconds * rate)
    for f in range(count):
        events = []
        for s in range(10):
            events.append((EV_ABS, ABS_MT_SLOT, s))
            if f == 0:
                events.append((EV_ABS, ABS_MT_TRACKING_ID, 100 + s))
            events.append((EV_ABS, ABS_MT_POSITION_X, WIDTH * (s + 1) // 11 + (f % 40)))
            events.append((EV_ABS, ABS_MT_POSITION_Y, HEIGHT // 10 + (f * 2) % (HEIGHT * 8 // 10)))
        if f == 0:
            events.append((EV_KEY, BTN_TOUCH, 1))
        events.append((EV_SYN, 0, 0))
        yield events
    end = []
    for s in range(10):
        end += [(EV_ABS, ABS_MT_SLOT, s), (EV_ABS, ABS_MT_TRACKING_ID, -1)]
    yield end + [(EV_KEY, BTN_TOUCH, 0), (EV_SYN, 0, 0)]


def main():
    mode = sys.argv[1]
    seconds = float(sys.argv[-1])
    panel = create_panel()
    original = wait_for(lambda: (nodes_named(NAME, True) or [None])[0])
    if mode == "touchd":
        config = tempfile.NamedTemporaryFile("w", suffix=".yaml", delete=False)
        config.write(f'devices:\n  - match: {{name: "{NAME}"}}\n    passThrough: true\n')
        config.close()
        forwarder = [subprocess.Popen([sys.argv[2], "--config", config.name, "--socket", "/tmp/bench-pt.sock",
                                       "--log-level", "warning"], stdout=subprocess.DEVNULL)]
        forwarded = wait_for(lambda: (nodes_named(" (touchd pass-through)", False) or [None])[0])
    else:
        # Debian names interception-tools' `intercept` `interception`.
        intercept = subprocess.Popen(["/usr/bin/interception", "-g", original], stdout=subprocess.PIPE)
        uinput = subprocess.Popen(["/usr/bin/uinput", "-d", original], stdin=intercept.stdout, stdout=subprocess.DEVNULL)
        intercept.stdout.close()
        forwarder = [intercept, uinput]
        forwarded = wait_for(lambda: ([n for n in nodes_named(NAME, True) if n != original] or [None])[0])
    time.sleep(1.0)  # the forwarder has grabbed and settled
    reader = Reader(forwarded)
    reader.start()
    pids = [p.pid for p in forwarder]
    cpu0 = cpu_seconds(pids)
    writes = []
    start = time.monotonic() + 0.2
    for i, events in enumerate(frames(seconds)):
        due = start + i / 240
        pause = due - time.monotonic()
        if pause > 0:
            time.sleep(pause)
        buf = b"".join(EVENT.pack(0, 0, t, c, v) for t, c, v in events)
        # Taken before the write: the kernel stamps the frame during it, and a
        # forwarder on the other core may have forwarded it before it returns.
        writes.append(time.monotonic())
        os.write(panel, buf)
    time.sleep(0.5)
    cpu = cpu_seconds(pids) - cpu0
    reader.stop = True
    reader.join()
    for p in forwarder:
        p.terminate()
    for p in forwarder:
        p.wait()
    fcntl.ioctl(panel, UI_DEV_DESTROY)
    n = min(len(writes), len(reader.syns))
    lat = sorted((reader.syns[i] - writes[i]) * 1e6 for i in range(n))

    def pct(p):
        return lat[min(n - 1, int(p * n))] if n else float("nan")

    print(f"mode={mode} frames={len(writes)} forwarded={len(reader.syns)} p50_us={pct(0.5):.0f} p99_us={pct(0.99):.0f} "
          f"max_us={lat[-1] if n else float('nan'):.0f} cpu_s={cpu:.2f} stream_s={seconds}")


if __name__ == "__main__":
    main()
