#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""A stand-in for touchd's socket, for testing `touchctl view` without the daemon.

Usage: fake-touchd.py SOCKET EVENTS.jsonl

EVENTS.jsonl is what `touchctl replay TRACE --events touch,gesture,system`
prints: a `hello` line, then events. Every client gets the hello on connect,
an `ack` for each request, and all the events after its first `subscribe`.
Runs until killed.
"""
import json
import os
import socket
import sys
import threading


def serve(conn, hello, events):
    try:
        conn.sendall((hello + "\n").encode())
        buffer = b""
        sent = False
        while True:
            data = conn.recv(65536)
            if not data:
                return
            buffer += data
            while b"\n" in buffer:
                line, buffer = buffer.split(b"\n", 1)
                request = json.loads(line)
                conn.sendall((json.dumps({"type": "ack", "id": request.get("id")}) + "\n").encode())
                if request.get("op") == "subscribe" and not sent:
                    conn.sendall("".join(e + "\n" for e in events).encode())
                    sent = True
    except OSError:
        return
    finally:
        conn.close()


def main():
    path, events_file = sys.argv[1], sys.argv[2]
    with open(events_file) as f:
        lines = [l.strip() for l in f if l.strip()]
    hello, events = lines[0], lines[1:]
    if os.path.exists(path):
        os.unlink(path)
    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    server.bind(path)
    server.listen(4)
    while True:
        conn, _ = server.accept()
        threading.Thread(target=serve, args=(conn, hello, events), daemon=True).start()


if __name__ == "__main__":
    main()
