"""The matrix as one static, self-contained HTML page (no external assets).

The table is rendered server-side, so it reads without JavaScript. It opens with the
behaviours that changed across the versions, because a hundred rows of fifteen identical
verdicts hide the few that moved. A small inline script filters rows by text (id or
area), by verdict and to "only rows that change", and keeps the filter in the URL
fragment (#q=...&verdict=...&changed=1) so a filtered view can be linked to. Claims fold
away in <details> and version headers stand up, so a hundred rows of fifteen versions fit
a 360 px phone as well as a laptop.
"""

from __future__ import annotations

from collections.abc import Mapping
from html import escape
from typing import Any

from sdkprobe.report.cells import LEGEND, area_heading, cited, declaration, source_label, source_link, symbol
from sdkprobe.report.grid import Grid, Row
from sdkprobe.report.history import EXACT_NOTE

_CSS = """
:root { --bg: #fff; --fg: #1b1f24; --muted: #57606a; --line: #d0d7de; --head: #f6f8fa;
  --holds: #eefbf1; --differs: #ffebe9; --error: #fff8c5; --mark: #0969da; }
@media (prefers-color-scheme: dark) { :root { --bg: #0d1117; --fg: #e6edf3; --muted: #8d96a0;
  --line: #30363d; --head: #161b22; --holds: #0f2a1a; --differs: #3d1d20; --error: #3b2e00; --mark: #4493f8; } }
* { box-sizing: border-box; }
body { margin: 0; padding: 1rem; font: 15px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif;
  background: var(--bg); color: var(--fg); }
h1 { font-size: 1.3rem; margin: 0 0 .5rem; }
h2 { font-size: 1.05rem; margin: 1rem 0 .4rem; }
p, .legend { color: var(--muted); margin: .3rem 0; }
a { color: var(--mark); }
ul.changes { margin: .3rem 0; padding-left: 1.2rem; overflow-wrap: anywhere; }
ul.changes li { margin: .15rem 0; }
ul.changes .change { color: var(--muted); }
.controls { display: flex; flex-wrap: wrap; gap: .5rem; margin: .8rem 0; align-items: center; }
.controls input[type=search], .controls select { font: inherit; padding: .35rem .5rem;
  border: 1px solid var(--line); border-radius: 6px; background: var(--bg); color: var(--fg); }
.controls input[type=search] { flex: 1 1 12rem; min-width: 0; }
.controls label { white-space: nowrap; }
.scroll { overflow-x: auto; border: 1px solid var(--line); border-radius: 6px; }
table { border-collapse: separate; border-spacing: 0; width: 100%; }
th, td { padding: .3rem .45rem; border-bottom: 1px solid var(--line); text-align: center; vertical-align: top; }
thead th { background: var(--head); font-weight: 600; white-space: nowrap; vertical-align: bottom; }
thead th small { display: block; font-weight: 400; color: var(--muted); }
th.behaviour, td.behaviour { position: sticky; left: 0; z-index: 1; background: var(--bg); text-align: left;
  min-width: 9rem; max-width: 18rem; overflow-wrap: anywhere; border-right: 1px solid var(--line); }
thead th.behaviour { background: var(--head); z-index: 2; }
td.behaviour code { font-size: .85em; }
td.behaviour summary { cursor: pointer; }
td.behaviour .more { color: var(--muted); font-size: .8em; margin: .2rem 0 .1rem; }
td.behaviour .more p { margin: 0 0 .2rem; }
td.behaviour .change { display: block; color: var(--muted); font-size: .75em; line-height: 1.3; }
td.source { text-align: left; color: var(--muted); font-size: .85em; white-space: nowrap; }
/* Fifteen or more versions fit a laptop only standing up: a version column is as wide
   as its symbol, its header (SDK version, then CLI) reads bottom to top. */
th.v, td.v { width: 1px; }
thead th.v .ver, thead th.v small { display: inline-block; writing-mode: vertical-rl; transform: rotate(180deg); }
td.v { white-space: nowrap; padding: .3rem .25rem; }
td.v sup { font-size: .65em; }
tr.area th { text-align: left; background: var(--head); position: sticky; left: 0; font-weight: 600; }
tr.behaviour-row:target td.behaviour { box-shadow: inset 3px 0 0 var(--mark); }
td.v-holds { background: var(--holds); }
td.v-differs { background: var(--differs); }
td.v-error { background: var(--error); }
sup a { text-decoration: none; }
ol.notes, ul.sources { padding-left: 1.5rem; overflow-wrap: anywhere; }
ol.notes li:target { background: var(--differs); }
@media (max-width: 600px) {
  body { padding: .5rem; font-size: 14px; }
  th, td { padding: .25rem .15rem; }
  th.behaviour, td.behaviour { min-width: 0; max-width: none; }
  td.behaviour code { font-size: .8em; }
  td.source, th.source { display: none; }
  thead th small, thead th.v small { display: none; }
  thead th.v { padding: .25rem 0; line-height: 1; }
  thead th.v .ver { font-size: .7em; }
  td.v { position: relative; font-size: 9px; padding: .3rem 0; }
  td.v sup { position: absolute; top: 0; right: 0; line-height: 1; font-size: 9px; }
}
"""

