#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""A touchd client for the compositor tests (scripts/compositor_cases.py): it
subscribes to the system stream (shortcuts, edge swipes) and, with --drag,
registers a surface covering screen 0 with a drag recognizer, so a long press
then a move claims its touch. Every message goes to OUTPUT as a JSON line,
after a first line {"type": "ready"} once its requests were answered.

Usage: compositor_client.py SOCKET OUTPUT [--drag WIDTH HEIGHT]
"""
import json, os, sys, time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "clients", "python"))
from touchd_client import Client, recognizer, surface  # noqa: E402


def main():
    sock, output = sys.argv[1], sys.argv[2]
    drag = "--drag" in sys.argv
    out = open(output, "a", buffering=1)
    end = time.monotonic() + 30
    while True:
        try:
            client = Client(sock)
            client.connect()
            break
        except Exception as error:  # the socket is not there yet
            if time.monotonic() > end:
                out.write(json.dumps({"type": "error", "message": str(error)}) + "\n")
                return 2
            time.sleep(0.1)
    client.subscribe(["system", "gesture"])
    if drag:
        i = sys.argv.index("--drag")
        width, height = float(sys.argv[i + 1]), float(sys.argv[i + 2])
        client.register(surface("compositor-test", 0, 0, width, height, [recognizer("drag", "drag")]))
    out.write(json.dumps({"type": "ready"}) + "\n")
    for event in client.events():
        out.write(json.dumps(event) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
