"""What moved between two reported versions, the way a release note would say it.

Every behaviour whose verdict or a sub-check's differs between the two reports (as
report/comparison.py compares them: a sub-check only one report names moved too), with its
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
from sdkprobe.report.comparison import BehaviourChange, Comparison, compare_reports
from sdkprobe.report.errors import ReportError
from sdkprobe.report.grid import Column, Grid, Row, from_reports


@dataclass(frozen=True)
class Upgrade:
    """What moved from one column of a matrix to another: their reports' comparison
    (report/comparison.py), in the matrix's row order, with the grid's words of where each
    move lies."""

    before: Column
    after: Column
    comparison: Comparison
    rows: Mapping[str, Row]  # the grid's rows by id, in its order: each behaviour's claim
    where: Mapping[str, str]  # a moved id -> where it changed, naming releases the history found; "" adds nothing

    @property
    def moved(self) -> list[BehaviourChange]:
        return self._in_rows(self.comparison.moved)

    @property
    def seen_differently(self) -> list[BehaviourChange]:
        return self._in_rows(self.comparison.seen_differently)

    @property
    def added(self) -> list[tuple[Row, Mapping[str, Any]]]:
        """Only in B's report: the row and its entry there."""
        return [(self.rows[e["id"]], e) for e in sorted(self.comparison.added, key=lambda e: self._place(e["id"]))]

    @property
    def dropped(self) -> list[tuple[Row, Mapping[str, Any]]]:
        """Only in A's."""
        return [(self.rows[e["id"]], e) for e in sorted(self.comparison.removed, key=lambda e: self._place(e["id"]))]

    @property
    def nothing(self) -> bool:
        return not (self.moved or self.added or self.dropped)

    def _place(self, bid: str) -> int:
        return list(self.rows).index(bid)

    def _in_rows(self, changes: list[BehaviourChange]) -> list[BehaviourChange]:
        return sorted(changes, key=lambda c: self._place(c.id))


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
    words = {r.id: r.words for r in span.rows if r.exact or len(span.columns) > 2}
    comparison = compare_reports(grid.column_report(a), grid.column_report(b))
    where = {c.id: words.get(c.id, "") for c in comparison.moved}
    return Upgrade(grid.columns[a], grid.columns[b], comparison, {r.id: r for r in grid.rows}, where)


def _span(grid: Grid, first: int, last: int) -> Grid:
    """The grid of columns first..last alone, its words said across them (with the same history)."""
    return from_reports([grid.column_report(i) for i in range(first, last + 1)], grid.history)


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
        parts += [line for m in u.moved for line in _move(u, m, a, b)]
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


def _move(u: Upgrade, m: BehaviourChange, a: str, b: str) -> list[str]:
    claim = u.rows[m.id].claim
    head = f"- `{md(m.id)}`: {_verdict(m.before)} on {md(a)} → {_verdict(m.after)} on {md(b)}. {md(claim)}"
    lines = [head]
    if m.checks:
        moved = "; ".join(f"{md(c.name)} {md(c.before or '—')} → {md(c.after or '—')}" for c in m.checks)
        lines.append(f"  - sub-checks moved: {moved}")
    if u.where[m.id]:
        lines.append(f"  - changed: {md(u.where[m.id])}")
    notes = [(b, m.after.get("note") or ""), (a, m.before.get("note") or "")]
    if notes[0][1] and notes[0][1] == notes[1][1]:
        lines.append(f"  - seen on both: {md(notes[0][1])}")
    else:
        lines += [f"  - seen on {md(v)}: {md(note)}" for v, note in notes if note]
    return lines
