#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Pass-through under real compositors (docs/pass-through.md, "Testing under
real compositors"), run as root in the QEMU guest by scripts/compositor-test.sh.

A uinput touchscreen described like a real recording (the Atmel maXTouch of
Tests/Fixtures/real) is played by this script; a real compositor (cage, sway,
weston) reads it, directly or through touchd's pass-through mirror; a real
Wayland client (scripts/touch-recorder.c, a fullscreen surface) writes every
wl_touch event it gets. Each case is played without touchd (the compositor
reads the touchscreen itself: the case and its assertion must hold there, so
the harness can fail) and with touchd in front, and asserts what the app got.

Usage: compositor_cases.py test --touchd BIN --recorder BIN --results DIR
                           [--compositors cage,sway,weston,mutter,kwin] [--cases a,b]
       compositor_cases.py bench --touchd BIN --recorder BIN --results DIR
                           [--compositors sway] [--taps N]
Writes DIR/results.json (and the table to stdout); exit status 0 when every
case passed in both modes, 1 otherwise.
"""
import argparse, fcntl, glob, json, os, pwd, re, select, shutil, signal, struct, subprocess, sys, threading, time

ROOT = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
DESC = os.path.join(ROOT, "Tests/Fixtures/real/evemu-devices/touchscreens/Atmel maXTouch Touchscreen.desc")
USER_UID = USER_GID = 65534  # nobody: sway refuses to run as root
PHYS_MAIN = "touchd-compositor-test/panel0"
PHYS_CAL = "touchd-compositor-test/calibrated0"
PHYS_GNOME = "touchd-compositor-test/gnome0"
# mutter-touchscreen-output's panel: the same description with a vendor and product of its own
# (Atmel's USB vendor id): a mirror left at uinput's 0000:0000 would miss its setting.
GNOME_PANEL_IDS = (0x03EB, 0x211C)
# A claimed touch may end for the app after the finger lifted (touchd's default
# "lift" ending holds it still and lifts it at least 350 ms after its down,
# docs/pass-through.md): the marker tap waits that long, so the ending counts.
CLAIM_ENDING = 0.6
GUARD_SOCKET = "/run/touchd-guard/guard.sock"
GUARD = None  # the guard process, started with the first touchd
UDEV_RULE = ('SUBSYSTEM=="input", KERNEL=="event*", ATTRS{name}=="Atmel maXTouch Touchscreen", '
             'ATTRS{phys}=="%s", ENV{LIBINPUT_CALIBRATION_MATRIX}="0.5 0 0 0 0.5 0"\n' % PHYS_CAL)

EV_SYN, EV_KEY, EV_ABS = 0, 1, 3
ABS_X, ABS_Y, ABS_MT_SLOT, ABS_MT_POSITION_X, ABS_MT_POSITION_Y, ABS_MT_TRACKING_ID = 0, 1, 0x2F, 0x35, 0x36, 0x39
BTN_TOUCH = 0x14A
UI_SET_EVBIT, UI_SET_KEYBIT, UI_SET_ABSBIT, UI_SET_PROPBIT = 0x40045564, 0x40045565, 0x40045567, 0x4004556E
UI_DEV_SETUP, UI_ABS_SETUP, UI_DEV_CREATE, UI_DEV_DESTROY = 0x405C5503, 0x401C5504, 0x5501, 0x5502
UI_SET_PHYS = 0x4008556C
UI_GET_SYSNAME_64 = 0x8040552C
EVIOCSCLOCKID = 0x400445A0
EVENT = struct.Struct("llHHi")
SET_BIT = {0x01: UI_SET_KEYBIT, 0x03: UI_SET_ABSBIT}


def log(*args):
    print(f"[{time.monotonic():9.2f}] compositor-test:", *args, file=sys.stderr, flush=True)


def wait_for(what, predicate, timeout):
    """Polls predicate until it returns something true; None after timeout."""
    end = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() > end:
            log(f"timed out after {timeout:.0f} s waiting for {what}")
            return None
        time.sleep(0.02)


# --- the touchscreen ----------------------------------------------------------

class Panel:
    """A uinput touchscreen made from an evemu description (N:, I:, P:, B:, A: lines)."""

    def __init__(self, desc_path, phys, vendor_product=None):
        name, ids, props, bits, absinfo = None, None, [], {}, {}
        for line in open(desc_path):
            kind, _, rest = line.partition(":")
            fields = rest.split()
            if kind == "N":
                name = rest.strip()
            elif kind == "I":
                ids = [int(f, 16) for f in fields]
            elif kind == "P":
                props += [int(f, 16) for f in fields]
            elif kind == "B":
                bits.setdefault(int(fields[0], 16), []).extend(int(f, 16) for f in fields[1:])
            elif kind == "A":
                absinfo[int(fields[0], 16)] = [int(f) for f in fields[1:]]
        if vendor_product:
            ids[1:3] = vendor_product
        self.name, self.phys, self.absinfo, self.ids = name, phys, absinfo, ids  # ids: bus, vendor, product, version
        self.fd = os.open("/dev/uinput", os.O_WRONLY | os.O_NONBLOCK)
        for ev_type, data in bits.items():
            codes = [i * 8 + b for i, byte in enumerate(data) for b in range(8) if byte >> b & 1]
            if ev_type == EV_SYN or not codes or ev_type not in SET_BIT:
                continue
            fcntl.ioctl(self.fd, UI_SET_EVBIT, ev_type)
            for code in codes:
                fcntl.ioctl(self.fd, SET_BIT[ev_type], code)
        fcntl.ioctl(self.fd, UI_SET_EVBIT, EV_SYN)
        for i, byte in enumerate(props):
            for b in range(8):
                if byte >> b & 1:
                    fcntl.ioctl(self.fd, UI_SET_PROPBIT, i * 8 + b)
        for code, (lo, hi, fuzz, flat, res) in absinfo.items():
            fcntl.ioctl(self.fd, UI_ABS_SETUP, struct.pack("HH6i", code, 0, 0, lo, hi, fuzz, flat, res))
        fcntl.ioctl(self.fd, UI_SET_PHYS, phys.encode() + b"\0")
        fcntl.ioctl(self.fd, UI_DEV_SETUP, struct.pack("4H80sI", *ids, name.encode()[:79], 0))
        fcntl.ioctl(self.fd, UI_DEV_CREATE)
        sysname = fcntl.ioctl(self.fd, UI_GET_SYSNAME_64, b"\0" * 64).split(b"\0")[0].decode()
        self.node = wait_for("the touchscreen's node", lambda: self._node(sysname), 30)
        self.width = absinfo[ABS_MT_POSITION_X][1] - absinfo[ABS_MT_POSITION_X][0] + 1
        self.height = absinfo[ABS_MT_POSITION_Y][1] - absinfo[ABS_MT_POSITION_Y][0] + 1
        self.slots = {}  # slot -> tracking id, for contacts down
        self.next_id = 1
        # A new contact that would begin on its slot's previous x or y is moved by
        # one unit: the kernel does not repeat an unchanged value, and only the
        # restart cases are about that (they set exact).
        self.exact = False
        self.last = {}    # slot -> [x, y] as the kernel holds them
        self.offset = {}  # slot -> (dx, dy) of the contact down

    @staticmethod
    def _node(sysname):
        found = glob.glob(f"/sys/devices/virtual/input/{sysname}/event*")
        node = "/dev/input/" + os.path.basename(found[0]) if found else None
        return node if node and os.path.exists(node) else None

    def frame(self, contacts):
        """One frame: contacts maps slot -> (x, y) (down or move) or None (lift),
        written in the given order. Returns CLOCK_MONOTONIC just before the write."""
        events = []
        for slot, pos in contacts.items():
            events.append((EV_ABS, ABS_MT_SLOT, slot))
            if pos is None:
                if self.slots.pop(slot, None) is not None:
                    events.append((EV_ABS, ABS_MT_TRACKING_ID, -1))
                continue
            if slot not in self.slots:
                last = self.last.get(slot, [None, None])
                self.offset[slot] = (0, 0) if self.exact else (int(pos[0] == last[0]), int(pos[1] == last[1]))
                self.slots[slot] = self.next_id
                events.append((EV_ABS, ABS_MT_TRACKING_ID, self.next_id))
                self.next_id = self.next_id % 60000 + 1
            pos = (pos[0] + self.offset[slot][0], pos[1] + self.offset[slot][1])
            self.last[slot] = list(pos)
            events += [(EV_ABS, ABS_MT_POSITION_X, pos[0]), (EV_ABS, ABS_MT_POSITION_Y, pos[1])]
        down = [(pos[0] + self.offset[slot][0], pos[1] + self.offset[slot][1])
                for slot, pos in contacts.items() if pos is not None]
        if down:
            events += [(EV_ABS, ABS_X, down[0][0]), (EV_ABS, ABS_Y, down[0][1])]
        events += [(EV_KEY, BTN_TOUCH, 1 if self.slots else 0), (EV_SYN, 0, 0)]
        data = b"".join(EVENT.pack(0, 0, t, c, v) for t, c, v in events)
        written = time.monotonic()
        os.write(self.fd, data)
        return written

    def tap(self, x, y, slot=0, hold=0.06):
        down = self.frame({slot: (x, y)})
        time.sleep(hold)
        up = self.frame({slot: None})
        return down, up

    def close(self):
        for slot in list(self.slots):
            self.frame({slot: None})
        fcntl.ioctl(self.fd, UI_DEV_DESTROY)
        os.close(self.fd)


def input_nodes_with_phys(phys, name=None):
    """Event nodes with this phys, or whose name begins with name: a panel and its
    mirrors (touchd gives a mirror the original's phys, and its name or the name
    with a suffix)."""
    nodes = []
    for path in glob.glob("/sys/class/input/event*"):
        try:
            if open(path + "/device/phys").read().strip() == phys or \
                    (name and open(path + "/device/name").read().strip().startswith(name)):
                nodes.append("/dev/input/" + os.path.basename(path))
        except OSError:
            pass
    return nodes


# --- the app ---------------------------------------------------------------------

class App:
    """Follows the recorder's JSON lines."""

    def __init__(self, path):
        self.path, self.offset, self.events, self.partial = path, 0, [], b""

    def poll(self):
        try:
            with open(self.path, "rb") as f:
                f.seek(self.offset)
                data = f.read()
        except FileNotFoundError:
            return self.events
        self.offset += len(data)
        data = self.partial + data
        lines = data.split(b"\n")
        self.partial = lines.pop()
        for line in lines:
            if line.strip():
                self.events.append(json.loads(line))
        return self.events

    def mark(self):
        return len(self.poll())

    def since(self, mark):
        return self.poll()[mark:]

    def wait(self, what, predicate, mark, timeout):
        return wait_for(what, lambda: predicate(self.since(mark)), timeout)


def touches(events):
    """The app's touches from its events: down position and time, moves, how each ended."""
    result, open_ = [], {}
    for e in events:
        ev = e["ev"]
        if ev == "down":
            t = {"id": e["id"], "x": e["x"], "y": e["y"], "down": e["mono"], "t": e["t"], "last": (e["x"], e["y"]),
                 "end": None, "end_mono": None, "end_t": None, "moved": 0.0}
            open_[e["id"]] = t
            result.append(t)
        elif ev == "motion" and e["id"] in open_:
            t = open_[e["id"]]
            t["last"] = (e["x"], e["y"])
            t["moved"] = max(t["moved"], ((e["x"] - t["x"]) ** 2 + (e["y"] - t["y"]) ** 2) ** 0.5)
        elif ev == "up" and e["id"] in open_:
            t = open_.pop(e["id"])
            t["end"], t["end_mono"], t["end_t"] = "up", e["mono"], e["t"]
        elif ev == "cancel":
            for t in open_.values():
                t["end"], t["end_mono"] = "cancel", e["mono"]
            open_.clear()
    return result


