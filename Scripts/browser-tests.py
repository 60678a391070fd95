#!/usr/bin/env python3
"""Opens `chaintrace report` pages in headless Chromium over WebDriver and checks what a user does with them.

Usage: Scripts/browser-tests.py --chaintrace PATH [--out DIR] [--log LOG]…

It writes trace logs with the built `chaintrace` (the four samples' chains and streams, a generated log of
30 000 commands, a log whose names are hostile, and a second run for compare mode), writes a report of each,
opens each in Chromium (Debian's `chromium` and `chromium-driver`, driven through chromedriver's W3C WebDriver
HTTP interface — no Selenium needed) and checks:

  * the page logs no console error (a Content-Security-Policy violation is one);
  * clicking a command marks exactly its path's handlers on the diagram, greys the rest, marks the taker;
  * ← and → step through the hops, and the URL hash holds the view: opening the link restores it;
  * each filter narrows the list to matching commands only;
  * clicking a handler opens its panel with a histogram; table headers sort;
  * hostile names (markup, `</script>`, quotes, controls, bidi overrides) show as text and run nothing;
  * compare mode lists exactly the commands `chaintrace diff` finds changed, and its summary counts them as diff
    does — a sampled second run's commands in one log only apart from those compared.

Screenshots of every view are kept in DIR (default .build/browser-tests). Exit status 0 when every check
passes, 1 when one fails, 2 when Chromium or chromedriver is missing.
"""

import argparse
import base64
import json
import os
import random
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request

import chain_fixtures

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FAILURES = []


def check(condition, message):
    if condition:
        print("  ok   " + message)
    else:
        print("  FAIL " + message)
        FAILURES.append(message)


# ---------------------------------------------------------------- WebDriver


class WebDriver:
    """The few W3C WebDriver commands the checks use, over HTTP to a chromedriver this starts."""

    ELEMENT = "element-6066-11e4-a52e-4f735466cecf"

    def __init__(self, chromium, chromedriver):
        probe = socket.socket()
        probe.bind(("127.0.0.1", 0))
        self.port = probe.getsockname()[1]
        probe.close()
        self.process = subprocess.Popen(
            [chromedriver, "--port=%d" % self.port], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            start_new_session=True)
        self.base = "http://127.0.0.1:%d" % self.port
        deadline = time.time() + 30
        while True:
            try:
                if self.request("GET", "/status").get("ready"):
                    break
            except (urllib.error.URLError, ConnectionError):
                pass
            if time.time() > deadline:
                raise RuntimeError("chromedriver did not start")
            time.sleep(0.2)
        options = {
            "binary": chromium,
            "args": ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     "--window-size=1500,1100", "--allow-file-access-from-files"],
        }
        capabilities = {"capabilities": {"alwaysMatch": {
            "browserName": "chrome", "goog:chromeOptions": options, "goog:loggingPrefs": {"browser": "ALL"}}}}
        self.session = self.request("POST", "/session", capabilities)["sessionId"]

    def request(self, method, path, body=None):
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.base + path, data=data, method=method,
                                         headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(request, timeout=120) as response:
                return json.loads(response.read() or b"{}").get("value")
        except urllib.error.HTTPError as error:
            raise RuntimeError("WebDriver %s %s: %s" % (method, path, error.read().decode(errors="replace")))

    def command(self, method, path, body=None):
        return self.request(method, "/session/%s%s" % (self.session, path), body)

    def open(self, url):
        self.command("POST", "/url", {"url": "about:blank"})
        self.command("POST", "/url", {"url": url})
        deadline = time.time() + 15
        while self.run("return document.body && document.body.dataset.ready === 'true'") is not True:
            if time.time() > deadline:
                raise RuntimeError("the page never became ready: %s; console: %s" % (url, self.console_errors()[:5]))
            time.sleep(0.05)

    def run(self, script, *arguments):
        return self.command("POST", "/execute/sync", {"script": script, "args": list(arguments)})

    def find(self, selector):
        found = self.command("POST", "/element", {"using": "css selector", "value": selector})
        return found[self.ELEMENT]

    def find_all(self, selector):
        return [item[self.ELEMENT] for item in
                self.command("POST", "/elements", {"using": "css selector", "value": selector})]

    def click(self, selector):
        element = self.find(selector)
        self.run("arguments[0].scrollIntoView({block: 'center'})", {self.ELEMENT: element})
        self.command("POST", "/element/%s/click" % element, {})

    def type(self, selector, text):
        self.command("POST", "/element/%s/value" % self.find(selector), {"text": text})

    def key(self, key):
        self.command("POST", "/actions", {"actions": [{"type": "key", "id": "keyboard", "actions": [
            {"type": "keyDown", "value": key}, {"type": "keyUp", "value": key}]}]})

    def console_errors(self):
        entries = self.command("POST", "/se/log", {"type": "browser"}) or []
        return [entry["message"] for entry in entries if entry.get("level") == "SEVERE"]

    def media(self, features=None, media=""):
        self.command("POST", "/goog/cdp/execute", {"cmd": "Emulation.setEmulatedMedia", "params": {
            "media": media, "features": features or []}})

    def screenshot(self, path):
        with open(path, "wb") as file:
            file.write(base64.b64decode(self.command("GET", "/screenshot")))

    def close(self):
        try:
            self.request("DELETE", "/session/" + self.session)
        finally:
            # chromedriver and any browser left behind share the session this started.
            for sig in (signal.SIGTERM, signal.SIGKILL):
                try:
                    os.killpg(self.process.pid, sig)
                    self.process.wait(timeout=10)
                    break
                except (ProcessLookupError, subprocess.TimeoutExpired):
                    continue