_JS = """
(function () {
  function byId(id) { return document.getElementById(id); }
  var q = byId('q'), verdict = byId('verdict'), changed = byId('changed'), count = byId('count');
  var rows = Array.prototype.slice.call(document.querySelectorAll('tr.behaviour-row'));
  var areas = Array.prototype.slice.call(document.querySelectorAll('tbody.area-group'));
  function target() {
    var id = location.hash.slice(1);
    try { id = decodeURIComponent(id); } catch (e) { return null; }
    return id.indexOf('row-') === 0 ? byId(id) : null;
  }
  function fromUrl() {
    var p = new URLSearchParams(location.search), h = new URLSearchParams(target() ? '' : location.hash.slice(1));
    function get(k) { return h.get(k) || p.get(k) || ''; }
    var v = get('verdict');
    q.value = get('q');
    changed.checked = get('changed') === '1' || v === 'changed';  // #verdict=changed: links made before the checkbox
    verdict.value = v === 'changed' ? '' : v;  // a value with no option leaves the select at ''
  }
  function apply(updateUrl) {
    var text = q.value.trim().toLowerCase(), want = verdict.value, only = changed.checked, shown = 0;
    rows.forEach(function (r) {
      var textOk = !text || r.dataset.find.indexOf(text) >= 0;
      var verdictOk = !want || r.dataset.verdicts.split(' ').indexOf(want) >= 0;
      var changeOk = !only || r.dataset.changed === '1';
      r.hidden = !(textOk && verdictOk && changeOk);
      if (!r.hidden) shown++;
    });
    areas.forEach(function (a) { a.hidden = !a.querySelector('tr.behaviour-row:not([hidden])'); });
    count.textContent = shown + ' of ' + rows.length + ' behaviours';
    if (updateUrl) {
      var p = new URLSearchParams();
      if (text) p.set('q', text);
      if (want) p.set('verdict', want);
      if (only) p.set('changed', '1');
      try { history.replaceState(null, '', p.toString() ? '#' + p.toString() : location.pathname + location.search); }
      catch (e) { /* some file:// contexts refuse; the filter still works */ }
    }
  }
  function follow() {  // #row-<id> (a link from the list of changes): show every row, go to that one
    var t = target();
    if (t) t.scrollIntoView();
  }
  q.addEventListener('input', function () { apply(true); });
  verdict.addEventListener('change', function () { apply(true); });
  changed.addEventListener('change', function () { apply(true); });
  window.addEventListener('hashchange', function () { fromUrl(); apply(false); follow(); });
  fromUrl();
  apply(false);
  follow();
})();
"""


def _e(text: object) -> str:
    return escape(str(text), quote=True)


def _row_id(bid: str) -> str:
    return f"row-{bid}"


def source_html(source: Mapping[str, Any], project: str = "..") -> str:
    """The short label, linked to where the source leads (`source_link`); its title as a tooltip."""
    label, url, title = _e(source_label(source)), source_link(source, project), _e(source["title"])
    return f'<a href="{_e(url)}" title="{title}">{label}</a>' if url else f'<span title="{title}">{label}</span>'


