"""The history file: where, between two neighbouring listed versions, a behaviour's verdict
or one of its sub-checks moved.

The matrix shows a handful of chosen versions; this file narrows each change between two of
them to the exact pair of releases (found by bisecting, see probes/releases/refresh.py). A verdict
that reads the same on both neighbours may still have moved and moved back between them:
wherever a sub-check moved between two neighbours, the verdict and every sub-check are
followed there, and each one's changes are recorded. It lives in
`reports/history/`, not beside the `<version>.json` reports, because everything that globs
`reports/*.json` reads each file there as a version's report. Reading and writing only:
nothing here installs or probes, so rendering the matrix from it stays pure.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sdkprobe.behaviour import DIFFERS, HOLDS, NOT_APPLICABLE
from sdkprobe.releases.versions import version_key
from sdkprobe.report.errors import ReportError
from sdkprobe.report.files import write_atomic

HISTORY_PATH = Path("history") / "history.json"  # inside a reports folder
# 2: an entry is the changes of one key (the verdict, or the sub-check `check` names), and its
# neighbours may give that key the same value (it moved and moved back). In schema 1 `check`
# named the sub-check followed to place the verdict's change; read as the verdict's entry.
SCHEMA = 2
READS = (1, 2)
# Verdicts a change can join: error and needs-live say nothing about the SDK, so no bisect follows them.
JUDGED = (HOLDS, DIFFERS, NOT_APPLICABLE)
METHODS = ("bisect", "scan")
# Said above the matrix when a row's words name releases from this file rather than columns.
EXACT_NOTE = (
    "Where a change names releases that are not columns, they are the pair it lies between among "
    f"every release on PyPI, found by bisecting ({HISTORY_PATH.as_posix()}, written by `sdkprobe history`)."
)
# The same above a CLI axis's matrix, whose history names CLI releases.
EXACT_NOTE_CLI = (
    "Where a change names CLI releases that are not columns, they are the pair it lies between among "
    "every release of the CLI on npm, under the same SDK, found by bisecting "
    f"({HISTORY_PATH.as_posix()}, written by `sdkprobe history --axis cli`)."
)


@dataclass(frozen=True)
class Step:
    """One key of a behaviour (its verdict, or the sub-check `check` names) between two
    neighbouring listed versions where the verdict or some sub-check moved.

    `verdicts` are the key's values on the two neighbours. They differ when this key moved;
    they are equal when another key of the same pair moved, and this one may have moved and
    moved back in between (a sub-check that moved is where the verdict may move).
    """

    id: str
    before: str
    after: str
    verdicts: tuple[str, str]
    check: str | None = None

    @property
    def moves(self) -> bool:
        """Whether the neighbours give this key different values (then a change must be found)."""
        return self.verdicts[0] != self.verdicts[1]

    @property
    def gap(self) -> tuple[str, str, str]:
        """The behaviour and neighbours: every key of one gap is searched together."""
        return (self.id, self.before, self.after)

    @property
    def key_words(self) -> str:
        return "verdict" if self.check is None else f"sub-check {self.check}"


@dataclass(frozen=True)
class Side:
    """One release of the pair found, as probed there (or as its report says, for a listed one).

    `verdict` is the value of the entry's key there: the verdict, or its sub-check's verdict."""

    version: str
    verdict: str
    note: str = ""
    yanked: bool = False

    @property
    def words(self) -> str:
        return f"{self.version} (yanked)" if self.yanked else self.version


@dataclass(frozen=True)
class Entry:
    """The pairs of releases a step's key changes between, and how they were found.

    When the key moved more than once between the two neighbours (not-applicable, then
    differs, then holds; or differs, holds, differs again), `before`/`after` is the first
    change and `later` the others, in order, the last ending on the after-neighbour's value.
    `inside` holds every release probed strictly between the first change's before-release
    and the last change's after-release, as (version, the key's value or why skipped): for one
    change found by bisecting, those that gave no verdict (the change may lie at any of them).
    `found_by` and `probe_runs` are those of the search of the whole gap, which every key of
    the step's neighbours shares.
    """

    step: Step
    before: Side
    after: Side
    found_by: str
    probe_runs: int
    inside: tuple[tuple[str, str], ...] = ()
    moved: tuple[str, ...] = ()
    later: tuple[tuple[Side, Side], ...] = ()

    @property
    def pairs(self) -> tuple[tuple[Side, Side], ...]:
        return ((self.before, self.after), *self.later)

    @property
    def last(self) -> Side:
        """The release from which on the after-neighbour's verdict holds."""
        return self.pairs[-1][1]

    def middle(self) -> tuple[tuple[str, str, str], ...]:
        """The verdicts between the changes, as (verdict, first release, last release)."""
        ps = self.pairs
        return tuple((a[1].verdict, a[1].words, b[0].words) for a, b in zip(ps, ps[1:], strict=False))

    @property
    def complete(self) -> bool:
        """Whether the changes found start and end on the neighbours' verdicts (an entry
        written before chains were followed may hold only the first of two)."""
        return (self.before.verdict, self.last.verdict) == self.step.verdicts

    def applies(self, value_of: Mapping[str, str | None]) -> bool:
        """Whether the entry still explains the reports: both neighbours give its key the values
        it was found for (`value_of`: version -> that key's value), and it is complete (so its
        words are true)."""
        want = self.step.verdicts
        return (value_of.get(self.step.before), value_of.get(self.step.after)) == want and self.complete


