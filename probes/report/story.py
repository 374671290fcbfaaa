"""One behaviour's story in one place: what it claims, where the claim and its probe come
from, its verdict on every reported version, and what moved, with the exact releases.

Built once as data (`Story`) from the matrix's grid, and rendered as terminal text by
`sdkprobe show` and as a page of its own (reports/behaviours/<id>.html) beside the matrix,
so both say the same. The words of what moved are the grid's, never worded again here.
"""

from __future__ import annotations

import difflib
import textwrap
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from html import escape
from typing import Any

from sdkprobe.behaviour import HOLDS, VERDICTS
from sdkprobe.report.cells import area_heading, short_claim, source_label, source_link, text_table
from sdkprobe.report.declared import Declared
from sdkprobe.report.declared import find as find_declaration
from sdkprobe.report.errors import ReportError
from sdkprobe.report.grid import Grid, Row
from sdkprobe.report.sdks import PYTHON, SDKS, Sdk

PAGES = "behaviours"  # the folder of the pages, beside the matrix
# Said where the module would be named: a team's own behaviours are declared outside sdkprobe.
NOT_DECLARED = "in no module of sdkprobe's catalogue (a team's own, or no longer declared)"
WIDTH = 88  # of the terminal text: fixed, so the same story prints the same lines


@dataclass(frozen=True)
class Seen:
    """The behaviour on one reported version."""

    version: str
    cli: str
    verdict: str | None  # None: not in that version's report
    checks: Mapping[str, str]
    note: str
    ref: int | None = None  # the number of its note among the story's notes

    def checks_words(self) -> str:
        """The sub-checks' verdicts: 'all holds', or those that do not hold by verdict
        ('differs: a, b; others hold')."""
        by: dict[str, list[str]] = {}
        for name in sorted(self.checks):
            by.setdefault(self.checks[name], []).append(name)
        if len(by) == 1:
            return f"all {next(iter(by))}"
        order = [v for v in [*VERDICTS, *sorted(set(by) - set(VERDICTS))] if v in by and v != HOLDS]
        return "; ".join([*(f"{v}: {', '.join(by[v])}" for v in order), *(["others hold"] if HOLDS in by else [])])


@dataclass(frozen=True)
class StoryNote:
    """One note, with the versions it was seen on (a note seen on several is said once)."""

    number: int
    versions: tuple[str, ...]
    text: str


@dataclass(frozen=True)
class Story:
    id: str
    area: str
    tier: str
    claim: str
    summary: str  # the claim in one line, as the matrix shows it
    formerly: tuple[str, ...]  # the ids it was renamed from, which lists and reports may still use
    source: Mapping[str, Any]  # the newest report's source object
    checks: tuple[str, ...]  # every sub-check a report names, by name
    declared: Declared | None  # None: no module of probes/catalogue declares it
    seen: tuple[Seen, ...]  # oldest version first, as the matrix's columns
    notes: tuple[StoryNote, ...]  # numbered in the order first seen
    change: str  # the grid's words for the verdict, exact releases where the history has them
    check_change: str  # the grid's words for sub-checks that moved other than as the verdict did

    @property
    def link(self) -> str | None:
        """Where the source can be read: its https URL, else the project's page on it at the
        section's anchor (a path from the project's root), else None."""
        link = source_link(self.source, ".")
        return link.removeprefix("./") if link else None

    @property
    def moved(self) -> list[tuple[str, str]]:
        """(what, words) for the verdict and the sub-checks, each when it moved."""
        return [(what, words) for what, words in (("verdict", self.change), ("sub-checks", self.check_change)) if words]