def tap_shaped(t):
    """A touch that ended as a click: lifted within ~10 px and ~300 ms of its down."""
    return t["end"] == "up" and t["moved"] <= 10 and t["end_mono"] - t["down"] <= 0.3


# --- processes ---------------------------------------------------------------

class Compositor:
    def __init__(self, kind, recorder, results):
        self.kind, self.recorder, self.results = kind, recorder, results
        self.runtime = f"/tmp/comp-xdg-{kind}"
        self.proc = self.client = None
        self.helpers = []  # KWin's or mutter's buses and stand-in logind, stopped after it
        self.app = None
        self.others = []  # (process, output) of apps a case added beside the first
        self.starts = 0
        self.settings_keyfile = False  # mutter: GSettings' keyfile backend (a case's settings) instead of memory

    @property
    def size(self):
        """The app surface's size: its latest configure (a compositor may configure twice)."""
        conf = [e for e in self.app.poll() if e["ev"] == "configure"]
        return (conf[-1]["w"], conf[-1]["h"]) if conf else None

    def env(self):
        env = {"PATH": "/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin", "HOME": self.runtime,
               "XDG_RUNTIME_DIR": self.runtime, "LIBSEAT_BACKEND": "seatd", "SEATD_SOCK": "/run/seatd.sock",
               "WLR_BACKENDS": "headless,libinput", "WLR_RENDERER": "pixman", "WLR_LIBINPUT_NO_DEVICES": "1",
               "XDG_SESSION_TYPE": "wayland", "LANG": "C.UTF-8"}
        if self.kind in LOGIND_KINDS:
            env.update(logind_env(self.kind, self.runtime))
        if self.kind == "mutter" and self.settings_keyfile:
            # $HOME/.config/glib-2.0/settings/keyfile (mutter-touchscreen-output).
            env["GSETTINGS_BACKEND"] = "keyfile"
        return env

    def as_user(self, argv):
        # Debian 12's weston 10 has no libseat launcher: without logind it needs its
        # direct launcher, i.e. root and a VT; it and its client run as root.
        if self.kind == "weston":
            return argv
        return ["setpriv", f"--reuid={USER_UID}", f"--regid={USER_GID}", "--clear-groups", "--"] + argv

    def start(self):
        self.starts += 1
        started = time.monotonic()
        shutil.rmtree(self.runtime, ignore_errors=True)
        os.makedirs(self.runtime, mode=0o700)
        owner = 0 if self.kind == "weston" else USER_UID
        os.chown(self.runtime, owner, owner)
        out = os.path.join(self.runtime, "app.jsonl")
        open(out, "w").close()
        os.chown(out, owner, owner)
        self.app = App(out)
        logf = open(os.path.join(self.results, f"{self.kind}-{self.starts}.log"), "w")
        env = self.env()
        if self.kind == "cage":
            argv = ["cage", "--", self.recorder, out]
        elif self.kind == "sway":
            cfg = os.path.join(self.runtime, "sway.conf")
            with open(cfg, "w") as f:
                f.write("xwayland disable\ndefault_border none\noutput * bg #202020 solid_color\n")
            argv = ["sway", "-c", cfg]
        elif self.kind in LOGIND_KINDS:
            self.helpers = start_logind_buses(self.kind, self.runtime, self.results, self.starts)
            if not self.helpers:
                return False
            if self.kind == "kwin":
                argv = ["kwin_wayland", "--drm", "--no-lockscreen", "--no-global-shortcuts"]
            else:
                argv = ["mutter", "--wayland", "--display-server", "--no-x11"]
        else:
            argv = ["weston", "--backend=drm-backend.so", "--tty=2", "--shell=kiosk-shell.so", "--use-pixman",
                    "--idle-time=0", "--log=" + os.path.join(self.results, f"weston-{self.starts}-weston.log")]
        self.proc = subprocess.Popen(self.as_user(argv), env=env, stdout=logf, stderr=subprocess.STDOUT,
                                     start_new_session=True)
        if self.kind != "cage":
            # KWin and mutter take minutes to start under TCG (KWin's socket early, its first client
            # served late).
            sock = wait_for(f"{self.kind}'s Wayland socket", self._socket, 240 if self.kind in LOGIND_KINDS else 60)
            if not sock:
                return False
            env["WAYLAND_DISPLAY"] = sock
            self.client = subprocess.Popen(self.as_user([self.recorder, out]), env=env, stdout=logf,
                                           stderr=subprocess.STDOUT, start_new_session=True)
        # The fullscreen size: a compositor may first configure 0x0 (the recorder then says 640x480).
        up = bool(self.app.wait("the app's fullscreen surface", lambda ev: [
            e for e in ev if e["ev"] == "configure" and (e["w"], e["h"]) != (640, 480)], 0,
            240 if self.kind in LOGIND_KINDS else 60))
        log(f"{self.kind} start {self.starts}: the app's surface {'configured' if up else 'MISSING'} after "
            f"{time.monotonic() - started:.1f} s")
        return up

    def start_app(self, app_id):
        """Another recorder beside the first, with its own app id and output."""
        owner = 0 if self.kind == "weston" else USER_UID
        out = os.path.join(self.runtime, f"app-{app_id}.jsonl")
        open(out, "w").close()
        os.chown(out, owner, owner)
        env = self.env()
        env.update(WAYLAND_DISPLAY=self._socket(), TOUCH_RECORDER_APP_ID=app_id)
        logf = open(os.path.join(self.results, f"{self.kind}-{self.starts}-{app_id}.log"), "w")
        proc = subprocess.Popen(self.as_user([self.recorder, out]), env=env, stdout=logf, stderr=subprocess.STDOUT,
                                start_new_session=True)
        self.others.append((proc, out))
        return App(out)

    def _socket(self):
        if self.proc.poll() is not None:
            raise SystemExit(f"{self.kind} exited with status {self.proc.returncode} (see its log)")
        for path in glob.glob(self.runtime + "/wayland-*"):
            if not path.endswith(".lock"):
                return os.path.basename(path)
        return None

    def has_open(self, node):
        """Whether the compositor holds node open (libinput opened the device)."""
        try:
            for fd in os.listdir(f"/proc/{self.proc.pid}/fd"):
                try:
                    if os.readlink(f"/proc/{self.proc.pid}/fd/{fd}") == node:
                        return True
                except OSError:
                    pass
        except OSError:
            pass
        return False

    def swaymsg(self, *args):
        socks = glob.glob(self.runtime + "/sway-ipc.*.sock")
        env = self.env()
        env["SWAYSOCK"] = socks[0] if socks else ""
        return subprocess.run(self.as_user(["swaymsg"] + list(args)), env=env, capture_output=True, text=True)

    def stop(self):
        if self.app:
            shutil.copy(self.app.path, os.path.join(self.results, f"{self.kind}-{self.starts}-app.jsonl"))
        for _, out in self.others:
            shutil.copy(out, os.path.join(self.results, f"{self.kind}-{self.starts}-{os.path.basename(out)}"))
        for p in [p for p, _ in self.others] + [self.client, self.proc]:
            if p and p.poll() is None:
                try:
                    os.killpg(p.pid, signal.SIGTERM)
                except ProcessLookupError:
                    pass
        for p in [p for p, _ in self.others] + [self.client, self.proc]:
            if p:
                try:
                    p.wait(10)
                except subprocess.TimeoutExpired:
                    os.killpg(p.pid, signal.SIGKILL)
                    p.wait()
        self.client = self.proc = None
        self.others = []
        for p in self.helpers:
            p.terminate()
            p.wait()
        self.helpers = []
        if self.kind == "mutter":
            remove_sd_login_session()


# --- KWin and mutter: a private system bus with a stand-in logind, and a session bus ---------
# KWin 5.27 and mutter 43 open the GPU and the input devices only through a logind session; the
# guest has no systemd. The buses are the compositor's alone: touchd keeps seeing no logind (no
# session on the seat), as under the other compositors.

LOGIND_KINDS = ("kwin", "mutter")

LOGIND_BUS_CONFIG = """<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>system</type>
  <listen>unix:path=%s</listen>
  <auth>EXTERNAL</auth>
  <policy context="default">
    <allow user="*"/>
    <allow own="*"/>
    <allow send_destination="*"/>
    <allow receive_sender="*"/>
  </policy>
</busconfig>
"""


def logind_home(kind):
    return f"/tmp/comp-home-{kind}"  # kept across restarts: the first start fills the caches


def logind_env(kind, runtime):
    env = {"HOME": logind_home(kind), "DBUS_SYSTEM_BUS_ADDRESS": f"unix:path={runtime}/system_bus_socket",
           "DBUS_SESSION_BUS_ADDRESS": f"unix:path={runtime}/session_bus_socket",
           # The session the stand-in logind gives (scripts/stand_in_logind.py).
           "XDG_SESSION_ID": "c1"}
    if kind == "kwin":
        # QPainter: no GL in the guest. Seconds since KWin started on each line of its log:
        # where its start-up time goes.
        env.update({"KWIN_COMPOSE": "Q", "XDG_CURRENT_DESKTOP": "KDE",
                    "QT_MESSAGE_PATTERN": "%{time process} %{category}: %{message}"})
    else:
        # Settings in memory: no dconf service on the private session bus.
        env.update({"XDG_CURRENT_DESKTOP": "GNOME", "GSETTINGS_BACKEND": "memory"})
    return env


# mutter 43 finds its session with sd-login (sd_pid_get_session, then sd_uid_get_display), which
# reads logind's state files, not the bus: these stand for the stand-in logind's session c1.
SD_LOGIN_USER = "/run/systemd/users/%d"
SD_LOGIN_SESSION = "/run/systemd/sessions/c1"


def write_sd_login_session():
    os.makedirs("/run/systemd/users", exist_ok=True)
    os.makedirs("/run/systemd/sessions", exist_ok=True)
    with open(SD_LOGIN_USER % USER_UID, "w") as f:
        f.write("STATE=active\nDISPLAY=c1\nSESSIONS=c1\nSEATS=seat0\nACTIVE_SESSIONS=c1\nONLINE_SESSIONS=c1\n")
    with open(SD_LOGIN_SESSION, "w") as f:
        f.write(f"UID={USER_UID}\nUSER={pwd.getpwuid(USER_UID).pw_name}\nACTIVE=1\nSTATE=active\nTYPE=wayland\n"
                "CLASS=user\nSEAT=seat0\nVTNR=2\nREMOTE=0\n")


def remove_sd_login_session():
    for path in (SD_LOGIN_USER % USER_UID, SD_LOGIN_SESSION):
        try:
            os.unlink(path)
        except FileNotFoundError:
            pass