@dataclass(frozen=True)
class History:
    listed: tuple[str, ...]  # the listed versions with a report when it was refreshed
    entries: tuple[Entry, ...]
    # The CLI axis: the versions are CLI releases, run under this SDK; None: SDK releases.
    under_sdk: str | None = None

    def for_id(self, behaviour_id: str) -> list[Entry]:
        return [e for e in self.entries if e.step.id == behaviour_id]

    def renamed(self, renames: Mapping[str, str]) -> History:
        """This history with every entry of an old id (old -> current in `renames`) under its
        current id; where both ids have an entry of one step, the current id's is kept."""
        if not any(e.step.id in renames for e in self.entries):
            return self
        kept: dict[tuple[str, str, str, str | None], Entry] = {}
        for e in sorted(self.entries, key=lambda e: e.step.id in renames):  # current ids first
            step = dataclasses.replace(e.step, id=renames.get(e.step.id, e.step.id))
            kept.setdefault((step.id, step.before, step.after, step.check), dataclasses.replace(e, step=step))
        return dataclasses.replace(self, entries=tuple(kept.values()))


def steps(reports: Iterable[Mapping[str, Any]], listed: Sequence[str]) -> list[Step]:
    """Every key of every gap between neighbouring listed versions, from their bundled-CLI reports.

    A gap is two neighbours where the verdict or a sub-check both have moved, between judged
    values; its steps are the verdict and each sub-check both have, when judged on both (in that
    order: verdict first, sub-checks by name), moved or not. A version whose report lacks the
    behaviour is passed over, as the matrix passes over its blank cell.
    """
    bundled = {r["sdk_version"]: r for r in reports if r.get("cli") == "bundled"}
    return steps_across({v: r for v, r in bundled.items() if v in listed})


def steps_across(by_version: Mapping[str, Mapping[str, Any]]) -> list[Step]:
    """The steps of `steps` between neighbouring versions of any axis (version -> its report,
    ordered by version): SDK releases with their bundled CLI, or CLI releases under one SDK."""
    versions = sorted(by_version, key=version_key)
    entries = [{b["id"]: b for b in by_version[v]["behaviours"]} for v in versions]
    ids = sorted({i for e in entries for i in e})
    out = []
    for bid in ids:
        present = [(v, e[bid]) for v, e in zip(versions, entries, strict=True) if bid in e]
        for (va, a), (vb, b) in zip(present, present[1:], strict=False):
            gap = [Step(bid, va, vb, (x, y), check) for check, x, y in _keys(a, b) if x in JUDGED and y in JUDGED]
            if any(s.moves for s in gap):
                out += gap
    return out


def _keys(a: Mapping[str, Any], b: Mapping[str, Any]) -> list[tuple[str | None, str, str]]:
    """(key, value on a, value on b): the verdict, then each sub-check both entries have."""
    ca, cb = a.get("checks") or {}, b.get("checks") or {}
    return [(None, a["verdict"], b["verdict"])] + [(n, ca[n], cb[n]) for n in sorted(set(ca) & set(cb))]


