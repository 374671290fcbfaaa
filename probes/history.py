"""Refresh the history file: bisect every change of verdict between neighbouring listed versions.

Pure but for the injected prober: `Finder` narrows one step to a pair of releases with
probes.bisect, `refresh` keeps every entry whose step is unchanged and asks the finder for the
rest. The two neighbours' outcomes come from their committed reports, not from new runs: they
are the cells the matrix shows, and reusing them saves two probe runs per step.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, Protocol

from probes.bisect import Outcome, bisect, observation_diff, scan
from probes.releases import Release
from probes.report.history import Entry, History, Side, Step
from probes.versions import version_key

# Up to this many releases between two neighbours, probe them all: it costs at most one run
# more than bisecting and sees a change and a change back.
SCAN_UP_TO = 2


class CountingProbe(Protocol):
    """probe(version) -> Outcome, counting the probe runs it started (ReleaseProber is one)."""

    runs: int

    def __call__(self, version: str, /) -> Outcome: ...


class Finder:
    """finder(step) -> the Entry for it, or None when no change is seen between the neighbours."""

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

    def __call__(self, step: Step) -> Entry | None:
        prober = self.make_prober(step.id)  # one per step: steps may be found in parallel
        seen = {v: Outcome.from_entry(v, self.reports[v][step.id]) for v in (step.before, step.after)}

        def probe(version: str) -> Outcome:
            if version not in seen:
                seen[version] = prober(version)
            return seen[version]

        inner = self.between(step.before, step.after)
        versions = [step.before, *inner, step.after]
        started = prober.runs
        method = "scan" if len(inner) <= SCAN_UP_TO else "bisect"
        # A bisect finds one change; while the last one found does not end on the after-neighbour's
        # verdict, another lies between it and that neighbour (not-applicable, differs, then holds).
        want = seen[step.after].key(step.check)
        changes: list[tuple[Outcome, Outcome]] = []
        start = 0
        while not changes or changes[-1][1].key(step.check) != want:
            answer = (scan if method == "scan" else bisect)(versions[start:], probe, step.check)
            if not answer.changes:
                break
            changes += answer.changes
            start = versions.index(changes[-1][1].version)
        if not changes:
            return None
        first, last = changes[0][0], changes[-1][1]
        i, j = versions.index(first.version), versions.index(last.version)
        inside = sorted(
            (o for v, o in seen.items() if i < versions.index(v) < j), key=lambda o: versions.index(o.version)
        )
        pairs = [(self._side(a), self._side(b)) for a, b in changes]
        return Entry(
            step,
            *pairs[0],
            method,
            prober.runs - started,
            tuple((o.version, f"skipped: {o.skipped}" if o.skipped else str(o.verdict)) for o in inside),
            tuple(observation_diff(first.observed, last.observed)),
            tuple(pairs[1:]),
        )

    def _side(self, o: Outcome) -> Side:
        return Side(o.version, str(o.verdict), o.note, self.yanked.get(o.version, False))


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
    find: Callable[[Step], Entry | None],
    jobs: int = 1,
) -> Refreshed:
    """Keep each old entry whose step is still current, find the others of the wanted behaviours
    (all when `wanted` is None). Entries of other behaviours are kept as they are, stale or not:
    a refresh of some behaviours never drops another's entry; a full refresh drops stale ones.

    With `jobs` > 1 that many steps are found at once (each probe run is its own process);
    the entries come out in step order all the same."""
    chosen = None if wanted is None else set(wanted)
    previous = {e.step: e for e in old.entries} if old else {}
    current = set(all_steps)
    out = Refreshed(History(tuple(listed), ()))
    # An entry that holds only the first of several changes (written before chains were
    # followed) is found again.
    to_find = [
        s for s in all_steps if (chosen is None or s.id in chosen) and not (s in previous and previous[s].complete)
    ]
    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        found = dict(zip(to_find, pool.map(find, to_find), strict=True))
    entries: list[Entry] = []
    for step in all_steps:
        if chosen is not None and step.id not in chosen:
            if step in previous:
                entries.append(previous[step])
            continue
        if step not in found:
            out.kept.append(previous[step])
            entries.append(previous[step])
            continue
        entry = found[step]
        if entry is None:
            out.unresolved.append(step)
        else:
            out.found.append(entry)
            entries.append(entry)
    stale = [e for e in previous.values() if e.step not in current]
    others = [e for e in stale if chosen is not None and e.step.id not in chosen]
    entries += others
    out.dropped = [e for e in stale if e not in others]
    out.history = History(tuple(listed), tuple(entries))
    return out
