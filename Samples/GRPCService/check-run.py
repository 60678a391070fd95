#!/usr/bin/env python3
"""Checks a run of Samples/GRPCService/run.sh: every call was traced once on the server and once on the client,
each kind of call (an eighth each: no token, over quota, a missing order, a watched order; the rest read an order)
has the decisions it must, the audit interceptor and the watch stream (which waits for updates) alone are flagged
slow, and the diagram and the report name the audit interceptor.

    check-run.py OUTPUT_DIRECTORY CALLS
"""

import json
import sys


def main() -> int:
    if len(sys.argv) != 3:
        print("usage: check-run.py OUTPUT_DIRECTORY CALLS", file=sys.stderr)
        return 2
    output, calls = sys.argv[1], int(sys.argv[2])
    server = json.load(open(f"{output}/stats.json"))
    server_beside_client = json.load(open(f"{output}/server-stats.json"))
    client = json.load(open(f"{output}/client-stats.json"))
    handlers = {row["handler"]: row for row in server["handlers"]}
    problems = []

    if server["commands"] != calls:
        problems.append(f"{server['commands']} server traces for {calls} calls")
    if server_beside_client["commands"] != calls:
        problems.append(f"{server_beside_client['commands']} server traces for {calls} calls, the client traced too")
    if client["commands"] != calls:
        problems.append(f"{client['commands']} client traces for {calls} calls")
    client_handlers = {row["handler"]: row for row in client["handlers"]}
    if client_handlers.get("RequestIDInterceptor", {}).get("passed") != calls:
        problems.append(f"the client's RequestIDInterceptor did not pass every call: {client_handlers}")

    def count(kind: int) -> int:
        """How many of the calls 0..<calls are of kind `kind` (their number modulo 8)."""
        return len(range(kind, calls, 8))

    def expect(handler: str, **counts: int) -> None:
        row = handlers.get(handler)
        if row is None:
            problems.append(f"{handler} is not in the server's traces")
            return
        for decision, exactly in counts.items():
            if row[decision] != exactly:
                problems.append(f"{handler}: {row[decision]} {decision}, expected {exactly}")

    unauthenticated, over_quota, missing, watched = count(0), count(1), count(2), count(3)
    authorised = calls - unauthenticated
    reached = authorised - over_quota
    expect("RequestLogInterceptor", passed=calls)
    expect("AuthInterceptor", accepted=unauthenticated, passed=authorised)
    expect("RateLimitInterceptor", failed=over_quota, passed=reached)
    expect("AuditInterceptor", passed=reached)
    expect("ErrorMappingInterceptor", passed=reached)
    expect("orders.Orders/Get", accepted=reached - watched - missing, failed=missing)
    expect("orders.Orders/Watch", accepted=watched)
    expect("orders.Orders/Watch stream", continued=watched)
    # The audit interceptor waits 2 ms on every call; the watch stream spends 3 ms waiting for the order's updates
    # (its own hop, after the chain): both are flagged, nothing else.
    slow = sorted(name for name, row in handlers.items() if row["slow"])
    if slow != ["AuditInterceptor", "orders.Orders/Watch stream"]:
        problems.append(f"slow hops {slow}, expected AuditInterceptor and orders.Orders/Watch stream")
    failed = server["outcomes"]["failed"]
    if failed != over_quota + missing:
        problems.append(f"{failed} failed RPCs, expected {over_quota + missing} (over quota, missing orders)")

    svg = open(f"{output}/profile.svg").read()
    if "AuditInterceptor" not in svg or "slow" not in svg:
        problems.append("profile.svg does not flag AuditInterceptor")
    # The client's chain drawn and reported alone: its interceptor, none of the server's.
    for page in ["client-profile.svg", "client-report.html"]:
        text = open(f"{output}/{page}").read()
        if "RequestIDInterceptor" not in text or "AuditInterceptor" in text:
            problems.append(f"{page} is not the client's chain alone")
    report = open(f"{output}/report.html").read()
    if "AuditInterceptor" not in report:
        problems.append("report.html does not name AuditInterceptor")

    if problems:
        print("check-run: " + "\n  ".join(["the run is not right:"] + problems), file=sys.stderr)
        return 1
    print(f"check-run: {calls} calls traced on both sides; AuditInterceptor and the watch stream alone flagged slow")
    return 0


if __name__ == "__main__":
    sys.exit(main())
