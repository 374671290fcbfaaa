"""Refresh the history file: follow the verdict and every sub-check across each gap between
neighbouring listed versions where one of them moved.

Pure but for the injected prober: `Finder` searches one gap with sdkprobe.releases.bisect, `refresh`
keeps the entries of every gap whose steps are unchanged and asks the finder for the rest.
The two neighbours' outcomes come from their committed reports, not from new runs: they
are the cells the matrix shows, and reusing them saves two probe runs per gap.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, Protocol

from sdkprobe.releases.bisect import ReleaseVerdict, bisect, observation_diff
from sdkprobe.releases.index import Release
from sdkprobe.releases.versions import version_key
from sdkprobe.report.history import Entry, History, Side, Step

# Up to this many releases between two neighbours, probe them all: it costs at most one run
# more than bisecting and sees a change and a change back.
SCAN_UP_TO = 2

Gap = Sequence[Step]  # the steps of one behaviour between two neighbours: verdict first, then sub-checks
Find = Callable[[Gap], Mapping[Step, Entry]]


class CountingProbe(Protocol):
    """probe(version) -> ReleaseVerdict, counting the probe runs it started (ReleaseProber is one)."""

    runs: int

    def __call__(self, version: str, /) -> ReleaseVerdict: ...


class Finder:
    """finder(gap) -> an Entry for each of the gap's steps whose key changes between the neighbours.

    Every key is followed over every release probed so far: wherever two probed releases next
    to each other in that order give a key different values with unprobed releases between,
    the gap is bisected there on that key, until every change of every key is narrowed to a
    pair. So the releases where one sub-check moved become the places where the verdict (or
    another sub-check) is seen to move and move back, although the neighbours agree on it.
    A key that moves and moves back between two probed releases that agree is not seen.
    """

    def __init__(
        self,
        index: Sequence[Release],
        reports: Mapping[str, Mapping[str, Mapping[str, Any]]],  # version -> id -> report entry
        make_prober: Callable[[str], CountingProbe],
    ) -> None:
        self.index = list(index)
        self.yanked = {r.version: r.yanked for r in index}
        self.reports = reports
        self.make_prober = make_prober

    def between(self, before: str, after: str) -> list[str]:
        """The releases strictly between two versions that can be probed (bundling a CLI), yanked too."""
        lo, hi = version_key(before), version_key(after)
        return [r.version for r in self.index if r.bundles_cli and lo < version_key(r.version) < hi]

    def __call__(self, gap: Gap) -> dict[Step, Entry]:
        first = gap[0]
        prober = self.make_prober(first.id)  # one per gap: gaps may be searched in parallel
        seen = {v: ReleaseVerdict.from_entry(v, self.reports[v][first.id]) for v in (first.before, first.after)}

        def probe(version: str) -> ReleaseVerdict:
            if version not in seen:
                seen[version] = prober(version)
            return seen[version]

        inner = self.between(first.before, first.after)
        versions = [first.before, *inner, first.after]
        started = prober.runs
        method = "scan" if len(inner) <= SCAN_UP_TO else "bisect"
        if method == "scan":
            for v in inner:
                probe(v)
        keys = [s.check for s in gap]
        while (open_pair := _unplaced(versions, seen, keys)) is not None:
            key, lo, hi = open_pair
            known = {v: _as_seen_by(o, key) for v, o in seen.items()}

            def probe_key(version: str, key: str | None = key) -> ReleaseVerdict:
                return _as_seen_by(probe(version), key)

            bisect(versions[lo : hi + 1], probe_key, key, known=known)
        runs = prober.runs - started
        out = {}
        for step in gap:
            changes = _changes(versions, seen, step.check)
            if changes:
                out[step] = self._entry(step, versions, seen, changes, method, runs)
        return out

    def _entry(
        self,
        step: Step,
        versions: list[str],
        seen: Mapping[str, ReleaseVerdict],
        changes: list[tuple[ReleaseVerdict, ReleaseVerdict]],
        method: str,
        runs: int,
    ) -> Entry:
        first, last = changes[0][0], changes[-1][1]
        i, j = versions.index(first.version), versions.index(last.version)
        inside = [seen[v] for v in versions[i + 1 : j] if v in seen]
        pairs = [(self._side(a, step.check), self._side(b, step.check)) for a, b in changes]
        return Entry(
            step,
            *pairs[0],
            method,
            runs,
            tuple((o.version, f"skipped: {o.skipped}" if o.skipped else o.key(step.check)) for o in inside),
            tuple(observation_diff(first.observed, last.observed)),
            tuple(pairs[1:]),
        )

    def _side(self, o: ReleaseVerdict, check: str | None) -> Side:
        return Side(o.version, o.key(check), o.note, self.yanked.get(o.version, False))


def _as_seen_by(o: ReleaseVerdict, key: str | None) -> ReleaseVerdict:
    """The outcome as the search for one key sees it: a release whose entry lacks that
    sub-check gives it no value, as a skipped release gives none (its verdict has its own key)."""
    if key is None or o.skipped is not None or key in o.checks:
        return o
    return ReleaseVerdict(o.version, skipped=f"no sub-check {key}")


def _judged(
    versions: Sequence[str], seen: Mapping[str, ReleaseVerdict], key: str | None
) -> list[tuple[int, ReleaseVerdict]]:
    """The releases probed so far that gave the key a value, in release order, with their index."""
    return [(i, seen[v]) for i, v in enumerate(versions) if v in seen and _as_seen_by(seen[v], key).skipped is None]


def _changes(
    versions: Sequence[str], seen: Mapping[str, ReleaseVerdict], key: str | None
) -> list[tuple[ReleaseVerdict, ReleaseVerdict]]:
    """Each pair of releases next to each other among those that gave the key a value where it moves."""
    judged = [o for _, o in _judged(versions, seen, key)]
    return [(a, b) for a, b in zip(judged, judged[1:], strict=False) if a.key(key) != b.key(key)]


def _unplaced(
    versions: Sequence[str], seen: Mapping[str, ReleaseVerdict], keys: Sequence[str | None]
) -> tuple[str | None, int, int] | None:
    """The first key, in order, that moves between two probed releases with unprobed ones
    between them, and those releases' indexes; None when every change found is a pair."""
    for key in keys:
        judged = _judged(versions, seen, key)
        for (i, a), (j, b) in zip(judged, judged[1:], strict=False):
            if a.key(key) != b.key(key) and any(v not in seen for v in versions[i + 1 : j]):
                return key, i, j
    return None


