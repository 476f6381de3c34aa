# SPDX-License-Identifier: MIT
"""A stand-in logind for KWin and mutter in the compositor tests (scripts/compositor_cases.py), as
a python-dbusmock template: `python3 -m dbusmock --system --template scripts/stand_in_logind.py`
on a private system bus (DBUS_SYSTEM_BUS_ADDRESS). The guest has no systemd; KWin 5.27 and
mutter 43 open the GPU and the input devices only through logind's session (TakeControl,
TakeDevice). mutter finds its session with sd-login, from files under /run/systemd that
compositor_cases.py writes while mutter runs (KWin takes XDG_SESSION_ID).

One seat (seat0) with one active session (c1) of user nobody. TakeDevice opens the node as
root, non-blocking: libinput reads its devices until EAGAIN, and a blocking descriptor would
hang the compositor's first read. Parameters: {"uid": 65534, "user": "nobody"}.
"""
import os

import dbus
from dbusmock import mockobject
from dbusmock.templates import logind

BUS_NAME = logind.BUS_NAME
MAIN_OBJ = logind.MAIN_OBJ
MAIN_IFACE = logind.MAIN_IFACE
SYSTEM_BUS = True
SESSION_IFACE = "org.freedesktop.login1.Session"

# logind's own methods (ListSessions, Inhibit, ...) and the mock's AddSession.
for _name in ("ListUsers", "ListSessions", "Inhibit", "ListInhibitors", "AddSeat", "AddUser", "AddSession"):
    globals()[_name] = getattr(logind, _name)


def take_device(_session, major, minor):
    with open(f"/sys/dev/char/{major}:{minor}/uevent") as f:
        name = next(line.split("=", 1)[1].strip() for line in f if line.startswith("DEVNAME="))
    fd = os.open("/dev/" + name, os.O_RDWR | os.O_CLOEXEC | os.O_NOCTTY | os.O_NONBLOCK)
    try:
        return dbus.types.UnixFd(fd), False  # UnixFd keeps a duplicate
    finally:
        os.close(fd)


def load(mock, parameters):
    logind.load(mock, parameters)
    uid = int(parameters.get("uid", 65534))
    path = mock.AddSession("c1", "seat0", dbus.UInt32(uid), parameters.get("user", "nobody"), True)
    session = mockobject.objects[path]
    session.UpdateProperties(SESSION_IFACE, {"Type": dbus.String("wayland"), "VTNr": dbus.UInt32(2)})
    session.AddMethod(SESSION_IFACE, "TakeControl", "b", "", "")
    session.AddMethod(SESSION_IFACE, "ReleaseControl", "", "", "")
    session.AddMethod(SESSION_IFACE, "TakeDevice", "uu", "hb", take_device)
    session.AddMethod(SESSION_IFACE, "ReleaseDevice", "uu", "", "")
    session.AddMethod(SESSION_IFACE, "PauseDeviceComplete", "uu", "", "")
    session.AddMethod(SESSION_IFACE, "SetType", "s", "", "")
    session.AddMethod(SESSION_IFACE, "SetBrightness", "ssu", "", "")
    seat = mockobject.objects["/org/freedesktop/login1/seat/seat0"]
    seat.UpdateProperties("org.freedesktop.login1.Seat", {"CanGraphical": dbus.Boolean(True), "CanTTY": dbus.Boolean(True)})
    seat.AddMethod("org.freedesktop.login1.Seat", "SwitchTo", "u", "", "")
