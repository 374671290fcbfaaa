"""A behaviour's story as a page: behaviours/<id>.html beside each matrix (`sdkprobe report`),
and the site's page joining its stories on every SDK (`sdkprobe site`). The story itself, the
same one `sdkprobe show` prints, is report/story.py's.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from sdkprobe.report.cells import area_heading, source_label, source_link
from sdkprobe.report.grid import Grid
from sdkprobe.report.html.page import esc, page
from sdkprobe.report.sdks import PYTHON, SDKS, Sdk
from sdkprobe.report.story import NOT_DECLARED, Story, story


def render_html(s: Story, project: str, matrix: str = "../compatibility.html", sdk: Sdk = SDKS[PYTHON]) -> str:
    """The story as one self-contained page; `project` is the project's root as a link from its folder,
    `sdk` the SDK whose matrix it is beside."""
    body = f"""<p><a href="{esc(matrix)}#row-{esc(s.id)}">{esc(sdk.package)} compatibility matrix</a></p>
<h1><code>{esc(s.id)}</code></h1>
{_facts(s, project)}
<h2>On {len(s.seen)} reported versions</h2>
{_versions(s)}
<h2>What moved</h2>
{_moved(s)}
<h2 id="declaration">Declaration</h2>
{_declaration(s, project)}"""
    return page(f"{s.id} — {sdk.package} compatibility", body)


def _facts(s: Story, project: str) -> str:
    link = source_link(s.source, project)
    source = f"{esc(source_label(s.source))} — {esc(s.source['title'])}"
    if link:
        source += f' (<a href="{esc(link)}">{esc(s.link)}</a>)'
    declared = (
        f'<a href="#L{s.declared.line}">{esc(s.declared.where)}</a>'
        + (
            f' (<a href="{esc(project)}/{esc(s.declared.relative)}#L{s.declared.line}">in the repository</a>)'
            if s.declared.in_project
            else ""
        )
        if s.declared
        else NOT_DECLARED
    )
    facts = [
        ("in short", esc(s.summary)),
        *([("formerly", esc(", ".join(s.formerly)))] if s.formerly else []),
        ("area", esc(f"{area_heading(s.area)} · tier {s.tier}")),
        ("claim", esc(s.claim)),
        ("source", source),
        ("sub-checks", esc(", ".join(s.checks) or "none")),
        ("declared", declared),
    ]
    items = "\n".join(f"<dt>{name}</dt><dd>{value}</dd>" for name, value in facts)
    return f'<dl class="facts">\n{items}\n</dl>'


def _versions(s: Story, notes_id: str = "note") -> str:
    """The table of versions and its numbered notes (ids `<notes_id>-N`: one page may hold
    several SDKs' tables)."""
    rows = "\n".join(
        f"<tr><td>{esc(v.version)}</td><td>{esc(v.cli)}</td>"
        f'<td class="v-{esc(v.verdict or "absent")}">{esc(v.verdict or "—")}</td>'
        f"<td>{esc(v.checks_words())}</td><td>{_note_ref(v.ref, notes_id)}</td></tr>"
        for v in s.seen
    )
    head = "".join(f'<th scope="col">{h}</th>' for h in ("version", "CLI", "verdict", "sub-checks", "note"))
    notes = "\n".join(
        f'<li id="{notes_id}-{n.number}" value="{n.number}">on {esc(", ".join(n.versions))}: {esc(n.text)}</li>'
        for n in s.notes
    )
    table = f'<div class="scroll"><table>\n<thead><tr>{head}</tr></thead>\n<tbody>\n{rows}\n</tbody>\n</table></div>'
    return table + (f'\n<ol class="notes">\n{notes}\n</ol>' if notes else "")


def _note_ref(ref: int | None, notes_id: str) -> str:
    return f'<a href="#{notes_id}-{ref}">[{ref}]</a>' if ref else ""


def _moved(s: Story) -> str:
    if not s.moved:
        return f'<p class="muted">Nothing moved across these {len(s.seen)} versions.</p>'
    items = "\n".join(f"<li>{esc(what)}: {esc(words)}</li>" for what, words in s.moved)
    return f'<ul class="moved">\n{items}\n</ul>'


def _declaration(s: Story, project: str) -> str:
    if s.declared is None:
        return f'<p class="muted">Declared {esc(NOT_DECLARED)}.</p>'
    lines = "".join(
        f'<span class="line" id="L{n}"><a class="ln" href="#L{n}">{n}</a>{esc(text)}</span>\n'
        for n, text in s.declared.numbered()
    )
    return (
        f'<p class="muted">{esc(s.declared.relative)}, from line {s.declared.line}: '
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
        f'<h2 id="{esc(p.key)}">{esc(p.title)}: on {len(p.story.seen)} reported versions</h2>\n'
        f'<p><a href="{esc(p.matrix)}#row-{esc(first.id)}">its row in the {esc(p.title)} matrix</a></p>\n'
        f"{_versions(p.story, f'{p.key}-note')}\n<h3>What moved on {esc(p.title)}</h3>\n{_moved(p.story)}"
        for p in parts
    )
    newest = "".join(
        f'<li><a href="#{esc(p.key)}">{esc(p.title)}</a> {esc(v.cli if p.by_cli else v.version)}: {esc(v.verdict)}</li>'
        for p in parts
        for v in [next(v for v in reversed(p.story.seen) if v.verdict)]
    )
    body = f"""<h1><code>{esc(first.id)}</code></h1>
<p>On the newest version of each:</p>
<ul class="newest">{newest}</ul>
{_facts(first, project)}
{sections}
<h2 id="declaration">Declaration</h2>
{_declaration(first, project)}"""
    return page(f"{first.id} — what holds on each SDK release", body, top=top)


def pages(grid: Grid) -> dict[str, str]:
    """Every row's page by file name (<id>.html), for the folder PAGES beside the matrix."""
    project = ".." if grid.project == "." else f"../{grid.project}"
    return {f"{row.id}.html": render_html(story(grid, row), project, sdk=grid.sdk) for row in grid.rows}
