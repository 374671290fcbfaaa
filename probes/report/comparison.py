"""What moved between two reports: the one comparison that the gate, the upgrade view (and the
release notes built on it) and the SDK-differences page all read, so they cannot disagree.

For each behaviour both reports have: whether its verdict moved, which sub-checks moved and,
when neither did, whether what it observed changed; then the behaviours only one report has,
and the public items only one report's surface has.

The rule for a sub-check only one report names: it moved, from or to absent (None), exactly as
a sub-check whose verdict changed. A sub-check that disappears is a contract no longer checked,
one that appears a contract the other report says nothing of: either is a move the reader must
see, so the behaviour has moved in every view and the gate fails on it as on any sub-check move.

An observation (the note, or the observed value) has changed when it differs beyond the two
reports' own version numbers, the SDK's and the CLI's: an SDK that reports its own version is
not seen differently for that.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from sdkprobe.areas import order
from sdkprobe.report.diff import differences

VERSION = "<version>"  # what a report's own version number reads as in a compared observation


@dataclass(frozen=True)
class CheckMove:
    """One sub-check whose verdict differs between the two entries (None: not named there)."""

    name: str
    before: str | None
    after: str | None


@dataclass(frozen=True)
class BehaviourChange:
    """A behaviour both reports have whose entries differ in verdict, sub-checks or observation."""

    id: str
    before: Mapping[str, Any]  # its entry in the first report
    after: Mapping[str, Any]  # and in the second
    checks: tuple[CheckMove, ...]  # by name
    observed: tuple[Any, Any]  # both observations, the reports' version numbers said as VERSION
    notes: tuple[str, str]  # both notes, likewise

    @property
    def verdict_moved(self) -> bool:
        return bool(self.before["verdict"] != self.after["verdict"])

    @property
    def moved(self) -> bool:
        """The verdict or a sub-check moved: what fails the gate."""
        return self.verdict_moved or bool(self.checks)

    def seen(self, width: int = 40) -> list[str]:
        """Where the observations differ ('observed.x: 1 → 2'), each value cut to `width`."""
        return differences(*self.observed, width=width)

    @property
    def note_moved(self) -> bool:
        return self.notes[0] != self.notes[1]

    @property
    def security(self) -> str:
        """What a change of this contract exposes, when either entry's declaration marks it."""
        return str(self.after.get("security") or self.before.get("security") or "")


@dataclass(frozen=True)
class Comparison:
    shared: int  # behaviours both reports have
    changes: tuple[BehaviourChange, ...]  # those that differ, by area order, then id
    added: tuple[Mapping[str, Any], ...]  # entries only the second report has
    removed: tuple[Mapping[str, Any], ...]  # entries only the first has
    surface_added: tuple[str, ...]  # public items only the second report's surface has
    surface_removed: tuple[str, ...]
    surface_lacking: tuple[str, ...]  # the version of each report recording no surface: then none is compared

    @property
    def moved(self) -> list[BehaviourChange]:
        return [c for c in self.changes if c.moved]

    @property
    def seen_differently(self) -> list[BehaviourChange]:
        """Behaviours whose verdict and sub-checks stayed while their observation changed."""
        return [c for c in self.changes if not c.moved]


def compare_reports(before: Mapping[str, Any], after: Mapping[str, Any]) -> Comparison:
    """What moved from report `before` to report `after` (either may be the older), their ids
    taken as they are (rename them first)."""
    plain = _plain(before, after)
    old = {b["id"]: b for b in before["behaviours"]}
    new = {b["id"]: b for b in after["behaviours"]}
    shared = sorted(set(old) & set(new), key=lambda i: _place(old[i]))
    changes = []
    for bid in shared:
        a, b = old[bid], new[bid]
        ca, cb = a.get("checks") or {}, b.get("checks") or {}
        checks = tuple(CheckMove(n, ca.get(n), cb.get(n)) for n in sorted(set(ca) | set(cb)) if ca.get(n) != cb.get(n))
        change = BehaviourChange(
            bid,
            a,
            b,
            checks,
            (plain(a.get("observed")), plain(b.get("observed"))),
            (str(plain(a.get("note") or "")), str(plain(b.get("note") or ""))),
        )
        if change.moved or change.note_moved or change.seen():
            changes.append(change)
    lacking = tuple(str(r["sdk_version"]) for r in (before, after) if r.get("surface") is None)
    added, removed = surface_moved(before.get("surface") or (), after.get("surface") or ())
    return Comparison(
        len(shared),
        tuple(changes),
        tuple(sorted((new[i] for i in set(new) - set(old)), key=_place)),
        tuple(sorted((old[i] for i in set(old) - set(new)), key=_place)),
        () if lacking else added,
        () if lacking else removed,
        lacking,
    )


def surface_moved(before: Iterable[str], after: Iterable[str]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The items `after` adds to `before`, and those it removes, each sorted."""
    a, b = set(before), set(after)
    return tuple(sorted(b - a)), tuple(sorted(a - b))


def _place(entry: Mapping[str, Any]) -> tuple[Any, str]:
    return (order(entry["area"]), entry["id"])


def _plain(*reports: Mapping[str, Any]) -> Any:
    """A function saying a value with the reports' version numbers as VERSION (longest first,
    so a version inside a longer one is never cut)."""
    found = {str(v) for r in reports for v in (r.get("sdk_version"), r.get("cli_version")) if v}
    versions = sorted(found, key=lambda v: (-len(v), v))

    def plain(value: Any) -> Any:
        text = json.dumps(value, sort_keys=True)
        for v in versions:
            text = text.replace(v, VERSION)
        return json.loads(text)

    return plain
