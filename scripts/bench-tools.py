#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Helpers of the daemon benchmarks (scripts/bench-vm-guest.sh, scripts/bench-memory.sh).

  bench-tools.py synthetic DESC OUT [--seconds S] [--rate HZ] [--lead-in S]
      An evemu trace (DESC's header, then events): ten fingers down and all
      moving every frame at HZ for S seconds, after LEAD-IN idle seconds (so
      that readers can open the device before the stream starts). Prints the
      number of events of the stream.
  bench-tools.py lead-in IN OUT [--desc DESC] [--lead-in S]
      A copy of an evemu trace (header from DESC for split .events files)
      whose events start LEAD-IN seconds later. Prints the number of events.
  bench-tools.py idle DESC OUT [--seconds S]
      A trace that holds its device open for S seconds and writes nothing
      but two SYN_REPORTs.
  bench-tools.py clients SOCKET N [--events LIST] [--coalesce MS]
      N clients subscribed to LIST (default gesture,touch,system), reading
      and discarding; prints "ready" once every subscription is acknowledged,
      then runs until SIGTERM or SIGINT. With --coalesce, each also asks for
      continuous updates at most once per MS milliseconds (op "coalesce").
  bench-tools.py cpu PID...
      utime+stime in seconds of each process (/proc/PID/stat), one per line.
  bench-tools.py rss PID
      VmRSS and VmHWM of a process in kB (/proc/PID/status).
"""
import argparse
import os
import select
import signal
import socket
import sys


def header_lines(path):
    with open(path) as f:
        return [l for l in f if l[:2] in ("N:", "I:", "P:", "B:", "A:", "L:", "S:")]


def event_line(t, etype, code, value):
    sec = int(t)
    usec = int(round((t - sec) * 1e6))
    if usec >= 1_000_000:
        sec, usec = sec + 1, usec - 1_000_000
    return "E: %d.%06d %04x %04x %04d\n" % (sec, usec, etype, code, value)


def abs_range(header, code):
    for l in header:
        if l.startswith("A:"):
            parts = l.split()
            if int(parts[1], 16) == code:
                return int(parts[2]), int(parts[3])
    raise SystemExit("the description has no ABS axis 0x%x" % code)


def synthetic(args):
    header = header_lines(args.desc)
    xmin, xmax = abs_range(header, 0x35)
    ymin, ymax = abs_range(header, 0x36)
    smin, smax = abs_range(header, 0x2F)
    if smax - smin + 1 < 10:
        raise SystemExit("the description has fewer than 10 slots")
    frames = int(args.seconds * args.rate)
    lines = list(header)
    t = 0.0
    lines.append(event_line(t, 0, 0, 0))
    t = args.lead_in
    count = 0

    def add(etype, code, value):
        nonlocal count
        lines.append(event_line(t, etype, code, value))
        count += 1

    width, height = xmax - xmin, ymax - ymin
    for f in range(frames):
        for s in range(10):
            add(3, 0x2F, s)
            if f == 0:
                add(3, 0x39, 100 + s)
            # Columns across the panel, every finger moving down and back.
            x = xmin + width * (s + 1) // 11 + (f % 40)
            y = ymin + height // 10 + (f * 2) % (height * 8 // 10)
            add(3, 0x35, x)
            add(3, 0x36, y)
        if f == 0:
            add(1, 0x14A, 1)
        add(0, 0, 0)
        t += 1.0 / args.rate
    for s in range(10):
        add(3, 0x2F, s)
        add(3, 0x39, -1)
    add(1, 0x14A, 0)
    add(0, 0, 0)
    with open(args.out, "w") as f:
        f.writelines(lines)
    print(count)


def lead_in(args):
    with open(args.input) as f:
        source = f.readlines()
    header = header_lines(args.desc) if args.desc else [l for l in source if l[:2] in ("N:", "I:", "P:", "B:", "A:", "L:", "S:")]
    events = [l for l in source if l.startswith("E:")]
    if not events:
        raise SystemExit("no events in " + args.input)
    first = float(events[0].split()[1])
    out = list(header)
    out.append(event_line(first, 0, 0, 0))
    for l in events:
        parts = l.split("#")[0].split()
        t = float(parts[1]) + args.lead_in
        out.append(event_line(t, int(parts[2], 16), int(parts[3], 16), int(parts[4])))
    with open(args.out, "w") as f:
        f.writelines(out)
    print(len(events))


def idle(args):
    out = header_lines(args.desc)
    out.append(event_line(0.0, 0, 0, 0))
    out.append(event_line(args.seconds, 0, 0, 0))
    with open(args.out, "w") as f:
        f.writelines(out)


def clients(args):
    request = ('{"op":"subscribe","id":1,"events":[%s]}\n' % ",".join('"%s"' % e for e in args.events.split(","))).encode()
    answers = 2  # hello, then the ack
    if args.coalesce > 0:
        request += ('{"op":"coalesce","id":2,"intervalMs":%g}\n' % args.coalesce).encode()
        answers += 1
    socks = []
    for _ in range(args.n):
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        s.connect(args.socket)
        s.sendall(request)
        socks.append(s)
    pending = {s.fileno(): answers for s in socks}
    by_fd = {s.fileno(): s for s in socks}
    received = 0
    stop = False

    def on_term(*_):
        nonlocal stop
        stop = True

    signal.signal(signal.SIGTERM, on_term)
    signal.signal(signal.SIGINT, on_term)
    poller = select.poll()
    for s in socks:
        poller.register(s, select.POLLIN)
    announced = False
    while not stop:
        for fd, ev in poller.poll(1000):
            data = by_fd[fd].recv(1 << 16)
            if not data:
                poller.unregister(fd)
                continue
            lines = data.count(b"\n")
            if pending[fd]:
                taken = min(lines, pending[fd])
                pending[fd] -= taken
                lines -= taken
            received += lines
        if not announced and not any(pending.values()):
            print("ready", flush=True)
            announced = True
    print("received %d lines" % received, file=sys.stderr)


def cpu(args):
    tick = os.sysconf("SC_CLK_TCK")
    for pid in args.pids:
        with open("/proc/%s/stat" % pid) as f:
            fields = f.read().rsplit(")", 1)[1].split()
        # Fields 14 and 15 of stat(5) (utime, stime): fields[0] here is field 3.
        if args.system:
            print("%.2f" % (int(fields[12]) / tick))
        else:
            print("%.2f" % ((int(fields[11]) + int(fields[12])) / tick))


def threads(args):
    """utime+stime of each thread of a process, in seconds: `TID NAME SECONDS` lines."""
    tick = os.sysconf("SC_CLK_TCK")
    base = "/proc/%s/task" % args.pid
    for tid in sorted(os.listdir(base), key=int):
        try:
            with open("%s/%s/stat" % (base, tid)) as f:
                text = f.read()
        except OSError:
            continue  # ended meanwhile
        name = text[text.index("(") + 1:text.rindex(")")]
        fields = text.rsplit(")", 1)[1].split()
        print("%s %s %.2f" % (tid, name.replace(" ", "_"), (int(fields[11]) + int(fields[12])) / tick))


def rss(args):
    values = {}
    with open("/proc/%s/status" % args.pid) as f:
        for l in f:
            key, _, rest = l.partition(":")
            if key in ("VmRSS", "VmHWM"):
                values[key] = rest.split()[0]
    print(values.get("VmRSS", "?"), values.get("VmHWM", "?"))


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="command", required=True)
    s = sub.add_parser("synthetic")
    s.add_argument("desc"); s.add_argument("out")
    s.add_argument("--seconds", type=float, default=20); s.add_argument("--rate", type=float, default=240)
    s.add_argument("--lead-in", type=float, default=4)
    s.set_defaults(run=synthetic)
    s = sub.add_parser("lead-in")
    s.add_argument("input"); s.add_argument("out"); s.add_argument("--desc")
    s.add_argument("--lead-in", type=float, default=4)
    s.set_defaults(run=lead_in)
    s = sub.add_parser("idle")
    s.add_argument("desc"); s.add_argument("out"); s.add_argument("--seconds", type=float, default=60)
    s.set_defaults(run=idle)
    s = sub.add_parser("clients")
    s.add_argument("socket"); s.add_argument("n", type=int)
    s.add_argument("--events", default="gesture,touch,system")
    s.add_argument("--coalesce", type=float, default=0, help="ask for coalescing to this many ms (0: every update)")
    s.set_defaults(run=clients)
    s = sub.add_parser("cpu")
    s.add_argument("pids", nargs="+")
    s.add_argument("--system", action="store_true", help="system (kernel) time only")
    s.set_defaults(run=cpu)
    s = sub.add_parser("threads")
    s.add_argument("pid")
    s.set_defaults(run=threads)
    s = sub.add_parser("rss")
    s.add_argument("pid")
    s.set_defaults(run=rss)
    args = p.parse_args()
    args.run(args)


if __name__ == "__main__":
    main()
