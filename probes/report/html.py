"""The matrix as one static, self-contained HTML page (no external assets).

The table is rendered server-side, so it reads without JavaScript; a small inline
script only filters rows by text (id or area) and by verdict, and keeps the filter in
the URL fragment (#q=...&verdict=...) so a filtered view can be linked to.
"""

from __future__ import annotations

from html import escape

from probes.report.cells import LEGEND, declaration, source_label, symbol
from probes.report.grid import Grid

CHANGED = "changed"  # verdict-filter value: rows whose verdict differs between versions

_CSS = """
:root { --bg: #fff; --fg: #1b1f24; --muted: #57606a; --line: #d0d7de; --head: #f6f8fa;
  --holds: #eefbf1; --differs: #ffebe9; --error: #fff8c5; }
@media (prefers-color-scheme: dark) { :root { --bg: #0d1117; --fg: #e6edf3; --muted: #8d96a0;
  --line: #30363d; --head: #161b22; --holds: #0f2a1a; --differs: #3d1d20; --error: #3b2e00; } }
* { box-sizing: border-box; }
body { margin: 0; padding: 1rem; font: 15px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif;
  background: var(--bg); color: var(--fg); }
h1 { font-size: 1.3rem; margin: 0 0 .5rem; }
p, .legend { color: var(--muted); margin: .3rem 0; }
.controls { display: flex; flex-wrap: wrap; gap: .5rem; margin: .8rem 0; align-items: center; }
.controls input, .controls select { font: inherit; padding: .35rem .5rem; border: 1px solid var(--line);
  border-radius: 6px; background: var(--bg); color: var(--fg); }
.controls input { flex: 1 1 12rem; min-width: 0; }
.scroll { overflow-x: auto; border: 1px solid var(--line); border-radius: 6px; }
table { border-collapse: separate; border-spacing: 0; width: 100%; }
th, td { padding: .35rem .55rem; border-bottom: 1px solid var(--line); text-align: center; vertical-align: top; }
thead th { background: var(--head); font-weight: 600; white-space: nowrap; }
thead th small { display: block; font-weight: 400; color: var(--muted); }
th.behaviour, td.behaviour { position: sticky; left: 0; z-index: 1; background: var(--bg); text-align: left;
  min-width: 9rem; max-width: 16rem; overflow-wrap: anywhere; border-right: 1px solid var(--line); }
thead th.behaviour { background: var(--head); z-index: 2; }
td.behaviour code { font-size: .85em; }
td.behaviour .claim { display: block; color: var(--muted); font-size: .8em; }
td.source { text-align: left; color: var(--muted); font-size: .85em; min-width: 7rem; }
tr.area th { text-align: left; background: var(--head); position: sticky; left: 0; }
td.v-holds { background: var(--holds); }
td.v-differs { background: var(--differs); }
td.v-error { background: var(--error); }
sup a { text-decoration: none; }
ol.notes { padding-left: 1.5rem; overflow-wrap: anywhere; }
ol.notes li:target { background: var(--differs); }
@media (max-width: 600px) { body { padding: .5rem; font-size: 14px; }
  td.behaviour, th.behaviour { max-width: 10rem; } td.behaviour .claim { display: none; }
  td.source, th.source { display: none; } }
"""

_JS = """
(function () {
  var q = document.getElementById('q'), verdict = document.getElementById('verdict');
  var count = document.getElementById('count');
  var rows = Array.prototype.slice.call(document.querySelectorAll('tr.behaviour-row'));
  var areas = Array.prototype.slice.call(document.querySelectorAll('tbody.area-group'));
  function fromUrl() {
    var p = new URLSearchParams(location.search), h = new URLSearchParams(location.hash.slice(1));
    q.value = h.get('q') || p.get('q') || '';
    verdict.value = h.get('verdict') || p.get('verdict') || '';
  }
  function apply(updateUrl) {
    var text = q.value.trim().toLowerCase(), want = verdict.value, shown = 0;
    rows.forEach(function (r) {
      var textOk = !text || r.dataset.id.indexOf(text) >= 0 || r.dataset.area.indexOf(text) >= 0;
      var verdictOk = !want || (want === 'changed' ? r.dataset.changed === '1'
        : r.dataset.verdicts.split(' ').indexOf(want) >= 0);
      r.hidden = !(textOk && verdictOk);
      if (!r.hidden) shown++;
    });
    areas.forEach(function (a) { a.hidden = !a.querySelector('tr.behaviour-row:not([hidden])'); });
    count.textContent = shown + ' of ' + rows.length + ' behaviours';
    if (updateUrl) {
      var p = new URLSearchParams();
      if (text) p.set('q', text);
      if (want) p.set('verdict', want);
      try { history.replaceState(null, '', p.toString() ? '#' + p.toString() : location.pathname + location.search); }
      catch (e) { /* some file:// contexts refuse; the filter still works */ }
    }
  }
  q.addEventListener('input', function () { apply(true); });
  verdict.addEventListener('change', function () { apply(true); });
  window.addEventListener('hashchange', function () { fromUrl(); apply(false); });
  fromUrl();
  apply(false);
})();
"""