ARROW_RIGHT = "\ue014"
ARROW_LEFT = "\ue012"

# ---------------------------------------------------------------- fixtures


def run(arguments, allowed=(0,)):
    result = subprocess.run(arguments, cwd=ROOT, capture_output=True, text=True)
    if result.returncode not in allowed:
        raise RuntimeError("%s exited %d: %s" % (" ".join(arguments), result.returncode, result.stderr))
    return result


def replay(chaintrace, definition, stream, log):
    run([chaintrace, "replay", definition, stream, "--trace-out", log], allowed=(0, 1))
    return log


def generated_chain(directory, seed, handlers=12, commands=30_000, drift=False):
    """A chain of `handlers` validators taking kinds K0…, some failing, and a stream of mixed commands."""
    rng = random.Random(seed)
    def accepts(index):
        if drift and index == 3:
            return {"any": [{"kind": "K3"}, {"kind": "K4"}]}
        return {"kind": "K%d" % index}
    definition = chain_fixtures.validator_chain(
        "generated", ["Validator%02d" % index for index in range(handlers)], accepts=accepts,
        failing=chain_fixtures.too_large(4, 1, 900, "too large for "), work={5: "40us"})
    path = chain_fixtures.write_json(
        os.path.join(directory, "generated%s.chain.json" % ("-drift" if drift else "")), definition)
    # Named apart from the trace logs replayed from it: chaintrace refuses to write a log over its own input.
    stream = os.path.join(directory, "generated.commands.jsonl")
    if not os.path.exists(stream):
        with open(stream, "w") as file:
            for number in range(commands):
                kind = "K%d" % rng.randrange(handlers + 2)
                file.write(json.dumps({"kind": kind, "id": "cmd-%05d" % number, "size": rng.randrange(1000)}) + "\n")
    return path, stream


HOSTILE = [
    "<img src=x onerror=\"window.__pwned=1\">",
    "</script><script>window.__pwned=2</script>",
    "\"]}'; window.__pwned=3; //",
    "Tab\there\u001b[31mred\u0007",
    "\u202eevil\u202c RTL",
    "<svg onload=window.__pwned=4>",
]


def hostile_chain(directory):
    definition = chain_fixtures.validator_chain(
        "<b>hostile</b> </script>", HOSTILE, accepts=lambda index: {"kind": "K%d" % index},
        failing=lambda index, name: {"when": {"kind": "F%d" % index}, "error": "<img src=y onerror=window.__pwned=5>"})
    path = chain_fixtures.write_json(os.path.join(directory, "hostile.chain.json"), definition)
    stream = os.path.join(directory, "hostile.commands.jsonl")
    with open(stream, "w") as file:
        for number in range(40):
            kind = random.Random(number).choice(["K0", "K2", "K4", "K5", "F1", "F3", "none"])
            file.write(json.dumps({"kind": kind, "id": "<i>id</i>\u202e%d" % number}) + "\n")
    return path, stream


def report(chaintrace, log, html, *extra):
    run([chaintrace, "report", log, "-o", html] + list(extra))
    return html


# ---------------------------------------------------------------- checks


