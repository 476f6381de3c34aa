#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""A touchd client with the Python client package (clients/python).

Connects to the touchd socket, subscribes to event streams, optionally
registers a surface with a tap and a pan recognizer, and prints every
message as one JSON line.

    python3 python_client.py [--socket PATH] [--events gesture,touch,...]
                             [--surface WIDTHxHEIGHT] [--coalesce MS] [--count N]

The package is `pip install ./clients/python`; from a source tree this script
also finds it there without installing.
"""
import argparse
import json
import os
import sys

try:
    import touchd_client
except ImportError:  # not installed: the package of this source tree
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "clients", "python"))
    import touchd_client


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--socket", default=touchd_client.DEFAULT_SOCKET)
    parser.add_argument("--events", default="gesture,touch,system,device",
                        help="comma-separated streams to subscribe to")
    parser.add_argument("--surface", metavar="WIDTHxHEIGHT",
                        help="register a surface 'main' of this size at 0,0 with tap and pan")
    parser.add_argument("--coalesce", type=float, default=0, metavar="MS",
                        help="touch moves and gesture changes at most once per MS milliseconds (0: every one)")
    parser.add_argument("--count", type=int, default=0,
                        help="exit after printing this many events (0: run until the server closes)")
    args = parser.parse_args()

    client = touchd_client.Client(args.socket)
    try:
        hello = client.connect()
    except OSError as e:
        print(f"cannot connect to {args.socket}: {e}", file=sys.stderr)
        return 1
    except touchd_client.RequestError as e:
        print(f"touchd refused the connection: {e}", file=sys.stderr)
        return 1

    def show(message: touchd_client.Message) -> None:
        print(json.dumps(message, separators=(",", ":")), flush=True)

    show(hello)
    printed = 0
    try:
        if args.coalesce:
            client.coalesce(args.coalesce)
        client.subscribe([e for e in args.events.split(",") if e])
        if args.surface:
            width, height = (float(v) for v in args.surface.lower().split("x"))
            client.register(touchd_client.surface("main", 0, 0, width, height, [
                touchd_client.recognizer("tap", "tap"),
                touchd_client.recognizer("pan", "pan", requiresFailureOf=["tap"]),
            ]))
        for message in client.events():  # unknown types are printed like the others
            show(message)
            printed += 1
            if args.count and printed >= args.count:
                break
    except touchd_client.ConnectionClosed:
        pass
    except touchd_client.TouchdError as e:
        print(e, file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        pass
    finally:
        client.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
