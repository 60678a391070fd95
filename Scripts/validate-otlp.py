#!/usr/bin/env python3
"""Reads an OTLP/JSON file with OpenTelemetry's own definitions and prints what it holds.

Usage: Scripts/validate-otlp.py [--any-times] [--lines] FILE

With --lines, FILE is JSON Lines of requests (`chaintrace export --to otlp --batch N`): each line is parsed as one
request, each trace must lie whole in one line, and the traces of all lines are listed in file order.

Parses FILE into `opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest` (PyPI `opentelemetry-proto`)
with protobuf's strict JSON parser — any field the protocol does not define, or a value of the wrong type, is an
error. OTLP/JSON writes trace and span ids in hex where protobuf's JSON mapping expects base 64; they are
converted first, as an OTLP receiver does, and must be 16 and 8 bytes, not all zero.

It then checks every trace's shape: exactly one root span — or, for commands that ran under a span of the app's
(a log's `traceparent`), one or more spans whose parent is that span, outside the export — every other span's parent
in the same trace, each span inside its parent's time (unless --any-times: a log may hold a hop that outlasts its command, which the
export writes as it is), ERROR status only with a message. It prints one JSON object:
{"traces": N, "spans": M, "list": [[[name, parent index or -1, start offset ns, duration ns, status code,
{attribute: value}], …] per trace, in file order]} for the caller to compare with the log. Exit 0 when valid, 1
when not (the reason on stderr), 2 when opentelemetry-proto is missing.
"""

import json
import sys

import otlp_json

try:
    from google.protobuf import json_format
    from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceRequest
except ImportError:
    print("validate-otlp: needs opentelemetry-proto (pip install opentelemetry-proto)", file=sys.stderr)
    sys.exit(2)


def fail(message):
    print("validate-otlp: " + message, file=sys.stderr)
    sys.exit(1)


def main():
    arguments = sys.argv[1:]
    any_times = "--any-times" in arguments
    lines = "--lines" in arguments
    arguments = [argument for argument in arguments if argument not in ("--any-times", "--lines")]
    if len(arguments) != 1:
        print(__doc__, file=sys.stderr)
        return 2
    with open(arguments[0], encoding="utf-8") as file:
        if lines:
            documents = [json.loads(line) for line in file if line.strip()]
        else:
            documents = [json.load(file)]
    traces = {}
    order = []
    line_of = {}
    for number, document in enumerate(documents, start=1):
        try:
            otlp_json.hex_ids_to_base64(document)
        except ValueError as error:
            fail(str(error))
        request = ExportTraceServiceRequest()
        try:
            json_format.ParseDict(document, request, ignore_unknown_fields=False)
        except json_format.ParseError as error:
            fail("line %d: not an ExportTraceServiceRequest: %s" % (number, error) if lines else "not an ExportTraceServiceRequest: %s" % error)
        for resource in request.resource_spans:
            for scope in resource.scope_spans:
                for span in scope.spans:
                    if span.trace_id not in traces:
                        traces[span.trace_id] = []
                        order.append(span.trace_id)
                        line_of[span.trace_id] = number
                    elif line_of[span.trace_id] != number:
                        fail("trace %s is split between lines %d and %d" % (span.trace_id.hex(), line_of[span.trace_id], number))
                    traces[span.trace_id].append(span)
    listing = []
    total = 0
    for trace_id in order:
        spans = traces[trace_id]
        total += len(spans)
        index = {span.span_id: position for position, span in enumerate(spans)}
        if len(index) != len(spans):
            fail("trace %s repeats a span id" % trace_id.hex())
        roots = [span for span in spans if not span.parent_span_id]
        # Command spans under a span of the app's: their parent is named, and is not one of the export's.
        under_app = [span for span in spans if span.parent_span_id and span.parent_span_id not in index]
        if not (len(roots) == 1 and not under_app) and not (not roots and under_app):
            fail("trace %s has %d root spans and %d spans under a span outside it" % (trace_id.hex(), len(roots), len(under_app)))
        start = min(span.start_time_unix_nano for span in roots + under_app)
        rows = []
        for span in spans:
            parent = -1
            if span.parent_span_id and span.parent_span_id not in index:
                if len(span.parent_span_id) != 8 or not any(span.parent_span_id):
                    fail("span %s of trace %s names a parent that is not a valid span id" % (span.span_id.hex(), trace_id.hex()))
            elif span.parent_span_id:
                parent = index[span.parent_span_id]
                outer = spans[parent]
                if not any_times and not (outer.start_time_unix_nano <= span.start_time_unix_nano and span.end_time_unix_nano <= outer.end_time_unix_nano):
                    fail("span %r is not inside its parent %r" % (span.name, outer.name))
            if span.end_time_unix_nano < span.start_time_unix_nano:
                fail("span %r ends before it starts" % span.name)
            if span.status.code == 2 and not span.status.message:
                fail("span %r has status ERROR without a message" % span.name)
            attributes = {}
            for attribute in span.attributes:
                kind = attribute.value.WhichOneof("value")
                attributes[attribute.key] = getattr(attribute.value, kind)
            rows.append([span.name, parent, span.start_time_unix_nano - start,
                         span.end_time_unix_nano - span.start_time_unix_nano, span.status.code, attributes])
        listing.append(rows)
    print(json.dumps({"traces": len(order), "spans": total, "list": listing}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
