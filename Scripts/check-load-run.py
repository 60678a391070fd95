#!/usr/bin/env python3
"""Checks a run of a server sample's run-under-load.sh (Samples/HummingbirdServer, Samples/VaporServer): every
request wrk counted was traced (or counted as dropped), every kind of request the sample's traffic sends has the
decisions it must, the audit middleware alone is flagged slow, and the diagram and the report were written and name
it.

    check-load-run.py OUTPUT_DIRECTORY hummingbird|vapor
"""

import json
import re
import sys


def main() -> int:
    if len(sys.argv) != 3 or sys.argv[2] not in ("hummingbird", "vapor"):
        print("usage: check-load-run.py OUTPUT_DIRECTORY hummingbird|vapor", file=sys.stderr)
        return 2
    output, sample = sys.argv[1], sys.argv[2]
    wrk = open(f"{output}/wrk.txt").read()
    served = int(re.search(r"(\d+) requests in", wrk).group(1))
    connections = int(re.search(r"(\d+) connections", wrk).group(1))
    dropped = int(re.search(r"(\d+) dropped", open(f"{output}/server.stderr").read()).group(1))
    stats = json.load(open(f"{output}/stats.json"))
    handlers = {row["handler"]: row for row in stats["handlers"]}
    problems = []

    # wrk counts the responses it read; the server also answered the readiness probe, and requests still in
    # flight when wrk stopped (at most one a connection).
    traced = stats["commands"] + dropped
    if not served <= traced <= served + connections + 1:
        problems.append(f"{traced} requests traced or dropped for {served} that wrk counted ({connections} connections)")
    if served < 100:
        problems.append(f"only {served} requests under load")

    def expect(handler: str, **counts: int) -> None:
        row = handlers.get(handler)
        if row is None:
            problems.append(f"{handler} is not in the log")
            return
        for decision, at_least in counts.items():
            if row[decision] < at_least:
                problems.append(f"{handler}: {row[decision]} {decision}, expected at least {at_least}")

    share = served // 16  # each of the eight kinds of request is an eighth of the traffic: half that, at least
    if sample == "hummingbird":
        for middleware in ["LogRequestsMiddleware", "CORSMiddleware", "RateLimitMiddleware"]:
            expect(middleware, passed=served)
        route = "/api/orders/{id}"
    else:
        # Vapor's defaults come first; its ErrorMiddleware turns the 403s and 404s into responses (recovered).
        for middleware in ["RouteLoggingMiddleware", "CORSMiddleware", "RateLimitMiddleware"]:
            expect(middleware, passed=served)
        expect("ErrorMiddleware", passed=served // 2, accepted=2 * share)
        route = "/api/orders/:id"
    expect("ErrorPageMiddleware", accepted=share, passed=share)  # and the 503s it recovered
    expect("APIKeyMiddleware", accepted=share, passed=share)  # the 401s it answered itself
    expect("AuditMiddleware", passed=share)
    expect(f"GET {route}", accepted=share, failed=share)  # the store's failures, recovered above
    expect(f"DELETE {route}", failed=share)  # 403, thrown
    expect("NotFound", failed=share)
    expect("GET /health", accepted=share)
    slow = sorted(name for name, row in handlers.items() if row["slow"])
    if slow != ["AuditMiddleware"]:
        problems.append(f"slow handlers {slow}, expected only AuditMiddleware")
    if sample == "hummingbird" and stats["outcomes"]["failed"] < 2 * share:
        problems.append(f"{stats['outcomes']['failed']} failed requests, expected the 403s and 404s")
    if sample == "vapor" and stats["outcomes"]["failed"] != 0:
        problems.append(f"{stats['outcomes']['failed']} failed requests: Vapor's ErrorMiddleware answers every error")

    svg = open(f"{output}/profile.svg").read()
    if "AuditMiddleware" not in svg or "slow" not in svg:
        problems.append("profile.svg does not flag AuditMiddleware")
    report = open(f"{output}/report.html").read()
    if "AuditMiddleware" not in report:
        problems.append("report.html does not name AuditMiddleware")

    if problems:
        print("check-load-run: " + "\n  ".join(["the run is not right:"] + problems), file=sys.stderr)
        return 1
    print(f"check-load-run: {served} requests under load, {stats['commands']} traced, {dropped} dropped; "
          f"AuditMiddleware flagged slow")
    return 0


if __name__ == "__main__":
    sys.exit(main())
