#!/usr/bin/env python3
"""Rewrites the help blocks of Docs/CLI.md from the built tool's own --help (CLIReferenceTests checks they match).

Usage: swift build --product chaintrace && python3 Scripts/update-cli-reference.py
"""
import os
import re
import subprocess
import sys

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
binary = os.path.join(root, ".build", "debug", "chaintrace")
path = os.path.join(root, "Docs", "CLI.md")
lines = open(path, encoding="utf-8").read().split("\n")
out, command, skipping = [], None, False
env = dict(os.environ, NO_COLOR="1", COLUMNS="120")
for line in lines:
    if skipping:
        if line == "```":
            skipping = False
            out.append(line)
        continue
    heading = re.match(r"^### chaintrace ?(.*)$", line)
    if heading:
        command = heading.group(1).split()
    if command is not None and line == "```text":
        help_text = subprocess.run([binary] + command + ["--help"], capture_output=True, text=True, env=env, cwd=root).stdout
        out.append(line)
        out.extend(l.rstrip() for l in help_text.strip("\n").split("\n"))
        skipping, command = True, None
        continue
    out.append(line)
open(path, "w", encoding="utf-8").write("\n".join(out))
print("updated", path, file=sys.stderr)
