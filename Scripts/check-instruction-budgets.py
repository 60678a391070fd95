#!/usr/bin/env python3
"""Holds the key rows of `chaintrace-benchmarks` to their budgets, in instructions a hop counted by callgrind.

Time on a shared 2-core VM moves by 10-30% from one minute to the next; the instructions a hop executes do not
(the same binary, the same inputs: the same count to within a few hundredths of a percent). So the recording paths'
costs are guarded by counting them: each row of Benchmarks/instruction-budgets.json runs alone, once with FEW and
once with MANY commands (`CHAINTRACE_BENCH_INSTRUCTIONS`), and the difference, per command and hop, is the row's
instructions a hop -- start-up and the other rows' set-up cancel out. A row over its budget fails the check: a
regression is found by the build that made it.

    Scripts/check-instruction-budgets.py [--binary PATH] [--budgets PATH] [--update] [--ci]

--update rewrites the budgets as today's counts plus the file's headroom, and at least its "minimumHeadroom"
instructions (a row of about 100 instructions moves by one from run to run: callgrind counts every thread, and the
background writers' wake-ups follow time), after a change that is meant to cost more, or that saved instructions:
say which in the commit. Needs valgrind; the binary is built with
`swift build -c release --package-path Benchmarks --product chaintrace-benchmarks` and run with its debug
information stripped (valgrind 3.19 cannot read the DWARF Swift 6.3 writes).

The file's "frameworks" rows do the same for the framework benchmarks (chaintrace-http-benchmarks for Hummingbird,
-vapor-, -grpc-, -nio-): each variant runs alone (`CHAINTRACE_BENCH_ONLY=VARIANT:COUNT`) with no links and with LINKS
of them, each with FEW and MANY commands (`CHAINTRACE_BENCH_REQUESTS`); the growth with LINKS links less the growth
with none, per command and link, is one middleware's (interceptor's, handler's) hop. Their binaries are looked for
beside --binary; with --ci, rows marked "ci": false are left out (Vapor's, whose release build takes CI minutes).
A few of their rows move by up to a dozen instructions a hop from run to run (Vapor's event-loop
threads run for as long as valgrind takes), so their budgets have at least "minimumHeadroom" instructions to spare.
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


def count(binary: str, settings: dict, what: str) -> int:
    """Instructions `binary` runs with `settings` added to its environment, counted by callgrind."""
    environment = dict(os.environ, **settings)
    result = subprocess.run(
        ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", binary],
        env=environment, capture_output=True, text=True, timeout=600)
    if result.returncode != 0:
        sys.exit(f"check-instruction-budgets: {what} exited with {result.returncode}:\n{result.stdout}{result.stderr}")
    match = re.search(r"I\s+refs:\s+([\d,]+)", result.stderr)
    if not match:
        sys.exit(f"check-instruction-budgets: no instruction count for {what}:\n{result.stderr}")
    return int(match.group(1).replace(",", ""))


def instructions(binary: str, row: str, commands: int) -> int:
    settings = {"CHAINTRACE_BENCH_INSTRUCTIONS": str(commands), "CHAINTRACE_BENCH_ONLY": "=" + row}
    return count(binary, settings, repr(row))


def link_hop(binary: str, variant: str, links: int, few: int, many: int) -> float:
    """Instructions one link's hop of a framework benchmark's `variant` runs."""
    def run(linkCount: int, commands: int) -> int:
        settings = {"CHAINTRACE_BENCH_ONLY": f"{variant}:{linkCount}", "CHAINTRACE_BENCH_REQUESTS": str(commands)}
        return count(binary, settings, f"{os.path.basename(binary)} {variant}:{linkCount}")
    withLinks = run(links, many) - run(links, few)
    without = run(0, many) - run(0, few)
    return (withLinks - without) / (many - few) / links


def stripped_copy(binary: str, directory: str) -> str:
    if not os.path.exists(binary):
        sys.exit(f"check-instruction-budgets: {binary} does not exist: build the benchmarks first")
    copy = os.path.join(directory, os.path.basename(binary))
    subprocess.run(["strip", "--strip-debug", "-o", copy, binary], check=True)
    return copy


def judge(entry: dict, name: str, perHop: float, headroom: float, update: bool, failures: list,
          minimumHeadroom: float = 0) -> None:
    if update:
        entry["budget"] = round(max(perHop * (1 + headroom), perHop + minimumHeadroom))
    budget = entry["budget"]
    verdict = "within" if perHop <= budget else "OVER"
    if perHop < min(budget / (1 + headroom) ** 3, budget - 3 * minimumHeadroom):
        verdict += " (far under: lower the budget with --update)"
    if perHop > budget:
        failures.append(f"{name}: {perHop:.0f} instructions a hop, over its budget of {budget}")
    print(f"{name:<58}{perHop:>9.0f}{budget:>9}  {verdict}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--binary", default=os.path.join(ROOT, "Benchmarks/.build/release/chaintrace-benchmarks"))
    parser.add_argument("--budgets", default=os.path.join(ROOT, "Benchmarks/instruction-budgets.json"))
    parser.add_argument("--update", action="store_true", help="rewrite the budgets from today's counts")
    parser.add_argument("--ci", action="store_true",
                        help='leave out the framework rows marked "ci": false (their benchmark takes long to build)')
    arguments = parser.parse_args()
    if shutil.which("valgrind") is None:
        sys.exit("check-instruction-budgets: valgrind is not installed (apt-get install -y valgrind)")
    with open(arguments.budgets) as file:
        budgets = json.load(file)
    few, many, hops = budgets["commands"]["few"], budgets["commands"]["many"], budgets["hopsPerCommand"]
    headroom = budgets["headroom"]
    frameworks = budgets.get("frameworks", {"rows": []})
    failures = []
    counted = len(budgets["rows"])

    with tempfile.TemporaryDirectory() as directory:
        stripped = stripped_copy(arguments.binary, directory)
        print(f"Instructions a hop (callgrind, {many} - {few} commands of {hops} hops), against budgets")
        print(f"{'row':<58}{'today':>9}{'budget':>9}  verdict")
        print("-" * 90)
        for entry in budgets["rows"]:
            row = entry["row"]
            perHop = (instructions(stripped, row, many) - instructions(stripped, row, few)) / (many - few) / hops
            judge(entry, row, perHop, headroom, arguments.update, failures, budgets.get("minimumHeadroom", 0))
        if frameworks["rows"]:
            links, frameworkFew, frameworkMany = (
                frameworks["links"], frameworks["commands"]["few"], frameworks["commands"]["many"])
            print(f"\nInstructions a link's hop of the framework benchmarks (callgrind, 0 and {links} links,"
                  f" {frameworkMany} - {frameworkFew} commands)")
            print("-" * 90)
            copies = {}
            for entry in frameworks["rows"]:
                benchmark = entry["benchmark"]
                if arguments.ci and not entry.get("ci", True):
                    print(f"{benchmark + ' ' + entry['variant']:<58}{'':>9}{entry['budget']:>9}  not counted in CI")
                    continue
                if benchmark not in copies:
                    copies[benchmark] = stripped_copy(
                        os.path.join(os.path.dirname(arguments.binary), benchmark), directory)
                perHop = link_hop(copies[benchmark], entry["variant"], links, frameworkFew, frameworkMany)
                counted += 1
                judge(entry, f"{benchmark} {entry['variant']}", perHop, headroom, arguments.update, failures,
                      frameworks.get("minimumHeadroom", 0))
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
    print(f"\nall {counted} rows counted are within their budgets")
    return 0


if __name__ == "__main__":
    sys.exit(main())
