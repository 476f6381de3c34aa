#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The server's real output against the protocol's schemas: starts touchd
replaying a bundled recording (with a system shortcut configured and a
client's surface registered) and validates every line a client subscribed to
every stream and served at 60 Hz frames (`frames`) receives, the hello and
the answers too, against the schema of
its type. Usage: python3 docs/schemas/validate-server.py TOUCHD
Prints what it checked and exits non-zero when a line fails its schema or a
type has no schema."""
import collections
import json
import os
import pathlib
import socket
import subprocess
import sys
import tempfile
import time

from jsonschema import Draft202012Validator
from referencing import Registry, Resource

here = pathlib.Path(__file__).resolve().parent
root = here.parent.parent
schemas = {p.name[: -len(".schema.json")]: json.loads(p.read_text()) for p in sorted(here.glob("*.schema.json"))}
registry = Registry().with_resources((s["$id"], Resource.from_contents(s)) for s in schemas.values())
# Message types whose schema file has another name (the request of the same name has the plain one).
SCHEMA_OF = {"screens": "screens-message", "session": "session-message"}
TRACES = [
    root / "Tests/Fixtures/real/evemu-devices/touchscreens/Atmel maXTouch Touchscreen.4-finger-drag-down.events",
]


def run(touchd: str, trace: pathlib.Path, work: str) -> list:
    config = os.path.join(work, "touchd.yaml")
    with open(config, "w") as f:
        f.write(f"access:\n  seeAllTouches: {{users: [{os.getuid()}]}}\n"
                "shortcuts:\n  - {name: four-down, kind: swipe, minTouches: 4, maxTouches: 4, directions: [down]}\n")
    sock_path = os.path.join(work, "touchd.sock")
    daemon = subprocess.Popen([touchd, "--replay", str(trace), "--socket", sock_path, "--config", config,
                               "--wait-for-subscribers", "1", "--speed", "0", "--exit-after-replay",
                               "--log-level", "warning", "--realtime-priority", "0"])
    try:
        deadline = time.monotonic() + 30
        while not os.path.exists(sock_path):
            if daemon.poll() is not None or time.monotonic() > deadline:
                raise SystemExit(f"touchd did not start on {trace.name}")
            time.sleep(0.02)
        s = socket.socket(socket.AF_UNIX)
        s.connect(sock_path)
        f = s.makefile("r", encoding="utf-8")
        requests = [
            {"op": "register", "id": 1, "surface": {"id": "left", "rect": {"x": 0, "y": 0, "width": 900, "height": 1080},
                                                   "recognizers": [{"name": "drag", "kind": "pan"}, {"name": "tap", "kind": "tap"}]}},
            {"op": "register", "id": 2, "surface": {"id": "left", "rect": {"x": 0, "y": 0, "width": 1, "height": 1}}},
            {"op": "subscribe", "id": 3, "events": ["gesture", "touch", "system", "device", "debug"]},
            {"op": "frames", "id": 4, "periodMs": 16.667, "time": 0, "predict": {"horizonMs": 8}},
        ]
        for r in requests:
            s.sendall((json.dumps(r) + "\n").encode())
        lines = []
        for line in f:
            lines.append(line)
            if json.loads(line).get("type") == "goodbye":
                break
        s.close()
        return lines
    finally:
        daemon.wait(timeout=60)


def main() -> int:
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    counts = collections.Counter()
    failed = 0
    with tempfile.TemporaryDirectory(prefix="touchd-schemas-") as work:
        for trace in TRACES:
            for number, line in enumerate(run(sys.argv[1], trace, work), 1):
                message = json.loads(line)
                kind = message.get("type")
                schema = schemas.get(SCHEMA_OF.get(kind, kind))
                if schema is None:
                    print(f"FAIL {trace.name} line {number}: no schema for type {kind!r}: {line.strip()[:160]}")
                    failed += 1
                    continue
                errors = list(Draft202012Validator(schema, registry=registry).iter_errors(message))
                if errors:
                    print(f"FAIL {trace.name} line {number} ({kind}): {errors[0].message}: {line.strip()[:160]}")
                    failed += 1
                counts[kind] += 1
    print("server output: " + ", ".join(f"{n} {k}" for k, n in sorted(counts.items())))
    for needed in ("hello", "ack", "error", "touch", "gesture", "debug", "motion", "goodbye"):
        if not counts[needed]:
            print(f"FAIL no {needed} line in the server's output: the check would not see one")
            failed += 1
    print(f"{sum(counts.values()) - failed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
