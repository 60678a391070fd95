#!/usr/bin/env python3
"""Runs Docs/AtScale.md's queries, in DuckDB or Apache Spark, on a generated many-file log and checks them
against `chaintrace stats`.

Usage: Scripts/at-scale.py --chaintrace PATH [--engine duckdb|spark] [--seed N]

It replays a generated chain (10 handlers, some failing, two slow by design, one only now and then) over three
command streams into three log files (the second gzip-compressed), exports each with `chaintrace export --to
jsonl`, runs the page's `sql` blocks — read from the page itself, so what is documented is what is tested — with
DuckDB over the rows, or with Spark SQL (PySpark, local mode) over the same rows registered as the view `rows`, as
the page says, and compares with `chaintrace stats --format json` of the same directory: commands and
outcomes equal, every handler's decision counts equal, each self-time percentile equal or at most 1% higher in
`stats` (its HDR histogram keeps two significant digits), and the same slow handlers by `p95>1ms,5x-median`
(a handler whose p95 lies within 1% of the rule's line either way, or whose hops over 5 × the median lie between 2
and 3 standard deviations over the 5% — where the page's normal approximation and `stats`'s exact test may part —
is left out of that comparison).
Exit 0 when all agree, 1 when not, 2 when the engine's Python package is missing.
"""

import argparse
import gzip
import json
import math
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile

import chain_fixtures

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))



def queries():
    """The page's `sql` blocks, by the name in their first line (`-- name: …`)."""
    with open(os.path.join(ROOT, "Docs", "AtScale.md"), encoding="utf-8") as file:
        page = file.read()
    found = {}
    for block in re.findall(r"```sql\n(.*?)```", page, re.S):
        first = block.split("\n", 1)[0]
        match = re.match(r"-- name: (\S+)", first)
        if match:
            found[match.group(1)] = block
    return found