def start_logind_buses(kind, runtime, results, starts):
    """The system bus (root: the stand-in logind opens devices), the stand-in logind on it, and a
    session bus as the compositor's user. Returns their processes, [] when one did not come up."""
    env = {"PATH": "/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin", **logind_env(kind, runtime)}
    home = logind_home(kind)
    if not os.path.isdir(home):
        os.makedirs(home, mode=0o700)
        os.chown(home, USER_UID, USER_GID)
    if kind == "mutter":
        write_sd_login_session()
    cfg = os.path.join(runtime, "system-bus.conf")
    with open(cfg, "w") as f:
        f.write(LOGIND_BUS_CONFIG % os.path.join(runtime, "system_bus_socket"))
    logf = open(os.path.join(results, f"{kind}-{starts}-logind.log"), "w")
    procs = [subprocess.Popen(["dbus-daemon", "--config-file", cfg, "--nofork", "--nopidfile"], env=env,
                              stdout=logf, stderr=subprocess.STDOUT)]
    procs.append(subprocess.Popen(
        ["setpriv", f"--reuid={USER_UID}", f"--regid={USER_GID}", "--clear-groups", "--",
         "dbus-daemon", "--session", "--address", env["DBUS_SESSION_BUS_ADDRESS"], "--nofork", "--nopidfile"],
        env=env, stdout=logf, stderr=subprocess.STDOUT))
    if not wait_for(f"{kind}'s system bus", lambda: os.path.exists(os.path.join(runtime, "system_bus_socket")), 60):
        return []
    procs.append(subprocess.Popen(["/usr/bin/python3", "-m", "dbusmock", "--system", "--template",
                                   os.path.join(ROOT, "scripts/stand_in_logind.py"), "-p",
                                   json.dumps({"uid": USER_UID, "user": pwd.getpwuid(USER_UID).pw_name})],
                                  env=env, stdout=logf, stderr=subprocess.STDOUT))

    def logind_up():
        return subprocess.run(["dbus-send", "--system", "--print-reply", "--dest=org.freedesktop.DBus", "/",
                               "org.freedesktop.DBus.NameHasOwner", "string:org.freedesktop.login1"],
                              env=env, capture_output=True, text=True).stdout.strip().endswith("true")
    if not wait_for("the stand-in logind", logind_up, 120):  # python starts slowly under TCG
        for p in procs:
            p.terminate()
        return []
    return procs


class Touchd:
    def __init__(self, binary, results, kind):
        self.binary, self.results, self.kind = binary, results, kind
        self.config = os.path.join(results, "touchd-test.yaml")
        self.socket = "/run/touchd-compositor-test.sock"
        self.proc = None
        self.starts = 0
        self.ending = "lift"  # passThroughEnding (docs/pass-through.md, "How a taken touch ends")
        self.screen = None

    def write_config(self, width, height, priority=0, ending="lift"):
        self.ending, self.screen = ending, (width, height)
        with open(self.config, "w") as f:
            f.write(f"""# The compositor tests' configuration (scripts/compositor_cases.py).
screens:
  - {{name: main, width: {width}, height: {height}, sizeMM: {{width: 217, height: 122}}}}
devices:
  - match: {{name: "Atmel maXTouch*"}}
    passThrough: true
    passThroughEnding: {ending}
shortcuts:
  - {{name: switcher, kind: swipe, minTouches: 3, maxTouches: 3, directions: [left, right]}}
  # Four fingers, so no other case's touches make a long press of it.
  - {{name: context-menu, kind: long-press, minTouches: 4, maxTouches: 4, click: right}}
  # Only over the recorder app (focus-follow, focus-switch): off while touchd does not know the
  # focus. F13: a key sway binds to nothing, so the focused app gets it.
  - {{name: over-recorder, kind: swipe, minTouches: 3, maxTouches: 3, directions: [up], apps: [{RECORDER_APP_ID}], keys: [KEY_F13]}}
access:
  claimTouches: {{users: [root]}}
# The compositor's user reaches the socket: the focus follower, report-compositor (claim-shortcut-auto).
socket: {{mode: "0660", group: "{USER_GID}"}}
scheduling:
  realtimePriority: {priority}
""")

    def start(self):
        self.starts += 1
        self.start_guard()
        logf = open(os.path.join(self.results, f"touchd-{self.kind}-{self.starts}.log"), "w")
        self.proc = subprocess.Popen([self.binary, "--config", self.config, "--socket", self.socket,
                                      "--log-level", "info"], stdout=logf, stderr=subprocess.STDOUT,
                                     env={**os.environ, "TOUCHD_GUARD_SOCKET": GUARD_SOCKET})

    def start_guard(self):
        """The pass-through guard, as touchd-guard.service runs it: its own process
        (group), so a SIGSTOP or SIGKILL of touchd does not reach it."""
        global GUARD
        if GUARD is not None and GUARD.poll() is None:
            return
        os.makedirs(os.path.dirname(GUARD_SOCKET), exist_ok=True)
        if os.path.exists(GUARD_SOCKET):
            os.unlink(GUARD_SOCKET)
        logf = open(os.path.join(self.results, "guard.log"), "a")
        GUARD = subprocess.Popen([self.binary, "--pass-through-guard", GUARD_SOCKET], stdout=logf,
                                 stderr=subprocess.STDOUT, start_new_session=True)
        wait_for("the pass-through guard's socket", lambda: os.path.exists(GUARD_SOCKET) or GUARD.poll() is not None, 20)

    def send(self, sig):
        if self.proc and self.proc.poll() is None:
            self.proc.send_signal(sig)

    def stop(self, sig=signal.SIGTERM):
        if not self.proc:
            return
        self.send(signal.SIGCONT)
        self.send(sig)
        try:
            self.proc.wait(15)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        self.proc = None


# --- the run -------------------------------------------------------------------

class Run:
    """One compositor with its app, the panel, touchd when in front."""

    def __init__(self, args, kind, panel):
        self.args, self.kind, self.panel = args, kind, panel
        self.comp = Compositor(kind, args.recorder, args.results)
        self.touchd = Touchd(args.touchd, args.results, kind)
        self.with_touchd = False
        self.mirrors = {}  # original node -> mirror node
        self.marker_lost = False
        self.force_restart = False  # a case changed the compositor's settings: start it afresh after
        self.pass_through_off = False  # after sigstop: touchd's mirror is gone until it restarts

    # Where a panel position lands on the app's fullscreen surface (libinput's scaling).
    def expect(self, x, y, matrix=(1, 0, 0, 0, 1, 0)):
        nx, ny = x / self.panel.width, y / self.panel.height
        cx = matrix[0] * nx + matrix[1] * ny + matrix[2]
        cy = matrix[3] * nx + matrix[4] * ny + matrix[5]
        return cx * self.comp.size[0], cy * self.comp.size[1]

    def near(self, t, x, y, matrix=(1, 0, 0, 0, 1, 0)):
        ex, ey = self.expect(x, y, matrix)
        tol = max(4.0, 0.01 * self.comp.size[0])
        return abs(t["x"] - ex) <= tol and abs(t["y"] - ey) <= tol

    def where(self, t):
        return f"({t['x']:.0f},{t['y']:.0f})"

    def reading_node(self, panel):
        return self.mirrors.get(panel.node, panel.node) if self.with_touchd else panel.node

    def wait_reading(self, panel, timeout=60):
        node = self.reading_node(panel)
        return wait_for(f"{self.kind} to open {node}", lambda: self.comp.has_open(node), timeout)

    def start_compositor(self):
        if not self.comp.start():
            return False
        if not self.wait_reading(self.panel):
            return False
        # cage (and the app) see the touch capability only once input arrives: prime with taps.
        for _ in range(40):
            mark = self.comp.app.mark()
            self.panel.tap(*PRIME)
            if self.comp.app.wait("the priming tap", lambda ev: [e for e in ev if e["ev"] == "up"], mark, 1.0):
                return True
        return False

    def start_touchd(self, panels=None):
        panels = panels or [self.panel]
        before = {p.node: set(input_nodes_with_phys(p.phys, p.name)) for p in panels}
        self.touchd.start()
        for p in panels:
            mirror = wait_for(f"touchd's mirror of {p.node}",
                              lambda: (sorted(set(input_nodes_with_phys(p.phys, p.name)) - before[p.node] - {p.node}) or [None])[0],
                              60)
            if not mirror:
                return False
            self.mirrors[p.node] = mirror
        self.with_touchd = True
        return all(self.wait_reading(p) for p in panels)

    def stop_touchd(self, sig=signal.SIGTERM):
        self.touchd.stop(sig)
        gone = list(self.mirrors.values())
        self.mirrors.clear()
        self.with_touchd = False
        wait_for("the mirrors to go", lambda: not any(os.path.exists(n) for n in gone), 15)

    def restart_touchd(self):
        self.stop_touchd()
        return self.start_touchd()

    def settle(self, mark):
        """Plays a marker tap and returns what the app got before it: the case's events."""
        self.panel.tap(*MARKER)
        tol = max(4.0, 0.01 * self.comp.size[0])
        mx, my = self.expect(*MARKER)

        def found(ev):
            for i, e in enumerate(ev):
                if e["ev"] == "down" and abs(e["x"] - mx) <= tol and abs(e["y"] - my) <= tol:
                    if any(f["ev"] in ("up", "cancel") for f in ev[i:]):
                        return i + 1
            return None
        index = self.comp.app.wait("the marker tap", found, mark, 5.0)
        self.marker_lost = self.marker_lost or not index
        events = self.comp.app.since(mark)
        return events[:index - 1] if index else events

    def wait_ended(self, mark, count=1, timeout=3.0):
        return self.comp.app.wait("the app's touches to end", lambda ev: (
            len(touches(ev)) >= count and all(t["end"] for t in touches(ev))), mark, timeout)


PRIME = (200, 360)
MARKER = (100, 100)
CENTRE = (400, 240)


def describe(ts):
    if not ts:
        return "no touch"
    parts = []
    for t in ts:
        parts.append(f"down {t['x']:.0f},{t['y']:.0f} " + (t["end"] or "NEVER ENDED"))
    return "; ".join(parts)


# --- the cases ---------------------------------------------------------------
# Each returns (passed, what the app got). r.with_touchd says which mode.

def case_tap(r):
    mark = r.comp.app.mark()
    r.panel.tap(*CENTRE)
    ts = touches(r.settle(mark))
    ok = len(ts) == 1 and r.near(ts[0], *CENTRE) and ts[0]["end"] == "up"
    return ok, describe(ts)


def edge_swipe(r):
    x, y = 400, 478
    r.panel.frame({0: (x, y)})
    for k in range(1, 11):
        time.sleep(0.02)
        r.panel.frame({0: (x, y - 15 * k)})
    time.sleep(0.02)
    r.panel.frame({0: None})


def case_edge_swipe(r):
    mark = r.comp.app.mark()
    edge_swipe(r)
    ts = touches(r.settle(mark))
    if r.with_touchd:
        return not ts, describe(ts)
    return len(ts) == 1 and r.near(ts[0], 400, 478) and ts[0]["end"] == "up", describe(ts)


def case_edge_tap(r):
    mark = r.comp.app.mark()
    _, lift = r.panel.tap(400, 478, hold=0.08)
    ts = touches(r.settle(mark))
    ok = len(ts) == 1 and r.near(ts[0], 400, 478) and ts[0]["end"] == "up"
    detail = describe(ts)
    if ts:
        at_lift = ts[0]["down"] >= lift
        detail += " (down after the lift)" if at_lift else " (down before the lift)"
        ok = ok and at_lift == r.with_touchd
    return ok, detail