def page_data(driver):
    return driver.run("return JSON.parse(document.getElementById('chaintrace-data').textContent)")


def marked(driver, cls):
    return set(driver.run(
        "return [...document.querySelectorAll('#diagram g.node.' + arguments[0])].map(g => Number(g.dataset.handler))", cls))


def check_loads(driver, name, url, shots):
    driver.open(url)
    errors = driver.console_errors()
    check(not errors, "%s: no console errors %s" % (name, errors[:3] if errors else ""))
    driver.screenshot(os.path.join(shots, name + "-overview.png"))


def check_command_path(driver, name, shots):
    data = page_data(driver)
    nodes = set(driver.run("return [...document.querySelectorAll('#diagram g.node[data-handler]')].map(g => Number(g.dataset.handler))"))
    traces = data["traces"]
    # A failure if there is one, else the longest path: the most to check.
    pick = next((i for i, t in enumerate(traces) if t["o"] == "failed"), None)
    if pick is None:
        pick = max(range(len(traces)), key=lambda i: len(traces[i]["hops"]))
    trace = traces[pick]
    driver.run("document.querySelector('#filter-id').value = arguments[0]; document.querySelector('#filter-id').dispatchEvent(new Event('input'))", str(trace["n"]))
    driver.click('#command-list .row[data-index="%d"]' % pick)
    path = {hop[0] for hop in trace["hops"]}
    check(marked(driver, "on-path") == path & nodes,
          "%s: command #%d marks exactly its path's handlers (%d of %d nodes)" % (name, trace["n"], len(path & nodes), len(nodes)))
    check(marked(driver, "unvisited") == nodes - path, "%s: every other handler is greyed" % name)
    if trace.get("by") is not None and trace["by"] in nodes:
        cls = "failing" if trace["o"] == "failed" else "taker"
        check(marked(driver, cls) == {trace["by"]}, "%s: the %s is marked" % (name, "failing handler" if cls == "failing" else "taker"))
    badges = driver.run("return document.querySelectorAll('#diagram .badges > g').length")
    check(badges == len(path & nodes), "%s: one numbered badge per visited handler" % name)
    check(driver.run("return document.querySelectorAll('#waterfall .hop').length") == len(trace["hops"]),
          "%s: the waterfall has one row per hop" % name)
    if trace["o"] == "failed":
        errors = driver.run("return [...document.querySelectorAll('#waterfall .error')].map(e => e.textContent)")
        check(any("error: " in text for text in errors), "%s: the failed hop shows its error" % name)
    driver.run("document.getElementById('centre').scrollIntoView()")
    driver.screenshot(os.path.join(shots, name + "-command.png"))
    # Time travel: → → moves to the second hop, ← back to the first; the hash follows.
    steps = min(2, len(trace["hops"]))
    for _ in range(steps):
        driver.key(ARROW_RIGHT)
    current = driver.run("return [...document.querySelectorAll('#waterfall .hop')].findIndex(h => h.classList.contains('current'))")
    check(current == steps - 1, "%s: → steps through the hops (at hop %d)" % (name, current + 1))
    hash_now = driver.run("return location.hash")
    check(hash_now == "#command=%d&hop=%d" % (trace["n"], steps), "%s: the hash holds the view (%s)" % (name, hash_now))
    current_node = marked(driver, "current")
    expected = {trace["hops"][steps - 1][0]} & nodes
    check(current_node == expected, "%s: the current hop's handler is marked on the diagram" % name)
    driver.run("document.getElementById('centre').scrollIntoView()")
    driver.screenshot(os.path.join(shots, name + "-time-travel.png"))
    # The link restores the same view in a fresh page.
    url = driver.run("return location.href")
    driver.open(url)
    restored = driver.run("return [document.querySelector('#panel h3').textContent, [...document.querySelectorAll('#waterfall .hop')].findIndex(h => h.classList.contains('current'))]")
    check(restored[0].startswith("Command #%d" % trace["n"]) and restored[1] == steps - 1,
          "%s: opening the link restores command #%d at hop %d (%s)" % (name, trace["n"], steps, restored))
    check(marked(driver, "on-path") == path & nodes, "%s: the restored view overlays the same path" % name)
    if steps > 1:
        driver.key(ARROW_LEFT)
        check(driver.run("return location.hash") == "#command=%d&hop=%d" % (trace["n"], steps - 1), "%s: ← steps back" % name)


