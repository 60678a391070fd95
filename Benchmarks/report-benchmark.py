#!/usr/bin/env python3
"""What `chaintrace report` costs: beside `chaintrace stats` on the same large log, and its page in Chromium.

Usage (release build first: swift build -c release --product chaintrace):
    Benchmarks/report-benchmark.py [--chaintrace .build/release/chaintrace] [--megabytes 1024] [--rounds 3]

It writes a generated chain's trace log — 12 handlers, three failing now and then, one slow, 16 command kinds,
string ids — by `chaintrace replay --trace-out` of 300 000 commands, concatenates copies of it to --megabytes,
then prints:

  * `stats` and `report` (10 000 commands listed) over that log, each in its own process, interleaved, best and
    worst of --rounds, with the ratio (target: report ≤ 2× stats) and each one's peak RSS;
  * the page's size (target ≤ 5 MB) and, in headless Chromium over WebDriver, its first contentful paint and the
    moment its script has drawn everything (target ≤ 1 s), beside the same for the profile SVG alone
    (`chaintrace render --trace`), the diagram users had before the report.
"""

import argparse
import importlib.util
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Scripts"))
import chain_fixtures  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def load_webdriver():
    spec = importlib.util.spec_from_file_location("browser_tests", os.path.join(ROOT, "Scripts", "browser-tests.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.WebDriver


def timed(arguments):
    """Seconds and peak RSS (MB) of one run."""
    start = time.perf_counter()
    result = subprocess.run(["/usr/bin/time", "-f", "%M"] + arguments, capture_output=True, text=True)
    elapsed = time.perf_counter() - start
    if result.returncode != 0:
        raise RuntimeError("%s: %s" % (" ".join(arguments), result.stderr))
    return elapsed, int(result.stderr.strip().split("\n")[-1]) / 1024


def write_log(chaintrace, directory, megabytes):
    rng = random.Random(20261125)
    definition = chain_fixtures.validator_chain(
        "benchmark", ["Stage%02d" % index for index in range(12)],
        accepts=lambda index: {"any": [{"kind": "K%d" % index}, {"kind": "K%d" % (index + 12)}]},
        failing=chain_fixtures.too_large(4, 2, 990, "size over the limit at "), work={7: "20us"})
    definition_path = chain_fixtures.write_json(os.path.join(directory, "benchmark.chain.json"), definition)
    stream = os.path.join(directory, "stream.jsonl")
    with open(stream, "w") as file:
        for number in range(300_000):
            file.write(json.dumps({"kind": "K%d" % rng.randrange(26), "id": "order-%07d" % number,
                                   "size": rng.randrange(1000), "note": rng.choice(["", "gift", "rush"])}) + "\n")
    piece = os.path.join(directory, "piece.jsonl")
    subprocess.run([chaintrace, "replay", definition_path, stream, "--trace-out", piece], check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    with open(piece, "rb") as file:
        whole = file.read()
    # Whole copies, each with its header: a compact log's segments restart their name tables and differences at
    # a header, so a copy appended without one would refer to names it never declared (cat-ing logs is fine).
    log = os.path.join(directory, "big.traces.jsonl")
    with open(log, "wb") as file:
        written = 0
        while written < megabytes * 1_000_000:
            file.write(whole)
            written += len(whole)
    return definition_path, piece, log, written


def page_timings(driver, url, rounds):
    paints, ready = [], []
    for _ in range(rounds):
        driver.open(url) if url.endswith(".html") else open_plain(driver, url)
        entries = driver.run("return performance.getEntriesByType('paint').map(e => [e.name, e.startTime])")
        first = dict(entries).get("first-contentful-paint")
        paints.append(first)
        ready.append(driver.run("return document.body && document.body.dataset.readyMs ? Number(document.body.dataset.readyMs) : null"))
    return paints, ready


def open_plain(driver, url):
    driver.command("POST", "/url", {"url": "about:blank"})
    driver.command("POST", "/url", {"url": url})
    deadline = time.time() + 30
    while driver.run("return document.readyState") != "complete" and time.time() < deadline:
        time.sleep(0.05)
    time.sleep(0.3)


def span(values, unit):
    values = [v for v in values if v is not None]
    if not values:
        return "-"
    return "%s–%s %s" % (format_number(min(values)), format_number(max(values)), unit)


def format_number(value):
    return ("%.0f" % value) if value >= 10 else ("%.2f" % value)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--chaintrace", default=os.path.join(ROOT, ".build", "release", "chaintrace"))
    parser.add_argument("--megabytes", type=int, default=1024)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--keep", help="keep the log and pages in this directory")
    arguments = parser.parse_args()
    chaintrace = os.path.abspath(arguments.chaintrace)
    directory = arguments.keep or tempfile.mkdtemp(prefix="report-benchmark-")
    os.makedirs(directory, exist_ok=True)
    try:
        definition, piece, log, size = write_log(chaintrace, directory, arguments.megabytes)
        page = os.path.join(directory, "report.html")
        stats_times, report_times, stats_rss, report_rss = [], [], [], []
        for _ in range(arguments.rounds):
            seconds, rss = timed([chaintrace, "stats", log, "--definition", definition])
            stats_times.append(seconds)
            stats_rss.append(rss)
            seconds, rss = timed([chaintrace, "report", log, "--definition", definition, "-o", page])
            report_times.append(seconds)
            report_rss.append(rss)
        ratios = [r / s for r, s in zip(report_times, stats_times)]
        print("chaintrace report benchmark — log of %d MB (copies of a %s-trace log, concatenated), %d rounds, %d cores"
              % (size // 1_000_000, "300 000", arguments.rounds, os.cpu_count()))
        print()
        print("| task | report | stats (baseline) | report ÷ stats | target |")
        print("|---|---|---|---|---|")
        print("| read the whole log, every number, one process (s) | %s | %s | %s | ≤ 2× |" % (
            span(report_times, "s"), span(stats_times, "s"), span(ratios, "×")))
        print("| throughput (MB/s) | %s | %s | | |" % (
            span([size / 1e6 / t for t in report_times], "MB/s"), span([size / 1e6 / t for t in stats_times], "MB/s")))
        print("| peak RSS (MB) | %s | %s | | constant |" % (span(report_rss, "MB"), span(stats_rss, "MB")))

        small_page = os.path.join(directory, "report-small.html")
        subprocess.run([chaintrace, "report", piece, "--definition", definition, "-o", small_page], check=True,
                       stderr=subprocess.DEVNULL)
        svg = os.path.join(directory, "profile.svg")
        subprocess.run([chaintrace, "render", definition, "--trace", piece, "-o", svg], check=True, stderr=subprocess.DEVNULL)
        print()
        print("| page (10 000 commands listed) | size | first contentful paint | everything drawn | target |")
        print("|---|---|---|---|---|")
        chromium, chromedriver = shutil.which("chromium"), shutil.which("chromedriver")
        rows = [("report of the %d MB log" % (size // 1_000_000), page), ("report of one 300 000-command copy", small_page),
                ("profile SVG alone (`render --trace`), before the report", svg)]
        if not chromium or not chromedriver:
            for name, path in rows:
                print("| %s | %.2f MB | (no chromium) | | ≤ 5 MB, ≤ 1 s |" % (name, os.path.getsize(path) / 1e6))
            return 0
        driver = load_webdriver()(chromium, chromedriver)
        try:
            for name, path in rows:
                paints, ready = page_timings(driver, "file://" + path, 5)
                print("| %s | %.2f MB | %s | %s | %s |" % (
                    name, os.path.getsize(path) / 1e6, span(paints, "ms"), span(ready, "ms") if path.endswith(".html") else "-",
                    "≤ 5 MB, ≤ 1 s" if path.endswith(".html") else "baseline"))
        finally:
            driver.close()
    finally:
        if not arguments.keep:
            shutil.rmtree(directory, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