def render_html(grid: Grid) -> str:
    head = ['<th class="behaviour" scope="col">behaviour</th>', '<th class="source" scope="col">source</th>']
    head += [
        f'<th class="v" scope="col" title="{_e(c.sdk_version)}, {_e(c.cli_label)}">'
        f'<span class="ver">{_e(c.sdk_version)}</span><small>{_e(c.cli_label)}</small></th>'
        for c in grid.columns
    ]
    width = len(head)
    bodies = []
    for area, rows in grid.areas():
        trs = [f'<tr class="area"><th colspan="{width}" scope="rowgroup">{_e(area_heading(area))}</th></tr>']
        trs += [_row(grid, r) for r in rows]
        bodies.append(f'<tbody class="area-group" data-area="{_e(area.lower())}">\n' + "\n".join(trs) + "\n</tbody>")
    options = "".join(f'<option value="{_e(v)}">{s} {_e(v)}</option>' for s, v in LEGEND[:-1])
    notes = "\n".join(
        f'<li id="note-{n.number}" value="{n.number}"><code>{_e(n.id)}</code> on {_e(", ".join(n.versions))} '
        f"({_e(n.verdict)}): {_e(n.text)}</li>"
        for n in grid.notes
    )
    sources = "\n".join(
        f"<li>{source_html(s, grid.project)}: {_e(s['title'])}</li>" for s in cited(r.source for r in grid.rows)
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
{_exact_note(grid)}{_changes(grid)}
<p class="legend">{legend}</p>
<div class="controls">
<input id="q" type="search" placeholder="Filter by id or area" aria-label="Filter by behaviour id or area">
<select id="verdict" aria-label="Show behaviours with this verdict on some version">
<option value="">any verdict</option>{options}
</select>
<label><input id="changed" type="checkbox"> only rows that change</label>
<span id="count" aria-live="polite">{len(grid.rows)} behaviours</span>
</div>
<div class="scroll">
<table>
<thead><tr>{"".join(head)}</tr></thead>
{chr(10).join(bodies)}
</table>
</div>
{f'<h2>Notes</h2>{chr(10)}<ol class="notes">{chr(10)}{notes}{chr(10)}</ol>' if notes else ""}
{f'<h2>Sources</h2>{chr(10)}<ul class="sources">{chr(10)}{sources}{chr(10)}</ul>' if sources else ""}
<script>{_JS}</script>
</body>
</html>
"""


def _exact_note(grid: Grid) -> str:
    """Says where releases that are not columns come from, when a row names some."""
    return f'<p class="exact">{_e(EXACT_NOTE)}</p>\n' if any(r.exact for r in grid.rows) else ""


def _changes(grid: Grid) -> str:
    """The opening list: each changed behaviour, linked to its row, with where it changed."""
    changed = grid.changed()
    heading = f'<h2 id="changes">Changed across these {len(grid.columns)} versions</h2>'
    if not changed:
        return f'{heading}\n<p class="no-changes">No behaviour changed.</p>'
    items = "\n".join(
        f'<li><a href="#{_e(_row_id(r.id))}"><code>{_e(r.id)}</code></a> <span class="change">{_e(r.words)}</span></li>'
        for r in changed
    )
    return f'{heading}\n<ul class="changes">\n{items}\n</ul>'


def _row(grid: Grid, r: Row) -> str:
    verdicts = " ".join(sorted({v for v in r.verdicts if v}))
    find = " ".join([r.id, r.area, area_heading(r.area)]).lower()
    cells = "".join(_cell(grid, r.id, i, cell) for i, cell in enumerate(r.cells))
    change = f'<span class="change">{_e(r.words)}</span>' if r.words else ""
    source = source_html(r.source, grid.project)
    return (
        f'<tr class="behaviour-row" data-id="{_e(r.id.lower())}" data-area="{_e(r.area.lower())}" '
        f'data-verdicts="{_e(verdicts)}" data-changed="{int(r.moved)}" data-find="{_e(find)}" id="{_e(_row_id(r.id))}">'
        f'<td class="behaviour"><details><summary><code>{_e(r.id)}</code></summary>'
        f'<div class="more"><p class="claim">{_e(r.claim)}</p>'
        f'<p>{source} · <a href="{_e(declaration(r.id, grid.project))}">declaration</a></p></div>'
        f"</details>{change}</td>"
        f'<td class="source">{source}</td>{cells}</tr>'
    )


def _cell(grid: Grid, bid: str, i: int, cell: Mapping[str, Any] | None) -> str:
    version = grid.columns[i].label
    if cell is None:
        return f'<td class="v v-absent" title="not probed on {_e(version)}">{symbol(None)}</td>'
    verdict, ref = str(cell["verdict"]), grid.refs.get((bid, i))
    title = f"{verdict} on {version}" + (f": {cell['note']}" if cell["note"] else "")
    sup = f'<sup><a href="#note-{ref}">{ref}</a></sup>' if ref else ""
    return (
        f'<td class="v v-{_e(verdict)}" data-verdict="{_e(verdict)}" title="{_e(title)}">'
        f'<span role="img" aria-label="{_e(verdict)}">{symbol(verdict)}</span>{sup}</td>'
    )
