#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Checks the protocol v1 JSON Schemas: each is a valid draft 2020-12 schema,
every example in examples.jsonl is accepted or rejected as it says, and every
schema has at least one valid example. Usage: python3 docs/schemas/validate.py
Prints 'N passed, N failed' and exits non-zero on any failure."""
import json
import pathlib
import sys

from jsonschema import Draft202012Validator
from referencing import Registry, Resource

here = pathlib.Path(__file__).resolve().parent
schemas = {p.name[: -len(".schema.json")]: json.loads(p.read_text()) for p in sorted(here.glob("*.schema.json"))}
registry = Registry().with_resources((s["$id"], Resource.from_contents(s)) for s in schemas.values())
passed = failed = 0

for name, schema in schemas.items():
    try:
        Draft202012Validator.check_schema(schema)
        passed += 1
    except Exception as e:  # noqa: BLE001
        print(f"FAIL {name}.schema.json is not a valid schema: {e}")
        failed += 1

covered = set()
for number, line in enumerate((here / "examples.jsonl").read_text().splitlines(), 1):
    if not line.strip():
        continue
    case = json.loads(line)
    validator = Draft202012Validator(schemas[case["schema"]], registry=registry)
    errors = list(validator.iter_errors(case["message"]))
    ok = (not errors) == case["valid"]
    if case["valid"] and ok:
        covered.add(case["schema"])
    if ok:
        passed += 1
    else:
        failed += 1
        detail = errors[0].message if errors else "accepted"
        print(f"FAIL examples.jsonl:{number} ({case['schema']}, expected {'valid' if case['valid'] else 'invalid'}): {detail}")

for name in schemas:
    if name != "common" and name not in covered:
        print(f"FAIL {name}.schema.json has no valid example")
        failed += 1

print(f"{passed} passed, {failed} failed")
sys.exit(1 if failed else 0)
