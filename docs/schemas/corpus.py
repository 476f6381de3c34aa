#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The protocol corpus for the clients' tests: every valid server message of
examples.jsonl (a message with a "type"), one JSON line each.

    python3 docs/schemas/corpus.py lines          the lines
    python3 docs/schemas/corpus.py members FILE   each line of FILE as `path kind value` lines (as
                                                  clients/c/tests/test-client --corpus prints them)
"""
import json
import pathlib
import sys

here = pathlib.Path(__file__).resolve().parent


def server_messages():
    for line in (here / "examples.jsonl").read_text().splitlines():
        if line.strip():
            case = json.loads(line)
            if case["valid"] and "type" in case["message"]:
                yield case["message"]


def members(value, path=""):
    """(path, kind, text) for every member, parents before their members, in order."""
    if isinstance(value, dict):
        items = list(value.items())
    else:
        items = [(str(i), v) for i, v in enumerate(value)]
    for key, v in items:
        p = f"{path}.{key}" if path else key
        if isinstance(v, bool):
            yield p, "b", "true" if v else "false"
        elif isinstance(v, str):
            yield p, "s", v
        elif isinstance(v, (int, float)):
            yield p, "n", format(float(v), ".17g")
        elif isinstance(v, list):
            yield p, "a", str(len(v))
            yield from members(v, p)
        elif isinstance(v, dict):
            yield p, "x", None
            yield from members(v, p)
        else:
            yield p, "x", None


if __name__ == "__main__":
    if sys.argv[1:] == ["lines"]:
        for m in server_messages():
            print(json.dumps(m, separators=(",", ":"), ensure_ascii=False))
    elif len(sys.argv) == 3 and sys.argv[1] == "members":
        for line in pathlib.Path(sys.argv[2]).read_text().splitlines():
            for p, kind, text in members(json.loads(line)):
                print(f"{p} {kind} {text}" if text is not None else f"{p} {kind}")
            print()
    else:
        sys.exit(__doc__)
