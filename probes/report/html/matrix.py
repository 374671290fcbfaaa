"""The matrix as one static, self-contained HTML page (no external assets).

The table is rendered server-side, so it reads without JavaScript. Versions run newest
first, so the ones a reader upgrades to are in view on a laptop and on a phone (where
the older ones scroll under the pinned behaviour column). Each row shows its id (linked
to the behaviour's own page), its claim in one short line and where it changed; the full
claim, the source, the sub-checks and the notes are one <details> away. The filter comes
first; the upgrade between the two newest versions is listed unfolded while short, and the
list of behaviours that changed folds into a <details> with its count. A small
inline script filters rows by text (id or area), by verdict and to "only rows that
change", and keeps the filter in the URL fragment (#q=...&verdict=...&changed=1) so a
filtered view can be linked to.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any
from urllib.parse import quote

from sdkprobe.report import sdkdiff, upgrade
from sdkprobe.report.cells import (
    LEGEND,
    SECURITY_LEGEND,
    SECURITY_MARK,
    area_heading,
    cited,
    declaration,
    short_claim,
    source_label,
    source_link,
    symbol,
)
from sdkprobe.report.grid import Grid, Row, SubCheck
from sdkprobe.report.html.page import esc, page
from sdkprobe.report.sdks import PYTHON, SDKS, TS_FOLDER, TYPESCRIPT

_JS = """
(function () {
  function byId(id) { return document.getElementById(id); }
  var q = byId('q'), verdict = byId('verdict'), changed = byId('changed'), count = byId('count');
  var rows = Array.prototype.slice.call(document.querySelectorAll('tr.behaviour-row'));
  var areas = Array.prototype.slice.call(document.querySelectorAll('tbody.area-group'));
  function target() {
    var id = location.hash.slice(1);
    try { id = decodeURIComponent(id); } catch (e) { return null; }
    return id.indexOf('row-') === 0 || id === 'changes' || id === 'upgrade' ? byId(id) : null;
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
    if (!t) return;
    var box = t.closest('details');  // #changes, #upgrade: unfold the list it heads
    if (box) box.open = true;
    t.scrollIntoView();
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


def _prose(text: object) -> str:
    """Escaped text whose `code spans` (Markdown-ish, as claims and the exact note write them)
    read as code rather than as backticks."""
    return re.sub(r"`([^`]+)`", r"<code>\1</code>", esc(text))


def _row_id(bid: str) -> str:
    return f"row-{bid}"


def behaviour_page(bid: str) -> str:
    """A behaviour's own page, relative to the matrix's folder."""
    return f"behaviours/{quote(bid, safe='')}.html"


def source_html(source: Mapping[str, Any], project: str = "..") -> str:
    """The short label, linked to where the source leads (`source_link`); its title as a tooltip."""
    label, url, title = esc(source_label(source)), source_link(source, project), esc(source["title"])
    return f'<a href="{esc(url)}" title="{title}">{label}</a>' if url else f'<span title="{title}">{label}</span>'


def render_html(grid: Grid, beside: sdkdiff.Beside | None = None, python_above: bool = False, top: str = "") -> str:
    """compatibility.html; `beside` and `python_above` as for the Markdown matrix (a line linking
    the other SDK's matrix and the page of where the two differ); `top`: HTML put first in the
    body (the site's links to its other pages)."""
    shown = grid.newest_first()
    head = ['<th class="behaviour" scope="col">behaviour</th>']
    head += [
        f'<th class="v" scope="col" title="{esc(c.sdk_version)}, {esc(c.cli_label)}">'
        f'<span><span class="ver">{esc(c.sdk_version)}</span> <small>{esc(c.cli_label)}</small></span></th>'
        for c in (grid.columns[i] for i in shown)
    ]
    width = len(head)
    bodies = []
    for area, rows in grid.areas():
        trs = [
            f'<tr class="area"><th colspan="{width}" scope="rowgroup"><span>{esc(area_heading(area))}</span></th></tr>'
        ]
        trs += [_row(grid, r) for r in rows]
        bodies.append(f'<tbody class="area-group" data-area="{esc(area.lower())}">\n' + "\n".join(trs) + "\n</tbody>")
    options = "".join(f'<option value="{esc(v)}">{s} {esc(v)}</option>' for s, v in LEGEND[:-1])
    notes = "\n".join(
        f'<li id="note-{n.number}" value="{n.number}"><code>{esc(n.id)}</code> on {esc(", ".join(n.versions))} '
        f"({esc(n.verdict)}): {_prose(n.text)}</li>"
        for n in grid.notes
    )
    sources = "\n".join(
        f"<li>{source_html(s, grid.project)}: {esc(s['title'])}</li>" for s in cited(r.source for r in grid.rows)
    )
    legend = " · ".join(f"{s} {esc(name)}" for s, name in LEGEND) + f" · {esc(SECURITY_LEGEND)}"
    body = f"""<h1>{esc(grid.sdk.package)} compatibility</h1>
<p>Which behaviours of <code>{esc(grid.sdk.package)}</code> (the {esc(grid.sdk.name)}) and its Claude Code CLI
hold on each SDK version, newest first. Generated by <code>sdkprobe report</code>; a row's short claim unfolds
to the whole claim, its source, sub-checks and notes.</p>
{_other_sdk(beside, python_above)}{_exact_note(grid)}<div class="controls">
<input id="q" type="search" placeholder="Filter by id or area" aria-label="Filter by behaviour id or area">
<select id="verdict" aria-label="Show behaviours with this verdict on some version">
<option value="">any verdict</option>{options}
</select>
<label><input id="changed" type="checkbox"> only rows that change</label>
<span id="count" aria-live="polite">{len(grid.rows)} behaviours</span>
</div>
<p class="legend">{legend}</p>
{_upgrade(grid)}{_changes(grid)}
<div class="scroll">
<table class="matrix">
<thead><tr>{"".join(head)}</tr></thead>
{chr(10).join(bodies)}
</table>
</div>
{_surface(grid)}{f'<h2>Notes</h2>{chr(10)}<ol class="notes">{chr(10)}{notes}{chr(10)}</ol>' if notes else ""}
{f'<h2>Sources</h2>{chr(10)}<ul class="sources">{chr(10)}{sources}{chr(10)}</ul>' if sources else ""}"""
    return page(f"{grid.sdk.package} compatibility", body, top=top, script=_JS, wide=True)


def _surface(grid: Grid) -> str:
    """Each version's public surface, newest first, folded: its size, the catalogue's cover,
    what it adds and removes (an added item no behaviour covers marked ✗)."""
    steps = grid.surface_steps()
    if not steps:
        return ""

    def items(names: tuple[str, ...], mark: bool = False) -> str:
        return ", ".join(
            f"<code>{esc(i)}</code>" + (" ✗" if mark and grid.coverage is not None and not grid.covering(i) else "")
            for i in names
        )

    rows = "".join(
        f'<tr><th scope="row">{esc(st.label)}</th><td>{st.items}</td>'
        f"<td>{esc(st.covered_text)}</td>"
        f"<td>{items(st.added, mark=True)}</td><td>{items(st.removed)}</td></tr>"
        for st in steps
    )
    return (
        '<details class="changes" id="surface"><summary><h2>Public surface</h2> '
        f'<span class="count">({len(steps)} versions)</span></summary>\n'
        "<p>The SDK's public items (<code>sdkprobe surface</code>) each report records, what each version "
        "adds and removes against the next older one, and how many the catalogue covers; ✗ marks an added "
        "item no behaviour covers.</p>\n"
        '<table class="surface"><thead><tr><th>version</th><th>items</th><th>covered</th><th>adds</th>'
        f"<th>removes</th></tr></thead><tbody>{rows}</tbody></table>\n</details>\n"
    )


def _other_sdk(beside: sdkdiff.Beside | None, python_above: bool) -> str:
    """Links to the other SDK's matrix and to where the two differ on one CLI, when there is one."""
    ts, py = SDKS[TYPESCRIPT], SDKS[PYTHON]
    if beside is not None:
        counts = "; ".join(f"{c.label}: {len(c.of(sdkdiff.DIFFERENCE))} differ" for c in beside.pairs)
        return (
            f'<p class="other-sdk">The {esc(ts.name)} (<code>{esc(ts.package)}</code>) has its own '
            f'<a href="{TS_FOLDER}/compatibility.html">matrix</a>; where the two SDKs disagree on one CLI: '
            f'<a href="{sdkdiff.HTML_NAME}">{esc(sdkdiff.HTML_NAME)}</a>'
            + (f" ({esc(counts)})" if counts else " (no CLI version both bundle)")
            + ".</p>\n"
        )
    if python_above:
        return (
            f'<p class="other-sdk">The {esc(py.name)} (<code>{esc(py.package)}</code>) has its own '
            f'<a href="../compatibility.html">matrix</a>; where the two '
            f'SDKs disagree on one CLI: <a href="../{sdkdiff.HTML_NAME}">{esc(sdkdiff.HTML_NAME)}</a>.</p>\n'
        )
    return ""


def _exact_note(grid: Grid) -> str:
    """Says where releases that are not columns come from, when a row names some."""
    return f'<p class="exact">{_prose(grid.exact_note)}</p>\n' if any(r.exact for r in grid.rows) else ""


def _changes(grid: Grid) -> str:
    """Each changed behaviour, linked to its row, with where it changed: folded under a
    heading with their count, so the filter and the table stay on the first screen."""
    changed = grid.changed()
    heading = f'<h2 id="changes">Changed across these {len(grid.columns)} versions</h2>'
    if not changed:
        return f'{heading}\n<p class="no-changes">No behaviour changed.</p>'
    items = "\n".join(
        f'<li><a href="#{esc(_row_id(r.id))}"><code>{esc(r.id)}</code></a> {_prose(short_claim(r))}: '
        f'<span class="change">{esc(r.words)}</span></li>'
        for r in changed
    )
    count = f"{len(changed)} behaviour{'s' if len(changed) != 1 else ''}"
    return (
        f'<details class="changes"><summary>{heading} <span class="count">({count})</span></summary>\n'
        f'<ul class="changes">\n{items}\n</ul>\n</details>'
    )


UPGRADE_UNFOLDED_UP_TO = 2  # moves the upgrade section lists unfolded; more fold behind its count


def _upgrade(grid: Grid) -> str:
    """What moved between the two newest versions, as a release note would say it (the same
    as COMPATIBILITY.md's section), folded like the list of changes; none for one version."""
    if len(grid.columns) < 2:
        return ""
    u = upgrade.between(grid, len(grid.columns) - 2, len(grid.columns) - 1)
    heading = f'<h2 id="upgrade">Upgrading from {esc(u.before.label)} to {esc(u.after.label)}</h2>'
    if u.nothing:
        return f'<p class="no-changes">{heading} nothing moved.</p>\n'
    rows = {r.id: r for r in grid.rows}
    items = [
        f'<li><a href="#{esc(_row_id(m.id))}"><code>{esc(m.id)}</code></a> '
        f"{symbol(m.before['verdict'])} {esc(m.before['verdict'])} → {symbol(m.after['verdict'])} "
        f"{esc(m.after['verdict'])}: {_prose(short_claim(rows[m.id]))}"
        + (f' <span class="change">({esc(u.where[m.id])})</span>' if u.where[m.id] else "")
        + "</li>"
        for m in u.moved
    ]
    items += [f"<li><code>{esc(r.id)}</code> only in {esc(u.after.label)}</li>" for r, _ in u.added]
    items += [f"<li><code>{esc(r.id)}</code> only in {esc(u.before.label)}</li>" for r, _ in u.dropped]
    count = f"{len(u.moved)} moved" + (f", {len(u.added) + len(u.dropped)} in one only" if u.added or u.dropped else "")
    # Unfolded while short: a longer list would push the table's newest columns below a phone's first screen.
    unfolded = " open" if len(items) <= UPGRADE_UNFOLDED_UP_TO else ""
    return (
        f'<details class="changes"{unfolded}><summary>{heading} <span class="count">({count})</span></summary>\n'
        f'<ul class="changes">\n{chr(10).join(items)}\n</ul>\n</details>\n'
    )


def _row(grid: Grid, r: Row) -> str:
    verdicts = " ".join(sorted({v for v in r.verdicts if v}))
    # "security" finds the rows marked so, as the legend says
    find = " ".join([r.id, r.area, area_heading(r.area), *(["security"] if r.security else [])]).lower()
    title = f"security: {r.security}"
    mark = f' <span class="security" role="img" aria-label="{esc(title)}">{SECURITY_MARK}</span>' if r.security else ""
    cells = "".join(_cell(grid, r.id, i, r.cells[i]) for i in grid.newest_first())
    change = f'<span class="change">{esc(r.words)}</span>' if r.words else ""
    return (
        f'<tr class="behaviour-row" data-id="{esc(r.id.lower())}" data-area="{esc(r.area.lower())}" '
        f'data-verdicts="{esc(verdicts)}" data-changed="{int(r.moved)}" data-find="{esc(find)}" '
        f'id="{esc(_row_id(r.id))}">'
        f'<td class="behaviour"><a class="id" href="{esc(behaviour_page(r.id))}"><code>{esc(r.id)}</code></a>{mark}'
        f'<details><summary class="short">{_prose(short_claim(r))}</summary>{_more(grid, r)}</details>'
        f"{change}</td>{cells}</tr>"
    )


def _more(grid: Grid, r: Row) -> str:
    """What a row unfolds to: the whole claim, its source and declaration, each sub-check
    (newest verdict, where it moved) and the row's notes, linked to the page's list."""
    parts = [
        f'<p class="claim">{_prose(r.claim)}</p>',
        *([f'<p class="security">{SECURITY_MARK} Security: {_prose(r.security)}</p>'] if r.security else []),
        f'<p class="source">{source_html(r.source, grid.project)} · '
        f'<a href="{esc(declaration(r.id, grid.project))}">declaration</a></p>',
    ]
    if r.checks:
        newest = grid.columns[max(i for i, c in enumerate(r.cells) if c)].label
        items = "".join(_sub_check(c) for c in r.checks)
        parts.append(f'<p>Sub-checks on {esc(newest)}:</p><ul class="checks">{items}</ul>')
    notes = grid.notes_of(r.id)
    if notes:
        items = "".join(
            f'<li><a href="#note-{n.number}">{n.number}</a> {esc(n.verdict)} on {esc(", ".join(n.versions))}: '
            f"{_prose(n.text)}</li>"
            for n in notes
        )
        parts.append(f'<ul class="row-notes">{items}</ul>')
    newest_cell = r.newest
    if newest_cell and newest_cell["note"] and not any(n.text == newest_cell["note"] for n in notes):
        parts.append(f'<p class="note">Note: {_prose(newest_cell["note"])}</p>')
    return f'<div class="more">{"".join(parts)}</div>'


def _sub_check(c: SubCheck) -> str:
    moved = f" — {esc(c.change)}" if c.change else ""
    return f"<li>{symbol(c.verdict)} <code>{esc(c.name)}</code> {esc(c.verdict)}{moved}</li>"


def _cell(grid: Grid, bid: str, i: int, cell: Mapping[str, Any] | None) -> str:
    version = grid.columns[i].label
    if cell is None:
        return f'<td class="v v-absent" title="not probed on {esc(version)}">{symbol(None)}</td>'
    verdict, ref = str(cell["verdict"]), grid.refs.get((bid, i))
    title = f"{verdict} on {version}" + (f": {cell['note']}" if cell["note"] else "")
    badge = f'<a class="fn" href="#note-{ref}" aria-label="note {ref}">{ref}</a>' if ref else ""
    return (
        f'<td class="v v-{esc(verdict)}" data-verdict="{esc(verdict)}" title="{esc(title)}">'
        f'<span role="img" aria-label="{esc(verdict)}">{symbol(verdict)}</span>{badge}</td>'
    )