def claim_verdict(r, ts, claimed):
    if not ts:
        return (r.with_touchd and claimed), "no touch" + ("" if claimed else "; touchd did not claim")
    stuck = [t for t in ts if not t["end"]]
    taps = [t for t in ts if tap_shaped(t)]
    ok = not stuck and not taps and (claimed or not r.with_touchd)
    detail = describe(ts)
    if taps:
        detail += f"; {len(taps)} ended as a tap"
    if r.with_touchd and not claimed:
        detail += "; touchd did not claim"
    return ok, detail


def client_saw(path, pred):
    try:
        return any(pred(json.loads(line)) for line in open(path) if line.strip())
    except (OSError, ValueError):
        return False


def start_client(r, name, extra):
    path = os.path.join(r.args.results, f"client-{r.kind}-{name}.jsonl")
    open(path, "w").close()
    proc = subprocess.Popen([sys.executable, os.path.join(ROOT, "scripts/compositor_client.py"), r.touchd.socket,
                             path] + extra, stderr=subprocess.DEVNULL)
    # Python's start-up alone takes 15 s and more under TCG on a loaded host.
    wait_for("the touchd client", lambda: client_saw(path, lambda m: m.get("type") in ("ready", "error")), 60)
    return proc, path


def case_shortcut(r):
    return claim_verdict(r, *play_shortcut(r))


def play_shortcut(r):
    """Three fingers moving left: touchd's `switcher` shortcut claims them. Returns the app's
    touches and whether touchd's client saw the shortcut."""
    return play_three_fingers(r, "shortcut", "switcher", [(300, 240), (400, 240), (500, 240)], (-20, 0))


def play_three_fingers(r, name, recognizer, starts, step):
    """Three fingers down at `starts`, moved by `step` twelve times 20 ms apart, lifted. Returns
    the app's touches and whether touchd's client (output `name`) saw `recognizer`."""
    proc = path = None
    if r.with_touchd:
        proc, path = start_client(r, name, [])
    mark = r.comp.app.mark()
    r.panel.frame({s: starts[s] for s in range(3)})
    for k in range(1, 13):
        time.sleep(0.02)
        r.panel.frame({s: (starts[s][0] + step[0] * k, starts[s][1] + step[1] * k) for s in range(3)})
    time.sleep(0.05)
    r.panel.frame({s: None for s in range(3)})
    time.sleep(CLAIM_ENDING)
    ts = touches(r.settle(mark))
    claimed = False
    if proc:
        claimed = client_saw(path, lambda m: m.get("recognizer") == recognizer)
        proc.terminate()
        proc.wait()
    return ts, claimed


def case_drag(r):
    return claim_verdict(r, *play_drag(r))


def play_drag(r):
    """A finger held 700 ms, then moved: touchd's client's drag claims it."""
    proc = path = None
    if r.with_touchd:
        proc, path = start_client(r, "drag", ["--drag", str(r.touchd_screen[0]), str(r.touchd_screen[1])])
    mark = r.comp.app.mark()
    r.panel.frame({0: CENTRE})
    time.sleep(0.7)  # the drag's long press (500 ms)
    for k in range(1, 11):
        time.sleep(0.02)
        r.panel.frame({0: (CENTRE[0] + 10 * k, CENTRE[1])})
    time.sleep(0.1)
    r.panel.frame({0: None})
    time.sleep(CLAIM_ENDING)
    ts = touches(r.settle(mark))
    claimed = False
    if proc:
        claimed = client_saw(path, lambda m: m.get("kind") == "drag" and m.get("phase") in ("began", "changed")) \
            or client_saw(path, lambda m: m.get("recognizer") == "drag" and m.get("state") == "began")
        proc.terminate()
        proc.wait()
    return ts, claimed


# What each compositor does with libinput's TOUCH_CANCEL (docs/pass-through.md, "Compositors and
# cancels"): the cases run with `passThroughEnding: cancel` assert it, so a row of that table
# that stops being true fails here.
CANCEL_PASSED_ON = {"cage": False, "sway": False, "weston": False, "kwin": True, "mutter": False}


def cancel_verdict(r, ts, claimed):
    """With touchd ending taken touches with a cancel: where the compositor passes it on, every
    touch the app got ends with `cancel`; where it drops it, none ends at all (and none with an up:
    libinput reports no TOUCH_UP for a cancelled contact). Without touchd, as claim_verdict."""
    if not r.with_touchd:
        return claim_verdict(r, ts, claimed)
    passed = CANCEL_PASSED_ON[r.kind]
    detail = describe(ts) + ("" if claimed else "; touchd did not claim")
    detail += "; expected: each cancel" if passed else "; expected: none ended (the cancel dropped)"
    if not ts or not claimed:
        return False, detail
    if passed:
        return all(t["end"] == "cancel" for t in ts), detail
    return all(t["end"] is None for t in ts), detail


def case_shortcut_cancel(r):
    return cancel_verdict(r, *play_shortcut(r))


def case_drag_cancel(r):
    return cancel_verdict(r, *play_drag(r))


# What `passThroughEnding: auto` picks once `touchctl report-compositor` has reported the
# compositor (CompositorCancels.verdict): the program name it reports, and the ending.
# The process name `touchctl report-compositor` reports for a compositor (its /proc/PID/comm).
PROCESS_NAME = {"kwin": "kwin_wayland", "mutter": "mutter"}


def case_shortcut_auto(r):
    """`passThroughEnding: auto` (ENDING) with `touchctl report-compositor` run as the compositor's
    user with its environment: touchd logs the ending it picked from the report, and the app sees
    it. Where the compositor passes cancels on (KWin), each touch ends with `wl_touch.cancel`;
    elsewhere touchd lifts (ups, none tap-shaped). Without touchd, as claim-shortcut."""
    if not r.with_touchd:
        return claim_verdict(r, *play_shortcut(r))
    # `auto` cancels exactly where the compositor passes cancels on (the compatibility table).
    name, ending = PROCESS_NAME.get(r.kind, r.kind), "cancel" if CANCEL_PASSED_ON[r.kind] else "lift"
    touchd_log = os.path.join(r.touchd.results, f"touchd-{r.kind}-{r.touchd.starts}.log")
    log_path = os.path.join(r.args.results, f"report-compositor-{r.kind}.log")
    reporter = subprocess.Popen(r.comp.as_user([r.args.touchctl, "report-compositor", "--socket", r.touchd.socket]),
                                env=r.comp.env(), stdout=open(log_path, "w"), stderr=subprocess.STDOUT)
    try:
        # Long: the report's version comes from dpkg-query -S, which reads every package's file
        # list (tens of seconds under TCG on the host's file system).
        picked = wait_for("touchd to pick the ending from the report", lambda: next((
            line.split("taken touches end: ", 1)[1].split(" device=")[0].strip() for line in open(touchd_log)
            if "taken touches end: " in line and "(auto: " in line and "compositor unknown" not in line), None), 120)
        said = open(log_path).read().strip().replace("\n", " / ")[-300:]
        if not picked:
            # Why the probe may not see the compositor: its user cannot read its descriptors
            # (a non-dumpable process, prctl(PR_SET_DUMPABLE, 0)).
            fds = subprocess.run(r.comp.as_user(["ls", f"/proc/{r.comp.proc.pid}/fd"]), capture_output=True, text=True)
            readable = "readable" if fds.returncode == 0 else f"not readable ({fds.stderr.strip()[-120:]})"
            return False, (f"touchd picked no ending from a report (report-compositor: {said}); "
                           f"the compositor's /proc/PID/fd as its user: {readable}")
        detail = f"touchd: {picked}"
        ts, claimed = play_shortcut(r)
    finally:
        reporter.terminate()
        reporter.wait()
    ok = picked.startswith(f"{ending} (auto: {name} ")
    if not ok:
        detail += f"; expected {ending} (auto: {name} ...) (report-compositor: {said})"
    detail += "; " + describe(ts) + ("" if claimed else "; touchd did not claim")
    if not ts or not claimed:
        return False, detail
    if ending == "cancel":
        return ok and all(t["end"] == "cancel" for t in ts), detail + "; expected: each cancel"
    passed, _ = claim_verdict(r, ts, claimed)
    return ok and passed and all(t["end"] == "up" for t in ts), detail + "; expected: each up, none a tap"


def case_ten_fingers(r):
    """Every slot of the panel down in one frame, then lifted in one frame."""
    slots = r.panel.absinfo[ABS_MT_SLOT][1] + 1
    places = {s: (80 + 70 * s, 200 + 10 * s) for s in range(slots)}
    mark = r.comp.app.mark()
    r.panel.frame(dict(places))
    time.sleep(0.08)
    r.panel.frame({s: None for s in range(slots)})
    ts = touches(r.settle(mark))
    placed = sum(1 for p in places.values() if any(r.near(t, *p) for t in ts))
    ok = len(ts) == slots and placed == slots and all(t["end"] == "up" for t in ts)
    detail = f"{len(ts)} touches, {placed} of {slots} where played, " + \
        f"{sum(1 for t in ts if t['end'] == 'up')} ended with up"
    if r.with_touchd and r.touchd.proc.poll() is not None:
        ok, detail = False, detail + f"; touchd exited with status {r.touchd.proc.returncode}"
        r.stop_touchd()
        if not r.start_touchd():
            detail += "; touchd did not come back"
    return ok, detail


def case_sigkill(r):
    with_touchd = r.with_touchd  # stop_touchd clears it
    mark = r.comp.app.mark()
    r.panel.frame({0: CENTRE})
    if not r.comp.app.wait("the down", lambda ev: [e for e in ev if e["ev"] == "down"], mark, 3.0):
        r.panel.frame({0: None})
        return False, "the app got no down"
    if with_touchd:
        r.stop_touchd(signal.SIGKILL)
    ended = r.comp.app.wait("the app's touch to end", lambda ev: all(t["end"] for t in touches(ev)), mark, 3.0)
    lift = r.panel.frame({0: None})
    ts = touches(r.settle(mark))
    if with_touchd:
        ok = bool(ended) and len(ts) == 1 and ts[0]["end_mono"] is not None and ts[0]["end_mono"] < lift
        detail = describe(ts) + (" before the lift" if ok else "")
        if not r.start_touchd():
            return False, detail + "; touchd did not come back"
        return ok, detail
    # Without touchd nothing ends the touch but the lift.
    ok = not ended and len(ts) == 1 and ts[0]["end"] == "up" and ts[0]["end_mono"] >= lift
    return ok, describe(ts) + " at the lift"


def case_restart_spot(r):
    """The first touch after a restart where the slot's previous contact was, then on its x only."""
    r.panel.exact = True
    try:
        return restart_spot(r)
    finally:
        r.panel.exact = False


def restart_spot(r):
    results, ok = [], True
    for label, pos in (("before", CENTRE), ("same spot", CENTRE), ("same x", (400, 120))):
        if label != "before" and r.with_touchd and not r.restart_touchd():
            return False, "touchd did not come back"
        mark = r.comp.app.mark()
        r.panel.tap(*pos)
        r.wait_ended(mark)
        ts = touches(r.comp.app.since(mark))
        good = len(ts) == 1 and r.near(ts[0], *pos) and ts[0]["end"] == "up"
        ok = ok and good
        results.append(f"{label}: {describe(ts)}")
    return ok, "; ".join(results)


def case_restart_two(r):
    """A two-finger touch in slots 2 and 1 (the device's current slot first) after a restart."""
    r.panel.exact = True
    try:
        return restart_two(r)
    finally:
        r.panel.exact = False