def story(grid: Grid, row: Row) -> Story:
    present = [c for c in row.cells if c]
    numbers: dict[str, int] = {}
    versions: dict[str, list[str]] = {}
    seen = []
    for col, c in zip(grid.columns, row.cells, strict=True):
        note = str((c or {}).get("note") or "")
        if note:
            numbers.setdefault(note, len(numbers) + 1)
            versions.setdefault(note, []).append(col.label)
        checks = dict((c or {}).get("checks") or {})
        seen.append(Seen(col.sdk_version, col.cli_label, c["verdict"] if c else None, checks, note, numbers.get(note)))
    return Story(
        id=row.id,
        area=row.area,
        tier=str(present[-1]["tier"]),
        claim=row.claim,
        summary=short_claim(row),
        formerly=tuple(sorted(old for old, new in grid.renames.items() if new == row.id)),
        source=row.source,
        checks=tuple(sorted({name for c in present for name in c.get("checks") or {}})),
        declared=find_declaration(row.id),
        seen=tuple(seen),
        notes=tuple(StoryNote(n, tuple(versions[text]), text) for text, n in numbers.items()),
        change=row.change,
        check_change=row.check_change,
    )


def row_named(grid: Grid, bid: str, where: str) -> Row:
    """The grid's row of `bid`; ReportError naming the closest ids the reports in `where` have."""
    for row in grid.rows:
        if row.id == bid:
            return row
    close = difflib.get_close_matches(bid, [r.id for r in grid.rows], n=3, cutoff=0.6)
    hint = f"; did you mean {' or '.join(close)}?" if close else " (`sdkprobe list` names every behaviour)"
    raise ReportError(f"no behaviour {bid} in the reports in {where}{hint}")


# --- the terminal ------------------------------------------------------------------


def render_text(s: Story) -> str:
    def field(name: str, text: str) -> list[str]:
        label = f"{name}:" if name else ""  # "": a field's second line, under the one before
        return textwrap.wrap(text, WIDTH, initial_indent=f"{label:<12}", subsequent_indent=" " * 12) or [label]

    lines = [s.id, ""]
    lines += field("in short", s.summary)
    if s.formerly:
        lines += field("formerly", ", ".join(s.formerly))
    lines += field("area", f"{area_heading(s.area)} · tier {s.tier}")
    lines += field("claim", s.claim)
    lines += field("source", f"{source_label(s.source)} — {s.source['title']}")
    if s.link:
        lines += field("", s.link)
    lines += field("sub-checks", ", ".join(s.checks) or "none")
    lines += field("declared", s.declared.where if s.declared else NOT_DECLARED)
    rows = [[v.version, v.cli, v.verdict or "—", v.checks_words(), f"[{v.ref}]" if v.ref else ""] for v in s.seen]
    table = text_table(
        rows, ["version", "CLI", "verdict", "sub-checks", "note"], "simple", maxcolwidths=[None, None, None, 48, None]
    )
    lines += ["", f"On {len(s.seen)} reported versions:", "", *table.splitlines()]
    for n in s.notes:
        lines += [""] + textwrap.wrap(
            f"[{n.number}] on {', '.join(n.versions)}: {n.text}", WIDTH, subsequent_indent="    "
        )
    lines += ["", "What moved:" if s.moved else f"Nothing moved across these {len(s.seen)} versions."]
    for what, words in s.moved:
        lines += textwrap.wrap(words, WIDTH, initial_indent=f"  {what}: ", subsequent_indent="    ")
    return "\n".join(line.rstrip() for line in lines) + "\n"


# --- the page ----------------------------------------------------------------------

