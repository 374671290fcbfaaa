"""Find the adjacent pair of releases where a behaviour's verdict changes.

Pure: the search only calls an injected `probe(version) -> ReleaseVerdict`, so the logic is tested
on scripted verdicts without installing anything. A release that gives no verdict (its
install failed, its probe errored, it bundles no CLI) is skipped with its reason, as
`git bisect skip` does, and the search goes on around it.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class ReleaseVerdict:
    """What probing one release gave: a verdict, or why there is none (`skipped`)."""

    version: str
    verdict: str | None = None
    note: str = ""
    checks: dict[str, str] = field(default_factory=dict)
    observed: Any = None
    skipped: str | None = None

    @classmethod
    def from_entry(cls, version: str, entry: Mapping[str, Any]) -> ReleaseVerdict:
        """A report's entry for the behaviour, as the ReleaseVerdict probing that release gave."""
        return cls(
            version,
            verdict=str(entry["verdict"]),
            note=str(entry.get("note") or ""),
            checks=dict(entry.get("checks") or {}),
            observed=entry.get("observed"),
        )

    def key(self, check: str | None) -> str:
        """What is compared: the verdict, or one sub-check's (the verdict when it has none)."""
        assert self.verdict is not None, "a skipped release has no verdict"
        if check is None:
            return self.verdict
        return self.checks.get(check, f"({self.verdict})")


Probe = Callable[[str], ReleaseVerdict]


@dataclass
class Answer:
    """`changes` holds each adjacent pair (of releases with a verdict) whose keys differ.

    Bisect gives at most one; scan every one. `agree` is true when both ends gave the same
    key (then bisect saw no change, which a change and a change back would also give).
    """

    versions: list[str]
    probed: list[ReleaseVerdict]
    changes: list[tuple[ReleaseVerdict, ReleaseVerdict]]
    first: ReleaseVerdict | None = None
    last: ReleaseVerdict | None = None

    @property
    def agree(self) -> bool:
        return self.first is not None and self.last is not None and not self.changes

    @property
    def skipped(self) -> list[ReleaseVerdict]:
        return [o for o in self.probed if o.skipped is not None]


class _Memo:
    """Each release probed at most once, in the order asked."""

    def __init__(self, probe: Probe) -> None:
        self.probe = probe
        self.seen: dict[str, ReleaseVerdict] = {}

    def __call__(self, version: str) -> ReleaseVerdict:
        if version not in self.seen:
            self.seen[version] = self.probe(version)
        return self.seen[version]


def bisect(
    versions: Sequence[str],
    probe: Probe,
    check: str | None = None,
    known: Mapping[str, ReleaseVerdict] | None = None,
    ends_at_once: bool = False,
) -> Answer:
    """Binary search for one change between the first and last release that give a verdict.

    Keeps lo's key equal to the first release's and hi's different, so with several
    changes it still ends on an adjacent pair where the key moves (not necessarily the first).
    `known` outcomes (releases with a committed report) cost no probe run: the search splits
    at them first, nearest the middle, and probes only inside the gap they leave.
    With `ends_at_once`, the first and last release are probed at the same time when neither
    is known (`probe` must then be safe to call from two threads): the same runs, less waiting.
    """
    known = known or {}
    memo = _Memo(lambda v: known[v] if v in known else probe(v))
    vs = list(versions)
    if ends_at_once and len(vs) > 1 and vs[0] not in known and vs[-1] not in known:
        with ThreadPoolExecutor(max_workers=2) as pool:
            for v, o in zip((vs[0], vs[-1]), pool.map(probe, (vs[0], vs[-1])), strict=True):
                memo.seen[v] = o
    lo = next((i for i in range(len(vs)) if memo(vs[i]).skipped is None), None)
    hi = next((i for i in reversed(range(len(vs))) if lo is not None and i > lo and memo(vs[i]).skipped is None), None)
    answer = Answer(vs, [], [])
    if lo is not None:
        answer.first = answer.last = memo(vs[lo])
    if lo is None or hi is None:
        answer.probed = list(memo.seen.values())
        return answer
    answer.last = memo(vs[hi])
    want = memo(vs[lo]).key(check)
    if memo(vs[hi]).key(check) != want:
        while True:
            mid = _free_mid(vs, lo, hi, known) or _next_mid(vs, lo, hi, memo)
            if mid is None:
                break
            if memo(vs[mid]).key(check) == want:
                lo = mid
            else:
                hi = mid
        answer.changes = [(memo(vs[lo]), memo(vs[hi]))]
    answer.probed = list(memo.seen.values())
    return answer