def restart_two(r):
    a, b = (300, 300), (500, 300)
    r.panel.frame({1: a, 2: b})
    time.sleep(0.08)
    r.panel.frame({1: None, 2: None})  # the device's current slot is now 2
    time.sleep(0.2)
    if r.with_touchd and not r.restart_touchd():
        return False, "touchd did not come back"
    mark = r.comp.app.mark()
    r.panel.frame({2: b, 1: a})
    time.sleep(0.1)
    r.panel.frame({2: None, 1: None})
    ts = touches(r.settle(mark))
    together = len(ts) == 2 and max(t["down"] for t in ts) < min(t["end_mono"] or 1e18 for t in ts)
    placed = len(ts) == 2 and sorted(r.near(t, *p) for t in ts for p in (a, b)).count(True) == 2
    ok = together and placed and all(t["end"] == "up" for t in ts)
    return ok, describe(ts) + ("" if together else " (not together)")


HALF = (0.5, 0, 0, 0, 0.5, 0)


def case_sway_input(r):
    ident = "0:0:Atmel_maXTouch_Touchscreen"
    res = r.comp.swaymsg("input", ident, "calibration_matrix", *map(str, HALF))
    if res.returncode != 0:
        return False, f"swaymsg: {res.stdout.strip()} {res.stderr.strip()}"
    try:
        mark = r.comp.app.mark()
        r.panel.tap(*CENTRE)
        r.wait_ended(mark)
        ts = touches(r.comp.app.since(mark))
    finally:
        # sway keeps an input block for the identifier (no unset): start sway afresh.
        r.force_restart = True
    ok = len(ts) == 1 and r.near(ts[0], *CENTRE, HALF) and ts[0]["end"] == "up"
    ex, ey = r.expect(*CENTRE, HALF)
    return ok, describe(ts) + f" (expected {ex:.0f},{ey:.0f})"


def case_kwin_input(r):
    """KDE's per-device setting, keyed on the original's vendor, product and name (KWin's
    `Connection::applyDeviceConfig`): a calibration matrix in kcminputrc
    (`[Libinput][vendor][product][name]`, `CalibrationMatrix`, 16 values row by row), which KWin
    reads when it adds a device, applies to touchd's mirror as to the touchscreen."""
    home_config = os.path.join(logind_home("kwin"), ".config")
    if not os.path.isdir(home_config):
        os.makedirs(home_config)
        os.chown(home_config, USER_UID, USER_GID)
    path = os.path.join(home_config, "kcminputrc")
    m = HALF
    values = (m[0], m[1], m[2], 0, m[3], m[4], m[5], 0, 0, 0, 1, 0, 0, 0, 0, 1)
    with open(path, "w") as f:
        f.write(f"[Libinput][0][0][{r.panel.name}]\nCalibrationMatrix={','.join(map(str, values))}\n")
    os.chown(path, USER_UID, USER_GID)
    try:
        # KWin reads its settings when it starts: afresh, with the mirror (or the touchscreen) present.
        r.comp.stop()
        if not r.start_compositor():
            return False, "KWin did not come back with the setting"
        mark = r.comp.app.mark()
        r.panel.tap(*CENTRE)
        r.wait_ended(mark)
        ts = touches(r.comp.app.since(mark))
    finally:
        os.remove(path)
        # Without the setting for the cases after it.
        r.force_restart = True
    ok = len(ts) == 1 and r.near(ts[0], *CENTRE, HALF) and ts[0]["end"] == "up"
    ex, ey = r.expect(*CENTRE, HALF)
    return ok, describe(ts) + f" (expected {ex:.0f},{ey:.0f})"


# mutter-touchscreen-output: the second head of the guest's virtio-gpu (`max_outputs=2`,
# compositor-test.sh). QEMU enables only the first head: the second connector stays disconnected
# (weston, KWin and mutter's other cases see one output) until the case forces it on through sysfs.
GNOME_TOUCHSCREENS = "org/gnome/desktop/peripherals/touchscreens"
# The EDID QEMU 7.2 gives each virtio-gpu head (hw/display/edid-generate.c: vendor RHT, the name
# "QEMU Monitor", serial number 0, no serial string), as mutter 43 reads it (meta-output.c
# meta_output_info_parse_edid: the serial string, else the number as 0x%08x): the [vendor, product,
# serial] of the setting's `output`, the app's output (Virtual-1). The second head has no EDID
# property (the kernel drops it while the head is disconnected; its modes come from
# drm.edid_firmware): mutter reports it as unknown, unknown, unknown.
QEMU_MONITOR = ("RHT", "QEMU Monitor", "0x00000000")


def second_head():
    found = sorted(glob.glob("/sys/class/drm/card*-Virtual-2"))
    return found[0] if found else None


def gnome_keyfile():
    """GSettings' keyfile backend's file for mutter's user: $HOME/.config/glib-2.0/settings/keyfile."""
    return os.path.join(logind_home("mutter"), ".config", "glib-2.0", "settings", "keyfile")


def write_gnome_touchscreen_output(ids, output):
    """The touchscreen setting at /org/gnome/desktop/peripherals/touchscreens/<ids>/ (a relocatable
    schema's path is the keyfile's group, without the outer slashes), written whole and renamed into
    place (the backend's file monitor then reads one complete file)."""
    path = gnome_keyfile()
    d = logind_home("mutter")
    for part in (".config", "glib-2.0", "settings"):
        d = os.path.join(d, part)
        if not os.path.isdir(d):
            os.makedirs(d)
            os.chown(d, USER_UID, USER_GID)
    with open(path + ".new", "w") as f:
        f.write(f"[{GNOME_TOUCHSCREENS}/{ids}]\noutput=[{', '.join(repr(v) for v in output)}]\n")
    os.chown(path + ".new", USER_UID, USER_GID)
    os.rename(path + ".new", path)


def mutter_outputs(r):
    """The logical monitors mutter reports on its session bus (DisplayConfig.GetCurrentState):
    [(connector, x, y, primary)]."""
    env = r.comp.env()
    res = subprocess.run(r.comp.as_user(["gdbus", "call", "--session", "--dest", "org.gnome.Mutter.DisplayConfig",
                                         "--object-path", "/org/gnome/Mutter/DisplayConfig", "--method",
                                         "org.gnome.Mutter.DisplayConfig.GetCurrentState"]),
                         env=env, capture_output=True, text=True, timeout=60)
    return [(c, int(x), int(y), p == "true") for x, y, p, c in
            re.findall(r"\((-?\d+), (-?\d+), [\d.]+, (?:uint32 )?\d+, (true|false), \[\('([^']+)'", res.stdout)]


def case_mutter_output(r):
    """GNOME's per-device setting for a touchscreen, keyed on the original's vendor and product
    (mutter 43, meta-input-mapper.c get_device_settings: org.gnome.desktop.peripherals.touchscreen
    at /org/gnome/desktop/peripherals/touchscreens/<vendor>:<product>/, each "%.4x"): `output`, the
    [vendor, product, serial] of the monitor it maps to. With two outputs mutter maps a touchscreen
    without the setting to none (guess_candidates: no EDID, size or built-in match) and it spans the
    layout, so a tap at a quarter of the panel's width lands at a quarter of the layout's; mapped to
    the app's output, at a quarter of the app's width. A second panel with ids of its own
    (GNOME_PANEL_IDS), the setting for it, the second output: mutter started afresh (GSettings'
    keyfile backend). The case could not fail otherwise: the main panel (no setting) must span the
    layout in the same start, and so must the second panel once the setting is rewritten, while
    mutter runs, for another product id."""
    head = second_head()
    if not head:
        return False, "no second virtio-gpu head (/sys/class/drm/card*-Virtual-2; max_outputs=2)"
    ids = "%04x:%04x" % GNOME_PANEL_IDS
    other = "%04x:%04x" % (GNOME_PANEL_IDS[0], GNOME_PANEL_IDS[1] + 1)
    pos = (200, 240)
    before = set(input_nodes_with_phys(PHYS_GNOME, r.panel.name))  # before touchd can mirror it
    panel = None

    def tap(p, tries=1):
        # Opened is not yet read (udev-calibration): a tap reaching no app is played again.
        for _ in range(tries):
            mark = r.comp.app.mark()
            p.tap(*pos)
            r.wait_ended(mark, timeout=1.5)
            ts = touches(r.comp.app.since(mark))
            if ts:
                break
        return ts
    try:
        r.comp.stop()
        write_gnome_touchscreen_output(ids, QEMU_MONITOR)
        with open(os.path.join(head, "status"), "w") as f:
            f.write("on")  # connected (QEMU enables its first head only); its modes from drm.edid_firmware
        panel = Panel(DESC, PHYS_GNOME, GNOME_PANEL_IDS)
        if r.with_touchd:
            mirror = wait_for("touchd's mirror of the second panel",
                              lambda: (sorted(set(input_nodes_with_phys(PHYS_GNOME, panel.name)) - before - {panel.node}) or [None])[0], 60)
            if not mirror:
                return False, "no mirror of the second panel"
            r.mirrors[panel.node] = mirror
        r.comp.settings_keyfile = True
        if not r.start_compositor() or not r.wait_reading(panel):
            return False, "mutter did not come back with the setting, the second panel and the second output"
        outputs = mutter_outputs(r)
        layout = ", ".join(f"{c} at {x},{y}" + (" (primary)" if p else "") for c, x, y, p in outputs)
        if len(outputs) < 2:
            return False, f"mutter has one output ({layout or 'none reported'})"
        mapped = tap(panel, tries=5)
        unset = tap(r.panel)
        # Another device's setting: mutter follows the keyfile (its file monitor) and maps the
        # panel to nothing again. A tap that still lands as mapped is played again for up to 10 s.
        write_gnome_touchscreen_output(other, QEMU_MONITOR)
        end = time.monotonic() + 10
        while True:
            unmapped = tap(panel)
            if not (len(unmapped) == 1 and r.near(unmapped[0], *pos)) or time.monotonic() > end:
                break
    finally:
        if panel:
            r.mirrors.pop(panel.node, None)
            panel.close()
        try:
            os.remove(gnome_keyfile())
        except FileNotFoundError:
            pass
        with open(os.path.join(head, "status"), "w") as f:
            f.write("detect")  # disconnected again
        r.comp.settings_keyfile = False
        # One output and the memory backend for the cases after it.
        r.force_restart = True
    # Spanning the layout, the tap still lands on the app's output (the first), elsewhere on it.
    spans = [len(ts) == 1 and not r.near(ts[0], *pos) for ts in (unset, unmapped)]
    ok = all(spans) and len(mapped) == 1 and r.near(mapped[0], *pos) and mapped[0]["end"] == "up"
    ex, ey = r.expect(*pos)
    return ok, (f"outputs {layout}; {ids} set to the app's ({QEMU_MONITOR[1]}): {describe(mapped)} (expected "
                f"{ex:.0f},{ey:.0f}); the main panel, no setting: {describe(unset)}; {ids} after the setting "
                f"moved to {other}: {describe(unmapped)}" + ("" if all(spans) else " (a tap without the setting "
                                                              "landed as mapped: the case could not fail)"))


def sway_outputs(r):
    res = r.comp.swaymsg("-t", "get_outputs", "--raw")
    try:
        return [o for o in json.loads(res.stdout) if o.get("active")]
    except ValueError:
        return []


