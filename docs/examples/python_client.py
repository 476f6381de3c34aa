#!/usr/bin/env python3
"""A touchd client using only the Python standard library.

Connects to the touchd socket, subscribes to event streams, optionally
registers a surface with a tap and a pan recognizer, and prints every
message as one JSON line.

    python3 python_client.py [--socket PATH] [--events gesture,touch,...]
                             [--surface WIDTHxHEIGHT] [--coalesce MS] [--count N]
"""
import argparse
import json
import socket
import sys


class TouchdConnection:
    """JSON lines over a Unix stream socket."""

    def __init__(self, path):
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.connect(path)
        self.reader = self.sock.makefile("r", encoding="utf-8", newline="\n")
        self.next_id = 1

    def send(self, op, **fields):
        """Sends a request and returns its id."""
        request_id = self.next_id
        self.next_id += 1
        message = {"op": op, "id": request_id, **fields}
        self.sock.sendall((json.dumps(message, separators=(",", ":")) + "\n").encode("utf-8"))
        return request_id

    def messages(self):
        """Yields each server message as a dict until the server closes."""
        for line in self.reader:
            if line.strip():
                yield json.loads(line)

    def request(self, op, printer, **fields):
        """Sends a request and waits for its answer, passing events that
        arrive meanwhile to printer. Raises RuntimeError on an error answer."""
        request_id = self.send(op, **fields)
        for message in self.messages():
            if message.get("type") in ("ack", "error") and message.get("id") == request_id:
                if message["type"] == "error":
                    raise RuntimeError(f"{op} failed: {message['code']}: {message['message']}")
                return
            printer(message)
        raise RuntimeError("the server closed the connection")

    def close(self):
        self.reader.close()
        self.sock.close()


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--socket", default="/run/touchd/touchd.sock")
    parser.add_argument("--events", default="gesture,touch,system,device",
                        help="comma-separated streams to subscribe to")
    parser.add_argument("--surface", metavar="WIDTHxHEIGHT",
                        help="register a surface 'main' of this size at 0,0 with tap and pan")
    parser.add_argument("--coalesce", type=float, default=0, metavar="MS",
                        help="touch moves and gesture changes at most once per MS milliseconds (0: every one)")
    parser.add_argument("--count", type=int, default=0,
                        help="exit after printing this many events (0: run until the server closes)")
    args = parser.parse_args()

    try:
        conn = TouchdConnection(args.socket)
    except OSError as e:
        print(f"cannot connect to {args.socket}: {e}", file=sys.stderr)
        return 1

    printed = 0

    def printer(message):
        nonlocal printed
        print(json.dumps(message, separators=(",", ":")), flush=True)
        printed += 1
        if args.count and printed >= args.count:
            raise SystemExit(0)

    try:
        messages = conn.messages()
        hello = next(messages)
        if hello.get("type") != "hello" or hello.get("protocol") != 1:
            print(f"unexpected first message: {hello}", file=sys.stderr)
            return 1
        printer(hello)
        if args.coalesce:
            conn.request("coalesce", printer, intervalMs=args.coalesce)
        conn.request("subscribe", printer, events=[e for e in args.events.split(",") if e])
        if args.surface:
            width, height = (float(v) for v in args.surface.lower().split("x"))
            surface = {
                "id": "main",
                "rect": {"x": 0, "y": 0, "width": width, "height": height},
                "recognizers": [
                    {"name": "tap", "kind": "tap"},
                    {"name": "pan", "kind": "pan", "requiresFailureOf": ["tap"]},
                ],
            }
            conn.request("register", printer, surface=surface)
        for message in conn.messages():
            printer(message)  # unknown types are printed like the others
            if message.get("type") == "goodbye":
                break
    except RuntimeError as e:
        print(e, file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        pass
    finally:
        conn.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
