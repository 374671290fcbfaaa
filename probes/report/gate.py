"""The upgrade gate: what moved between a baseline report and a candidate report.

What moved is report/comparison.py's, the rule the upgrade view and the SDK-differences
page follow too. A changed verdict (of the behaviour or of one of its named sub-checks, a
sub-check only one report names included) fails the gate; with a relied-on list, only
changes to those ids fail. A changed observation under an unchanged verdict is a note,
failing only with strict. Behaviours present in one report only are listed and never fail:
that is the catalogue changing, not the SDK. A behaviour renamed since a report was written
(its declaration's renamed_from) is one behaviour: an entry under its old id is compared
with the current id's, and the output says it was renamed.

When both reports record their version's surface (the SDK's public items), the items the
candidate adds or removes are notes, each saying which behaviours cover it: a new option no
behaviour covers is a contract the gate cannot watch yet, said rather than passed in
silence. A note never fails the gate.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sdkprobe.report.cells import md, symbol, text_table
from sdkprobe.report.comparison import BehaviourChange, compare_reports
from sdkprobe.report.diff import in_short
from sdkprobe.report.errors import ReportError
from sdkprobe.report.store import renamed, renamed_in

VERDICT, OBSERVATION, ADDED, REMOVED = "verdict", "observation", "added", "removed"
_ORDER = {VERDICT: 0, OBSERVATION: 1, ADDED: 2, REMOVED: 3}
_ID = re.compile(r"^\S+$")


@dataclass(frozen=True)
class GateRow:
    id: str
    baseline: str  # the verdict, or "" when absent
    candidate: str
    moved: str
    kind: str  # verdict | observation | added | removed
    failing: bool
    relied_on: bool = False
    renamed_from: str = ""  # the old id a report named it by, "" when neither did
    security: str = ""  # what a change of this contract exposes, when its declaration marks it


@dataclass(frozen=True)
class SurfaceNote:
    """A public item one report's version has and the other's lacks, with what covers it."""

    item: str  # kind:name
    added: bool  # True: the candidate adds it; False: the candidate removes it
    covered_by: tuple[str, ...]  # ids of the behaviours covering it, per the catalogue given

    def line(self, baseline: str, candidate: str) -> str:
        """'0.2.190 adds option:foo: no behaviour covers it', or which do."""
        none = "no behaviour covers it" if self.added else "no behaviour covered it"
        cover = f"covered by {', '.join(self.covered_by)}" if self.covered_by else none
        if self.added:
            return f"{candidate} adds {self.item}: {cover}"
        return f"{candidate} removes {self.item} (in {baseline}): {cover}"


@dataclass
class GateResult:
    baseline_version: str
    candidate_version: str
    rows: list[GateRow] = field(default_factory=list)
    strict: bool = False
    relied_on: set[str] | None = None
    renamed: dict[str, str] = field(default_factory=dict)  # old id -> current id, as a report named it
    surface: list[SurfaceNote] = field(default_factory=list)
    surface_unknown: str = ""  # why the surfaces were not compared, when only one report records one

    @property
    def failing(self) -> list[GateRow]:
        return [r for r in self.rows if r.failing]

    @property
    def exit_code(self) -> int:
        return 1 if self.failing else 0

    def table(self) -> str:
        """behaviour | baseline | candidate | what moved, failing rows marked ✗."""
        rows = [
            [
                ("✗ " if r.failing else "")
                + md(r.id)
                + (f" (renamed from {md(r.renamed_from)})" if r.renamed_from else "")
                + (" (relied on)" if r.relied_on else "")
                + (" (security)" if r.security else ""),
                _verdict(r.baseline),
                _verdict(r.candidate),
                md(r.moved),
            ]
            for r in self.rows
        ]
        headers = [
            "behaviour",
            f"baseline {md(self.baseline_version)}",
            f"candidate {md(self.candidate_version)}",
            "what moved",
        ]
        return text_table(rows, headers)

    def summary(self) -> str:
        kinds = {k: sum(r.kind == k for r in self.rows) for k in _ORDER}
        scope = "" if self.relied_on is None else f", {len(self.relied_on)} relied on"
        head = (
            f"{self.baseline_version} → {self.candidate_version}: {kinds[VERDICT]} verdict change(s), "
            f"{kinds[OBSERVATION]} observation change(s){' (strict)' if self.strict else ''}, "
            f"{kinds[ADDED]} added, {kinds[REMOVED]} removed{scope}."
        )
        tail = f"FAIL: {len(self.failing)} change(s) fail the gate." if self.failing else "PASS."
        return f"{head} {tail}"

    def security_notes(self) -> str:
        """For each failing change of a contract marked security-relevant, what it exposes:
        such a change is read first, never as a cosmetic one."""
        return "".join(f"security: {r.id}: {r.security}\n" for r in self.failing if r.security)

    def renames(self) -> str:
        """One line per id a report named by an old id: it was compared as the current one."""
        return "".join(
            f"{old} was renamed {new}: compared as one behaviour.\n" for old, new in sorted(self.renamed.items())
        )

    def surface_notes(self) -> str:
        """One line per public item added or removed (a note, never failing), or why the
        surfaces could not be compared; empty when there is nothing to say."""
        lines = [n.line(self.baseline_version, self.candidate_version) for n in self.surface]
        if self.surface_unknown:
            lines.append(self.surface_unknown)
        return "".join(f"note: {line}\n" for line in lines)

    def render(self) -> str:
        notes = self.surface_notes()
        if not self.rows:
            return (
                f"Nothing moved between {self.baseline_version} and {self.candidate_version}. PASS.\n"
                + self.renames()
                + (f"\n{notes}" if notes else "")
            )
        security = self.security_notes()
        return (
            f"{self.table()}\n\n{self.summary()}\n"
            + (f"\n{security}" if security else "")
            + (f"\n{self.renames()}" if self.renamed else "")
            + (f"\n{notes}" if notes else "")
        )


def _verdict(v: str) -> str:
    return f"{symbol(v)} {v}" if v else symbol(None)


def compare(
    baseline: dict[str, Any],
    candidate: dict[str, Any],
    relied_on: set[str] | None = None,
    strict: bool = False,
    renames: Mapping[str, str] | None = None,
    coverage: Mapping[str, Sequence[str]] | None = None,
) -> GateResult:
    """Compare two loaded reports; ReportError on different schema versions or unknown relied-on ids.

    `renames` (old id -> current id, the catalogue's) matches an entry under an old id, in
    either report or the relied-on ids, with the current id's. `coverage` (surface item ->
    ids of the behaviours covering it, the catalogue's) says for each item a version added
    or removed what covers it."""
    if baseline.get("schema") != candidate.get("schema"):
        raise ReportError(
            f"cannot compare schema version {baseline.get('schema')!r} (baseline) "
            f"with {candidate.get('schema')!r} (candidate)"
        )
    renames = renames or {}
    was = {**renamed_in(baseline, renames), **renamed_in(candidate, renames)}
    old, new = renamed(baseline, renames), renamed(candidate, renames)
    if relied_on is not None:
        relied_on = {renames.get(i, i) for i in relied_on}
        unknown = sorted(relied_on - {b["id"] for r in (old, new) for b in r["behaviours"]})
        if unknown:
            raise ReportError(f"relied-on id(s) in neither report: {', '.join(unknown)}")
    result = GateResult(_label(baseline), _label(candidate), strict=strict, relied_on=relied_on, renamed=was)
    before = {new_id: old_id for old_id, new_id in was.items()}
    moves = compare_reports(old, new)
    rows = [_row(c, relied_on, strict) for c in moves.changes]
    rows += [_one_side(e, ADDED, relied_on) for e in moves.added]
    rows += [_one_side(e, REMOVED, relied_on) for e in moves.removed]
    result.rows = sorted(
        (dataclasses.replace(r, renamed_from=before.get(r.id, "")) for r in rows),
        key=lambda r: (not r.failing, _ORDER[r.kind], r.id),
    )
    covering = coverage or {}
    result.surface = [SurfaceNote(i, True, tuple(covering.get(i, ()))) for i in moves.surface_added]
    result.surface += [SurfaceNote(i, False, tuple(covering.get(i, ()))) for i in moves.surface_removed]
    if len(moves.surface_lacking) == 1:  # neither recording one: two old reports, nothing to say
        result.surface_unknown = (
            f"public surface not compared: the report of {moves.surface_lacking[0]} records none "
            "(written before reports did)"
        )
    return result


def _label(report: Mapping[str, Any]) -> str:
    """How the gate names a report's run: its SDK version, and the CLI when it is not the one
    that release bundles (`0.2.189 + CLI 2.1.336`), so a CLI upgrade never reads as the SDK's."""
    if report.get("cli", "bundled") == "bundled":
        return str(report["sdk_version"])
    return f"{report['sdk_version']} + CLI {report.get('cli_version') or 'unknown'}"


def _one_side(entry: Mapping[str, Any], kind: str, relied_on: set[str] | None) -> GateRow:
    """A behaviour one report has: listed, never failing (the catalogue changed, not the SDK)."""
    added = kind == ADDED
    text = "new behaviour, not in the baseline" if added else "not probed in the candidate"
    verdict = str(entry["verdict"])
    return GateRow(
        entry["id"],
        "" if added else verdict,
        verdict if added else "",
        text,
        kind,
        False,
        relied_on is not None and entry["id"] in relied_on,
        security=str(entry.get("security") or ""),
    )


def _row(c: BehaviourChange, relied_on: set[str] | None, strict: bool) -> GateRow:
    """A behaviour both have: a verdict or sub-check move fails (relied-on ones only, with a
    list); an observation change is a note, failing only with strict."""
    counts = relied_on is None or c.id in relied_on
    tagged = relied_on is not None and c.id in relied_on
    a, b = c.before, c.after
    if c.moved:
        moved = []
        if c.verdict_moved:
            moved.append(f"verdict {a['verdict']} → {b['verdict']}" + (f": {b['note']}" if b["note"] else ""))
        if c.checks:
            checks = ", ".join(f"{m.name} {m.before or 'absent'} → {m.after or 'absent'}" for m in c.checks)
            moved.append(f"sub-checks {checks}")
        return GateRow(c.id, a["verdict"], b["verdict"], "; ".join(moved), VERDICT, counts, tagged, security=c.security)
    seen = []
    if c.note_moved:
        seen.append(f"note {c.notes[0]!r} → {c.notes[1]!r}")
    found = c.seen()
    if found:
        seen.append(in_short(found))
    return GateRow(
        c.id, a["verdict"], b["verdict"], "; ".join(seen), OBSERVATION, strict and counts, tagged, security=c.security
    )


def read_relied_on(path: Path) -> set[str]:
    """Behaviour ids, one a line; '#' starts a comment; blank lines are ignored."""
    path = Path(path)
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except FileNotFoundError:
        raise ReportError(f"{path}: no such relied-on file") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ReportError(f"{path}: cannot read: {exc}") from None
    ids: set[str] = set()
    for n, line in enumerate(lines, 1):
        text = line.split("#", 1)[0].strip()
        if not text:
            continue
        if not _ID.match(text):
            raise ReportError(f"{path}:{n}: one behaviour id a line, got {text!r}")
        ids.add(text)
    return ids