def case_map_to_output(r):
    """sway's `input <id> map_to_output`, keyed on the original's identifier: a second (headless)
    output widens the layout the touchscreen spans; mapped to the app's output, a tap at a quarter
    of the panel's width lands at a quarter of the app's."""
    ident = "0:0:Atmel_maXTouch_Touchscreen"
    if not r.comp.has_open(r.reading_node(r.panel)):
        return False, f"sway does not read {r.reading_node(r.panel)}"
    app_output = (sway_outputs(r) or [{}])[0].get("name")
    if not app_output:
        return False, "sway reported no output"
    res = r.comp.swaymsg("create_output")
    if res.returncode != 0:
        return False, f"swaymsg create_output: {res.stdout.strip()} {res.stderr.strip()}"
    added = [o["name"] for o in (wait_for("a second output", lambda: (lambda o: o if len(o) >= 2 else None)(sway_outputs(r)), 10) or [])
             if o["name"] != app_output]
    try:
        if not added:
            return False, "sway did not add a second output"
        pos = (200, 240)
        # Unmapped, the panel spans both outputs: the tap is elsewhere (the case could not fail otherwise).
        mark = r.comp.app.mark()
        r.panel.tap(*pos)
        r.wait_ended(mark, timeout=1.5)
        before = touches(r.comp.app.since(mark))
        res = r.comp.swaymsg("input", ident, "map_to_output", app_output)
        if res.returncode != 0:
            return False, f"swaymsg map_to_output: {res.stdout.strip()} {res.stderr.strip()}"
        mark = r.comp.app.mark()
        r.panel.tap(*pos)
        r.wait_ended(mark)
        after = touches(r.comp.app.since(mark))
    finally:
        for name in added:
            r.comp.swaymsg("output", name, "disable")
        # sway keeps the input block (no unset) and the disabled output: start sway afresh
        # (a pointer case after this one got no click otherwise).
        r.force_restart = True
    spans = not (len(before) == 1 and r.near(before[0], *pos))
    ok = spans and len(after) == 1 and r.near(after[0], *pos) and after[0]["end"] == "up"
    ex, ey = r.expect(*pos)
    return ok, (f"two outputs, unmapped: {describe(before)}; mapped to {app_output}: {describe(after)} "
                f"(expected {ex:.0f},{ey:.0f})" + ("" if spans else "; the second output did not widen the layout"))


def case_udev_calibration(r):
    before = set(input_nodes_with_phys(PHYS_CAL, r.panel.name))  # before touchd can mirror it
    panel = Panel(DESC, PHYS_CAL)
    try:
        if r.with_touchd:
            mirror = wait_for("touchd's mirror of the calibrated panel",
                              lambda: (sorted(set(input_nodes_with_phys(PHYS_CAL, panel.name)) - before - {panel.node}) or [None])[0], 60)
            if not mirror:
                return False, "no mirror"
            r.mirrors[panel.node] = mirror
        if not r.wait_reading(panel):
            return False, f"{r.kind} did not open the device"
        # Opened is not yet read: mutter 43 once lost the first tap on a device it had just
        # opened (without touchd). A tap that reaches no app is played again, up to five times.
        for _ in range(5):
            mark = r.comp.app.mark()
            panel.tap(*CENTRE)
            r.wait_ended(mark)
            ts = touches(r.comp.app.since(mark))
            if ts:
                break
    finally:
        r.mirrors.pop(panel.node, None)
        panel.close()
    ok = len(ts) == 1 and r.near(ts[0], *CENTRE, HALF) and ts[0]["end"] == "up"
    ex, ey = r.expect(*CENTRE, HALF)
    return ok, describe(ts) + f" (expected {ex:.0f},{ey:.0f})"


def case_sigstop(r):
    r.settle(r.comp.app.mark())
    cx, cy = r.expect(*CENTRE)
    tol = max(4.0, 0.01 * r.comp.size[0])
    if r.with_touchd:
        if not (r.touchd.proc and r.touchd.proc.poll() is None):
            return False, "touchd is not running"
        r.touchd.send(signal.SIGSTOP)
    stopped = time.monotonic()
    got = None
    while time.monotonic() - stopped < 4.0:
        mark = r.comp.app.mark()
        written, _ = r.panel.tap(*CENTRE)
        if r.comp.app.wait("a tap", lambda ev: [e for e in ev if e["ev"] == "down" and abs(e["x"] - cx) <= tol
                                                and abs(e["y"] - cy) <= tol], mark, 0.25):
            got = written - stopped
            break
    if r.with_touchd:
        r.touchd.send(signal.SIGCONT)
        r.pass_through_off = True
    if got is None:
        return False, "no tap reached the app within 4 s"
    return got <= 2.0, f"first tap that reached the app written {got:.2f} s after the stop"


BTN_RIGHT = 0x111
POINTER_NAME = "touchd pointer"


def case_click(r):
    """The secondary click (shortcuts.md): a four-finger long press. With touchd, its
    click shortcut: the app's touches end (claimed) with none left down, then it gets a
    right button press and release where the fingers are, on touchd's pointer;
    without touchd the app gets the four touches and no button."""
    if r.with_touchd:
        node = wait_for("touchd's pointer", lambda: next((
            "/dev/input/" + os.path.basename(p) for p in glob.glob("/sys/class/input/event*")
            if open(p + "/device/name").read().strip() == POINTER_NAME), None), 20)
        if not node or not wait_for(f"{r.kind} to open touchd's pointer", lambda: r.comp.has_open(node), 30):
            return False, "the compositor did not open touchd's pointer"
    mark = r.comp.app.mark()
    places = {s: (CENTRE[0] - 60 + 40 * s, CENTRE[1]) for s in range(4)}  # centred on CENTRE
    r.panel.frame(places)
    time.sleep(0.9)  # the long press: 500 ms
    r.panel.frame({s: None for s in places})
    time.sleep(CLAIM_ENDING)
    events = r.settle(mark)
    ts, buttons = touches(events), [e for e in events if e["ev"] == "button"]
    detail = describe(ts) + "; buttons: " + (", ".join(
        f"{e['button']:#x} {'pressed' if e['state'] else 'released'} at {e['x']:.0f},{e['y']:.0f}" for e in buttons) or "none")
    # Where a release goes missing: the pointer's focus leaving the app after the press.
    press = next((i for i, e in enumerate(events) if e["ev"] == "button" and e["state"] == 1), None)
    if press is not None:
        focus = [e["ev"] for e in events[press:] if e["ev"] in ("ptr-enter", "ptr-leave")]
        detail += "; the pointer's focus after the press: " + (", ".join(focus) or "kept")
    if not r.with_touchd:
        return not buttons and len(ts) == 4 and all(t["end"] == "up" for t in ts), detail
    ex, ey = r.expect(*CENTRE)
    # Within 2 % of the surface: the press is placed at the recognizer's centroid on touchd's
    # screen, through the pointer's absolute axes, as the compositor scales them.
    tol = max(6.0, 0.02 * r.comp.size[0])
    pressed = [e for e in buttons if e["state"] == 1]
    # The press after the touches' ends: touches moving between a press and its release take the
    # pointer's focus from the app on mutter, so touchd clicks once the mirror's touches ended.
    ends = [i for i, e in enumerate(events) if e["ev"] in ("up", "cancel")]
    after_ends = press is not None and (not ends or max(ends) < press)
    if press is not None and not after_ends:
        detail += "; a touch ended after the press"
    ok = [(e["button"], e["state"]) for e in buttons] == [(BTN_RIGHT, 1), (BTN_RIGHT, 0)] and \
        abs(pressed[0]["x"] - ex) <= tol and abs(pressed[0]["y"] - ey) <= tol and \
        all(t["end"] for t in ts) and not any(tap_shaped(t) for t in ts) and after_ends
    return ok, detail + f" (expected the press at {ex:.0f},{ey:.0f})"


RECORDER_APP_ID = "touch-recorder"  # scripts/touch-recorder.c sets it


def play_swipe_up(r, name):
    """Three fingers moving up from below the centre. Returns the app's touches and whether
    touchd's client saw the `over-recorder` shortcut."""
    y = CENTRE[1] + 100
    return play_three_fingers(r, name, "over-recorder", [(CENTRE[0] - 100, y), (CENTRE[0], y), (CENTRE[0] + 100, y)], (0, -20))


def touchd_focus(r):
    """The focus touchd logged last (`focus <app id>`), or None."""
    path = os.path.join(r.touchd.results, f"touchd-{r.kind}-{r.touchd.starts}.log")
    found = None
    for line in open(path):
        words = line.split()
        if len(words) >= 3 and words[1] == "focus":
            found = words[2]
    return found


def start_follower(r, name):
    """`touchctl follow-focus` run as the session's user, as the session would start it: under
    KWin as it is (the session's XDG_CURRENT_DESKTOP=KDE picks KWin's script, on the session
    bus), elsewhere with `--wayland` (wlr-foreign-toplevel-management). Returns the process and
    its log's path."""
    log_path = os.path.join(r.args.results, f"follow-focus-{r.kind}-{name}.log")
    argv = [r.args.touchctl, "follow-focus", "--socket", r.touchd.socket, "--verbose"]
    if r.kind != "kwin":
        argv += ["--wayland", os.path.join(r.comp.runtime, r.comp._socket())]
    proc = subprocess.Popen(r.comp.as_user(argv), env=r.comp.env(), stdout=open(log_path, "w"),
                            stderr=subprocess.STDOUT)
    return proc, log_path


def follower_failed(app_id, log_path):
    return f"touchd got no focus {app_id} (follower: {open(log_path).read().strip()[-300:]})"


def delivered(ts):
    return len(ts) == 3 and all(t["end"] == "up" for t in ts)


def case_focus_follow(r):
    """A shortcut limited to an app (`apps: [touch-recorder]`), with the focus from the
    compositor (`touchctl follow-focus`, docs/actions.md: sway through
    wlr-foreign-toplevel-management, KWin through the script it loads). With
    touchd: before the follower the focus is unknown and the shortcut off (the app gets the three
    touches, ended by ups); with it the follower reports the recorder's app id and the same swipe
    is the shortcut's (claimed, nothing left down, no tap). Without touchd: the app gets the three
    touches."""
    if not r.with_touchd:
        ts, _ = play_swipe_up(r, "focus")
        return delivered(ts), describe(ts)
    before, claimed_before = play_swipe_up(r, "focus-unknown")
    if claimed_before or not delivered(before):
        return False, f"focus unknown: {describe(before)}" + ("; touchd claimed it" if claimed_before else "")
    follower, log_path = start_follower(r, "follow")
    try:
        if not wait_for("touchd to take the follower's report", lambda: touchd_focus(r) == RECORDER_APP_ID, 60):
            return False, follower_failed(RECORDER_APP_ID, log_path)
        ts, claimed = play_swipe_up(r, "focus-recorder")
    finally:
        follower.terminate()
        follower.wait()
    ok, detail = claim_verdict(r, ts, claimed)
    return ok, f"focus unknown: {describe(before)}; focus {RECORDER_APP_ID}: {detail}"


OTHER_APP_ID = "touch-recorder-other"
KEY_F13 = 183  # the over-recorder shortcut's key, as wl_keyboard gives it (the evdev code)


def sway_focused_app(r):
    def walk(node):
        if node.get("focused"):
            return node.get("app_id")
        for child in node.get("nodes", []) + node.get("floating_nodes", []):
            found = walk(child)
            if found:
                return found
        return None
    try:
        return walk(json.loads(r.comp.swaymsg("-t", "get_tree", "--raw").stdout))
    except ValueError:
        return None


