/// The report page's style sheet: light and dark (`prefers-color-scheme`), and a print layout without the
/// controls. Inline in the page, allowed by its hash in the Content-Security-Policy.
enum ReportStyle {
    static let css = #"""
        :root { color-scheme: light dark; --bg: #ffffff; --fg: #1d1d1f; --muted: #6b6b70; --line: #d9d9de; --panel: #f6f6f8;
          --accent: #0b63ce; --slow: #b00020; --ok: #1a7f37; --fell: #8a6d00; --path: #0b63ce; --bar: #9cc3f5; --bar-self: #0b63ce;
          --row-hover: #eef4fd; --row-selected: #d6e6fb; }
        @media (prefers-color-scheme: dark) {
          :root { --bg: #16171a; --fg: #e8e8ea; --muted: #a0a0a8; --line: #3a3b40; --panel: #202126; --accent: #6aa8ff;
            --slow: #ff6b81; --ok: #56d364; --fell: #e3b341; --path: #6aa8ff; --bar: #2c4f80; --bar-self: #6aa8ff;
            --row-hover: #242a36; --row-selected: #2b3b57; }
          #diagram svg, #diff-diagram svg { filter: invert(0.9) hue-rotate(180deg); }
        }
        * { box-sizing: border-box; }
        body { margin: 0; background: var(--bg); color: var(--fg); font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; }
        header { padding: 14px 20px 6px; border-bottom: 1px solid var(--line); }
        h1 { font-size: 20px; margin: 0 0 4px; }
        h2 { font-size: 16px; margin: 18px 0 8px; }
        h3 { font-size: 15px; margin: 0 0 6px; overflow-wrap: anywhere; }
        main { padding: 0 20px 40px; }
        .muted { color: var(--muted); }
        .member { padding-left: 1.2em; }
        .slow { color: var(--slow); font-weight: 600; }
        .accepted { color: var(--ok); }
        .failed { color: var(--slow); }
        .fell { color: var(--fell); }
        .name { overflow-wrap: anywhere; unicode-bidi: isolate; }
        #overview { display: flex; flex-wrap: wrap; gap: 8px 28px; padding: 10px 0; }
        #overview .figure { font-size: 22px; font-weight: 600; }
        #overview ul { margin: 4px 0 0; padding-left: 18px; }
        #centre { display: grid; grid-template-columns: minmax(0, 3fr) minmax(300px, 2fr); gap: 16px; align-items: start; }
        @media (max-width: 900px) { #centre { grid-template-columns: 1fr; } }
        .diagram { overflow: auto; border: 1px solid var(--line); border-radius: 6px; max-height: 78vh; background: #ffffff; }
        .diagram svg { display: block; width: 100%; height: auto; }
        .diagram.actual svg { width: auto; }
        .toolbar { text-align: right; font-size: 12px; margin: -4px 0 4px; }
        #diagram g.node { cursor: pointer; }
        #diagram g.node:focus { outline: none; }
        #diagram g.node:focus > :is(polygon, ellipse, path) { stroke: #0b63ce; stroke-width: 3px; }
        #diagram g.node.unvisited { opacity: 0.28; }
        #diagram g.node.on-path > :is(polygon, ellipse, path) { stroke: #0b63ce; stroke-width: 3px; }
        #diagram g.node.taker > :is(polygon, ellipse, path) { stroke: #1a7f37; stroke-width: 5px; }
        #diagram g.node.failing > :is(polygon, ellipse, path) { stroke: #b00020; stroke-width: 5px; }
        #diagram g.node.current > :is(polygon, ellipse, path) { stroke-dasharray: 6 3; stroke-width: 5px; }
        #diagram g.node.chosen > :is(polygon, ellipse, path) { stroke: #7a3ee0; stroke-width: 4px; }
        #diagram g.edge.unvisited { opacity: 0.2; }
        #diagram g.edge.on-path > path { stroke: #0b63ce; stroke-width: 3px; }
        #diagram g.edge.on-path > polygon { stroke: #0b63ce; fill: #0b63ce; }
        .badge circle { fill: #0b63ce; stroke: #ffffff; stroke-width: 1.5px; }
        .badge.taker circle { fill: #1a7f37; }
        .badge.failing circle { fill: #b00020; }
        .badge text { fill: #ffffff; font: bold 11px system-ui, sans-serif; text-anchor: middle; dominant-baseline: central; }
        #panel { position: sticky; top: 8px; max-height: 96vh; overflow: auto; border: 1px solid var(--line); border-radius: 6px; background: var(--panel); padding: 12px 14px; min-height: 200px; }
        #panel table { border-collapse: collapse; margin: 6px 0; }
        #panel td, #panel th { padding: 2px 10px 2px 0; text-align: right; }
        #panel td:first-child, #panel th:first-child { text-align: left; }
        .hint { color: var(--muted); font-size: 13px; }
        .waterfall { margin-top: 8px; }
        .hop { display: grid; grid-template-columns: 26px minmax(90px, 34%) 1fr; gap: 6px; align-items: center; padding: 2px 4px;
          border-radius: 4px; cursor: pointer; }
        .hop.current { background: var(--row-selected); }
        .hop .track { position: relative; height: 16px; background: transparent; }
        .hop .inclusive { position: absolute; top: 2px; height: 12px; background: var(--bar); border-radius: 2px; min-width: 1px; }
        .hop .own { position: absolute; top: 2px; height: 12px; background: var(--bar-self); border-radius: 2px; min-width: 1px; }
        .hop.failed .own { background: var(--slow); }
        .hop .error { grid-column: 2 / 4; color: var(--slow); font-size: 12px; overflow-wrap: anywhere; }
        .hop .num { text-align: right; color: var(--muted); font-variant-numeric: tabular-nums; }
        .legend-swatch { display: inline-block; width: 12px; height: 10px; border-radius: 2px; vertical-align: middle; margin: 0 3px 0 8px; }
        table.grid { border-collapse: collapse; width: 100%; font-variant-numeric: tabular-nums; }
        table.grid th, table.grid td { border-bottom: 1px solid var(--line); padding: 4px 8px; text-align: right; white-space: nowrap; }
        table.grid th:first-child, table.grid td:first-child { text-align: left; white-space: normal; }
        table.grid th { position: sticky; top: 0; background: var(--bg); cursor: pointer; user-select: none; }
        table.grid th button { all: unset; cursor: pointer; }
        table.grid th button:focus-visible { outline: 2px solid var(--accent); }
        table.grid tbody tr { cursor: pointer; }
        table.grid tbody tr:hover { background: var(--row-hover); }
        table.grid tbody tr.selected { background: var(--row-selected); }
        .table-wrap { max-height: 420px; overflow: auto; border: 1px solid var(--line); border-radius: 6px; }
        #filters { display: flex; flex-wrap: wrap; gap: 8px 14px; align-items: end; margin-bottom: 8px; }
        #filters label { display: flex; flex-direction: column; font-size: 12px; color: var(--muted); }
        #filters label.inline { flex-direction: row; align-items: center; gap: 4px; }
        #filters select, #filters input[type=search] { font: inherit; color: var(--fg); background: var(--bg); border: 1px solid var(--line);
          border-radius: 4px; padding: 3px 6px; max-width: 220px; }
        #list-count { font-size: 13px; color: var(--muted); margin: 4px 0; }
        .list { position: relative; height: 420px; overflow: auto; border: 1px solid var(--line); border-radius: 6px; }
        .list:focus-visible { outline: 2px solid var(--accent); }
        .list .spacer { position: relative; }
        .list .row { position: absolute; left: 0; right: 0; height: 26px; display: grid;
          grid-template-columns: 70px minmax(60px, 0.8fr) minmax(80px, 1.2fr) minmax(140px, 2fr) 100px 72px; gap: 8px;
          align-items: center; padding: 0 8px; border-bottom: 1px solid var(--line); cursor: pointer; white-space: nowrap; overflow: hidden; }
        .list .row > span { overflow: hidden; text-overflow: ellipsis; }
        .list .row:hover { background: var(--row-hover); }
        .list .row.selected { background: var(--row-selected); }
        .list .row.header { position: sticky; top: 0; z-index: 1; background: var(--bg); font-weight: 600; cursor: default; }
        #divergences { max-height: 420px; overflow: auto; border: 1px solid var(--line); border-radius: 6px; margin-top: 10px; }
        #divergences .row { display: grid; grid-template-columns: 150px minmax(80px, 1fr) minmax(120px, 2fr) minmax(120px, 2fr);
          gap: 8px; align-items: center; min-height: 26px; padding: 0 8px; border-bottom: 1px solid var(--line); cursor: pointer; }
        #divergences .row > span { overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
        #divergences .row:hover { background: var(--row-hover); }
        #divergences .row.selected { background: var(--row-selected); }
        #divergences .row.header { position: sticky; top: 0; background: var(--bg); font-weight: 600; cursor: default; }
        #divergences .row:focus-visible { outline: 2px solid var(--accent); }
        .side-by-side { display: grid; grid-template-columns: 1fr 1fr; gap: 16px; margin-top: 10px; }
        .side-by-side ol { margin: 4px 0; padding-left: 22px; }
        .side-by-side li.changed { color: var(--slow); font-weight: 600; }
        .histogram rect.bar { fill: var(--bar-self); }
        .histogram line.limit { stroke: var(--slow); stroke-width: 2; stroke-dasharray: 4 3; }
        .histogram text { fill: var(--fg); font-size: 10px; }
        .histogram text.limit { fill: var(--slow); }
        button.link { all: unset; color: var(--accent); cursor: pointer; text-decoration: underline; }
        button.link:focus-visible { outline: 2px solid var(--accent); }
        @media print {
          #filters, .hint, #list-count, .toolbar { display: none; }
          .list, .table-wrap, .diagram, #divergences { height: auto; max-height: none; overflow: visible; border: none; }
          #centre { grid-template-columns: 1fr; }
          #diagram svg, #diff-diagram svg { filter: none; }
          body { background: #ffffff; color: #000000; }
        }
        """#
}
