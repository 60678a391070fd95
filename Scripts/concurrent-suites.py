#!/usr/bin/env python3
"""Prints a `swift test --filter` pattern that selects every suite tagged `.concurrent` in Tests/: the suites
`Scripts/test-sanitized.sh` runs again under ThreadSanitizer. Chosen by the tag in the sources (the toolchain's
`swift test` cannot filter by tag yet); `ConcurrentSuiteTagTests` fails for a suite that starts threads or tasks
without it, so a new concurrent suite is never left out."""

import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SUITE = re.compile(r"@Suite\(([^\n]*)\)\s*\n(?:\s*@\w+[^\n]*\n)*\s*(?:final\s+)?(?:struct|class|enum|actor)\s+(\w+)")

names = []
for folder, _, files in os.walk(os.path.join(ROOT, "Tests")):
    for name in files:
        if not name.endswith(".swift"):
            continue
        with open(os.path.join(folder, name), encoding="utf-8") as file:
            text = file.read()
        names += [match.group(2) for match in SUITE.finditer(text) if ".concurrent" in match.group(1)]
if not names:
    sys.exit("concurrent-suites: no suite is tagged .concurrent")
print("\\.(" + "|".join(sorted(set(names))) + ")/")