def listed_with_reports(reports: Iterable[Mapping[str, Any]], listed: Sequence[str]) -> tuple[str, ...]:
    have = {r["sdk_version"] for r in reports if r.get("cli") == "bundled"}
    return tuple(v for v in listed if v in have)


# --- the file --------------------------------------------------------------------


def to_json(history: History) -> dict[str, Any]:
    entries = sorted(history.entries, key=lambda e: (e.step.id, version_key(e.step.before), e.step.check or ""))
    versions = (
        "listed versions"
        if history.under_sdk is None
        else f"columns of the CLI axis (every version here is a Claude Code CLI release, run under "
        f"claude-agent-sdk {history.under_sdk})"
    )
    return {
        "schema": SCHEMA,
        "about": "for each change of a verdict (check null) or a sub-check (check names it) between "
        f"neighbouring {versions}, the pairs of releases it lies between (a value that moved and "
        "moved back has equal neighbour_verdicts); written by `sdkprobe history"
        + ("`" if history.under_sdk is None else " --axis cli`"),
        "computed_against": list(history.listed),
        "entries": [_entry_json(e) for e in entries],
    }


def dumps(history: History) -> str:
    """Canonical text: the same facts give the same bytes, so a refresh is a plain diff."""
    return json.dumps(to_json(history), sort_keys=True, indent=2, ensure_ascii=False) + "\n"


def write(history: History, path: Path) -> None:
    """The history file, whole or not at all (ReportError, one line, when it cannot be written)."""
    write_atomic(path, dumps(history).encode("utf-8"))


def load(path: Path) -> History | None:
    """The history at path, None when there is none; ReportError (one line) when it is malformed."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except FileNotFoundError:
        return None
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        raise ReportError(f"{path}: cannot read the history: {exc}") from None
    try:
        return from_json(data)
    except (KeyError, TypeError, ValueError) as exc:
        raise ReportError(f"{path}: not a history file of schema {SCHEMA}: {exc!r}") from None


def from_json(data: Mapping[str, Any]) -> History:
    """A history of schema 2, or of schema 1 read as its verdicts' entries (see SCHEMA)."""
    schema = data.get("schema")
    if schema not in READS:
        raise ValueError(f"schema {schema!r}")
    entries = [_entry(e) for e in data["entries"]]
    if schema == 1:
        entries = [dataclasses.replace(e, step=dataclasses.replace(e.step, check=None)) for e in entries]
    return History(tuple(str(v) for v in data["computed_against"]), tuple(entries))


def _entry_json(e: Entry) -> dict[str, Any]:
    return {
        "id": e.step.id,
        "neighbours": {"before": e.step.before, "after": e.step.after},
        "neighbour_verdicts": list(e.step.verdicts),
        "check": e.step.check,
        "before": _side_json(e.before),
        "after": _side_json(e.after),
        "found_by": e.found_by,
        "probe_runs": e.probe_runs,
        "inside": [{"version": v, "gave": gave} for v, gave in e.inside],
        "moved": list(e.moved),
    } | ({"later": [{"before": _side_json(a), "after": _side_json(b)} for a, b in e.later]} if e.later else {})


def _side_json(s: Side) -> dict[str, Any]:
    return {"version": s.version, "verdict": s.verdict, "note": s.note, "yanked": s.yanked}


def _entry(d: Mapping[str, Any]) -> Entry:
    verdicts = tuple(str(v) for v in d["neighbour_verdicts"])
    if len(verdicts) != 2 or d["found_by"] not in METHODS:
        raise ValueError(f"entry for {d.get('id')!r}")
    pair = d["neighbours"]
    step = Step(str(d["id"]), str(pair["before"]), str(pair["after"]), (verdicts[0], verdicts[1]), d["check"])
    return Entry(
        step,
        _side(d["before"]),
        _side(d["after"]),
        str(d["found_by"]),
        int(d["probe_runs"]),
        tuple((str(i["version"]), str(i["gave"])) for i in d["inside"]),
        tuple(str(m) for m in d["moved"]),
        tuple((_side(c["before"]), _side(c["after"])) for c in d.get("later", [])),
    )


def _side(d: Mapping[str, Any]) -> Side:
    return Side(str(d["version"]), str(d["verdict"]), str(d["note"]), bool(d["yanked"]))
