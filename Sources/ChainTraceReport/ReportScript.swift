import ChainTrace

/// The report page's script: no framework, no network. It reads the page's JSON data block, never writes
/// markup from data (every name is set as text, with active characters escaped), and keeps the selection in the
/// URL's hash. Inline in the page, allowed by its hash in the Content-Security-Policy.
enum ReportScript {
    static let javaScript = #"""
        "use strict";
        (function () {
          const data = JSON.parse(document.getElementById("chaintrace-data").textContent);
          const names = data.names;
          const handlers = data.handlers;
          const traces = data.traces;
          const byNumber = new Map(traces.map((t, i) => [t.n, i]));
          const statisticsOf = new Map(handlers.map((h) => [h.h, h]));
          const state = { command: -1, hop: -1, handler: -1, divergence: -1 };
          const ROW = 26;

          // ---------- text ----------
          // Characters that act instead of showing become visible escapes, as the CLI's tables show them.
          function shown(text) {
            return String(text).replace(/[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\ufeff]/g, (c) => {
              if (c === "\n") return "\\n";
              if (c === "\t") return "\\t";
              return "\\u{" + c.codePointAt(0).toString(16).toUpperCase() + "}";
            });
          }
          function el(tag, attributes, ...children) {
            const node = document.createElement(tag);
            for (const [key, value] of Object.entries(attributes || {})) {
              if (key === "class") node.className = value;
              else if (key === "text") node.textContent = value;
              else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
              else node.setAttribute(key, value);
            }
            for (const child of children) if (child != null) node.append(child);
            return node;
          }
          function svgEl(tag, attributes) {
            const node = document.createElementNS("http://www.w3.org/2000/svg", tag);
            for (const [key, value] of Object.entries(attributes || {})) node.setAttribute(key, value);
            return node;
          }
          // An empty name (a traceHop may be given one) reads as such, as in the diagrams, rather than as nothing.
          const nameOf = (h) => names[h] === "" ? "\#(HandlerNameText.of(""))" : shown(names[h]);
          function nameSpan(h) { return el("span", { class: "name", text: nameOf(h) }); }
          function duration(ns) {
            if (ns < 1000) return ns + " ns";
            if (ns < 1e6) return (ns / 1e3).toPrecision(3) + " µs";
            if (ns < 1e9) return (ns / 1e6).toPrecision(3) + " ms";
            return (ns / 1e9).toPrecision(3) + " s";
          }
          const decisionWord = { a: "accepted", p: "passed", c: "continued", f: "failed" };
          const count = (n) => Number(n).toLocaleString("en-US");

          // ---------- overview ----------
          function overview() {
            document.getElementById("title").textContent = "ChainTrace report — " + shown(data.title || data.chains.join(", "));
            // Many files (a shell's logs/*.jsonl) as the first two, how many more and the last; all of them in the tooltip.
            const names = data.files.map(shown);
            const files = names.length <= 4 ? names.join(", ") : [names[0], names[1], "… (" + count(names.length - 3) + " more)", names[names.length - 1]].join(", ");
            const source = document.getElementById("source");
            source.textContent = data.files.length === 1 ? files : data.files.length + " files: " + files;
            source.title = names.join("\n");
            const box = document.getElementById("overview");
            const figure = (value, label, cls) => el("div", {}, el("div", { class: "figure " + (cls || ""), text: value }), el("div", { class: "muted", text: label }));
            box.append(
              figure(count(data.commands), "commands"),
              figure(count(data.accepted), "accepted", "accepted"),
              figure(count(data.fellOffTheEnd), "fell off the end", "fell"),
              figure(count(data.failed), "failed", "failed"),
              figure(duration(data.commandTime[0]) + " · " + duration(data.commandTime[1]) + " · " + duration(data.commandTime[2]), "command time p50 · p95 · p99"));
            const slow = el("div", { id: "slow-summary" });
            slow.append(el("div", { text: shown(data.rule) + "." }));
            if (data.flags.length === 0) {
              slow.append(el("div", { class: "muted", text: "No slow handlers." }));
            } else {
              const list = el("ul");
              for (const flag of data.flags) {
                list.append(el("li", {}, el("span", { class: "slow name", text: shown(flag.handler) }), ": " + flag.reasons.map(shown).join("; ")));
              }
              slow.append(el("div", { class: "slow", text: "Slow handlers:" }), list);
            }
            box.append(slow);
            const sample = data.sample;
            const note = sample.limit === 0 ? "No commands are listed one by one (the report was written with --commands 0)."
              : sample.shown < sample.total
              ? "The list holds " + count(sample.shown) + " of " + count(sample.total) + " commands (at most " + count(sample.limit) + "): " +
                (sample.failedTotal <= Math.max(1, Math.floor(sample.limit / 2)) ? "every failure" : "a uniform " + count(Math.max(1, Math.floor(sample.limit / 2))) + " of the " + count(sample.failedTotal) + " failures") +
                ", the slowest, then a uniform sample of the rest. Every number above covers all of them."
              : "The list holds all " + count(sample.total) + " commands.";
            box.append(el("div", { id: "sample-note", class: "muted", text: note }));
            for (const line of data.notes) box.append(el("div", { class: "failed", text: shown(line) }));
          }

          // ---------- diagram ----------
          const diagram = document.querySelector("#diagram svg");
          const nodeOf = new Map();   // handler number → <g class="node">
          const edgeOf = new Map();   // "from>to" → <g class="edge">
          function indexDiagram() {
            if (!diagram) return;
            for (const g of diagram.querySelectorAll("g.node")) {
              const title = g.querySelector("title");
              const match = title && /^h(\d+)$/.exec(title.textContent);
              if (!match) continue;
              const h = Number(match[1]);
              if (h >= data.diagramNodes) continue;
              nodeOf.set(h, g);
              g.setAttribute("tabindex", "0");
              g.setAttribute("role", "button");
              g.setAttribute("aria-label", "handler " + nameOf(h));
              g.dataset.handler = String(h);
              g.addEventListener("click", () => selectHandler(h));
              g.addEventListener("keydown", (event) => { if (event.key === "Enter" || event.key === " ") { event.preventDefault(); selectHandler(h); } });
            }
            for (const g of diagram.querySelectorAll("g.edge")) {
              const title = g.querySelector("title");
              const match = title && /^(h\d+|entry)->(h\d+)$/.exec(title.textContent);
              if (match) edgeOf.set(match[1] + ">" + match[2], g);
            }
          }
          let badges = null;
          function clearOverlay() {
            if (!diagram) return;
            for (const g of diagram.querySelectorAll("g.node, g.edge")) g.classList.remove("on-path", "unvisited", "taker", "failing", "current", "chosen");
            if (badges) { badges.remove(); badges = null; }
          }
          function overlay(trace) {
            clearOverlay();
            if (!diagram) return;
            if (!trace) {
              if (state.handler >= 0 && nodeOf.has(state.handler)) nodeOf.get(state.handler).classList.add("chosen");
              return;
            }
            const visited = new Map();
            trace.hops.forEach((hop, i) => { if (!visited.has(hop[0])) visited.set(hop[0], []); visited.get(hop[0]).push(i + 1); });
            for (const [h, g] of nodeOf) g.classList.add(visited.has(h) ? "on-path" : "unvisited");
            for (const g of diagram.querySelectorAll("g.edge")) g.classList.add("unvisited");
            const steps = ["entry"].concat(trace.hops.map((hop) => "h" + hop[0]));
            for (let i = 1; i < steps.length; i++) {
              const edge = edgeOf.get(steps[i - 1] + ">" + steps[i]);
              if (edge) { edge.classList.remove("unvisited"); edge.classList.add("on-path"); }
            }
            if (trace.by != null && nodeOf.has(trace.by)) nodeOf.get(trace.by).classList.add(trace.o === "failed" ? "failing" : "taker");
            if (state.hop >= 0 && trace.hops[state.hop] && nodeOf.has(trace.hops[state.hop][0])) nodeOf.get(trace.hops[state.hop][0]).classList.add("current");
            badges = svgEl("g", { class: "badges" });
            for (const [h, numbers] of visited) {
              const node = nodeOf.get(h);
              if (!node) continue;
              const box = node.getBBox();
              const label = numbers.length > 3 ? numbers.slice(0, 3).join(",") + "…" : numbers.join(",");
              const radius = Math.max(9, 4 + 3.5 * label.length);
              const cls = "badge" + (trace.by === h ? (trace.o === "failed" ? " failing" : " taker") : "");
              const badge = svgEl("g", { class: cls });
              badge.append(svgEl("circle", { cx: box.x, cy: box.y, r: radius }));
              const text = svgEl("text", { x: box.x, y: box.y });
              text.textContent = label;
              badge.append(text);
              badges.append(badge);
            }
            (diagram.querySelector("g.graph") || diagram).append(badges);
          }

          // ---------- handler panel ----------
          const panel = document.getElementById("panel");
          function showPanelHint() {
            panel.replaceChildren(el("p", { class: "hint", text: "Click a handler in the diagram or the table to see its decisions and times; pick a command below to see its path. ← → step through its hops; Esc clears." }));
          }
          function handlerPanel(h) {
            const stats = statisticsOf.get(h);
            const title = el("h3", {}, nameSpan(h));
            if (!stats) { panel.replaceChildren(title, el("p", { class: "muted", text: "No command reached this handler." })); return; }
            const parts = [title];
            if (stats.registry != null) parts.push(el("div", { class: "muted", text: "in registry " + shown(stats.registry) }));
            parts.push(el("div", { text: count(stats.seen) + " seen · " + ["accepted", "passed", "continued", "failed"].filter((k) => stats[k] > 0).map((k) => count(stats[k]) + " " + k).join(" · ") }));
            const table = el("table", { id: "handler-times" });
            table.append(el("tr", {}, el("th", { text: "" }), el("th", { text: "p50" }), el("th", { text: "p95" }), el("th", { text: "p99" })));
            table.append(el("tr", {}, el("td", { text: "self" }), ...stats.self.slice(0, 3).map((v) => el("td", { text: duration(v) }))));
            table.append(el("tr", {}, el("td", { text: "inclusive" }), ...stats.incl.map((v) => el("td", { text: duration(v) }))));
            parts.push(table);
            parts.push(el("div", { class: "muted", text: "self mean " + duration(stats.self[3]) + " · max " + duration(stats.self[4]) + " · total " + duration(stats.self[5]) + (stats.budget != null ? " · budget " + duration(stats.budget) : "") }));
            if (stats.slow) parts.push(el("div", { class: "slow", text: "Slow: " + stats.reasons.map(shown).join("; ") }));
            parts.push(histogram(stats));
            panel.replaceChildren(...parts);
          }
          function histogram(stats) {
            const bars = stats.bars;
            const width = 340, height = 130, left = 8, bottom = 30, top = 14;
            const svg = svgEl("svg", { class: "histogram", width: width, height: height, viewBox: "0 0 " + width + " " + height, role: "img" });
            svg.setAttribute("aria-label", "histogram of self times");
            if (bars.length === 0) return svg;
            const most = Math.max(...bars.map((b) => b[2]), 1);
            const step = (width - 2 * left) / bars.length;
            bars.forEach((bar, i) => {
              const h = (height - bottom - top) * bar[2] / most;
              const rect = svgEl("rect", { class: "bar", x: left + i * step + 0.5, y: height - bottom - h, width: Math.max(1, step - 1), height: h });
              const tip = svgEl("title"); tip.textContent = duration(bar[0]) + " – " + duration(bar[1]) + ": " + count(bar[2]);
              rect.append(tip);
              svg.append(rect);
            });
            const axis = (x, label, anchor) => { const t = svgEl("text", { x: x, y: height - bottom + 12, "text-anchor": anchor }); t.textContent = label; svg.append(t); };
            axis(left, duration(bars[0][0]), "start");
            axis(width - left, duration(bars[bars.length - 1][1]), "end");
            const caption = svgEl("text", { x: width / 2, y: height - 4, "text-anchor": "middle" });
            caption.textContent = "self time (log scale) · " + count(stats.seen) + " hops";
            svg.append(caption);
            if (stats.limit) {
              const ns = stats.limit.ns;
              let x = null;
              bars.forEach((bar, i) => {
                if (x === null && ns <= bar[1]) {
                  const from = Math.max(bar[0], 1), to = Math.max(bar[1], from + 1);
                  const fraction = ns <= from ? 0 : Math.log(ns / from) / Math.log(to / from);
                  x = left + (i + Math.min(1, fraction)) * step;
                }
              });
              const beyond = x === null;
              if (beyond) x = width - left;
              svg.append(svgEl("line", { class: "limit", x1: x, x2: x, y1: top - 4, y2: height - bottom }));
              const label = svgEl("text", { class: "limit", x: Math.min(x, width - 4), y: top - 6 + 8, "text-anchor": x > width / 2 ? "end" : "start" });
              label.textContent = (beyond ? "→ " : "") + "slow rule: " + shown(stats.limit.clause) + " (" + duration(ns) + ")";
              svg.append(label);
            }
            return svg;
          }

          // ---------- command panel (waterfall) ----------
          function commandPanel(trace) {
            const parts = [el("h3", { text: "Command #" + trace.n + (trace.id != null ? " · " + shown(trace.id) : "") })];
            const outcome = el("div", {}, shown(trace.kind) + " · ");
            if (trace.o === "accepted") outcome.append(el("span", { class: "accepted", text: "accepted by " }), nameSpan(trace.by));
            else if (trace.o === "failed") outcome.append(el("span", { class: "failed", text: "failed at " }), nameSpan(trace.by), el("span", { class: "failed", text: ": " + shown(trace.error) }));
            else outcome.append(el("span", { class: "fell", text: "fell off the end" }));
            outcome.append(" · " + duration(trace.d) + " · chosen: " + trace.why);
            parts.push(outcome);
            parts.push(el("div", { class: "hint" }, "bars: ", el("span", { class: "legend-swatch" }), "inclusive ", el("span", { class: "legend-swatch" }), "self · ← → step through hops"));
            const total = Math.max(1, trace.d, ...trace.hops.map((hop) => hop[4] + hop[3]));
            const list = el("div", { class: "waterfall", id: "waterfall", role: "list" });
            trace.hops.forEach((hop, i) => {
              const [h, decision, own, inclusive, start, slow, reason] = hop;
              const row = el("div", { class: "hop" + (decision === "f" ? " failed" : "") + (i === state.hop ? " current" : ""), role: "listitem", "data-hop": String(i) });
              row.addEventListener("click", () => { state.hop = i; update(); });
              const label = el("div", {}, nameSpan(h), el("span", { class: "muted", text: " " + decisionWord[decision] + " · " + duration(own) + " self / " + duration(inclusive) }));
              if (slow) label.append(el("span", { class: "slow", text: " slow" }));
              const track = el("div", { class: "track" });
              const bar = el("div", { class: "inclusive" });
              bar.style.left = (100 * start / total) + "%";
              bar.style.width = (100 * inclusive / total) + "%";
              const mine = el("div", { class: "own" });
              mine.style.left = (100 * start / total) + "%";
              mine.style.width = (100 * Math.min(own, inclusive) / total) + "%";
              track.append(bar, mine);
              row.append(el("div", { class: "num", text: String(i + 1) }), label, track);
              if (reason != null) row.append(el("div", { class: "error", text: (decision === "f" ? "error: " : "reason: ") + shown(reason) }));
              list.append(row);
            });
            parts.push(list);
            panel.replaceChildren(...parts);
            const swatches = panel.querySelectorAll(".legend-swatch");
            swatches[0].style.background = "var(--bar)";
            swatches[1].style.background = "var(--bar-self)";
          }

          // ---------- handler table ----------
          const columns = [
            // A registry's member, indented under its registry (the profile lists members right after it) and named so.
            ["handler", (s) => names[s.h].toLowerCase(), (s) => s.registry == null ? nameSpan(s.h)
              : el("span", { class: "member" }, nameSpan(s.h), el("span", { class: "muted", text: " in " + shown(s.registry) }))],
            ["seen", (s) => s.seen, (s) => count(s.seen)],
            ["accepted", (s) => s.accepted, (s) => count(s.accepted)],
            ["passed", (s) => s.passed, (s) => count(s.passed)],
            ["continued", (s) => s.continued, (s) => count(s.continued)],
            ["failed", (s) => s.failed, (s) => count(s.failed)],
            ["self p50", (s) => s.self[0], (s) => duration(s.self[0])],
            ["self p95", (s) => s.self[1], (s) => duration(s.self[1])],
            ["self p99", (s) => s.self[2], (s) => duration(s.self[2])],
            ["incl. p95", (s) => s.incl[1], (s) => duration(s.incl[1])],
            ["self total", (s) => s.self[5], (s) => duration(s.self[5])],
            ["slow", (s) => (s.slow ? 1 : 0), (s) => (s.slow ? "SLOW" : "")],
          ];
          const sort = { column: -1, descending: false };
          function handlerTable() {
            const table = document.getElementById("handlers");
            const head = el("tr");
            columns.forEach(([title], i) => {
              const th = el("th", { scope: "col", "aria-sort": sort.column === i ? (sort.descending ? "descending" : "ascending") : "none" });
              th.append(el("button", { type: "button", text: title + (sort.column === i ? (sort.descending ? " ▼" : " ▲") : ""), onclick: () => {
                sort.descending = sort.column === i ? !sort.descending : i > 0;
                sort.column = i;
                handlerTable();
              } }));
              head.append(th);
            });
            const rows = handlers.slice();
            if (sort.column >= 0) {
              const key = columns[sort.column][1];
              rows.sort((a, b) => { const x = key(a), y = key(b); return (x < y ? -1 : x > y ? 1 : 0) * (sort.descending ? -1 : 1); });
            }
            const body = el("tbody");
            for (const stats of rows) {
              const tr = el("tr", { tabindex: "0", "data-handler": String(stats.h), class: (stats.h === state.handler ? "selected" : "") + (stats.slow ? " slow-row" : "") });
              tr.addEventListener("click", () => selectHandler(stats.h));
              tr.addEventListener("keydown", (event) => { if (event.key === "Enter") selectHandler(stats.h); });
              for (const [, , cell] of columns) {
                const td = el("td");
                td.append(cell(stats));
                tr.append(td);
              }
              if (stats.slow) tr.lastChild.className = "slow";
              body.append(tr);
            }
            table.replaceChildren(el("thead", {}, head), body);
          }

          // ---------- command list ----------
          const filters = {
            kind: document.getElementById("filter-kind"), outcome: document.getElementById("filter-outcome"),
            visited: document.getElementById("filter-visited"), taker: document.getElementById("filter-taker"),
            id: document.getElementById("filter-id"), slow: document.getElementById("filter-slow"),
          };
          let shownRows = traces.map((_, i) => i);
          function fillFilters() {
            const kinds = [...new Set(traces.map((t) => t.kind))].sort();
            for (const kind of kinds) filters.kind.append(el("option", { value: kind, text: shown(kind) }));
            const visited = new Set(), takers = new Set();
            for (const t of traces) { for (const hop of t.hops) visited.add(hop[0]); if (t.o === "accepted") takers.add(t.by); }
            const byName = (a, b) => (names[a] < names[b] ? -1 : names[a] > names[b] ? 1 : 0);
            for (const h of [...visited].sort(byName)) filters.visited.append(el("option", { value: String(h), text: nameOf(h) }));
            for (const h of [...takers].sort(byName)) filters.taker.append(el("option", { value: String(h), text: nameOf(h) }));
            for (const filter of Object.values(filters)) filter.addEventListener(filter.type === "search" ? "input" : "change", applyFilters);
          }
          function applyFilters() {
            const kind = filters.kind.value, outcome = filters.outcome.value, id = filters.id.value.toLowerCase();
            const visited = filters.visited.value === "" ? -1 : Number(filters.visited.value);
            const taker = filters.taker.value === "" ? -1 : Number(filters.taker.value);
            const slow = filters.slow.checked;
            shownRows = [];
            traces.forEach((t, i) => {
              if (kind !== "" && t.kind !== kind) return;
              if (outcome !== "" && t.o !== outcome) return;
              if (taker >= 0 && !(t.o === "accepted" && t.by === taker)) return;
              if (visited >= 0 && !t.hops.some((hop) => hop[0] === visited)) return;
              if (id !== "" && !(t.id != null && t.id.toLowerCase().includes(id)) && String(t.n) !== id) return;
              if (slow && !t.slow) return;
              shownRows.push(i);
            });
            document.getElementById("list-count").textContent = count(shownRows.length) + " of " + count(traces.length) + " listed commands match";
            spacer.style.height = (shownRows.length * ROW) + "px";
            list.scrollTop = 0;
            drawRows();
          }
          const list = document.getElementById("command-list");
          const spacer = el("div", { class: "spacer" });
          list.append(spacer);
          function outcomeCell(t) {
            const cell = el("span");
            if (t.o === "accepted") cell.append(el("span", { class: "accepted", text: "accepted by " }), nameSpan(t.by));
            else if (t.o === "failed") cell.append(el("span", { class: "failed", text: "failed at " }), nameSpan(t.by));
            else cell.append(el("span", { class: "fell", text: "fell off the end" }));
            return cell;
          }
          function drawRows() {
            const first = Math.max(0, Math.floor(list.scrollTop / ROW) - 5);
            const last = Math.min(shownRows.length, first + Math.ceil(list.clientHeight / ROW) + 12);
            const rows = [];
            for (let position = first; position < last; position++) {
              const index = shownRows[position];
              const t = traces[index];
              const row = el("div", { class: "row" + (index === state.command ? " selected" : ""), role: "option", "data-index": String(index), "aria-selected": String(index === state.command) });
              row.style.top = (position * ROW) + "px";
              row.append(
                el("span", { class: "muted", text: "#" + t.n }), el("span", { text: shown(t.kind) }),
                el("span", { class: "name", text: t.id != null ? shown(t.id) : "" }), outcomeCell(t),
                el("span", { text: duration(t.d) + (t.slow ? " ⚠" : "") }), el("span", { class: "muted", text: t.hops.length + " hops" }));
              row.addEventListener("click", () => selectCommand(index));
              rows.push(row);
            }
            spacer.replaceChildren(...rows);
          }
          list.addEventListener("scroll", drawRows);
          list.addEventListener("keydown", (event) => {
            if (event.key !== "ArrowDown" && event.key !== "ArrowUp") return;
            event.preventDefault();
            if (shownRows.length === 0) return;
            let position = shownRows.indexOf(state.command);
            position = position < 0 ? 0 : Math.max(0, Math.min(shownRows.length - 1, position + (event.key === "ArrowDown" ? 1 : -1)));
            selectCommand(shownRows[position]);
            const top = position * ROW;
            if (top < list.scrollTop) list.scrollTop = top;
            else if (top + ROW > list.scrollTop + list.clientHeight) list.scrollTop = top + ROW - list.clientHeight;
          });

          // ---------- compare ----------
          function compareSection() {
            const compare = data.compare;
            if (!compare) return;
            const section = document.getElementById("compare-section");
            section.hidden = false;
            // Commands in one log only are listed among the changes, but counted apart from the commands compared.
            const changed = compare.total - compare.missing - compare.unexpected;
            document.getElementById("compare-summary").textContent = shown(compare.before) + " → " + shown(compare.after) + ": " + count(changed) + " of " + count(compare.compared) + " commands in both logs changed path, taker or outcome" + (compare.missing + compare.unexpected > 0 ? "; " + count(compare.missing) + " only in the first, " + count(compare.unexpected) + " only in the second" : "") + (compare.divergences.length < compare.total ? " (the first " + count(compare.divergences.length) + " listed)" : "") + ".";
            const box = document.getElementById("divergences");
            const header = el("div", { class: "row header" }, el("span", { text: "change" }), el("span", { text: "command" }), el("span", { text: "before" }), el("span", { text: "after" }));
            const rows = [header];
            compare.divergences.forEach((d, i) => {
              const row = el("div", { class: "row" + (i === state.divergence ? " selected" : ""), role: "option", "data-divergence": String(i), tabindex: "0" },
                el("span", { class: "failed", text: d.kind }), el("span", { class: "name", text: shown(d.command) + " (" + shown(d.commandKind) + ")" }),
                el("span", { text: d.before ? shown(d.before.outcome) : "—" }), el("span", { text: d.after ? shown(d.after.outcome) : "—" }));
              row.addEventListener("click", () => selectDivergence(i));
              row.addEventListener("keydown", (event) => { if (event.key === "Enter") selectDivergence(i); });
              rows.push(row);
            });
            box.replaceChildren(...rows);
          }
          function sideBySide() {
            const box = document.getElementById("side-by-side");
            const compare = data.compare;
            if (!compare || state.divergence < 0 || !compare.divergences[state.divergence]) { box.replaceChildren(); return; }
            const d = compare.divergences[state.divergence];
            const column = (title, run, other) => {
              const parts = [el("h3", { text: title })];
              if (!run) { parts.push(el("div", { class: "muted", text: "not in this log" })); return el("div", {}, ...parts); }
              const list = el("ol");
              run.path.forEach((h, i) => list.append(el("li", { class: other && other.path[i] === h ? "" : "changed" }, nameSpan(h))));
              parts.push(list, el("div", { text: shown(run.outcome) }));
              return el("div", {}, ...parts);
            };
            box.replaceChildren(el("div", { class: "side-by-side" },
              column("Before: " + shown(compare.before), d.before, d.after), column("After: " + shown(compare.after), d.after, d.before)));
          }

          // ---------- selection and the URL hash ----------
          function selectHandler(h) { state.handler = h; state.command = -1; state.hop = -1; update(); }
          function selectCommand(index) { state.command = index; state.hop = -1; state.handler = -1; update(); }
          function selectDivergence(i) { state.divergence = i; update(); }
          function update() {
            const trace = state.command >= 0 ? traces[state.command] : null;
            if (trace) commandPanel(trace);
            else if (state.handler >= 0) handlerPanel(state.handler);
            else showPanelHint();
            overlay(trace);
            for (const tr of document.querySelectorAll("#handlers tbody tr")) tr.classList.toggle("selected", Number(tr.dataset.handler) === state.handler);
            drawRows();
            for (const row of document.querySelectorAll("#divergences .row[data-divergence]")) row.classList.toggle("selected", Number(row.dataset.divergence) === state.divergence);
            sideBySide();
            const parts = [];
            if (trace) { parts.push("command=" + trace.n); if (state.hop >= 0) parts.push("hop=" + (state.hop + 1)); }
            else if (state.handler >= 0) parts.push("handler=" + encodeURIComponent(names[state.handler]));
            if (state.divergence >= 0) parts.push("change=" + (state.divergence + 1));
            const hash = parts.length ? "#" + parts.join("&") : "";
            if (location.hash !== hash) history.replaceState(null, "", hash || location.pathname + location.search);
          }
          function restore() {
            const params = new URLSearchParams(location.hash.slice(1));
            state.command = -1; state.hop = -1; state.handler = -1; state.divergence = -1;
            if (params.has("command") && byNumber.has(Number(params.get("command")))) {
              state.command = byNumber.get(Number(params.get("command")));
              const hop = Number(params.get("hop"));
              if (hop >= 1 && hop <= traces[state.command].hops.length) state.hop = hop - 1;
            } else if (params.has("handler")) {
              const h = names.indexOf(params.get("handler"));
              if (h >= 0) state.handler = h;
            }
            const change = Number(params.get("change"));
            if (data.compare && change >= 1 && change <= data.compare.divergences.length) state.divergence = change - 1;
            update();
            if (state.command >= 0) {
              const position = shownRows.indexOf(state.command);
              if (position >= 0) list.scrollTop = Math.max(0, position * ROW - list.clientHeight / 2);
            }
          }
          document.addEventListener("keydown", (event) => {
            const target = event.target;
            if (target && (target.tagName === "INPUT" || target.tagName === "SELECT")) return;
            if (event.key === "Escape") { state.command = -1; state.hop = -1; state.handler = -1; update(); return; }
            if (state.command < 0 || (event.key !== "ArrowRight" && event.key !== "ArrowLeft")) return;
            const hops = traces[state.command].hops.length;
            if (hops === 0) return;
            event.preventDefault();
            state.hop = event.key === "ArrowRight" ? Math.min(hops - 1, state.hop + 1) : Math.max(0, state.hop - 1);
            update();
          });
          window.addEventListener("hashchange", restore);

          const zoom = document.getElementById("zoom");
          zoom.addEventListener("click", () => {
            const actual = document.getElementById("diagram").classList.toggle("actual");
            zoom.textContent = actual ? "fit to width" : "actual size";
          });
          overview();
          indexDiagram();
          handlerTable();
          fillFilters();
          applyFilters();
          compareSection();
          restore();
          // When the page became usable, for the benchmark that measures it (Benchmarks/report-benchmark.py).
          document.body.dataset.readyMs = String(Math.round(performance.now()));
          document.body.dataset.ready = "true";
        })();
        """#
}