def keys(events):
    return [(e["key"], e["state"]) for e in events if e["ev"] == "key"]


def play_swipe_over(r, name, shown, hidden):
    """The three-finger swipe up over the app `shown` (the focused one), then a marker tap in
    it, told from the swipe by its time. Returns each app's events of the swipe and whether
    touchd's client saw `over-recorder`."""
    proc = path = None
    if r.with_touchd:
        proc, path = start_client(r, name, [])
    marks = (shown.mark(), hidden.mark())
    y = CENTRE[1] + 100
    starts = [(CENTRE[0] - 100, y), (CENTRE[0], y), (CENTRE[0] + 100, y)]
    r.panel.frame({s: starts[s] for s in range(3)})
    for k in range(1, 13):
        time.sleep(0.02)
        r.panel.frame({s: (starts[s][0], starts[s][1] - 20 * k) for s in range(3)})
    time.sleep(0.05)
    r.panel.frame({s: None for s in range(3)})
    time.sleep(CLAIM_ENDING)
    written, _ = r.panel.tap(*MARKER)

    def marker(ev):
        for i, e in enumerate(ev):
            if e["ev"] == "down" and e["mono"] >= written:
                return i + 1 if any(f["ev"] in ("up", "cancel") for f in ev[i:]) else None
        return None
    index = shown.wait("the marker tap", marker, marks[0], 5.0)
    r.marker_lost = r.marker_lost or not index
    events = shown.since(marks[0])
    claimed = False
    if proc:
        claimed = client_saw(path, lambda m: m.get("recognizer") == "over-recorder")
        proc.terminate()
        proc.wait()
    return (events[:index - 1] if index else events), hidden.since(marks[1]), claimed


def case_focus_switch(r):
    """Two apps with different app ids (the recorder, and one as `touch-recorder-other`), each
    fullscreen on its own sway workspace, so only the focused one is shown and gets touches;
    sway's own `[app_id=...] focus` switches between them (the other app has it first, as the
    new window) and `touchctl follow-focus --wayland`, run as the session's user, follows. The
    swipe of sway-focus-follow over touch-recorder, over the other app, then over
    touch-recorder again: with touchd, over touch-recorder the `over-recorder` shortcut is
    touchd's (claimed, nothing left down, no tap) and its key F13 reaches that app; over the
    other app the shortcut is off: that app gets the three touches, each up, and no key. The
    hidden app gets nothing. Without touchd: the shown app gets the three touches each time,
    and no app a key."""
    comp = r.comp
    r.force_restart = True  # a second window and workspace: sway afresh after
    # Each app fullscreen on its own workspace: only the focused one is shown and gets touches.
    res = comp.swaymsg("workspace", "2")
    if res.returncode != 0:
        return False, f"swaymsg workspace 2: {res.stdout.strip()} {res.stderr.strip()}"
    apps = {RECORDER_APP_ID: comp.app, OTHER_APP_ID: comp.start_app(OTHER_APP_ID)}
    if not apps[OTHER_APP_ID].wait("the other app's fullscreen surface", lambda ev: [
            e for e in ev if e["ev"] == "configure" and (e["w"], e["h"]) == comp.size], 0, 30):
        return False, "the other app got no fullscreen configure"
    # Mapped, it takes the focus: only then may a switch not be undone by its mapping.
    if not wait_for("sway to focus the new window", lambda: sway_focused_app(r) == OTHER_APP_ID, 10):
        return False, f"sway did not focus the new window {OTHER_APP_ID} (focused: {sway_focused_app(r)})"
    time.sleep(1.0)  # its mapping's transaction done before the first switch
    follower = log_path = None
    if r.with_touchd:
        # The seat's keyboard (touchd's among its devices): each app binds it before a key is typed.
        for app_id, app in apps.items():
            if not app.wait(f"{app_id}'s keyboard", lambda ev: [e for e in ev if e["ev"] == "keyboard"], 0, 20):
                return False, f"{app_id} got no keyboard (touchd's)"
        follower, log_path = start_follower(r, "switch")
    results, ok = [], True
    try:
        for app_id in (RECORDER_APP_ID, OTHER_APP_ID, RECORDER_APP_ID):
            other = OTHER_APP_ID if app_id == RECORDER_APP_ID else RECORDER_APP_ID
            # Anchored: sway's criteria are regular expressions, and one app id begins the other.
            res = comp.swaymsg(f'[app_id="^{app_id}$"]', "focus")
            if res.returncode != 0:
                return False, "; ".join(results + [f"swaymsg focus {app_id}: {res.stdout.strip()} {res.stderr.strip()}"])
            if not wait_for(f"sway to focus {app_id}", lambda: sway_focused_app(r) == app_id, 10):
                return False, "; ".join(results + [f"sway did not focus {app_id} (focused: {sway_focused_app(r)})"])
            if r.with_touchd and not wait_for(f"touchd's focus {app_id}", lambda: touchd_focus(r) == app_id, 20):
                return False, "; ".join(results + [follower_failed(app_id, log_path)])
            time.sleep(0.5)  # sway shows the workspace once its transaction is done
            shown, hidden, claimed = play_swipe_over(r, f"switch-{len(results)}", apps[app_id], apps[other])
            ts, off = touches(shown), touches(hidden)
            typed, elsewhere = keys(shown), keys(hidden)
            if r.with_touchd and app_id == RECORDER_APP_ID:
                good, detail = claim_verdict(r, ts, claimed)
                good = good and typed == [(KEY_F13, 1), (KEY_F13, 0)]
            else:
                good, detail = delivered(ts) and not claimed and not typed, describe(ts)
                if claimed:
                    detail += "; touchd claimed it"
            good = good and not off and not elsewhere
            detail += f"; keys {typed or 'none'}"
            if off or elsewhere:
                detail += f"; {other} got {describe(off)}, keys {elsewhere or 'none'}"
            ok = ok and good
            results.append(f"over {app_id}: {detail}")
    finally:
        if follower:
            follower.terminate()
            follower.wait()
    return ok, "; ".join(results)


CASES = [
    ("tap-centre", case_tap, None),
    ("edge-swipe-withheld", case_edge_swipe, None),
    ("edge-tap-at-lift", case_edge_tap, None),
    ("claim-shortcut", case_shortcut, None),
    ("claim-drag", case_drag, None),
    # Not weston 10: it announces a pointer to its clients on the pointer's first event, so the
    # first click's press reaches no app (docs/shortcuts.md, "Secondary click").
    ("secondary-click", case_click, {"sway", "cage", "mutter", "kwin"}),
    ("ten-fingers", case_ten_fingers, None),
    ("udev-calibration", case_udev_calibration, None),
    ("sway-input-calibration", case_sway_input, {"sway"}),
    # KDE's per-device settings (kcminputrc), keyed as sway's input blocks are.
    ("kwin-input-calibration", case_kwin_input, {"kwin"}),
    # GNOME's per-device touchscreen setting (GSettings), keyed on the vendor and product: its output.
    ("mutter-touchscreen-output", case_mutter_output, {"mutter"}),
    # Before sigstop, after which pass-through stays off until touchd restarts.
    ("sway-map-to-output", case_map_to_output, {"sway"}),
    # The focused app through wlr-foreign-toplevel-management (sway; cage and weston 10 lack it).
    ("sway-focus-follow", case_focus_follow, {"sway"}),
    # The focused app through the KWin script `touchctl follow-focus` loads over D-Bus.
    ("kwin-focus-follow", case_focus_follow, {"kwin"}),
    # Two apps, the focus switched by sway's `[app_id=...] focus` (sway starts afresh after it).
    ("sway-focus-switch", case_focus_switch, {"sway"}),
    ("restart-same-spot", case_restart_spot, None),
    ("restart-two-fingers", case_restart_two, None),
    ("sigkill-finger-down", case_sigkill, None),
    ("sigstop", case_sigstop, None),
    # Last: touchd is restarted with `passThroughEnding: cancel` once for these.
    ("claim-shortcut-cancel", case_shortcut_cancel, None),
    ("claim-drag-cancel", case_drag_cancel, None),
    ("sigkill-finger-down-cancel", case_sigkill, None),
    # touchd restarted with `passThroughEnding: auto`; the compositor reported from its session.
    ("claim-shortcut-auto", case_shortcut_auto, None),
]

# The ending touchd runs with for a case (default lift).
ENDING = {"claim-shortcut-cancel": "cancel", "claim-drag-cancel": "cancel", "sigkill-finger-down-cancel": "cancel",
          "claim-shortcut-auto": "auto"}


def run_compositor(args, kind, panel, rows):
    r = Run(args, kind, panel)
    cases = [(n, f) for n, f, only in CASES if (only is None or kind in only) and (not args.cases or n in args.cases)]
    started = time.monotonic()
    if not r.start_compositor():
        r.comp.stop()
        for name, _ in cases:
            rows.append({"compositor": kind, "case": name, "without": None, "with": None,
                         "detail_without": f"{kind} did not start", "detail_with": ""})
        return
    r.touchd.write_config(*r.comp.size)
    r.touchd_screen = r.comp.size
    outcome = {}
    for with_touchd in (False, True):
        if with_touchd:
            if not r.start_touchd():
                for name, _ in cases:
                    outcome[(name, True)] = (False, "touchd's mirror did not reach the compositor")
                break
        for name, fn in cases:
            t0 = time.monotonic()
            r.marker_lost = False
            ending = ENDING.get(name, "lift")
            if with_touchd and r.touchd.ending != ending:
                r.touchd.write_config(*r.touchd_screen, ending=ending)
                if not r.restart_touchd():
                    outcome[(name, True)] = (False, f"touchd with passThroughEnding {ending} did not come back")
                    continue
            try:
                outcome[(name, with_touchd)] = fn(r)
            except Exception as error:  # a broken case is a failed case, with its reason
                outcome[(name, with_touchd)] = (False, f"error: {error!r}")
            if r.marker_lost:
                # "Nothing reached the app" means something only if what follows did.
                outcome[(name, with_touchd)] = (False, outcome[(name, with_touchd)][1] +
                                                "; the marker tap after the case did not reach the app")
            ok, detail = outcome[(name, with_touchd)]
            log(f"{kind} {name} {'with' if with_touchd else 'without'} touchd: {'pass' if ok else 'FAIL'} "
                f"({time.monotonic() - t0:.1f} s): {detail}")
            # A touch left down in the app would change what the next case sees: start afresh.
            if with_touchd and name == cases[-1][0]:
                break
            time.sleep(0.1)
            if any(not t["end"] for t in touches(r.comp.app.since(0))[-12:]) or r.comp.proc.poll() is not None \
                    or r.force_restart:
                why = ("the compositor died" if r.comp.proc.poll() is not None else
                       "a case changed its settings" if r.force_restart else "the app has a touch down")
                r.force_restart = False
                log(f"{kind}: {why}: restarting {kind}")
                r.comp.stop()
                # After sigstop touchd's pass-through is off and its mirror gone (the guard gave
                # the touchscreen back): there is no mirror for a new compositor to open, so
                # touchd starts afresh after the compositor, as it does when the compositor
                # does not come back with the running touchd.
                fresh_touchd = with_touchd and r.pass_through_off
                if fresh_touchd:
                    r.stop_touchd()
                up = r.start_compositor()
                if not up:
                    log(f"{kind} did not come back: once more" + (", touchd afresh after it" if with_touchd else ""))
                    r.comp.stop()
                    if with_touchd and not fresh_touchd:
                        r.stop_touchd()
                        fresh_touchd = True
                    up = r.start_compositor()
                if up and fresh_touchd:
                    up = r.start_touchd()
                if not up:
                    log(f"{kind} did not come back")
                    for later, _ in cases[[n for n, _ in cases].index(name) + 1:]:
                        outcome[(later, with_touchd)] = (False, f"not run: {kind} did not come back after {name}")
                    break
                r.pass_through_off = False
    if r.touchd.proc:
        r.stop_touchd()
    r.comp.stop()
    for name, _ in cases:
        wo = outcome.get((name, False), (None, "not run"))
        wi = outcome.get((name, True), (None, "not run"))
        rows.append({"compositor": kind, "case": name, "without": wo[0], "with": wi[0],
                     "detail_without": wo[1], "detail_with": wi[1]})
    log(f"{kind}: {time.monotonic() - started:.0f} s")