def write_log(chaintrace, directory, seed):
    rng = random.Random(seed)
    definition = chain_fixtures.validator_chain(
        "at-scale", ["Step%d" % index for index in range(10)], accepts=lambda index: {"kind": "K%d" % index},
        failing=chain_fixtures.too_large(3, 1, 950, "too big for "), work={4: "1500us", 7: "300us"})
    definition_path = chain_fixtures.write_json(os.path.join(directory, "chain.json"), definition)
    logs = os.path.join(directory, "logs")
    os.makedirs(logs)
    for part in range(3):
        stream = os.path.join(directory, "stream-%d.jsonl" % part)
        with open(stream, "w") as file:
            for number in range(400):
                file.write(json.dumps({"kind": "K%d" % rng.randrange(12), "id": "c%d-%d" % (part, number),
                                       "size": rng.randrange(1000)}) + "\n")
        log = os.path.join(logs, "traces-%04d.jsonl" % (part + 1))
        subprocess.run([chaintrace, "replay", definition_path, stream, "--trace-out", log], check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        if part == 1:
            with open(log, "rb") as plain, gzip.open(log + ".gz", "wb") as compressed:
                shutil.copyfileobj(plain, compressed)
            os.remove(log)
    return logs


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--chaintrace", required=True)
    parser.add_argument("--seed", type=int, default=20261125)
    parser.add_argument("--engine", choices=["duckdb", "spark"], default="duckdb")
    arguments = parser.parse_args()
    try:
        if arguments.engine == "duckdb":
            import duckdb
        else:
            from pyspark.sql import SparkSession
    except ImportError:
        print("at-scale: needs the %s Python package (pip install %s)" % (arguments.engine, "duckdb" if arguments.engine == "duckdb" else "pyspark"), file=sys.stderr)
        return 2
    chaintrace = os.path.abspath(arguments.chaintrace)
    directory = tempfile.mkdtemp(prefix="at-scale-")
    failures = []

    def check(condition, message):
        print(("  ok   " if condition else "  FAIL ") + message)
        if not condition:
            failures.append(message)

    try:
        logs = write_log(chaintrace, directory, arguments.seed)
        rows = os.path.join(directory, "rows")
        os.makedirs(rows)
        for name in sorted(os.listdir(logs)):
            target = os.path.join(rows, name[:-3] if name.endswith(".gz") else name)
            subprocess.run([chaintrace, "export", "--to", "jsonl", os.path.join(logs, name), "-o", target], check=True)
        stats = json.loads(subprocess.run([chaintrace, "stats", logs, "--format", "json", "--slow", "p95>1ms,5x-median"],
                                          check=True, capture_output=True, text=True).stdout)
        sql = queries()
        check(set(sql) >= {"per-handler", "slow-handlers", "outcomes"}, "the page has its three queries")
        glob = os.path.join(rows, "*.jsonl")
        if arguments.engine == "duckdb":
            connection = duckdb.connect()

            def run(name):
                return connection.execute(sql[name].replace("'rows/*.jsonl'", "'%s'" % glob.replace("'", "''"))).fetchall()
        else:
            # As the page says: the rows as a view, and `rows` in place of read_json_auto('rows/*.jsonl').
            spark = (SparkSession.builder.master("local[2]").appName("chaintrace-at-scale")
                     .config("spark.ui.enabled", "false").getOrCreate())
            spark.sparkContext.setLogLevel("ERROR")
            spark.read.json(glob).createOrReplaceTempView("rows")

            def run(name):
                query = sql[name].replace("read_json_auto('rows/*.jsonl')", "rows").strip().rstrip(";")
                return [tuple(row) for row in spark.sql(query).collect()]

        commands, accepted, fell, failed = run("outcomes")[0]
        check(commands == stats["commands"], "commands: %s %d, stats %d" % (arguments.engine, commands, stats["commands"]))
        outcomes = stats["outcomes"]
        check((accepted, fell, failed) == (outcomes["accepted"], outcomes["fellOffTheEnd"], outcomes["failed"]),
              "outcomes: %s %s, stats %s" % (arguments.engine, (accepted, fell, failed), outcomes))
        ours = {row["handler"]: row for row in stats["handlers"] if row["seen"] > 0}
        theirs = {row[0]: row for row in run("per-handler")}
        check(set(ours) == set(theirs), "the same handlers ran (%d)" % len(ours))
        print("  %-8s %7s %9s %9s   %s" % ("handler", "seen", "p95 them", "p95 ours", "decisions"))
        for handler in sorted(set(ours) & set(theirs)):
            mine, row = ours[handler], theirs[handler]
            _, seen, acc, passed, cont, fail, p50, p95, p99 = row
            print("  %-8s %7d %9d %9d   %s" % (handler, seen, p95, mine["selfP95Ns"], (acc, passed, cont, fail)))
            check((seen, acc, passed, cont, fail) == (mine["seen"], mine["accepted"], mine["passed"], mine["continued"], mine["failed"]),
                  "%s: the same decision counts" % handler)
            for label, exact, read in [("p50", p50, mine["selfP50Ns"]), ("p95", p95, mine["selfP95Ns"]), ("p99", p99, mine["selfP99Ns"])]:
                check(exact <= read <= exact * 1.01 + 1, "%s %s: stats %d is DuckDB's %d or up to 1%% above" % (handler, label, read, exact))
        slow_duck = {row[0] for row in run("slow-handlers")}
        slow_ours = {row["handler"] for row in stats["handlers"] if row["slow"]}
        p95s = sorted(row[7] for row in theirs.values())
        median = (p95s[len(p95s) // 2] if len(p95s) % 2 else (p95s[len(p95s) // 2 - 1] + p95s[len(p95s) // 2]) / 2) if p95s else 0
        lines = [1_000_000] + ([5 * median] if len(p95s) >= 3 else [])
        near = {handler for handler, row in theirs.items() if any(abs(row[7] - line) <= 0.01 * line + 1 for line in lines)}
        # Where the query's normal approximation and `stats`'s exact binomial tail may disagree: hops over 5 × the
        # median between 2 and 3 standard deviations over the 5% a p95 lets through.
        if len(p95s) >= 3:
            times = {}
            for name in os.listdir(rows):
                with open(os.path.join(rows, name), encoding="utf-8") as file:
                    for line in file:
                        row = json.loads(line)
                        if row.get("handler") is not None:
                            times.setdefault(row["handler"], []).append(row["selfNs"])
            for handler, handler_times in times.items():
                n = len(handler_times)
                beyond = sum(1 for time in handler_times if time > 5 * median)
                z = (beyond - 0.5 - 0.05 * n) / math.sqrt(0.05 * 0.95 * n)
                if 2 <= z <= 3:
                    near.add(handler)
        check(slow_duck - near == slow_ours - near and slow_ours, "the same slow handlers: theirs %s, stats %s (left out, near a line: %s)"
              % (sorted(slow_duck), sorted(slow_ours), sorted(near)))
    finally:
        shutil.rmtree(directory, ignore_errors=True)
    if failures:
        print("%d checks failed" % len(failures), file=sys.stderr)
        return 1
    print("%s agrees with chaintrace stats" % ("DuckDB" if arguments.engine == "duckdb" else "Spark"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