@dataclass
class Refreshed:
    """The new history and what the refresh did, for the command to say."""

    history: History
    kept: list[Entry] = field(default_factory=list)
    found: list[Entry] = field(default_factory=list)
    unresolved: list[Step] = field(default_factory=list)
    dropped: list[Entry] = field(default_factory=list)  # stale entries of the behaviours refreshed


def refresh(
    old: History | None,
    all_steps: Sequence[Step],
    wanted: Iterable[str] | None,
    listed: Sequence[str],
    find: Find,
    jobs: int = 1,
) -> Refreshed:
    """Keep the entries of each gap that is still current, search the others of the wanted
    behaviours (all when `wanted` is None). Entries of other behaviours are kept as they are,
    stale or not: a refresh of some behaviours never drops another's entry; a full refresh
    drops stale ones.

    A gap is current when each of its steps that moves has a complete entry and none of its
    entries is stale (its key's values on the neighbours changed since). A step that moves
    and gets no entry from the search is unresolved; one that does not move gets an entry only
    when its key was seen to move and move back. With `jobs` > 1 that many gaps are searched at
    once (each probe run is its own process); the entries come out in step order all the same."""
    chosen = None if wanted is None else set(wanted)
    previous = {e.step: e for e in old.entries} if old else {}
    current = set(all_steps)
    gaps: dict[tuple[str, str, str], list[Step]] = {}
    for s in all_steps:
        gaps.setdefault(s.gap, []).append(s)
    # A gap whose entries hold only the first of several changes (written before chains were
    # followed), or not every key that moved (before sub-checks were followed), is searched again.
    stale_gaps = {e.step.gap for e in previous.values() if e.step not in current}
    to_find = [
        g
        for key, g in gaps.items()
        if (chosen is None or key[0] in chosen)
        and (key in stale_gaps or not all(s in previous and previous[s].complete for s in g if s.moves))
    ]
    out = Refreshed(History(tuple(listed), ()))
    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        found = {tuple(g): dict(r) for g, r in zip(to_find, pool.map(find, to_find), strict=True)}
    entries: list[Entry] = []
    for gap in gaps.values():
        result = found.get(tuple(gap))
        for step in gap:
            if result is None:  # not searched: current, or a behaviour not refreshed
                if step in previous:
                    entries.append(previous[step])
                    if chosen is None or step.id in chosen:
                        out.kept.append(previous[step])
            elif step in result:
                out.found.append(result[step])
                entries.append(result[step])
            elif step.moves:
                out.unresolved.append(step)
    stale = [e for e in previous.values() if e.step not in current]
    others = [e for e in stale if chosen is not None and e.step.id not in chosen]
    entries += others
    out.dropped = [e for e in stale if e not in others]
    out.history = History(tuple(listed), tuple(entries))
    return out