def check_filters(driver, name, shots):
    data = page_data(driver)
    traces = data["traces"]
    driver.run("location.hash = ''")
    driver.open(driver.run("return location.href.split('#')[0]"))

    def listed():
        return driver.run("return document.getElementById('list-count').textContent")

    def visible_rows():
        return driver.run("return [...document.querySelectorAll('#command-list .row')].map(r => traces_index(r))".replace(
            "traces_index(r)", "Number(r.dataset.index)"))

    total = listed()
    check(total.startswith("%s of" % format(len(traces), ",")), "%s: the list starts with every listed command (%s)" % (name, total))
    kinds = sorted({t["kind"] for t in traces})
    outcomes = sorted({t["o"] for t in traces})
    if len(outcomes) > 1:
        outcome = outcomes[0]
        driver.click('#filter-outcome option[value="%s"]' % outcome)
        expected = [i for i, t in enumerate(traces) if t["o"] == outcome]
        check(listed().startswith(format(len(expected), ",") + " of"), "%s: outcome '%s' leaves %d commands" % (name, outcome, len(expected)))
        rows = visible_rows()
        check(rows and all(traces[i]["o"] == outcome for i in rows), "%s: every row shown is %s" % (name, outcome))
        driver.click('#filter-outcome option[value=""]')
    if len(kinds) > 1:
        kind = kinds[-1]
        driver.run("const s = document.getElementById('filter-kind'); s.value = arguments[0]; s.dispatchEvent(new Event('change'))", kind)
        expected = [i for i, t in enumerate(traces) if t["kind"] == kind]
        check(listed().startswith(format(len(expected), ",") + " of"), "%s: kind filter leaves %d commands" % (name, len(expected)))
        check(all(traces[i]["kind"] == kind for i in visible_rows()), "%s: every row shown is of that kind" % name)
        driver.run("const s = document.getElementById('filter-kind'); s.value = ''; s.dispatchEvent(new Event('change'))")
    visited = data["traces"][0]["hops"][-1][0] if traces and traces[0]["hops"] else None
    if visited is not None:
        driver.run("const s = document.getElementById('filter-visited'); s.value = String(arguments[0]); s.dispatchEvent(new Event('change'))", visited)
        expected = [i for i, t in enumerate(traces) if any(hop[0] == visited for hop in t["hops"])]
        check(listed().startswith(format(len(expected), ",") + " of"), "%s: visited filter leaves %d commands" % (name, len(expected)))
        driver.run("document.getElementById('commands-title').scrollIntoView()")
        driver.screenshot(os.path.join(shots, name + "-filtered.png"))
        driver.run("const s = document.getElementById('filter-visited'); s.value = ''; s.dispatchEvent(new Event('change'))")
    takers = sorted({t["by"] for t in traces if t["o"] == "accepted"})
    if takers:
        taker = takers[0]
        driver.run("const s = document.getElementById('filter-taker'); s.value = String(arguments[0]); s.dispatchEvent(new Event('change'))", taker)
        expected = [i for i, t in enumerate(traces) if t["o"] == "accepted" and t["by"] == taker]
        check(listed().startswith(format(len(expected), ",") + " of"), "%s: accepted-by filter leaves %d commands" % (name, len(expected)))
        check(all(traces[i]["by"] == taker and traces[i]["o"] == "accepted" for i in visible_rows()), "%s: every row shown was accepted there" % name)
        driver.run("const s = document.getElementById('filter-taker'); s.value = ''; s.dispatchEvent(new Event('change'))")
    with_id = next((t for t in traces if t.get("id")), None)
    if with_id:
        driver.type("#filter-id", with_id["id"])
        rows = visible_rows()
        check(rows and all(with_id["id"].lower() in (traces[i].get("id") or "").lower() or str(traces[i]["n"]) == with_id["id"] for i in rows),
              "%s: the id filter finds %s" % (name, with_id["id"]))
        driver.run("const s = document.getElementById('filter-id'); s.value = ''; s.dispatchEvent(new Event('input'))")
    slow = [i for i, t in enumerate(traces) if t["slow"]]
    driver.click("#filter-slow")
    check(listed().startswith(format(len(slow), ",") + " of"), "%s: slow only leaves %d commands" % (name, len(slow)))
    driver.click("#filter-slow")