# The look of a page of prose and tables: a behaviour's, and the site's own pages.
PAGE_CSS = """
:root { --bg: #fff; --fg: #1b1f24; --muted: #57606a; --line: #d0d7de; --head: #f6f8fa;
  --holds: #eefbf1; --differs: #ffebe9; --error: #fff8c5; --mark: #0969da; --target: #fff8c5; }
@media (prefers-color-scheme: dark) { :root { --bg: #0d1117; --fg: #e6edf3; --muted: #8d96a0;
  --line: #30363d; --head: #161b22; --holds: #0f2a1a; --differs: #3d1d20; --error: #3b2e00;
  --mark: #4493f8; --target: #3b2e00; } }
* { box-sizing: border-box; }
body { margin: 0 auto; padding: 1rem; max-width: 70rem;
  font: 15px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; background: var(--bg); color: var(--fg); }
h1 { font-size: 1.3rem; margin: .5rem 0; overflow-wrap: anywhere; }
h2 { font-size: 1.05rem; margin: 1.2rem 0 .4rem; }
a { color: var(--mark); }
dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: .2rem .8rem; margin: .5rem 0; }
dl.facts dt { color: var(--muted); }
dl.facts dd { margin: 0; overflow-wrap: anywhere; }
.scroll { overflow-x: auto; border: 1px solid var(--line); border-radius: 6px; }
table { border-collapse: collapse; width: 100%; }
th, td { padding: .3rem .5rem; border-bottom: 1px solid var(--line); text-align: left; vertical-align: top; }
thead th { background: var(--head); white-space: nowrap; }
ol.notes { padding-left: 1.5rem; overflow-wrap: anywhere; }
ol.notes li:target { background: var(--target); }
td.v-holds { background: var(--holds); }
td.v-differs { background: var(--differs); }
td.v-error { background: var(--error); }
ul.moved li { margin: .2rem 0; }
pre.code { margin: 0; padding: .5rem 0; font-size: .85em; line-height: 1.4; overflow-x: auto; }
pre.code .line:target { background: var(--target); }
pre.code a.ln { display: inline-block; width: 4.5em; padding-right: 1em; text-align: right;
  color: var(--muted); text-decoration: none; user-select: none; }
p.muted { color: var(--muted); }
"""


def _e(text: object) -> str:
    return escape(str(text), quote=True)


def render_html(s: Story, project: str, matrix: str = "../compatibility.html", sdk: Sdk = SDKS[PYTHON]) -> str:
    """The story as one self-contained page; `project` is the project's root as a link from its folder,
    `sdk` the SDK whose matrix it is beside."""
    return f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{_e(s.id)} — {_e(sdk.package)} compatibility</title>
