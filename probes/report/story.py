"""One behaviour's story in one place: what it claims, where the claim and its probe come
from, its verdict on every reported version, and what moved, with the exact releases.

Built once as data (`Story`) from the matrix's grid, and rendered as terminal text by
`sdkprobe show` here and as a page of its own (reports/behaviours/<id>.html) beside the
matrix by html/story.py, so both say the same. The words of what moved are the grid's,
never worded again here.
"""

from __future__ import annotations

import difflib
import textwrap
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from sdkprobe.behaviour import HOLDS, VERDICTS
from sdkprobe.report.cells import area_heading, short_claim, source_label, source_link, text_table
from sdkprobe.report.declared import Declared, sub_checks
from sdkprobe.report.declared import find as find_declaration
from sdkprobe.report.errors import ReportError
from sdkprobe.report.grid import Grid, Row

PAGES = "behaviours"  # the folder of the pages, beside the matrix
# Said where the module would be named: a team's own behaviours are declared outside sdkprobe.
NOT_DECLARED = "in no module of the catalogues loaded (no longer declared, or a team's own: give --catalogue)"
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
        checks=_in_declared_order({name for c in present for name in c.get("checks") or {}}, sub_checks(row.id)),
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


def _in_declared_order(named: set[str], declared: tuple[str, ...]) -> tuple[str, ...]:
    """The sub-checks the reports name, those still declared in their declared order, then
    those no longer declared by name."""
    return tuple(n for n in declared if n in named) + tuple(sorted(named - set(declared)))
