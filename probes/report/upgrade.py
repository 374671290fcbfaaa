"""What moved between two reported versions, the way a release note would say it.

Every behaviour whose verdict or a sub-check's differs between the two reports, with its
claim, both verdicts, the sub-checks that moved, what was seen on each, and, where the
history file knows, the exact releases where it changed; then the behaviours only one of
the two reports has. Printed by `sdkprobe report --from A --to B` and appended to
COMPATIBILITY.md for the two newest versions. The words of where it changed are the
grid's, for the columns from A to B only.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from sdkprobe.report.cells import md, symbol
from sdkprobe.report.errors import ReportError
from sdkprobe.report.grid import Column, Grid, Row, from_reports


@dataclass(frozen=True)
class Move:
    id: str
    claim: str
    before: Mapping[str, Any]  # the behaviour's entry in A's report
    after: Mapping[str, Any]  # and in B's
    checks: tuple[tuple[str, str | None, str | None], ...]  # each sub-check that moved: (name, on A, on B)
    where: str  # where it changed, naming releases the history found; "" when that adds nothing


@dataclass(frozen=True)
class Upgrade:
    before: Column
    after: Column
    moved: tuple[Move, ...]
    added: tuple[tuple[Row, Mapping[str, Any]], ...]  # only in B's report: the row and its entry there
    dropped: tuple[tuple[Row, Mapping[str, Any]], ...]  # only in A's

    @property
    def nothing(self) -> bool:
        return not (self.moved or self.added or self.dropped)


def stem(c: Column) -> str:
    """A column as its report's file is named (0.2.189, or 0.2.189+cli-2.1.321): how a user names it."""
    return c.sdk_version if c.cli == "bundled" else f"{c.sdk_version}+cli-{c.cli_version or 'unknown'}"


def column_named(grid: Grid, name: str, where: str) -> int:
    """The index of the column whose report is `name`; ReportError naming those the folder `where` has."""
    stems = [stem(c) for c in grid.columns]
    if name not in stems:
        raise ReportError(f"no report of {name} in {where}; it has {', '.join(stems)}")
    return stems.index(name)


def between(grid: Grid, a: int, b: int) -> Upgrade:
    """What moved from column a to column b (either may be the older)."""
    span = _span(grid, min(a, b), max(a, b))
    words = {r.id: r for r in span.rows}
    moved, added, dropped = [], [], []
    for row in grid.rows:
        before, after = row.cells[a], row.cells[b]
        if before is None and after is not None:
            added.append((row, after))
        elif before is not None and after is None:
            dropped.append((row, before))
        elif before is not None and after is not None:
            checks = _moved_checks(before, after)
            if before["verdict"] != after["verdict"] or checks:
                spanned = words[row.id]
                where = spanned.words if spanned.exact or len(span.columns) > 2 else ""
                moved.append(Move(row.id, row.claim, before, after, checks, where))
    return Upgrade(grid.columns[a], grid.columns[b], tuple(moved), tuple(added), tuple(dropped))


def _moved_checks(
    before: Mapping[str, Any], after: Mapping[str, Any]
) -> tuple[tuple[str, str | None, str | None], ...]:
    ca, cb = before.get("checks") or {}, after.get("checks") or {}
    return tuple((n, ca.get(n), cb.get(n)) for n in sorted(set(ca) | set(cb)) if ca.get(n) != cb.get(n))


def _span(grid: Grid, first: int, last: int) -> Grid:
    """The grid of columns first..last alone, its words said across them (with the same history)."""
    reports = [
        {
            "sdk_version": c.sdk_version,
            "cli_version": c.cli_version,
            "cli": c.cli,
            "behaviours": [r.cells[i] for r in grid.rows if r.cells[i] is not None],
        }
        for i, c in enumerate(grid.columns[first : last + 1], start=first)
    ]
    return from_reports(reports, grid.history)


# --- Markdown ----------------------------------------------------------------------


def newest_section(grid: Grid) -> list[str]:
    """The matrix's closing lines: 'Upgrading from <second-newest> to <newest>' (none for one column)."""
    n = len(grid.columns)
    return ["", render_markdown(between(grid, n - 2, n - 1)).rstrip("\n")] if n > 1 else []


def render_markdown(u: Upgrade, level: int = 2) -> str:
    """A section headed at `level`: a list of what moved, then what is in one report only."""
    a, b = u.before.label, u.after.label
    sub = "#" * (level + 1)
    parts = [f"{'#' * level} Upgrading from {md(a)} to {md(b)}", ""]
    if u.nothing:
        return "\n".join([*parts, f"Nothing moved between {md(a)} and {md(b)}."]) + "\n"
    parts.append(_summary(u))
    if u.moved:
        parts += ["", f"{sub} What moved", ""]
        parts += [line for m in u.moved for line in _move(m, a, b)]
    for title, rows in ((f"New in {b}", u.added), (f"Gone in {b} (only in {a})", u.dropped)):
        if rows:
            parts += ["", f"{sub} {md(title)}", ""]
            parts += [f"- `{md(r.id)}` ({_verdict(e)}): {md(r.claim)}" for r, e in rows]
    return "\n".join(parts) + "\n"


def _summary(u: Upgrade) -> str:
    said = [
        f"{len(u.moved)} {'behaviour' if len(u.moved) == 1 else 'behaviours'} moved",
        f"{len(u.added)} only in {u.after.label}" if u.added else "",
        f"{len(u.dropped)} only in {u.before.label}" if u.dropped else "",
    ]
    return md(", ".join(s for s in said if s) + ".")


def _verdict(entry: Mapping[str, Any]) -> str:
    return f"{symbol(entry['verdict'])} {md(entry['verdict'])}"


def _move(m: Move, a: str, b: str) -> list[str]:
    head = f"- `{md(m.id)}`: {_verdict(m.before)} on {md(a)} → {_verdict(m.after)} on {md(b)}. {md(m.claim)}"
    lines = [head]
    if m.checks:
        moved = "; ".join(f"{md(n)} {md(x or '—')} → {md(y or '—')}" for n, x, y in m.checks)
        lines.append(f"  - sub-checks moved: {moved}")
    if m.where:
        lines.append(f"  - changed: {md(m.where)}")
    notes = [(b, m.after.get("note") or ""), (a, m.before.get("note") or "")]
    if notes[0][1] and notes[0][1] == notes[1][1]:
        lines.append(f"  - seen on both: {md(notes[0][1])}")
    else:
        lines += [f"  - seen on {md(v)}: {md(note)}" for v, note in notes if note]
    return lines
