#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Prints the module graph of Package.swift as docs/architecture.md's table
(`| target | imports |`); ArchitectureDocumentTests checks the two agree."""
import pathlib
import re

root = pathlib.Path(__file__).resolve().parent.parent
text = (root / "Package.swift").read_text()
print("| target | imports |")
print("|---|---|")
for m in re.finditer(r'\.(?:target|executableTarget|systemLibrary)\(\s*name:\s*"([^"]+)"(?:\s*,\s*dependencies:\s*\[(.*?)\])?', text, re.S):
    name, deps = m.groups()
    names = []
    for d in re.finditer(r'\.product\(name:\s*"([^"]+)",\s*package:\s*"[^"]+"\)|"([^"]+)"', deps or ""):
        names.append(d.group(1) or d.group(2))
    print(f"| `{name}` | {', '.join(f'`{n}`' for n in names) or '-'} |")
