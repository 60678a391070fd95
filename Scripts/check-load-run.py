#!/usr/bin/env python3
"""Checks a run of a server sample's run-under-load.sh (Samples/HummingbirdServer, Samples/VaporServer,
Samples/NIOServer): every request wrk counted was traced (or counted as dropped), every kind of request the sample's
traffic sends has the decisions it must, the audit middleware (the NIO sample's audit handler) alone of the app's is
flagged slow, and the diagram and the report were written and name it.

    check-load-run.py OUTPUT_DIRECTORY hummingbird|vapor|nio
"""

import json
import re
import sys


def read_run(output: str) -> tuple[int, int, int, dict]:
    """What a run wrote: the requests wrk counted, its connections, the traces the server dropped, and the stats."""
    wrk = open(f"{output}/wrk.txt").read()
    served = int(re.search(r"(\d+) requests in", wrk).group(1))
    connections = int(re.search(r"(\d+) connections", wrk).group(1))
    dropped = int(re.search(r"(\d+) dropped", open(f"{output}/server.stderr").read()).group(1))
    return served, connections, dropped, json.load(open(f"{output}/stats.json"))


def main() -> int:
    if len(sys.argv) != 3 or sys.argv[2] not in ("hummingbird", "vapor", "nio"):
        print("usage: check-load-run.py OUTPUT_DIRECTORY hummingbird|vapor|nio", file=sys.stderr)
        return 2
    output, sample = sys.argv[1], sys.argv[2]
    if sample == "nio":
        return check_nio(output)
    served, connections, dropped, stats = read_run(output)
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


def check_nio(output: str) -> int:
    """The NIO sample: its commands are the pipeline's events, and a request is two parts (a head and an end) through
    the app's handlers."""
    served, connections, dropped, stats = read_run(output)
    handlers = {row["handler"]: row for row in stats["handlers"]}
    problems = []

    def row(handler: str) -> dict:
        found = handlers.get(handler)
        if found is None:
            problems.append(f"{handler} is not in the log")
            return {"seen": 0, "accepted": 0, "passed": 0, "failed": 0, "continued": 0}
        return found

    def at_least(handler: str, **counts: int) -> None:
        for decision, least in counts.items():
            if row(handler)[decision] < least:
                problems.append(f"{handler}: {row(handler)[decision]} {decision}, expected at least {least}")

    # Every request's head and end reached OrdersHandler, which kept the head and answered (or raised an error
    # for) the end, unless the API key check answered it (it takes both parts): so those hops, halved, count the
    # requests — wrk's, the readiness probe's, and at most one a connection still in flight when wrk stopped. (A
    # connection's channelActive and channelInactive pass OrdersHandler too.) A dropped trace holds up to two.
    orders = row("OrdersHandler")
    reached = (orders["accepted"] + orders["failed"] + row("APIKeyHandler")["accepted"]) // 2
    if not served - 2 * dropped <= reached <= served + connections + 1:
        problems.append(f"{reached} requests traced through the app's handlers for {served} that wrk counted "
                        f"({connections} connections, {dropped} traces dropped)")
    if served < 100:
        problems.append(f"only {served} requests under load")
    share = served // 16  # each of the eight kinds of request is an eighth of the traffic: half that, at least
    for handler in ["HTTPServerPipelineHandler", "RateLimitHandler"]:
        at_least(handler, passed=2 * served - 2 * dropped)
    at_least("APIKeyHandler", accepted=2 * share, passed=2 * share)  # the 401s it answered itself
    at_least("AuditHandler", passed=2 * share)
    at_least("OrdersHandler", accepted=2 * share, failed=share)  # heads kept, answers; the store down: raised
    at_least("ErrorPageHandler", accepted=share)  # the 503s it answered
    at_least("Channel (flush)", accepted=served - dropped)  # every answer went out
    if stats["commands"] < served - dropped:
        problems.append(f"{stats['commands']} events traced for {served} requests")

    app = {"RateLimitHandler", "APIKeyHandler", "AuditHandler", "OrdersHandler", "ErrorPageHandler"}
    slow = sorted(name for name, found in handlers.items() if found["slow"])
    if [name for name in slow if name in app] != ["AuditHandler"]:
        problems.append(f"slow handlers {slow}, expected AuditHandler alone of the app's")
    svg = open(f"{output}/profile.svg").read()
    if "AuditHandler" not in svg or "slow" not in svg:
        problems.append("profile.svg does not flag AuditHandler")
    if "AuditHandler" not in open(f"{output}/report.html").read():
        problems.append("report.html does not name AuditHandler")

    if problems:
        print("check-load-run: " + "\n  ".join(["the run is not right:"] + problems), file=sys.stderr)
        return 1
    others = [name for name in slow if name not in app]
    print(f"check-load-run: {served} requests under load, {stats['commands']} events traced, {dropped} dropped; "
          f"AuditHandler flagged slow" + (f" (and NIO's own {', '.join(others)})" if others else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
