#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""A drag source with the Python client package (clients/python): semantics §12.

Registers a list (the left half of the screen, top) whose drag lifts a city,
and a shelf (left half, bottom) whose taps during a drag add another; answers
touchd's requests for items, and prints one line per drag event
("items-requested SESSION", "add-requested SESSION", "ended SESSION OUTCOME
REASON"). Stops at goodbye, or at the first end with --once.

    python3 drag_source.py [--socket PATH] [--once] [--hang-up-at FRACTION]

--hang-up-at F closes the connection once the drag is right of that
fraction of the screen's width (a source that goes away mid-drag). The package is
`pip install ./clients/python`; from a source tree this script finds it
there without installing.
"""
import argparse
import os
import sys

try:
    import touchd_client
except ImportError:  # not installed: the package of this source tree
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "clients", "python"))
    import touchd_client

from touchd_client import drag_item, recognizer, surface


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--socket", default=touchd_client.DEFAULT_SOCKET)
    parser.add_argument("--once", action="store_true", help="stop after the first session ends")
    parser.add_argument("--hang-up-at", type=float, default=None)
    args = parser.parse_args()
    with touchd_client.Client(args.socket) as client:
        assert client.hello is not None
        screen = client.hello["screens"][0]
        w, h = screen["width"], screen["height"]
        client.register(surface("list", 0, 0, w / 2, h / 2, recognizers=[recognizer("drag", "drag")]))
        client.register(surface("shelf", 0, h / 2, w / 2, h / 2, recognizers=[recognizer("tap", "tap")]))
        client.drag_surface("list", offers_items=True)
        client.drag_surface("shelf", adds_items=True)
        client.subscribe(["gesture"])
        for event in client.events():
            kind = event.get("type")
            if kind == "goodbye":
                break
            if kind == "gesture" and args.hang_up_at is not None and event.get("recognizer") == "drag" \
                    and event["location"]["x"] > args.hang_up_at * w:
                print("hang-up", flush=True)
                return 0
            if kind != "drag":
                continue
            name = event["event"]
            if name == "items-requested":
                client.drag_items(event["request"], [drag_item(("text/plain", "Lyon"), ("text/uri-list", "geo:45.76,4.84"))])
                print(f"items-requested {event['session']}", flush=True)
            elif name == "add-requested":
                client.drag_items(event["request"], [drag_item(("text/plain", "Paris"))])
                print(f"add-requested {event['session']}", flush=True)
            elif name == "ended":
                print(f"ended {event['session']} {event['outcome']} {event['reason']}", flush=True)
                if args.once:
                    return 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