def check_handler_panel(driver, name, shots):
    data = page_data(driver)
    reached = [h for h in data["handlers"] if h["seen"] > 0]
    nodes = set(driver.run("return [...document.querySelectorAll('#diagram g.node[data-handler]')].map(g => Number(g.dataset.handler))"))
    target = max((h for h in reached if h["h"] in nodes), key=lambda h: h["self"][5], default=None)
    if target is None:
        check(False, "%s: a reached handler is drawn" % name)
        return
    # Keyboard first: focus the node and press Enter, as someone without a mouse would.
    driver.run("document.querySelector('#diagram g.node[data-handler=\"' + arguments[0] + '\"]').focus()", str(target["h"]))
    driver.key("\ue007")
    check(driver.run("return document.querySelector('#panel h3') && document.querySelector('#panel svg.histogram') !== null") is True,
          "%s: Enter on a focused handler opens its panel" % name)
    driver.key("\ue00c")
    check(driver.run("return document.querySelector('#panel svg.histogram')") is None, "%s: Esc closes it" % name)
    driver.click('#diagram g.node[data-handler="%d"]' % target["h"])
    title = driver.run("return document.querySelector('#panel h3').textContent")
    bars = driver.run("return document.querySelectorAll('#panel svg.histogram rect.bar').length")
    check(bars == len(target["bars"]) and bars > 0, "%s: the handler panel draws its self-time histogram (%d bars)" % (name, bars))
    heights = driver.run("return [...document.querySelectorAll('#panel svg.histogram rect.bar')].map(r => Number(r.getAttribute('height')))")
    counts = [bar[2] for bar in target["bars"]]
    most = max(counts)
    check(all(abs(h - 86 * c / most) < 0.01 for h, c in zip(heights, counts)), "%s: bar heights follow the counts" % name)
    check(sum(counts) == target["seen"], "%s: the histogram counts every hop (%d)" % (name, sum(counts)))
    if target.get("limit"):
        check(driver.run("return document.querySelectorAll('#panel svg.histogram line.limit').length") == 1,
              "%s: the slow threshold is marked" % name)
    check(marked(driver, "chosen") == {target["h"]}, "%s: the handler is marked on the diagram" % name)
    check(title == data["names"][target["h"]] or "\\u{" in title, "%s: the panel names %s" % (name, title))
    driver.run("document.getElementById('centre').scrollIntoView()")
    driver.screenshot(os.path.join(shots, name + "-handler.png"))
    # Unsorted, each registry's members come right after it (members of other registries may sit between, when
    # registries nest), indented, each saying which registry it is in.
    rows = driver.run("return [...document.querySelectorAll('#handlers tbody tr')].map(r => [Number(r.dataset.handler), r.cells[0].textContent])")
    by_number = {h["h"]: h for h in data["handlers"]}
    for index, (number, text) in enumerate(rows):
        registry = by_number[number].get("registry")
        if registry is None:
            continue
        check(text.endswith(" in " + registry) or not registry.isprintable(), "%s: member %s says it is in %s (%r)" % (name, data["names"][number], registry, text))
        above = index - 1
        while above >= 0 and by_number[rows[above][0]].get("registry") is not None and data["names"][rows[above][0]] != registry:
            above -= 1
        check(above >= 0 and data["names"][rows[above][0]] == registry,
              "%s: member %s comes after its registry %s" % (name, data["names"][number], registry))
    # Sorting: descending by self p95, then ascending.
    driver.click("#handlers th:nth-child(8) button")
    order = driver.run("return [...document.querySelectorAll('#handlers tbody tr')].map(r => Number(r.dataset.handler))")
    by_handler = {h["h"]: h for h in data["handlers"]}
    values = [by_handler[h]["self"][1] for h in order]
    check(values == sorted(values, reverse=True), "%s: the handler table sorts by self p95, descending" % name)
    driver.click("#handlers th:nth-child(8) button")
    order = driver.run("return [...document.querySelectorAll('#handlers tbody tr')].map(r => Number(r.dataset.handler))")
    values = [by_handler[h]["self"][1] for h in order]
    check(values == sorted(values), "%s: and ascending on a second click" % name)


