#!/usr/bin/env python3
"""Holds the key rows of `chaintrace-benchmarks` to their budgets, in instructions a hop counted by callgrind.

Time on a shared 2-core VM moves by 10-30% from one minute to the next; the instructions a hop executes do not
(the same binary, the same inputs: the same count to within a few hundredths of a percent). So the recording paths'
costs are guarded by counting them: each row of Benchmarks/instruction-budgets.json runs alone, once with FEW and
once with MANY commands (`CHAINTRACE_BENCH_INSTRUCTIONS`), and the difference, per command and hop, is the row's
instructions a hop -- start-up and the other rows' set-up cancel out. A row over its budget fails the check: a
regression is found by the build that made it.

    Scripts/check-instruction-budgets.py [--binary PATH] [--budgets PATH] [--update]

--update rewrites the budgets as today's counts plus the file's headroom (after a change that is meant to cost
more, or that saved instructions: say which in the commit). Needs valgrind; the binary is built with
`swift build -c release --package-path Benchmarks --product chaintrace-benchmarks` and run with its debug
information stripped (valgrind 3.19 cannot read the DWARF Swift 6.3 writes).
"""

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def instructions(binary: str, row: str, commands: int) -> int:
    environment = dict(os.environ, CHAINTRACE_BENCH_INSTRUCTIONS=str(commands), CHAINTRACE_BENCH_ONLY="=" + row)
    result = subprocess.run(
        ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", binary],
        env=environment, capture_output=True, text=True, timeout=600)
    if result.returncode != 0:
        sys.exit(f"check-instruction-budgets: {row!r} exited with {result.returncode}:\n{result.stdout}{result.stderr}")
    match = re.search(r"I\s+refs:\s+([\d,]+)", result.stderr)
    if not match:
        sys.exit(f"check-instruction-budgets: no instruction count for {row!r}:\n{result.stderr}")
    return int(match.group(1).replace(",", ""))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--binary", default=os.path.join(ROOT, "Benchmarks/.build/release/chaintrace-benchmarks"))
    parser.add_argument("--budgets", default=os.path.join(ROOT, "Benchmarks/instruction-budgets.json"))
    parser.add_argument("--update", action="store_true", help="rewrite the budgets from today's counts")
    arguments = parser.parse_args()
    if shutil.which("valgrind") is None:
        sys.exit("check-instruction-budgets: valgrind is not installed (apt-get install -y valgrind)")
    if not os.path.exists(arguments.binary):
        sys.exit(f"check-instruction-budgets: {arguments.binary} does not exist: build the benchmarks first")
    with open(arguments.budgets) as file:
        budgets = json.load(file)
    few, many, hops = budgets["commands"]["few"], budgets["commands"]["many"], budgets["hopsPerCommand"]
    headroom = budgets["headroom"]

    with tempfile.TemporaryDirectory() as directory:
        stripped = os.path.join(directory, "chaintrace-benchmarks")
        subprocess.run(["strip", "--strip-debug", "-o", stripped, arguments.binary], check=True)
        failures = []
        print(f"Instructions a hop (callgrind, {many} - {few} commands of {hops} hops), against budgets")
        print(f"{'row':<58}{'today':>9}{'budget':>9}  verdict")
        print("-" * 90)
        for entry in budgets["rows"]:
            row = entry["row"]
            perHop = (instructions(stripped, row, many) - instructions(stripped, row, few)) / (many - few) / hops
            if arguments.update:
                entry["budget"] = round(perHop * (1 + headroom))
            budget = entry["budget"]
            verdict = "within" if perHop <= budget else "OVER"
            if perHop < budget / (1 + headroom) ** 3:
                verdict += " (far under: lower the budget with --update)"
            if perHop > budget:
                failures.append(f"{row}: {perHop:.0f} instructions a hop, over its budget of {budget}")
            print(f"{row:<58}{perHop:>9.0f}{budget:>9}  {verdict}")
    if arguments.update:
        with open(arguments.budgets, "w") as file:
            json.dump(budgets, file, indent=2, ensure_ascii=False)
            file.write("\n")
        print(f"\nbudgets rewritten: {arguments.budgets}")
        return 0
    if failures:
        print("\nOver budget -- a change made a recording path cost more:\n  " + "\n  ".join(failures))
        print("If the cost is meant, run Scripts/check-instruction-budgets.py --update and say why in the commit.")
        return 1
    print(f"\nall {len(budgets['rows'])} rows within their budgets")
    return 0


if __name__ == "__main__":
    sys.exit(main())