def compatibility(rows):
    """The rows of docs/pass-through.md's compatibility table, from what the app got
    with touchd in the cases where touchd takes a touch the app has."""
    print("| compositor | version | cancel passed on to the app | verified by |")
    print("|---|---|---|---|")
    for kind in dict.fromkeys(r["compositor"] for r in rows):
        claims = [r for r in rows if r["compositor"] == kind and r["case"] in CANCEL_CASES and r["with"] is not None]
        if not claims:
            continue
        details = " ".join(r["detail_with"].split("; expected")[0] for r in claims)
        if "cancel" in details and "NEVER ENDED" not in details:
            passed = "yes"
        elif "NEVER ENDED" in details:
            passed = "no: the app's touches never end"
        else:
            passed = "not seen"
        version = subprocess.run(["dpkg-query", "-W", "-f", "${Version}", PACKAGE.get(kind, kind)], capture_output=True,
                                 text=True).stdout.strip() or "?"
        print(f"| {kind} | {version} | {passed} | {', '.join(r['case'] for r in claims)} with touchd |")


CANCEL_CASES = ("claim-shortcut-cancel", "claim-drag-cancel")
PACKAGE = {"kwin": "kwin-wayland"}  # a compositor's Debian package, where not its name


def verdict(row):
    if row["without"] is not True:
        return "HARNESS" if row["without"] is False else "not run"
    return "pass" if row["with"] else "FAIL"


def print_table(rows):
    print("| compositor | case | without touchd | with touchd | verdict |")
    print("|---|---|---|---|---|")
    mark = {True: "pass", False: "FAIL", None: "not run"}
    for row in rows:
        print(f"| {row['compositor']} | {row['case']} | {mark[row['without']]} | {mark[row['with']]} | {verdict(row)} |")
    print()
    for row in rows:
        print(f"- {row['compositor']} {row['case']}: without: {row['detail_without']} | with: {row['detail_with']}")


# --- bench: write into the touchscreen -> the app receives it ----------------------

class NodeReader(threading.Thread):
    """Reads an evdev node beside the compositor (no grab); keeps each SYN_REPORT's kernel time (CLOCK_MONOTONIC)."""

    def __init__(self, node):
        super().__init__(daemon=True)
        self.fd = os.open(node, os.O_RDONLY | os.O_NONBLOCK)
        fcntl.ioctl(self.fd, EVIOCSCLOCKID, struct.pack("i", time.CLOCK_MONOTONIC))
        self.syns, self.stop = [], False

    def run(self):
        while not self.stop:
            if not select.select([self.fd], [], [], 0.2)[0]:
                continue
            try:
                data = os.read(self.fd, EVENT.size * 64)
            except (BlockingIOError, OSError):
                continue
            for i in range(0, len(data), EVENT.size):
                sec, usec, etype, code, _ = EVENT.unpack_from(data, i)
                if etype == EV_SYN and code == 0:
                    self.syns.append(sec + usec / 1e6)

    def first_after(self, t):
        return next((s for s in self.syns if s >= t - 0.0005), None)


def bench(args, kind, panel):
    """Taps one at a time (100 ms apart): per down and up, the time from just before the
    write into the touchscreen to the app's receipt, split at the kernel time of the frame
    the compositor reads (the touchscreen's own without touchd, the mirror's with it)."""
    r = Run(args, kind, panel)
    if not r.start_compositor():
        raise SystemExit(f"{kind} did not start")
    out, cpu = {}, {}
    # touchd with normal scheduling, and with SCHED_FIFO 10 as touchd.service runs it;
    # interception-tools (`interception -g | uinput -d`: forwarding only, two processes
    # and a pipe) as the reference for what any forwarder in front adds.
    keys = ("without", "with touchd (SCHED_OTHER)", "with touchd (SCHED_FIFO 10)", "with interception-tools")
    for key in keys * 2:
        with_touchd = key != "without"
        forwarder = []
        if "touchd" in key:
            r.touchd.write_config(*r.comp.size, priority=10 if "FIFO" in key else 0)
            if not r.start_touchd():
                raise SystemExit("touchd's mirror did not reach the compositor")
            forwarder = [r.touchd.proc.pid]
        elif "interception" in key:
            before = set(glob.glob("/sys/class/input/event*"))
            grab = subprocess.Popen(["/usr/bin/interception", "-g", panel.node], stdout=subprocess.PIPE)
            clone = subprocess.Popen(["/usr/bin/uinput", "-d", panel.node], stdin=grab.stdout, stdout=subprocess.DEVNULL)
            grab.stdout.close()
            node = wait_for("interception-tools' device", lambda: next(
                ("/dev/input/" + os.path.basename(p) for p in set(glob.glob("/sys/class/input/event*")) - before
                 if open(p + "/device/name").read().strip() == panel.name), None), 60)
            if not node:
                raise SystemExit("interception-tools' device did not appear")
            r.mirrors[panel.node] = node
            r.with_touchd = True  # the compositor reads the forwarder's device
            if not r.wait_reading(panel):
                raise SystemExit(f"{kind} did not open interception-tools' device")
            forwarder = [grab.pid, clone.pid]
        cpu0 = cpu_seconds(forwarder)
        reader = NodeReader(r.reading_node(panel))
        reader.start()
        rows = []
        for i in range(args.taps):
            x, y = 300 + (i % 5) * 40, 200 + (i % 3) * 40
            mark = r.comp.app.mark()
            down_w, up_w = r.panel.tap(x, y, hold=0.03)
            r.comp.app.wait("the tap", lambda ev: [e for e in ev if e["ev"] == "up"], mark, 3.0)
            evs = r.comp.app.since(mark)
            d = [e for e in evs if e["ev"] == "down"]
            u = [e for e in evs if e["ev"] == "up"]
            if d and u and i >= 2:  # the first taps of a pass warm the path up
                for w, e in ((down_w, d[0]), (up_w, u[0])):
                    k = reader.first_after(w)
                    rows.append(((e["mono"] - w) * 1e3, (k - w) * 1e3 if k else float("nan")))
            time.sleep(0.07)
        reader.stop = True
        reader.join()
        os.close(reader.fd)
        out.setdefault(key, []).extend(rows)
        cpu.setdefault(key, []).append((cpu_seconds(forwarder) - cpu0) * 1e3 / args.taps)
        log(f"bench {kind} {key}: {len(rows)} events, forwarder CPU {cpu[key][-1]:.2f} ms a tap")
        if "touchd" in key:
            r.stop_touchd()
        elif "interception" in key:
            for p in (grab, clone):
                p.terminate()
                p.wait()
            r.mirrors.clear()
            r.with_touchd = False
            wait_for(f"{kind} to read the touchscreen again", lambda: r.comp.has_open(panel.node), 30)
    r.comp.stop()
    return {"latency": out, "cpu_ms_per_tap": cpu}


def cpu_seconds(pids):
    ticks = os.sysconf("SC_CLK_TCK")
    total = 0
    for pid in pids:
        fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
        total += int(fields[11]) + int(fields[12])
    return total / ticks


def pct(values, p):
    v = sorted(values)
    return v[min(len(v) - 1, int(p * len(v)))] if v else float("nan")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("mode", choices=["test", "bench"])
    ap.add_argument("--touchd", required=True)
    ap.add_argument("--touchctl", required=True)
    ap.add_argument("--recorder", required=True)
    ap.add_argument("--results", required=True)
    ap.add_argument("--compositors", default="cage,sway,weston,mutter,kwin")
    ap.add_argument("--cases", default="")
    ap.add_argument("--taps", type=int, default=100)
    args = ap.parse_args()
    args.cases = [c for c in args.cases.split(",") if c]
    os.makedirs(args.results, exist_ok=True)
    os.makedirs("/run/udev/rules.d", exist_ok=True)
    with open("/run/udev/rules.d/70-touchd-compositor-test.rules", "w") as f:
        f.write(UDEV_RULE)
    # The rule the package installs: a mirror takes the original's udev properties.
    shutil.copy(os.path.join(ROOT, "udev-rules/90-touchd-mirror.rules"), "/run/udev/rules.d/90-touchd-mirror.rules")
    subprocess.run(["udevadm", "control", "--reload"], check=False)
    seatd_log = open(os.path.join(args.results, "seatd.log"), "w")
    import grp
    seatd = subprocess.Popen(["seatd", "-u", pwd.getpwuid(USER_UID).pw_name, "-g", grp.getgrgid(USER_GID).gr_name],
                             env={"SEATD_VTBOUND": "0", "PATH": os.environ.get("PATH", "/usr/bin:/bin")},
                             stdout=seatd_log, stderr=subprocess.STDOUT)
    if not wait_for("seatd's socket", lambda: os.path.exists("/run/seatd.sock") or seatd.poll() is not None, 20) \
            or seatd.poll() is not None:
        raise SystemExit("seatd did not start (see seatd.log)")
    panel = Panel(DESC, PHYS_MAIN)
    status = 0
    try:
        if args.mode == "test":
            rows = []
            for kind in args.compositors.split(","):
                run_compositor(args, kind, panel, rows)
            json.dump(rows, open(os.path.join(args.results, "results.json"), "w"), indent=1)
            print_table(rows)
            print()
            compatibility(rows)
            status = 0 if rows and all(verdict(r) == "pass" for r in rows) else 1
        else:
            results = {}
            for kind in args.compositors.split(","):
                results[kind] = bench(args, kind, panel)
            json.dump(results, open(os.path.join(args.results, "bench.json"), "w"))
            print("| compositor | path | events | write to app p50 | p99 | max | write to the read node's frame p50 | p99 | forwarder CPU a tap |")
            print("|---|---|---|---|---|---|---|---|---|")
            for kind, both in results.items():
                res = both["latency"]
                for key in res:
                    app = [a for a, _ in res[key]]
                    node = [k for _, k in res[key] if k == k]
                    print(f"| {kind} | {key} | {len(app)} | {pct(app, 0.5):.2f} ms | {pct(app, 0.99):.2f} ms | "
                          f"{max(app) if app else float('nan'):.2f} ms | {pct(node, 0.5):.3f} ms | {pct(node, 0.99):.3f} ms | "
                          + ", ".join(f"{c:.2f}" for c in both["cpu_ms_per_tap"].get(key, [])) + " ms |")
    finally:
        panel.close()
        seatd.terminate()
        seatd.wait()
    return status


if __name__ == "__main__":
    sys.exit(main())