def check_hostile(driver, url, shots):
    driver.open(url)
    check(driver.run("return window.__pwned") is None, "hostile: no name ran script on load")
    errors = driver.console_errors()
    check(not errors, "hostile: no console errors (no blocked script either) %s" % errors[:2])
    data = page_data(driver)
    table = driver.run("return document.getElementById('handlers').textContent")
    for name in HOSTILE:
        shown = "".join("\\u{%X}" % ord(c) if (ord(c) < 0x20 and c not in "\n\t") or 0x7f <= ord(c) < 0xa0 or 0x202a <= ord(c) <= 0x202e else ("\\t" if c == "\t" else c) for c in name)
        if name in data["names"]:
            check(shown in table, "hostile: %r shows as text in the table" % name[:24])
    driver.click("#command-list .row")
    for h in data["handlers"][:3]:
        driver.click('#handlers tbody tr[data-handler="%d"]' % h["h"])
    driver.key(ARROW_RIGHT)
    check(driver.run("return window.__pwned") is None, "hostile: nothing ran after clicking through names")
    check(driver.run("return document.querySelectorAll('img, iframe, object, embed').length") == 0,
          "hostile: no element came from a name")
    check(driver.run("return document.scripts.length") == 2, "hostile: the page has only its own two script elements")
    driver.screenshot(os.path.join(shots, "hostile.png"))


def check_many_files(driver, url, names):
    """A log of many files (a shell's logs/*.jsonl) is named by its first two, how many more and its last."""
    driver.open(url)
    check(not driver.console_errors(), "many files: no console errors")
    header = driver.run("return document.getElementById('source').textContent")
    expected = "%d files: %s, %s, … (%d more), %s" % (len(names), names[0], names[1], len(names) - 3, names[-1])
    check(header == expected, "many files: the header names the first two, how many more and the last (%r)" % header)
    check(driver.run("return document.getElementById('source').title").split("\n") == names,
          "many files: the tooltip names every file")