def _free_mid(vs: list[str], lo: int, hi: int, known: Mapping[str, ReleaseVerdict]) -> int | None:
    """The release with a known verdict nearest the middle of (lo, hi), if any: free to split at."""
    free = [i for i in range(lo + 1, hi) if vs[i] in known and known[vs[i]].skipped is None]
    return min(free, key=lambda i: (abs(i - (lo + hi) / 2), i)) if free else None


def _next_mid(vs: list[str], lo: int, hi: int, memo: _Memo) -> int | None:
    """The release nearest the middle of (lo, hi) that gives a verdict, probing outwards
    from the middle past skipped ones; None when none between does."""
    middle = (lo + hi) / 2
    for i in sorted(range(lo + 1, hi), key=lambda i: (abs(i - middle), i)):
        if memo(vs[i]).skipped is None:
            return i
    return None


def scan(versions: Sequence[str], probe: Probe, check: str | None = None) -> Answer:
    """Probe every release and list every change between neighbours that gave a verdict."""
    probed = [probe(v) for v in versions]
    judged = [o for o in probed if o.skipped is None]
    changes = [(a, b) for a, b in zip(judged, judged[1:], strict=False) if a.key(check) != b.key(check)]
    return Answer(list(versions), probed, changes, judged[0] if judged else None, judged[-1] if judged else None)


def skipped_between(answer: Answer, before: ReleaseVerdict, after: ReleaseVerdict) -> list[ReleaseVerdict]:
    """Releases inside the pair that gave no verdict: the change may lie at any of them."""
    i, j = answer.versions.index(before.version), answer.versions.index(after.version)
    inside = set(answer.versions[i + 1 : j])
    return [o for o in answer.probed if o.version in inside and o.skipped is not None]


def resolver_picks(after: str, releases: Sequence[tuple[str, bool]]) -> str | None:
    """For a change first seen on a yanked release: the first release from it on that a
    resolver picks (not yanked), which is where users meet the change; None if none is."""
    names = [v for v, _ in releases]
    start = names.index(after)
    return next((v for v, yanked in releases[start:] if not yanked), None)


def observation_diff(before: Any, after: Any, limit: int = 8, width: int = 100) -> list[str]:
    """What moved between two stored observations, one line per changed leaf, by path."""
    a, b = dict(_leaves(before)), dict(_leaves(after))
    lines = []
    for path in sorted(set(a) | set(b)):
        if a.get(path, _ABSENT) != b.get(path, _ABSENT):
            was, now = _show(a.get(path, _ABSENT), width), _show(b.get(path, _ABSENT), width)
            lines.append(f"{path or '(whole)'}: {was} -> {now}")
    if len(lines) > limit:
        lines = [*lines[:limit], f"... and {len(lines) - limit} more"]
    return lines


_ABSENT = object()


def _leaves(value: Any, path: str = "") -> list[tuple[str, Any]]:
    if isinstance(value, dict) and value:
        return [leaf for k, v in value.items() for leaf in _leaves(v, f"{path}.{k}" if path else str(k))]
    if isinstance(value, list) and value:
        return [leaf for i, v in enumerate(value) for leaf in _leaves(v, f"{path}[{i}]")]
    return [(path, value)]


def _show(value: Any, width: int) -> str:
    text = "(absent)" if value is _ABSENT else json.dumps(value, sort_keys=True)
    return text if len(text) <= width else text[: width - 1] + "…"
