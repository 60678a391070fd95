"""Reading OTLP/JSON as a receiver does, shared by Scripts/validate-otlp.py and
Examples/OpenTelemetry/check-live-export.py (which puts this folder on its path).

OTLP/JSON writes trace and span ids in hex where protobuf's JSON mapping expects base 64: a receiver converts them
before parsing the request with protobuf.
"""

import base64

ID_SIZES = (("traceId", 16), ("spanId", 8), ("parentSpanId", 8))


def _base64_of_size(value, size):
    try:
        return len(base64.b64decode(value, validate=True)) == size
    except ValueError:
        return False


def hex_ids_to_base64(document, deviations=None):
    """Converts every span id of `document` (a parsed OTLP/JSON request) from hex to base 64, in place, and returns it.

    Raises ValueError for a span without its trace or span id, or an id that is not hex, not of its size, or all
    zero (the OTLP specification forbids each; a root span has no `parentSpanId`).
    With `deviations` (a list), an id already in base 64 — protobuf's plain JSON mapping — is kept and noted there
    instead."""
    for resource in document.get("resourceSpans", []):
        for scope in resource.get("scopeSpans", []):
            for span in scope.get("spans", []):
                for key, size in ID_SIZES:
                    value = span.get(key)
                    if value is None:
                        if key != "parentSpanId":
                            raise ValueError("a span has no %s" % key)
                        continue
                    try:
                        raw = bytes.fromhex(value)
                    except (ValueError, TypeError):
                        if deviations is not None and isinstance(value, str) and _base64_of_size(value, size):
                            deviations.append("%s %r is base 64, not hex" % (key, value))
                            continue
                        raise ValueError("%s %r is not hex" % (key, value))
                    if len(raw) != size or raw == bytes(size):
                        raise ValueError("%s %r is not %d bytes, not all zero" % (key, value, size))
                    span[key] = base64.b64encode(raw).decode()
    return document
