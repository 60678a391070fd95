"""Generated chain definitions the test and benchmark scripts replay into trace logs.

Imported by Scripts/at-scale.py, Scripts/browser-tests.py and Benchmarks/report-benchmark.py (which puts this
folder on its path).
"""

import json


def validator_chain(chain, names, accepts, failing=None, work=None):
    """A chain definition of `names` in order, each linked to the next: handler `i` accepts `accepts(i)`, fails
    with `failing(i, name)` (a `fails` object, or None) and spends `work[i]` when it has one."""
    definition = {"chain": chain, "handlers": []}
    for index, name in enumerate(names):
        handler = {"name": name, "accepts": accepts(index)}
        failure = failing(index, name) if failing else None
        if failure:
            handler["fails"] = failure
        if work and index in work:
            handler["work"] = work[index]
        if index + 1 < len(names):
            handler["next"] = names[index + 1]
        definition["handlers"].append(handler)
    return definition


def too_large(every, offset, minimum, message):
    """A `failing` for `validator_chain`: every `every`th handler from `offset` fails on a size of `minimum` or more,
    with `message` and the handler's name as its error."""
    def failing(index, name):
        if index % every != offset:
            return None
        return {"when": {"field": "size", "min": minimum}, "error": message + name}
    return failing


def write_json(path, value):
    """Writes `value` as JSON to `path` and returns the path."""
    with open(path, "w") as file:
        json.dump(value, file)
    return path