def check_compare(chaintrace, driver, url, before, after, shots, screenshot="compare.png"):
    diff = json.loads(run([chaintrace, "diff", before, after, "--format", "json", "--divergences", "100000"], allowed=(0, 1)).stdout)
    driver.open(url)
    check(not driver.console_errors(), "compare: no console errors")
    rows = driver.run("return [...document.querySelectorAll('#divergences .row[data-divergence]')].map(r => r.children[1].textContent)")
    expected = [d["command"] + " (" + d["commandKind"] + ")" for d in diff["divergences"]]
    check(rows == expected, "compare: lists exactly the %d commands diff finds changed (%d listed)" % (len(expected), len(rows)))
    # The summary counts the commands in both logs apart from those in one only, as diff does.
    summary = driver.run("return document.getElementById('compare-summary').textContent")
    alone = diff["inOneRunOnly"]
    changed = diff["total"] - alone["missing"] - alone["unexpected"]
    expected_summary = "%s of %s commands in both logs changed path, taker or outcome" % (
        "{:,}".format(changed), "{:,}".format(diff["compared"]))
    if alone["missing"] + alone["unexpected"] > 0:
        expected_summary += "; %s only in the first, %s only in the second" % (
            "{:,}".format(alone["missing"]), "{:,}".format(alone["unexpected"]))
    check(expected_summary in summary, "compare: the summary counts as diff does (%r)" % summary)
    check(driver.run("return document.querySelectorAll('#diff-diagram svg g.node').length") > 0, "compare: the diff diagram is drawn")
    if rows:
        driver.click('#divergences .row[data-divergence="0"]')
        columns = driver.run("return [...document.querySelectorAll('#side-by-side .side-by-side > div')].map(c => c.querySelectorAll('li').length)")
        first = diff["divergences"][0]
        check(columns == [len((first.get("expected") or {}).get("path", [])), len((first.get("actual") or {}).get("path", []))],
              "compare: the first change opens both paths side by side %s" % columns)
        check("change=1" in driver.run("return location.hash"), "compare: the hash holds the change")
        driver.run("document.getElementById('compare-section').scrollIntoView()")
        driver.screenshot(os.path.join(shots, screenshot))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--chaintrace", required=True)
    parser.add_argument("--out", default=os.path.join(ROOT, ".build", "browser-tests"))
    parser.add_argument("--log", action="append", default=[],
                        help="also report this log (a file or directory; repeatable) and run every check on its page")
    arguments = parser.parse_args()
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    chromedriver = shutil.which("chromedriver")
    if not chromium or not chromedriver:
        print("browser-tests: chromium and chromedriver are needed (apt-get install chromium chromium-driver)", file=sys.stderr)
        return 2
    chaintrace = os.path.abspath(arguments.chaintrace)
    out = os.path.abspath(arguments.out)
    shutil.rmtree(out, ignore_errors=True)
    logs = os.path.join(out, "logs")
    shots = os.path.join(out, "screenshots")
    os.makedirs(logs)
    os.makedirs(shots)

    samples = [
        ("vending-machine", "Samples/VendingMachine/vending-machine.chain.json", "Samples/VendingMachine/coins.jsonl"),
        ("sign-up", "Samples/SignUpFlow/sign-up.chain.json", "Samples/SignUpFlow/signups.jsonl"),
        ("late-responders", "Samples/LateResponders/late-responders.chain.json", "Samples/LateResponders/late-responders.commands.jsonl"),
        ("responder-chain", "Samples/ResponderChain/app-a.chain.json", "Samples/ResponderChain/commands.jsonl"),
    ]
    pages = []
    for name, definition, stream in samples:
        log = replay(chaintrace, definition, stream, os.path.join(logs, name + ".jsonl"))
        pages.append((name, report(chaintrace, log, os.path.join(out, name + ".html"), "--definition", definition)))
    definition, stream = generated_chain(logs, seed=7)
    generated = replay(chaintrace, definition, stream, os.path.join(logs, "generated.jsonl"))
    pages.append(("generated", report(chaintrace, generated, os.path.join(out, "generated.html"), "--definition", definition)))
    drift_definition, _ = generated_chain(logs, seed=7, drift=True)
    drifted = replay(chaintrace, drift_definition, stream, os.path.join(logs, "generated-drift.jsonl"))
    compare_page = report(chaintrace, generated, os.path.join(out, "compare.html"), "--compare", drifted)
    # A second run that traced one command in three, as a recorder sampling in production does: most commands are
    # in one log only.
    sampled_stream = os.path.join(logs, "generated-sampled.commands.jsonl")
    with open(stream) as source, open(sampled_stream, "w") as sampled:
        sampled.writelines(line for number, line in enumerate(source) if number % 3 == 0)
    sampled_log = replay(chaintrace, drift_definition, sampled_stream, os.path.join(logs, "generated-sampled.jsonl"))
    sampled_page = report(chaintrace, generated, os.path.join(out, "compare-sampled.html"), "--compare", sampled_log)
    for index, extra in enumerate(arguments.log):
        pages.append(("log-%d" % (index + 1), report(chaintrace, os.path.abspath(extra), os.path.join(out, "log-%d.html" % (index + 1)))))
    many = []
    for index in range(7):
        many.append(os.path.join(logs, "part-%d.jsonl" % (index + 1)))
        shutil.copyfile(generated, many[-1])
    many_page = os.path.join(out, "many.html")
    run([chaintrace, "report"] + many + ["-o", many_page])
    hostile_definition, hostile_stream = hostile_chain(logs)
    hostile_log = replay(chaintrace, hostile_definition, hostile_stream, os.path.join(logs, "hostile.jsonl"))
    hostile_page = report(chaintrace, hostile_log, os.path.join(out, "hostile.html"), "--definition", hostile_definition)

    driver = WebDriver(chromium, chromedriver)
    try:
        for name, page in pages:
            print(name)
            url = "file://" + page
            check_loads(driver, name, url, shots)
            check_command_path(driver, name, shots)
            check_filters(driver, name, shots)
            check_handler_panel(driver, name, shots)
        print("hostile names")
        check_hostile(driver, "file://" + hostile_page, shots)
        print("many files")
        check_many_files(driver, "file://" + many_page, many)
        print("compare")
        check_compare(chaintrace, driver, "file://" + compare_page, generated, drifted, shots)
        print("compare, sampled")
        check_compare(chaintrace, driver, "file://" + sampled_page, generated, sampled_log, shots, "compare-sampled.png")
        print("dark and print")
        driver.media(features=[{"name": "prefers-color-scheme", "value": "dark"}])
        driver.open("file://" + pages[0][1] + "#command=5")
        check(not driver.console_errors(), "dark: no console errors")
        driver.screenshot(os.path.join(shots, "dark.png"))
        driver.media(media="print")
        driver.open("file://" + pages[0][1])
        hidden = driver.run("return getComputedStyle(document.getElementById('filters')).display")
        check(hidden == "none", "print: the controls are left out")
        driver.screenshot(os.path.join(shots, "print.png"))
        driver.media()
    finally:
        driver.close()
    print("screenshots: " + shots)
    if FAILURES:
        print("%d browser checks failed" % len(FAILURES), file=sys.stderr)
        return 1
    print("all browser checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