def _e(text: object) -> str:
    return escape(str(text), quote=True)


def render_html(grid: Grid) -> str:
    head = ['<th class="behaviour" scope="col">behaviour</th>', '<th class="source" scope="col">source</th>']
    head += [f'<th scope="col">{_e(c.sdk_version)}<small>{_e(c.cli_label)}</small></th>' for c in grid.columns]
    width = len(head)
    bodies = []
    for area, rows in grid.areas():
        trs = [f'<tr class="area"><th colspan="{width}" scope="rowgroup">{_e(area)}</th></tr>']
        for r in rows:
            verdicts = " ".join(sorted({v for v in r.verdicts if v}))
            cells = "".join(_cell(grid, r.id, i, cell) for i, cell in enumerate(r.cells))
            trs.append(
                f'<tr class="behaviour-row" data-id="{_e(r.id.lower())}" data-area="{_e(r.area.lower())}" '
                f'data-verdicts="{_e(verdicts)}" data-changed="{int(r.moved)}">'
                f'<td class="behaviour"><a href="{_e(declaration(r.id))}"><code>{_e(r.id)}</code></a>'
                f'<span class="claim">{_e(r.claim)}</span></td>'
                f'<td class="source" title="{_e(r.source[0])}">{_e(source_label(r.source))}</td>{cells}</tr>'
            )
        bodies.append(f'<tbody class="area-group" data-area="{_e(area.lower())}">\n' + "\n".join(trs) + "\n</tbody>")
    options = "".join(f'<option value="{_e(v)}">{s} {_e(v)}</option>' for s, v in LEGEND[:-1])
    notes = "\n".join(
        f'<li id="note-{n.number}" value="{n.number}"><code>{_e(n.id)}</code> on {_e(", ".join(n.versions))} '
        f"({_e(n.verdict)}): {_e(n.text)}</li>"
        for n in grid.notes
    )
    legend = " · ".join(f"{s} {_e(name)}" for s, name in LEGEND)
    return f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>claude-agent-sdk compatibility</title>
<style>{_CSS}</style>
</head>
<body>
<h1>claude-agent-sdk compatibility</h1>
<p>Which behaviours of <code>claude-agent-sdk</code> and its Claude Code CLI hold on each SDK version.
Generated by <code>sdkprobe report</code>.</p>
<p class="legend">{legend}</p>
<div class="controls">
<input id="q" type="search" placeholder="Filter by id or area" aria-label="Filter by behaviour id or area">
<select id="verdict" aria-label="Show behaviours with this verdict on some version">
<option value="">any verdict</option>{options}<option value="{CHANGED}">changed between versions</option>
</select>
<span id="count" aria-live="polite">{len(grid.rows)} behaviours</span>
</div>
<div class="scroll">
<table>
<thead><tr>{"".join(head)}</tr></thead>
{chr(10).join(bodies)}
</table>
</div>
{f'<h2>Notes</h2>{chr(10)}<ol class="notes">{chr(10)}{notes}{chr(10)}</ol>' if notes else ""}
<script>{_JS}</script>
</body>
</html>
"""


def _cell(grid: Grid, bid: str, i: int, cell: dict | None) -> str:
    version = grid.columns[i].sdk_version
    if cell is None:
        return f'<td class="v-absent" title="not probed on {_e(version)}">{symbol(None)}</td>'
    verdict, ref = cell["verdict"], grid.refs.get((bid, i))
    title = f"{verdict} on {version}" + (f": {cell['note']}" if cell["note"] else "")
    sup = f'<sup><a href="#note-{ref}">{ref}</a></sup>' if ref else ""
    return (
        f'<td class="v-{_e(verdict)}" data-verdict="{_e(verdict)}" title="{_e(title)}">'
        f'<span role="img" aria-label="{_e(verdict)}">{symbol(verdict)}</span>{sup}</td>'
    )