<style>{PAGE_CSS}</style>
</head>
<body>
<p><a href="{_e(matrix)}#row-{_e(s.id)}">{_e(sdk.package)} compatibility matrix</a></p>
<h1><code>{_e(s.id)}</code></h1>
{_facts(s, project)}
<h2>On {len(s.seen)} reported versions</h2>
{_versions(s)}
<h2>What moved</h2>
{_moved(s)}
<h2 id="declaration">Declaration</h2>
{_declaration(s, project)}
</body>
</html>
"""


def _facts(s: Story, project: str) -> str:
    link = source_link(s.source, project)
    source = f"{_e(source_label(s.source))} — {_e(s.source['title'])}"
    if link:
        source += f' (<a href="{_e(link)}">{_e(s.link)}</a>)'
    declared = (
        f'<a href="#L{s.declared.line}">{_e(s.declared.where)}</a> '
        f'(<a href="{_e(project)}/{_e(s.declared.relative)}#L{s.declared.line}">in the repository</a>)'
        if s.declared
        else NOT_DECLARED
    )
    facts = [
        ("in short", _e(s.summary)),
        *([("formerly", _e(", ".join(s.formerly)))] if s.formerly else []),
        ("area", _e(f"{area_heading(s.area)} · tier {s.tier}")),
        ("claim", _e(s.claim)),
        ("source", source),
        ("sub-checks", _e(", ".join(s.checks) or "none")),
        ("declared", declared),
    ]
    items = "\n".join(f"<dt>{name}</dt><dd>{value}</dd>" for name, value in facts)
    return f'<dl class="facts">\n{items}\n</dl>'


def _versions(s: Story, notes_id: str = "note") -> str:
    """The table of versions and its numbered notes (ids `<notes_id>-N`: one page may hold
    several SDKs' tables)."""
    rows = "\n".join(
        f"<tr><td>{_e(v.version)}</td><td>{_e(v.cli)}</td>"
        f'<td class="v-{_e(v.verdict or "absent")}">{_e(v.verdict or "—")}</td>'
        f"<td>{_e(v.checks_words())}</td><td>{_note_ref(v.ref, notes_id)}</td></tr>"
        for v in s.seen
    )
    head = "".join(f'<th scope="col">{h}</th>' for h in ("version", "CLI", "verdict", "sub-checks", "note"))
    notes = "\n".join(
        f'<li id="{notes_id}-{n.number}" value="{n.number}">on {_e(", ".join(n.versions))}: {_e(n.text)}</li>'
        for n in s.notes
    )
    table = f'<div class="scroll"><table>\n<thead><tr>{head}</tr></thead>\n<tbody>\n{rows}\n</tbody>\n</table></div>'
    return table + (f'\n<ol class="notes">\n{notes}\n</ol>' if notes else "")


def _note_ref(ref: int | None, notes_id: str) -> str:
    return f'<a href="#{notes_id}-{ref}">[{ref}]</a>' if ref else ""


def _moved(s: Story) -> str:
    if not s.moved:
        return f'<p class="muted">Nothing moved across these {len(s.seen)} versions.</p>'
    items = "\n".join(f"<li>{_e(what)}: {_e(words)}</li>" for what, words in s.moved)
    return f'<ul class="moved">\n{items}\n</ul>'


def _declaration(s: Story, project: str) -> str:
    if s.declared is None:
        return f'<p class="muted">Declared {_e(NOT_DECLARED)}.</p>'
    lines = "".join(
        f'<span class="line" id="L{n}"><a class="ln" href="#L{n}">{n}</a>{_e(text)}</span>\n'
        for n, text in s.declared.numbered()
    )
    return (
        f'<p class="muted">{_e(s.declared.relative)}, from line {s.declared.line}: '
        "the declaration up to the next one.</p>\n"
        f'<div class="scroll"><pre class="code"><code>{lines}</code></pre></div>'
    )


@dataclass(frozen=True)
class Part:
    """One SDK's story of a behaviour, as a section of the page that joins them (the site's)."""

    key: str  # the section's id: a link to the page can go straight to it
    title: str  # what the reports are of: "claude-agent-sdk", "claude-agent-sdk 0.2.189 on other CLIs"
    story: Story
    matrix: str  # the behaviour's row in that matrix, as a link from the page
    by_cli: bool = False  # its versions differ by CLI release, not SDK release (the CLI axis)


def render_joined_html(parts: Sequence[Part], project: str, top: str = "") -> str:
    """One behaviour's stories on every SDK as one page: what it claims and where it comes from
    (from the first part's newest report), then each part's versions and what moved there, then
    its declaration; `top`: HTML put first in the body."""
    first = parts[0].story
    sections = "\n".join(
        f'<h2 id="{_e(p.key)}">{_e(p.title)}: on {len(p.story.seen)} reported versions</h2>\n'
        f'<p><a href="{_e(p.matrix)}#row-{_e(first.id)}">its row in the {_e(p.title)} matrix</a></p>\n'
        f"{_versions(p.story, f'{p.key}-note')}\n<h3>What moved on {_e(p.title)}</h3>\n{_moved(p.story)}"
        for p in parts
    )
    newest = "".join(
        f'<li><a href="#{_e(p.key)}">{_e(p.title)}</a> {_e(v.cli if p.by_cli else v.version)}: {_e(v.verdict)}</li>'
        for p in parts
        for v in [next(v for v in reversed(p.story.seen) if v.verdict)]
    )
    return f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{_e(first.id)} — what holds on each SDK release</title>
<style>{PAGE_CSS}</style>
</head>
<body>
{top}<h1><code>{_e(first.id)}</code></h1>
<p>On the newest version of each:</p>
<ul class="newest">{newest}</ul>
{_facts(first, project)}
{sections}
<h2 id="declaration">Declaration</h2>
{_declaration(first, project)}
</body>
</html>
"""


def pages(grid: Grid) -> dict[str, str]:
    """Every row's page by file name (<id>.html), for the folder PAGES beside the matrix."""
    project = ".." if grid.project == "." else f"../{grid.project}"
    return {f"{row.id}.html": render_html(story(grid, row), project, sdk=grid.sdk) for row in grid.rows}
